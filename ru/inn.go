package ru

// ValidINN reports whether s is a Russian INN with valid check digits (10 digits for legal entities, 12 for individuals/IP).
//
// The check digits are those of the Federal Tax Service: a weighted sum of the preceding
// digits modulo 11, then modulo 10. An INN starting with 00 (no such region) is invalid.
func ValidINN(s string) bool {
	if len(s) != 10 && len(s) != 12 {
		return false
	}
	d := make([]int, len(s))
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
		d[i] = int(s[i] - '0')
	}
	if d[0] == 0 && d[1] == 0 {
		return false
	}
	if len(d) == 10 {
		return innCheckDigit(d[:9], []int{2, 4, 10, 3, 5, 9, 4, 6, 8}) == d[9]
	}
	return innCheckDigit(d[:10], []int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == d[10] &&
		innCheckDigit(d[:11], []int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == d[11]
}

// INNCheckDigits are the check digits an INN's first digits call for: the last one of a
// 10-digit INN, the last two of a 12-digit one ("" for any other length or a non-digit).
func INNCheckDigits(s string) string {
	d := make([]int, len(s))
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return ""
		}
		d[i] = int(s[i] - '0')
	}
	switch len(d) {
	case 10:
		return string(rune('0' + innCheckDigit(d[:9], []int{2, 4, 10, 3, 5, 9, 4, 6, 8})))
	case 12:
		c1 := innCheckDigit(d[:10], []int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8})
		d[10] = c1
		c2 := innCheckDigit(d[:11], []int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8})
		return string(rune('0'+c1)) + string(rune('0'+c2))
	}
	return ""
}

func innCheckDigit(digits, weights []int) int {
	sum := 0
	for i, w := range weights {
		sum += digits[i] * w
	}
	return sum % 11 % 10
}

// ValidKPP reports whether s is written as a КПП is: nine characters, the tax office's four
// digits, the reason's two (digits or capital Latin letters), three digits. A КПП has no check
// digit, so this is all that can be checked.
func ValidKPP(s string) bool {
	if len(s) != 9 || s[:4] == "0000" {
		return false
	}
	for i := range 9 {
		c := s[i]
		digit := c >= '0' && c <= '9'
		if i == 4 || i == 5 {
			if !digit && (c < 'A' || c > 'Z') {
				return false
			}
		} else if !digit {
			return false
		}
	}
	return true
}
