package ru

import (
	"fmt"
	"strings"
	"time"
)

// The building blocks of date phrases: endpoints (a day, a month, a year, a named day)
// and the cores of periods without their prepositions. The matchers built on them are in
// match.go, relative.go and ranges.go; parse tries them at every token in turn.

// epKind is what an endpoint of a range denotes.
type epKind uint8

const (
	epDay   epKind = iota + 1 // a day, year maybe unknown: «1 марта», «01.03.2026»
	epBare                    // a day number alone: the «1» of «с 1 по 15 марта»
	epMonth                   // a month, year maybe unknown: «март», «марта 2026»
	epYear                    // a year: «2025», «2025 года»
	epFixed                   // a known day: «вчера», «конец февраля»
	epDom                     // a day of the month, month not named: «на 1 число», «на 1-е»
)

// endpoint is a date-like phrase that can stand alone or bound a range.
type endpoint struct {
	kind     epKind
	d, m, y  int // y == 0: not written
	from, to time.Time
	end      int
	reason   string    // not a valid date
	start    bool      // «начала …»: an anchor of «с начала года»
	recent   time.Time // «конец …» standing alone: the day it means, see [parser.target]
	yearWord bool      // epYear followed by «год», «г.»
}

// endpoint reads a day, a month, a year or a named day at i, without a preposition.
func (p *parser) endpoint(i int) (endpoint, bool) {
	if i >= len(p.toks) {
		return endpoint{}, false
	}
	t := p.toks[i]
	switch {
	case t.kind == tNum && len(t.parts) == 3:
		d, m, y, ok := numericDate(t.parts, t.seps, p.today)
		if !ok || (len(t.parts[2]) == 2 && p.accountPos(i)) { // «сч 10.01.12» is a subaccount
			return endpoint{}, false
		}
		return endpoint{kind: epDay, d: d, m: m, y: y, end: p.yearWord(i + 1)}, true
	case t.kind == tNum && len(t.parts) == 2:
		d, m, ok := p.shortDate(i)
		if !ok {
			return endpoint{}, false
		}
		return endpoint{kind: epDay, d: d, m: m, end: i + 1}, true
	case t.kind == tNum && len(t.parts) == 1:
		v, n := p.num(i)
		if n == 4 {
			if y, ok := p.yearAt(i, minYear); ok {
				end := p.yearWord(i + 1)
				return endpoint{kind: epYear, y: y, end: end, yearWord: end > i+1}, true
			}
			return endpoint{}, false
		}
		if n == 0 || n > 2 {
			return endpoint{}, false
		}
		j := p.ordinal(i + 1)
		return p.dayAt(i, v, j, j > i+1)
	case t.kind == tWord:
		w := t.s
		if _, ok := p.edgeDay(i); !ok {
			if v, j := p.dayOrdinal(i); v != 0 {
				return p.dayAt(i, v, j, true)
			}
		}
		if off, ok := dayWords[w]; ok {
			d := p.today.AddDate(0, 0, off)
			return endpoint{kind: epFixed, from: d, to: d, end: i + 1}, true
		}
		if d, end, ok := p.weekdayAt(i); ok {
			return endpoint{kind: epFixed, from: d, to: d, end: end}, true
		}
		for _, a := range dayAdjectives {
			if strings.HasPrefix(w, a.prefix) {
				end := i + 1
				if nw := p.word(end); unitWords[nw] == uDay || nw == "число" || nw == "числа" {
					end++
				}
				d := p.today.AddDate(0, 0, a.off)
				return endpoint{kind: epFixed, from: d, to: d, end: end}, true
			}
		}
		isEnd, edge := edgeWords[w]
		if !edge && p.word(i-1) == "на" {
			isEnd, edge = edgeTypo(w) // «на начло месяца», «на конц марта»
		}
		at := i + 1
		if e, ok := p.edgeDay(i); ok {
			// «последний день квартала», «на первое число года»: an end or a start, like «конец».
			isEnd, edge, at = e, true, i+2
		}
		if edge {
			from, to, last, end, reason, ok := p.target(at)
			if !ok {
				return endpoint{}, false
			}
			e := endpoint{kind: epFixed, from: from, to: from, end: end, reason: reason, start: !isEnd}
			if isEnd {
				e.from, e.to, e.recent = to, to, last
			}
			return e, true
		}
		if m, k := p.monthAlone(i); m != 0 {
			y, end := p.optYear(k)
			return endpoint{kind: epMonth, m: m, y: y, end: end}, true
		}
	}
	return endpoint{}, false
}

