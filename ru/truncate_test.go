package ru

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"", 5, ""},
		{"hello", 5, "hello"},
		{"hello!", 5, "hell…"},
		{"привет мир", 4, "при…"},
		{"ab", 1, "…"},
		{"ab", 0, ""},
		{"ab", -1, ""},
		// A word is not split when the space before it keeps at least half.
		{"Акт сверки взаиморасчётов", 15, "Акт сверки…"},
		// The cut falls between words: nothing to move.
		{"Акт сверки взаиморасчётов", 11, "Акт сверки…"},
		{"Акт сверки взаиморасчётов", 12, "Акт сверки…"},
		// Too little would be left: the word is cut.
		{"Акт взаиморасчётов", 12, "Акт взаимор…"},
		{"Договор№П-15/2025-001", 10, "Договор№П…"},
		// Spaces, commas and dashes before «…» go.
		{"ООО Ромашка, ИНН 7701234567", 14, "ООО Ромашка…"},
		{"Ставка — 16 %, с 1 марта", 9, "Ставка…"},
		{"a  \n  b c d e f g", 4, "a…"},
		// A word is what lies between spaces: a hyphen, a slash or a quote does not end it.
		{"Открытые позиции: ПАО «Северсталь-Логистик»", 35, "Открытые позиции: ПАО…"},
		{"Договор поставки № ДП-198/2024 от 10.11.2024", 27, "Договор поставки №…"},
		{"Документы: Договор поставки № ДП-198/2024 от 10.11.2024", 48, "Документы: Договор поставки № ДП-198/2024 от…"},
		// Kept inside a long word, the cut drops what would dangle before «…».
		{"ПАО «Северсталь-Логистик»", 17, "ПАО «Северсталь…"},
		{"ООО «Альфа»", 6, "ООО…"},
	}
	for _, tt := range tests {
		got := Truncate(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if tt.n >= 0 && utf8.RuneCountInString(got) > tt.n {
			t.Errorf("Truncate(%q, %d) = %q: %d runes", tt.in, tt.n, got, utf8.RuneCountInString(got))
		}
	}
}

func TestTruncateNeverLonger(t *testing.T) {
	s := strings.Repeat("слово ", 40) + strings.Repeat("я", 100)
	for n := range utf8.RuneCountInString(s) + 2 {
		got := Truncate(s, n)
		if c := utf8.RuneCountInString(got); c > n || !utf8.ValidString(got) {
			t.Fatalf("Truncate(s, %d) = %q: %d runes", n, got, c)
		}
		if got != s && !strings.HasSuffix(got, "…") && n > 0 {
			t.Fatalf("Truncate(s, %d) = %q: cut with no «…»", n, got)
		}
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, ""},
		{"абв", 3, "абв"},
		{"абвг", 3, "абв"},
		{"a😀b", 2, "a😀"},
		{"абв", 0, ""},
		{"абв", -1, ""},
	}
	for _, tt := range tests {
		if got := Clip(tt.in, tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
