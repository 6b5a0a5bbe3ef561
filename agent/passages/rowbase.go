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
	header := strings.Split(h.Unit.Lead[strings.LastIndexByte(h.Unit.Lead, '\n')+1:], " | ")
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
