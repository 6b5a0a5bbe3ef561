package passages

// «а максимум какая тогда будет плата в месяц» after «индексация аренды на сколько», «в худшем
// случае сколько заплатим за продление»: a contract caps how much its payment may rise («не
// более чем на 6 процентов от действующего размера», «не может превышать действующую стоимость
// более чем на 10 %»): the most it may come to is the payment as it reads now times that.

import (
	"math/big"
	"regexp"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var (
	// increaseCap: «увеличить … не более чем на 6 (шесть) процентов», «индексируются … но не более
	// чем на 8 (восемь) процентов», «не может превышать действующую стоимость более чем на 10 %».
	increaseCap = regexp.MustCompile(`(?i)(увелич\p{L}*|индексир\p{L}*|повыш\p{L}*|превыша\p{L}*)(?:[^.;]|\.\s*[\dа-яё,]){0,200}?(?:не\s+более\s+(?:чем\s+)?на|более\s+чем\s+на)\s+(\d{1,2}(?:,\d{1,2})?)\s*(?:\([^)]{1,30}\)\s*)?(?:%|процент)`)
	// asksUpTo: the question asks the most a sum may come to.
	asksUpTo = regexp.MustCompile(`(?i)максим\p{L}*|в\s+худшем|самое\s+большее|потолок|предельн\p{L}*`)
	// monthlyAsked: the question is about a monthly payment or rent.
	monthlyAsked = regexp.MustCompile(`(?i)в\s+месяц|месячн|ежемесячн|аренд|плат[аеуы]\b|постоянк`)
	// priceStated: «Лицензионное вознаграждение составляет 620 500,00».
	priceStated = regexp.MustCompile(`(?i)составляет\s+(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})`)
)

// taxNamed: the words before «составляет» name the VAT itself («начисляется НДС по ставке
// 22 %, что составляет»), not a sum with it («с учётом НДС составляет»).
var (
	taxNamed   = regexp.MustCompile(`(?i)ндс[^.;:]{0,40}$`)
	vatWithSum = regexp.MustCompile(`(?i)(с\s+учётом|с\s+учетом|включая|в\s+том\s+числе|без)\s+ндс[^.;:]{0,40}$`)
)

// vatStated: the text before an amount ends in words that make it the VAT's.
func vatStated(before string) bool {
	return taxNamed.MatchString(before) && !vatWithSum.MatchString(before)
}

// mostAfterIncrease is the line (Markdown) that computes the most a payment may come to under
// the cap on its increase the best document states, and the cap clause; "" when the question
// asks no such most or no document among the best clauses' caps an increase.
func mostAfterIncrease(q Question, hits []library.ClauseHit, rds []*readDoc, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	text := q.Text + " " + q.Continues
	if len(hits) == 0 || !asksUpTo.MatchString(q.Text) || askedPenalty.MatchString(strings.ToLower(text)) {
		return "", library.ClauseHit{}
	}
	// The cap the best clauses state («стоимость продления … не может превышать … более чем на
	// 10 %» for «сколько заплатим за продление»), in their order; else the first one of the best
	// clause's document.
	// The cap of the best clause's document…
	doc := hits[0].Doc
	var capHit library.ClauseHit
	var pct string
	for _, u := range rds[doc].cd.Units {
		if m := increaseCap.FindStringSubmatch(currentText(rds, doc, u)); m != nil {
			capHit, pct = library.ClauseHit{Doc: doc, Unit: u}, m[2]
			break
		}
	}
	if pct == "" {
		return "", library.ClauseHit{}
	}
	// …unless one of the best clauses is a cap itself: «стоимость продления … не может
	// превышать … более чем на 10 %» for «сколько заплатим за продление склад про», whatever
	// «склад» made the best clause a sublease's.
	for _, h := range hits {
		if m := increaseCap.FindStringSubmatch(currentText(rds, h.Doc, h.Unit)); m != nil {
			doc, capHit, pct = h.Doc, library.ClauseHit{Doc: h.Doc, Unit: h.Unit}, m[2]
			break
		}
	}
	current := func(u library.Unit) string { return currentText(rds, doc, u) }
	var base int64
	var basis library.ClauseHit
	if mu, k, ok := monthlyNow(rds, doc); ok && monthlyAsked.MatchString(text) {
		base, basis = k, library.ClauseHit{Doc: doc, Unit: mu}
	}
	if base == 0 {
	units:
		for _, u := range rds[doc].cd.Units {
			t := current(u)
			for _, m := range priceStated.FindAllStringSubmatchIndex(t, -1) {
				if vatStated(t[:m[0]]) {
					continue // «НДС …, что составляет 108 218,00» is the tax, not the price
				}
				if k, ok := kopecks(t[m[2]:m[3]]); ok {
					base, basis = k, library.ClauseHit{Doc: doc, Unit: u}
					break units
				}
			}
		}
	}
	if base == 0 {
		return "", library.ClauseHit{}
	}
	r, ok := new(big.Rat).SetString(strings.ReplaceAll(pct, ",", "."))
	if !ok {
		return "", library.ClauseHit{}
	}
	most := new(big.Rat).Mul(big.NewRat(base, 100), new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Quo(r, big.NewRat(100, 1))))
	esc := md.Escape
	return esc("Самое большее: "+ru.Money(base)+" × (1 + "+pct+" %) = ") + "**" + esc(ru.Money(ru.Kopecks(most))) + "**" +
		esc(" (рост не более "+pct+" % — "+place(capHit)+"; сумма сейчас — "+place(basis)+")."), capHit
}
