package lane

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
)

// Rows as the MCP toolkit writes them (integrations/onec/testdata/toolkit/README.md): dates end
// in Z and the empty date is "Z", a query NULL is "", an empty reference null, numbers have no
// trailing zeros.
func TestRowsReadTheToolkitsForms(t *testing.T) {
	ref := func(typ, id, name string) map[string]any {
		return map[string]any{"_objectRef": true, "УникальныйИдентификатор": id, "ТипОбъекта": typ, "Представление": name}
	}
	party := ref(refParty, "b5df193a-0940-4afc-991f-43edb57e86ec", "АО «Вектор»")
	doc := ref("ДокументСсылка.ВводНачальныхОстатков", "3a57c56f-3325-462c-b2e6-b0030ce0fbb2", "Ввод остатков СВ00-000003 от 31.12.2024 23:59:59")

	docs, drops := materializeDocuments([]map[string]any{
		{"Ссылка": doc, "Номер": "СВ00-000003", "Дата": "2024-12-31T23:59:59Z", "Проведен": true, "ПометкаУдаления": false,
			"Контрагент": party, "Договор": nil, "СуммаДокумента": json.Number("1000.5"), "БанковскийСчет": "", "НазначениеПлатежа": ""},
	})
	if len(docs) != 1 || len(drops) != 0 {
		t.Fatalf("documents: %d rows, drops %v; want the row", len(docs), drops)
	}
	if got := docs[0]; !got.date.Equal(time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC)) || got.amount != 100050 || got.bankAccount != "" || got.contract.ID != "" {
		t.Errorf("document row = %+v", got)
	}

	turns, drops := materializeTurnover([]map[string]any{
		{"Счет": "62.01", "Контрагент": party, "Договор": "", "ДокументРасчетов": doc, "ДокументРасчетовДата": "2024-12-31T23:59:59Z",
			"ДокументРасчетовНомер": "СВ00-000003", "СуммаОборотДт": json.Number("100"), "СуммаОборотКт": json.Number("0")},
		{"Счет": "62.02", "Контрагент": party, "Договор": "", "ДокументРасчетов": "", "ДокументРасчетовДата": "",
			"ДокументРасчетовНомер": "", "СуммаОборотДт": json.Number("0"), "СуммаОборотКт": json.Number("0.5")},
	})
	if len(turns) != 2 || len(drops) != 0 {
		t.Fatalf("turnovers: %d rows, drops %v", len(turns), drops)
	}
	if !turns[0].docDate.Equal(time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC)) || turns[0].debit != 10000 {
		t.Errorf("turnover row 0 = %+v", turns[0])
	}
	if !turns[1].docDate.IsZero() || turns[1].doc.ID != "" || turns[1].credit != 50 {
		t.Errorf("turnover row without a settlement document = %+v", turns[1])
	}

	// A balance whose amounts are NULL ("") is no balance row; one with a NULL side is.
	bal, drops := materializeBalance([]map[string]any{
		{"Счет": "51", "СуммаОстатокДт": "", "СуммаОстатокКт": ""},
		{"Счет": "62.01", "Контрагент": party, "СуммаОстатокДт": json.Number("5"), "СуммаОстатокКт": ""},
	})
	if len(bal) != 1 || bal[0].net != 500 || drops[DropUnknownShape] != 1 {
		t.Errorf("balances = %+v, drops %v", bal, drops)
	}

	moves, drops := materializeMovements([]map[string]any{
		{"Период": "2025-01-31T23:59:59Z", "Регистратор": doc, "РегистраторНомер": "", "СчетДт": "62.01", "СчетКт": "90.01.1",
			"Сумма": json.Number("9"), "КонтрагентДт": party, "КонтрагентКт": "", "ДоговорДт": "", "ДоговорКт": ""},
		{"Период": "Z", "Регистратор": doc, "Сумма": json.Number("1")},
	})
	if len(moves) != 1 || drops[DropNoPeriod] != 1 || !moves[0].period.Equal(time.Date(2025, 1, 31, 23, 59, 59, 0, time.UTC)) || moves[0].partyCr.ID != "" {
		t.Errorf("movements = %+v, drops %v", moves, drops)
	}
}

