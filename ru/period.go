package ru

import (
	"time"
)

// Moscow is the zone in which "today" is decided (UTC+3, no DST).
var Moscow = time.FixedZone("MSK", 3*60*60)

// The kinds of a [Period].
const (
	KindDay      = "day"      // one calendar day: «1 марта», «вчера», «на конец февраля»
	KindRange    = "range"    // explicit bounds: «с 1 по 15 марта», «01.03.2026-31.03.2026», «с 1 марта» (to today)
	KindMonth    = "month"    // a calendar month: «за март», «в прошлом месяце»
	KindQuarter  = "quarter"  // a calendar quarter: «I квартал 2026», «за прошлый квартал»
	KindHalf     = "half"     // a calendar half-year: «за 1 полугодие 2025», «во втором полугодии», «1 пол. 2025»
	KindYear     = "year"     // a calendar year: «за 2025 год», «в прошлом году»
	KindRelative = "relative" // a window counted from today: «за последние 30 дней», «за прошлую неделю», «с начала года»
)

// Period is a closed range of calendar days [From, To], both at midnight Moscow.
// A single date has From == To.
//
// A month, quarter, half-year or year that contains today ends today, not at its
// calendar end.
// A period that lies in the future is returned as it is: the caller decides what
// the future means (no rates yet, say).
type Period struct {
	From, To time.Time
	// Kind is one of "day", "range", "month", "quarter", "half", "year", "relative"
	// (KindDay…KindRelative). Every single-day result, including «на конец февраля» and
	// «вчера», is "day". A half-year has its own kind rather than "range" so that callers
	// can name it as they name a quarter; «за полгода» (six months back from today) is
	// "relative", like «за последние 6 месяцев».
	Kind string
	// Text is the matched phrase as written, with its preposition: "за март", "на 1 марта",
	// "01.03.2026-31.03.2026".
	Text string
}

// Single reports whether the period is one day (From == To).
func (p Period) Single() bool { return p.From.Equal(p.To) }

// Days returns the number of calendar days in the period, both ends included;
// 0 for the zero Period or when To is before From.
func (p Period) Days() int {
	if p.From.IsZero() && p.To.IsZero() {
		return 0
	}
	a, b := dayNumber(p.From), dayNumber(p.To)
	if b < a {
		return 0
	}
	return int(b-a) + 1
}

// dayNumber counts days since the Unix epoch for the calendar date of t in Moscow.
func dayNumber(t time.Time) int64 {
	y, m, d := t.In(Moscow).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// DateError is a phrase that looks like a date but is not a valid one: «31.02.2026»,
// «30 февраля», «2026-13-01», «32.01.2026», a range whose end is before its start.
type DateError struct {
	// Text is the phrase as written, e.g. "31.02.2026" or "с 15 по 1 марта".
	Text string
	// Reason says in Russian what is wrong, e.g. "в феврале 2026 года 28 дней".
	Reason string
	// Future: the date exists, but a period from it has not begun («с марта 2027» in December
	// 2026) — no balance or turnover of the ledger is of it, though a contract may speak of it.
	Future bool
}

// Error returns a Russian message with the phrase and the reason.
func (e *DateError) Error() string {
	return "неверная дата «" + e.Text + "»: " + e.Reason
}

// ParsePeriod finds the first date or period in text. ok is false when there is none.
// err is a [*DateError] when the first date-like phrase is not a valid date; then ok is
// false and p is the zero Period.
//
// now decides "today" (its calendar date in [Moscow]). A day and month without a year
// («1 мая», «на 1.05», «на первое мая») mean the most recent such date that is not after
// today; a day alone («на 1 число», «на 1ое») is this month's or, when still ahead, the
// previous month's; a month, quarter or half-year without a year means the most recent
// one that has started. «На конец» a period named without a year or an offset is the most
// recent end that is not after today («на конец квартала» on 25 April is 31 March, «на
// конец полугодия» is 31 December); «на начало» is the start of the current one. Right
// after «на», «начало» and «конец» are read with one typo («на начло месяца»).
//
// Half-years are written as accountants write them: «за 1 полугодие 2025», «во втором
// полугодии», «за I полугодие», «1 пол. 2025» («пол.» only with a year), «за прошлое
// полугодие», «полугодие 2025 года» (the first half, the reporting period). «За полгода»
// and «полгода назад» count six months back from today. In a range the end follows the start («с 1 декабря по 15
// января» crosses the new year) and a year written on one end carries over to the other.
//
// A 4-digit number is a year only with «г.»/«год…», after a month or quarter, after «за»
// or «в» when it is not an amount («за 2025», but not «за 2000 рублей»), or when it is the
// whole text («2025», the argument of /keyrate). A full numeric date («01.03.2026»,
// «01.03.26», «2026-03-01») is a date anywhere but in «сч 10.01.12». A day and month
// alone («1.05», «01/05») is a date only right after a date preposition («на», «за», «с»,
// «по», «к», «до», «от») or as the whole text, and never right after an account word: in
// «сальдо 62.01 на 1.05» 62.01 is an account and 1 May the date. The full rule, with
// amounts and clock times, is in slots.go. Other numbers — sums, INNs, contract numbers —
// are not dates.
func ParsePeriod(text string, now time.Time) (p Period, ok bool, err error) {
	ps := newParser(text, now)
	r, found := ps.parse()
	if !found {
		return Period{}, false, nil
	}
	if r.err != nil {
		return Period{}, false, r.err
	}
	return Period{From: r.from, To: r.to, Kind: r.kind, Text: r.text}, true, nil
}
