package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/cbr/cbrtest"
)

// cbrStandIn serves the recorded SOAP responses of integrations/cbr/testdata by SOAPAction.
func cbrStandIn(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	files := map[string]string{
		"GetCursOnDate": "curs_on_date_full.xml", "GetCursDynamic": "curs_dynamic.xml",
		"KeyRate": "key_rate.xml", "NewsInfo": "news_info.xml", "EnumValutes": "enum_valutes.xml",
	}
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		op := strings.TrimPrefix(strings.Trim(r.Header.Get("SOAPAction"), `"`), "http://web.cbr.ru/")
		name, ok := files[op]
		if !ok {
			t.Errorf("unexpected SOAPAction %q", op)
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		body, err := os.ReadFile(filepath.Join("integrations", "cbr", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func askJSON(t *testing.T, env map[string]string, args ...string) askResult {
	t.Helper()
	var out, errs bytes.Buffer
	if err := run(t.Context(), append([]string{"ask", "--json"}, args...), getenv(env), nil, &out, &errs); err != nil {
		t.Fatalf("ask %q: %v\n%s", args, err, errs.String())
	}
	var res askResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("ask --json: %v\n%s", err, out.String())
	}
	return res
}

// The whole wiring: ask → agent → cbr client → SOAP stand-in, and tavily → its stand-in.
func TestAskRatesAndNewsThroughStandIns(t *testing.T) {
	cbrSrv, _ := cbrStandIn(t)
	tav := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tvly-test-key" {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"detail":{"error":"Unauthorized: missing or invalid API key."}}`))
			return
		}
		body, _ := os.ReadFile(filepath.Join("integrations", "tavily", "testdata", "search_ok.json"))
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(tav.Close)
	env := map[string]string{"CBR_URL": cbrSrv.URL, "TAVILY_URL": tav.URL, "TAVILY_API_KEY": "tvly-test-key"}

	tests := []struct {
		args  []string
		kind  understand.Kind
		want  []string
		chart bool
	}{
		{[]string{"/rate"}, "rate", []string{"Курсы Банка России на 14.03.2026", "**USD** — доллар США", "**EUR**", "**CNY**"}, false},
		{[]string{"курс иены"}, "rate", []string{"**JPY**", "за 100"}, false},
		{[]string{"/rate", "USD", "01.02.2026-10.03.2026"}, "rate", []string{"за 01.02.2026 – 10.03.2026", "минимум", "максимум", "изменение"}, true},
		{[]string{"/rate", "XYZ"}, "rate", []string{"«XYZ» — не валюта"}, false},
		{[]string{"какая сейчас ключевая ставка"}, "key_rate", []string{"Ключевая ставка Банка России на ", ": 15,50%** [1]", "действует с 16.02.2026"}, false},
		{[]string{"/keyrate", "2025"}, "key_rate", []string{"за 01.01.2025 – 31.12.2025", "с 09.06.2025: **20,00%**"}, true},
		{[]string{"/news"}, "news", []string{"Новости Банка России"}, false},
		{[]string{"новости", "про", "ключевую", "ставку"}, "news", []string{"**Новости:"}, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			res := askJSON(t, env, tt.args...)
			if res.Kind != tt.kind {
				t.Errorf("kind = %q, want %q", res.Kind, tt.kind)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("text lacks %q:\n%s", w, res.Text)
				}
			}
			if (res.Chart != nil) != tt.chart {
				t.Errorf("chart = %+v, want chart: %v", res.Chart, tt.chart)
			}
			if len(res.Sources) == 0 && !strings.Contains(res.Text, "не валюта") {
				t.Error("answer without a source footnote")
			}
		})
	}
}

