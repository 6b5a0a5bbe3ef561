package postcheck

import (
	"slices"
	"testing"
)

func TestNumbers(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		// Amounts: separators, decimal comma or point, trailing zeros, multipliers.
		{"1 250 000,00 ₽", []string{"1250000"}},
		{"1250000", []string{"1250000"}},
		{"1 250 000 руб.", []string{"1250000"}},
		{"1,25 млн", []string{"1250000"}},
		{"1.25 млн ₽", []string{"1250000"}},
		{"1 250 тыс. ₽", []string{"1250000"}},
		{"2 тысячи и 3 миллиона", []string{"2000", "3000000"}},
		{"1,5 млрд", []string{"1500000000"}},
		{"5млн", []string{"5000000"}},
		{"1\u00a0250\u00a0000,00", []string{"1250000"}},
		{"1\u202f250\u202f000", []string{"1250000"}},
		{"1\u2009250,5", []string{"1250.5"}},
		{"90,50 и 90.5 и 90,500", []string{"90.5"}},
		{"0,00 ₽", []string{"0"}},
		{"007", []string{"7"}},
		{"−51 516,61 ₽", []string{"51516.61"}},
		{"+0,3512", []string{"0.3512"}},
		{"1 2345", []string{"1", "2345"}},
		{"12 345 678,9", []string{"12345678.9"}},
		// Percents are their numbers.
		{"16%", []string{"16"}},
		{"21,00 % годовых", []string{"21"}},
		{"0,1 %", []string{"0.1"}},
		// Dates.
		{"31.03.2026", []string{"2026-03-31"}},
		{"31 марта 2026 г.", []string{"2026-03-31"}},
		{"2026-03-31", []string{"2026-03-31"}},
		{"1.3.2026", []string{"2026-03-01"}},
		{"31 Марта", []string{"--03-31"}},
		{"31\u00a0марта\u00a02026", []string{"2026-03-31"}},
		{"с 1 по 31 марта 2026 года", []string{"2026-03-01", "2026-03-31"}},
		{"1–15 мая", []string{"--05-01", "--05-15"}},
		{"01.03.2026—31.03.2026", []string{"2026-03-01", "2026-03-31"}},
		{"31.02.2026", []string{"2026-02-31"}},
		{"29 февраля 2001", []string{"2001-02-29"}},
		{"99 марта", []string{"99"}},
		{"31 мая 1800", []string{"--05-31", "1800"}},
		{"31.03", []string{"31.03"}},
		{"в марте 2026 года", []string{"2026"}},
		{"2026г.", []string{"2026"}},
		{"2025-2026", []string{"2025", "2026"}},
		// Times.
		{"в 13:30 мск", []string{"13:30"}},
		{"18.03.2026 18:01:11", []string{"2026-03-18", "18:01"}},
		// Document numbers and codes.
		{"№ СВ00-000050", []string{"№СВ00-000050"}},
		{"СВ00-000050", []string{"№СВ00-000050"}},
		{"№15 и № 15", []string{"№15"}},
		{"договор № 178/2024 от 25.04.2024", []string{"№178/2024", "2024-04-25"}},
		{"№ П-15/2025.", []string{"№П-15/2025"}},
		{"счёт 62.01.1", []string{"№62.01.1"}},
		{"п. 6.2", []string{"6.2"}},
		// Not numbers.
		{"[1]", nil},
		{"курс [1, 2] и [3–5]", nil},
		{"1. USD\n2) EUR\n**3.** CNY\n1.1. подпункт", nil},
		{"3-й квартал, 25-го числа, 5-ти дней", nil},
		{"в 1 квартале и 2 полугодии", nil},
		{"6-НДФЛ, 3-НДФЛ, 1С, ТОРГ-12, COVID-19", nil},
		{"https://www.cbr.ru/hd_base/KeyRate/?UniDbQuery.To=31.03.2026", nil},
		{"три контрагента", nil},
		{"", nil},
		// MarkdownV2 escapes.
		{"31\\.03\\.2026, \\-51 516,61", []string{"2026-03-31", "51516.61"}},
		// A list number is only at a line start.
		{"итого 1. Далее", []string{"1"}},
	}
	for _, tt := range tests {
		if got := Numbers(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Numbers(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDecimal(t *testing.T) {
	tests := []struct {
		intd, frac string
		exp        int
		want       string
	}{
		{"1", "25", 6, "1250000"},
		{"1", "2345678", 6, "1234567.8"},
		{"0", "5", 3, "500"},
		{"000", "000", 0, "0"},
		{"90", "50", 0, "90.5"},
		{"", "", 0, "0"},
		{"12", "", 12, "12000000000000"},
	}
	for _, tt := range tests {
		if got := decimal(tt.intd, tt.frac, tt.exp); got != tt.want {
			t.Errorf("decimal(%q, %q, %d) = %q, want %q", tt.intd, tt.frac, tt.exp, got, tt.want)
		}
	}
}
