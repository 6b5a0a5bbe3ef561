package ru

import "testing"

func TestFold(t *testing.T) {
	tests := map[string]string{
		"Сальдо по 62.01?":       "сальдо по 62.01",
		"Ёжик, НДС.":             "ежик ндс",
		"счёт-фактура № 15":      "счет-фактура № 15",
		"  много   пробелов \n ": "много пробелов",
		"15.01.2026.":            "15.01.2026",
		"договор П-15/2025!":     "договор п-15/2025",
	}
	for in, want := range tests {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}
