package kb_test

import (
	"testing"
	"time"

	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

// TestGate: with MinEvidence, a passage needs that much evidence as well as the overlap floor,
// and a short question that shares one word with an article no longer gets it; an index too
// small to weigh terms is not gated. The thresholds themselves are measured in agent
// (TestKBGate, TestKBGateCalibrated).
func TestGate(t *testing.T) {
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	if _, _, err := kb.Ingest(t.Context(), lib, kb.Sample()); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    string
		gate float64
		want string // the first passage's article, "" for none
	}{
		// before the gate: some article on paying («выплата» is of the payment family)
		{"что там по оплатам от ромашки", 0, "Сроки выплаты зарплаты, аванса и отпускных"},
		{"что там по оплатам от ромашки", library.KBMinEvidence, ""},
		{"покажи движение по кассе", library.KBMinEvidence, ""},
		// «сдать» is «сдачи» since the tokenizer folds them: the article on all reports' deadlines
		// comes first, its row on the VAT return answers as well.
		{"до какого числа сдать декларацию по НДС", library.KBMinEvidenceRules, "Сроки сдачи отчётности"},
		{"кто может платить только квартальные авансы по прибыли", library.KBMinEvidence, "Налог на прибыль: ставка 25% с 2025 года"},
	}
	for _, tt := range tests {
		ps, _, err := lib.Search(t.Context(), library.KBOwner, library.Query{Text: tt.q, MinEvidence: tt.gate})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(ps) > 0 {
			got = ps[0].Title
		}
		if got != tt.want {
			t.Errorf("Search(%q, gate %.2f): first %q, want %q", tt.q, tt.gate, got, tt.want)
		}
		for _, p := range ps {
			if tt.gate > 0 && (p.Evidence < tt.gate || p.Overlap < library.MinOverlap) {
				t.Errorf("Search(%q, gate %.2f) let in a passage with evidence %.2f, overlap %.2f", tt.q, tt.gate, p.Evidence, p.Overlap)
			}
		}
	}

	small := library.New(docstore.NewMemory(), nil, library.Options{})
	one := []kb.Article{{ID: "kb-1", Title: "Командировочные расходы", Content: "Суточные не облагаются НДФЛ в пределах 700 рублей за день.",
		Topic: "Зарплата", Jurisdiction: "РФ", Updated: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}}
	if _, _, err := kb.Ingest(t.Context(), small, one); err != nil {
		t.Fatal(err)
	}
	if ps, _, _ := small.Search(t.Context(), library.KBOwner, library.Query{Text: "что такое суточные", MinEvidence: library.KBMinEvidence}); len(ps) != 1 {
		t.Errorf("a one-article knowledge base is gated: %d passages, want 1", len(ps))
	}
}
