package ru

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// nbsp separates thousands, and an amount from «₽»: a line never breaks inside a number.
const nbsp = '\u00a0'

// Number writes a count in running text: no-break spaces between thousands from 10 000 on
// («9999», «10 000», «1 234 567»), as Russian typography sets four-digit numbers whole, and
// a minus sign «−» rather than a hyphen.
func Number(n int) string {
	s := strconv.FormatUint(abs(int64(n)), 10)
	if len(s) > 4 {
		s = group(s)
	}
	if n < 0 {
		return "−" + s
	}
	return s
}

// Decimal writes a number given as Go writes it («-1234.5000», «1234567», as
// decimal.Decimal's StringFixed or strconv.FormatFloat with 'f' produce) the way amounts and
// rates are shown: a minus sign «−», no-break spaces between thousands whatever the size, so
// that figures in a column line up, and a decimal comma: «−1 234,5000». The digits are kept as
// they are: no rounding, no float.
func Decimal(s string) string {
	sign := ""
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		sign, s = "−", rest
	}
	whole, frac, _ := strings.Cut(s, ".")
	out := sign + group(whole)
	if frac != "" {
		out += "," + frac
	}
	return out
}

// Kopecks is an exact amount of roubles in kopecks, rounded half away from zero.
func Kopecks(roubles *big.Rat) int64 {
	k := new(big.Rat).Mul(roubles, big.NewRat(100, 1))
	n, d := k.Num(), k.Denom()
	q, m := new(big.Int).QuoRem(n, d, new(big.Int))
	if new(big.Int).Mul(m, big.NewInt(2)).CmpAbs(d) >= 0 {
		if n.Sign() >= 0 {
			q.Add(q, big.NewInt(1))
		} else {
			q.Sub(q, big.NewInt(1))
		}
	}
	return q.Int64()
}

// Money writes an amount of kopecks exactly as an amount in roubles: «1 234 567,89 ₽»,
// «−0,50 ₽», with no-break spaces between thousands and before «₽».
func Money(kopecks int64) string {
	v := abs(kopecks)
	sign := ""
	if kopecks < 0 {
		sign = "−"
	}
	frac := strconv.FormatUint(100+v%100, 10)[1:] // two digits: 5 kopecks are «05»
	return sign + group(strconv.FormatUint(v/100, 10)) + "," + frac + string(nbsp) + "₽"
}

// group puts a no-break space between every three digits of a string of digits, from the right.
func group(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	b.Grow(len(digits) + (len(digits)-1)/3*len(string(nbsp)))
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteRune(nbsp)
		}
		b.WriteByte(digits[i])
	}
	return b.String()
}

// abs is |n| as an unsigned number, exact for the smallest int64 too.
func abs(n int64) uint64 {
	if n < 0 {
		return uint64(-(n + 1)) + 1
	}
	return uint64(n)
}

// Approx is an amount in kopecks rounded for a label, where the exact figure is one tap away:
// «4,1 млн ₽», «950 тыс ₽», «870 ₽». Rounding is half up, in integers.
func Approx(kopecks int64) string {
	v, sign := abs(kopecks), ""
	if kopecks < 0 {
		sign = "−"
	}
	round := func(unit uint64) uint64 { return (v + unit/2) / unit }
	switch {
	case v >= 100_000_000_00:
		return sign + group(strconv.FormatUint(round(1_000_000_00), 10)) + string(nbsp) + "млн" + string(nbsp) + "₽"
	case round(100_000_00) >= 10: // a million and more: tenths of millions
		t := round(100_000_00)
		return fmt.Sprintf("%s%d,%d%sмлн%s₽", sign, t/10, t%10, string(nbsp), string(nbsp))
	case v >= 1_000_00:
		return sign + strconv.FormatUint(round(1_000_00), 10) + string(nbsp) + "тыс" + string(nbsp) + "₽"
	}
	return sign + strconv.FormatUint(round(100), 10) + string(nbsp) + "₽"
}
