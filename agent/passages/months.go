package passages

// «на какую сумму максимум отвечает исполнитель» over «ответственность ограничена суммой
// абонентской платы за 3 (три) месяца», «обеспечительный платёж в размере арендной платы за 2
// месяца»: a sum a clause sets as so many months of the contract's monthly payment.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// monthsOfPayment: «(суммой) абонентской платы за 3 (три) месяца», «арендной платы за два
// месяца», «в размере месячной арендной платы».
var monthsOfPayment = regexp.MustCompile(`(?i)(?:(\p{L}+\s+)?плат\p{L}*|постоянн\p{L}*\s+част\p{L}*)\s+за\s+(\d{1,2}|один|одни|два|две|три|четыре|шесть|двенадцать)\s*(?:\([^)]{1,20}\)\s*)?(?:календарн\p{L}*\s+)?месяц\p{L}*|` +
	`месячн\p{L}*\s+(\p{L}+\s+)?плат\p{L}*`)

var monthWords = map[string]int{"один": 1, "одни": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "шесть": 6, "двенадцать": 12}

// monthsOfPaymentFor is the line (Markdown) that computes the sum the first kept unit sets as
// months of its document's monthly payment (monthly: the payment, its place and text), when
// the question asks an amount and the unit states no amount of its own; "" otherwise.
func monthsOfPaymentFor(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string,
	monthly func(doc int) (int64, string, string, bool)) string {
	if len(hits) == 0 || monthly == nil || !asksAmountOf.MatchString(strings.ToLower(q.Text)) && !asksSum.MatchString(q.Text) {
		return ""
	}
	h := hits[0]
	if firstAmount.MatchString(h.Unit.Text) || perDay.MatchString(h.Unit.Text) {
		return "" // the clause states its sum, or a daily penalty
	}
	m := monthsOfPayment.FindStringSubmatch(h.Unit.Text)
	if m == nil {
		return ""
	}
	n := 1
	if m[2] != "" {
		if v, err := strconv.Atoi(m[2]); err == nil {
			n = v
		} else {
			n = monthWords[strings.ToLower(m[2])]
		}
	}
	k, where, text, ok := monthly(h.Doc)
	if !ok || n <= 0 || !sameSubject(m[0], text) {
		return "" // the monthly payment is not the one the clause counts in
	}
	esc := md.Escape
	return esc(fmt.Sprintf("%d × %s (платёж в месяц, %s) = ", n, ru.Money(k), where)) + "**" + esc(ru.Money(k*int64(n))) + "**" +
		esc(" (расчёт по "+place(h)+").")
}

// asksSum: «на какую сумму», «какая сумма», «в каком размере», «максимум», «какой
// обеспечительный платёж».
var asksSum = regexp.MustCompile(`(?i)на\s+какую\s+сумму|как(ая|ой)\s+(сумм|размер)|в\s+каком\s+размере|максимум|предел|` +
	`как(ой|ая|ое)\s+(\p{L}+\s+)?(плат[её]ж|депозит|взнос|залог|лимит)`)
