package onec_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sony/gobreaker/v2"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
	"github.com/finbot/finbot/internal/testnet"
)

const testToken = "s3cr3t-token-never-echoed"

func newProxy(t *testing.T, o onec.ProxyOptions) *onec.Proxy {
	t.Helper()
	p, err := onec.NewProxy(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sampleCalls are one call per template with realistic parameters.
func sampleCalls(l *onec.Ledger) map[string]map[string]any {
	org := ref(onec.TypeOrganization, l.DefaultOrganization().Ref)
	var ctr onec.Contract
	for _, c := range l.Contracts {
		if c.OrganizationRef == l.DefaultOrganization().Ref && c.Kind == "with_customer" {
			ctr = c
			break
		}
	}
	cp, contract := ref(onec.TypeCounterparty, ctr.OwnerRef), ref(onec.TypeContract, ctr.Ref)
	asOf, from, to := "2026-01-01T00:00:00", "2025-01-01T00:00:00", "2025-12-31T23:59:59"
	balance := map[string]any{"НаДату": asOf, "Организация": org, "СчетКод": "62", "СчетМаска": "62.%"}
	sheet := map[string]any{"НачалоПериода": "2026-01-01T00:00:00", "КонецПериода": "2026-03-31T23:59:59", "Организация": org,
		"СчетКод": "62", "СчетМаска": "62.%", "Контрагент": nil}
	card := map[string]any{"НачалоПериода": "2026-03-01T00:00:00", "КонецПериода": "2026-03-31T23:59:59", "Организация": org,
		"СчетКод": "62", "СчетМаска": "62.%", "Контрагент": cp}
	aging := map[string]any{"НаДату": asOf, "Организация": org, "СчетКод": "62", "СчетМаска": "62.%", "Контрагент": nil,
		"СрокОплатыПоУмолчанию": 10, "Разрез": onec.AgingByContract}
	for i, d := range []string{"2025-12-31", "2025-12-01", "2025-11-01", "2025-10-02", "2025-10-02", "2025-10-02", "2025-10-02"} {
		aging[onec.AgingBoundParam(i)] = d + "T00:00:00"
	}
	payables := maps.Clone(aging)
	payables["СчетКод"], payables["СчетМаска"], payables["Разрез"] = "60", "60.%", ""
	return map[string]map[string]any{
		"address.aging.receivables":               aging,
		"address.aging.payables":                  payables,
		"address.reconciliation.balances":         {"НачалоПериода": "2026-01-01T00:00:00", "КонецПериода": "2026-03-31T23:59:59", "Организация": org, "Контрагент": cp, "Договор": nil},
		"address.reconciliation.lines":            {"НачалоПериода": from, "КонецПериода": to, "Организация": org, "Контрагент": cp, "Договор": contract},
		"address.turnover_sheet.by_account":       {"НачалоПериода": from, "КонецПериода": to, "Организация": org, "СчетКод": "", "СчетМаска": "%", "Контрагент": cp},
		"address.turnover_sheet.by_counterparty":  sheet,
		"address.turnover_sheet.by_contract":      sheet,
		"address.account_card.movements":          card,
		"address.account_card.balances":           {"НачалоПериода": from, "КонецПериода": to, "Организация": org, "СчетКод": "51", "СчетМаска": "51.%", "Контрагент": nil},
		"address.open_contracts.by_asof":          {"НаДату": asOf, "Организация": org, "Контрагент": nil},
		"address.offsets.candidates":              {"НаДату": "2026-04-01T00:00:00", "Организация": org, "Контрагент": nil},
		"address.payables.counterparty_totals":    {"НаДату": asOf, "Организация": org, "СчетКод": "60", "СчетМаска": "60.%"},
		"address.receivables.counterparty_totals": balance,
		"address.account.balance_snapshot":        {"НаДату": asOf, "Организация": org, "СчетКод": "51", "СчетМаска": "51.%"},
		"address.open_items.by_counterparty":      {"НаДату": asOf, "Организация": org, "Контрагент": cp, "Договор": nil},
		"address.open_items.by_contract":          {"НаДату": asOf, "Организация": org, "Договор": contract, "Контрагент": nil},
		"address.documents.by_counterparty":       {"НачалоПериода": from, "КонецПериода": to, "Организация": org, "Контрагент": cp, "ТипДокумента": ""},
		"address.bank_ops.by_counterparty":        {"НачалоПериода": nil, "КонецПериода": nil, "Организация": org, "Контрагент": cp},
		"address.documents.by_contract":           {"НачалоПериода": from, "КонецПериода": to, "Организация": org, "Договор": contract, "ТипДокумента": "РеализацияТоваровУслуг"},
		"address.balance.drilldown_documents":     {"НаДату": asOf, "Организация": org, "СчетКод": "62", "СчетМаска": "62.%", "Контрагент": cp, "Договор": nil},
		"register.movements":                      {"НаДату": asOf, "Организация": org, "СчетКод": "62", "СчетМаска": "62.%", "Контрагент": cp, "Договор": nil},
		"catalog.organizations":                   nil,
		"catalog.counterparties":                  {"ПослеКода": ""},
		"catalog.contracts":                       {"ПослеКода": ""},
		"catalog.accounts":                        nil,
		"catalog.bank_accounts":                   nil,
		// on the ledger with quantity accounts (quantityDemo)
		"address.stock.balance": {"НаДату": "2025-03-01T00:00:00", "Организация": onec.Ref{UUID: onec.QuantityLedger().DefaultOrganization().Ref,
			Type: onec.TypeOrganization}.Param(), "СчетКод": "41", "СчетМаска": "41.%", "Номенклатура": nil},
		"catalog.nomenclature": {"ПослеКода": ""},
	}
}

// Through the proxy, every template returns exactly what the Demo returns directly (the
// quantity templates on a ledger that keeps quantities).
func TestProxyRoundTrip(t *testing.T) {
	l, d, _ := fixture(t)
	srv := onectest.NewServer(t, d, onectest.WithToken(testToken), onectest.WithChannel("buh_1"))
	p := newProxy(t, onec.ProxyOptions{URL: srv.URL + "/", Channel: "buh_1", Token: testToken})
	qd := onec.NewDemo(onec.QuantityLedger())
	qsrv := onectest.NewServer(t, qd, onectest.WithToken(testToken), onectest.WithChannel("buh_1"))
	qp := newProxy(t, onec.ProxyOptions{URL: qsrv.URL + "/", Channel: "buh_1", Token: testToken})
	calls := sampleCalls(l)
	var sent, qsent []string
	for _, id := range onec.QueryIDs() {
		t.Run(id, func(t *testing.T) {
			d, p, sent := d, p, &sent
			if quantityTemplates[id] {
				d, p, sent = qd, qp, &qsent
			}
			q, _ := onec.Query(id)
			for _, limit := range []int{1000, 2} {
				want, err := d.Execute(context.Background(), q, calls[id], limit)
				if err != nil {
					t.Fatal(err)
				}
				if len(want) == 0 {
					t.Fatal("the Demo returns no rows; the round trip proves nothing")
				}
				got, err := p.Execute(context.Background(), q, calls[id], limit)
				if err != nil {
					t.Fatal(err)
				}
				*sent = append(*sent, q)
				if diff := gocmp.Diff(want, got); diff != "" {
					t.Errorf("limit %d: proxy vs demo (-demo +proxy):\n%s", limit, diff)
				}
			}
		})
	}
	if diff := gocmp.Diff(sent, srv.Queries()); diff != "" {
		t.Errorf("texts received by the proxy (-sent +received):\n%s", diff)
	}
	if diff := gocmp.Diff(qsent, qsrv.Queries()); diff != "" {
		t.Errorf("texts received by the quantity base's proxy (-sent +received):\n%s", diff)
	}
	for _, q := range srv.Queries() {
		if _, ok := onec.QueryID(q); !ok {
			t.Errorf("a non-whitelisted text reached the proxy: %.60q", q)
		}
	}
	if p.State() != "closed" {
		t.Errorf("State() = %q after successes", p.State())
	}
}

// The request on the wire: route, channel, headers and body of §5.2.
func TestProxyRequestFormat(t *testing.T) {
	l, d, _ := fixture(t)
	srv := onectest.NewServer(t, d, onectest.WithToken(testToken))
	type seen struct {
		method, path, channel, contentType, auth string
		body                                     map[string]any
	}
	got := make(chan seen, 1)
	srv.Fail(func(w http.ResponseWriter, r *http.Request) bool {
		raw, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(raw)))
		var body map[string]any
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.UseNumber()
		_ = dec.Decode(&body)
		got <- seen{r.Method, r.URL.Path, r.URL.Query().Get("channel"), r.Header.Get("Content-Type"), r.Header.Get("Authorization"), body}
		return false // let the stand-in answer
	})
	p := newProxy(t, onec.ProxyOptions{URL: srv.URL, Token: testToken})
	q, _ := onec.Query("address.receivables.counterparty_totals")
	params := sampleCalls(l)["address.receivables.counterparty_totals"]
	if _, err := p.Execute(context.Background(), q, params, 50); err != nil {
		t.Fatal(err)
	}
	want := seen{"POST", "/api/execute_query", "default", "application/json", "Bearer " + testToken, map[string]any{
		"query": q, "params": params, "limit": json.Number("50"), "include_schema": false,
	}}
	if diff := gocmp.Diff(want, <-got, gocmp.AllowUnexported(seen{})); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if p.Name() != "1С (MCP toolkit, канал default)" {
		t.Errorf("Name() = %q", p.Name())
	}
}

