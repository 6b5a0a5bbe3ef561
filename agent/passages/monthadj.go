package passages

// «январскую аренду когда платим», «декабрьский платёж по займу»: a month named by its
// adjective, and a month named without a year in a question about a term to come.

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// monthAdjective: a month's adjective in any form («январскую», «декабрьский», «майская»).
var monthAdjective = regexp.MustCompile(`(?i)(^|[^\p{L}])(январск|февральск|мартовск|апрельск|майск|июньск|июльск|августовск|сентябрьск|октябрьск|ноябрьск|декабрьск)\p{L}*`)

// adjectiveMonths are the months by their adjective's stem.
var adjectiveMonths = map[string]time.Month{"январск": time.January, "февральск": time.February, "мартовск": time.March,
	"апрельск": time.April, "майск": time.May, "июньск": time.June, "июльск": time.July, "августовск": time.August,
	"сентябрьск": time.September, "октябрьск": time.October, "ноябрьск": time.November, "декабрьск": time.December}

// yearWrittenIn: a year the text writes («2027», «27-го года», «за январь 27»).
var yearWrittenIn = regexp.MustCompile(`(^|[^\d])(20\d{2}|\d{2})([^\d]|$)`)

// termMonth is the month a question about a term to come names — by its name or its adjective
// — when it writes no year: the coming one within monthsAhead («январскую аренду» on 06.12.2026
// is January 2027), else the last («за ноябрь» November 2026); ok is false when it names none.
func termMonth(text string, now time.Time) (ru.Period, bool) {
	today := now.In(ru.Moscow)
	month := time.Month(0)
	if p, ok := periodOf(text, now); ok {
		if p.Kind != ru.KindMonth || yearWrittenIn.MatchString(strings.ReplaceAll(p.Text, " ", "  ")) {
			return p, true
		}
		month = p.From.Month()
	} else if m := monthAdjective.FindStringSubmatch(text); m != nil {
		month = adjectiveMonths[strings.ToLower(m[2])]
	}
	if month == 0 {
		return ru.Period{}, false
	}
	// the month to come when it is at most monthsAhead away («январскую аренду» in December),
	// else the last one («за апрель» in December is this year's April, as a ledger reads it)
	cur := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, ru.Moscow)
	best := time.Date(today.Year(), month, 1, 0, 0, 0, 0, ru.Moscow)
	if d := monthsBetween(cur, best); d > monthsAhead {
		best = best.AddDate(-1, 0, 0)
	} else if d < 0 && d+12 <= monthsAhead {
		best = best.AddDate(1, 0, 0)
	}
	return ru.Period{From: best, To: best.AddDate(0, 1, -1), Kind: ru.KindMonth, Text: text}, true
}

// monthsAhead: a month named without a year in a question about a term to come is the
// coming one when it is this many months ahead or fewer.
const monthsAhead = 2

func monthsBetween(a, b time.Time) int {
	return (b.Year()-a.Year())*12 + int(b.Month()) - int(a.Month())
}

// oneOffWeight: the share of its score a clause about one month's payment keeps when the
// question asks when to pay and names no such month.
const oneOffWeight = 0.6

// regularFirst ranks the regular term of a payment before a clause about one month's
// («когда платим постоянку»: «вносится ежемесячно … не позднее 10 числа», not «Постоянная часть
// за март 2026 г. вносится в течение 5 банковских дней с даты подписания акта»), when the
// question asks when to pay; hits otherwise.
func regularFirst(q Question, hits []library.ClauseHit) []library.ClauseHit {
	if !askedDeadline.MatchString(q.Text) && !askedWhen.MatchString(q.Text) {
		return hits
	}
	out := slices.Clone(hits)
	moved := false
	for i, h := range out {
		if ofOtherMonth(h.Unit.Text, q.Text) {
			out[i].Score *= oneOffWeight
			moved = true
		}
	}
	if moved {
		slices.SortStableFunc(out, func(a, b library.ClauseHit) int { return cmp.Compare(b.Score, a.Score) })
	}
	return out
}
