package agent

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/understand"
)

// corpusQuestions reads the messages of the user-side corpus (agent/understand/testdata).
func corpusQuestions(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("understand", "testdata", "corpus", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus: %v (%d files)", err, len(files))
	}
	var qs []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var l struct {
				Q string `json:"q"`
			}
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Q != "" {
				qs = append(qs, l.Q)
			}
		}
		fh.Close()
	}
	return qs
}

// noLLMAgent is pipelineAgent's agent without an LLM: the same ledger, rates and knowledge base.
func noLLMAgent(t *testing.T) *Agent { return demoAgent(t, pipelineNow, "") }

// demoAgent is the whole agent on the day now gives, with the LLM at llmURL, or none for "".
func demoAgent(t *testing.T, now func() time.Time, llmURL string) *Agent {
	t.Helper()
	return wholeAgent(t, wiring{now: now, llmURL: llmURL})
}

// TestGarbageLLMNeverLowers asks every corpus message of an agent with no LLM and of one whose
// LLM answers every call with filler (no plan, no JSON): each is understood the same, and every
// answer from 1C or the Bank of Russia is the same word for word. An LLM that talks nonsense
// adds nothing and takes nothing away.
func TestGarbageLLMNeverLowers(t *testing.T) {
	if testing.Short() {
		t.Skip("asks the whole corpus twice")
	}
	plain := noLLMAgent(t)
	s := newScripted(t, nil) // every call gets the stand-in's filler
	garbage := pipelineAgent(t, s)
	deterministic := map[Scenario]bool{OneC: true}
	for i, q := range corpusQuestions(t) {
		req := Request{UserID: int64(1000 + i), ChatID: int64(1000 + i)}
		want := ask(t, plain, req, q)
		got := ask(t, garbage, req, q)
		w, g := want.Debug.Route, got.Debug.Route
		if w.Scenario != g.Scenario || w.Kind != g.Kind {
			t.Errorf("%q: with a garbage LLM %s/%s, without an LLM %s/%s", q, g.Scenario, g.Kind, w.Scenario, w.Kind)
			continue
		}
		if (deterministic[w.Scenario] || w.Kind == understand.KindRate || w.Kind == understand.KindKeyRate) && got.Text != want.Text {
			t.Errorf("%q: the answer changed with a garbage LLM:\n%s\n--- without an LLM:\n%s", q, got.Text, want.Text)
		}
	}
	// The test proves something only if the garbage reached the pipeline: the planner was asked
	// for the messages the parser was unsure of, and the answer model for the rest.
	if s.Count("plan") == 0 {
		t.Error("the planner was never asked: no garbage plan was tested")
	}
	t.Logf("garbage LLM calls: %d planner, %d answer, %d docs, %d other", s.Count("plan"), s.Count("answer"), s.Count("docs"), s.Count("other"))
}