// dayAt finishes a day number v written at i with the tokens up to j: with a month after
// it, it is a day («1 марта», «первое мая»); with «число» in a date slot, or as an
// ordinal («1-е», «первое») that ends a phrase in a date slot or the whole text, it is a
// day of a month not named («на 1 число», «на 1ое»); otherwise a bare number that may
// start a range («с 1 по 15 марта»).
func (p *parser) dayAt(i, v, j int, ordinal bool) (endpoint, bool) {
	if m, k := p.month(j); m != 0 {
		y, end := p.optYear(k)
		return endpoint{kind: epDay, d: v, m: m, y: y, end: end}, true
	}
	if v < 1 || v > 31 {
		return endpoint{}, false
	}
	if w := p.word(j); (w == "число" || w == "числа" || w == "числу") && p.dateSlot(i) {
		return endpoint{kind: epDom, d: v, end: j + 1}, true
	}
	if ordinal && (j >= len(p.toks) || p.toks[j].kind == tPunct && p.toks[j].s != "-") && (p.dateSlot(i) || p.alone(i, j)) {
		return endpoint{kind: epDom, d: v, end: j}, true
	}
	return endpoint{kind: epBare, d: v, end: j}, true
}

// dayOrdinal reads the ordinal word of a day, «первое», «двадцать пятого», at i and
// returns its number and the index after it, or 0.
func (p *parser) dayOrdinal(i int) (int, int) {
	if v := dayOrdinals[p.word(i)]; v != 0 {
		return v, i + 1
	}
	if tens := numberWords[p.word(i)]; tens == 20 || tens == 30 {
		if v := dayOrdinals[p.word(i+1)]; v >= 1 && v <= 9 && tens+v <= 31 {
			return tens + v, i + 2
		}
	}
	return 0, i
}

// month reads a month name in any case or its abbreviation with an optional dot at i and
// returns the month and the index after it, or 0.
func (p *parser) month(i int) (int, int) {
	w := p.word(i)
	if m := monthWords[w]; m != 0 {
		return m, i + 1
	}
	if m := monthAbbr[w]; m != 0 {
		return m, p.dot(i + 1)
	}
	return 0, i
}

// monthAlone is month for a month not after a day number. There an abbreviation is a
// month only after a preposition, next to another month across a dash, or before a
// year: «за янв», «янв-фев», «дек. 2024», but not «Сен-Мишель».
func (p *parser) monthAlone(i int) (int, int) {
	m, k := p.month(i)
	if m == 0 || monthWords[p.word(i)] != 0 {
		return m, k
	}
	isMonth := func(j int) bool { return monthWords[p.word(j)] != 0 || monthAbbr[p.word(j)] != 0 }
	dash := func(j int) bool { s := p.punct(j); return s == "-" || s == ".." }
	w := p.word(i - 1)
	if slotWords[w] || w == "в" || w == "во" {
		return m, k
	}
	if dash(i-1) && (isMonth(i-2) || p.punct(i-2) == "." && isMonth(i-3)) {
		return m, k
	}
	if _, ok := p.yearAt(k, minYear); ok || dash(k) && isMonth(k+1) {
		return m, k
	}
	return 0, i
}

// numericDate reads dd.mm.yyyy, d.m.yyyy, dd.mm.yy, dd/mm/yyyy, dd-mm-yyyy and
// yyyy-mm-dd (the same separator twice). Values are not validated except that a
// two-digit year is taken only with a plausible day and month, so «62.01.12» is not a date.
func numericDate(parts, seps []string, today time.Time) (d, m, y int, ok bool) {
	if len(parts) != 3 || len(seps) != 2 || seps[0] != seps[1] || seps[0] == ".." {
		return 0, 0, 0, false
	}
	l0, l1, l2 := len(parts[0]), len(parts[1]), len(parts[2])
	a, b, c := atoi(parts[0]), atoi(parts[1]), atoi(parts[2])
	switch {
	case l0 == 4 && l1 <= 2 && l2 <= 2:
		return c, b, a, true
	case l0 <= 2 && l1 <= 2 && l2 == 4:
		return a, b, c, true
	case l0 <= 2 && l1 <= 2 && l2 == 2 && a >= 1 && a <= 31 && b >= 1 && b <= 12:
		return a, b, twoDigitYear(c, today), true
	}
	return 0, 0, 0, false
}

// dayOf resolves a day endpoint (epDay or epFixed) to a date.
func (p *parser) dayOf(e endpoint) (time.Time, string) {
	if e.reason != "" {
		return time.Time{}, e.reason
	}
	switch e.kind {
	case epFixed:
		if !e.recent.IsZero() {
			return e.recent, ""
		}
		return e.from, ""
	case epDay:
		if e.y != 0 {
			return checkDate(e.d, e.m, e.y)
		}
		return recentDay(e.d, e.m, p.today)
	case epDom:
		return recentDayOfMonth(e.d, p.today), ""
	}
	return time.Time{}, "не дата"
}

