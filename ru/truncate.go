package ru

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ellipsis marks text that was cut.
const ellipsis = "…"

// Truncate shortens s to at most n runes, the «…» that marks the cut included, for a button, a
// quote or a stored message. A cut that would split a word — anything between spaces, so
// «Северсталь-Логистик» and «П-15/2025» are one word each — moves back to the space before it
// when that keeps at least half of what fits, and stays inside the word otherwise (one long
// word, a code); spaces, commas, dashes and an opening quote or bracket before «…» are dropped.
// s comes back as it is when it fits; n < 1 gives "".
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	keep := Clip(s, n-1)
	last, _ := utf8.DecodeLastRuneInString(keep)
	next, _ := utf8.DecodeRuneInString(s[len(keep):])
	if !unicode.IsSpace(last) && !unicode.IsSpace(next) {
		if i := strings.LastIndexFunc(keep, unicode.IsSpace); i >= 0 && utf8.RuneCountInString(keep[:i]) >= (n-1)/2 {
			keep = keep[:i]
		}
	}
	return strings.TrimRightFunc(keep, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:–—-«„“(/", r)
	}) + ellipsis
}

// Clip is the first n runes of s, cut anywhere and with no mark, for text a program reads
// rather than a person (a prompt's quote of a question, a file name); s when it is shorter.
func Clip(s string, n int) string {
	if n < 1 {
		return ""
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
