package ru

import "testing"

func TestPlural(t *testing.T) {
	tests := map[int]string{
		0: "документов", 1: "документ", 2: "документа", 4: "документа", 5: "документов",
		11: "документов", 12: "документов", 14: "документов", 15: "документов",
		21: "документ", 22: "документа", 25: "документов", 101: "документ", 111: "документов",
		112: "документов", 1001: "документ", 1_000_000: "документов",
		-1: "документ", -3: "документа", -11: "документов",
	}
	for n, want := range tests {
		if got := Plural(n, "документ", "документа", "документов"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{1, "1 день"},
		{3, "3 дня"},
		{31, "31 день"},
		{9999, "9999 дней"},
		{12345, "12\u00a0345 дней"},
		{-2, "−2 дня"},
	}
	for _, tt := range tests {
		if got := Count(tt.n, "день", "дня", "дней"); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
