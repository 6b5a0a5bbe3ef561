package probes

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxReasonCodeUnits is how long a normalised reason code may be, in UTF-16
// code units (the unit of JavaScript's String.prototype.slice).
const maxReasonCodeUnits = 120

// isJSWhitespace reports whether String.prototype.trim strips r: the
// ECMAScript WhiteSpace set (TAB, VT, FF, SP, NBSP, ZWNBSP U+FEFF and every
// Zs space) plus the LineTerminator set (LF, CR, U+2028, U+2029).
// This differs from unicode.IsSpace, which also strips U+0085 but keeps U+FEFF.
func isJSWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x2028, 0x2029, 0xFEFF:
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// jsTrim is String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, isJSWhitespace) }

// toNonEmptyString is the value trimmed as JavaScript trims, or ""
// (standing for null) when nothing is left.
func toNonEmptyString(value string) string { return jsTrim(value) }

// nullable turns the "" that stands for null into a nil pointer, so that the
// field serialises as JSON null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// toStringList trims every item; empty items are dropped, duplicates dropped
// keeping the first occurrence. It never returns nil, so the result
// serialises as [] rather than null.
func toStringList(values []string) []string {
	result := make([]string, 0, len(values))
	for _, item := range values {
		text := toNonEmptyString(item)
		if text != "" && !contains(result, text) {
			result = append(result, text)
		}
	}
	return result
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// isReasonCodeRune reports whether r survives normalisation: a Unicode letter
// (\p{L}), a Unicode number (\p{N}), or one of _ . : -.
func isReasonCodeRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '.' || r == ':' || r == '-'
}

// normalizeReasonCode normalises a reason code, step by step:
//
//  1. trim JavaScript whitespace;
//  2. replace every run of characters other than Unicode letters, Unicode
//     numbers and _ . : - with a single "_" (/[^\p{L}\p{N}_.:-]+/gu);
//  3. strip leading and trailing "_";
//  4. lower-case as String.prototype.toLowerCase does (see jsToLower);
//  5. return "" (null) if nothing is left, else cut to 120 UTF-16 code units.
//
// The cut happens after the underscore trim, so a cut code may end in "_".
//
// Non-BMP characters: the cut counts UTF-16 code units, as JavaScript's slice
// does, so a character outside the Basic Multilingual Plane counts as 2.
// Where the cut would split such a character, leaving a lone high surrogate
// as the last code unit (which JavaScript's slice keeps), the whole character
// is dropped instead (the result is then 119 units long), because a lone
// surrogate cannot be held in valid UTF-8.
//
// Invalid UTF-8 bytes (which a JavaScript string cannot hold) are not letters
// or numbers, so they are replaced like any other foreign character.
func normalizeReasonCode(value string) string {
	trimmed := jsTrim(value)
	var b strings.Builder
	b.Grow(len(trimmed))
	inRun := false
	for i := 0; i < len(trimmed); {
		// An invalid byte decodes as utf8.RuneError, which is not a letter.
		r, size := utf8.DecodeRuneInString(trimmed[i:])
		if isReasonCodeRune(r) {
			b.WriteString(trimmed[i : i+size])
			inRun = false
		} else if !inRun {
			b.WriteByte('_')
			inRun = true
		}
		i += size
	}
	normalized := jsToLower(strings.Trim(b.String(), "_"))
	if normalized == "" {
		return ""
	}
	return cutUTF16(normalized, maxReasonCodeUnits)
}

// cutUTF16 returns the longest prefix of s that is at most n UTF-16 code
// units long and does not split a surrogate pair.
func cutUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// pushReason normalises value and appends it to target unless it is empty or
// already there.
func pushReason(target []string, value string) []string {
	normalized := normalizeReasonCode(value)
	if normalized != "" && !contains(target, normalized) {
		target = append(target, normalized)
	}
	return target
}

// jsToLower is String.prototype.toLowerCase as V8 with ICU (the root locale)
// implements it: Unicode full lower-case mapping. It differs from
// strings.ToLower, which uses the simple mapping, in exactly two ways:
//
//   - U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE becomes "i" followed by
//     U+0307 COMBINING DOT ABOVE (SpecialCasing.txt), not a plain "i";
//   - U+03A3 GREEK CAPITAL LETTER SIGMA becomes final sigma U+03C2 when it
//     ends a word (the Final_Sigma condition, evaluated as ICU does: see
//     isFinalSigma), and U+03C3 otherwise.
//
// The Unicode tables are Go's (unicode.Version); a JavaScript engine with a
// newer Unicode may know letters and case pairs that Go does not yet.
func jsToLower(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == 0x0130 || r == 0x03A3 }) {
		return strings.ToLower(s)
	}
	runes := []rune(s)
	var b strings.Builder
	b.Grow(len(s) + 2)
	for i, r := range runes {
		switch {
		case r == 0x0130:
			b.WriteString("i\u0307")
		case r == 0x03A3 && isFinalSigma(runes, i):
			b.WriteRune(0x03C2)
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// isFinalSigma is the Final_Sigma condition for runes[i]: a cased letter comes
// before it and none comes after it, skipping case-ignorable characters both
// ways. Like ICU (ustrcase.cpp, isFollowedByCasedLetter), a character that is
// both case-ignorable and cased (a modifier letter such as U+02B0) is skipped
// as ignorable.
func isFinalSigma(runes []rune, i int) bool {
	return casedNeighbour(runes, i, -1) && !casedNeighbour(runes, i, +1)
}

func casedNeighbour(runes []rune, i, dir int) bool {
	for j := i + dir; j >= 0 && j < len(runes); j += dir {
		r := runes[j]
		switch {
		case isCaseIgnorable(r):
			continue
		case isCased(r):
			return true
		default:
			return false
		}
	}
	return false
}

// isCased is the Unicode Cased property: Lowercase, Uppercase or Lt.
func isCased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// isCaseIgnorable is the Unicode Case_Ignorable property: Mn, Me, Cf, Lm, Sk,
// or Word_Break MidLetter, MidNumLet or Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0x00B7, 0x0387, 0x055F, 0x05F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
