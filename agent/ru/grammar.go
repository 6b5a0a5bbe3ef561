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
)

// endpoint is a date-like phrase that can stand alone or bound a range.
type endpoint struct {
	kind     epKind
	d, m, y  int // y == 0: not written
	from, to time.Time
	end      int
	reason   string // not a valid date
	start    bool   // «начала …»: an anchor of «с начала года»
	yearWord bool   // epYear followed by «год», «г.»
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
		if !ok {
			return endpoint{}, false
		}
		return endpoint{kind: epDay, d: d, m: m, y: y, end: p.yearWord(i + 1)}, true
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
		m, k := p.monthAfterDay(j)
		if m == 0 {
			if v < 1 || v > 31 {
				return endpoint{}, false
			}
			return endpoint{kind: epBare, d: v, end: j}, true
		}
		y, end := p.optYear(k)
		return endpoint{kind: epDay, d: v, m: m, y: y, end: end}, true
	case t.kind == tWord:
		w := t.s
		if off, ok := dayWords[w]; ok {
			d := p.today.AddDate(0, 0, off)
			return endpoint{kind: epFixed, from: d, to: d, end: i + 1}, true
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
		if isEnd, ok := edgeWords[w]; ok {
			from, to, end, reason, ok := p.target(i + 1)
			if !ok {
				return endpoint{}, false
			}
			d := from
			if isEnd {
				d = to
			}
			return endpoint{kind: epFixed, from: d, to: d, end: end, reason: reason, start: !isEnd}, true
		}
		if m := monthWords[w]; m != 0 {
			y, end := p.optYear(i + 1)
			return endpoint{kind: epMonth, m: m, y: y, end: end}, true
		}
	}
	return endpoint{}, false
}

// monthAfterDay reads a month name or abbreviation after a day number and returns the
// month and the index after it, or 0.
func (p *parser) monthAfterDay(j int) (int, int) {
	w := p.word(j)
	if m := monthWords[w]; m != 0 {
		return m, j + 1
	}
	if m := monthAbbr[w]; m != 0 {
		return m, p.dot(j + 1)
	}
	return 0, j
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
		return e.from, ""
	case epDay:
		if e.y != 0 {
			return checkDate(e.d, e.m, e.y)
		}
		return recentDay(e.d, e.m, p.today)
	}
	return time.Time{}, "не дата"
}

// target reads the period after «конец»/«начало»: a month, quarter, year, «прошлого
// месяца» or a bare unit («квартала» — the current one). The period is not clamped.
func (p *parser) target(i int) (from, to time.Time, end int, reason string, ok bool) {
	if from, to, end, reason, ok := p.quarterCore(i); ok {
		return from, to, end, reason, true
	}
	if from, to, end, _, ok := p.relCore(i); ok {
		return from, to, end, "", true
	}
	if from, to, end, ok := p.monthCore(i); ok {
		return from, to, end, "", true
	}
	if y, ok := p.yearAt(i, minYear); ok {
		from, to := yearRange(y)
		return from, to, p.yearWord(i + 1), "", true
	}
	if u := unitWords[p.word(i)]; u >= uWeek {
		from, to := p.current(u, 0)
		end := i + 1
		if p.word(i) == "кв" {
			end = p.dot(end)
		}
		return from, to, end, "", true
	}
	return time.Time{}, time.Time{}, i, "", false
}

// current returns the week, month, quarter or year off units away from today's.
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
	default:
		return yearRange(t.Year() + off)
	}
}

// monthCore reads «март», «марта 2026», «марте 2025 года».
func (p *parser) monthCore(i int) (from, to time.Time, end int, ok bool) {
	m := monthWords[p.word(i)]
	if m == 0 {
		return time.Time{}, time.Time{}, i, false
	}
	y, end := p.optYear(i + 1)
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

// relCore reads «прошлый месяц», «этом квартале», «позапрошлого года», «следующую неделю».
func (p *parser) relCore(i int) (from, to time.Time, end, unit int, ok bool) {
	off, found := relOffset(p.word(i))
	u := unitWords[p.word(i+1)]
	if !found || u < uWeek {
		return time.Time{}, time.Time{}, i, 0, false
	}
	end = i + 2
	if p.word(i+1) == "кв" {
		end = p.dot(end)
	}
	from, to = p.current(u, off)
	return from, to, end, u, true
}
