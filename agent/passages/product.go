package passages

// «водитель сэкономил 60 л, средняя цена 66,40, премия какая» over «премия в размере 30
// (тридцати) процентов стоимости сэкономленного топлива по средней цене литра …, но не более
// 5 000,00 рублей в месяц»: the question gives a quantity and its price, the clause a share of
// their cost (and a cap): the share of the product, capped.

import (
	"math/big"
	"regexp"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var (
	// productQuantity: «60 л», «120 литров», «35 кг», «12 шт», «40 ч» (not days: a penalty's).
	productQuantity = regexp.MustCompile(`(?i)(?:^|[^\d,.])(\d{1,6}(?:,\d{1,3})?)\s*(л|литр\p{L}*|кг|килограмм\p{L}*|шт\p{L}*|штук\p{L}*|ч|час\p{L}*|км|километр\p{L}*)(?:[^\p{L}]|$)`)
	// askedPrice: «цена 66,40», «по 66,40», «средняя цена литра 66,40 руб.», «66,40 за литр».
	askedPrice = regexp.MustCompile(`(?i)(?:цен\p{L}*(?:\s+\p{L}+){0,2}\s*[-—:]?\s*|по\s+)(\d{1,6}(?:,\d{1,2})?)(?:\s*(?:руб\p{L}*|р\.|₽))?|(\d{1,6},\d{2})\s*(?:руб\p{L}*|р\.|₽)?\s*за\s+(?:1\s+)?(?:л|литр|кг|шт|ч|час|км)`)
	// costShare: «30 (тридцати) процентов стоимости сэкономленного топлива», «5 % от стоимости
	// товара»: a share of what something costs.
	costShare = regexp.MustCompile(`(?i)(\d{1,2}(?:,\d{1,3})?)\s*(?:\([^)]{1,40}\)\s*)?(?:%|процент\p{L}*)\s*(?:\([^)]{1,40}\)\s*)?(?:от\s+)?стоимост\p{L}*`)
	// costCap: «, но не более 5 000,00 рублей в месяц».
	costCap = regexp.MustCompile(`(?i)не\s+более\s+(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})`)
)

// productShareFor is the line (Markdown) that computes a clause's share of the cost of a
// quantity at a price the question gives, capped as the clause caps it, and the clause; "" when
// the question gives no quantity and price (or more figures), or no clause among the best sets a
// share of a cost.
func productShareFor(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	text := strings.ToLower(q.Text)
	qm := productQuantity.FindAllStringSubmatch(text, -1)
	pm := askedPrice.FindAllStringSubmatch(text, -1)
	if len(hits) == 0 || len(qm) != 1 || len(pm) != 1 || askedPenalty.MatchString(text) || askedDays.MatchString(text) {
		return "", library.ClauseHit{}
	}
	price := pm[0][1]
	if price == "" {
		price = pm[0][2]
	}
	// The two figures are all the question gives: a third one is something this does not count.
	if n := len(questionFigures.FindAllString(text, -1)); n != 2 {
		return "", library.ClauseHit{}
	}
	qty, ok1 := new(big.Rat).SetString(strings.ReplaceAll(qm[0][1], ",", "."))
	p, ok2 := new(big.Rat).SetString(strings.ReplaceAll(price, ",", "."))
	if !ok1 || !ok2 || qty.Sign() <= 0 || p.Sign() <= 0 {
		return "", library.ClauseHit{}
	}
	for _, h := range hits[:min(len(hits), 4)] {
		if h.Score < hits[0].Score*weakPenalty {
			break
		}
		m := costShare.FindStringSubmatchIndex(h.Unit.Text)
		if m == nil || perDay.MatchString(h.Unit.Text) || capBefore.MatchString(h.Unit.Text[max(0, m[0]-40):m[0]]) {
			continue
		}
		pct := h.Unit.Text[m[2]:m[3]]
		r, ok := new(big.Rat).SetString(strings.ReplaceAll(pct, ",", "."))
		if !ok {
			continue
		}
		cost := new(big.Rat).Mul(qty, p)
		share := new(big.Rat).Quo(new(big.Rat).Mul(cost, r), big.NewRat(100, 1))
		esc := md.Escape
		line := esc(qm[0][1] + " " + qm[0][2] + " × " + price + " = " + ru.Money(ru.Kopecks(cost)) + "; " + pct + " % = ")
		if cm := costCap.FindStringSubmatch(h.Unit.Text[m[1]:]); cm != nil {
			if k, ok := kopecks(cm[1]); ok && share.Cmp(big.NewRat(k, 100)) > 0 {
				line += esc(ru.Money(ru.Kopecks(share)) + ", но не более " + ru.Money(k) + " = ")
				share = big.NewRat(k, 100)
			}
		}
		return "По вашим цифрам: " + line + "**" + esc(ru.Money(ru.Kopecks(share))) + "**" + esc(" (расчёт по "+place(h)+")."), h
	}
	return "", library.ClauseHit{}
}

// questionFigures: every figure of a text («60», «66,40», «1 200»).
var questionFigures = regexp.MustCompile(`\d+(?:[ \x{00a0}]\d{3})*(?:,\d+)?`)
