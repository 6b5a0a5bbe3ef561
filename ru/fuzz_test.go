package ru

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var fuzzSeeds = []string{
	"курс евро на вчера", "сколько стоил доллар 1 марта", "динамика юаня за март",
	"/rate USD CNY 15.01.2026", "/rate CNY 01.03.2026-31.03.2026", "/rate usd март 2026",
	"ключевая ставка за 2025", "кто нам должен на 31 марта", "на конец февраля", "за прошлый квартал",
	"с 1 по 15 марта", "2026-03-01..2026-03-31", "31.02.2026", "с 15 по 1 марта", "1-15 марта",
	"за последние 30 дней", "счёт 62.01, 1 250 000, П-15/2025", "01.03.2026—31.03.2026", "2025",
	"за III кв. 2025 г.", "с начала года", "на конец 1 квартала", "A$100 и £5", "usd/rub XYZ",
	"1-го", "с", "на конец", "99999999999999999999.1.1", "1..2..3", "..", "—", "и\u0306ена",
	"сальдо по сч. 62.01 на 1.05", "с 1.02 по 15.03", "за 1.02-15.03.2026", "на первое мая",
	"двадцать пятое", "на 1е число", "с 1-го по 15-е", "за янв.-мар.", "за 1-2 кв", "на 31.02",
	"с 9.30 до 18.30", "на конец 2 кв", "за 1 полугодие 2025", "во втором полугодии", "1 пол. 2025",
	"на конец полугодия", "за прошлое полугодие", "полгода назад я", "за пол года", "на конц марта",
	"за 3 полугодие", "1 полуг.",
}

func FuzzParsePeriod(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, int64(i)*86400*37)
	}
	f.Fuzz(func(t *testing.T, text string, sec int64) {
		// now anywhere from 1990 to 2100.
		const lo, span = 631152000, 3502828800
		if sec < 0 {
			sec = -(sec + 1)
		}
		now := time.Unix(lo+sec%span, 0)
		p, ok, err := ParsePeriod(text, now)
		if err != nil {
			var de *DateError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v is not a *DateError", err, err)
			}
			if ok || de.Reason == "" || de.Text == "" || !strings.Contains(text, de.Text) {
				t.Fatalf("bad error for %q: ok=%v %+v", text, ok, de)
			}
			return
		}
		if !ok {
			return
		}
		if p.From.After(p.To) {
			t.Fatalf("ParsePeriod(%q, %v): From %v after To %v", text, now, p.From, p.To)
		}
		if p.Kind == "" || p.Text == "" || !strings.Contains(text, p.Text) {
			t.Fatalf("ParsePeriod(%q): bad kind or text %+v", text, p)
		}
		if p.Kind == KindDay && !p.Single() {
			t.Fatalf("ParsePeriod(%q): a day that is not single %+v", text, p)
		}
		for _, x := range []time.Time{p.From, p.To} {
			if x.Location() != Moscow || x.Hour() != 0 || x.Minute() != 0 || x.Second() != 0 {
				t.Fatalf("ParsePeriod(%q): %v is not midnight Moscow", text, x)
			}
		}
	})
}

func FuzzFindCurrencies(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("курс евро, доллара и юаня; канадский доллар, $, €, ¥, £, /rate abc")
	f.Fuzz(func(t *testing.T, text string) {
		found, unknown := FindCurrencies(text)
		seen := map[string]bool{}
		for _, c := range found {
			if seen[c.Code] {
				t.Fatalf("FindCurrencies(%q): duplicate %s", text, c.Code)
			}
			seen[c.Code] = true
			if want, ok := LookupCurrency(c.Code); !ok || want != c {
				t.Fatalf("FindCurrencies(%q): %+v is not in the table", text, c)
			}
		}
		for _, u := range unknown {
			if len(u) != 3 || strings.ToUpper(u) != u || !isASCIILetters(u) {
				t.Fatalf("FindCurrencies(%q): bad unknown %q", text, u)
			}
			if _, ok := LookupCurrency(u); ok {
				t.Fatalf("FindCurrencies(%q): unknown %q is in the table", text, u)
			}
			if seen["?"+u] {
				t.Fatalf("FindCurrencies(%q): duplicate unknown %q", text, u)
			}
			seen["?"+u] = true
		}
		for _, s := range Suggest(text) {
			if _, ok := LookupCurrency(s.Code); !ok {
				t.Fatalf("Suggest(%q) = %+v", text, s)
			}
		}
	})
}
