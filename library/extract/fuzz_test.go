package extract

import (
	"context"
	"errors"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzLimits keep each input cheap: small budgets and a short timeout.
var fuzzLimits = Limits{MaxBytes: 4 << 20, MaxUncompressed: 8 << 20, MaxChars: 200_000, Timeout: 2 * time.Second}

func FuzzExtract(f *testing.F) {
	seeds := []struct {
		name string
		data []byte
	}{
		{"a.docx", fixtureDOCX(f)},
		{"a.xlsx", fixtureXLSX(f)},
		{"a.pdf", fixturePDF(f, pdfOpts{})},
		{"c.pdf", fixturePDF(f, pdfOpts{compress: true})},
		{"scan.pdf", fixturePDF(f, pdfOpts{scanned: true})},
		{"enc.pdf", fixturePDF(f, pdfOpts{userPass: "x", ownerPass: "y"})},
		{"min.pdf", minimalPDF("BT /F1 12 Tf 72 700 Td (Hello) Tj [(a) -300 (b)] TJ ET", "q 1 0 0 1 0 0 cm BI /W 1 ID x EI Q")},
		{"bomb.docx", fixtureDOCXBomb(f, 64<<10)},
		{"a.txt", []byte(sampleText)},
		{"w.txt", cp1251(f, sampleText)},
		{"u.txt", utf16LE(sampleText, true)},
		{"a.md", []byte("# Заголовок\n\nтекст")},
		{"a.csv", []byte("a;b\n1;\"2\"\n")},
		{"e.txt", nil},
	}
	for _, s := range seeds {
		f.Add(s.name, s.data)
	}
	kinds := Kinds
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		start := time.Now()
		d, err := Extract(context.Background(), name, data, fuzzLimits)
		// A hang detector, not a speed assertion: Extract must give up near its Timeout, and
		// only a run far beyond it (a loop that ignores the deadline) fails, even under -race on
		// a loaded machine. Speed is measured by the benchmarks.
		if el := time.Since(start); el > 10*fuzzLimits.Timeout+10*time.Second {
			t.Fatalf("took %v with a %v timeout", el, fuzzLimits.Timeout)
		}
		if err != nil {
			ok := false
			for _, k := range kinds {
				ok = ok || errors.Is(err, k)
			}
			if !ok || UserMessage(err) == "" {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		n := 0
		for i, p := range d.Pages {
			if p.Number != i+1 || !utf8.ValidString(p.Text) || Normalize(p.Text) != p.Text {
				t.Fatalf("page %d not normalised: %q", i, p.Text)
			}
			n += utf8.RuneCountInString(p.Text)
		}
		if n != d.Chars || n == 0 || n > fuzzLimits.MaxChars {
			t.Fatalf("Chars %d, counted %d", d.Chars, n)
		}
		for _, h := range d.Headings {
			if h.Page < 1 || h.Page > len(d.Pages) || h.Level < 1 {
				t.Fatalf("bad heading %+v", h)
			}
			r := []rune(d.Pages[h.Page-1].Text)
			if h.Offset < 0 || h.Offset+utf8.RuneCountInString(h.Text) > len(r) || string(r[h.Offset:h.Offset+utf8.RuneCountInString(h.Text)]) != h.Text {
				t.Fatalf("heading %+v not at its offset", h)
			}
		}
		_ = Chunks(d, ChunkOptions{Size: 200, Overlap: 50})
	})
}

func FuzzChunks(f *testing.F) {
	f.Add(sampleText, "второй лист\n\n1 250 000,00", 1200, 200)
	f.Add("ИНН 7707083893 № П-15/2025 1 250 000,00 руб.", "", 16, 4)
	f.Add("слово слово. Слово!\n\nабзац", "\u0301\u0301\u0301", 20, 9)
	f.Fuzz(func(t *testing.T, a, b string, size, overlap int) {
		if len(a)+len(b) > 1<<16 {
			return
		}
		size %= 5000
		overlap %= 5000
		d := Document{Pages: []Page{{1, a}, {2, b}}, Headings: []Heading{{Page: 1, Offset: 0, Level: 1, Text: "h"}, {Page: 2, Offset: 3, Level: 1, Text: "h2"}}}
		checkChunks(t, d, ChunkOptions{Size: size, Overlap: overlap})
	})
}

func FuzzNormalize(f *testing.F) {
	f.Add("сто-\nимость  \u00AD\r\n\n\n e\u0301")
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if !utf8.ValidString(n) || Normalize(n) != n {
			t.Fatalf("Normalize(%q) = %q, again %q", s, n, Normalize(n))
		}
	})
}
