package ru

import "testing"

func TestLowerFirst(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Я", "Я"},
		{"Доллар США", "доллар США"},
		{"Японских иен", "японских иен"},
		{"СДР (специальные права заимствования)", "СДР (специальные права заимствования)"},
		{"НДС", "НДС"},
		{"Зарплата", "зарплата"},
		{"Euro", "euro"},
		{"уже строчная", "уже строчная"},
	}
	for _, tt := range tests {
		if got := LowerFirst(tt.in); got != tt.want {
			t.Errorf("LowerFirst(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
