package onec

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/finbot/finbot/ru"
)

// Kopecks is an exact amount of money in kopecks (1/100 of a rouble). Sums never go through
// floating point.
type Kopecks int64

// ParseKopecks reads a decimal amount such as "148530.91", "-5" or "0.5" exactly.
func ParseKopecks(s string) (Kopecks, error) {
	// Trailing zeros beyond kopecks are fine ("0.10" written as "0.100"); anything else is not exact.
	v, err := parseFixed(s, 2, "amount", "has fractions of a kopeck")
	return Kopecks(v), err
}

// parseFixed reads a decimal number s exactly as an integer count of 10^-decimals: "15.3" with
// three decimals is 15300. Digits past decimals are allowed only as trailing zeros; what names
// the number and tooFine the error of such digits in the messages.
func parseFixed(s string, decimals int, what, tooFine string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("empty " + what)
	}
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" {
		return 0, fmt.Errorf("%s %q has no digits", what, s)
	}
	if len(frac) > decimals {
		if strings.Trim(frac[decimals:], "0") != "" {
			return 0, fmt.Errorf("%s %q %s", what, s, tooFine)
		}
		frac = frac[:decimals]
	}
	for len(frac) < decimals {
		frac += "0"
	}
	if whole == "" {
		whole = "0"
	}
	for _, part := range []string{whole, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return 0, fmt.Errorf("%s %q is not a decimal number", what, s)
			}
		}
	}
	scale := int64(1)
	for range decimals {
		scale *= 10
	}
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || n > (1<<62)/scale {
		return 0, fmt.Errorf("%s %q is out of range", what, s)
	}
	f, _ := strconv.ParseInt(frac, 10, 64)
	v := n*scale + f
	if neg {
		v = -v
	}
	return v, nil
}

// UnmarshalJSON reads a JSON number (or a numeric string) exactly.
func (k *Kopecks) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" {
		*k = 0
		return nil
	}
	v, err := ParseKopecks(s)
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// MarshalJSON writes the amount as a JSON number with two decimals.
func (k Kopecks) MarshalJSON() ([]byte, error) { return []byte(k.Decimal()), nil }

// Decimal formats the amount as "-1234.50".
func (k Kopecks) Decimal() string {
	sign := ""
	v := int64(k)
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// String formats the amount the Russian way, exactly: "1 234 567,89 ₽" with no-break spaces
// ([ru.Money]).
func (k Kopecks) String() string { return ru.Money(int64(k)) }
