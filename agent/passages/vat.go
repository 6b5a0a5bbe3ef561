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
	rate, said := "", h // the VAT rate, and the unit that states it (h itself, or its lead or section)
	for i, t := range append([]string{context}, unitTexts(doc.Units)...) {
		at := h
		if i > 0 {
			at.Unit = doc.Units[i-1]
		}
		if vatExempt.MatchString(t) {
			// «… с ндс» of a licence under art. 149: there is no VAT to add, and the answer says so
			return md.Escape(fmt.Sprintf("НДС сюда не добавляется: по документу эта сумма НДС не облагается (%s).", place(at)))
		}
		if m := vatOnTop.FindStringSubmatch(t); m != nil && rate == "" {
			rate, said = m[1], at
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
	vat := ru.Kopecks(new(big.Rat).Mul(big.NewRat(amount, 100), new(big.Rat).Quo(r, big.NewRat(100, 1))))
	what := ""
	if column != "" {
		what = column + ": "
	}
	esc := md.Escape
	return esc(fmt.Sprintf("%s%s без НДС + НДС %s %% %s = ", what, ru.Money(amount), rate, ru.Money(vat))) + "**" + esc(ru.Money(amount+vat)) + "**" +
		esc(fmt.Sprintf(" с НДС (%s; НДС начисляется сверх цены — %s).", basis(place(h)), place(said)))
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
		header := headerCells(u)
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

var (
	// asksPerUnit: the question asks the price of one unit («по чём за рулон», «цена за штуку»).
	asksPerUnit = regexp.MustCompile(`(?i)(^|[^\p{L}])(за\s+(шт|штук\p{L}*|единиц\p{L}*|рул\p{L}*|упаков\p{L}*|коробк\p{L}*|кг|метр\p{L}*)|почем|почём|по\s+ч[её]м|цена)([^\p{L}]|$)`)
	// asksVATOnly: the question asks the VAT itself («сколько ндс по плёнке»).
	asksVATOnly = regexp.MustCompile(`(?i)(сколько|сумма|какой)\s+ндс|ндс\s+(по|за|в|на)\s`)
)

// invoiceLineFor is the line (Markdown) that answers from a goods line of an invoice printed as
// text (library.ReadInvoiceLine) what its cells would: the price of one unit with VAT, the VAT,
// the sum with it — when the best kept unit is such a line and the question asks one; ""
// otherwise.
func invoiceLineFor(q Question, kept []library.ClauseHit, place func(library.ClauseHit) string) string {
	if len(kept) == 0 {
		return ""
	}
	h := kept[0]
	if h.Unit.Kind != library.UnitRow || strings.Contains(h.Unit.Text, " | ") {
		return ""
	}
	l, ok := library.ReadInvoiceLine(h.Unit.Text)
	if !ok {
		return ""
	}
	esc := md.Escape
	at := " (" + basis(place(h)) + ")."
	tail := "; " + basis(place(h)) + ")." // after a parenthesis already open
	exempt := l.VAT == 0 && l.Gross == l.Net
	switch {
	case asksVATOnly.MatchString(q.Text) && !withoutVAT.MatchString(q.Text) && !asksGross.MatchString(q.Text):
		if exempt {
			return esc("НДС по строке нет: «"+l.Rate+"»") + esc(at)
		}
		return esc(fmt.Sprintf("НДС %s по строке: ", l.Rate)) + "**" + esc(ru.Money(l.VAT)) + "**" + esc(fmt.Sprintf(" (с суммы %s%s", ru.Money(l.Net), tail))
	case asksPerUnit.MatchString(q.Text) && asksGross.MatchString(q.Text) && !exempt:
		// the price with VAT of one unit: the total with VAT over the quantity, to the kopeck
		per := ru.Kopecks(new(big.Rat).Quo(big.NewRat(l.Gross, 100), l.Quantity))
		exact := new(big.Rat).Mul(big.NewRat(per, 100), l.Quantity).Cmp(big.NewRat(l.Gross, 100)) == 0
		note := ""
		if !exact {
			note = ", округлено до копейки"
		}
		return esc(fmt.Sprintf("За единицу с НДС: %s ÷ %s = ", ru.Money(l.Gross), l.Quantity.FloatString(qtyDigits(l.Quantity)))) + "**" + esc(ru.Money(per)) + "**" +
			esc(fmt.Sprintf(" (цена без НДС %s, НДС %s%s%s", ru.Money(l.Price), l.Rate, note, tail))
	case asksGross.MatchString(q.Text) && !asksPerUnit.MatchString(q.Text):
		return esc(fmt.Sprintf("Сумма по строке с НДС: %s + %s = ", ru.Money(l.Net), ru.Money(l.VAT))) + "**" + esc(ru.Money(l.Gross)) + "**" + esc(at)
	}
	return ""
}

// qtyDigits is how many decimal places a quantity is written with (0 for a whole number).
func qtyDigits(q *big.Rat) int {
	if q.IsInt() {
		return 0
	}
	return 3
}
