package ru

import (
	"testing"
	"time"
)

func TestMonths(t *testing.T) {
	tests := []struct {
		m                                 time.Month
		name, genitive, prepositional, ab string
	}{
		{time.January, "январь", "января", "январе", "янв"},
		{time.March, "март", "марта", "марте", "мар"},
		{time.May, "май", "мая", "мае", "май"},
		{time.August, "август", "августа", "августе", "авг"},
		{time.December, "декабрь", "декабря", "декабре", "дек"},
		{0, "", "", "", ""},
		{13, "", "", "", ""},
	}
	for _, tt := range tests {
		if got := MonthName(tt.m); got != tt.name {
			t.Errorf("MonthName(%d) = %q, want %q", tt.m, got, tt.name)
		}
		if got := MonthGenitive(tt.m); got != tt.genitive {
			t.Errorf("MonthGenitive(%d) = %q, want %q", tt.m, got, tt.genitive)
		}
		if got := MonthPrepositional(tt.m); got != tt.prepositional {
			t.Errorf("MonthPrepositional(%d) = %q, want %q", tt.m, got, tt.prepositional)
		}
		if got := MonthAbbr(tt.m); got != tt.ab {
			t.Errorf("MonthAbbr(%d) = %q, want %q", tt.m, got, tt.ab)
		}
	}
}

// The parser reads back every name the bot writes: the forms here are the forms it knows.
func TestMonthsParse(t *testing.T) {
	for m := time.January; m <= time.December; m++ {
		for _, w := range []string{MonthName(m), MonthGenitive(m), MonthPrepositional(m)} {
			if got := monthWords[w]; got != int(m) {
				t.Errorf("monthWords[%q] = %d, want %d", w, got, m)
			}
		}
		if a := MonthAbbr(m); m != time.May && monthAbbr[a] != int(m) {
			t.Errorf("monthAbbr[%q] = %d, want %d", a, monthAbbr[a], m)
		}
	}
}
