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
	case uYear:
		if n > 99 {
			return time.Time{}, false
		}
		return addMonths(t, -12*n).AddDate(0, 0, 1), true
	}
	return time.Time{}, false
}

// weekPreps come before «прошлую неделю», «этой неделе».
var weekPreps = append(words("за", "в", "во", "на"), []string{"в", "течение"})

// matchRelative reads «за последние 30 дней», «за последнюю неделю», «за неделю»,
// «за 3 месяца», «за полгода», «за прошлую неделю», «на этой неделе».
func (p *parser) matchRelative(i int) (result, bool) {
	j := p.prefix(i, []string{"за"}, []string{"в", "течение"})
	window := func(n, u, end int) (result, bool) {
		from, ok := p.back(n, u)
		if !ok {
			return result{}, false
		}
		return result{from: from, to: p.today, kind: KindRelative, end: end}, true
	}
	unitEnd := func(k int) int {
		if w := p.word(k); w == "кв" || w == "мес" {
			return p.dot(k + 1)
		}
		return k + 1
	}
	if strings.HasPrefix(p.word(j), "последн") {
		n, k := p.count(j + 1)
		if p.word(k) == "полгода" {
			return window(6*max(n, 1), uMonth, k+1)
		}
		if u := unitWords[p.word(k)]; u != 0 {
			return window(max(n, 1), u, unitEnd(k))
		}
	}
	if j > i {
		n, k := p.count(j)
		if p.word(k) == "полгода" {
			return window(6*max(n, 1), uMonth, k+1)
		}
		if u := unitWords[p.word(k)]; u != 0 && (n > 0 || u != uQuarter) {
			return window(max(n, 1), u, unitEnd(k))
		}
	}
	j = p.prefix(i, weekPreps...)
	if from, to, end, u, ok := p.relCore(j); ok && u == uWeek {
		from, to = p.clamp(from, to)
		return result{from: from, to: to, kind: KindRelative, end: end}, true
	}
	return result{}, false
}
