package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
)

// On the realistic base (ONEC_DEMO=realistic) the lane asks through the proxy's 1,000-row
// limit, as the app wires it: an answer past the limit says it was cut, never a short total.
// The figures themselves are checked against an independent calculation in ledgergen.
func TestRealisticBaseAnswersSayWhenCut(t *testing.T) {
	if testing.Short() {
		t.Skip("the realistic base takes a few seconds to generate")
	}
	d := onec.NewNamedDemo(ledgergen.Realistic(ledgergen.DefaultSeed), ledgergen.RealisticName)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: onec.MaxProxyRows})
	for _, tt := range []struct {
		name    string
		d       Decomposition
		wantCut bool
	}{
		// grouped by counterparty in 1C: hundreds of rows, not one per open document
		{"receivables", ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}), false},
		{"payables", ask(recipe.Payables, recipe.Filters{AsOfDate: "2026-03-31"}), false},
		{"documents forming 62", ask(recipe.DocumentsFormBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "62"}), true},
		{"bank account balance", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "51"}), false},
		// «остаток по 62»: summed per counterparty and currency in 1C (874 rows, 862
		// counterparties for the head with its division; per sub-account, counterparty and contract it was 2,061 and always cut)
		{"balance of 62", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "62"}), false},
		{"balance of 60", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "60"}), false},
		// the currency account, a row per currency
		{"balance of 52", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "52"}), false},
		// 76 has 1,134 counterparties with a balance (76.АВ's VAT on advances among them): cut,
		// and said so
		{"balance of 76", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "76"}), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := lane.Run(context.Background(), tt.d)
			cut := res.LimitedReason == ReasonVisibilityGap && strings.Contains(res.Message, "обрезан")
			if cut != tt.wantCut {
				t.Errorf("cut %v, want %v: %s %q (%d rows)", cut, tt.wantCut, res.LimitedReason, res.Message, len(res.Rows))
			}
			if !tt.wantCut && (res.LimitedReason != "" || len(res.Rows) == 0) {
				t.Errorf("no figures: %s %q", res.LimitedReason, res.Message)
			}
			if tt.d.Intent == recipe.AccountBalance && tt.d.Filters.Account != "51" && tt.d.Filters.Account != "52" && !tt.wantCut {
				// the open settlement documents behind the balance, counted in 1C and said
				if len(res.Rows) != 1 || res.Rows[0].Count == 0 || !strings.Contains(res.Markdown(), "Открытых документов расчётов:") {
					t.Errorf("rows %+v; want one row with the open documents counted and said:\n%s", res.Rows, res.Markdown())
				}
			}
			if tt.d.Intent == recipe.AccountBalance && tt.d.Filters.Account == "52" {
				// the currency account: its balance in each currency beside the roubles
				if len(res.Rows) != 1 || len(res.Rows[0].Currencies) != 2 || !strings.Contains(res.Markdown(), "В валюте") ||
					!strings.Contains(res.Markdown(), "EUR") || !strings.Contains(res.Markdown(), "USD") {
					t.Errorf("52: rows %+v; want its balance in EUR and USD said:\n%s", res.Rows, res.Markdown())
				}
			}
			if !strings.Contains(res.Source, "реалистичная") {
				t.Errorf("source %q does not name the realistic base", res.Source)
			}
		})
	}
}

