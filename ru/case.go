package ru

import "unicode"

// LowerFirst lowers the first letter of a name that starts a sentence elsewhere, to use it
// inside one: «Доллар США» → «доллар США», «Зарплата» → «зарплата». An abbreviation keeps its
// case: a first letter followed by a capital Cyrillic letter stays as it is («СДР
// (специальные права заимствования)», «НДС»), and so does a single letter.
func LowerFirst(s string) string {
	r := []rune(s)
	if len(r) > 1 && !(r[1] >= 'А' && r[1] <= 'Я') {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}
