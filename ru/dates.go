package ru

import (
	"fmt"
	"time"
)

// Years outside these bounds are not dates here.
const (
	minYear     = 1900 // an explicit year: «01.03.1995», «1995 год», «март 1995»
	maxYear     = 2100
	minBareYear = 1990 // a text that is only a number, or «за 2025»
)

// date returns midnight Moscow of the given calendar day (normalizing overflow).
func date(y int, m time.Month, d int) time.Time {
	return time.Date(y, m, d, 0, 0, 0, 0, Moscow)
}

// midnight returns the calendar date of t in Moscow at midnight.
func midnight(t time.Time) time.Time {
	y, m, d := t.In(Moscow).Date()
	return date(y, m, d)
}

// daysIn returns the number of days of month m of year y.
func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// maxDays returns the longest a month can be in any year (29 for February).
func maxDays(m time.Month) int { return daysIn(2000, m) }

// addMonths moves t by n months keeping the day when it exists and the month's last
// day otherwise (31 March − 1 month = 28/29 February).
func addMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := date(y, m+time.Month(n), 1)
	if last := daysIn(first.Year(), first.Month()); d > last {
		d = last
	}
	return date(first.Year(), first.Month(), d)
}

// monthRange returns the first and last day of a month.
func monthRange(y int, m time.Month) (time.Time, time.Time) {
	return date(y, m, 1), date(y, m, daysIn(y, m))
}

// quarterRange returns the first and last day of quarter q (1..4) of year y.
func quarterRange(y, q int) (time.Time, time.Time) {
	first := time.Month(3*(q-1) + 1)
	return date(y, first, 1), date(y, first+2, daysIn(y, first+2))
}

// halfRange returns the first and last day of half-year h (1..2) of year y.
func halfRange(y, h int) (time.Time, time.Time) {
	first := time.Month(6*(h-1) + 1)
	return date(y, first, 1), date(y, first+5, daysIn(y, first+5))
}

// yearRange returns 1 January and 31 December of year y.
func yearRange(y int) (time.Time, time.Time) {
	return date(y, time.January, 1), date(y, time.December, 31)
}

// quarterOf returns the quarter (1..4) of month m.
func quarterOf(m time.Month) int { return (int(m)-1)/3 + 1 }

// halfOf returns the half-year (1..2) of month m.
func halfOf(m time.Month) int { return (int(m)-1)/6 + 1 }

// weekStart returns the Monday of the week of t.
func weekStart(t time.Time) time.Time {
	return t.AddDate(0, 0, -((int(t.Weekday()) + 6) % 7))
}

// formatDate writes a date as dd.mm.yyyy.
func formatDate(t time.Time) string { return t.Format("02.01.2006") }

func days(n int) string { return Count(n, "день", "дня", "дней") }

// checkDate validates a day, month and explicitly known year and returns the date or a
// reason why it is not one.
func checkDate(d, m, y int) (time.Time, string) {
	if y < minYear || y > maxYear {
		return time.Time{}, fmt.Sprintf("год %d вне допустимого диапазона %d–%d", y, minYear, maxYear)
	}
	if m < 1 || m > 12 {
		return time.Time{}, fmt.Sprintf("месяца с номером %d нет: месяцы нумеруются от 1 до 12", m)
	}
	if d < 1 {
		return time.Time{}, fmt.Sprintf("числа %d не бывает: дни месяца нумеруются с 1", d)
	}
	if n := daysIn(y, time.Month(m)); d > n {
		return time.Time{}, fmt.Sprintf("в %s %d года %s", MonthPrepositional(time.Month(m)), y, days(n))
	}
	return date(y, time.Month(m), d), ""
}

