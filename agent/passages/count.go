package passages

import (
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/retrieval"
)

// A question that asks how many of something there are («сколько рабочих мест обслуживают»,
// «скольк часов выездов входит в абонентку») is answered by the clause that states a number of
// that very thing («до 35 (тридцати пяти) рабочих мест»), not by one that shares more of the
// question's words around another figure (a price list's «Подключение нового рабочего места —
// 4 880,00»).

var (
	// asksCount: «сколько» and the word counted after it.
	asksCount = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:сколько|скольк\p{L}*|скока|скоко)\s+(\p{L}+)`)
	// countedNumber: a number a text states with what follows it — «35 (тридцати пяти) рабочих».
	countedNumber = regexp.MustCompile(`\d+(?:[.,]\d+)?\s*(?:\([^)]{1,60}\)\s*)?(\p{L}+)`)
)

// uncounted are the terms after «сколько» that ask no count of a thing: money, time spans the
// term and duration readers answer, and words that are no noun («сколько платим», «сколько
// всего»).
var uncounted = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("денег деньги рублей рубля стоит стоят стоимость платим заплатим платить заплатить " +
		"выйдет выходит будет всего итого нужно надо можно это нам мы они у в по за с на дней дня день месяцев месяца лет года " +
		"недель недели процентов процента раз времени осталось остается получится получим получает") {
		for _, t := range retrieval.Tokens(w) {
			m[t] = true
		}
	}
	return m
}()

// countFirst moves to the front the unit that states a number of what the question counts,
// when one holds the question about as well as the best (at least half its score); hits
// otherwise.
func countFirst(q Question, hits []library.ClauseHit) []library.ClauseHit {
	m := asksCount.FindStringSubmatch(q.Text)
	if m == nil || len(hits) < 2 {
		return hits
	}
	counted := retrieval.Tokens(m[1])
	if len(counted) != 1 || uncounted[counted[0]] {
		return hits
	}
	best := -1
	for i, h := range hits {
		if h.Score < hits[0].Score*countWeaker {
			break
		}
		if statesCountOf(h.Unit.Text, counted[0]) {
			best = i
			break
		}
	}
	if best <= 0 {
		return hits
	}
	out := slices.Clone(hits)
	h := out[best]
	out = slices.Delete(out, best, best+1)
	return slices.Insert(out, 0, h)
}

// countWeaker: how much weaker than the best a unit that states the count may be.
const countWeaker = 0.5

// statesCountOf: text states a number of term («35 рабочих мест» for «рабоч»).
func statesCountOf(text, term string) bool {
	for _, m := range countedNumber.FindAllStringSubmatch(text, -1) {
		if slices.Contains(retrieval.Tokens(m[1]), term) {
			return true
		}
	}
	return false
}
