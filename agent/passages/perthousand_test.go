package passages

import (
	"testing"

	"github.com/finbot/finbot/library"
)

func TestPerThousandRate(t *testing.T) {
	for _, c := range []struct {
		kind       library.UnitKind
		text, rate string
		ok         bool
	}{
		{library.UnitRow, "СТ-01 | Страхование грузов на складе (страховая премия) | 1 000 руб. стоимости груза в месяц | 0.35 | без НДС | 0.35", "0,35", true},
		{library.UnitClause, "Премия составляет 1,20 руб. за каждую 1 000 руб. стоимости партии.", "1,20", true},
		{library.UnitRow, "ТР-01 | Перевозка | рейс | 95,00", "", false},
		{library.UnitClause, "Штраф 1 000 рублей за каждый случай.", "", false},
	} {
		rate, _, _, ok := perThousandRate(library.Unit{Kind: c.kind, Text: c.text})
		if ok != c.ok || rate != c.rate {
			t.Errorf("perThousandRate(%q) = %q, %v; want %q, %v", c.text, rate, ok, c.rate, c.ok)
		}
	}
}

func TestMonthsAsked(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int
		ok   bool
	}{{"на 8 млн в мес", 0, false}, {"за квартал", 3, true}, {"за 3 месяца", 3, true}, {"на 6 мес.", 6, true}, {"за год", 12, true}} {
		if n, ok := monthsAsked(c.text); n != c.n || ok != c.ok {
			t.Errorf("monthsAsked(%q) = %d, %v; want %d, %v", c.text, n, ok, c.n, c.ok)
		}
	}
}
