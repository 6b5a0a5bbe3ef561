package recipe

import "testing"

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
