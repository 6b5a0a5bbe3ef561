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
