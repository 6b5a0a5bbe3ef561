package postcheck

import (
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/facts"
)

// known is what the answer's numbers may be: everything the facts mention, the counts of the
// payload, and the dates and periods of the question (addQuestion).
type known struct {
	values    map[string]bool // numbers, normalised
	dates     map[string]bool // 2026-03-31
	dayMonths map[string]bool // --03-31, of every date and of numbers like «31.03»
	years     map[string]bool // years of the dates
	times     map[string]bool // 13:30
	codes     map[string]bool // №СВ00-000050
	counts    map[string]bool // see addCounts
	// periods are the lengths of the question's periods («за последние 3 месяца»): allowed
	// in the answer only before a period word.
	periods map[string]bool
}

func newKnown(p facts.Payload, question string) *known {
	k := &known{
		values: map[string]bool{}, dates: map[string]bool{}, dayMonths: map[string]bool{},
		years: map[string]bool{}, times: map[string]bool{}, codes: map[string]bool{},
		counts: map[string]bool{}, periods: map[string]bool{},
	}
	for _, s := range factTexts(p) {
		k.add(s)
	}
	k.addQuestion(question)
	k.addCounts(p)
	return k
}

// addQuestion records what of the question the answer may repeat without the facts having it:
// its dates and the parts of dates and periods — a date («15.01.2026», «31 марта»), a year
// («2026»), a day and month written as a number («31.03»), the length of a period («за 3
// месяца»). A sum, a rate, a count, a time or a document number the user typed is not a fact:
// the answer may state it only if the facts have it.
func (k *known) addQuestion(question string) {
	text := unescape(question)
	for _, t := range scan(text, false) {
		switch t.kind {
		case tDate, tDayMonth:
			k.addToken(t)
		case tNumber:
			switch {
			case isYear(t.norm):
				k.years[t.norm] = true
			case t.alt != "":
				k.dayMonths[t.alt] = true
			case periodWordAfter(text, t.end):
				k.periods[t.norm] = true
			}
		}
	}
}

// periodWords make the number before them the length of a period: «3 дня», «2 недели»,
// «6 месяцев», «2 квартала», «5 лет».
var periodWords = map[string]bool{
	"день": true, "дня": true, "дней": true, "дн": true,
	"неделя": true, "недели": true, "неделю": true, "недель": true,
	"месяц": true, "месяца": true, "месяцев": true, "мес": true,
	"квартал": true, "квартала": true, "кварталов": true,
	"полугодие": true, "полугодия": true, "полугодий": true,
	"год": true, "года": true, "лет": true,
}

// periodWordAfter reports whether the word right after position i of text is a period word.
func periodWordAfter(text string, i int) bool {
	j := skipSpaces(text, i)
	return periodWords[strings.ToLower(text[j:lettersEnd(text, j)])]
}

// add records the numbers of a fact text, read leniently (scan).
func (k *known) add(text string) {
	for _, t := range scan(unescape(text), false) {
		k.addToken(t)
	}
}

// addToken records one token of a fact text.
func (k *known) addToken(t token) {
	switch t.kind {
	case tNumber:
		k.values[t.norm] = true
		if t.alt != "" {
			k.dayMonths[t.alt] = true
		}
	case tDate:
		k.dates[t.norm] = true
		if len(t.norm) == len("2026-03-31") && t.norm[4] == '-' {
			k.dayMonths["-"+t.norm[4:]] = true
			k.years[t.norm[:4]] = true
		}
	case tDayMonth:
		k.dayMonths[t.norm] = true
	case tTime:
		k.times[t.norm] = true
	case tCode:
		k.codes[t.norm] = true
	}
}

// addCounts allows the numbers the model may count itself: the number of items, of sources,
// of groups and of items in each group, the total before the limit and how many items the
// limit left out («ещё 5 (по запросу могу вывести)»).
func (k *known) addCounts(p facts.Payload) {
	n := []int{len(p.Items), len(p.Sources), p.Count()}
	if p.Count() > len(p.Items) {
		n = append(n, p.Count()-len(p.Items))
	}
	groups := map[string]int{}
	for _, it := range p.Items {
		if it.Group != "" {
			groups[it.Group]++
		}
	}
	if len(groups) > 0 {
		n = append(n, len(groups))
		for _, c := range groups {
			n = append(n, c)
		}
	}
	for _, c := range n {
		k.counts[strconv.Itoa(c)] = true
	}
}

// has reports whether an answer token is known; text is the answer the token was read from:
//   - a number is in the facts, or is one of the counts, or is a year 1990–2100 of a date in
//     the facts or the question, or (written «31.03») is the day and month of such a date, or
//     is the length of a period of the question and again stands before a period word;
//   - a date is a date of the facts or the question, in any format;
//   - a day-month without a year («31 марта») is the day and month of any such date;
//   - a time is a time of the facts;
//   - a document number or code is one of the facts, or, all digits («№ 15»), is a number of
//     them.
func (k *known) has(t token, text string) bool {
	switch t.kind {
	case tNumber:
		return k.values[t.norm] || k.counts[t.norm] || isYear(t.norm) && k.years[t.norm] ||
			t.alt != "" && k.dayMonths[t.alt] || k.periods[t.norm] && periodWordAfter(text, t.end)
	case tDate:
		return k.dates[t.norm]
	case tDayMonth:
		return k.dayMonths[t.norm]
	case tTime:
		return k.times[t.norm]
	case tCode:
		if k.codes[t.norm] {
			return true
		}
		code := strings.TrimPrefix(t.norm, "№")
		return code != "" && asciiDigits(code) == len(code) && k.values[decimal(code, "", 0)]
	}
	return false
}

func isYear(norm string) bool {
	y, err := strconv.Atoi(norm)
	return err == nil && len(norm) == 4 && y >= 1990 && y <= 2100
}

// inventedNumbers reports the answer's numbers, dates, times and document numbers that are
// not known, except inside skip (artifacts and the model's own source list, reported already),
// and where each is.
func inventedNumbers(text string, skip []span, k *known) ([]Violation, []span) {
	var vs []Violation
	var at []span
	for _, t := range scan(text, true) {
		if overlaps(t.span, skip) || k.has(t, text) {
			continue
		}
		vs = append(vs, Violation{InventedNumber, t.detail()})
		at = append(at, t.span)
	}
	return vs, at
}
