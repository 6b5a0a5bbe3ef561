package blevebench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ru" // registers the "ru" analyzer
	"github.com/finbot/finbot/integrations/retrieval"
)

// Same splitter parameters as integrations/retrieval/corpus_test.go.
const (
	chunkWords  = 120
	chunkStride = 90
)

type question struct {
	Question string `json:"question"`
	Doc      string `json:"doc"`
	Passage  string `json:"passage"`
}

func splitWords(docID, text string) []retrieval.Chunk {
	type word struct{ w, heading string }
	var words []word
	heading := ""
	for _, line := range strings.Split(text, "\n") {
		if h, ok := strings.CutPrefix(strings.TrimSpace(line), "#"); ok {
			heading = strings.TrimSpace(strings.TrimLeft(h, "#"))
		}
		for _, w := range strings.Fields(line) {
			words = append(words, word{w, heading})
		}
	}
	var chunks []retrieval.Chunk
	for start, n := 0, 0; start < len(words); start, n = start+chunkStride, n+1 {
		end := min(start+chunkWords, len(words))
		parts := make([]string, 0, end-start)
		for _, w := range words[start:end] {
			parts = append(parts, w.w)
		}
		chunks = append(chunks, retrieval.Chunk{
			ID: fmt.Sprintf("%s#%d", docID, n), DocID: docID, Text: strings.Join(parts, " "),
			Page: start/400 + 1, Heading: words[start].heading,
		})
		if end == len(words) {
			break
		}
	}
	return chunks
}

func load(t testing.TB) ([]retrieval.Chunk, []question) {
	dir := filepath.Join("..", "testdata")
	files, err := filepath.Glob(filepath.Join(dir, "corpus", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus: %v", err)
	}
	slices.Sort(files)
	var chunks []retrieval.Chunk
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, splitWords(strings.TrimSuffix(filepath.Base(f), ".md"), string(b))...)
	}
	b, err := os.ReadFile(filepath.Join(dir, "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []question
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatal(err)
	}
	return chunks, qs
}

// retriever is one side of the comparison: question -> top-5 chunk IDs.
type retriever func(q string) []string

func buildFinbot(chunks []retrieval.Chunk) retriever {
	ix := retrieval.Build(chunks)
	return func(q string) []string {
		var ids []string
		for _, h := range ix.Search(retrieval.Query{Text: q, TopK: 5}) {
			ids = append(ids, h.Chunk.ID)
		}
		return ids
	}
}

func buildBleve(t testing.TB, chunks []retrieval.Chunk) retriever {
	body := bleve.NewTextFieldMapping()
	body.Analyzer = "ru"
	body.Store = false
	body.IncludeTermVectors = false
	doc := bleve.NewDocumentMapping()
	doc.AddFieldMappingsAt("body", body)
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = "ru"
	idx, err := bleve.NewMemOnly(m)
	if err != nil {
		t.Fatal(err)
	}
	batch := idx.NewBatch()
	for _, c := range chunks {
		if err := batch.Index(c.ID, map[string]any{"body": c.Heading + "\n" + c.Text}); err != nil {
			t.Fatal(err)
		}
	}
	if err := idx.Batch(batch); err != nil {
		t.Fatal(err)
	}
	return func(q string) []string {
		mq := bleve.NewMatchQuery(q)
		mq.SetField("body")
		mq.Analyzer = "ru"
		res, err := idx.Search(bleve.NewSearchRequestOptions(mq, 5, 0, false))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		return ids
	}
}

type result struct {
	name          string
	build         time.Duration
	recall        float64
	p50, p99, avg time.Duration
}

func evaluate(name string, chunks []retrieval.Chunk, qs []question, build func() retriever) result {
	byID := make(map[string]retrieval.Chunk, len(chunks))
	for _, c := range chunks {
		byID[c.ID] = c
	}
	start := time.Now()
	r := build()
	res := result{name: name, build: time.Since(start)}
	found := 0
	for _, q := range qs {
		for _, id := range r(q.Question) {
			c := byID[id]
			if c.DocID == q.Doc && strings.Contains(c.Text, strings.Join(strings.Fields(q.Passage), " ")) {
				found++
				break
			}
		}
	}
	res.recall = float64(found) / float64(len(qs))
	var lat []time.Duration
	var total time.Duration
	for rep := 0; rep < 30; rep++ {
		for _, q := range qs {
			t0 := time.Now()
			r(q.Question)
			d := time.Since(t0)
			lat = append(lat, d)
			total += d
		}
	}
	slices.Sort(lat)
	res.p50, res.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	res.avg = total / time.Duration(len(lat))
	return res
}

// TestCompare prints recall@5 and query latency for both retrievers on the
// evaluation corpus.
func TestCompare(t *testing.T) {
	chunks, qs := load(t)
	results := []result{
		evaluate("finbot retrieval (BM25, ru+en snowball, accounting tokens)", chunks, qs, func() retriever { return buildFinbot(chunks) }),
		evaluate("bleve v2 MatchQuery, \"ru\" analyzer", chunks, qs, func() retriever { return buildBleve(t, chunks) }),
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n%d chunks, %d questions\n", len(chunks), len(qs))
	fmt.Fprintf(&sb, "| %-60s | %-9s | %-9s | %-9s | %-9s |\n", "retriever", "recall@5", "query p50", "query p99", "build")
	fmt.Fprintf(&sb, "|%s|%s|%s|%s|%s|\n", strings.Repeat("-", 62), strings.Repeat("-", 11), strings.Repeat("-", 11), strings.Repeat("-", 11), strings.Repeat("-", 11))
	for _, r := range results {
		fmt.Fprintf(&sb, "| %-60s | %9.3f | %9s | %9s | %9s |\n", r.name, r.recall, r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), r.build.Round(time.Millisecond))
	}
	t.Log(sb.String())
	fmt.Print(sb.String())
	if results[0].recall < 0.85 {
		t.Errorf("finbot recall@5 = %.3f, want >= 0.85", results[0].recall)
	}
}