// target reads the period after «конец»/«начало»: a month, quarter, half-year, year,
// «прошлого месяца» or a bare unit («квартала», «полугодия» — the current one). The
// period is not clamped.
//
// last is the end of the most recent such period that has ended by today, for a period
// named without a year or an offset: «на конец квартала» on 25 April 2026 is 31 March
// 2026, «на конец 2 кв» is 30 June 2025, «на конец года» is 31 December 2025, «на конец
// полугодия» is 31 December 2025, «на конец 1 полугодия» is 30 June 2025. A range
// end does not use it: «с 1 апреля по конец месяца» ends on 30 April. With a year or
// an offset («конец 2026 года», «конец текущего квартала») last is to.
func (p *parser) target(i int) (from, to, last time.Time, end int, reason string, ok bool) {
	if from, to, end, reason, ok := p.quarterCore(i); ok {
		return from, to, p.lastEnd(i, end, to), end, reason, true
	}
	if from, to, end, reason, ok := p.halfCore(i); ok {
		return from, to, p.lastEnd(i, end, to), end, reason, true
	}
	if from, to, end, _, ok := p.relCore(i); ok {
		return from, to, to, end, "", true
	}
	if from, to, end, ok := p.monthCore(i); ok {
		return from, to, p.lastEnd(i, end, to), end, "", true
	}
	if y, ok := p.yearAt(i, minYear); ok {
		from, to := yearRange(y)
		return from, to, to, p.yearWord(i + 1), "", true
	}
	if u := unitWords[p.word(i)]; u >= uWeek {
		from, to := p.current(u, 0)
		last := to
		if to.After(p.today) {
			_, last = p.current(u, -1)
		}
		return from, to, last, p.unitEnd(i), "", true
	}
	return time.Time{}, time.Time{}, time.Time{}, i, "", false
}

// lastEnd returns to, or the end of the same month a year earlier when to is after today
// and the tokens [i, end) name no year.
func (p *parser) lastEnd(i, end int, to time.Time) time.Time {
	if !to.After(p.today) {
		return to
	}
	for k := i; k < end; k++ {
		if _, n := p.num(k); n == 4 {
			return to
		}
	}
	return date(to.Year()-1, to.Month()+1, 0)
}

// current returns the week, month, quarter, half-year or year off units away from today's.
func (p *parser) current(u, off int) (time.Time, time.Time) {
	t := p.today
	switch u {
	case uWeek:
		from := weekStart(t).AddDate(0, 0, 7*off)
		return from, from.AddDate(0, 0, 6)
	case uMonth:
		first := date(t.Year(), t.Month()+time.Month(off), 1)
		return monthRange(first.Year(), first.Month())
	case uQuarter:
		idx := t.Year()*4 + quarterOf(t.Month()) - 1 + off
		return quarterRange(idx/4, idx%4+1)
	case uHalf:
		idx := t.Year()*2 + halfOf(t.Month()) - 1 + off
		return halfRange(idx/2, idx%2+1)
	default:
		return yearRange(t.Year() + off)
	}
}

// monthCore reads «март», «марта 2026», «марте 2025 года».
func (p *parser) monthCore(i int) (from, to time.Time, end int, ok bool) {
	m, k := p.monthAlone(i)
	if m == 0 {
		return time.Time{}, time.Time{}, i, false
	}
	y, end := p.optYear(k)
	if y == 0 {
		y = recentMonthYear(m, p.today)
	}
	from, to = monthRange(y, time.Month(m))
	return from, to, end, true
}

// quarterCore reads «I квартал», «1-й квартал 2026», «первого квартала», «2 кв. 2025».
func (p *parser) quarterCore(i int) (from, to time.Time, end int, reason string, ok bool) {
	q, j, numeric := 0, i+1, false
	if r, found := romanQuarter[p.word(i)]; found {
		q = r
	} else if o := ordinalWord(p.word(i)); o != 0 {
		q = o
	} else if v, n := p.num(i); n >= 1 && n <= 2 {
		q, j, numeric = v, p.ordinal(i+1), true
	} else if p.word(i) == "q" && p.adjacent(i) {
		// «Q1 2026»
		if v, n := p.num(i + 1); n == 1 && v >= 1 && v <= 4 {
			q, j = v, i+2
			y, end := p.optYear(j)
			if y == 0 {
				y = recentQuarterYear(q, p.today)
			}
			from, to = quarterRange(y, q)
			return from, to, end, "", true
		}
	}
	if (q == 0 && !numeric) || unitWords[p.word(j)] != uQuarter {
		return time.Time{}, time.Time{}, i, "", false
	}
	abbr := p.word(j) == "кв"
	if abbr {
		j = p.dot(j + 1)
	} else {
		j++
	}
	y, end := p.optYear(j)
	if abbr && y == 0 && j < len(p.toks) && p.toks[j].kind == tNum {
		return time.Time{}, time.Time{}, i, "", false // «д. 5 кв. 12» is a flat, not a quarter
	}
	if q < 1 || q > 4 {
		if abbr {
			return time.Time{}, time.Time{}, i, "", false
		}
		return time.Time{}, time.Time{}, end, fmt.Sprintf("в году четыре квартала, квартала %d нет", q), true
	}
	if y == 0 {
		y = recentQuarterYear(q, p.today)
	}
	from, to = quarterRange(y, q)
	return from, to, end, "", true
}

