package runner

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Sanitize removes control characters, zero-width and bidi formatting characters and
// collapses whitespace.
//
// Every run of whitespace (line breaks, tabs, no-break and other Unicode spaces) becomes one
// ASCII space and the ends are trimmed. Invalid UTF-8, control characters (Cc), format
// characters (Cf: zero-width spaces and joiners, bidi marks and isolates, BOM, soft hyphen,
// tag characters) and a few invisible fillers and variation selectors are dropped without a
// trace, so «до\u200bлжен» reads as «должен». The result is NFC, so a «й» typed as «и» plus
// a combining breve matches like any other.
func Sanitize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	pendingSpace := false
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case r == utf8.RuneError && w <= 1:
			continue
		case unicode.IsSpace(r):
			pendingSpace = b.Len() > 0
			continue
		case unicode.Is(unicode.Cc, r), unicode.Is(unicode.Cf, r), invisibleFiller(r):
			continue
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// invisibleFiller reports characters that render as nothing but are neither Cc nor Cf:
// the combining grapheme joiner, Hangul and Khmer fillers, variation selectors.
func invisibleFiller(r rune) bool {
	switch {
	case r == 0x034F, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5, r == 0x3164, r == 0xFFA0:
		return true
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return true
	}
	return false
}
