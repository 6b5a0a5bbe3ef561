package passages

// «заплатили аренду склада за декабрь 04.12, пени сколько будет»: the month's payment was due by
// the contract's day (25.11 — «не позднее 25 числа месяца, предшествующего оплачиваемому», as
// amended), paid on the day the question names: the days late, the monthly payment and the
// daily rate of late payment give the penalty. Every figure comes from the clauses, as they read
// now, and the answer shows each.

import (
	"cmp"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// monthDue is the day a month's payment falls due by a clause that sets it by the day of a
// month («не позднее 10 числа оплачиваемого месяца», «до 25 числа месяца, предшествующего
// оплачиваемому»), moved to the next working day (art. 193 of the Civil Code); ok is false when
// the clause sets none so or the period is not one month.
func monthDue(p ru.Period, text string) (due time.Time, day int, ok bool) {
	m := nextMonthDay.FindStringSubmatch(text)
	if m == nil || p.From.Month() != p.To.Month() || p.From.Year() != p.To.Year() {
		return time.Time{}, 0, false
	}
	day, _ = strconv.Atoi(m[1])
	month := p.To
	switch {
	case m[4] != "": // the month before the one paid for
		month = p.From.AddDate(0, -2, 0)
	case m[2] == "": // the month paid for
		month = p.From.AddDate(0, -1, 0)
	}
	due = time.Date(month.Year(), month.Month()+1, day, 0, 0, 0, 0, ru.Moscow)
	if due.Day() != day {
		return time.Time{}, 0, false
	}
	return workingDayFrom(due), day, true
}

// latePaidPenalty is the line (Markdown) that computes the penalty for a month's payment paid on
// the day the question names, and the penalty clause computed by; "" when the question names no
// payment day or month, or the document (of the best hit) states no monthly term, payment or
// daily rate of late payment.
func latePaidPenalty(q Question, hits []library.ClauseHit, rds []*readDoc, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	text := strings.ToLower(q.Text)
	if len(hits) == 0 || q.Now.IsZero() || !askedPenalty.MatchString(text) || askedDays.MatchString(text) {
		return "", library.ClauseHit{}
	}
	d := writtenDay.FindStringSubmatch(q.Text)
	if d == nil {
		return "", library.ClauseHit{}
	}
	paid, ok, err := ru.ParsePeriod(d[2], q.Now)
	if err != nil || !ok || paid.Kind != ru.KindDay {
		return "", library.ClauseHit{}
	}
	rest := strings.Replace(q.Text, d[2], " ", 1)
	period, ok := termMonth(rest, q.Now)
	if !ok {
		return "", library.ClauseHit{}
	}
	// the first document among the best clauses' that sets a monthly term, payment and penalty
	seen := map[int]bool{}
	for _, h := range hits {
		if h.Score < hits[0].Score*weakPenalty {
			break
		}
		if seen[h.Doc] {
			continue
		}
		seen[h.Doc] = true
		if line, lp := latePaidIn(q, h.Doc, paid.From, period, rds, place); line != "" {
			return line, lp
		}
	}
	return "", library.ClauseHit{}
}

// latePaidIn is latePaidPenalty by the clauses of document doc.
func latePaidIn(q Question, doc int, paidOn time.Time, period ru.Period, rds []*readDoc, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	current := func(u library.Unit) string { return currentText(rds, doc, u) }
	var due time.Time
	var term library.ClauseHit
	for _, u := range rds[doc].cd.Units {
		if dd, _, ok := monthDue(period, current(u)); ok && !ofOtherMonth(current(u), q.Text) {
			due, term = dd, library.ClauseHit{Doc: doc, Unit: u}
			break
		}
	}
	mu, base, ok := monthlyNow(rds, doc)
	if due.IsZero() || !ok {
		return "", library.ClauseHit{}
	}
	lps := latePayments(q, rds, map[int]bool{doc: true})
	if !ok || len(lps) == 0 {
		return "", library.ClauseHit{}
	}
	lp := lps[0]
	esc := md.Escape
	late := int(paidOn.Sub(due).Hours()/24 + 0.5)
	dueAt := esc(fmt.Sprintf("срок был %s по %s", due.Format("02.01.2006"), place(term)))
	if late <= 0 {
		return esc("Пени нет: оплата "+paidOn.Format("02.01.2006")+" — в срок (") + dueAt + esc(")."), term // the term is the answer
	}
	sum := new(big.Rat).Mul(big.NewRat(base, 100), new(big.Rat).Quo(lp.rate, big.NewRat(100, 1)))
	sum.Mul(sum, big.NewRat(int64(late), 1))
	line := esc(fmt.Sprintf("Пени: %s × %s %% × %d дн. (с %s по %s; ", ru.Money(base), lp.pct, late,
		due.AddDate(0, 0, 1).Format("02.01.2006"), paidOn.Format("02.01.2006"))) + dueAt + esc(") = ") +
		"**" + esc(ru.Money(ru.Kopecks(sum))) + "**"
	if limit, ok := lp.limit(base); ok && sum.Cmp(limit) > 0 {
		line += esc(fmt.Sprintf(", но не более %s %% — %s", lp.cap, ru.Money(ru.Kopecks(limit))))
	}
	return line + esc(fmt.Sprintf(" (расчёт по %s; платёж за месяц — %s по %s).", place(lp.hit), ru.Money(base),
		place(library.ClauseHit{Doc: doc, Unit: mu}))), lp.hit
}

// asksNextPayment: «когда следующий платёж», «когда след платёж», «ближайшая оплата по аренде».
var asksNextPayment = regexp.MustCompile(`(?i)(^|[^\p{L}])(следующ\p{L}*|след\.?|ближайш\p{L}*|очередн\p{L}*)\s+(\p{L}+\s+)?(плат[её]ж|оплат|взнос|перечислени)`)

// nextPaymentDue is the line (Markdown) that dates the next monthly payment of the best
// document that sets one by the day of a month, from today, with its amount when the document
// states one, and the clause; "" when the question asks no next payment or no document among
// the best clauses' sets such a term.
func nextPaymentDue(q Question, hits []library.ClauseHit, rds []*readDoc, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	if len(hits) == 0 || q.Now.IsZero() || !asksNextPayment.MatchString(q.Text) {
		return "", library.ClauseHit{}
	}
	today := time.Date(q.Now.In(ru.Moscow).Year(), q.Now.In(ru.Moscow).Month(), q.Now.In(ru.Moscow).Day(), 0, 0, 0, 0, ru.Moscow)
	seen := map[int]bool{}
	for _, h := range hits {
		if h.Score < hits[0].Score*weakPenalty || seen[h.Doc] || hits[0].Named && h.Doc != hits[0].Doc {
			continue // the document the question names, when it names one
		}
		seen[h.Doc] = true
		doc := h.Doc
		current := func(u library.Unit) string { return currentText(rds, doc, u) }
		// the monthly terms of payments, the main payment's first («Постоянная часть … не позднее
		// 5-го числа» before the variable part's): the most words shared with the monthly sum
		mu, _, hasMonthly := monthlyOf(rds[doc].cd)
		var terms []library.Unit
		for _, u := range rds[doc].cd.Units {
			text := current(u)
			if nextMonthDay.FindStringSubmatch(text) == nil || monthOf.MatchString(text) || notMonthly.MatchString(text) || !statesPaying.MatchString(text) {
				continue // a one-off month's term, a quarter's, or no payment's
			}
			terms = append(terms, u)
		}
		if hasMonthly {
			slices.SortStableFunc(terms, func(a, b library.Unit) int {
				return cmp.Compare(sharedWords(current(b), current(mu)), sharedWords(current(a), current(mu)))
			})
		}
		for _, u := range terms {
			text := current(u)
			// the earliest month whose payment falls due today or later
			for k := -1; k <= 2; k++ {
				first := time.Date(today.Year(), today.Month()+time.Month(k), 1, 0, 0, 0, 0, ru.Moscow)
				p := ru.Period{From: first, To: first.AddDate(0, 1, -1), Kind: ru.KindMonth}
				due, _, ok := monthDue(p, text)
				if !ok || due.Before(today) {
					continue
				}
				term := library.ClauseHit{Doc: doc, Unit: u}
				esc := md.Escape
				line := esc("Следующий платёж — не позднее ") + "**" + esc(due.Format("02.01.2006")) + "**" +
					esc(" (за "+ru.MonthName(first.Month())+" "+strconv.Itoa(first.Year())+"; "+place(term))
				if mu, k, ok := monthlyNow(rds, doc); ok {
					line += esc("; сумма — " + ru.Money(k) + " по " + place(library.ClauseHit{Doc: doc, Unit: mu}))
				}
				return line + esc(")."), term
			}
		}
	}
	return "", library.ClauseHit{}
}

// notMonthly: a term of a quarter's or another period's payment («ежеквартально», «за истекшим
// процентным периодом»).
var notMonthly = regexp.MustCompile(`(?i)кварта|истекш\p{L}*\s+(процентн|отчетн|отчётн)|ежегодн|полугоди`)

// sharedWords is how many words of five letters or more (by their first five) two texts share,
// the words every payment clause has aside.
func sharedWords(a, b string) int {
	words := func(s string) map[string]bool {
		out := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if r := []rune(w); len(r) >= 5 && !subjectGeneric[string(r[:5])] {
				out[string(r[:5])] = true
			}
		}
		return out
	}
	wb, n := words(b), 0
	for w := range words(a) {
		if wb[w] {
			n++
		}
	}
	return n
}