func TestProxyErrors(t *testing.T) {
	l, d, _ := fixture(t)
	receivables, _ := onec.Query("address.receivables.counterparty_totals")
	params := sampleCalls(l)["address.receivables.counterparty_totals"]
	closed := "http://" + testnet.Addr(t) // nothing listens there, and nothing else may start to
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		server  []onectest.Option
		opts    onec.ProxyOptions // URL filled in unless set
		fail    func(http.ResponseWriter, *http.Request) bool
		ctx     context.Context
		query   string
		noParam bool
		limit   int
		want    error // a sentinel, or nil for *QueryError
		wantMsg string
	}{
		{name: "1C query error is HTTP 200 success:false", query: "ВЫБРАТЬ * ИЗ Справочник.Пользователи", wantMsg: "Синтаксическая ошибка"},
		{name: "missing parameter", noParam: true, wantMsg: "Параметр не задан"},
		{name: "401 without token", server: []onectest.Option{onectest.WithToken(testToken)}, want: onec.ErrUnauthorized},
		{name: "401 wrong token", server: []onectest.Option{onectest.WithToken(testToken)}, opts: onec.ProxyOptions{Token: "wrong"}, want: onec.ErrUnauthorized},
		{name: "415", fail: onectest.Respond(415, "application/json", `{"success":false,"error":"Content-Type должен быть application/json"}`), want: onec.ErrRejected, wantMsg: "Content-Type"},
		{name: "422 blank query", query: "   ", want: onec.ErrRejected, wantMsg: "Query cannot be empty"},
		{name: "422 limit", limit: 5000, want: onec.ErrRejected, wantMsg: "less than or equal to 1000"},
		{name: "500", fail: onectest.Respond(500, "text/plain", "Internal Server Error"), want: onec.ErrUnavailable},
		{name: "502 HTML", fail: onectest.Respond(502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>"), want: onec.ErrUnavailable, wantMsg: "502 Bad Gateway"},
		{name: "200 HTML", fail: onectest.Respond(200, "text/html", "<!DOCTYPE html><title>Вход</title>"), want: onec.ErrBadResponse},
		{name: "404 not the toolkit", fail: onectest.Respond(404, "text/plain", "Not Found"), want: onec.ErrBadResponse},
		{name: "TOON string data", fail: onectest.TOONData, want: onec.ErrBadResponse, wantMsg: "RESPONSE_FORMAT=json"},
		{name: "data not rows", fail: onectest.Respond(200, "application/json", `{"success":true,"data":[1,2],"count":2}`), want: onec.ErrBadResponse},
		{name: "body over 32 MB", fail: onectest.Respond(200, "application/json", `{"success":true,"data":[],"pad":"`+strings.Repeat("x", 32<<20)+`"}`), want: onec.ErrBadResponse},
		{name: "timeout", opts: onec.ProxyOptions{Timeout: 50 * time.Millisecond}, fail: onectest.Hang, want: onec.ErrUnavailable, wantMsg: "no answer within"},
		{name: "connection reset mid-body", fail: onectest.ResetMidBody, want: onec.ErrUnavailable},
		{name: "nothing listening", opts: onec.ProxyOptions{URL: closed}, want: onec.ErrUnavailable},
		{name: "no 1C on the channel", opts: onec.ProxyOptions{Channel: "other"}, want: onec.ErrUnavailable, wantMsg: "Таймаут ожидания ответа от 1С"},
		{name: "caller canceled", ctx: canceled, want: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := onectest.NewServer(t, d, tt.server...)
			srv.Fail(tt.fail)
			o := tt.opts
			if o.URL == "" {
				o.URL = srv.URL
			}
			ctx, query, limit, p := tt.ctx, tt.query, tt.limit, newProxy(t, o)
			if ctx == nil {
				ctx = context.Background()
			}
			if query == "" {
				query = receivables
			}
			if limit == 0 {
				limit = 10
			}
			qp := params
			if tt.noParam {
				qp = nil
			}
			rows, err := p.Execute(ctx, query, qp, limit)
			if rows != nil || err == nil {
				t.Fatalf("Execute = %d rows, %v; want an error", len(rows), err)
			}
			if tt.want == nil {
				var qe *onec.QueryError
				if !errors.As(err, &qe) {
					t.Fatalf("error %v is not a *QueryError", err)
				}
			} else if !errors.Is(err, tt.want) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q lacks %q", err, tt.wantMsg)
			}
			if strings.Contains(err.Error(), testToken) {
				t.Errorf("error %q echoes the token", err)
			}
			t.Logf("error: %.200v", err)
		})
	}
}

