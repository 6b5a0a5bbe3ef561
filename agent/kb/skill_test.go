package kb_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

func TestSearch(t *testing.T) {
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	if _, _, err := kb.Ingest(t.Context(), lib, kb.Sample()); err != nil {
		t.Fatal(err)
	}
	var asked []string
	gate := func(q string) float64 { asked = append(asked, q); return library.KBMinEvidenceRules }
	if _, err := kb.Search(t.Context(), lib, plan.SearchGeneralKBArgs{Query: "  "}, gate); !errors.Is(err, skill.ErrArgs) {
		t.Errorf("kb.Search(empty query) error = %v, want skill.ErrArgs", err)
	}
	p, err := kb.Search(t.Context(), lib, plan.SearchGeneralKBArgs{Query: " что такое амортизация "}, gate)
	if err != nil {
		t.Fatalf("kb.Search() error: %v", err)
	}
	if !slices.Equal(asked, []string{"что такое амортизация"}) {
		t.Errorf("gate asked for %q, want the trimmed query once", asked)
	}
	if !p.Found || p.Items[0].Section != facts.KnowledgeBase || !strings.Contains(p.Sources[0].Title, "(база знаний") {
		t.Errorf("kb.Search() = %+v, want knowledge-base articles", p)
	}
}

func TestTopics(t *testing.T) {
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	if got, err := kb.Topics(t.Context(), lib); got != "" || err != nil {
		t.Errorf("Topics(empty) = %q, %v; want none", got, err)
	}
	if _, _, err := kb.Ingest(t.Context(), lib, kb.Sample()); err != nil {
		t.Fatal(err)
	}
	got, err := kb.Topics(t.Context(), lib)
	if err != nil || got == "" || len(strings.Split(got, ", ")) > 12 {
		t.Errorf("Topics() = %q, %v; want at most %d topics", got, err, 12)
	}
}