// checkDayMonth validates a day and month whose year is not known yet.
func checkDayMonth(d, m int) string {
	if m < 1 || m > 12 {
		return fmt.Sprintf("месяца с номером %d нет: месяцы нумеруются от 1 до 12", m)
	}
	if d < 1 {
		return fmt.Sprintf("числа %d не бывает: дни месяца нумеруются с 1", d)
	}
	if n := maxDays(time.Month(m)); d > n {
		if m == 2 {
			return "в феврале не больше 29 дней"
		}
		return fmt.Sprintf("в %s %s", MonthPrepositional(time.Month(m)), days(n))
	}
	return ""
}

// recentDay returns the most recent date d.m that is not after today (29 February goes
// back to the last leap year), or a reason why d.m is never a date.
func recentDay(d, m int, today time.Time) (time.Time, string) {
	if reason := checkDayMonth(d, m); reason != "" {
		return time.Time{}, reason
	}
	for y := today.Year(); y >= today.Year()-8; y-- {
		if d > daysIn(y, time.Month(m)) {
			continue
		}
		if t := date(y, time.Month(m), d); !t.After(today) {
			return t, ""
		}
	}
	return time.Time{}, checkDayMonth(d, m) // unreachable: some leap year is within 8 years
}

// recentDayOfMonth returns the most recent day d (1..31) of a month that is not after
// today: «на 1 число» is the first of this month, «на 31 число» on 25 April is 31 March.
func recentDayOfMonth(d int, today time.Time) time.Time {
	for k := 0; ; k-- {
		first := date(today.Year(), today.Month()+time.Month(k), 1)
		if t := first.AddDate(0, 0, d-1); t.Month() == first.Month() && !t.After(today) {
			return t
		}
	}
}

// recentMonthYear returns the year of the most recent month m that has started.
func recentMonthYear(m int, today time.Time) int {
	if time.Month(m) <= today.Month() {
		return today.Year()
	}
	return today.Year() - 1
}

// recentQuarterYear returns the year of the most recent quarter q that has started.
func recentQuarterYear(q int, today time.Time) int {
	if q <= quarterOf(today.Month()) {
		return today.Year()
	}
	return today.Year() - 1
}

// recentHalfYear returns the year of the most recent half-year h that has started.
func recentHalfYear(h int, today time.Time) int {
	if h <= halfOf(today.Month()) {
		return today.Year()
	}
	return today.Year() - 1
}

// twoDigitYear expands a two-digit year: 20yy unless that is more than ten years ahead.
func twoDigitYear(yy int, today time.Time) int {
	y := 2000 + yy
	if y > today.Year()+10 {
		y -= 100
	}
	return y
}

// weekdayAt reads a day of the week at i, alone or after прошлый/этот/позапрошлый: «на
// пятницу», «в прошлую пятницу», «на эту среду», «позапрошлый понедельник». Alone or «прошлый»,
// it is the latest such day before today (today itself is «сегодня»); «позапрошлый» the one a
// week before that; «этот» the day of the current week (Monday first). The two-letter
// abbreviations (пн … вс) count only after «в» or «на».
func (p *parser) weekdayAt(i int) (d time.Time, end int, ok bool) {
	off, rel := relOffset(p.word(i))
	at := i
	if rel {
		at = i + 1
	} else if _, after := relOffset(p.word(i - 1)); after {
		return time.Time{}, i, false // «следующую пятницу», read from its first word
	}
	wd, found := weekdayWords[p.word(at)]
	if !found || len([]rune(p.word(at))) == 2 && !rel && p.word(i-1) != "в" && p.word(i-1) != "на" {
		return time.Time{}, i, false
	}
	if rel && off > 0 {
		return time.Time{}, i, false // «следующую пятницу»: a future day, never a figure of 1C
	}
	if rel && off == 0 {
		monday := p.today.AddDate(0, 0, -((int(p.today.Weekday()) + 6) % 7))
		return monday.AddDate(0, 0, (int(wd)+6)%7), at + 1, true
	}
	back := (int(p.today.Weekday()) - int(wd) + 7) % 7
	if back == 0 {
		back = 7
	}
	if rel && off == -2 {
		back += 7
	}
	return p.today.AddDate(0, 0, -back), at + 1, true
}
