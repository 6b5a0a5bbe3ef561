package passages

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"unicode"

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

// areaOf: an area a unit states («площадью 612,5 (шестьсот двенадцать целых пять десятых) кв.
// м»).
var areaOf = regexp.MustCompile(`(?i)площад\p{L}*\s+(\d{1,3}(?:[ \x{00a0}]\d{3})*(?:,\d{1,2})?)\s*(?:\([^()]{1,80}\)\s*)?кв\.?\s?м`)

// asksArea: the question asks an area as such («площадь по субаренде», «сколько метров
// снимаем»), not which premises or the rate per metre.
var asksArea = regexp.MustCompile(`(?i)площад|(сколько|скока|скоко)\s+(\p{L}+\s+)?(метр|квадрат|кв)`)

// areaTotalFor is the line (Markdown) that adds the areas of the premises one document's units
// state, when the question asks the area and does not name one of them («площадь по субаренде»:
// the warehouse's 612,5 and the office's 24,0 are 636,5 кв. м); "" when fewer than two units of
// the best unit's document state one, or the question asks a rate («за метр», «ставка»).
func areaTotalFor(q Question, kept []library.ClauseHit, place func(library.ClauseHit) string) string {
	if len(kept) < 2 || !asksArea.MatchString(q.Text) || strings.Contains(strings.ToLower(q.Text), "ставк") || strings.Contains(strings.ToLower(q.Text), "за метр") {
		return ""
	}
	var parts []string
	var where []string
	var summed []library.ClauseHit
	total := new(big.Rat)
	for _, h := range kept {
		if h.Doc != kept[0].Doc || h.Unit.Lead == "" || h.Unit.Lead != kept[0].Unit.Lead {
			continue // the subclauses of one clause («2.1.1», «2.1.2» of «2.1. … следующие помещения:»)
		}
		m := areaOf.FindStringSubmatch(h.Unit.Text)
		if m == nil {
			continue
		}
		a, ok := new(big.Rat).SetString(strings.NewReplacer(" ", "", "\u00a0", "", ",", ".").Replace(m[1]))
		if !ok {
			continue
		}
		total.Add(total, a)
		parts = append(parts, m[1])
		where = append(where, place(h))
		summed = append(summed, h)
	}
	if len(parts) < 2 || namesOne(q.Text, summed) {
		return "" // «какая площадь офиса»: the office's, not all premises'
	}
	decimals := 0
	for _, p := range parts {
		if _, frac, ok := strings.Cut(p, ","); ok {
			decimals = max(decimals, len(frac))
		}
	}
	sum := strings.Replace(total.FloatString(decimals), ".", ",", 1)
	esc := md.Escape
	return esc("Всего: ") + "**" + esc(sum+" кв. м") + "**" + esc(" ("+strings.Join(parts, " + ")+"; "+strings.Join(where, ", ")+").")
}

// namesOne reports whether the question holds a word (its first five letters) that some of the
// units have and others do not: it names one of them («площадь офиса» — «офисное помещение»).
func namesOne(question string, hs []library.ClauseHit) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(question), func(r rune) bool { return !unicode.IsLetter(r) }) {
		r := []rune(w)
		if len(r) < 4 || strings.HasPrefix(w, "площад") {
			continue
		}
		stem := string(r[:min(len(r)-1, 5)])
		in := 0
		for _, h := range hs {
			if ofRow(stem, strings.ToLower(h.Unit.Text)) {
				in++
			}
		}
		if in > 0 && in < len(hs) {
			return true
		}
	}
	return false
}
