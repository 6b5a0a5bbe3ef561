package retrieval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The evaluation corpus: synthetic documents of the fictional ООО «Финвектор»
// in testdata/corpus and questions in testdata/questions.json. The real
// chunker lives elsewhere; splitWords below is a deliberately simple
// fixed-size splitter.

const (
	chunkWords  = 120 // words per chunk
	chunkStride = 90  // 30 words of overlap between neighbours
)

type question struct {
	Question string `json:"question"`
	Doc      string `json:"doc"`     // DocID of the answering document
	Passage  string `json:"passage"` // distinctive substring of the answer
}

// splitWords cuts a markdown document into fixed-size overlapping word
// windows. Heading is the last markdown heading at or before the window
// start; Page is a fake page number (every 400 words).
func splitWords(docID, text string) []Chunk {
	type word struct {
		w       string
		heading string
	}
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
	var chunks []Chunk
	for start, n := 0, 0; start < len(words); start, n = start+chunkStride, n+1 {
		end := min(start+chunkWords, len(words))
		parts := make([]string, 0, end-start)
		for _, w := range words[start:end] {
			parts = append(parts, w.w)
		}
		chunks = append(chunks, Chunk{
			ID:      fmt.Sprintf("%s#%d", docID, n),
			DocID:   docID,
			Text:    strings.Join(parts, " "),
			Page:    start/400 + 1,
			Heading: words[start].heading,
		})
		if end == len(words) {
			break
		}
	}
	return chunks
}

var (
	corpusOnce   sync.Once
	corpusChunks []Chunk
	corpusDocs   map[string]string // DocID -> raw text
	corpusErr    error
)

// loadCorpus reads and chunks testdata/corpus once per test binary.
func loadCorpus(tb testing.TB) ([]Chunk, map[string]string) {
	tb.Helper()
	corpusOnce.Do(func() {
		files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.md"))
		if err != nil || len(files) == 0 {
			corpusErr = fmt.Errorf("no corpus files: %v", err)
			return
		}
		slices.Sort(files)
		corpusDocs = make(map[string]string)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				corpusErr = err
				return
			}
			id := strings.TrimSuffix(filepath.Base(f), ".md")
			corpusDocs[id] = string(b)
			corpusChunks = append(corpusChunks, splitWords(id, string(b))...)
		}
	})
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpusChunks, corpusDocs
}

func loadQuestions(tb testing.TB) []question {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "questions.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var qs []question
	if err := json.Unmarshal(b, &qs); err != nil {
		tb.Fatal(err)
	}
	return qs
}

func collapseSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }

// answers reports whether chunk c contains the answer to q.
func answers(c Chunk, q question) bool {
	return c.DocID == q.Doc && strings.Contains(c.Text, collapseSpaces(q.Passage))
}

func TestCorpusShape(t *testing.T) {
	chunks, docs := loadCorpus(t)
	if len(docs) < 12 {
		t.Errorf("corpus has %d documents, want >= 12", len(docs))
	}
	words := 0
	for id, text := range docs {
		n := len(strings.Fields(text))
		words += n
		if n < 500 || n > 4000 {
			t.Errorf("%s: %d words, want 500..4000", id, n)
		}
	}
	qs := loadQuestions(t)
	if len(qs) < 40 {
		t.Errorf("%d questions, want >= 40", len(qs))
	}
	// Every passage must be fully inside at least one chunk, or recall
	// would be measuring the splitter.
	for _, q := range qs {
		if _, ok := docs[q.Doc]; !ok {
			t.Errorf("question %q: unknown doc %q", q.Question, q.Doc)
			continue
		}
		if !slices.ContainsFunc(chunks, func(c Chunk) bool { return answers(c, q) }) {
			t.Errorf("question %q: passage %q is in no chunk of %s", q.Question, q.Passage, q.Doc)
		}
	}
	t.Logf("corpus: %d documents, %d words, %d chunks, %d questions", len(docs), words, len(chunks), len(qs))
}

// TestRecallAt5 is the retrieval quality gate: the share of questions whose
// answering passage is among the top 5 hits.
func TestRecallAt5(t *testing.T) {
	chunks, _ := loadCorpus(t)
	qs := loadQuestions(t)
	ix := Build(chunks)
	found, mrr := 0, 0.0
	for _, q := range qs {
		hits := ix.Search(Query{Text: q.Question, TopK: 5})
		rank := slices.IndexFunc(hits, func(h Hit) bool { return answers(h.Chunk, q) })
		if rank >= 0 {
			found++
			mrr += 1 / float64(rank+1)
			continue
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Chunk.ID)
		}
		t.Logf("miss: %q (want %s: %q) got %v; query terms %q", q.Question, q.Doc, q.Passage, got, Tokens(q.Question))
	}
	recall := float64(found) / float64(len(qs))
	t.Logf("recall@5 = %.3f (%d/%d), MRR@5 = %.3f over %d chunks", recall, found, len(qs), mrr/float64(len(qs)), len(chunks))
	if recall < 0.85 {
		t.Errorf("recall@5 = %.3f, want >= 0.85", recall)
	}
}
