package passages

import (
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/library"
)

// A penalty counted «от стоимости этапа» (a row of the contract's table — a stage, a batch, a
// position) for the days a question gives, of the row the question names by its words
// («сдал кровлю на 9 дней позже»: the stage «Устройство кровли …»): the row's cost is the base.

// rowCostBase: a penalty clause counted from a row's cost.
var rowCostBase = regexp.MustCompile(`(?i)от\s+стоимости\s+(этапа|партии|позиции|работ|услуг\s+этапа|соответствующ)`)

// rowCost is the cost of the table row of document doc the question names — its cell under a
// header of cost or sum («Стоимость этапа с НДС, руб.»), in kopecks — and the row; ok is false
// when no row or more than one is named equally well, or the row states no cost.
func rowCost(q Question, hits []library.ClauseHit, doc int) (int64, library.ClauseHit, bool) {
	var rows []library.ClauseHit
	for _, h := range hits[:min(len(hits), 12)] {
		if h.Doc == doc && h.Unit.Kind == library.UnitRow && h.Unit.Number != "" {
			rows = append(rows, h)
		}
	}
	if len(rows) == 0 || len(rows) > 1 && rows[1].Score >= rows[0].Score*tiedRows {
		return 0, library.ClauseHit{}, false
	}
	k, ok := costCell(rows[0])
	return k, rows[0], ok
}

// costCell is a table row's cell under a header of cost or sum («Стоимость этапа с НДС,
// руб.»; not the VAT within it; with VAT rather than without when it has both), in kopecks; ok
// is false when it has none.
func costCell(h library.ClauseHit) (int64, bool) {
	header := headerCells(h.Unit)
	cells := strings.Split(h.Unit.Text, " | ")
	if len(header) != len(cells) {
		return 0, false
	}
	isCost := func(hd string) bool {
		l := strings.ToLower(hd)
		return (strings.Contains(l, "стоимост") || strings.HasPrefix(l, "сумма")) && !strings.Contains(l, "в т. ч.") && !strings.Contains(l, "в т.ч.")
	}
	// the cost with VAT when the table has it beside the one without («Стоимость без НДС» |
	// «НДС» | «Стоимость с НДС»): a contract's price, and a share of it, includes its VAT
	i := slices.IndexFunc(header, func(hd string) bool { return isCost(hd) && strings.Contains(strings.ToLower(hd), "с ндс") })
	if i < 0 {
		i = slices.IndexFunc(header, isCost)
	}
	if i < 0 || !moneyCellText.MatchString(strings.TrimSpace(cells[i])) {
		return 0, false
	}
	return kopecks(strings.TrimSpace(cells[i]))
}

// rowLabel is how a row is named: its longest cell of words («Устройство кровли из
// ПВХ-мембраны с утеплением»), else its number.
func rowLabel(u library.Unit) string {
	best := ""
	for _, c := range strings.Split(u.Text, " | ") {
		c = strings.TrimSpace(c)
		if strings.IndexFunc(c, func(r rune) bool { return r > 'z' }) >= 0 && len([]rune(c)) > len([]rune(best)) {
			best = c
		}
	}
	if best == "" {
		return "строка " + u.Number
	}
	return best
}

// withRow is a contract's table row as an agreement's table sets it anew: each cell under a
// header the agreement's table has too («Цена без НДС, руб.», «Цена с НДС, руб.») in its new
// value, the others as they were; ok is false when no figure changes.
func withRow(old, set library.Unit) (string, bool) {
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	if !strings.Contains(set.Text, " | ") {
		return withScannedRow(old, set.Text)
	}
	oh, nh := headerCells(old), headerCells(set)
	oc, nc := strings.Split(old.Text, " | "), strings.Split(set.Text, " | ")
	if len(oh) != len(oc) || len(nh) != len(nc) {
		return "", false
	}
	changed := false
	for j, h := range oh {
		k := slices.IndexFunc(nh, func(x string) bool { return norm(x) == norm(h) })
		if k < 0 || strings.TrimSpace(nc[k]) == strings.TrimSpace(oc[j]) {
			continue
		}
		if moneyCellText.MatchString(strings.TrimSpace(nc[k])) {
			changed = true
		}
		oc[j] = nc[k]
	}
	return strings.Join(oc, " | "), changed
}

// withScannedRow is withRow for a scan's table read as text, its rows run together: the row is
// found by the first words of its name, and the sums after them set its money cells in their
// order — when there are as many and, three of them, a price, its VAT and their sum add up.
func withScannedRow(old library.Unit, text string) (string, bool) {
	key := strings.ToLower(firstWords(rowLabel(old), 3))
	i := strings.Index(strings.ToLower(text), key)
	if key == "" || i < 0 {
		return "", false
	}
	oc := strings.Split(old.Text, " | ")
	var money []int
	for j, c := range oc {
		if moneyCellText.MatchString(strings.TrimSpace(c)) {
			money = append(money, j)
		}
	}
	figs := firstAmount.FindAllString(text[i:], -1)
	if len(money) == 0 || len(figs) < len(money) {
		return "", false
	}
	figs = figs[:len(money)]
	if len(figs) == 3 {
		a, _ := kopecks(figs[0])
		b, _ := kopecks(figs[1])
		c, _ := kopecks(figs[2])
		if a+b != c {
			return "", false // not a price, its VAT and their sum: the row is not read so
		}
	}
	changed := false
	for k, j := range money {
		if strings.TrimSpace(oc[j]) != figs[k] {
			oc[j], changed = figs[k], true
		}
	}
	return strings.Join(oc, " | "), changed
}

// namedDoc is the document of the best hit whose document the question names, else of the best
// hit.
func namedDoc(hits []library.ClauseHit) int {
	if i := slices.IndexFunc(hits, func(h library.ClauseHit) bool { return h.Named }); i >= 0 {
		return hits[i].Doc
	}
	return hits[0].Doc
}

// headerCells are the cells of the header line of the table a row belongs to (its Lead's last
// line).
func headerCells(u library.Unit) []string {
	return strings.Split(u.Lead[strings.LastIndexByte(u.Lead, '\n')+1:], " | ")
}
