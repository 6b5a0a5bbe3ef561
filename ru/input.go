package ru

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// CleanInput is a user's message as the bot reads it, made at the edge once: Unicode NFKC
// (full-width digits and letters, non-breaking and other odd spaces, compatibility forms
// become their plain equivalents, so «３１.０３» is 31.03), with the format characters
// removed — zero-width spaces and joiners, the soft hyphen, direction marks, the BOM — which
// are invisible to the user but split «/debts» or a company's name for the parser. «№» is kept
// as it is: NFKC would make it «No», and contracts are numbered with it.
func CleanInput(s string) string {
	if plainInput(s) {
		return s
	}
	stripCf := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Cf, r) {
				return -1
			}
			return r
		}, s)
	}
	parts := strings.Split(s, "№")
	for i, p := range parts {
		// Format characters go before normalising, so that marks they separated compose as
		// they will in the cleaned text (else a second pass composes them: not idempotent).
		parts[i] = stripCf(norm.NFKC.String(stripCf(p)))
	}
	return strings.Join(parts, "№")
}

// plainInput reports text CleanInput leaves as it is: ASCII and Cyrillic letters, digits,
// punctuation and plain spaces (the common case, checked without allocating).
func plainInput(s string) bool {
	for _, r := range s {
		switch {
		case r < 0x80:
		case r >= 'А' && r <= 'я', r == 'ё', r == 'Ё', r == '«', r == '»', r == '—', r == '–', r == '№', r == '₽':
		default:
			return false
		}
	}
	return true
}
