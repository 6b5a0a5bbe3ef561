package ru

import (
	"strings"
	"time"
)

// Vocabulary of dates and periods. Every word is in the normalized form of normWord:
// lower case, ё written as е.

// forms expands stems with endings into a set.
func forms(set map[string]int, v int, stems []string, endings ...string) {
	for _, s := range stems {
		for _, e := range endings {
			set[s+e] = v
		}
	}
}

var (
	softMonth = []string{"ь", "я", "е", "ю", "ем"}
	hardMonth = []string{"", "а", "е", "у", "ом"}
)

// monthWords maps every case form of a month name to its number: март, марта, марте…
var monthWords = func() map[string]int {
	w := map[string]int{}
	forms(w, 1, []string{"январ"}, softMonth...)
	forms(w, 2, []string{"феврал"}, softMonth...)
	forms(w, 3, []string{"март"}, hardMonth...)
	forms(w, 4, []string{"апрел"}, softMonth...)
	forms(w, 5, []string{"ма"}, "й", "я", "е", "ю", "ем")
	forms(w, 6, []string{"июн"}, softMonth...)
	forms(w, 7, []string{"июл"}, softMonth...)
	forms(w, 8, []string{"август"}, hardMonth...)
	forms(w, 9, []string{"сентябр"}, softMonth...)
	forms(w, 10, []string{"октябр"}, softMonth...)
	forms(w, 11, []string{"ноябр"}, softMonth...)
	forms(w, 12, []string{"декабр"}, softMonth...)
	return w
}()

// monthAbbr are the abbreviations of months, with or without a dot: «1 янв», «за дек.»,
// «янв-фев».
var monthAbbr = map[string]int{"янв": 1, "фев": 2, "февр": 2, "мар": 3, "апр": 4, "июн": 6,
	"июл": 7, "авг": 8, "сен": 9, "сент": 9, "окт": 10, "ноя": 11, "нояб": 11, "дек": 12}

// yearWords follow a year number: «2025 г.», «2025 года», «2025гг».
var yearWords = set("г", "гг", "год", "года", "году", "годом", "годы", "годах")

// Units of relative periods.
const (
	uDay = iota + 1
	uWeek
	uMonth
	uQuarter
	uHalf // a half-year, «полугодие»; «полгода» is six months, see [parser.windowUnit]
	uYear
)

// unitWords maps case forms of день, неделя, месяц, квартал, полугодие, год to a unit.
var unitWords = func() map[string]int {
	w := map[string]int{}
	forms(w, uDay, []string{"д"}, "ень", "ня", "ней", "ню", "нем", "ни", "нях")
	forms(w, uDay, []string{"сут"}, "ки", "ок", "кам")
	forms(w, uWeek, []string{"недел"}, "я", "и", "е", "ю", "ей", "ь", "ям", "ях")
	forms(w, uMonth, []string{"месяц"}, "", "а", "е", "у", "ем", "ы", "ев", "ам", "ах")
	forms(w, uQuarter, []string{"квартал"}, "", "а", "е", "у", "ом", "ы", "ов", "ам", "ах")
	w["кв"] = uQuarter
	w["мес"] = uMonth
	forms(w, uHalf, []string{"полугоди"}, "е", "я", "ю", "ем", "и", "й", "ям", "ями", "ях")
	w["полуг"] = uHalf
	forms(w, uYear, []string{"год"}, "", "а", "у", "ом", "ы", "ам", "ах")
	w["лет"] = uYear
	return w
}()

// abbrUnits are the unit abbreviations that may take a dot: «кв.», «мес.», «полуг.».
var abbrUnits = set("кв", "мес", "полуг")

// halfAbbr is the short abbreviation of «полугодие», «1 пол. 2025». As «пол» is also a
// floor, it is read only after a number or a Roman numeral and before a year, see
// [parser.halfCore].
const halfAbbr = "пол"

// numberWords are the number words of «за последние две недели».
var numberWords = map[string]int{"один": 1, "одна": 1, "одну": 1, "два": 2, "две": 2, "три": 3,
	"четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10,
	"одиннадцать": 11, "двенадцать": 12, "пятнадцать": 15, "двадцать": 20, "тридцать": 30,
	"сорок": 40, "шестьдесят": 60, "девяносто": 90, "сто": 100}

// relOffset reads прошлый/этот/следующий in any case and gender as an offset in units.
func relOffset(w string) (int, bool) {
	switch {
	case strings.HasPrefix(w, "позапрошл"):
		return -2, true
	case strings.HasPrefix(w, "прошл"), strings.HasPrefix(w, "предыдущ"), strings.HasPrefix(w, "прошедш"):
		return -1, true
	case strings.HasPrefix(w, "текущ"), strings.HasPrefix(w, "нынешн"), thisWords[w]:
		return 0, true
	case strings.HasPrefix(w, "следующ"), strings.HasPrefix(w, "будущ"):
		return 1, true
	}
	return 0, false
}

var thisWords = set("этот", "этого", "этом", "этому", "этим", "эта", "этой", "эту", "это", "этою")

// ordinalWord reads первый…четвертый in any case: «первого квартала».
func ordinalWord(w string) int {
	for i, p := range []string{"перв", "втор", "трет", "четверт"} {
		if strings.HasPrefix(w, p) && len(w) <= len(p)+6 {
			return i + 1
		}
	}
	return 0
}

