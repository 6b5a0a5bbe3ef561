package ru

import "strings"

// Amounts in words, as 1C's ЧислоПрописью writes a sum on printed forms («Три миллиона семьдесят
// шесть тысяч пятьсот семьдесят девять рублей 33 копейки»; BP's act of reconciliation
// writes its closing debt so, ФорматироватьСуммуПрописьюПлатежногоДокумента).

var (
	unitsMasc = []string{"", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"}
	unitsFem  = []string{"", "одна", "две", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"}
	teens     = []string{"десять", "одиннадцать", "двенадцать", "тринадцать", "четырнадцать", "пятнадцать",
		"шестнадцать", "семнадцать", "восемнадцать", "девятнадцать"}
	tens     = []string{"", "", "двадцать", "тридцать", "сорок", "пятьдесят", "шестьдесят", "семьдесят", "восемьдесят", "девяносто"}
	hundreds = []string{"", "сто", "двести", "триста", "четыреста", "пятьсот", "шестьсот", "семьсот", "восемьсот", "девятьсот"}
	// scales: the word forms (one, few, many) and whether the scale is feminine (тысяча).
	scales = []struct {
		one, few, many string
		fem            bool
	}{
		{"тысяча", "тысячи", "тысяч", true},
		{"миллион", "миллиона", "миллионов", false},
		{"миллиард", "миллиарда", "миллиардов", false},
		{"триллион", "триллиона", "триллионов", false},
		{"квадриллион", "квадриллиона", "квадриллионов", false},
		{"квинтиллион", "квинтиллиона", "квинтиллионов", false}, // int64 ends at 9 квинтиллионов
	}
)

// triple writes 0–999 in words, feminine units when fem.
func triple(n int64, fem bool) []string {
	var w []string
	if h := n / 100; h > 0 {
		w = append(w, hundreds[h])
	}
	switch t := n % 100; {
	case t >= 10 && t < 20:
		w = append(w, teens[t-10])
	default:
		if t/10 > 0 {
			w = append(w, tens[t/10])
		}
		if u := t % 10; u > 0 {
			if fem {
				w = append(w, unitsFem[u])
			} else {
				w = append(w, unitsMasc[u])
			}
		}
	}
	return w
}

// IntegerWords writes a non-negative integer in words, masculine («один», «два»), or feminine
// («одна», «две») when fem; 0 is «ноль».
func IntegerWords(n int64, fem bool) string {
	if n == 0 {
		return "ноль"
	}
	var groups []int64
	for v := n; v > 0; v /= 1000 {
		groups = append(groups, v%1000)
	}
	var w []string
	for i := len(groups) - 1; i >= 0; i-- {
		g := groups[i]
		if g == 0 {
			continue
		}
		if i == 0 {
			w = append(w, triple(g, fem)...)
			continue
		}
		s := scales[i-1]
		w = append(w, triple(g, s.fem)...)
		w = append(w, Plural(int(g%1000), s.one, s.few, s.many))
	}
	return strings.Join(w, " ")
}

// RoublesInWords writes an amount in kopecks as 1C's ЧислоПрописью writes a sum in roubles on
// a printed form: the roubles in words with a capital letter, the kopecks in two digits —
// «Три миллиона семьдесят шесть тысяч пятьсот семьдесят девять рублей 33 копейки», «Ноль
// рублей 05 копеек», «Минус сто рублей 00 копеек» for a negative one.
func RoublesInWords(kopecks int64) string {
	minus := kopecks < 0
	u := uint64(kopecks)
	if minus {
		u = -u
	}
	rub, kop := int64(u/100), int(u%100)
	s := IntegerWords(rub, false) + " " + Plural(int(rub%1000), "рубль", "рубля", "рублей") + " " +
		string(rune('0'+kop/10)) + string(rune('0'+kop%10)) + " " + Plural(kop, "копейка", "копейки", "копеек")
	if minus {
		s = "минус " + s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}
