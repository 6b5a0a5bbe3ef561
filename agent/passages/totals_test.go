package passages

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/library"
)

func TestRowsTotalFor(t *testing.T) {
	const head = "№ Дата Документ Дебет, руб. Кредит, руб."
	row := func(n, text string, score float64) library.ClauseHit {
		return library.ClauseHit{Unit: library.Unit{Kind: library.UnitRow, Index: len(n) * 10, Number: n, Lead: head, Text: text}, Score: score, Matched: 2}
	}
	place := func(h library.ClauseHit) string { return "таблица, строка " + h.Unit.Number }
	act := []library.ClauseHit{
		row("2", "2 10.07.2026 Продажа (УПД № 745), электроэнергия за июнь 14 318,42 14 318,42", 5),
		row("5", "5 10.08.2026 Продажа (УПД № 846), электроэнергия за июль 16 902,17 16 902,17", 5),
		row("11", "11 10.09.2026 Продажа (УПД № 951), электроэнергия за август 15 644,90 15 644,90", 4.9),
		row("4", "4 31.07.2026 Продажа (УПД № 781), аренда за июль 185 760,00 185 760,00", 2), // holds less of the question
	}
	amount := library.Asking{Amount: true}
	tests := []struct {
		q     string
		hits  []library.ClauseHit
		want  string // a part of the line; "" for none
		quote int    // the rows quoted
	}{
		{"сколько за электроэнергию выставили за квартал", act, "14\u00a0318,42\u00a0₽ \\+ 16\u00a0902,17\u00a0₽ \\+ 15\u00a0644,90\u00a0₽ = **46\u00a0865,49\u00a0₽**", 3},
		{"электроэнергия всего сколько", act, "Всего по строкам 2, 5, 11", 3},
		{"сколько за электроэнергию в июле", act, "", 0},                                                                                                       // one row asked, no total
		{"сколько всего", []library.ClauseHit{row("1", "1 Поставка 10 шт. 1 000,00 10 000,00", 5), row("2", "2 Поставка 5 шт. 2 000,00 10 000,00", 5)}, "", 0}, // a price and a sum: which?
	}
	for _, tt := range tests {
		line, rows := rowsTotalFor(Question{Text: tt.q, Asking: amount}, tt.hits, place)
		if tt.want == "" && line != "" || !strings.Contains(line, tt.want) || len(rows) != tt.quote {
			t.Errorf("%q: %q, %d rows; want %q, %d rows", tt.q, line, len(rows), tt.want, tt.quote)
		}
	}
}

func TestAreaTotalFor(t *testing.T) {
	lead := "2.1. Арендодатель передаёт Арендатору следующие помещения:"
	sub := func(n, text string) library.ClauseHit {
		return library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: n, Lead: lead, Text: text}}
	}
	store := sub("2.1.1", "2.1.1. складское помещение № 3 площадью 410,25 (четыреста десять целых двадцать пять сотых) кв. м;")
	office := sub("2.1.2", "2.1.2. офисное помещение № 3/1 площадью 18 кв. м.")
	other := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "4.1", Text: "4.1. Ставка — 800,00 руб. за 1 кв. м, площадь 410,25 кв. м."}}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	tests := []struct {
		q    string
		hits []library.ClauseHit
		want string
	}{
		{"площадь по аренде", []library.ClauseHit{store, office}, "Всего: **428,25 кв\\. м** \\(410,25 \\+ 18; п\\. 2\\.1\\.1, п\\. 2\\.1\\.2\\)\\."},
		{"сколько метров снимаем", []library.ClauseHit{store, office}, "Всего: **428,25 кв\\. м**"},
		{"какая площадь офиса", []library.ClauseHit{store, office}, ""},      // one of them named
		{"площадь по аренде", []library.ClauseHit{store, other}, ""},         // not subclauses of one clause
		{"ставка за метр площади", []library.ClauseHit{store, office}, ""},   // a rate asked
		{"когда передают помещения", []library.ClauseHit{store, office}, ""}, // no area asked
	}
	for _, tt := range tests {
		got := areaTotalFor(Question{Text: tt.q}, tt.hits, place)
		if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(got, tt.want) {
			t.Errorf("areaTotalFor(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}
