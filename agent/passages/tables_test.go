package passages

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

// TestTableAnswer: questions about a table as a whole, answered from its cells — a tariff
// sheet unlike the document set's price list, with a column of few values (the VAT rate) and
// rows priced per different units.
func TestTableAnswer(t *testing.T) {
	const head = "Код | Услуга | Ед. | Тариф без НДС, руб. | НДС | Тариф с НДС, руб."
	var units []library.Unit
	for i, r := range []string{
		"Т-01 | Перевозка газелью по городу | час | 1 500,00 | 22% | 1 830,00",
		"Т-02 | Перевозка фурой по области | км | 95,00 | 22% | 115,90",
		"Т-03 | Погрузка и разгрузка | час | 800,00 | 22% | 976,00",
		"Т-04 | Страхование груза | рейс | 1 200,00 | без НДС | 1 200,00",
		"Т-05 | Простой газели | час | 700,00 | 22% | 854,00",
		"Т-06 | Перевозка газелью межгород | км | 45,00 | 22% | 54,90",
	} {
		units = append(units, library.Unit{Kind: library.UnitRow, Number: string(rune('1' + i)), Lead: head, Text: r, Index: i})
	}
	cd := library.NewClauseDoc("t", "Тарифы перевозки 2026.xlsx", units)
	rds := []*readDoc{{cd: cd}}
	docs := []docstore.Doc{{Meta: docstore.Meta{ID: "t", Title: "Тарифы перевозки 2026.xlsx", Format: "xlsx"}}}
	tests := []struct {
		q    string
		want []string // parts of the answer; nil: not a question about the table as a whole
		not  string
	}{
		{"самая дешевая перевозка газелью", []string{"**Т\\-06 Перевозка газелью межгород**", "45,00", "разные единицы"}, "фурой"},
		{"какой самый дорогой тариф с ндс", []string{"**Т\\-01 Перевозка газелью по городу**", "1\u00a0830,00"}, ""},
		{"какие услуги ндс не облагается", []string{"1 позиция из 6", "**Т\\-04 Страхование груза**"}, "Погрузка"},
		{"какой ндс в тарифах", []string{"**22%** — 5 позиций", "**без НДС** — 1 позиция: Т\\-04 Страхование груза"}, ""},
		{"сколько всего позиций в тарифах", []string{"**6** позиций"}, ""},
		{"сколько стоит погрузка", nil, ""},                // one row: the row answers
		{"самый дешевый кран", nil, ""},                    // no row is a crane
		{"какая ставка ндс на страхование груза", nil, ""}, // one row's cell, not the column
		{"погрузка цена без ндс", nil, ""},                 // a row named whose rate is 22 %: its price without VAT, not the rows without VAT
	}
	for _, tt := range tests {
		hits := library.RankClauses([]library.ClauseDoc{cd}, library.ClauseQuestion{Text: tt.q})
		for i := range hits {
			hits[i].Named = true // the question is about the one sheet
		}
		r, ok := tableAnswer(Question{Text: tt.q}, rds, docs, hits)
		if ok != (tt.want != nil) {
			t.Errorf("%q: answered %v, want %v:\n%s", tt.q, ok, tt.want != nil, r.Text)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(r.Text, w) {
				t.Errorf("%q: no %q in\n%s", tt.q, w, r.Text)
			}
		}
		if tt.not != "" && strings.Contains(r.Text, tt.not) {
			t.Errorf("%q: %q in\n%s", tt.q, tt.not, r.Text)
		}
	}
}

// TestWhichOfTwo: «что дешевле A или B» compares the two rows the sides name by their unit
// price — a side of a figure alone takes the other's words («оксфорд 240 или 600»), a model's
// number is its name's («240» of «240D») — and gives no verdict where a side names rows of
// different prices; a side that names no row is no comparison.
func TestWhichOfTwo(t *testing.T) {
	const head = "Артикул | Наименование | Ед. изм. | Цена без НДС, руб. | Ставка НДС | Цена с НДС, руб."
	var units []library.Unit
	for i, r := range []string{
		"OX600 | Ткань «Оксфорд 600D» PU, чёрная | м | 209,00 | 22% | 254,98",
		"OX240 | Ткань «Оксфорд 240D» PU, синяя | м | 142,00 | 22% | 173,24",
		"FL280 | Флис 280 г/м², тёмно-синий | м | 359,00 | 22% | 437,98",
		"FL190 | Флис 190 г/м², серый | м | 238,00 | 22% | 290,36",
		"Итого | 948,00 | | | |",
	} {
		units = append(units, library.Unit{Kind: library.UnitRow, Number: string(rune('1' + i)), Lead: head, Text: r, Index: i})
	}
	cd := library.NewClauseDoc("p", "Прайс ткани.xlsx", units)
	rds := []*readDoc{{cd: cd}}
	docs := []docstore.Doc{{Meta: docstore.Meta{ID: "p", Title: "Прайс ткани.xlsx", Format: "xlsx"}}}
	for _, tt := range []struct {
		q    string
		want []string // nil: no comparison
	}{
		{"что дешевле оксфорд 240 или 600", []string{"Дешевле — **Ткань «Оксфорд 240D» PU, синяя**", "Против 209,00 ₽", "разница 67,00 ₽"}},
		{"оксфорд 600 или флис 190 что дороже", []string{"Дороже — **Флис 190 г/м², серый**", "разница 29,00 ₽"}},
		{"что дешевле флис или оксфорд 600", []string{"Цены по таблице", "Флис 280", "Флис 190", "Оксфорд 600D"}}, // two fleeces, two prices
		{"что дешевле с ндс оксфорд 240 или флис 190", []string{"Цена с НДС: 173,24 ₽", "Против 290,36 ₽"}},
		{"что дешевле оксфорд или кран", nil},
	} {
		hits := library.RankClauses([]library.ClauseDoc{cd}, library.ClauseQuestion{Text: tt.q})
		for i := range hits {
			hits[i].Named = true
		}
		r, ok := tableAnswer(Question{Text: tt.q}, rds, docs, hits)
		if ok != (tt.want != nil) {
			t.Errorf("%q: answered %v:\n%s", tt.q, ok, r.Text)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(r.Text), w) {
				t.Errorf("%q: no %q in\n%s", tt.q, w, r.Text)
			}
		}
	}
}
