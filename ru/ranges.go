package ru

import (
	"fmt"
	"time"
)

// Ranges with two ends («с 1 по 15 марта») and open ranges that end today («с 1 марта»).

// matchOpenRange reads «с 1 марта», «с марта», «с 2025 года», «с начала года»: from that
// day to today.
func (p *parser) matchOpenRange(i int) (result, bool) {
	j := p.prefix(i, []string{"начиная"})
	if !openWords[p.word(j)] {
		return result{}, false
	}
	e, ok := p.endpoint(j + 1)
	if !ok {
		return result{}, false
	}
	var from time.Time
	reason := ""
	switch e.kind {
	case epDay, epFixed, epDom:
		from, reason = p.dayOf(e)
	case epMonth:
		y := e.y
		if y == 0 {
			y = recentMonthYear(e.m, p.today)
		}
		from = date(y, time.Month(e.m), 1)
	case epYear:
		if !e.yearWord {
			return result{}, false
		}
		from = date(e.y, time.January, 1)
	default:
		return result{}, false
	}
	if reason != "" {
		return errResult(e.end, reason), true
	}
	if from.After(p.today) {
		r := errResult(e.end, fmt.Sprintf("начало периода (%s) позже сегодняшнего дня (%s)",
			formatDate(from), formatDate(p.today)))
		r.err.Future = true
		return r, true
	}
	kind := KindRange
	if e.start {
		kind = KindRelative
	}
	return result{from: from, to: p.today, kind: kind, end: e.end}, true
}

// matchRange reads «с 1 по 15 марта», «с 1 марта по 15 апреля», «с 01.03.2026 по
// 15.03.2026», «01.03.2026 — 31.03.2026», «01.03.2026-31.03.2026», «2026-03-01..2026-03-31»,
// «1-15 марта», «с марта по май», «с 2020 по 2025 год», «с 1.02 по 15.03», «за янв-фев»,
// «за 1-2 кв».
func (p *parser) matchRange(i int) (result, bool) {
	j := p.prefix(i, periodPreps...)
	hasFrom := fromWords[p.word(j)]
	if hasFrom {
		j++
	}
	if from, to, end, ok := p.quarterPair(j); ok {
		return result{from: from, to: to, kind: KindRange, end: end}, true
	}
	a, b, ok := p.chainRange(j)
	if !ok {
		if a, ok = p.endpoint(j); !ok || (a.kind == epYear && !hasFrom) {
			return result{}, false
		}
		k := a.end
		if s := p.punct(k); toWords[p.word(k)] || s == "-" || s == ".." {
			k++
		} else {
			return result{}, false
		}
		if b, ok = p.endpoint(k); !ok || b.kind == epBare {
			return result{}, false
		}
	}
	return p.combine(a, b)
}

// quarterPair reads «1-2 кв», «1–3 квартал 2025» at j: from the start of the first
// quarter to the end of the last. Without a year the first is the most recent that has
// started.
func (p *parser) quarterPair(j int) (from, to time.Time, end int, ok bool) {
	if j >= len(p.toks) {
		return from, to, j, false
	}
	t := p.toks[j]
	if t.kind != tNum || len(t.parts) != 2 || t.seps[0] != "-" || len(t.parts[0]) != 1 || len(t.parts[1]) != 1 {
		return from, to, j, false
	}
	qa, qb := atoi(t.parts[0]), atoi(t.parts[1])
	if qa < 1 || qb > 4 || qa >= qb || unitWords[p.word(j+1)] != uQuarter {
		return from, to, j, false
	}
	k := j + 2
	if p.word(j+1) == "кв" {
		k = p.dot(k)
	}
	y, end := p.optYear(k)
	if y == 0 && k < len(p.toks) && p.toks[k].kind == tNum {
		return from, to, j, false // a flat, as in quarterCore
	}
	if y == 0 {
		y = recentQuarterYear(qa, p.today)
	}
	from, _ = quarterRange(y, qa)
	_, to = quarterRange(y, qb)
	return from, to, end, true
}