// romanQuarter reads I–IV (Latin letters, or Ukrainian і), of quarters and half-years.
var romanQuarter = map[string]int{"i": 1, "ii": 2, "iii": 3, "iv": 4, "і": 1, "іі": 2, "ііі": 3, "іv": 4}

// dayOrdinals maps the ordinal words of days 1–20 and 30 in the cases a date takes
// («первое», «пятнадцатого», «третьему») to their number; 21–29 and 31 are «двадцать»
// or «тридцать» before one of the first nine.
var dayOrdinals = func() map[string]int {
	w := map[string]int{}
	stems := []string{"перв", "втор", "трет", "четверт", "пят", "шест", "седьм", "восьм", "девят",
		"десят", "одиннадцат", "двенадцат", "тринадцат", "четырнадцат", "пятнадцат",
		"шестнадцат", "семнадцат", "восемнадцат", "девятнадцат", "двадцат"}
	for i, s := range stems {
		forms(w, i+1, []string{s}, "ое", "ого", "ому", "ье", "ьего", "ьему")
	}
	forms(w, 30, []string{"тридцат"}, "ое", "ого", "ому")
	return w
}()

// accountWord reports whether w names an account or a report on one, after which a
// number is an account code, not a date: «счёт», «сч», «субсчёт», «сальдо», «остаток»,
// «оборот», «оборотка», «ОСВ» in any case.
func accountWord(w string) bool {
	if w == "сч" || w == "осв" || w == "сальдо" {
		return true
	}
	for _, p := range []string{"счет", "субсчет", "остат", "оборот"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// ordSuffix are endings written after a number: «1-го», «1-е», «2-й», «3й».
var ordSuffix = set("го", "е", "ое", "ого", "й", "ый", "ий", "м", "ом", "му", "ому", "я", "ая", "ю", "ую")

// dayWords are the named days with their offset from today.
var dayWords = map[string]int{"сегодня": 0, "вчера": -1, "позавчера": -2, "завтра": 1, "послезавтра": 2}

// dayAdjectives are «сегодняшний», «вчерашний»… read by prefix, with their offset.
var dayAdjectives = []struct {
	prefix string
	off    int
}{{"сегодняшн", 0}, {"позавчерашн", -2}, {"вчерашн", -1}, {"послезавтрашн", 2}, {"завтрашн", 1}}

// edgeWords are «конец» and «начало» in any case: true for the end.
var edgeWords = map[string]bool{"конец": true, "конца": true, "концу": true, "конце": true,
	"концом": true, "окончание": true, "окончания": true,
	"начало": false, "начала": false, "началу": false, "начале": false, "началом": false}

// edgeTypo reads w as a form of «конец» or «начало» with one typo — a letter missing,
// extra or wrong, or two neighbours swapped — but the first letter right and at least
// four letters: «конц», «начло», «нaчала». It returns true for the end. Callers take it
// only right after «на» and before a period (see [parser.endpoint]), where no other word
// of that shape fits.
func edgeTypo(w string) (isEnd, ok bool) {
	r := []rune(w)
	if len(r) < 4 {
		return false, false
	}
	for form, end := range edgeWords {
		f := []rune(form)
		if f[0] == r[0] && f[0] != 'о' && oneEdit(r, f) {
			return end, true
		}
	}
	return false, false
}

// oneEdit reports whether a and b differ by exactly one insertion, deletion,
// substitution or swap of neighbouring letters.
func oneEdit(a, b []rune) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		var diff []int
		for i := range a {
			if a[i] != b[i] {
				diff = append(diff, i)
				if len(diff) > 2 {
					return false
				}
			}
		}
		switch len(diff) {
		case 1:
			return true
		case 2:
			i, j := diff[0], diff[1]
			return j == i+1 && a[i] == b[j] && a[j] == b[i]
		}
		return false
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		for ; i < len(a); i++ {
			if a[i] != b[i+1] {
				return false
			}
		}
		return true
	}
	return false
}

// quantityPrefixes start the words that make the number before them an amount, not a
// year: «за 2000 рублей», «2025 шт.».
var quantityPrefixes = []string{"руб", "р", "коп", "тыс", "т", "млн", "млрд", "шт", "доллар", "долар",
	"евро", "юан", "процент", "пункт", "п", "пп", "чел", "ед", "ч", "час", "мин", "сек", "км", "кг", "м"}

// isQuantityWord reports whether w makes the number before it an amount.
func isQuantityWord(w string) bool {
	for _, p := range quantityPrefixes {
		if w == p || (len(p) > 2 && strings.HasPrefix(w, p)) {
			return true
		}
	}
	return false
}

// set builds a set of words.
func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// weekdayWords are the case forms of the days of the week («в пятницу», «на понедельник»,
// «пятницы»); «среднем» is no Wednesday.
var weekdayWords = func() map[string]time.Weekday {
	w := map[string]time.Weekday{}
	add := func(d time.Weekday, forms ...string) {
		for _, f := range forms {
			w[f] = d
		}
	}
	add(time.Monday, "понедельник", "понедельника", "понедельнику", "пн")
	add(time.Tuesday, "вторник", "вторника", "вторнику", "вт")
	add(time.Wednesday, "среда", "среду", "среды", "среде", "ср")
	add(time.Thursday, "четверг", "четверга", "четвергу", "чт")
	add(time.Friday, "пятница", "пятницу", "пятницы", "пятнице", "пт")
	add(time.Saturday, "суббота", "субботу", "субботы", "субботе", "сб")
	add(time.Sunday, "воскресенье", "воскресенья", "воскресенью", "вс")
	return w
}()
