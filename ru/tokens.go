package ru

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tWord  tokKind = iota + 1 // a run of letters
	tNum                      // digit groups joined by date separators, with no spaces: "1", "62.01", "01.03.2026-31.03.2026"
	tPunct                    // any other single symbol; dashes become "-", ".." and "…" become ".."
)

// token is one lexical unit of a text with its byte span in the original.
type token struct {
	kind tokKind
	// s is the normalized text: a word in lower case with ё as е and combining marks removed,
	// the digits of a one-group number, or the punctuation symbol.
	s string
	// parts and seps are the digit groups of a tNum token and the separators between them
	// ("." "/" "-" ".."); len(seps) == len(parts)-1.
	parts []string
	seps  []string
	// start and end are byte offsets of the token in the original text.
	start, end int
}

// value returns the number of a one-group tNum token with at most 9 digits, or -1.
func (t token) value() int {
	if t.kind != tNum || len(t.parts) != 1 {
		return -1
	}
	return atoi(t.parts[0])
}

// atoi converts a string of at most 9 ASCII digits; anything else gives -1.
func atoi(s string) int {
	if s == "" || len(s) > 9 {
		return -1
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// isDash reports whether r is one of the dashes people put between dates.
func isDash(r rune) bool {
	switch r {
	case '-', '‐', '‑', '‒', '–', '—', '―', '−':
		return true
	}
	return false
}

// tokenize splits text into words, numbers and punctuation. Spaces separate tokens and
// are dropped; adjacency can be recovered from the spans.
func tokenize(text string) []token {
	toks := make([]token, 0, len(text)/4+1)
	i := 0
	for i < len(text) {
		r, w := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			i += w
		case isDigit(r):
			toks = append(toks, scanNumber(text, &i))
		case unicode.IsLetter(r):
			start := i
			for i < len(text) {
				r, w := utf8.DecodeRuneInString(text[i:])
				if !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) {
					break
				}
				i += w
			}
			toks = append(toks, token{kind: tWord, s: normWord(text[start:i]), start: start, end: i})
		default:
			start := i
			s := string(r)
			i += w
			switch {
			case r == '.' && strings.HasPrefix(text[i:], "."):
				for strings.HasPrefix(text[i:], ".") {
					i++
				}
				s = ".."
			case r == '…':
				s = ".."
			case isDash(r):
				s = "-"
			case r == utf8.RuneError:
				s = "\uFFFD"
			}
			toks = append(toks, token{kind: tPunct, s: s, start: start, end: i})
		}
	}
	return toks
}

// scanNumber reads digit groups joined by '.', '/', a dash or ".." with no spaces, starting
// at *pos, which must be at a digit. A separator is taken only when a digit follows it.
func scanNumber(text string, pos *int) token {
	i := *pos
	start := i
	t := token{kind: tNum, start: start}
	digits := func() string {
		j := i
		for i < len(text) && isDigit(rune(text[i])) {
			i++
		}
		return text[j:i]
	}
	t.parts = append(t.parts, digits())
	for i < len(text) {
		sep, w := "", 0
		if strings.HasPrefix(text[i:], "..") {
			sep, w = "..", 2
		} else {
			r, rw := utf8.DecodeRuneInString(text[i:])
			switch {
			case r == '.' || r == '/':
				sep, w = string(r), rw
			case isDash(r):
				sep, w = "-", rw
			}
		}
		if w == 0 || i+w >= len(text) || !isDigit(rune(text[i+w])) {
			break
		}
		i += w
		t.seps = append(t.seps, sep)
		t.parts = append(t.parts, digits())
	}
	if len(t.parts) == 1 {
		t.s = t.parts[0]
	}
	t.end = i
	*pos = i
	return t
}

// normWord lower-cases a word, writes ё as е, composes й from и + breve and drops other
// combining marks (stress accents).
func normWord(s string) string {
	s = strings.ToLower(s)
	if !strings.ContainsAny(s, "ё\u0306\u0308\u0301\u0300") && isPlain(s) {
		return s
	}
	s = strings.ReplaceAll(s, "и\u0306", "й")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 'ё':
			b.WriteRune('е')
		case unicode.Is(unicode.Mn, r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isPlain reports whether s has no combining marks.
func isPlain(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			return false
		}
	}
	return true
}

// isASCIILetters reports whether s is made of Latin letters only.
func isASCIILetters(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}
