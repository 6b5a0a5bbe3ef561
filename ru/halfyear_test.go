package ru

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Half-years as accountants write them, on 25 April 2026: a half-year without a year is
// the most recent one that has started, and the one that contains today ends today.
func TestParsePeriodHalfYear(t *testing.T) {
	h := func(from, to time.Time, text string) Period { return per(from, to, KindHalf, text) }
	h1 := func(y int, text string) Period { return h(d(y, 1, 1), d(y, 6, 30), text) }
	h2 := func(y int, text string) Period { return h(d(y, 7, 1), d(y, 12, 31), text) }
	h1now := func(text string) Period { return h(d(2026, 1, 1), d(2026, 4, 25), text) }
	rel := func(from time.Time, text string) Period { return per(from, d(2026, 4, 25), KindRelative, text) }
	tests := []struct {
		in   string
		want Period
	}{
		// A numbered half-year with a year.
		{"за 1 полугодие 2025", h1(2025, "за 1 полугодие 2025")},
		{"в 1 полугодии 2025", h1(2025, "в 1 полугодии 2025")},
		{"за первое полугодие 2025", h1(2025, "за первое полугодие 2025")},
		{"1 пол. 2025", h1(2025, "1 пол. 2025")},
		{"2 пол 2025 года", h2(2025, "2 пол 2025 года")},
		{"I пол. 2025", h1(2025, "I пол. 2025")},
		{"1 полуг. 2025", h1(2025, "1 полуг. 2025")},
		{"за 2 полугодие 2025", h2(2025, "за 2 полугодие 2025")},
		{"во втором полугодии 2025", h2(2025, "во втором полугодии 2025")},
		{"за II полугодие 2024 г.", h2(2024, "за II полугодие 2024 г.")},
		{"выручка за 1 полугодие 2026 года", h1now("за 1 полугодие 2026 года")},
		{"ОСВ по 62 за 1 полугодие 2025", h1(2025, "за 1 полугодие 2025")},
		{"за полугодие 2025 года", h1(2025, "за полугодие 2025 года")}, // the reporting period

		// Without a year: the most recent that has started.
		{"за I полугодие", h1now("за I полугодие")},
		{"за 1-е полугодие", h1now("за 1-е полугодие")},
		{"первое полугодие", h1now("первое полугодие")},
		{"за 1 полуг.", h1now("за 1 полуг.")},
		{"за 2 полугодие", h2(2025, "за 2 полугодие")},
		{"за 2 полугодия", h2(2025, "за 2 полугодия")},
		{"во 2-м полугодии", h2(2025, "во 2-м полугодии")},

		// Counted from today's half-year.
		{"за прошлое полугодие", h2(2025, "за прошлое полугодие")},
		{"в прошлом полугодии", h2(2025, "в прошлом полугодии")},
		{"в этом полугодии", h1now("в этом полугодии")},
		{"за текущее полугодие", h1now("за текущее полугодие")},
		{"за позапрошлое полугодие", h1(2025, "за позапрошлое полугодие")},
		{"за следующее полугодие", h2(2026, "за следующее полугодие")},

		// The start and the end of a half-year: one day.
		{"на конец 1 полугодия 2025", day(d(2025, 6, 30), "на конец 1 полугодия 2025")},
		{"на начало 2 полугодия 2025", day(d(2025, 7, 1), "на начало 2 полугодия 2025")},
		{"на конец полугодия", day(d(2025, 12, 31), "на конец полугодия")}, // the most recent that has ended
		{"на начало полугодия", day(d(2026, 1, 1), "на начало полугодия")},
		{"на конец 1 полугодия", day(d(2025, 6, 30), "на конец 1 полугодия")},
		{"на конец 2 полугодия", day(d(2025, 12, 31), "на конец 2 полугодия")},
		{"на конец прошлого полугодия", day(d(2025, 12, 31), "на конец прошлого полугодия")},
		{"на конец текущего полугодия", day(d(2026, 6, 30), "на конец текущего полугодия")},
		{"на конец полугодия 2025", day(d(2025, 6, 30), "на конец полугодия 2025")},
		{"сальдо 62.01 на конец 1 пол. 2025", day(d(2025, 6, 30), "на конец 1 пол. 2025")},
		{"с начала полугодия", rel(d(2026, 1, 1), "с начала полугодия")},

		// Six months back from today, as «за последние 6 месяцев».
		{"за последние 6 месяцев", rel(d(2025, 10, 26), "за последние 6 месяцев")},
		{"за полгода", rel(d(2025, 10, 26), "за полгода")},
		{"за последние полгода", rel(d(2025, 10, 26), "за последние полгода")},
		{"за пол года", rel(d(2025, 10, 26), "за пол года")},
		{"за последнее полугодие", rel(d(2025, 10, 26), "за последнее полугодие")},
		{"за последние 2 полугодия", rel(d(2025, 4, 26), "за последние 2 полугодия")},
		{"полгода назад я купил доллары", day(d(2025, 10, 25), "полгода назад")},
		{"6 месяцев назад", day(d(2025, 10, 25), "6 месяцев назад")},

		// One typo in «начало»/«конец» right after «на».
		{"на начло месяца", day(d(2026, 4, 1), "на начло месяца")},
		{"на конц марта", day(d(2026, 3, 31), "на конц марта")},
		{"на канец года", day(d(2025, 12, 31), "на канец года")},
		{"на кноец квартала", day(d(2026, 3, 31), "на кноец квартала")},
		{"на начала года", day(d(2026, 1, 1), "на начала года")},
		{"на нчало 2 полугодия 2025", day(d(2025, 7, 1), "на нчало 2 полугодия 2025")},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok, err := ParsePeriod(tt.in, acctNow)
			if err != nil || !ok {
				t.Fatalf("ParsePeriod(%q) = ok %v, err %v; want a period", tt.in, ok, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParsePeriod(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// On other days: in July the first half-year has ended and the second has started.
func TestParsePeriodHalfYearToday(t *testing.T) {
	jul, jun, jan := d(2026, 7, 15), d(2026, 6, 30), d(2026, 1, 1)
	tests := []struct {
		now  time.Time
		in   string
		want Period
	}{
		{jul, "за 1 полугодие", per(d(2026, 1, 1), d(2026, 6, 30), KindHalf, "за 1 полугодие")},
		{jul, "за 2 полугодие", per(d(2026, 7, 1), d(2026, 7, 15), KindHalf, "за 2 полугодие")},
		{jul, "за прошлое полугодие", per(d(2026, 1, 1), d(2026, 6, 30), KindHalf, "за прошлое полугодие")},
		{jul, "в этом полугодии", per(d(2026, 7, 1), d(2026, 7, 15), KindHalf, "в этом полугодии")},
		{jul, "на конец полугодия", day(d(2026, 6, 30), "на конец полугодия")},
		{jul, "на начало полугодия", day(d(2026, 7, 1), "на начало полугодия")},
		{jul, "на конец 1 полугодия", day(d(2026, 6, 30), "на конец 1 полугодия")},
		{jun, "на конец полугодия", day(d(2026, 6, 30), "на конец полугодия")},
		{jun, "за 1 полугодие", per(d(2026, 1, 1), d(2026, 6, 30), KindHalf, "за 1 полугодие")},
		{jan, "за 1 полугодие", per(d(2026, 1, 1), d(2026, 1, 1), KindHalf, "за 1 полугодие")},
		{jan, "за прошлое полугодие", per(d(2025, 7, 1), d(2025, 12, 31), KindHalf, "за прошлое полугодие")},
		{jan, "за полгода", per(d(2025, 7, 2), d(2026, 1, 1), KindRelative, "за полгода")},
		{d(2026, 8, 31), "за полгода", per(d(2026, 3, 1), d(2026, 8, 31), KindRelative, "за полгода")},
	}
	for _, tt := range tests {
		got, ok, err := ParsePeriod(tt.in, tt.now)
		if !ok || err != nil {
			t.Errorf("ParsePeriod(%q, %s) = %v, %v", tt.in, tt.now.Format("2006-01-02"), ok, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParsePeriod(%q, %s) mismatch (-want +got):\n%s", tt.in, tt.now.Format("2006-01-02"), diff)
		}
	}
}

// A third half-year is a mistake in a date, as a fifth quarter is.
func TestParsePeriodHalfYearInvalid(t *testing.T) {
	const reason = "в году два полугодия, полугодия 3 нет"
	for _, tt := range []struct{ in, text string }{
		{"за 3 полугодие", "за 3 полугодие"},
		{"в третьем полугодии 2025", "в третьем полугодии 2025"},
		{"III полугодие", "III полугодие"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, ok, err := ParsePeriod(tt.in, acctNow)
			var de *DateError
			if ok || !errors.As(err, &de) {
				t.Fatalf("ParsePeriod(%q) = %+v, %v, %v; want *DateError", tt.in, got, ok, err)
			}
			if want := (&DateError{Text: tt.text, Reason: reason}); !cmp.Equal(want, de) {
				t.Errorf("ParsePeriod(%q) error = %+v, want %+v", tt.in, de, want)
			}
		})
	}
}

// «Пол» is a floor, «полгода» ahead is no past period, a bare «полугодие» or «за
// полугодие» is ambiguous, and a word two typos from «конец» is no edge.
func TestParsePeriodHalfYearNone(t *testing.T) {
	for _, in := range []string{
		"пол",
		"пол.",
		"за пол",
		"тёплый пол",
		"тёплый пол 2025",
		"мыли первый пол.",
		"1 пол",
		"за 1 пол.",
		"пол 2 этажа",
		"на полгода",
		"на пол года",
		"полугодие",
		"за полугодие",
		"в течение полугодия",
		"д. 5 полуг. 12",
		"на нача месяца",
		"на окнц месяца",
		"на кон месяца",
		"на конц",
		"отчитались по конц месяца",
	} {
		t.Run(in, func(t *testing.T) {
			got, ok, err := ParsePeriod(in, acctNow)
			if ok || err != nil {
				t.Errorf("ParsePeriod(%q) = %+v, %v, %v; want no date", in, got, ok, err)
			}
		})
	}
}

func TestEdgeTypo(t *testing.T) {
	tests := []struct {
		w         string
		isEnd, ok bool
	}{
		{"конц", true, true},
		{"канец", true, true},
		{"конецц", true, true},
		{"кнoец", false, false}, // two edits: a swap and a Latin o
		{"кноец", true, true},
		{"начло", false, true},
		{"нчало", false, true},
		{"нaчала", false, true},  // Latin a
		{"анчало", false, false}, // the first letter is wrong
		{"кон", false, false},    // too short
		{"конт", false, false},
		{"месяца", false, false},
		{"окончане", false, false}, // «окончание» is not read with a typo
	}
	for _, tt := range tests {
		isEnd, ok := edgeTypo(tt.w)
		if isEnd != tt.isEnd || ok != tt.ok {
			t.Errorf("edgeTypo(%q) = %v, %v; want %v, %v", tt.w, isEnd, ok, tt.isEnd, tt.ok)
		}
	}
}
