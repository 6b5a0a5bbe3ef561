package ledger

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/ru"
)

// The stock (runner/stock.go) beyond the runner's answer: its facts for the planner's
// ledger_query — an item's quantity in its unit and its sum, the total — so that an answer
// phrased by the LLM can say a quantity only as 1C gave it.

// stockItem is one line of a stock: an item on an account, its quantity and sum.
func stockItem(row runner.Row, it facts.Item) facts.Item {
	add := func(name, value string) {
		if value != "" {
			it.Fields = append(it.Fields, facts.Field{Name: name, Value: value})
		}
	}
	it.Title = row.Name
	qty := "количество не ведётся"
	if row.Qty != nil {
		qty = row.Qty.String()
	}
	it.Text = fmt.Sprintf("%s — %s на %s (счёт %s)", row.Name, qty, row.Amount, row.Account)
	add("Номенклатура", row.Name)
	add("Счёт", row.Account)
	if row.Qty != nil {
		add("Количество", row.Qty.Value.String())
		add("Единица измерения", row.Qty.Unit)
	}
	add("Сумма", row.Amount.String())
	return it
}

// stockTotal is a stock's total: its items and sum, and its quantity where one unit adds up.
func stockTotal(st *runner.Stock, it facts.Item) facts.Item {
	items := ru.Count(st.Items, "позиция", "позиции", "позиций")
	it.Text = fmt.Sprintf("Итого: %s на %s (счета %s).", items, st.Total, strings.Join(st.Accounts, ", "))
	it.Fields = []facts.Field{{Name: "Сумма", Value: st.Total.String()}, {Name: "Позиций", Value: fmt.Sprint(st.Items)}}
	if st.Quantity != nil {
		it.Text = fmt.Sprintf("Итого: %s, %s на %s (счета %s).", st.Quantity, items, st.Total, strings.Join(st.Accounts, ", "))
		it.Fields = append(it.Fields, facts.Field{Name: "Количество", Value: st.Quantity.String()})
	}
	return it
}

// maxStockFacts bounds the items of a quantity account's balance given as facts.
const maxStockFacts = 20