func TestProxyBreaker(t *testing.T) {
	_, d, _ := fixture(t)
	catalog, _ := onec.Query("catalog.accounts")
	srv := onectest.NewServer(t, d)
	var hits atomic.Int32
	srv.Fail(func(w http.ResponseWriter, r *http.Request) bool {
		hits.Add(1)
		return onectest.Respond(503, "text/plain", "Service Unavailable")(w, r)
	})
	p := newProxy(t, onec.ProxyOptions{URL: srv.URL, BreakerTimeout: time.Hour})
	for i := range 5 {
		if _, err := p.Execute(context.Background(), catalog, nil, 10); !errors.Is(err, onec.ErrUnavailable) || errors.Is(err, gobreaker.ErrOpenState) {
			t.Fatalf("call %d: %v, want ErrUnavailable from the server", i+1, err)
		}
	}
	if p.State() != "open" {
		t.Fatalf("State() = %q after 5 failures, want open", p.State())
	}
	srv.Fail(nil) // 1C is back, but the breaker keeps callers away until it probes
	_, err := p.Execute(context.Background(), catalog, nil, 10)
	if !errors.Is(err, onec.ErrUnavailable) || !errors.Is(err, gobreaker.ErrOpenState) {
		t.Errorf("6th call: %v, want ErrUnavailable wrapping gobreaker.ErrOpenState", err)
	}
	if n := hits.Load(); n != 5 || len(srv.Queries()) != 0 {
		t.Errorf("server saw %d failing calls and %d queries, want 5 and 0", n, len(srv.Queries()))
	}
}

