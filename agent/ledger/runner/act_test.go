package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/golden"
)

// The act of reconciliation on the demo ledger, as the lane answers it: golden files of the
// rendered answer and the unified result (the act with every line). The act's figures are the
// templates', checked against a calculation over the raw records in integrations/onec/ledgergen
// (reconcile_test.go); here, what the lane makes of them.
func TestActGolden(t *testing.T) {
	d, _ := demo(t)
	tests := []struct {
		name, question string
		f              recipe.Filters
	}{
		{"act_alfa_2026q1", "акт сверки с альфой за 1 квартал 2026",
			recipe.Filters{Counterparty: "Альфа", PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31"}},
		{"act_alfa_contract_2025", "акт сверки с альфой по договору П-77/2024 за 2025 год",
			recipe.Filters{Counterparty: "Альфа", Contract: "П-77/2024", PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31"}},
		{"act_universal_2025", "акт сверки с Универсалом за 2025 год (покупатель и поставщик)",
			recipe.Filters{Counterparty: "Универсал", PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31"}},
		{"act_technosnab_2026q1", "сверка с Техснабом за 1 кв 2026 (мы должны им)",
			recipe.Filters{Counterparty: "Техснаб", PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31"}},
		{"act_quiet_week", "акт сверки с альфой с 26.04.2026 по 30.04.2026",
			recipe.Filters{Counterparty: "Альфа", PeriodFrom: "2026-04-26", PeriodTo: "2026-04-30"}},
		{"act_no_period", "/act Альфа",
			recipe.Filters{Counterparty: "Альфа"}},
		{"act_as_of", "акт сверки с альфой на 31.03.2026",
			recipe.Filters{Counterparty: "Альфа", AsOfDate: "2026-03-31"}},
		{"act_before_data", "акт сверки с альфой за 2023 год",
			recipe.Filters{Counterparty: "Альфа", PeriodFrom: "2023-01-01", PeriodTo: "2023-12-31"}},
		{"act_no_counterparty", "сделай акт сверки за март",
			recipe.Filters{PeriodFrom: "2026-03-01", PeriodTo: "2026-03-31"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
			res := lane.Run(t.Context(), ask(recipe.ReconciliationAct, tt.f))
			unified, _ := json.MarshalIndent(res, "", "  ")
			got := fmt.Sprintf("Q: %s\n\n%s\n\n", tt.question, res.Markdown())
			if res.Act != nil {
				got += fmt.Sprintf("--- files %s, %s\n%s\n%s\n\n", res.ExportName(), res.PDFName(), res.ExportCaption(), res.PDFCaption())
			}
			got += "--- result\n" + string(unified) + "\n"
			golden.Check(t, filepath.Join("testdata", "lane", tt.name+".golden"), got)
		})
	}
}

// TestActAddsUp: every act the lane makes of the demo's counterparties closes as it opens plus
// its lines, both organizations, by every counterparty, over the year and over a quarter.
func TestActAddsUp(t *testing.T) {
	d, l := demo(t)
	for _, org := range l.Organizations {
		lane := NewLane(d, Options{Now: fixedNow, Organization: org.INN})
		for _, cp := range l.Counterparties {
			if cp.DeletionMark {
				continue
			}
			for _, p := range [][2]string{{"2025-01-01", "2025-12-31"}, {"2026-01-01", "2026-03-31"}} {
				res := lane.Run(t.Context(), ask(recipe.ReconciliationAct, recipe.Filters{Counterparty: cp.Ref, PeriodFrom: p[0], PeriodTo: p[1]}))
				if res.ResultMode == Limited || res.Act == nil {
					t.Errorf("%s, %s, %v: %s %q", org.Name, cp.Name, p, res.ResultMode, res.Message)
					continue
				}
				a := res.Act
				if !a.Balanced() || a.Theirs.Name != cp.Name || a.Theirs.INN != cp.INN || a.Theirs.KPP != cp.KPP || a.Ours.INN != org.INN || a.Ours.KPP != org.KPP {
					t.Errorf("%s, %s, %v: balanced %v, sides %+v / %+v", org.Name, cp.Name, p, a.Balanced(), a.Ours, a.Theirs)
				}
			}
		}
	}
}

// TestActCutIsRefused: lines cut at the toolkit's limit make no act — neither its turnovers nor
// its closing balance could be trusted.
func TestActCutIsRefused(t *testing.T) {
	d, _ := demo(t)
	lane := NewLane(cutLines{d}, Options{Now: fixedNow, Organization: mainOrg})
	res := lane.Run(t.Context(), ask(recipe.ReconciliationAct, recipe.Filters{Counterparty: "Альфа", PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31"}))
	if res.ResultMode != Limited || res.Act != nil || !strings.Contains(res.Message, "больше 1000 строк") {
		t.Fatalf("%s %q: want the act refused as cut", res.ResultMode, res.Message)
	}
}

// TestActThatDoesNotAddUpIsRefused: when 1C's balances and lines disagree (a stand-in whose
// closing balance is a kopeck off), the lane says so and shows no act.
func TestActThatDoesNotAddUpIsRefused(t *testing.T) {
	d, _ := demo(t)
	src := offByAKopeck{d}
	lane := NewLane(src, Options{Now: fixedNow, Organization: mainOrg})
	res := lane.Run(t.Context(), ask(recipe.ReconciliationAct, recipe.Filters{Counterparty: "Альфа", PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31"}))
	if res.ResultMode != Limited || res.Act != nil || !strings.Contains(res.Message, "не сходится") {
		t.Fatalf("%s %q: want the act refused", res.ResultMode, res.Message)
	}
}

// cutLines answers the act's lines as the toolkit answers a result as long as its limit.
type cutLines struct{ Source }

func (c cutLines) Query(ctx context.Context, id string, p onec.Params, limit int) (*onec.Result, error) {
	res, err := c.Source.Query(ctx, id, p, limit)
	if err == nil && id == "address.reconciliation.lines" {
		res.Fetched = limit
	}
	return res, err
}

// offByAKopeck answers the act's balances a kopeck more than the demo.
type offByAKopeck struct{ Source }

func (o offByAKopeck) Query(ctx context.Context, id string, p onec.Params, limit int) (*onec.Result, error) {
	res, err := o.Source.Query(ctx, id, p, limit)
	if err == nil && id == "address.reconciliation.balances" {
		for i := range res.CardTotals {
			res.CardTotals[i].Closing++
		}
	}
	return res, err
}
