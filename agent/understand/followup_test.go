package understand_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
)

// minFollowUps is the least share of follow-up dialogs whose last message is understood exactly.
const minFollowUps = 0.90

// TestFollowUps runs the follow-up dialogs (testdata/followups: two and three turns, written
// from the user's side by a hand that did not read the parser): each turn is read as the agent
// reads it — the parser, then FollowUp with the state the previous turn left — and the last
// turn's decision must be the one the line wants.
func TestFollowUps(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "followups", "followups.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cats := demoCatalogs(t)
	p := understand.NewParser()
	var ok, all int
	var misses []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var l struct {
			Turns []string `json:"turns"`
			Want  want     `json:"want"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("followups.jsonl:%d: %v", n, err)
		}
		var st understand.State
		var d understand.Decision
		for _, q := range l.Turns {
			in := understand.Input{Text: q, Now: corpusToday, Docs: corpusDocs}
			d = p.ParseLazy(in, func() *recipe.Catalogs { return cats })
			in.Catalogs = cats
			if f, ok := p.FollowUp(in, d, st); ok {
				d = f
			}
			st, _ = understand.StateOf(d, q)
		}
		all++
		if diff := check(d, l.Want); len(diff) == 0 {
			ok++
		} else {
			misses = append(misses, fmt.Sprintf("followups.jsonl:%d %q: %s", n, l.Turns, strings.Join(diff, "; ")))
		}
	}
	acc := float64(ok) / float64(all)
	t.Logf("follow-ups: %d/%d dialogs understood exactly (%.1f %%), no LLM", ok, all, 100*acc)
	if *showMisses {
		for _, m := range misses {
			t.Log(m)
		}
	}
	if acc < minFollowUps {
		t.Errorf("follow-up accuracy %.1f %% < %.0f %%", 100*acc, 100*minFollowUps)
	}
}

// TestDocsFollowUpOpensWithAPeriod: after an answer from the user's documents, a short message
// that opens with the period it asks and names nothing else continues the document question
// («за ноябрь значит когда» after «агентский отчёт до какого числа сдают»); one with a subject of
// its own, or too long, is a question of its own.
func TestDocsFollowUpOpensWithAPeriod(t *testing.T) {
	p := understand.NewParser()
	cats := demoCatalogs(t)
	prev := understand.State{Kind: understand.KindDocs, Question: "агентский отчет до какого числа сдают", Docs: []string{"doc-1"}}
	for _, tt := range []struct {
		q         string
		continues bool
	}{
		{"за ноябрь значит когда", true},
		{"на 1 апреля сколько", true},
		{"за ноябрь долг перед альфой какой", false},
		{"за март выручка по всем организациям какая была в итоге", false},
	} {
		in := understand.Input{Text: tt.q, Now: corpusToday, Docs: corpusDocs, Catalogs: cats}
		d := p.Parse(in)
		f, ok := p.FollowUp(in, d, prev)
		got := ok && f.Kind == understand.KindDocs && f.Rule == "follow_up_docs"
		if got != tt.continues {
			t.Errorf("%q: continues the document question %v (%s/%s), want %v", tt.q, got, f.Kind, f.Rule, tt.continues)
		}
		if got && (f.Continues != prev.Question || len(f.ContinuesDocs) != 1) {
			t.Errorf("%q: continues %q over %v", tt.q, f.Continues, f.ContinuesDocs)
		}
	}
}
