package ru

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// codes turns currencies into their codes for readable diffs.
func codes(cs []Currency) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Code)
	}
	return out
}

func TestFindCurrencies(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		unknown []string
	}{
		// Every case form of доллар.
		{"доллар", []string{"USD"}, nil},
		{"курс доллара", []string{"USD"}, nil},
		{"100 долларов", []string{"USD"}, nil},
		{"о долларе", []string{"USD"}, nil},
		{"к доллару", []string{"USD"}, nil},
		{"долларом", []string{"USD"}, nil},
		{"в долларах", []string{"USD"}, nil},
		{"долларами", []string{"USD"}, nil},
		{"ДОЛЛАРЫ", []string{"USD"}, nil},
		{"баксов", []string{"USD"}, nil},
		// евро, юань, фунт, иена.
		{"курс евро", []string{"EUR"}, nil},
		{"ЕВРО", []string{"EUR"}, nil},
		{"юань", []string{"CNY"}, nil},
		{"динамика юаня", []string{"CNY"}, nil},
		{"10 юаней", []string{"CNY"}, nil},
		{"юанем", []string{"CNY"}, nil},
		{"в юанях", []string{"CNY"}, nil},
		{"фунт", []string{"GBP"}, nil},
		{"фунта стерлингов", []string{"GBP"}, nil},
		{"фунтов стерлингов", []string{"GBP"}, nil},
		{"иена", []string{"JPY"}, nil},
		{"йена", []string{"JPY"}, nil},
		{"курс иены", []string{"JPY"}, nil},
		{"1000 иен", []string{"JPY"}, nil},
		{"в йенах", []string{"JPY"}, nil},
		{"и\u0306ены", []string{"JPY"}, nil}, // й written as и + combining breve
		// Adjectives.
		{"австралийский доллар", []string{"AUD"}, nil},
		{"курс канадского доллара", []string{"CAD"}, nil},
		{"гонконгских долларов", []string{"HKD"}, nil},
		{"Сингапурский доллар", []string{"SGD"}, nil},
		{"новозеландским долларом", []string{"NZD"}, nil},
		{"швейцарский франк", []string{"CHF"}, nil},
		{"белорусский рубль", []string{"BYN"}, nil},
		{"белорусских рублей", []string{"BYN"}, nil},
		{"турецкая лира", []string{"TRY"}, nil},
		{"египетский фунт", []string{"EGP"}, nil},
		{"индонезийская рупия", []string{"IDR"}, nil},
		{"рупия", []string{"INR"}, nil},
		{"румынский лей", []string{"RON"}, nil},
		{"лей", []string{"MDL"}, nil},
		{"манат", []string{"AZN"}, nil},
		{"нового туркменского маната", []string{"TMT"}, nil},
		{"датская крона", []string{"DKK"}, nil},
		{"шведских крон", []string{"SEK"}, nil},
		{"южнокорейских вон", []string{"KRW"}, nil},
		{"вона", []string{"KRW"}, nil},
		// The other names.
		{"тенге дирхам злотый гривна сом драм лари сум сомони бат реал ранд донг форинт лев динар",
			[]string{"KZT", "AED", "PLN", "UAH", "KGS", "AMD", "GEL", "UZS", "TJS", "THB", "BRL", "ZAR", "VND", "HUF", "BGN", "RSD"}, nil},
		{"100 гривен и 5 рэндов", []string{"UAH", "ZAR"}, nil},
		{"курс болгарского лева", []string{"BGN"}, nil},
		// ISO codes.
		{"USD", []string{"USD"}, nil},
		{"usd", []string{"USD"}, nil},
		{"Usd", []string{"USD"}, nil},
		{"usd/rub", []string{"USD"}, nil},
		{"USD/RUB", []string{"USD"}, nil},
		{"EUR/USD", []string{"EUR", "USD"}, nil},
		{"/rate USD CNY 15.01.2026", []string{"USD", "CNY"}, nil},
		{"100USD", []string{"USD"}, nil},
		{"XDR", []string{"XDR"}, nil},
		// Symbols.
		{"$100", []string{"USD"}, nil},
		{"5 €", []string{"EUR"}, nil},
		{"¥", []string{"CNY"}, nil},
		{"£20", []string{"GBP"}, nil},
		{"A$100 и C$5", []string{"AUD", "CAD"}, nil},
		{"1000 ₸", []string{"KZT"}, nil},
		// Several, in order, without duplicates.
		{"курс евро, доллара и юаня", []string{"EUR", "USD", "CNY"}, nil},
		{"USD, доллар, $ и долларов США", []string{"USD"}, nil},
		{"юань и CNY, потом евро и EUR", []string{"CNY", "EUR"}, nil},
		{"канадский доллар и доллар", []string{"CAD", "USD"}, nil},
		// Unknown codes.
		{"XYZ", nil, []string{"XYZ"}},
		{"курс XYZ и USD", []string{"USD"}, []string{"XYZ"}},
		{"/rate xyz", nil, []string{"XYZ"}},
		{"/rate abc usd ABC", []string{"USD"}, []string{"ABC"}},
		{"/rate@finbot_bot qqq", nil, []string{"QQQ"}},
		{"xyz", nil, nil},
		{"пришлите PDF и XML", nil, nil},
		{"BTC и ETH", nil, []string{"BTC", "ETH"}},
		// Not currencies.
		{"рубль", nil, nil},
		{"курс рубля к доллару", []string{"USD"}, nil},
		{"ревизор", nil, nil},
		{"сумма и суммы", nil, nil},
		{"евроремонт", nil, nil},
		{"сомнение, батарея, реализация, налей, левый, франшиза", nil, nil},
		{"крона дерева", nil, nil},
		{"вон там", nil, nil},
		{"Лев Толстой", nil, nil},
		{"спросите у Лев Ивановича", nil, nil},
		{"долларовый", nil, nil},
		{"USDRUB", nil, nil},
		// The Latin word euro is read as EUR.
		{"euro", []string{"EUR"}, nil},
		{"", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			found, unknown := FindCurrencies(tt.in)
			if diff := cmp.Diff(tt.want, codes(found)); diff != "" {
				t.Errorf("FindCurrencies(%q) found mismatch (-want +got):\n%s", tt.in, diff)
			}
			if diff := cmp.Diff(tt.unknown, unknown); diff != "" {
				t.Errorf("FindCurrencies(%q) unknown mismatch (-want +got):\n%s", tt.in, diff)
			}
			for _, c := range found {
				if want, _ := LookupCurrency(c.Code); c != want {
					t.Errorf("found %+v, table has %+v", c, want)
				}
			}
		})
	}
}

