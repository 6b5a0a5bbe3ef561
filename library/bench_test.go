package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/internal/testdocs"
)

// benchLibrary fills one owner with n documents made from the evaluation corpus (each copy
// renamed so that none is a duplicate) and returns the library and the question set.
func benchLibrary(b *testing.B, n int) (*Library, []question) {
	b.Helper()
	files, _ := filepath.Glob(filepath.Join(corpusDir, "corpus", "*.md"))
	var texts [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, data)
	}
	lib := New(docstore.NewMemory(), nil, Options{MaxDocs: n + 1})
	for i := range n {
		data := append([]byte(fmt.Sprintf("Копия %d\n\n", i)), texts[i%len(texts)]...)
		if _, err := lib.Add(context.Background(), "u:1", 1, fmt.Sprintf("doc-%d.md", i), data); err != nil {
			b.Fatal(err)
		}
	}
	_, _, _, qs := loadCorpus(b)
	return lib, qs
}

// BenchmarkSearchOwner: one question over an owner's 200 documents (≈ 2,000 chunks), index
// cached — the S1 path without the LLM.
func BenchmarkSearchOwner(b *testing.B) {
	lib, qs := benchLibrary(b, 200)
	ctx := context.Background()
	lib.Search(ctx, "u:1", Query{Text: qs[0].Question}) // build the index once
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, _, err := lib.Search(ctx, "u:1", Query{Text: qs[i%len(qs)].Question}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndexRebuild: the first question after another replica changed the owner's
// documents — load from the store and rebuild the index.
func BenchmarkIndexRebuild(b *testing.B) {
	lib, _ := benchLibrary(b, 200)
	ctx := context.Background()
	for b.Loop() {
		lib.cache.purge()
		if _, _, err := lib.Search(ctx, "u:1", Query{Text: "срок оплаты"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddPDF: the upload pipeline for a 30-page contract (extraction, per-page chunking,
// storing); bytes/s is the PDF size.
func BenchmarkAddPDF(b *testing.B) {
	var sections []testdocs.Section
	for i := range 30 {
		sections = append(sections, testdocs.Section{
			Heading: fmt.Sprintf("%d. Раздел договора", i+1),
			Body: "Поставщик обязуется поставить товар в сроки, согласованные сторонами в спецификации. " +
				"Оплата производится в течение 20 банковских дней с даты подписания УПД. За просрочку поставки " +
				"Поставщик уплачивает пени в размере 0,1% от стоимости недопоставленного товара за каждый день просрочки. " +
				"Споры рассматриваются в Арбитражном суде города Москвы. Все приложения являются неотъемлемой частью договора.",
		})
	}
	pdf := testdocs.PDF("Договор поставки № П-15/2025", sections...)
	b.SetBytes(int64(len(pdf)))
	ctx := context.Background()
	for b.Loop() {
		lib := New(docstore.NewMemory(), nil, Options{})
		if _, err := lib.Add(ctx, "u:1", 1, "dogovor.pdf", pdf); err != nil {
			b.Fatal(err)
		}
	}
}
