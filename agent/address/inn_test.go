package address

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidINN(t *testing.T) {
	tests := []struct {
		inn  string
		want bool
	}{
		{"7707083893", true},    // Sberbank
		{"9366414049", true},    // ООО «Альфа», demo ledger
		{"1000352082", true},    // ООО «Гранит-М»
		{"441706417669", true},  // ИП Смирнов
		{"606697988937", true},  // ИП Кузнецова
		{"500100732259", true},  // a physical person's INN
		{"7707083894", false},   // last digit off
		{"7707083839", false},   // digits swapped
		{"441706417668", false}, // 12th digit off
		{"441706417679", false}, // 11th digit off
		{"0000000000", false},   // no region 00
		{"000000000000", false},
		{"770708389", false},     // 9 digits
		{"77070838931", false},   // 11 digits
		{"7707083893 ", false},   // trailing space
		{"77070838９3", false},    // a full-width digit
		{"770708389a", false},    // a letter
		{"-707083893", false},    // a sign
		{"7707083893441", false}, // 13 digits
		{"", false},
	}
	for _, tt := range tests {
		if got := ValidINN(tt.inn); got != tt.want {
			t.Errorf("ValidINN(%q) = %v, want %v", tt.inn, got, tt.want)
		}
	}
}

func TestFindINNs(t *testing.T) {
	got := findINNs("ИНН 7707083893, ещё 7707083894 и 441706417669; сумма 12345678901, счёт 62.01")
	want := []innCandidate{
		{digits: "7707083893", start: 7, end: 17, valid: true},
		{digits: "7707083894", start: 26, end: 36, valid: false},
		{digits: "441706417669", start: 40, end: 52, valid: true},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(innCandidate{})); diff != "" {
		t.Errorf("findINNs mismatch (-want +got):\n%s", diff)
	}
}
