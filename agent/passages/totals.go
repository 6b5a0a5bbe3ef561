package passages

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// A question that asks the sum of several rows of one table («сколько всего оплатили по акту
// сверки», «сколько коммуналки выставили за квартал») is answered with the rows that hold what
// it names, each with its amount, and their total.

// asksTotal: the message asks a total — «всего», «итого», «в сумме», «общая сумма», or an amount
// over a quarter, a period or a half-year.
var asksTotal = regexp.MustCompile(`(?i)(^|[^\p{L}])(всего|итого|в\s+сумме|суммарно|в\s+общей\s+сложности|общ(ая|ую)\s+сумм\p{L}*)([^\p{L}]|$)|` +
	`(^|[^\p{L}])за\s+(\d\s*(-?й\s+)?|перв\p{L}*\s+|втор\p{L}*\s+|трет\p{L}*\s+|четв[её]рт\p{L}*\s+|весь\s+)?(квартал|период|полугодие)`)

// rowsTotalWeaker: a row of the sum scores at least this share of the best row.
const rowsTotalWeaker = 0.9

// rowsTotalFor selects the rows of the best unit's table that hold as much of the question as
// it does and adds up their amounts: the answer's first line, and the rows to quote. Nothing
// when the best unit is no numbered row, fewer than two rows qualify, or a row's amount is not
// plain (several different sums in a row whose columns are unknown).
func rowsTotalFor(q Question, hits []library.ClauseHit, placeOf func(library.ClauseHit) string) (string, []library.ClauseHit) {
	if len(hits) < 2 || !q.Asking.Amount || !asksTotal.MatchString(q.Text) {
		return "", nil
	}
	best := hits[0]
	if best.Unit.Kind != library.UnitRow || best.Unit.Number == "" {
		return "", nil
	}
	var rows []library.ClauseHit
	for _, h := range hits {
		if h.Doc == best.Doc && h.Unit.Kind == library.UnitRow && h.Unit.Number != "" && h.Unit.Lead == best.Unit.Lead &&
			h.Score >= best.Score*rowsTotalWeaker && h.Matched >= best.Matched {
			rows = append(rows, h)
		}
	}
	if len(rows) < 2 {
		return "", nil
	}
	slices.SortFunc(rows, func(x, y library.ClauseHit) int { return x.Unit.Index - y.Unit.Index })
	var total int64
	var nums, terms []string
	for _, r := range rows {
		k, ok := rowAmount(r.Unit)
		if !ok {
			return "", nil
		}
		total += k
		nums = append(nums, r.Unit.Number)
		terms = append(terms, ru.Money(k))
	}
	where := strings.TrimSuffix(placeOf(rows[0]), ", строка "+rows[0].Unit.Number)
	esc := md.Escape
	return esc(fmt.Sprintf("Всего по строкам %s (%s): %s = ", strings.Join(nums, ", "), where, strings.Join(terms, " + "))) +
		"**" + esc(ru.Money(total)) + "**", rows
}

// rowAmount is a row's amount: its one sum, or the same sum written twice (an act of
// reconciliation states each operation as both sides see it); or the cell of the column whose
// header names a sum, when the row is read as cells.
func rowAmount(u library.Unit) (int64, bool) {
	if strings.Contains(u.Text, " | ") {
		return columnTotal([]library.Unit{u})
	}
	var k int64
	for i, m := range firstAmount.FindAllString(u.Text, -1) {
		v, ok := kopecks(m)
		if !ok || i > 0 && v != k {
			return 0, false
		}
		k = v
	}
	return k, k > 0
}
