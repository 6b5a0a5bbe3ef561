package ru

import (
	"strings"
	"unicode"
)

// translitTable writes Cyrillic letters in Latin, the way Russian speakers spell Latin names.
var translitTable = map[rune]string{'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ж': "zh", 'з': "z",
	'и': "i", 'й': "i", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t",
	'у': "u", 'ф': "f", 'х': "h", 'ц': "c", 'ч': "ch", 'ш': "sh", 'щ': "sh", 'ы': "y", 'э': "e", 'ю': "yu", 'я': "ya", 'ь': "", 'ъ': ""}

// Translit writes a Cyrillic word in Latin letters as Russian speakers spell Latin names:
// «леново» is «lenovo».
func Translit(s string) string {
	var b strings.Builder
	for _, r := range s {
		if l, ok := translitTable[r]; ok {
			b.WriteString(l)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Skeleton is a Latin word's consonants with doubles merged: «delta» and «дельта» are both
// «dlt», «trade» and «трейд» both «trd».
func Skeleton(s string) string {
	var b []rune
	for _, r := range strings.ToLower(s) {
		if strings.ContainsRune("aeiouyj", r) || !unicode.IsLetter(r) {
			continue
		}
		if len(b) > 0 && b[len(b)-1] == r {
			continue
		}
		b = append(b, r)
	}
	return string(b)
}
