package recipe

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

func innCheckDigit(digits, weights []int) int {
	sum := 0
	for i, w := range weights {
		sum += digits[i] * w
	}
	return sum % 11 % 10
}
