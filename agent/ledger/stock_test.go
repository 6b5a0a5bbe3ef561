package ledger

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// An item chosen from a stock question's buttons is asked again by its name as the
// nomenclature has it, which the lane finds exactly.
func TestChoiceOfAnItem(t *testing.T) {
	last := runner.Result{Intent: recipe.StockBalance, AnchorType: "item", Filters: recipe.Filters{AsOfDate: "2026-03-31", Item: "бумага"},
		Candidates: []recipe.Entity{{Ref: "r1", Name: "Бумага офисная А3"}, {Ref: "r2", Name: "Бумага офисная А4 «Снегурочка»"}}}
	d, ok := Choice(last, 1)
	if !ok || d.Intent != recipe.StockBalance || d.Filters.Item != "Бумага офисная А4 «Снегурочка»" || d.Filters.Counterparty != "" {
		t.Errorf("%v %+v", ok, d)
	}
}

// The stock's facts for the planner's ledger_query: each line's quantity in its unit and its
// sum, the total with the quantity where one unit adds up — as the lane computed them.
func TestStockFacts(t *testing.T) {
	a3 := runner.Row{Name: "Бумага офисная А3", Account: "41.01", Amount: 1_075_790_969, Qty: &runner.Qty{Value: 14_837_000, Unit: "пачк"}}
	a4 := runner.Row{Name: "Бумага офисная А4", Account: "41.01", Amount: 1_119_939_276, Qty: &runner.Qty{Value: 32_255_000, Unit: "пачк"}}
	st := &runner.Stock{Lines: []runner.Row{a3, a4}, Total: a3.Amount + a4.Amount, Quantity: &runner.Qty{Value: 47_092_000, Unit: "пачк"},
		Items: 2, Accounts: []string{"41.01"}}
	res := runner.Result{Intent: recipe.StockBalance, ResultMode: runner.FactualList, Rows: st.Lines, All: st.Lines, Stock: st,
		Summary: runner.Summary{Rows: 2, TotalAmount: st.Total, Currency: "RUB"}, Source: "1С"}
	p, err := Facts(res)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range p.Items {
		texts = append(texts, it.Text)
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"Бумага офисная А3 — 14\u00a0837\u00a0пачк на " + onec.Kopecks(1_075_790_969).String() + " (счёт 41.01)",
		"Итого: 47\u00a0092\u00a0пачк, 2 позиции на " + st.Total.String()} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in the facts:\n%s", want, all)
		}
	}
	if p.Items[0].Fields[2] != (facts.Field{Name: "Количество", Value: "14\u00a0837"}) {
		t.Errorf("fields %+v", p.Items[0].Fields)
	}
}
