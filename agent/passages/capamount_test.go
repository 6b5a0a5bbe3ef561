package passages

import (
	"slices"
	"testing"

	"github.com/finbot/finbot/library"
)

func TestSameWord(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"полам", "пола", true},
		{"полы", "пола", true},
		{"кровлю", "кровли", true},
		{"пол", "полиуретанового", false}, // a short word is no prefix of a long one
		{"для", "для", false},             // words every text has
		{"этап", "этапа", true},
		{"мусор", "муж", false},
	} {
		if got := sameWord(c.a, c.b); got != c.want {
			t.Errorf("sameWord(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestCapBase(t *testing.T) {
	for _, c := range []struct{ words, want string }{
		{"стоимости этапа", "row"},
		{"Цены Договора дополнительными соглашениями ", "price"},
		{"абонентской платы без НДС за этот период", "monthly"},
		{"неоплаченной суммы", ""}, // a sum the documents do not state
		{"стоимости перевозки", ""},
	} {
		if got := capBase(c.words); got != c.want {
			t.Errorf("capBase(%q) = %q, want %q", c.words, got, c.want)
		}
	}
}

func TestNetOfMonthly(t *testing.T) {
	if k, ok := netOfMonthly("Абонентская плата составляет 128 100,00 рублей в месяц, в том числе НДС 22 % — 23 100,00 рубля.", 12810000); !ok || k != 10500000 {
		t.Errorf("with VAT within: %d %v", k, ok)
	}
	if k, ok := netOfMonthly("Абонентская плата составляет 180 000,00 рублей в месяц без НДС.", 18000000); !ok || k != 18000000 {
		t.Errorf("without VAT: %d %v", k, ok)
	}
	if _, ok := netOfMonthly("Абонентская плата составляет 97 600,00 рублей в месяц.", 9760000); ok {
		t.Error("no VAT stated: no net")
	}
}

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

func TestSplitSigns(t *testing.T) {
	got := splitSigns("Руководитель организации: Генеральный директор В. А. Никитин Главный бухгалтер: С. Н. Орлова Индивидуальный предприниматель: —")
	want := []string{"Руководитель организации: Генеральный директор В. А. Никитин", "Главный бухгалтер: С. Н. Орлова", "Индивидуальный предприниматель: —"}
	if !slices.Equal(got, want) {
		t.Errorf("splitSigns = %q, want %q", got, want)
	}
	for _, l := range want[:2] {
		if !signLine.MatchString(l) {
			t.Errorf("%q is no signature line", l)
		}
	}
	if signLine.MatchString("Дата отгрузки, передачи (сдачи): 27.11.2026") {
		t.Error("a date line read as a signature")
	}
}
