package retrieval

import (
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/ru"
)

// months maps Russian month names (genitive, as in «1 марта», and
// nominative) to month numbers.
var months = func() map[string]int {
	w := map[string]int{}
	for m := time.January; m <= time.December; m++ {
		w[ru.MonthGenitive(m)], w[ru.MonthName(m)] = int(m), int(m)
	}
	return w
}()

// emitDate recognises numeric dates in a digit-only token — «01.03.2026»,
// «1.3.26», «01/03/2026», «2026-03-01» — and emits "2026-03-01" and the
// year-less "--03-01". It reports false for other shapes.
func (t *tokenizer) emitDate() bool {
	if len(t.segs) != 3 {
		return false
	}
	s0, s1, s2 := t.segs[0], t.segs[1], t.segs[2]
	j1, j2 := t.norm[s0.end], t.norm[s1.end]
	if j1 != j2 || s0.grouped {
		return false
	}
	num := func(sg segment) int { return atoi(t.norm[sg.start:sg.end]) }
	var y, m, d int
	switch {
	case (j1 == '.' || j1 == '/') && s0.digits <= 2 && s1.digits <= 2 && (s2.digits == 4 || s2.digits == 2):
		d, m, y = num(s0), num(s1), num(s2)
		if s2.digits == 2 {
			y += 2000
		}
	case j1 == '-' && s0.digits == 4 && s1.digits <= 2 && s2.digits <= 2:
		y, m, d = num(s0), num(s1), num(s2)
	default:
		return false
	}
	if !validDate(y, m, d) {
		return false
	}
	t.emitISODate(y, m, d)
	return true
}

// textualDate looks past a 1–2 digit day for «марта [2026]» (a closing
// quote may follow the day: «31» марта 2026 г.) and emits the date terms.
func (t *tokenizer) textualDate(s string, end int, day []byte) bool {
	d := atoi(day)
	if d < 1 || d > 31 {
		return false
	}
	j, space := end, false
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if unicode.IsSpace(r) {
			space = true
		} else if r != '»' && r != '"' && r != '”' && r != '\'' {
			break
		}
		j += size
	}
	if !space {
		return false
	}
	t.tmp, j = appendCyrillic(t.tmp[:0], s, j, 9)
	m := months[string(t.tmp)]
	if m == 0 {
		return false
	}
	if j < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[j:]); isLetterRune(r) {
			return false
		}
	}
	y := 0
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
		j++
	}
	if j+4 <= len(s) && isDigit(s[j]) && isDigit(s[j+1]) && isDigit(s[j+2]) && isDigit(s[j+3]) &&
		(j+4 == len(s) || !isDigit(s[j+4])) {
		y = atoi([]byte(s[j : j+4]))
	}
	if !validDate(y, m, d) {
		y = 0
		if !validDate(2000, m, d) { // 29 февраля without a year is fine
			return false
		}
	}
	t.emitISODate(y, m, d)
	return true
}

// emitISODate emits "YYYY-MM-DD" (when y > 0) and "--MM-DD".
func (t *tokenizer) emitISODate(y, m, d int) {
	if y > 0 {
		t.out = append(t.out[:0], byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10),
			'-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
		t.emit(t.out)
	}
	t.out = append(t.out[:0], '-', '-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
	t.emit(t.out)
}

var daysIn = [13]int{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

func validDate(y, m, d int) bool {
	if y < 1900 || y > 2199 || m < 1 || m > 12 || d < 1 || d > daysIn[m] {
		return false
	}
	if m == 2 && d == 29 {
		return y%4 == 0 && (y%100 != 0 || y%400 == 0)
	}
	return true
}

// atoi parses a short run of ASCII digits (callers bound the length).
func atoi(b []byte) int {
	n := 0
	for _, c := range b {
		n = n*10 + int(c-'0')
	}
	return n
}
