package runner

import "testing"

func TestSanitize(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"кто нам должен?", "кто нам должен?"},
		{"  много \t\n пробелов \r\n ", "много пробелов"},
		{"до\u200bлжен", "должен"},                             // zero-width space
		{"до\u200c\u200d\u2060\ufeffлжен", "должен"},           // ZWNJ, ZWJ, word joiner, BOM
		{"\u202eнеж\u202cлод\u2066 \u2067x\u2069", "нежлод x"}, // bidi overrides and isolates
		{"\u200e\u200fАльфа\u061c", "Альфа"},                   // LRM, RLM, Arabic letter mark
		{"сч\u00adет", "счет"},                                 // soft hyphen
		{"a\x00b\x07c\x1bd", "abcd"},                           // control characters
		{"на\u00a031\u2009марта\u3000", "на 31 марта"},         // no-break, thin and ideographic spaces
		{"стро\u2028ка", "стро ка"},                            // line separator
		{"bad\xffutf8\xc3", "badutf8"},                         // invalid UTF-8
		{"и\u0306", "й"},                                       // NFC
		{"\ufe0fАльфа\u034f", "Альфа"},                         // variation selector, grapheme joiner
		{"", ""},
		{"\u200b\u200b", ""},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
