package primary_test

import (
	"context"
	"testing"

	"github.com/finbot/finbot/internal/testscans"
	"github.com/finbot/finbot/library/ocr"
	"github.com/finbot/finbot/library/primary"
)

// BenchmarkRecognisePage: one photographed page (the invoice, 1800 px wide) through tesseract,
// then read and checked; peak_rss_MB is tesseract's own peak resident memory.
func BenchmarkRecognisePage(b *testing.B) {
	e := ocr.New(ocr.Options{})
	if len(e.Missing()) > 0 {
		b.Skip("OCR not installed")
	}
	img := testscans.Read("invoice.png")
	var peak int64
	for b.Loop() {
		p, err := e.Image(context.Background(), img)
		if err != nil {
			b.Fatal(err)
		}
		peak = max(peak, p.PeakRSS)
		primary.Check(primary.Parse(p.Text))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak_rss_MB")
}

// BenchmarkParseCheck: reading and checking the recognised text alone.
func BenchmarkParseCheck(b *testing.B) {
	text := "Счёт на оплату № 28 от 02.03.2026\nПоставщик: ООО «Бумага и Ко»\nИНН 2196164974 КПП 275001001\n" +
		"1 Бумага офисная А4 пач 500 350,00 175 000,00 22% 38 500,00 213 500,00\n" +
		"2 Доставка и разгрузка усл 1 481 043,55 481 043,55 22% 105 829,58 586 873,13\n" +
		"Итого без НДС: 656 043,55\nНДС 22%: 144 329,58\nВсего к оплате: 800 373,13\n"
	for b.Loop() {
		primary.Check(primary.Parse(text))
	}
}
