package retrieval

import (
	"strings"
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"",
	"Договор поставки № П-15/2025 от «14» февраля 2025 г.",
	"1 250 000,00 руб. 1.250.000,00 1,250,000.00 3 млн 1,25 тыс.",
	"01.03.2026 2026-03-01 31.02.2026 1 марта 2026 «31» декабря",
	"ИНН/КПП 7714583920/771401001 СВ00-000123 CB00-000123 №77 № 77",
	"62.01 90.01.1 76.АВ 0,1% 500 ₽ счёт-фактура",
	"дого\u00adвор неустои\u0306ка зачте\u0308н",
	"a-b-c-d-e-f-g-h-i-j-k-l 1-2-3-4-5-6-7-8-9-10 1.2.3.4.5.6.7.8.9",
	"1 000 000 000 000 000 000 000 000 000 000 000 000",
	"\xff\xfe broken utf8 \xc3",
	"- / . , _ – ‐ ‑ № % ₽",
	"99999999999999999999999999999999999.99 млрд",
	"0 тыс 00 млн 0,00 000-000",
}

// FuzzTokens: no panic; every term is valid UTF-8, non-empty, bounded, and
// tokenising is deterministic.
func FuzzTokens(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms := Tokens(s)
		for _, term := range terms {
			if term == "" || !utf8.ValidString(term) && utf8.ValidString(s) {
				t.Fatalf("bad term %q from %q", term, s)
			}
			if len(term) > maxWordBytes+len("№")+maxCodeBytes {
				t.Fatalf("term of %d bytes from %q", len(term), s)
			}
			if strings.ContainsAny(term, " \t\n") {
				t.Fatalf("term %q contains whitespace", term)
			}
		}
		if again := Tokens(s); len(again) != len(terms) {
			t.Fatalf("non-deterministic: %q vs %q", terms, again)
		}
	})
}

// FuzzSearch: building from fuzzed chunks and searching with a fuzzed
// query never panics and respects TopK and DocIDs.
func FuzzSearch(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, fuzzSeeds[(i+1)%len(fuzzSeeds)], i%7-1)
	}
	f.Fuzz(func(t *testing.T, text, query string, topK int) {
		chunks := []Chunk{
			{ID: "1", DocID: "a", Text: text},
			{ID: "2", DocID: "b", Text: query, Heading: text},
			{ID: "3", DocID: "a", Text: "Договор поставки " + text},
		}
		ix := Build(chunks)
		k := topK
		if k <= 0 {
			k = DefaultTopK
		}
		if got := ix.Search(Query{Text: query, TopK: topK}); len(got) > k || len(got) > len(chunks) {
			t.Fatalf("%d hits for TopK %d", len(got), topK)
		}
		for _, h := range ix.Search(Query{Text: query + " " + text, TopK: topK, DocIDs: []string{"a"}}) {
			if h.Chunk.DocID != "a" {
				t.Fatalf("restricted search returned %s", h.Chunk.ID)
			}
		}
	})
}
