package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The stock's answer, in Russian: the quantity asked for first, in the unit 1C keeps the item
// in, with the sum beside it; every figure the template's. Quantities of different units are
// never added: a line says its own.

// stockMarkdown renders a stock_balance result.
func (r Result) stockMarkdown(mark string) string {
	st := r.Stock
	var b strings.Builder
	r.writeLead(&b, r.stockHeadline(), mark)
	if len(st.Lines) > 1 {
		r.stockTable(&b, st)
	}
	b.WriteString("\n" + md.Escape(stockDetails(st)))
	return strings.TrimSpace(b.String())
}

// stockHeadline is the answer in one line: the quantity of the item asked (in bold) and its
// sum, or the number of items and their sum.
func (r Result) stockHeadline() string {
	st := r.Stock
	esc := md.Escape
	when := esc(r.when())
	var what string
	switch {
	case len(st.Matched) == 1:
		what = "«" + st.Matched[0] + "»"
	case st.Asked != "":
		what = askedLabel(st.Asked, st.Matched)
	}
	items := ru.Count(st.Items, "позиция", "позиции", "позиций")
	switch {
	case what == "":
		return fmt.Sprintf("Остатки товаров и материалов %s: %s на %s.", when, items, bold(esc(st.Total.String())))
	case len(st.Matched) > 1 && st.Quantity != nil:
		// «бумаги»: every paper the nomenclature has, their quantities of one unit added
		return fmt.Sprintf("%s — %s, остаток %s: %s на сумму %s.", esc(what), items, when, bold(esc(st.Quantity.String())), esc(st.Total.String()))
	case len(st.Matched) > 1:
		return fmt.Sprintf("%s — %s, остаток %s на %s; у позиций разные единицы, количество — по каждой.", esc(what), items, when,
			bold(esc(st.Total.String())))
	case st.Quantity != nil && len(st.Lines) == 1:
		return fmt.Sprintf("Остаток %s %s: %s на сумму %s, счёт %s.", esc(what), when, bold(esc(st.Quantity.String())),
			esc(st.Total.String()), esc(st.Lines[0].Account))
	case st.Quantity != nil && st.Items == 1:
		return fmt.Sprintf("Остаток %s %s: %s на сумму %s — на счетах %s.", esc(what), when, bold(esc(st.Quantity.String())),
			esc(st.Total.String()), esc(strings.Join(st.Accounts, ", ")))
	case st.Quantity != nil:
		return fmt.Sprintf("Остаток %s %s: %s на сумму %s — %s.", esc(what), when, bold(esc(st.Quantity.String())), esc(st.Total.String()), items)
	case len(st.Lines) == 1: // the account keeps no quantity for it (a base unlike BP's)
		return fmt.Sprintf("Остаток %s %s: %s, счёт %s; количества 1С по нему не вернула.", esc(what), when, bold(esc(st.Total.String())),
			esc(st.Lines[0].Account))
	}
	return fmt.Sprintf("Остаток %s %s: %s на %s, у каждой своя единица.", esc(what), when, items, bold(esc(st.Total.String())))
}

// askedLabel names what a question asked for by the words of the items it found, as the
// nomenclature writes them: «бумаги» of «Бумага офисная А4» and «Бумага офисная А3» is
// «Бумага»; the question's words, quoted, when the names do not give them back.
func askedLabel(asked string, matched []string) string {
	if len(matched) == 0 {
		return "«" + asked + "»"
	}
	name := strings.Fields(matched[0])
	var out []string
	for _, w := range strings.Fields(asked) {
		stem := itemWords(w)
		if len(stem) != 1 {
			continue
		}
		for _, n := range name {
			if nw := itemWords(n); len(nw) == 1 && itemWordIn(stem[0], nw) && !slices.Contains(out, n) {
				out = append(out, n)
				break
			}
		}
	}
	if len(out) == 0 {
		return "«" + asked + "»"
	}
	s := strings.Join(out, " ")
	return strings.ToUpper(s[:len(string([]rune(s)[0]))]) + s[len(string([]rune(s)[0])):]
}

