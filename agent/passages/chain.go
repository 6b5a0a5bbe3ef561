package passages

// «отчёт придёт 07.12, утвердим в последний день — крайний срок оплаты агенту»: the payment is
// due 10 working days after the report is approved (4.6), and approval 5 working days after it
// is received (5.3). The question's date is the report's arrival, not its approval: counting
// the payment from it is a wrong date stated as fact. A term counted from another event than
// the one the question dates is computed through the clause that sets that event's own term,
// or not at all.

import (
	"regexp"
	"strings"
	"time"

	"github.com/finbot/finbot/library"
)

// anchorAfter: the event a term counts from, right after it («… рабочих дней с даты
// утверждения отчёта», «с момента получения», «после подписания»).
var anchorAfter = regexp.MustCompile(`(?i)^\s*(?:\([^)]*\)\s*)?(?:с|со|после|от)\s+(?:даты\s+|момента\s+|дня\s+)?(\p{L}+)`)

// eventPrefixes name events by the first letters of their nouns and verbs.
var eventPrefixes = []struct{ event, prefix string }{
	{"receive", "получ"}, {"receive", "поступ"}, {"receive", "придет"}, {"receive", "придёт"}, {"receive", "пришл"},
	{"receive", "пришел"}, {"receive", "пришёл"}, {"receive", "присла"}, {"receive", "присыла"},
	{"sign", "подпис"},
	{"approve", "утвержд"}, {"approve", "утверд"},
	{"deliver", "постав"}, {"deliver", "отгруз"}, {"deliver", "привез"}, {"deliver", "достав"},
	{"invoice", "выставл"}, {"invoice", "выстав"},
}

// eventOf is the event a word names ("" for none).
func eventOf(word string) string {
	w := fold(word)
	for _, e := range eventPrefixes {
		if strings.HasPrefix(w, e.prefix) {
			return e.event
		}
	}
	return ""
}

// clauseAnchor is the event the term in text (starting after m0, the term's own words) counts
// from; "" when it names none this package knows.
func clauseAnchor(after string) string {
	if m := anchorAfter.FindStringSubmatch(after); m != nil {
		return eventOf(m[1])
	}
	return ""
}

// datedEvent is the event the question's written day is of — the event word nearest to it
// («отчёт придёт 07.12, утвердим в последний день»: receive); "" when none is near.
func datedEvent(question string) string {
	loc := writtenDay.FindStringSubmatchIndex(question)
	if loc == nil {
		return ""
	}
	at := loc[4]
	best, dist := "", 1<<30
	for _, w := range wordSpans(question) {
		e := eventOf(question[w[0]:w[1]])
		if e == "" {
			continue
		}
		d := w[0] - at
		if d < 0 {
			d = at - w[1]
		}
		if d < dist {
			best, dist = e, d
		}
	}
	if dist > 40 {
		return "" // too far from the day to be its event
	}
	return best
}

var wordRe = regexp.MustCompile(`\p{L}+`)

func wordSpans(s string) [][]int { return wordRe.FindAllStringIndex(s, -1) }

// chainStep finds, among units, the clause that sets the term of event from the event the
// question dates («Принципал в течение 5 рабочих дней с даты получения отчёта утверждает его»
// for approve from receive): its term's words (termDays' submatches) and the unit.
func chainStep(units []library.Unit, event, from string) ([]string, library.Unit, bool) {
	for _, u := range units {
		m := termDays.FindStringSubmatch(u.Text)
		if m == nil {
			continue
		}
		after := u.Text[strings.Index(u.Text, m[0])+len(m[0]):]
		if clauseAnchor(after) != from {
			continue
		}
		// the unit's own action is the event sought: a word of it outside the anchor
		rest := strings.Replace(u.Text, m[0], " ", 1)
		for _, w := range wordSpans(rest) {
			if eventOf(rest[w[0]:w[1]]) == event {
				return m, u, true
			}
		}
	}
	return nil, library.Unit{}, false
}

// eventNames are the events as an answer names them.
var eventNames = map[string]string{"receive": "получение", "sign": "подписание", "approve": "утверждение",
	"deliver": "поставка", "invoice": "выставление счёта"}

// addTerm is from moved n days of kind («рабочих», «банковских», «календарных» or "") in the
// direction of step (1 forward, -1 back), working days skipping weekends and the Labour Code's
// holidays.
func addTerm(from time.Time, n int, kind string, step int) time.Time {
	day := from
	switch kind {
	case "рабочих", "банковских":
		for left := n; left > 0; {
			day = day.AddDate(0, 0, step)
			if wd := day.Weekday(); wd != time.Saturday && wd != time.Sunday && !fixedHolidays[[2]int{int(day.Month()), day.Day()}] {
				left--
			}
		}
	default:
		day = day.AddDate(0, 0, step*n)
	}
	return day
}
