package passages

import (
	"slices"
	"testing"
)

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
