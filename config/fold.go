package config

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Altered copies of a secret. A secret that reaches the output in another form than the
// configured one — another letter case (an upstream that upper-cases what it echoes), an
// invisible character inside it (a zero-width space, joiner or non-joiner, a soft hyphen, a
// BOM: text that shows the same, which a model or an attacker may insert precisely to slip
// past a byte-for-byte match), %-escapes (a URL or a form body) or fullwidth letters (ＳＫ－…)
// — is found by comparing folded text: both the text and the secret are lower-cased, stripped
// of invisible characters and un-escaped before they are compared, and what matched is replaced
// in the text as written.
//
// Only secrets of minFoldedLen characters or more are matched this way. A shorter one (a
// 4-character Redis password) would then also match ordinary words in another case or
// spelled with a soft hyphen; those stay matched exactly, as before.

// minFoldedLen is the shortest secret whose altered copies are redacted.
const minFoldedLen = 8

// foldSecrets returns the folded forms of the secrets long enough to be matched folded,
// longest first, without duplicates.
func foldSecrets(secrets []string) []string {
	var out []string
	for _, s := range secrets {
		if f := foldString(s).text; utf8.RuneCountInString(s) >= minFoldedLen && len(f) >= minFoldedLen {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// folded is text as the redactor compares it with secrets; start and end map a byte of the
// folded text back to the span of the original text it came from.
type folded struct {
	text     string
	from, to []int // nil: folded byte i is original byte i
}

func (f folded) start(i int) int {
	if f.from == nil {
		return i
	}
	return f.from[i]
}

func (f folded) end(i int) int {
	if f.to == nil {
		return i + 1
	}
	return f.to[i]
}

// foldString folds s: ASCII letters lower-cased, %XX escapes decoded, fullwidth ASCII forms
// (U+FF01–U+FF5E) made ASCII, invisible characters dropped; everything else as it is.
func foldString(s string) folded {
	plain := true // ASCII without '%': folding only lower-cases, byte for byte
	for i := 0; i < len(s) && plain; i++ {
		plain = s[i] < utf8.RuneSelf && s[i] != '%'
	}
	if plain {
		return folded{text: strings.ToLower(s)}
	}
	b := make([]byte, 0, len(s))
	from, to := make([]int, 0, len(s)), make([]int, 0, len(s))
	emit := func(c byte, i, j int) {
		b, from, to = append(b, lowerASCII(c)), append(from, i), append(to, j)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			emit(unhex(s[i+1])<<4|unhex(s[i+2]), i, i+3)
			i += 3
			continue
		case c < utf8.RuneSelf:
			emit(c, i, i+1)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case invisible(r):
		case r >= 0xFF01 && r <= 0xFF5E:
			emit(byte(r-0xFEE0), i, i+n)
		default:
			for k := range n {
				emit(s[i+k], i, i+n)
			}
		}
		i += n
	}
	return folded{text: string(b), from: from, to: to}
}

// invisible reports characters that show as nothing (or nothing but a hyphen at a line
// break): format characters (zero-width space, joiners, soft hyphen, BOM, bidi controls),
// the combining grapheme joiner and variation selectors.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || r == 0x034F || (r >= 0xFE00 && r <= 0xFE0F)
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	default:
		return c - '0'
	}
}

// replaceFolded replaces every altered copy of the folded secrets in s; s itself when there
// is none.
func replaceFolded(s string, secrets []string) string {
	if len(secrets) == 0 {
		return s
	}
	f := foldString(s)
	var spans [][2]int
	for _, sec := range secrets {
		for off := 0; ; {
			i := strings.Index(f.text[off:], sec)
			if i < 0 {
				break
			}
			a, z := off+i, off+i+len(sec)
			spans = append(spans, [2]int{f.start(a), f.end(z - 1)})
			off = z
		}
	}
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var out strings.Builder
	at := 0
	for i := 0; i < len(spans); {
		start, end := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] < end; i++ { // overlapping copies go as one
			end = max(end, spans[i][1])
		}
		out.WriteString(s[at:start])
		out.WriteString(redacted)
		at = end
	}
	out.WriteString(s[at:])
	return out.String()
}

// foldedTail is how much of the end of b must wait for the next write: the start of an
// altered copy of a secret (in folded form, a proper prefix of it), with the invisible
// characters after it, and a character or %-escape cut in two by the write.
func foldedTail(b []byte, secrets []string) int {
	if len(secrets) == 0 {
		return 0
	}
	s := string(b)
	cut := len(s) - incompleteTail(s)
	f := foldString(s[:cut])
	keep := len(s) - cut
	for _, sec := range secrets {
		for n := min(len(sec)-1, len(f.text)); n > 0; n-- {
			if strings.HasSuffix(f.text, sec[:n]) {
				keep = max(keep, len(s)-f.start(len(f.text)-n))
				break
			}
		}
	}
	return keep
}

// incompleteTail is the length of a UTF-8 sequence or a %-escape s ends in the middle of.
func incompleteTail(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if s[i] >= utf8.RuneSelf && !utf8.FullRuneInString(s[i:]) {
				return len(s) - i
			}
			break
		}
	}
	switch n := len(s); {
	case n >= 1 && s[n-1] == '%':
		return 1
	case n >= 2 && s[n-2] == '%' && isHex(s[n-1]):
		return 2
	}
	return 0
}
