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
