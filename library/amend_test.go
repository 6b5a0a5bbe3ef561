package library

import (
	"slices"
	"testing"
)

func TestRowNumbers(t *testing.T) {
	for text, want := range map[string][]string{
		"С 01 ноября 2026 г. строки 1 и 3 Спецификации № 1 изложить в следующей редакции:":         {"1", "3"},
		"Цену Товара второй партии (позиции 4–6 Спецификации № 1) установить в следующем размере:": {"4", "5", "6"},
		"строк 2, 5 и 7": {"2", "5", "7"},
	} {
		if got := rowNumbers(text); !slices.Equal(got, want) {
			t.Errorf("rowNumbers(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestIncomingStampIsNoDate(t *testing.T) {
	us := []Unit{
		{Index: 0, Kind: UnitText, Text: "ООО «Волга-Полимер»\nВх. № 412 от 28.10.2026"},
		{Index: 1, Kind: UnitText, Section: "ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1", Text: "к Договору поставки № 14-П/2026 от 02 марта 2026 г."},
		{Index: 2, Kind: UnitText, Section: "ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1", Text: "г. Самара 26 октября 2026 г."},
	}
	h := ReadHeader(us)
	if h.Date.Format("02.01.2006") == "28.10.2026" {
		t.Errorf("the incoming stamp's day read as the agreement's: %+v", h)
	}
}

func TestWordsReplaced(t *testing.T) {
	us := []Unit{
		{Index: 0, Kind: UnitText, Text: "ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1 к Договору поставки № 14-П/2026 от 02 марта 2026 г."},
		{Index: 1, Kind: UnitClause, Number: "3", Text: "3. В пункте 4.2 Договора слова «25 000 000,00 (двадцать пять миллионов) рублей» заменить словами «35 000 000,00 (тридцать пять миллионов) рублей»."},
	}
	ams := Amendments(us)
	if len(ams) != 1 || ams[0].Clause != "4.2" || ams[0].Contract != "14-П/2026" {
		t.Fatalf("amendments: %+v", ams)
	}
	got, ok := ams[0].Reworded("4.2. Лимит задолженности составляет 25\u00a0000\u00a0000,00 (двадцать пять миллионов) рублей, включая НДС.")
	if want := "4.2. Лимит задолженности составляет 35 000 000,00 (тридцать пять миллионов) рублей, включая НДС."; !ok || got != want {
		t.Errorf("Reworded = %q, %v; want %q", got, ok, want)
	}
	if _, ok := ams[0].Reworded("4.2. Лимит задолженности не установлен."); ok {
		t.Error("reworded a clause that holds no such words")
	}
}
