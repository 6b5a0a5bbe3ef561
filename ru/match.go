package ru

import (
	"fmt"
	"strings"
	"time"
)

// The matchers of single periods: one day, a month, a quarter, a half-year, a year.

// matchDay reads one day with an optional preposition: «на 1 марта», «за вчера»,
// «01.03.2026», «по состоянию на конец квартала», «неделю назад», «полгода назад».
func (p *parser) matchDay(i int) (result, bool) {
	j := p.prefix(i, dayPreps...)
	n, k := p.count(j)
	if u, mult, end := p.windowUnit(k); u != 0 && p.word(end) == "назад" {
		if d, ok := p.back(max(n, 1)*mult, u); ok {
			d = d.AddDate(0, 0, -1)
			return result{from: d, to: d, kind: KindDay, end: end + 1}, true
		}
	}
	e, ok := p.endpoint(j)
	if !ok || (e.kind != epDay && e.kind != epFixed && e.kind != epDom) {
		return result{}, false
	}
	d, reason := p.dayOf(e)
	if reason != "" {
		return errResult(e.end, reason), true
	}
	return result{from: d, to: d, kind: KindDay, end: e.end}, true
}

// matchMonth reads «за март», «в марте 2026», «март 2026 года», «в прошлом месяце».
func (p *parser) matchMonth(i int) (result, bool) {
	j := p.prefix(i, periodPreps...)
	if from, to, end, ok := p.monthCore(j); ok {
		from, to = p.clamp(from, to)
		return result{from: from, to: to, kind: KindMonth, end: end}, true
	}
	if from, to, end, u, ok := p.relCore(j); ok && u == uMonth {
		from, to = p.clamp(from, to)
		return result{from: from, to: to, kind: KindMonth, end: end}, true
	}
	return result{}, false
}

// matchQuarter reads «I квартал», «за 2 кв. 2025», «в этом квартале».
func (p *parser) matchQuarter(i int) (result, bool) {
	return p.matchPart(i, p.quarterCore, uQuarter, KindQuarter)
}

// matchHalf reads «за 1 полугодие 2025», «во втором полугодии», «1 пол. 2025», «за
// прошлое полугодие», «в этом полугодии».
func (p *parser) matchHalf(i int) (result, bool) {
	return p.matchPart(i, p.halfCore, uHalf, KindHalf)
}

// matchPart reads a numbered part of a year — a quarter or a half-year, read by core —
// or the current, previous or next one of unit u, with an optional preposition.
func (p *parser) matchPart(i int, core func(int) (time.Time, time.Time, int, string, bool), u int, kind string) (result, bool) {
	j := p.prefix(i, periodPreps...)
	if from, to, end, reason, ok := core(j); ok {
		if reason != "" {
			return errResult(end, reason), true
		}
		from, to = p.clamp(from, to)
		return result{from: from, to: to, kind: kind, end: end}, true
	}
	if from, to, end, unit, ok := p.relCore(j); ok && unit == u {
		from, to = p.clamp(from, to)
		return result{from: from, to: to, kind: kind, end: end}, true
	}
	return result{}, false
}

// matchYear reads «2025 год», «в 2025 году», «2025 г.», «за прошлый год» and, after
// «за» or «в», a bare year «за 2025» that is not an amount («за 2000 рублей»).
func (p *parser) matchYear(i int) (result, bool) {
	j := p.prefix(i, periodPreps...)
	if v, n := p.num(j); n == 4 && (v < minYear || v > maxYear) && strings.HasPrefix(p.word(j+1), "год") {
		return errResult(p.yearWord(j+1), fmt.Sprintf("год %d вне допустимого диапазона %d–%d", v, minYear, maxYear)), true
	}
	if y, ok := p.yearAt(j, minYear); ok {
		end := p.yearWord(j + 1)
		bare := end == j+1
		w := p.word(i)
		if !bare || (j > i && (w == "за" || w == "в" || w == "во") && y >= minBareYear &&
			(j+1 >= len(p.toks) || p.toks[j+1].kind != tNum)) {
			from, to := yearRange(y)
			from, to = p.clamp(from, to)
			return result{from: from, to: to, kind: KindYear, end: end}, true
		}
	}
	if from, to, end, u, ok := p.relCore(j); ok && u == uYear {
		from, to = p.clamp(from, to)
		return result{from: from, to: to, kind: KindYear, end: end}, true
	}
	return result{}, false
}

// wholeYear treats a text that is only a year («2025», as in /keyrate 2025) as that year.
func (p *parser) wholeYear() (result, bool) {
	idx := -1
	for i, t := range p.toks {
		if t.kind == tPunct {
			continue
		}
		if idx >= 0 {
			return result{}, false
		}
		idx = i
	}
	if idx < 0 {
		return result{}, false
	}
	v, n := p.num(idx)
	if n != 4 || v < minBareYear || v > maxYear {
		return result{}, false
	}
	from, to := p.clamp(yearRange(v))
	return result{from: from, to: to, kind: KindYear, end: idx + 1, text: p.span(idx, idx+1)}, true
}