func TestCurrencies(t *testing.T) {
	cs := Currencies()
	want := strings.Fields("AUD AZN GBP AMD BYN BGN BRL HUF VND HKD GEL DKK AED USD EUR EGP INR IDR KZT CAD QAR KGS CNY MDL NZD NOK PLN RON XDR SGD TJS THB TRY TMT UZS UAH CZK SEK CHF RSD ZAR KRW JPY")
	slices.Sort(want)
	if diff := cmp.Diff(want, codes(cs)); diff != "" {
		t.Errorf("Currencies() codes mismatch (-want +got):\n%s", diff)
	}
	for _, c := range cs {
		if c.Name == "" {
			t.Errorf("%s has no name", c.Code)
		}
	}
	cs[0].Name = "changed"
	if Currencies()[0].Name == "changed" {
		t.Error("Currencies() returns the table itself, not a copy")
	}
	names := map[string]string{"AUD": "Австралийский доллар", "AZN": "Азербайджанский манат",
		"GBP": "Фунт стерлингов Соединенного королевства", "XDR": "СДР (специальные права заимствования)",
		"USD": "Доллар США"}
	for code, name := range names {
		if c, ok := LookupCurrency(code); !ok || c.Name != name {
			t.Errorf("LookupCurrency(%q) = %+v, %v; want name %q", code, c, ok, name)
		}
	}
}

func TestLookupCurrency(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"USD", "USD", true},
		{"usd", "USD", true},
		{" eUr ", "EUR", true},
		{"RUB", "", false},
		{"XYZ", "", false},
		{"", "", false},
		{"доллар", "", false},
	}
	for _, tt := range tests {
		c, ok := LookupCurrency(tt.in)
		if ok != tt.ok || c.Code != tt.want {
			t.Errorf("LookupCurrency(%q) = %+v, %v; want %q, %v", tt.in, c, ok, tt.want, tt.ok)
		}
	}
}