// halfCore reads a half-year as quarterCore reads a quarter: «1 полугодие», «1-е
// полугодие 2025», «первого полугодия», «во втором полугодии», «II полугодие», «1 полуг.
// 2025» and, only before a year, «1 пол. 2025». Without a year it is the most recent such
// half-year that has started. «Полугодие 2025 года» with no number is the first half, the
// reporting period of that name (January–June); without a year it is no period here,
// as «за квартал» is not: «за полугодие» may be the report or the last six months.
func (p *parser) halfCore(i int) (from, to time.Time, end int, reason string, ok bool) {
	fail := func() (time.Time, time.Time, int, string, bool) { return time.Time{}, time.Time{}, i, "", false }
	if w := p.word(i); unitWords[w] == uHalf && w != "полуг" {
		// «полугодие 2025 года»: the first half-year.
		y, end := p.optYear(i + 1)
		if y == 0 {
			return fail()
		}
		from, to = halfRange(y, 1)
		return from, to, end, "", true
	}
	h, j, numeric, roman := 0, i+1, false, false
	if r, found := romanQuarter[p.word(i)]; found {
		h, roman = r, true
	} else if o := ordinalWord(p.word(i)); o != 0 {
		h = o
	} else if v, n := p.num(i); n >= 1 && n <= 2 {
		h, j, numeric = v, p.ordinal(i+1), true
	}
	w := p.word(j)
	short := w == halfAbbr
	if (h == 0 && !numeric) || (unitWords[w] != uHalf && !short) || (short && !numeric && !roman) {
		return fail()
	}
	abbr := short || w == "полуг"
	if short {
		j = p.dot(j + 1)
	} else {
		j = p.unitEnd(j)
	}
	y, end := p.optYear(j)
	if short && y == 0 {
		return fail() // «1 пол.» without a year may be a floor
	}
	if abbr && y == 0 && j < len(p.toks) && p.toks[j].kind == tNum {
		return fail()
	}
	if h < 1 || h > 2 {
		if abbr {
			return fail()
		}
		return time.Time{}, time.Time{}, end, fmt.Sprintf("в году два полугодия, полугодия %d нет", h), true
	}
	if y == 0 {
		y = recentHalfYear(h, p.today)
	}
	from, to = halfRange(y, h)
	return from, to, end, "", true
}

// unitEnd returns the index after the unit word at k, with the dot of an abbreviation
// («кв.», «мес.», «полуг.»).
func (p *parser) unitEnd(k int) int {
	if abbrUnits[p.word(k)] {
		return p.dot(k + 1)
	}
	return k + 1
}

// relCore reads «прошлый месяц», «этом квартале», «позапрошлого года», «следующую неделю»,
// «прошлое полугодие».
func (p *parser) relCore(i int) (from, to time.Time, end, unit int, ok bool) {
	off, found := relOffset(p.word(i))
	u := unitWords[p.word(i+1)]
	if !found || u < uWeek {
		return time.Time{}, time.Time{}, i, 0, false
	}
	end = p.unitEnd(i + 1)
	from, to = p.current(u, off)
	return from, to, end, u, true
}

// edgeDay reads «последний день», «последнее число», «первый день», «первое число» at i
// when a period follows («последний день прошлого квартала», «первый день года»): the end
// (true) or the start of that period.
func (p *parser) edgeDay(i int) (isEnd, ok bool) {
	w, next := p.word(i), p.word(i+1)
	if unitWords[next] != uDay && next != "число" && next != "числа" && next != "числу" {
		return false, false
	}
	switch {
	case strings.HasPrefix(w, "последн"):
		isEnd = true
	case strings.HasPrefix(w, "перв"):
	default:
		return false, false
	}
	if _, _, _, _, _, found := p.target(i + 2); !found {
		return false, false
	}
	return isEnd, true
}