func TestDateAndMoneyOfTheWire(t *testing.T) {
	dates := []struct {
		in   any
		want string
	}{
		{"2026-03-31T00:00:00Z", "2026-03-31"}, {"2026-03-31T00:00:00", "2026-03-31"}, {"2026-03-31", "2026-03-31"},
		{"Z", ""}, {"", ""}, {nil, ""},
	}
	for _, tt := range dates {
		got := ""
		if d, ok := dateOf(tt.in); ok {
			got = d.Format(time.DateOnly)
		}
		if got != tt.want {
			t.Errorf("dateOf(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, in := range []any{"", nil, json.Number("0")} {
		if k, ok := money(in); !ok || k != 0 {
			t.Errorf("money(%#v) = %v, %v; want 0, true", in, k, ok)
		}
	}
}

// The main organization: BP keeps it in each user's settings, which no query reads, and
// Организации.Предопределенный is false for every organization. With several organizations and
// none configured the lane asks; configured (by INN or name) it answers for that one; a contract
// brings its own.
func TestMainOrganization(t *testing.T) {
	d, l := demo(t)
	srv := onectest.NewServer(t, d) // over the wire, as with a real base
	proxy, err := onec.NewProxy(onec.ProxyOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	trade := l.Organizations[1] // ООО «Северный ветер Трейд», second by name
	tests := []struct {
		name, org string
		d         Decomposition
		wantOrg   string // "" = the lane asks which
	}{
		{"several, none configured", "", ask(IntentReceivables, Filters{AsOfDate: "2026-03-31"}), ""},
		{"configured by INN", mainOrg, ask(IntentReceivables, Filters{AsOfDate: "2026-03-31"}), "ООО «Северный ветер»"},
		{"configured by name", trade.Name, ask(IntentReceivables, Filters{AsOfDate: "2026-03-31"}), trade.Name},
		{"configured but unknown", "0000000000", ask(IntentReceivables, Filters{AsOfDate: "2026-03-31"}), ""},
		{"named in the question", "", ask(IntentReceivables, Filters{AsOfDate: "2026-03-31", Organization: "Северный ветер Трейд"}), trade.Name},
		{"a contract's own", "", ask(IntentDocumentsByContract, Filters{Contract: "П-90/2024", PeriodFrom: "2024-01-01", PeriodTo: "2026-03-31"}), trade.Name},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := NewLane(proxy, Options{Now: fixedNow, Organization: tt.org}).Run(t.Context(), tt.d)
			if tt.wantOrg == "" {
				var names []string
				for _, c := range res.Candidates {
					names = append(names, c.Name)
				}
				if res.ResultMode != Limited || res.AnchorType != "organization" {
					t.Fatalf("%s %q, want the question which organization", res.ResultMode, res.Message)
				}
				if diff := cmp.Diff([]string{"ООО «Северный ветер Трейд»", "ООО «Северный ветер»"}, names, cmpSorted); diff != "" {
					t.Errorf("candidates (-want +got):\n%s", diff)
				}
				return
			}
			if res.ResultMode == Limited || res.Organization != tt.wantOrg {
				t.Errorf("%s %q for %q, want figures for %q", res.ResultMode, res.Message, res.Organization, tt.wantOrg)
			}
		})
	}
}

var cmpSorted = cmp.Transformer("sorted", func(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

// A base with one organization needs no configuration: BP itself takes the only one
// (Справочники.Организации.ОрганизацияПоУмолчанию).
func TestMainOrganizationTheOnlyOne(t *testing.T) {
	only := []Entity{{Ref: "1", Name: "ООО «Одна»", INN: "7700000001"}}
	two := append(only, Entity{Ref: "2", Name: "ООО «Вторая»", INN: "7700000002"})
	l := NewLane(nil, Options{})
	if got := l.mainOrganization(t.Context(), only); got.Ref != "1" {
		t.Errorf("one organization: %+v", got)
	}
	if got := l.mainOrganization(t.Context(), two); got.Ref != "" {
		t.Errorf("two organizations, none configured: %+v, want none", got)
	}
	l = NewLane(nil, Options{Organization: "ооо «вторая»"})
	if got := l.mainOrganization(t.Context(), two); got.Ref != "2" {
		t.Errorf("configured by name, another case: %+v", got)
	}
}

// A catalog longer than one query's row limit is read in pages: with a limit of 20 rows the 33
// counterparties and 51 contracts take 2 and 3 pages, and a question about the last of them is
// answered exactly as with no limit at all.
func TestCatalogsBeyondOnePage(t *testing.T) {
	d, _ := demo(t)
	full := NewLane(d, Options{Now: fixedNow, Organization: mainOrg})
	src := &recordingSource{Source: d}
	paged := NewLane(src, Options{Now: fixedNow, Organization: mainOrg, MaxRows: 20})
	for _, q := range []Decomposition{
		ask(IntentDocumentsByContract, Filters{Contract: "П-44/2024", PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31"}),
		ask(IntentDocumentsByParty, Filters{Counterparty: "Универсал", PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31"}),
	} {
		want, got := full.Run(t.Context(), q), paged.Run(t.Context(), q)
		if got.ResultMode == Limited || got.Markdown() != want.Markdown() {
			t.Errorf("%s with 20-row pages:\n%s\nwant:\n%s", q.Intent, got.Markdown(), want.Markdown())
		}
	}
	cpText, _ := onec.Query("catalog.counterparties")
	ctrText, _ := onec.Query("catalog.contracts")
	var cpPages, ctrPages int
	for _, q := range src.queries {
		switch q {
		case cpText:
			cpPages++
		case ctrText:
			ctrPages++
		}
	}
	if cpPages != 2 || ctrPages != 3 {
		t.Errorf("pages read: %d of counterparties, %d of contracts; want 2 and 3", cpPages, ctrPages)
	}
}

// A result as long as the row limit may have been cut (the toolkit says nothing): the lane says
// so instead of a total of the rows that came.
func TestCutResultShowsNoTotal(t *testing.T) {
	d, _ := demo(t)
	lane := NewLane(d, Options{Now: fixedNow, Organization: mainOrg, MaxRows: 20})
	for _, q := range []Decomposition{
		ask(IntentDocumentsFormBalance, Filters{AsOfDate: "2026-03-31", Account: "62"}),
		ask(IntentReceivables, Filters{AsOfDate: "2026-03-31"}),
		ask(IntentDocumentsByParty, Filters{Counterparty: "Альфе", PeriodFrom: "2024-01-01", PeriodTo: "2026-03-31"}),
	} {
		res := lane.Run(t.Context(), q)
		if res.ResultMode != Limited || res.LimitedReason != ReasonVisibilityGap || !strings.Contains(res.Message, "обрезан на 20 строк") ||
			res.Summary.TotalAmount != 0 || len(res.Rows) != 0 {
			t.Errorf("%s: %s %s %q, total %s, %d rows", q.Intent, res.ResultMode, res.LimitedReason, res.Message, res.Summary.TotalAmount, len(res.Rows))
		}
	}
	// Under the limit the same question has its figures.
	if res := NewLane(d, Options{Now: fixedNow, Organization: mainOrg}).Run(t.Context(), ask(IntentReceivables, Filters{AsOfDate: "2026-03-31"})); res.ResultMode == Limited {
		t.Errorf("receivables without a limit: %s %q", res.ResultMode, res.Message)
	}
}
