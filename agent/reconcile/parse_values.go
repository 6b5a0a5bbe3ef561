package reconcile

// The values of a counterparty's act as people and programs write them: dates, amounts,
// document numbers, months.

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// mskDay is a calendar date at midnight Moscow, as Line.Date holds it.
func mskDay(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, ru.Moscow) }

var (
	// «05.03.2026», «05.03.26», «5/3/2026», «05-03-2026»
	reDMY = regexp.MustCompile(`^(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})(?:\s*г\.?)?(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?$`)
	// «2026-03-05», «2026-03-05T00:00:00Z» (an ISO date cell)
	reISO = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$`)
	// «5 марта 2026», «05 марта 2026 г.»
	reWords = regexp.MustCompile(`^(\d{1,2})\s+([а-яё]+)\s+(\d{4})(?:\s*г\.?)?$`)
	// a date inside a text: «Продажа (05.03.2026 № 7)», «УПД № 18 от 31.01.26»
	reDateIn = regexp.MustCompile(`(\d{1,2})[./](\d{1,2})[./](\d{4}|\d{2})`)
)

// parseDate reads a whole cell as a date; raw numbers of a workbook («46027», «46027.5») are
// Excel's serial dates when serial is set (the cell is in a date column).
func parseDate(s string, serial bool) (time.Time, bool) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", " "))
	if m := reDMY.FindStringSubmatch(s); m != nil {
		return dmy(m[1], m[2], m[3])
	}
	if m := reISO.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		return valid(y, mo, d)
	}
	if m := reWords.FindStringSubmatch(strings.ToLower(s)); m != nil {
		if mo := monthOf(m[2]); mo > 0 {
			d, _ := strconv.Atoi(m[1])
			y, _ := strconv.Atoi(m[3])
			return valid(y, int(mo), d)
		}
	}
	if serial {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 20000 && f < 80000 {
			// Excel's day 1 is 1900-01-01 and it counts a 29 February 1900 that never was:
			// from March 1900 on, serial n is 1899-12-30 + n days.
			t := time.Date(1899, 12, 30, 0, 0, 0, 0, ru.Moscow).AddDate(0, 0, int(f))
			return mskDay(t.Year(), t.Month(), t.Day()), true
		}
	}
	return time.Time{}, false
}

// dateIn finds the first date written inside a text.
func dateIn(s string) (time.Time, bool) {
	for _, m := range reDateIn.FindAllStringSubmatch(s, -1) {
		if t, ok := dmy(m[1], m[2], m[3]); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

func dmy(ds, ms, ys string) (time.Time, bool) {
	d, _ := strconv.Atoi(ds)
	m, _ := strconv.Atoi(ms)
	y, _ := strconv.Atoi(ys)
	if len(ys) == 2 {
		y += 2000 // acts are of this century: «05.03.26» is 2026
	}
	return valid(y, m, d)
}

func valid(y, m, d int) (time.Time, bool) {
	if y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1 {
		return time.Time{}, false
	}
	t := mskDay(y, time.Month(m), d)
	if t.Day() != d {
		return time.Time{}, false // 31.02
	}
	return t, true
}

// months are the stems of month names in any case, and their abbreviations.
var months = []struct {
	stem string
	m    time.Month
}{
	{"январ", time.January}, {"янв", time.January}, {"феврал", time.February}, {"фев", time.February},
	{"март", time.March}, {"мар", time.March}, {"апрел", time.April}, {"апр", time.April},
	{"ма", time.May}, {"июн", time.June}, {"июл", time.July}, {"август", time.August}, {"авг", time.August},
	{"сентябр", time.September}, {"сен", time.September}, {"октябр", time.October}, {"окт", time.October},
	{"ноябр", time.November}, {"ноя", time.November}, {"декабр", time.December}, {"дек", time.December},
}

// monthOf is the month a word names («марта», «Март», «мар.»), 0 for none.
func monthOf(w string) time.Month {
	w = strings.TrimSuffix(strings.ToLower(w), ".")
	for _, x := range months {
		if x.stem == "ма" {
			if w == "май" || w == "мая" || w == "мае" {
				return time.May
			}
			continue
		}
		if strings.HasPrefix(w, x.stem) && (len(x.stem) >= 6 || len([]rune(w)) <= len([]rune(x.stem))+3) {
			return x.m
		}
	}
	return 0
}

// reMonth is a month with its year: «Январь 2026», «январь 2026 г.», «за январь 2026», «01.2026»,
// «2026-01».
var (
	reMonthWord = regexp.MustCompile(`(?i)(?:^|\s)([а-яё]+)\.?\s+(\d{4})(?:\s*г(?:ода?)?\.?)?(?:\s|$)`)
	reMonthNum  = regexp.MustCompile(`^(\d{1,2})[./](\d{4})$|^(\d{4})-(\d{2})$`)
)

// monthIn finds a month of a year named in a text («Обороты за январь 2026», «Февраль 2026»):
// the first day of that month.
func monthIn(s string) (time.Time, bool) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", " "))
	if m := reMonthNum.FindStringSubmatch(s); m != nil {
		mo, y := m[1], m[2]
		if mo == "" {
			y, mo = m[3], m[4]
		}
		mi, _ := strconv.Atoi(mo)
		yi, _ := strconv.Atoi(y)
		return valid(yi, mi, 1)
	}
	for _, m := range reMonthWord.FindAllStringSubmatch(s, -1) {
		if mo := monthOf(m[1]); mo > 0 {
			y, _ := strconv.Atoi(m[2])
			return valid(y, int(mo), 1)
		}
	}
	return time.Time{}, false
}

var (
	reAmountRu = regexp.MustCompile(`^\d{1,3}(?: \d{3})+(?:,\d{1,2})?$|^\d+(?:,\d{1,2})?$`)
	reAmountEn = regexp.MustCompile(`^\d{1,3}(?:,\d{3})+\.\d{1,2}$|^\d+\.\d{1,2}$`) // «1,234» alone is ambiguous: no amount
	reAmountX  = regexp.MustCompile(`^\d{1,3}(?:\.\d{3})+,\d{2}$`)                  // «1.234,56»
	reRawNum   = regexp.MustCompile(`^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$`)
)

// parseAmount reads a whole cell as an amount of money, exactly: «1 234,56», «1234.56»,
// «1 234,56 руб.», «(1 234,56)» and «−1 234,56» negative, «1,234.56», no-break spaces. raw is a
// workbook's stored number («394170.36», «394170.35999999999»), rounded to kopecks. An empty or
// a dash cell is no amount.
func parseAmount(s string, raw bool) (onec.Kopecks, bool) {
	s = strings.TrimSpace(s)
	if raw && reRawNum.MatchString(s) {
		d, err := decimal.NewFromString(s)
		if err != nil {
			return 0, false
		}
		return onec.Kopecks(d.Shift(2).Round(0).IntPart()), true
	}
	s = strings.NewReplacer("\u00a0", " ", "\u202f", " ", "\u2009", " ", "−", "-", "–", "-").Replace(s)
	s = strings.TrimSpace(s)
	neg := false
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		neg, s = true, strings.TrimSpace(s[1:len(s)-1])
	}
	for _, suf := range []string{"руб.", "руб", "р.", "₽", "RUB", "rub"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, suf))
	}
	if strings.HasPrefix(s, "-") {
		neg, s = !neg, strings.TrimSpace(s[1:])
	}
	var dec string
	switch {
	case reAmountRu.MatchString(s):
		dec = strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), ",", ".")
	case reAmountEn.MatchString(s):
		dec = strings.ReplaceAll(s, ",", "")
	case reAmountX.MatchString(s):
		dec = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	default:
		return 0, false
	}
	k, err := onec.ParseKopecks(dec)
	if err != nil {
		return 0, false
	}
	if neg {
		k = -k
	}
	return k, true
}

var (
	// «№ 7», «№7», «N 15», «номер 15»
	reNumberMark = regexp.MustCompile(`(?i)(?:№|N|номер)\s*([A-Za-zА-Яа-яЁё0-9][A-Za-zА-Яа-яЁё0-9/_-]*)`)
	// BP's «Продажа (7 от 05.03.2026)», «п/п 112 от 15.01.2026»
	reNumberFrom = regexp.MustCompile(`(?i)([A-Za-zА-Яа-яЁё0-9][A-Za-zА-Яа-яЁё0-9/_-]*)\s+от\s+\d{1,2}[./]\d{1,2}[./]\d{2,4}`)
	reLastDigits = regexp.MustCompile(`\d+`)
)

// numberIn finds a document's number inside a text: after «№», or before «от <date>».
func numberIn(s string) string {
	if m := reNumberMark.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	if m := reNumberFrom.FindStringSubmatch(s); m != nil && !strings.EqualFold(m[1], "договор") {
		return m[1]
	}
	return ""
}

// numberKey is what two sides' numbers of one document share: BP prints «СВ00-000007» as «7» on
// the forms it sends (the prefix and leading zeros dropped), a counterparty writes «7» or «000007».
// The key is the last group of digits without leading zeros, or the whole number in upper case
// when it has no digits; "" for none.
func numberKey(n string) string {
	n = strings.ToUpper(strings.TrimSpace(n))
	if n == "" {
		return ""
	}
	ds := reLastDigits.FindAllString(n, -1)
	if len(ds) == 0 {
		return n
	}
	k := strings.TrimLeft(ds[len(ds)-1], "0")
	if k == "" {
		k = "0"
	}
	return k
}