// stockTable is the lines of a stock, the largest sums first: the item (with its account when
// the stock is on several) and its quantity, then its sum.
func (r Result) stockTable(b *strings.Builder, st *Stock) {
	shown := min(len(st.Lines), ShownTop)
	cells := make([][2]string, 0, shown)
	for _, row := range st.Lines[:shown] {
		cells = append(cells, [2]string{md.Escape(stockLabel(row, st)), amountCell(row.Amount)})
	}
	writeTable(b, [2]string{"Номенклатура, количество", "Сумма, ₽"}, cells)
	restLine(b, len(st.Lines)-shown)
}

// stockLabel names a stock line in a narrow table: «Бумага офисная А4 — 30 838 пачк», with its
// account when the stock is on several («41.01 Цемент М500 — 1,425 т»).
func stockLabel(row Row, st *Stock) string {
	label := row.Name
	if len(st.Accounts) > 1 {
		label = row.Account + " " + label
	}
	if row.Qty != nil {
		label += " — " + row.Qty.String()
	}
	return label
}

// stockDetails says what the figures are: quantities in the items' own units, the warehouses
// summed, the sums at their cost on the accounts.
func stockDetails(st *Stock) string {
	parts := []string{"Количество — в единицах измерения номенклатуры 1С, по всем складам; сумма — стоимость по счетам учёта (" +
		strings.Join(st.Accounts, ", ") + ")."}
	if len(st.Matched) > 1 && st.Items < len(st.Matched) {
		parts = append(parts, fmt.Sprintf("Без остатка: %s из %d найденных позиций.", ru.Count(len(st.Matched)-st.Items, "позиция", "позиции", "позиций"), len(st.Matched)))
	}
	return strings.Join(parts, " ")
}

// stockSection is the part of an account's balance («остаток по 41») that its items make: a
// table of the largest, the rest counted, and what of the balance is on no quantity account.
func (r Result) stockSection(b *strings.Builder) {
	st := r.Stock
	if st == nil || st.Cut || len(st.Lines) == 0 {
		return
	}
	fmt.Fprintf(b, "\nПо номенклатуре — %s:\n", ru.Count(st.Items, "позиция", "позиции", "позиций"))
	r.stockTable(b, st)
	if rest := r.Summary.TotalAmount - st.Total; rest != 0 {
		fmt.Fprintf(b, "\nНа субсчетах без количественного учёта — %s.\n", md.Escape(rest.String()))
	}
}

// stockExport is the export's table of stock lines: account, item, quantity, unit, sum.
func stockExport(lines []Row) ([]string, [][]any) {
	header := []string{"Номенклатура", "Счёт", "Количество", "Ед. изм.", "Сумма, ₽"}
	cells := make([][]any, 0, len(lines))
	for _, x := range lines {
		var q any = ""
		unit := ""
		if x.Qty != nil {
			q, unit = x.Qty.Value, x.Qty.Unit
		}
		cells = append(cells, []any{x.Name, x.Account, q, unit, x.Amount})
	}
	return header, cells
}

// stockExportTotal is the export's last line: the lines, their sum, and their quantity where it
// adds up (one unit).
func (r Result) stockExportTotal(rows string) string {
	st := r.Stock
	s := fmt.Sprintf("Итого: %s, %s", rows, st.Total)
	if st.Quantity != nil {
		s += ", " + st.Quantity.String()
	}
	return s
}

// quantityCell writes a quantity into an export cell exactly: three decimals at most, as 1C
// keeps them (Excel holds up to 15 significant digits, so a stock of 10^12 units stays exact).
func quantityCell(q onec.Quantity) float64 { return float64(q) / onec.QuantityScale }

// isStock reports a stock_balance answer with lines.
func (r Result) isStock() bool {
	return r.Intent == recipe.StockBalance && r.Stock != nil && r.ResultMode != Limited
}