// `ask` shows what a terminal can: a footnote with its address (a link entity cannot be opened
// there), /news footnotes with their headline, site and page; `ask --json` gives the answer's
// Markdown without the escapes that only the Telegram converter needs.
func TestAskFootnotesAndReadableJSON(t *testing.T) {
	cbrSrv, _ := cbrStandIn(t)
	env := map[string]string{"CBR_URL": cbrSrv.URL}
	askPlain := func(args ...string) string {
		t.Helper()
		var out, errs bytes.Buffer
		if err := run(t.Context(), append([]string{"ask"}, args...), getenv(env), nil, &out, &errs); err != nil {
			t.Fatalf("ask %q: %v\n%s", args, err, errs.String())
		}
		return out.String()
	}
	plain := []struct {
		args []string
		want []string
	}{
		{[]string{"/rate", "EUR", "14.03.2026"}, []string{"Курсы Банка России на 14.03.2026 [1]",
			"[1] Банк России, курсы на 14.03.2026 (https://www.cbr.ru/currency_base/daily/?UniDbQuery.Posted=True&UniDbQuery.To=14.03.2026)"}},
		{[]string{"/news"}, []string{"[1]\n", "[1] Банк России принял решение сохранить ключевую ставку на уровне 15,50% годовых — cbr.ru (https://www.cbr.ru/press/pr/?file=13032026_133000Key.htm)"}},
		{[]string{"кто нам должен на 31.03.2026"}, []string{"18 контрагентов. [1]", "[1] 1С: Кто должен нам, ООО «Северный ветер», демо-база (встроенная)"}},
	}
	for _, tt := range plain {
		got := askPlain(tt.args...)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("ask %q lacks %q:\n%s", tt.args, w, got)
			}
		}
	}
	for _, args := range [][]string{{"кто нам должен на 31.03.2026"}, {"/rate", "EUR", "14.03.2026"}, {"документы Гранит-М за март 2026"}} {
		res := askJSON(t, env, args...)
		if strings.Contains(res.Text, `\.`) || strings.Contains(res.Text, `\-`) || strings.Contains(res.Text, `\(`) {
			t.Errorf("ask --json %q text carries escapes:\n%s", args, res.Text)
		}
		if !strings.Contains(res.Text, "[1]") || len(res.Sources) != 1 {
			t.Errorf("ask --json %q: text without its footnote mark or source:\n%s\n%+v", args, res.Text, res.Sources)
		}
	}
	res := askJSON(t, env, "кто нам должен на 31.03.2026")
	for _, w := range []string{"Нам должны **35\u00a0987\u00a0887,75\u00a0₽** на 31.03.2026", "_ООО «Северный ветер» (основная) · сч. 62 · 1С: демо-база (встроенная)_", "| ООО «Гранит-М» |"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("ask --json text lacks %q:\n%s", w, res.Text)
		}
	}
}

// A day the Bank of Russia set no rates for, asked as users ask it, through the whole wiring
// to the SOAP stand-in: the answer gives the latest rates in force before it, with their date,
// never the day asked as theirs. Dates are explicit: the application runs on the real clock.
func TestAskRatesOnDayWithoutRates(t *testing.T) {
	srv := cbrtest.New(t)
	q := func(code, v string) cbrtest.Quote { return cbrtest.Quote{Code: code, Nominal: 1, Value: v} }
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, cbrtest.Moscow) }
	srv.Publish(d(2025, 12, 30), q("USD", "78.0000"), q("EUR", "91.5000"), q("CNY", "11.0000"))
	srv.Publish(d(2025, 12, 31), q("USD", "78.2000"), q("EUR", "91.9000"), q("CNY", "11.0500"))
	srv.Empty(d(2026, 1, 1))
	env := map[string]string{"CBR_URL": srv.URL}
	for _, args := range [][]string{{"/rate", "01.01.2026"}, {"курс евро на 01.01.2026"}} {
		res := askJSON(t, env, args...)
		for _, w := range []string{"Курсы Банка России на 31.12.2025", "Курс на 01.01.2026 не устанавливался; действует курс от 31.12.2025.", "**91,9000 ₽**"} {
			if !strings.Contains(res.Text, w) {
				t.Errorf("ask %q lacks %q:\n%s", args, w, res.Text)
			}
		}
		if strings.Contains(res.Text, "нет опубликованных курсов") || len(res.Sources) != 1 || !strings.Contains(res.Sources[0].URL, "To=31.12.2025") {
			t.Errorf("ask %q = %s, sources %+v", args, res.Text, res.Sources)
		}
	}
}
