package passages

// «цена договора аудита», «сколько стоит аудит всего», «общая сумма договора поставки»: the
// price the contract states for all of it («4.1. Стоимость услуг по Договору составляет
// 951 600,00 …, в том числе НДС 22 % — 171 600,00»), in its wording as amended — not the first
// row of its table of stages, which a word of the question drew.

import (
	"regexp"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// asksContractTotal: the question asks the price of the whole contract.
var asksContractTotal = regexp.MustCompile(`(?i)(цен\p{L}*|стоимост\p{L}*|сумм\p{L}*)\s+(всего\s+)?(по\s+)?(договор|дог\b|контракт)|` +
	`общ\p{L}*\s+(цен|стоимост|сумм)\p{L}*|(сколько|скока)\s+стои\p{L}*\s+(\p{L}+\s+){0,3}(всего|целиком|в\s+целом)|всего\s+по\s+договору`)

// contractTotalFor is the line (Markdown) that states the price of the contract the question
// names (or the best clause's), and the unit that states it; "" when the question asks no such
// price or the contract states none once.
func contractTotalFor(q Question, hits []library.ClauseHit, rds []*readDoc, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	if len(hits) == 0 || !asksContractTotal.MatchString(q.Text) || whatIf(q.Text) {
		return "", library.ClauseHit{}
	}
	k, found, ok := contractPriceOf(rds, namedDoc(hits))
	if !ok {
		return "", library.ClauseHit{}
	}
	esc := md.Escape
	line := esc("Цена договора — ") + "**" + esc(ru.Money(k)) + "**"
	text := currentText(rds, found.Doc, found.Unit)
	if m := monthlyVAT.FindStringSubmatch(text); m != nil {
		if vat, ok := kopecks(m[1]); ok && vat < k {
			line += esc(", в т.ч. НДС " + ru.Money(vat) + "; без НДС " + ru.Money(k-vat))
		}
	} else if shareNoVAT.MatchString(text) && !strings.Contains(strings.ToLower(text), "сверх") {
		line += esc(", без НДС")
	}
	return line + esc(" ("+place(found)+")."), found
}

// contractPriceOf is the price document doc states for the whole contract, in its wording as
// amended («Стоимость услуг по Договору составляет 951 600,00»), in kopecks, and the unit; ok
// is false when it states none, or two (which one is not said), or only a bound.
func contractPriceOf(rds []*readDoc, doc int) (int64, library.ClauseHit, bool) {
	var found []library.ClauseHit
	var amount string
	for _, u := range rds[doc].cd.Units {
		t := currentText(rds, doc, u)
		if m := contractPrice.FindStringSubmatch(t); m != nil && !bound(t) {
			found, amount = append(found, library.ClauseHit{Doc: doc, Unit: u}), m[1]
		}
	}
	if len(found) != 1 {
		return 0, library.ClauseHit{}, false
	}
	k, ok := kopecks(amount)
	return k, found[0], ok
}
