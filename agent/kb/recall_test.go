package kb_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

// TestKnowledgeBaseRecall: the shipped knowledge base answers accountants' questions with the
// right article (agent/kb/testdata/questions.json).
func TestKnowledgeBaseRecall(t *testing.T) {
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	if _, _, err := kb.Ingest(context.Background(), lib, kb.Sample()); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("testdata/questions.json")
	if err != nil {
		t.Fatal(err)
	}
	// Also are other articles that answer a question as well (one added after it was written).
	var qs []struct {
		Question, Title string
		Also            []string
	}
	if err := json.Unmarshal(raw, &qs); err != nil {
		t.Fatal(err)
	}
	at1, at5 := 0, 0
	for _, q := range qs {
		ps, _, err := lib.Search(context.Background(), library.KBOwner, library.Query{Text: q.Question, TopK: 5})
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range ps {
			if p.Title == q.Title || slices.Contains(q.Also, p.Title) {
				at5++
				if i == 0 {
					at1++
				}
				break
			}
		}
		if len(ps) == 0 || ps[0].Title != q.Title && !slices.Contains(q.Also, ps[0].Title) {
			first := "nothing"
			if len(ps) > 0 {
				first = ps[0].Title
			}
			t.Logf("%q: first %q, want %q", q.Question, first, q.Title)
		}
	}
	r1, r5 := float64(at1)/float64(len(qs)), float64(at5)/float64(len(qs))
	t.Logf("knowledge base: %d questions, article first %.3f, in top 5 %.3f", len(qs), r1, r5)
	if r5 < 0.85 {
		t.Errorf("recall@5 = %.3f, want ≥ 0.85", r5)
	}
}
