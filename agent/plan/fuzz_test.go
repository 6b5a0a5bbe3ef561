package plan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/understand"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzDecode feeds the planner's reply parsing whatever a model (or an attacker steering one)
// might write. Decode, Normalize and Validate never panic; Validate reports problems with a
// field and a message; Normalize is idempotent; and a plan that validates survives a round
// trip through its own JSON unchanged, so a cached or logged plan means what was checked.
func FuzzDecode(f *testing.F) {
	files, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range files {
		if e.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join("testdata", e.Name()))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(b))
		}
	}
	for _, p := range []func() QueryPlan{docPlan, ledgerPlan, deepPlan, clarifyPlan} {
		b, err := json.Marshal(p())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
		f.Add("```json\n" + string(b) + "\n```")
	}
	for _, s := range []string{
		ratePlan, "", "{", "{}", "null", "[]", `{"intents":null}`, "Вот план: {\"intents\":[\"smalltalk\"]} и ещё {",
		`{"intents":["kb"],"tool_calls":[{"tool":"search_general_kb","args":{"query":"акт сверки"}}],"render_style":"SHORT","confidence":0.9}`,
		`{"intents":["news"],"tool_calls":[{"tool":"fetch_finance_news","args":{"query":"ключевая ставка","max_results":3}}],"fallback":{"enabled":true,"tool":"fetch_cbr_data","args":{"mode":"news"}},"render_style":"BULLETS","confidence":0.8}`,
		`{"intents":["docs"],"tool_calls":[{"tool":"load_documents_full","args":{"document_ids":["abcdefgh12345678"]}},{"tool":"search_general_kb","args":{"query":"пени"},"depends_on":[0]}],"render_style":"SHORT","confidence":1}`,
		`{"intents":["ledger"],"ledger":{"recipe":"list_receivables_counterparties","filters":{"as_of_date":"2026-03-31"}},"tool_calls":[{"tool":"ledger_query","args":{}}],"render_style":"TABLE","confidence":0.9,"limits":{"max_items":50}}`,
		`{"INTENTS":["key_rate"],"Tool_Calls":[{"tool":"fetch_cbr_data","args":{"mode":"key_rate","from":"2026-01-01","to":"2026-03-31"}}],"render_style":"SHORT","confidence":0.7}`,
		`{"intents":["kb"],"tool_calls":[{"tool":"search_general_kb","args":{"query":"\u0000\ud800<script>"}}],"render_style":"SHORT","confidence":1e-400}`,
		`{"intents":["kb"],"tool_calls":[{"tool":"search_general_kb","args":{"query":"a","top_k":1e309}}],"render_style":"SHORT","confidence":0.9,"depends_on":[-1]}`,
	} {
		f.Add(s)
	}
	rulesets := []Rules{{}, all, {ConfidenceThreshold: -1, MaxToolCalls: -1}}

	f.Fuzz(func(t *testing.T, raw string) {
		p, err := Decode(raw)
		if err != nil {
			return
		}
		for _, r := range rulesets {
			checkProblems(t, Validate(p, r)) // the raw plan, before any defaults
		}
		Normalize(&p)
		again := clonePlan(t, p)
		Normalize(&again)
		if diff := cmp.Diff(p, again, planEqual); diff != "" {
			t.Fatalf("Normalize is not idempotent (-once +twice):\n%s", diff)
		}
		for _, r := range rulesets {
			probs := Validate(p, r)
			checkProblems(t, probs)
			if len(probs) > 0 {
				continue
			}
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatalf("a valid plan does not marshal: %v", err)
			}
			q, err := Decode(string(b))
			if err != nil {
				t.Fatalf("a valid plan does not decode from its own JSON %s: %v", b, err)
			}
			if diff := cmp.Diff(p, q, planEqual); diff != "" {
				t.Fatalf("round trip changed a valid plan (-before +after):\n%s", diff)
			}
			if probs := Validate(q, r); len(probs) > 0 {
				t.Fatalf("a valid plan is invalid after a round trip: %v", probs)
			}
		}
	})
}

// planEqual compares plans as JSON means them: tool arguments by value, not by spacing or
// escaping, and an empty list like a missing one.
var planEqual = cmp.Options{
	cmp.FilterPath(func(p cmp.Path) bool { return p.Last().Type() != rawType }, cmpopts.EquateEmpty()),
	cmp.Comparer(func(a, b json.RawMessage) bool { return cmp.Equal(jsonValue(a), jsonValue(b)) }),
}

var rawType = reflect.TypeFor[json.RawMessage]()

// jsonValue is what raw JSON means; nothing means null, and invalid JSON stays as written.
func jsonValue(m json.RawMessage) any {
	if len(m) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(m, &v) != nil {
		return string(m)
	}
	return v
}

// clonePlan deep-copies p, so that normalizing the copy cannot touch the original.
func clonePlan(t *testing.T, p QueryPlan) QueryPlan {
	t.Helper()
	q := p
	q.Kinds = append([]understand.Kind(nil), p.Kinds...)
	q.Entities = append([]Entity(nil), p.Entities...)
	q.ToolCalls = make([]ToolCall, len(p.ToolCalls))
	for i, c := range p.ToolCalls {
		q.ToolCalls[i] = ToolCall{Tool: c.Tool, Args: append(json.RawMessage(nil), c.Args...), DependsOn: append([]int(nil), c.DependsOn...)}
	}
	q.Fallback.Args = append(json.RawMessage(nil), p.Fallback.Args...)
	q.Fallback.When = append([]string(nil), p.Fallback.When...)
	q.ClarificationOptions = append([]string(nil), p.ClarificationOptions...)
	if p.Ledger != nil {
		a := *p.Ledger
		q.Ledger = &a
	}
	if p.Discovery != nil {
		d := *p.Discovery
		d.ProposedPrimitives = append([]Tool(nil), d.ProposedPrimitives...)
		d.RequiredAxes = append([]string(nil), d.RequiredAxes...)
		d.ClarificationGaps = append([]string(nil), d.ClarificationGaps...)
		d.TurnMeaning.ExplicitEntityCandidates = append([]string(nil), d.TurnMeaning.ExplicitEntityCandidates...)
		q.Discovery = &d
	}
	return q
}

// checkProblems: every problem says something, in valid UTF-8, and names a plausible field.
func checkProblems(t *testing.T, probs []Problem) {
	t.Helper()
	for _, pr := range probs {
		if strings.TrimSpace(pr.Message) == "" || !utf8.ValidString(pr.Message) || !utf8.ValidString(pr.Field) {
			t.Fatalf("problem %+v: want a non-empty UTF-8 message", pr)
		}
		if strings.ContainsAny(pr.Field, " \n") {
			t.Fatalf("problem field %q is not a field path", pr.Field)
		}
	}
}