// Query errors, rejected requests and callers that gave up say nothing about 1C's health.
func TestProxyBreakerIgnoresClientSideErrors(t *testing.T) {
	_, d, _ := fixture(t)
	srv := onectest.NewServer(t, d)
	p := newProxy(t, onec.ProxyOptions{URL: srv.URL})
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	catalog, _ := onec.Query("catalog.accounts")
	for range 6 {
		_, _ = p.Execute(context.Background(), "ВЫБРАТЬ 1", nil, 10) // QueryError
		_, _ = p.Execute(context.Background(), catalog, nil, 0)      // 422 → ErrRejected
		_, _ = p.Execute(canceled, catalog, nil, 10)                 // context.Canceled
	}
	if p.State() != "closed" {
		t.Fatalf("State() = %q, want closed", p.State())
	}
	if rows, err := p.Execute(context.Background(), catalog, nil, 10); err != nil || len(rows) == 0 {
		t.Errorf("Execute after client-side errors = %d rows, %v", len(rows), err)
	}
}

func TestNewProxyValidation(t *testing.T) {
	tests := []struct {
		name    string
		opts    onec.ProxyOptions
		wantErr bool
	}{
		{"defaults", onec.ProxyOptions{URL: "http://1c.local:6003"}, false},
		{"https with a path prefix", onec.ProxyOptions{URL: "https://gw.example/1c/", Channel: "buh-2_x"}, false},
		{"empty URL", onec.ProxyOptions{}, true},
		{"no scheme", onec.ProxyOptions{URL: "1c.local:6003"}, true},
		{"ftp", onec.ProxyOptions{URL: "ftp://1c.local"}, true},
		{"no host", onec.ProxyOptions{URL: "http://"}, true},
		{"query in URL", onec.ProxyOptions{URL: "http://1c.local:6003?channel=x"}, true},
		{"channel with a space", onec.ProxyOptions{URL: "http://1c.local", Channel: "my base"}, true},
		{"cyrillic channel", onec.ProxyOptions{URL: "http://1c.local", Channel: "бух"}, true},
		{"channel of 65", onec.ProxyOptions{URL: "http://1c.local", Channel: strings.Repeat("a", 65)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := onec.NewProxy(tt.opts)
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewProxy(%+v) error = %v, wantErr %v", tt.opts, err, tt.wantErr)
			}
			if err == nil && p.State() != "closed" {
				t.Errorf("new proxy State() = %q", p.State())
			}
		})
	}
	for _, raw := range []string{"http://user:pa55word@1c.local?x=1", "http://1c.local:6003/?token=pa55word", "http://1c.local/#pa55word",
		"http://user:pa55word@1c.local:bad/", "http://1c.local/%zz?token=pa55word"} {
		if _, err := onec.NewProxy(onec.ProxyOptions{URL: raw}); err == nil || strings.Contains(err.Error(), "pa55word") {
			t.Errorf("NewProxy(%q) error %v: want an error without the password", raw, err)
		}
	}
}

