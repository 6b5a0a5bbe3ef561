package ru

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fold prepares Russian text for word rules: lower case, ё→е, punctuation other than that of
// numbers, dates, account codes and document numbers («62.01», «15.01.2026», «П-15/2025», «№»)
// turned into spaces, and single spaces. Rules then use spaces as word boundaries: Go's \b
// knows only ASCII letters.
func Fold(s string) string {
	s = strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(s, "ё", "е"), "Ё", "Е"))
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '.', r == '-', r == '/', r == '№':
			return r
		default:
			return ' '
		}
	}, s)
	if strings.Contains(s, ".") {
		s = strayDots.ReplaceAllString(s, "$1 $2")
	}
	return strings.Join(strings.Fields(s), " ")
}

// strayDots matches a dot that is not inside a number such as 62.01 or 15.01.2026.
var strayDots = regexp.MustCompile(`(\D|^)\.+|\.+(\D|$)`)

// FoldAligned lower-cases s and turns ё into е without changing any rune's byte length, so
// byte offsets found in the result point at the same text in s. A rune whose lower case has
// another length (there are a few outside Cyrillic and Latin) is left as it is.
func FoldAligned(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		l := unicode.ToLower(r)
		if l == 'ё' {
			l = 'е'
		}
		if utf8.RuneLen(l) != utf8.RuneLen(r) {
			l = r
		}
		b.WriteRune(l)
	}
	return b.String()
}
