package passages

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/retrieval"
	"github.com/finbot/finbot/ru"
)

// A price a document states without VAT, asked with it («газель по городу час с ндс», «грузчик
// с ндс почём»): the price plus VAT at the rate the document charges on top of its prices —
// never for a document whose prices bear no VAT (a licence under art. 149 of the Tax Code).

var (
	// asksGross: the question asks an amount with VAT.
	asksGross = regexp.MustCompile(`(?i)(^|[^\p{L}])(с|включая|вместе\s+с)\s+ндс`)
	// statesNet: a text says its prices are without VAT.
	statesNet = regexp.MustCompile(`(?i)без\s+ндс`)
	// vatOnTop: a text charges VAT at a rate on top of net prices («НДС по ставке 22 %
	// начисляется сверх тарифа», «НДС 22 % начисляется сверху»).
	vatOnTop = regexp.MustCompile(`(?i)ндс\s+(?:по\s+ставке\s+)?(\d{1,2})\s?%\s+(?:начисля\p{L}*|уплачива\p{L}*)\s+(?:сверх|сверху|дополнительно)`)
	// vatExempt: a text says no VAT is charged.
	vatExempt = regexp.MustCompile(`(?i)не\s+облага\p{L}*\s+ндс|ндс\s+не\s+облага|освобожд\p{L}*\s+от\s+(?:уплаты\s+)?ндс|ст(?:\.|атьи)\s*149`)
)

// grossOfVAT is the line (Markdown) that adds VAT to the net price the first kept unit states,
// when the question asks the price with VAT and the unit's document charges VAT on top of its
// net prices; "" otherwise. A row read as cells gives the amount of the column whose header
// holds most of the question's words (the leftmost of equals), and the line names the column.
func grossOfVAT(q Question, kept []library.ClauseHit, cds []library.ClauseDoc, place func(library.ClauseHit) string) string {
	if len(kept) == 0 || !asksGross.MatchString(q.Text) || asksWhich.MatchString(q.Text) {
		return ""
	}
	h := kept[0]
	doc := cds[h.Doc]
	context := h.Unit.Text + "\n" + h.Unit.Lead + "\n" + h.Unit.Section
	net := statesNet.MatchString(context) || vatOnTop.MatchString(context)
	rate := ""
	for i, t := range append([]string{context}, unitTexts(doc.Units)...) {
		if vatExempt.MatchString(t) {
			// «… с ндс» of a licence under art. 149: there is no VAT to add, and the answer says so
			where := h
			if i > 0 {
				where.Unit = doc.Units[i-1]
			}
			return md.Escape(fmt.Sprintf("НДС сюда не добавляется: по документу эта сумма НДС не облагается (%s).", place(where)))
		}
		if m := vatOnTop.FindStringSubmatch(t); m != nil && rate == "" {
			rate = m[1]
			net = net || statesNet.MatchString(t) // «Тарифы указаны без НДС; НДС … начисляется сверх тарифа»
		}
	}
	if rate == "" || !net {
		return "" // the price may include VAT: nothing says it does not
	}
	amount, column, ok := netAmount(q, h.Unit)
	if !ok {
		return ""
	}
	r, _ := new(big.Rat).SetString(rate)
	// roubles × rate / 100, rounded to the kopeck
	vat := toKopecks(new(big.Rat).Mul(big.NewRat(amount, 100), new(big.Rat).Quo(r, big.NewRat(100, 1))))
	what := ""
	if column != "" {
		what = column + ": "
	}
	esc := md.Escape
	return esc(fmt.Sprintf("%s%s без НДС + НДС %s %% %s = ", what, ru.Money(amount), rate, ru.Money(vat))) + "**" + esc(ru.Money(amount+vat)) + "**" +
		esc(fmt.Sprintf(" с НДС (%s; НДС начисляется сверх цены, как сказано в документе).", basis(place(h))))
}

// unitTexts are the units' texts.
func unitTexts(us []library.Unit) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.Text
	}
	return out
}

// netAmount is the one amount a unit states, or, for a row read as cells, the amount of the
// column the question names best (with that column's header).
func netAmount(q Question, u library.Unit) (int64, string, bool) {
	if u.Kind == library.UnitRow && strings.Contains(u.Text, " | ") {
		header := strings.Split(u.Lead[strings.LastIndexByte(u.Lead, '\n')+1:], " | ")
		cells := strings.Split(u.Text, " | ")
		if len(cells) > len(header) {
			return 0, "", false
		}
		qt := map[string]bool{}
		for _, t := range retrieval.Tokens(q.Text) {
			qt[t] = true
		}
		best, bestHeld := -1, -1
		for c, cell := range cells {
			if moneyCell(cell) < 0 || !strings.Contains(cell, ",") && !priceColumn.MatchString(header[c]) {
				continue
			}
			held := 0
			for _, t := range retrieval.Tokens(header[c]) {
				if qt[t] {
					held++
				}
			}
			if held > bestHeld {
				best, bestHeld = c, held
			}
		}
		if best < 0 {
			return 0, "", false
		}
		return moneyCell(cells[best]), strings.TrimSpace(header[best]), true
	}
	ms := firstAmount.FindAllString(u.Text, -1)
	if len(ms) == 0 {
		return 0, "", false
	}
	k, ok := kopecks(ms[0])
	for _, m := range ms[1:] {
		if v, _ := kopecks(m); v != k {
			return 0, "", false // several amounts: which one is asked?
		}
	}
	return k, "", ok
}