// A path prefix of the URL is kept (a proxy behind a reverse proxy).
func TestProxyURLPathPrefix(t *testing.T) {
	_, d, _ := fixture(t)
	inner := onectest.NewServer(t, d)
	front := httptest.NewServer(http.StripPrefix("/1c", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2, _ := http.NewRequestWithContext(r.Context(), r.Method, inner.URL+r.URL.RequestURI(), r.Body)
		r2.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(r2)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	})))
	t.Cleanup(front.Close)
	p := newProxy(t, onec.ProxyOptions{URL: front.URL + "/1c/"})
	q, _ := onec.Query("catalog.organizations")
	if rows, err := p.Execute(context.Background(), q, nil, 10); err != nil || len(rows) != 2 {
		t.Fatalf("Execute via a path prefix = %d rows, %v", len(rows), err)
	}
}

// The client reads every shape the toolkit answers with (testdata/toolkit: bodies of the
// shapes its source writes, see the README there).
func TestProxyToolkitFixtures(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "toolkit", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		file   string
		status int
		want   error // nil: rows; errQuery: a *QueryError
	}{
		{"rows.json", 200, nil},
		{"query_error.json", 200, errQuery},
		{"channel_timeout.json", 200, onec.ErrUnavailable},
		{"unauthorized.json", 401, onec.ErrUnauthorized},
		{"validation_422.json", 422, onec.ErrRejected},
		{"content_type_415.json", 415, onec.ErrRejected},
		{"bad_json_400.json", 400, onec.ErrRejected},
	}
	_, d, _ := fixture(t)
	q, _ := onec.Query("address.documents.by_counterparty")
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			srv := onectest.NewServer(t, d)
			srv.Fail(onectest.Respond(tt.status, "application/json", read(tt.file)))
			rows, err := newProxy(t, onec.ProxyOptions{URL: srv.URL}).Execute(context.Background(), q, nil, 10)
			switch {
			case tt.want == errQuery:
				var qe *onec.QueryError
				if !errors.As(err, &qe) || !strings.Contains(qe.Message, "Поле не найдено") {
					t.Fatalf("error %v, want the 1C query error", err)
				}
				return
			case tt.want != nil:
				if !errors.Is(err, tt.want) {
					t.Fatalf("error %v, want %v", err, tt.want)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if len(rows) != 2 {
				t.Fatalf("%d rows, want 2", len(rows))
			}
			if d, ok := onec.DateOf(rows[0]["Дата"]); !ok || !d.Equal(time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC)) {
				t.Errorf("Дата %v read as %v, %v", rows[0]["Дата"], d, ok)
			}
			if _, ok := onec.DateOf(rows[1]["Дата"]); ok {
				t.Errorf("the empty date %v read as a date", rows[1]["Дата"])
			}
			for i, want := range []onec.Kopecks{100050, 0} {
				if k, err := onec.AmountOf(rows[i]["СуммаДокумента"]); err != nil || k != want {
					t.Errorf("row %d: СуммаДокумента %v read as %v, %v; want %v", i, rows[i]["СуммаДокумента"], k, err, want)
				}
			}
			if rows[0]["БанковскийСчет"] != onec.WireNull || rows[0]["Договор"] != nil {
				t.Errorf("NULL and an empty reference: %#v, %#v", rows[0]["БанковскийСчет"], rows[0]["Договор"])
			}
			if k, err := onec.AmountOf(rows[0]["БанковскийСчет"]); err != nil || k != 0 {
				t.Errorf("NULL as an amount: %v, %v; want 0", k, err)
			}
		})
	}
}

// errQuery marks a case expecting a *onec.QueryError.
var errQuery = errors.New("a 1C query error")