// TestRealisticDivisionSaid: on the realistic base the head organization's answers include its
// обособленное подразделение (every template's organization condition, as BP's reports «с
// обособленными подразделениями») and say so; a question naming the division is the division's
// alone and says nothing of the kind. The figures are checked in ledgergen
// (TestRealisticDivisionInTheHead).
func TestRealisticDivisionSaid(t *testing.T) {
	if testing.Short() {
		t.Skip("the realistic base takes a few seconds to generate")
	}
	l := ledgergen.Realistic(ledgergen.DefaultSeed)
	var branch string
	for _, o := range l.Organizations {
		if o.HeadRef != "" {
			branch = o.Name
		}
	}
	d := onec.NewNamedDemo(l, ledgergen.RealisticName)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: onec.MaxProxyRows})
	note := "включая обособленные подразделения: " + branch
	for _, tt := range []struct {
		name     string
		d        Decomposition
		wantNote bool
	}{
		{"receivables of the head", ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}), true},
		{"balance of 51 of the head", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "51"}), true},
		{"turnover sheet of the head", ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31", Account: "51"}), true},
		{"receivables of the division", ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31", Organization: branch}), false},
		{"balance of 51 of the division", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "51", Organization: branch}), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := lane.Run(context.Background(), tt.d)
			if res.LimitedReason != "" {
				t.Fatalf("no figures: %s %q", res.LimitedReason, res.Message)
			}
			md := strings.ReplaceAll(res.Markdown(), `\`, "") // Markdown escapes the parentheses
			if got := strings.Contains(md, note); got != tt.wantNote {
				t.Errorf("note %q said %v, want %v:\n%s", note, got, tt.wantNote, md)
			}
			if !tt.wantNote && res.Organization != branch {
				t.Errorf("organization %q, want the division %q", res.Organization, branch)
			}
		})
	}
}

// The aging on the realistic base through the proxy's 1,000 rows: the head organization's
// customers (with its обособленное подразделение) have over 1,000 contracts in debt, so its
// receivables come per counterparty (844) and say why; its suppliers' 899 contracts fit. The organization without settlement documents is aged
// by the increases of its debt, and says so. The figures are checked in ledgergen.
func TestRealisticAging(t *testing.T) {
	if testing.Short() {
		t.Skip("the realistic base takes a few seconds to generate")
	}
	d := onec.NewNamedDemo(ledgergen.Realistic(ledgergen.DefaultSeed), ledgergen.RealisticName)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: onec.MaxProxyRows})
	for _, tt := range []struct {
		name       string
		d          Decomposition
		byContract bool
		rows       int
		says       string
	}{
		{"receivables", ask(recipe.ReceivablesAging, recipe.Filters{AsOfDate: "2026-03-31"}), false, 844, "поэтому по контрагентам"},
		{"payables", ask(recipe.PayablesAging, recipe.Filters{AsOfDate: "2026-03-31"}), true, 899, "| 1–30 дн"},
		{"no settlement documents", ask(recipe.ReceivablesAging, recipe.Filters{AsOfDate: "2026-03-31", Organization: "Северный ветер Трейд"}),
			true, 313, "отнесён к последним начислениям"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := lane.Run(context.Background(), tt.d)
			if res.ResultMode == Limited || res.Aging == nil {
				t.Fatalf("%s %q", res.LimitedReason, res.Message)
			}
			if res.Aging.ByContract != tt.byContract || res.Summary.Rows != tt.rows {
				t.Errorf("by contract %v, %d rows; want %v, %d", res.Aging.ByContract, res.Summary.Rows, tt.byContract, tt.rows)
			}
			if md := res.Markdown(); !strings.Contains(md, tt.says) {
				t.Errorf("the answer does not say %q:\n%s", tt.says, md)
			}
		})
	}
}

// The act of reconciliation on the realistic base through the proxy's 1,000 rows: the head
// organization (with its обособленное подразделение) and its busiest counterparty over a year —
// the act adds up, says the division is included, and its files render (the PDF over several
// pages); a currency customer's act is in roubles. The figures are checked in ledgergen.
func TestRealisticAct(t *testing.T) {
	if testing.Short() {
		t.Skip("the realistic base takes a few seconds to generate")
	}
	l := ledgergen.Realistic(ledgergen.DefaultSeed)
	d := onec.NewNamedDemo(l, ledgergen.RealisticName)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: onec.MaxProxyRows})
	head := l.Organizations[0]
	moves, currency := map[string]int{}, ""
	for _, m := range l.Movements {
		if m.OrganizationRef != head.Ref || m.Period.Year() != 2025 {
			continue
		}
		for _, side := range []struct {
			acc  string
			subs []onec.Subconto
		}{{m.AccountDr, m.SubcontoDr}, {m.AccountCr, m.SubcontoCr}} {
			if len(side.subs) > 0 && side.subs[0].Kind == "Контрагенты" && (strings.HasPrefix(side.acc, "60") || strings.HasPrefix(side.acc, "62")) {
				moves[side.subs[0].Ref]++
				if side.acc == "62.21" {
					currency = side.subs[0].Ref
				}
			}
		}
	}
	busiest := ""
	for cp, n := range moves {
		if n > moves[busiest] || n == moves[busiest] && cp < busiest {
			busiest = cp
		}
	}
	for _, tt := range []struct{ name, cp string }{{"busiest", busiest}, {"currency", currency}} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cp == "" {
				t.Fatal("no such counterparty in the realistic base")
			}
			res := lane.Run(context.Background(), ask(recipe.ReconciliationAct, recipe.Filters{Counterparty: tt.cp, PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31"}))
			if res.ResultMode == Limited || res.Act == nil {
				t.Fatalf("%s %q", res.LimitedReason, res.Message)
			}
			if !res.Act.Balanced() || len(res.Act.Lines) == 0 {
				t.Errorf("balanced %v, %d lines", res.Act.Balanced(), len(res.Act.Lines))
			}
			if md := res.Markdown(); !strings.Contains(md, "включая обособленные подразделения") {
				t.Errorf("the answer does not say the division is included:\n%s", md)
			}
			if _, err := res.XLSX(); err != nil {
				t.Error(err)
			}
			pdf, err := res.PDF()
			if err != nil || len(pdf) == 0 {
				t.Errorf("PDF: %v", err)
			}
			t.Logf("%s: %d lines, closing %s", res.Act.Theirs.Name, len(res.Act.Lines), res.Act.Closing)
		})
	}
}
