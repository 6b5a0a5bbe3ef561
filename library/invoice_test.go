package library

import (
	"math/big"
	"testing"

	"github.com/finbot/finbot/ru"
)

// TestReadInvoiceLine: goods lines as a PDF's text layer prints a УПД's table, the spaced digit
// groups read by the arithmetic that binds them.
func TestReadInvoiceLine(t *testing.T) {
	tests := []struct {
		line                   string
		qty                    string
		price, net, vat, gross int64
		rate                   string
		ok                     bool
	}{
		{"1 ТП-0412 Плёнка стрейч 500 мм × 20 мкм, рулон 300 м — 736 рул 120 412,50 49 500,00 без акциза 22% 10 890,00 60 390,00 — —",
			"120", 41250, 4950000, 1089000, 6039000, "22%", true},
		{"2 ТП-1188 Короб из гофрокартона 600×400×400 мм, марка Т-23 — 796 шт 2 400 58,35 140 040,00 без акциза 22% 30 808,80 170 848,80 — —",
			"2400", 5835, 14004000, 3080880, 17084880, "22%", true},
		{"6 ТП-0318 Плёнка воздушно-пузырчатая трёхслойная, 1,2 × 100 м — 736 рул 40 1 245,00 49 800,00 без акциза 22% 10 956,00 60 756,00 — —",
			"40", 124500, 4980000, 1095600, 6075600, "22%", true},
		{"3 Лицензия «Склад-Про» 12 мес. шт 25 18 500,00 462 500,00 без НДС 462 500,00", "25", 1850000, 46250000, 0, 46250000, "без НДС", true},
		{"1 Товар шт 10 100,00 1 001,00 без акциза 22% 220,22 1 221,22", "", 0, 0, 0, 0, "", false}, // 10 × 100 is not 1 001
	}
	for _, tt := range tests {
		l, ok := ReadInvoiceLine(tt.line)
		if ok != tt.ok {
			t.Errorf("%q: ok %v, want %v (%+v)", tt.line, ok, tt.ok, l)
			continue
		}
		if !ok {
			continue
		}
		q, _ := new(big.Rat).SetString(tt.qty)
		if l.Quantity.Cmp(q) != 0 || l.Price != tt.price || l.Net != tt.net || l.VAT != tt.vat || l.Gross != tt.gross || l.Rate != tt.rate {
			t.Errorf("%q: %+v (qty %s), want qty %s price %d net %d vat %d gross %d rate %s", tt.line, l, l.Quantity.RatString(), tt.qty, tt.price, tt.net, tt.vat, tt.gross, tt.rate)
		}
	}
}

// FuzzReadInvoiceLine reads any text as an invoice's goods line: no panic, and a line read is
// consistent — quantity × price = sum, sum + VAT = total.
func FuzzReadInvoiceLine(f *testing.F) {
	f.Add("1 ТП-0412 Плёнка стрейч — 736 рул 120 412,50 49 500,00 без акциза 22% 10 890,00 60 390,00 —")
	f.Add("2 Короб — 796 шт 2 400 58,35 140 040,00 без акциза 22% 30 808,80 170 848,80")
	f.Add("3 Лицензия шт 25 18 500,00 462 500,00 без НДС 462 500,00")
	f.Add("22% 1 1 1 1 1 1 1 1 1 1 1 1 1,00")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		l, ok := ReadInvoiceLine(text)
		if !ok {
			return
		}
		if ru.Kopecks(new(big.Rat).Mul(l.Quantity, big.NewRat(l.Price, 100))) != l.Net || l.Net+l.VAT != l.Gross {
			t.Fatalf("%q read as %+v (qty %s)", text, l, l.Quantity.RatString())
		}
	})
}
