package ru

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Days of the week and years counted from today (testNow is Sunday, 22 November 2026).
func TestParsePeriodWeekdaysAndRelativeYears(t *testing.T) {
	tests := []struct {
		in   string
		want Period
	}{
		{"дз на пятницу", day(d(2026, 11, 20), "на пятницу")},
		{"дз на прошлую пятницу", day(d(2026, 11, 20), "на прошлую пятницу")},
		{"остаток в понедельник", day(d(2026, 11, 16), "в понедельник")},
		{"дз на позапрошлую пятницу", day(d(2026, 11, 13), "на позапрошлую пятницу")},
		{"дз на эту среду", day(d(2026, 11, 18), "на эту среду")},
		{"на вс", day(d(2026, 11, 15), "на вс")},
		{"в марте прошлого года", per(d(2025, 3, 1), d(2025, 3, 31), KindMonth, "в марте прошлого года")},
		{"за март позапрошлого года", per(d(2024, 3, 1), d(2024, 3, 31), KindMonth, "за март позапрошлого года")},
		{"за 1 квартал прошлого года", per(d(2025, 1, 1), d(2025, 3, 31), KindQuarter, "за 1 квартал прошлого года")},
		{"на конец марта прошлого года", day(d(2025, 3, 31), "на конец марта прошлого года")},
		{"за март этого года", per(d(2026, 3, 1), d(2026, 3, 31), KindMonth, "за март этого года")},
	}
	for _, tt := range tests {
		got, ok, err := ParsePeriod(tt.in, testNow)
		if !ok || err != nil {
			t.Errorf("ParsePeriod(%q) = %v, %v", tt.in, ok, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParsePeriod(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
	for _, in := range []string{"дз в среднем за месяц", "на следующую пятницу"} {
		if got, ok, _ := ParsePeriod(in, testNow); ok && got.Kind == KindDay {
			t.Errorf("ParsePeriod(%q) = %+v, want no day", in, got)
		}
	}
}