// chainRange reads a range written as one token: «01.03.2026-31.03.2026»,
// «2026-03-01..2026-03-31», «1-15 марта», «2020-2025 гг.», and, where a short date is a
// date (see slots.go), «1.02-15.03» and «1.02-15.03.2026».
func (p *parser) chainRange(j int) (a, b endpoint, ok bool) {
	if j >= len(p.toks) || p.toks[j].kind != tNum {
		return a, b, false
	}
	t := p.toks[j]
	switch {
	case (len(t.parts) == 4 || len(t.parts) == 5) && (t.seps[1] == "-" || t.seps[1] == ".."):
		if (t.seps[0] != "." && t.seps[0] != "/") || !(p.dateSlot(j) || p.alone(j, j+1)) {
			return a, b, false
		}
		d1, m1, clock1, ok1 := shortParts(t.parts[0], t.parts[1])
		d2, m2, y2, clock2, ok2 := 0, 0, 0, false, false
		if len(t.parts) == 4 && t.seps[2] == t.seps[0] {
			d2, m2, clock2, ok2 = shortParts(t.parts[2], t.parts[3])
		} else if len(t.parts) == 5 {
			d2, m2, y2, ok2 = numericDate(t.parts[2:], t.seps[2:], p.today)
		}
		if !ok1 || !ok2 || clock1 || clock2 {
			return a, b, false
		}
		end := j + 1
		return endpoint{kind: epDay, d: d1, m: m1, end: end}, endpoint{kind: epDay, d: d2, m: m2, y: y2, end: end}, true
	case len(t.parts) == 6 && (t.seps[2] == "-" || t.seps[2] == ".."):
		d1, m1, y1, ok1 := numericDate(t.parts[:3], t.seps[:2], p.today)
		d2, m2, y2, ok2 := numericDate(t.parts[3:], t.seps[3:], p.today)
		if !ok1 || !ok2 {
			return a, b, false
		}
		end := p.yearWord(j + 1)
		return endpoint{kind: epDay, d: d1, m: m1, y: y1, end: end}, endpoint{kind: epDay, d: d2, m: m2, y: y2, end: end}, true
	case len(t.parts) == 2 && t.seps[0] == "-":
		l0, l1 := len(t.parts[0]), len(t.parts[1])
		v0, v1 := atoi(t.parts[0]), atoi(t.parts[1])
		if l0 <= 2 && l1 <= 2 && v0 >= 1 && v0 <= 31 {
			m, k := p.month(p.ordinal(j + 1))
			if m == 0 {
				return a, b, false
			}
			y, end := p.optYear(k)
			return endpoint{kind: epBare, d: v0, end: end}, endpoint{kind: epDay, d: v1, m: m, y: y, end: end}, true
		}
		if l0 == 4 && l1 == 4 && v0 >= minYear && v0 <= maxYear && v1 >= minYear && v1 <= maxYear {
			end := p.yearWord(j + 1)
			// Without «гг.» only after «за»/«в» and as years go — «за 2024-2025», not
			// «за 2000-3000 рублей» or a code «1990-2100».
			bare := end == j+1 && j > 0 && (p.word(j-1) == "за" || p.word(j-1) == "в" || p.word(j-1) == "во") &&
				v0 >= minBareYear && v0 < v1 && v1-v0 <= 10 && !p.amountAt(j+1) &&
				(j+1 >= len(p.toks) || p.toks[j+1].kind != tNum)
			if end == j+1 && !bare {
				return a, b, false
			}
			return endpoint{kind: epYear, y: v0, end: end}, endpoint{kind: epYear, y: v1, end: end}, true
		}
	}
	return a, b, false
}

// combine turns two endpoints into a range, inferring missing years: the start is the
// most recent such day or month, the end follows it; a written year on either side
// carries over to the other.
func (p *parser) combine(a, b endpoint) (result, bool) {
	if (a.kind == epYear) != (b.kind == epYear) {
		return result{}, false
	}
	bad := func(reason string) (result, bool) { return errResult(b.end, reason), true }
	if a.reason != "" {
		return bad(a.reason)
	}
	if b.reason != "" {
		return bad(b.reason)
	}
	if b.kind == epDom && (a.kind == epBare || a.kind == epDom) {
		// «с 1 по 15 число»: days of the month of the start, the most recent one.
		first := recentDayOfMonth(a.d, p.today)
		month := date(first.Year(), first.Month(), 1)
		if b.d < a.d {
			month = month.AddDate(0, 1, 0)
		}
		a = endpoint{kind: epDay, d: a.d, m: int(first.Month()), y: first.Year(), end: a.end}
		b = endpoint{kind: epDay, d: b.d, m: int(month.Month()), y: month.Year(), end: b.end}
	}
	var from, to time.Time
	if a.kind == epYear {
		from, _ = yearRange(a.y)
		_, to = yearRange(b.y)
	} else {
		shared := a.kind == epBare
		if shared {
			if b.kind != epDay {
				return result{}, false
			}
			a = endpoint{kind: epDay, d: a.d, m: b.m, y: b.y, end: a.end}
		}
		ay, by := a.y, b.y
		if a.kind == epFixed {
			ay = a.from.Year()
		}
		if b.kind == epFixed {
			by = b.to.Year()
		}
		keyA, keyB := a.m*100+a.d, b.m*100+b.d
		switch a.kind {
		case epMonth:
			keyA = a.m*100 + 1
		case epFixed:
			keyA = int(a.from.Month())*100 + a.from.Day()
		}
		switch b.kind {
		case epMonth:
			keyB = b.m*100 + 31
		case epFixed:
			keyB = int(b.to.Month())*100 + b.to.Day()
		}
		switch {
		case ay == 0 && by == 0:
			if a.kind == epMonth {
				ay = recentMonthYear(a.m, p.today)
			} else {
				d, reason := recentDay(a.d, a.m, p.today)
				if reason != "" {
					return bad(reason)
				}
				ay = d.Year()
			}
			by = ay
			if !shared && keyB < keyA {
				by++
			}
		case by == 0:
			by = ay
			if !shared && keyB < keyA {
				by++
			}
		case ay == 0:
			ay = by
			if !shared && keyA > keyB {
				ay--
			}
		}
		var reason string
		if from, _, reason = a.days(ay); reason != "" {
			return bad(reason)
		}
		if _, to, reason = b.days(by); reason != "" {
			return bad(reason)
		}
	}
	if from.After(to) {
		return bad(fmt.Sprintf("начало периода (%s) позже его конца (%s)", formatDate(from), formatDate(to)))
	}
	return result{from: from, to: to, kind: KindRange, end: b.end}, true
}

// days is the first and the last day of a month, fixed-span or day endpoint in year y (a
// fixed span has its own); reason says why a day is no date.
func (e endpoint) days(y int) (first, last time.Time, reason string) {
	switch e.kind {
	case epMonth:
		first, last = monthRange(y, time.Month(e.m))
		return first, last, ""
	case epFixed:
		return e.from, e.to, ""
	}
	first, reason = checkDate(e.d, e.m, y)
	return first, first, reason
}
