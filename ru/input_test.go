package ru

import "testing"

func TestCleanInput(t *testing.T) {
	tests := []struct{ in, want string }{
		{"кто нам должен на 31.03", "кто нам должен на 31.03"},
		{"/de\u200bbts 31.03", "/debts 31.03"},
		{"долг Ром\u200dашки", "долг Ромашки"},
		{"\ufeffкурс евро", "курс евро"},
		{"сальдо\u00a062.01", "сальдо 62.01"},
		{"на ３１.０３.２０２６", "на 31.03.2026"},
		{"договор № 15/2024", "договор № 15/2024"},
		{"догово\u00adр №\u200b7", "договор №7"},
		{"\u202eкурс\u202c доллара", "курс доллара"},
		{"ёлка Ё й Й", "ёлка Ё й Й"},
		{"е\u0308", "ё"}, // decomposed ё composed
	}
	for _, tt := range tests {
		if got := CleanInput(tt.in); got != tt.want {
			t.Errorf("CleanInput(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzCleanInput(f *testing.F) {
	f.Add("/de\u200bbts № 5")
	f.Fuzz(func(t *testing.T, s string) {
		out := CleanInput(s)
		if CleanInput(out) != out {
			t.Errorf("CleanInput is not idempotent on %q", s)
		}
	})
}
