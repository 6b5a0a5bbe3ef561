package plan

import (
	"context"
	"testing"
	"time"
)

// countingPlanner answers every question with the plan of source src, counting the calls.
type countingPlanner struct {
	src   string
	calls int
}

func (c *countingPlanner) Plan(context.Context, Input) (QueryPlan, Trace) {
	c.calls++
	return QueryPlan{Confidence: 0.9}, Trace{Source: c.src, Attempts: 1}
}

func TestCached(t *testing.T) {
	now := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	alice := Input{Question: "Курс доллара и кто нам должен?", Conversation: "chat:1:user:1", Today: now}
	bob := alice
	bob.Conversation = "chat:1:user:2"
	sameWords := alice
	sameWords.Question = "курс доллара  и кто нам должен"
	otherDoc := alice
	otherDoc.SelectedIDs = []string{"d1"}

	llm := &countingPlanner{src: SourceLLM}
	c := Cached{Planner: llm, Cache: NewCache(10, time.Minute, clock)}
	for i, tt := range []struct {
		in    Input
		src   string
		calls int
	}{
		{alice, SourceLLM, 1},
		{alice, SourceCache, 1},
		{sameWords, SourceCache, 1},
		{bob, SourceLLM, 2},      // another user's plan is never served
		{otherDoc, SourceLLM, 3}, // nor one made over other documents
	} {
		if _, tr := c.Plan(t.Context(), tt.in); tr.Source != tt.src || llm.calls != tt.calls {
			t.Errorf("%d: source %q after %d calls, want %q after %d", i, tr.Source, llm.calls, tt.src, tt.calls)
		}
	}
	now = now.Add(time.Minute)
	if _, tr := c.Plan(t.Context(), alice); tr.Source != SourceLLM {
		t.Errorf("an expired plan was served: %q", tr.Source)
	}

	def := &countingPlanner{src: SourceDefault}
	c = Cached{Planner: def, Cache: NewCache(10, time.Minute, clock)}
	c.Plan(t.Context(), alice)
	if _, tr := c.Plan(t.Context(), alice); tr.Source != SourceDefault || def.calls != 2 {
		t.Errorf("the emergency plan was kept: %q after %d calls", tr.Source, def.calls)
	}
}
