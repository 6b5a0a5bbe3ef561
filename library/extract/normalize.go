package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize prepares extracted text for storage and chunking: invalid UTF-8 becomes U+FFFD,
// soft hyphens, zero-width and bidi formatting characters and control characters (except tab and
// newline) are removed, the text is put in NFC, every line break (CR LF, CR, form feed, U+2028, …)
// becomes "\n", all kinds of spaces become " ", runs of spaces and tabs collapse to one (a tab if
// the run has one), lines are trimmed, a word hyphenated across a line end is joined
// ("сто-\nимость" → "стоимость"), and runs of blank lines collapse to one blank line (a paragraph
// break). Leading and trailing blank lines are dropped. Normalize is idempotent.
func Normalize(s string) string {
	if s == "" {
		return ""
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	// Pass 1: drop invisible characters, unify line breaks, so that NFC sees the final neighbours.
	var b strings.Builder
	b.Grow(len(s))
	nfc := false // whether the text has runes NFC may change
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
			b.WriteByte('\n')
		case r == '\n', r == '\f', r == '\v', r == 0x85, r == 0x2028:
			b.WriteByte('\n')
		case r == 0x2029:
			b.WriteString("\n\n")
		case r == '\t':
			b.WriteByte('\t')
		case removable(r):
		case r != ' ' && unicode.Is(unicode.Zs, r):
			b.WriteByte(' ')
		default:
			if r < utf8.RuneSelf {
				b.WriteByte(byte(r))
				continue
			}
			nfc = nfc || !nfcInert(r)
			b.WriteRune(r)
		}
	}
	s = b.String()
	if nfc {
		s = norm.NFC.String(s)
	}

	// Pass 2: lines.
	out := make([]byte, 0, len(s))
	blank := 0 // blank lines seen since the last non-blank line
	var line []byte
	flush := func() {
		if len(line) == 0 {
			blank++
			return
		}
		if len(out) > 0 {
			switch {
			case blank == 0 && hyphenJoin(out, line):
				// Drop the trailing hyphen and glue the next line on.
				_, n := utf8.DecodeLastRune(out)
				out = out[:len(out)-n]
			case blank > 0:
				out = append(out, '\n', '\n')
			default:
				out = append(out, '\n')
			}
		}
		out = append(out, line...)
		line = line[:0]
		blank = 0
	}
	var pending rune // collapsed whitespace waiting for the next visible rune
	for _, r := range s {
		switch r {
		case '\n':
			pending = 0
			flush()
		case ' ', '\t':
			if pending != '\t' {
				pending = r
			}
		default:
			if pending != 0 && len(line) > 0 {
				line = append(line, byte(pending))
			}
			pending = 0
			line = utf8.AppendRune(line, r)
		}
	}
	flush()
	return string(out)
}

// nfcInert reports runes that NFC leaves alone whatever surrounds them: they neither decompose
// nor combine with a neighbour (Latin-1, Cyrillic letters, common punctuation). Text made of them
// skips the NFC pass, which is the slowest part of Normalize.
func nfcInert(r rune) bool {
	switch {
	case r < 0x300:
		return true
	case r >= 0x400 && r <= 0x482, r >= 0x48A && r <= 0x4FF:
		return true
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205E, r == 0x20AC, r == 0x20BD, r == 0x2116:
		return true
	}
	return false
}

// hyphenJoin reports whether text ending with a hyphenated word part continues on next.
func hyphenJoin(text, next []byte) bool {
	last, n := utf8.DecodeLastRune(text)
	if last != '-' && last != '\u2010' {
		return false
	}
	before, _ := utf8.DecodeLastRune(text[:len(text)-n])
	if !unicode.IsLetter(before) {
		return false
	}
	first, _ := utf8.DecodeRune(next)
	return unicode.IsLower(first)
}

// removable reports invisible characters that carry nothing for retrieval.
func removable(r rune) bool {
	switch r {
	case 0xAD, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF, 0x180E, 0x061C, 0xFFFE, 0xFFFF:
		return true
	}
	if r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 {
		return true
	}
	return unicode.IsControl(r)
}
