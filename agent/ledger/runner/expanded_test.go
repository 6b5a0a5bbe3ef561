package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// The lane's sheet of 71 is BP's «развёрнутое сальдо» by employee: on the demo ledger with
// two employees added on 71.01 — Иванов owing 5 000,00 and Петрова owed 3 000,00 at the start
// of 2025 — January opens at Дт 5 000,00 and Кт 3 000,00 (not Дт 2 000,00), and the answer
// says why.
func TestSheetExpandedByEmployee(t *testing.T) {
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	org := l.DefaultOrganization().Ref
	l.Accounts = append(l.Accounts, onec.Account{Code: "71.01", Name: "Расчеты с подотчетными лицами", Type: "active_passive",
		Subconto: []string{"РаботникиОрганизаций"}})
	const ivanov, petrova = "00000000-0000-0000-0000-00000000e001", "00000000-0000-0000-0000-00000000e002"
	emp := func(ref, name string) []onec.Subconto {
		return []onec.Subconto{{Kind: "РаботникиОрганизаций", Ref: ref, Name: name}}
	}
	at := func(s string) onec.LocalTime {
		tm, err := time.Parse(time.DateTime, s)
		if err != nil {
			t.Fatal(err)
		}
		return onec.LocalTime{Time: tm}
	}
	mv := func(period string, line int, dr string, sdr []onec.Subconto, cr string, scr []onec.Subconto, amount onec.Kopecks) onec.Movement {
		return onec.Movement{Period: at(period), RecorderRef: "00000000-0000-0000-0000-00000000f001", RecorderType: "ОперацияБух",
			Line: line, OrganizationRef: org, AccountDr: dr, AccountCr: cr, SubcontoDr: sdr, SubcontoCr: scr, Amount: amount}
	}
	l.Movements = append(l.Movements,
		mv("2024-12-31 23:59:59", 1, "71.01", emp(ivanov, "Иванов Иван Иванович"), "000", nil, 500000),
		mv("2024-12-31 23:59:59", 2, "000", nil, "71.01", emp(petrova, "Петрова Анна Сергеевна"), 300000),
		mv("2025-01-15 10:00:00", 3, "71.01", emp(petrova, ""), "51", nil, 300000),
		mv("2025-01-15 10:00:00", 4, "51", nil, "71.01", emp(ivanov, ""), 100000),
	)
	d := onec.NewDemo(l)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
	res := lane.Run(t.Context(), ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-01-31", Account: "71"}))
	if res.Report == nil {
		t.Fatalf("no report: %s", res.Message)
	}
	// The calculation: per employee, the opening net and January's turnovers; by sign.
	want := Turnover{OpenDebit: 500000, OpenCredit: 300000, Debit: 300000, Credit: 100000, CloseDebit: 400000}
	lines := map[string]Turnover{}
	for _, row := range res.All {
		lines[row.Account] = *row.Sheet
	}
	for _, acc := range []string{"71", "71.01"} {
		if lines[acc] != want {
			t.Errorf("%s = %+v, want %+v", acc, lines[acc], want)
		}
	}
	if !res.Report.ExpandedSubconto || !strings.Contains(res.MarkdownCited("[1]"), "развёрнуто по субконто") {
		t.Errorf("the answer does not say the balance is expanded by subconto:\n%s", res.MarkdownCited("[1]"))
	}
}

// The card of 98.01 by counterparty: ООО «Альфа» is its Субконто2 (deferred income first), and
// its postings are the card — 12 000,00 of rent paid ahead and 1 000,00 recognised, closing at
// Кт 11 000,00 — with the card's totals; not «нет ни остатков, ни проводок» or rows that do not
// add up to them.
func TestCardOfCounterpartyInSecondSubconto(t *testing.T) {
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	org := l.DefaultOrganization().Ref
	alfa := l.Counterparties[0]
	l.Accounts = append(l.Accounts, onec.Account{Code: "98.01", Name: "Доходы, полученные в счет будущих периодов", Type: "passive",
		Subconto: []string{"ДоходыБудущихПериодов", "Контрагенты"}})
	deferred := []onec.Subconto{{Kind: "ДоходыБудущихПериодов", Ref: "00000000-0000-0000-0000-00000000f101", Name: "Аренда, предоплата"},
		{Kind: "Контрагенты", Ref: alfa.Ref}}
	at := func(s string) onec.LocalTime {
		tm, err := time.Parse(time.DateTime, s)
		if err != nil {
			t.Fatal(err)
		}
		return onec.LocalTime{Time: tm}
	}
	mv := func(period string, line int, dr string, sdr []onec.Subconto, cr string, scr []onec.Subconto, amount onec.Kopecks) onec.Movement {
		return onec.Movement{Period: at(period), RecorderRef: "00000000-0000-0000-0000-00000000f102", RecorderType: "ОперацияБух",
			Line: line, OrganizationRef: org, AccountDr: dr, AccountCr: cr, SubcontoDr: sdr, SubcontoCr: scr, Amount: amount}
	}
	l.Movements = append(l.Movements,
		mv("2025-01-10 12:00:00", 1, "51", nil, "98.01", deferred, 1200000),
		mv("2025-01-31 12:00:00", 2, "98.01", deferred, "91.01", nil, 100000),
	)
	d := onec.NewDemo(l)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
	res := lane.Run(t.Context(), ask(recipe.AccountCard, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-01-31", Account: "98.01",
		Counterparty: alfa.Name}))
	if res.Report == nil {
		t.Fatalf("no card: %s %q", res.LimitedReason, res.Message)
	}
	if len(res.All) != 2 || res.All[0].Credit != 1200000 || res.All[1].Debit != 100000 || res.All[1].Amount != -1100000 {
		t.Errorf("postings %+v; want Кт 12 000,00 then Дт 1 000,00, closing −11 000,00", res.All)
	}
	for _, row := range res.All {
		if row.PartyID != alfa.Ref {
			t.Errorf("posting %+v: counterparty %q, want %s", row, row.Party, alfa.Name)
		}
	}
	if len(res.Limitations) != 0 {
		t.Errorf("limitations %v: the postings do not add up to the card's totals", res.Limitations)
	}
}
