package ru

import (
	"strings"
	"time"
)

// Windows counted back from today: «за последние 30 дней», «за неделю», «за прошлую неделю».

// count reads a number of units at i: digits or a number word. It returns 0 and i when
// there is none.
func (p *parser) count(i int) (int, int) {
	if v, n := p.num(i); v >= 1 && n <= 5 {
		return v, i + 1
	}
	if v := numberWords[p.word(i)]; v != 0 {
		return v, i + 1
	}
	return 0, i
}

// back returns the day n units before today, plus one day: the start of the window of the
// last n units that ends today. It refuses windows longer than a century.
func (p *parser) back(n, u int) (time.Time, bool) {
	t := p.today
	switch u {
	case uDay:
		if n > 36600 {
			return time.Time{}, false
		}
		return t.AddDate(0, 0, -n+1), true
	case uWeek:
		if n > 5200 {
			return time.Time{}, false
		}
		return t.AddDate(0, 0, -7*n+1), true
	case uMonth:
		if n > 1200 {
			return time.Time{}, false
		}
		return addMonths(t, -n).AddDate(0, 0, 1), true
	case uQuarter:
		if n > 400 {
			return time.Time{}, false
		}
		return addMonths(t, -3*n).AddDate(0, 0, 1), true
	case uHalf:
		if n > 200 {
			return time.Time{}, false
		}
		return addMonths(t, -6*n).AddDate(0, 0, 1), true
	case uYear:
		if n > 99 {
			return time.Time{}, false
		}
		return addMonths(t, -12*n).AddDate(0, 0, 1), true
	}
	return time.Time{}, false
}

// windowUnit reads the unit of a window at k: a unit word («дней», «мес.», «полугодие»)
// or «полгода», «пол года», which are six months. It returns the unit, how many of it one
// word counts and the index after it, or 0 when there is none.
func (p *parser) windowUnit(k int) (u, mult, end int) {
	switch w := p.word(k); {
	case w == "полгода":
		return uMonth, 6, k + 1
	case w == halfAbbr && p.word(k+1) == "года":
		return uMonth, 6, k + 2
	case unitWords[w] != 0:
		return unitWords[w], 1, p.unitEnd(k)
	}
	return 0, 0, k
}

// weekPreps come before «прошлую неделю», «этой неделе».
var weekPreps = append(words("за", "в", "во", "на"), []string{"в", "течение"})

// matchRelative reads «за последние 30 дней», «за последнюю неделю», «за неделю»,
// «за 3 месяца», «за полгода», «за последние полгода», «за последнее полугодие», «за
// прошлую неделю», «на этой неделе». «За квартал» and «за полугодие» without a number are
// not windows: an accountant may mean the reporting period.
func (p *parser) matchRelative(i int) (result, bool) {
	j := p.prefix(i, []string{"за"}, []string{"в", "течение"})
	window := func(n, u, end int) (result, bool) {
		from, ok := p.back(n, u)
		if !ok {
			return result{}, false
		}
		return result{from: from, to: p.today, kind: KindRelative, end: end}, true
	}
	if _, edge := p.edgeDay(j); edge {
		return result{}, false // «в последний день квартала»: a day of that quarter, not a window
	}
	if strings.HasPrefix(p.word(j), "последн") {
		n, k := p.count(j + 1)
		if u, mult, end := p.windowUnit(k); u != 0 {
			return window(max(n, 1)*mult, u, end)
		}
	}
	if j > i {
		n, k := p.count(j)
		if u, mult, end := p.windowUnit(k); u != 0 && (n > 0 || (u != uQuarter && u != uHalf)) {
			return window(max(n, 1)*mult, u, end)
		}
	}
	j = p.prefix(i, weekPreps...)
	if from, to, end, u, ok := p.relCore(j); ok && u == uWeek {
		from, to = p.clamp(from, to)
		return result{from: from, to: to, kind: KindRelative, end: end}, true
	}
	return result{}, false
}