// penaltyCapOf answers «а максимум сколько могут насчитать» after a penalty was computed: the
// cap of the late-payment clause («но не более 10 % от суммы задолженности») on the sum the
// continued question counted from — its own amount, or the month's payment (as amended) of the
// document the dialog is about. "" when the question continues no penalty or the clause has no
// cap (then it says so).
func penaltyCapOf(q Question, rds []*readDoc, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	prev := strings.ToLower(q.Continues)
	if q.Continues == "" || !asksUpTo.MatchString(q.Text) || !askedPenalty.MatchString(prev) || len(q.Prefer) == 0 {
		return "", library.ClauseHit{}
	}
	// the one contract of the dialog with a late-payment penalty: of several («задолжали 240 000
	// … сколько пени» answered for each), the cap of which one is not for this answer to pick
	lps := latePayments(Question{Text: q.Continues, Prefer: q.Prefer}, rds, nil)
	if len(lps) != 1 {
		return "", library.ClauseHit{}
	}
	lp, di := lps[0], lps[0].hit.Doc
	esc := md.Escape
	if lp.cap == "" {
		return esc("Предел пеней в договоре не установлен: они начисляются за каждый день просрочки (" + place(lp.hit) + ")."), lp.hit
	}
	var base int64
	baseAt := ""
	if v := askedAmount(prev, -1); v != nil {
		base = ru.Kopecks(v)
	} else if mu, k, ok := monthlyNow(rds, di); ok {
		base, baseAt = k, " по "+place(library.ClauseHit{Doc: di, Unit: mu})
	}
	limit, ok := lp.limit(base)
	if base == 0 || !ok {
		return "", library.ClauseHit{}
	}
	return esc("Не более "+lp.cap+" % от задолженности: "+ru.Money(base)+baseAt+" × "+lp.cap+" % = ") + "**" +
		esc(ru.Money(ru.Kopecks(limit))) + "**" + esc(" (предел — "+place(lp.hit)+")."), lp.hit
}
