package llm

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// counts is a Usage read in one go, for comparisons.
type counts struct{ Calls, Prompt, Completion int }

func countsOf(u *Usage) counts { return counts{u.Calls(), u.PromptTokens(), u.CompletionTokens()} }

func TestUsageAddsCallsAndTokens(t *testing.T) {
	var calls atomic.Int32
	ok := newClient(standIn(t, 200, "ok.json", &calls).URL)                // 42 + 8 tokens
	empty := newClient(standIn(t, 200, "no_choices.json", &calls).URL)     // 1 + 0 tokens, no choices
	limited := newClient(standIn(t, 429, "rate_limited.json", &calls).URL) // no usage
	u := new(Usage)
	ctx := WithUsage(t.Context(), u)
	if UsageFrom(ctx) != u {
		t.Fatal("UsageFrom(WithUsage(ctx, u)) is not u")
	}
	msgs := []Message{{Role: "user", Content: "Привет"}}

	steps := []struct {
		c    *Client
		want counts
	}{
		{ok, counts{1, 42, 8}},
		{limited, counts{2, 42, 8}}, // a failed call counts
		{empty, counts{3, 43, 8}},   // so do the tokens of an unusable answer
	}
	for i, s := range steps {
		s.c.Complete(ctx, msgs, Call{})
		if diff := cmp.Diff(s.want, countsOf(u)); diff != "" {
			t.Errorf("after call %d, usage mismatch (-want +got):\n%s", i+1, diff)
		}
	}
}

func TestUsageIsSafeForConcurrentCalls(t *testing.T) {
	var calls atomic.Int32
	c := newClient(standIn(t, 200, "ok.json", &calls).URL)
	u := new(Usage)
	ctx := WithUsage(t.Context(), u)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := c.Complete(ctx, []Message{{Role: "user", Content: "x"}}, Call{}); err != nil {
				t.Errorf("Complete() error: %v", err)
			}
		})
	}
	wg.Wait()
	if diff := cmp.Diff(counts{8, 8 * 42, 8 * 8}, countsOf(u)); diff != "" {
		t.Errorf("usage mismatch (-want +got):\n%s", diff)
	}
}

// Calls the open breaker refuses never reach the service, so they cost nothing.
func TestUsageSkipsCallsRefusedByBreaker(t *testing.T) {
	var calls atomic.Int32
	c := New(Options{BaseURL: standIn(t, 503, "error_in_200.json", &calls).URL + "/api/v1", APIKey: "sk-or-v1-test",
		Model: "openai/gpt-4o-mini", Timeout: time.Second, BreakerTimeout: time.Hour})
	u := new(Usage)
	for range 5 {
		c.Complete(WithUsage(t.Context(), u), []Message{{Role: "user", Content: "x"}}, Call{})
	}
	if u.Calls() != 3 || int(calls.Load()) != 3 {
		t.Errorf("counted calls = %d, upstream calls = %d; want 3 and 3", u.Calls(), calls.Load())
	}
}

func TestNoUsageInContext(t *testing.T) {
	if u := UsageFrom(context.Background()); u != nil {
		t.Errorf("UsageFrom(empty context) = %v, want nil", u)
	}
}
