package executor

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/plan"
)

func item(title string) facts.Payload {
	return facts.Payload{Found: true, Coverage: 1, Items: []facts.Item{{Kind: "fact", Title: title, Source: 1}},
		Sources: []facts.Source{{Title: "источник " + title}}}
}

func calls(tools ...plan.Tool) []plan.ToolCall {
	out := make([]plan.ToolCall, len(tools))
	for i, t := range tools {
		out[i] = plan.ToolCall{Tool: t, Args: []byte(`{}`)}
	}
	return out
}

func TestOrderAndMerge(t *testing.T) {
	reg := Registry{
		plan.ToolSearchUserDocuments: func(context.Context, plan.ToolCall) (facts.Payload, error) { return item("договор"), nil },
		plan.ToolSearchGeneralKB:     func(context.Context, plan.ToolCall) (facts.Payload, error) { return item("статья"), nil },
	}
	res := Run(context.Background(), plan.QueryPlan{ToolCalls: calls(plan.ToolSearchUserDocuments, plan.ToolSearchGeneralKB)}, reg, Options{})
	if len(res.Facts.Items) != 2 || res.Facts.Items[0].Title != "договор" || res.Facts.Items[1].Title != "статья" {
		t.Fatalf("items %+v: want plan order", res.Facts.Items)
	}
	if res.Facts.Items[1].Source != 2 || len(res.Facts.Sources) != 2 {
		t.Errorf("sources not renumbered: %+v / %+v", res.Facts.Items, res.Facts.Sources)
	}
	if !res.Facts.Found || res.Records[0].Status != StatusOK || res.Records[1].Status != StatusOK {
		t.Errorf("records %+v", res.Records)
	}
}

// Independent calls run concurrently: each waits for the other to start.
func TestIndependentCallsRunConcurrently(t *testing.T) {
	var started atomic.Int32
	both := make(chan struct{})
	wait := func(ctx context.Context, _ plan.ToolCall) (facts.Payload, error) {
		if started.Add(1) == 2 {
			close(both)
		}
		select {
		case <-both:
			return item("x"), nil
		case <-ctx.Done():
			return facts.Payload{}, ctx.Err()
		}
	}
	reg := Registry{plan.ToolSearchUserDocuments: wait, plan.ToolSearchGeneralKB: wait}
	res := Run(context.Background(), plan.QueryPlan{ToolCalls: calls(plan.ToolSearchUserDocuments, plan.ToolSearchGeneralKB)},
		reg, Options{CallTimeout: 5 * time.Second})
	if res.Records[0].Status != StatusOK || res.Records[1].Status != StatusOK {
		t.Errorf("records %+v: independent calls did not overlap", res.Records)
	}
}

func TestDependenciesTimeoutsPanicsAndBudget(t *testing.T) {
	slow := func(ctx context.Context, _ plan.ToolCall) (facts.Payload, error) {
		<-ctx.Done()
		return facts.Payload{}, ctx.Err()
	}
	reg := Registry{
		plan.ToolFetchCBRData:        slow,
		plan.ToolSearchGeneralKB:     func(context.Context, plan.ToolCall) (facts.Payload, error) { panic("boom") },
		plan.ToolSearchUserDocuments: func(context.Context, plan.ToolCall) (facts.Payload, error) { return item("d"), nil },
	}
	p := plan.QueryPlan{ToolCalls: calls(plan.ToolFetchCBRData, plan.ToolSearchGeneralKB, plan.ToolSearchUserDocuments, plan.ToolFetchFinanceNews, plan.ToolSearchUserDocuments)}
	p.ToolCalls[2].DependsOn = []int{0}
	res := Run(context.Background(), p, reg, Options{CallTimeout: 50 * time.Millisecond, MaxToolCalls: 4})
	want := []string{StatusTimeout, StatusError, StatusSkipped, StatusUnavailable, StatusOverBudget}
	for i, w := range want {
		if res.Records[i].Status != w {
			t.Errorf("call %d (%s): status %q, want %q (%s)", i, res.Records[i].Tool, res.Records[i].Status, w, res.Records[i].Error)
		}
	}
	if res.Facts.Found || len(res.Errors) != 2 {
		t.Errorf("found %v, errors %v", res.Facts.Found, res.Errors)
	}
}

func TestFallback(t *testing.T) {
	empty := func(context.Context, plan.ToolCall) (facts.Payload, error) { return facts.Payload{}, nil }
	thin := func(context.Context, plan.ToolCall) (facts.Payload, error) {
		p := item("мало")
		p.Coverage = 0.2
		return p, nil
	}
	kb := func(context.Context, plan.ToolCall) (facts.Payload, error) { return item("статья"), nil }
	tests := []struct {
		name    string
		first   Tool
		when    []string
		trigger string
		items   int
	}{
		{"no results", empty, []string{plan.WhenNoResults}, "NO_RESULTS", 1},
		{"low coverage", thin, []string{"LOW_COVERAGE"}, "LOW_COVERAGE", 2},
		{"low coverage not asked", thin, []string{plan.WhenNoResults}, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := Registry{plan.ToolSearchUserDocuments: tt.first, plan.ToolSearchGeneralKB: kb}
			p := plan.QueryPlan{ToolCalls: calls(plan.ToolSearchUserDocuments),
				Fallback: plan.Fallback{Enabled: true, Tool: plan.ToolSearchGeneralKB, Args: []byte(`{}`), When: tt.when}}
			res := Run(context.Background(), p, reg, Options{})
			if res.Trigger != tt.trigger || len(res.Facts.Items) != tt.items {
				t.Errorf("trigger %q, %d items; want %q, %d", res.Trigger, len(res.Facts.Items), tt.trigger, tt.items)
			}
			if tt.trigger != "" && !res.Records[len(res.Records)-1].Fallback {
				t.Errorf("fallback not recorded: %+v", res.Records)
			}
		})
	}
}

func TestCallerCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	reg := Registry{plan.ToolSearchUserDocuments: func(ctx context.Context, _ plan.ToolCall) (facts.Payload, error) {
		return facts.Payload{}, ctx.Err()
	}}
	res := Run(ctx, plan.QueryPlan{ToolCalls: calls(plan.ToolSearchUserDocuments)}, reg, Options{})
	if len(res.Errors) != 1 || !errors.Is(res.Errors[0], context.Canceled) {
		t.Errorf("errors %v, want the cancellation", res.Errors)
	}
}

// A dependent call whose parent context ends while it waits is skipped without reading the
// record of the call it depends on: that call may still be running and writing it (the race
// detector caught the read; run with -race). On synctest's fake clock the dependent is surely
// waiting when the context ends, and call 0 surely still running: with real time, a dependent
// goroutine scheduled more than 25 ms late found both done and, picking either at random, could
// run.
func TestCancelledWhileWaitingOnADependency(t *testing.T) {
	synctest.Test(t, cancelledWhileWaitingOnADependency)
}

func cancelledWhileWaitingOnADependency(t *testing.T) {
	var dependentRan atomic.Bool
	reg := Registry{
		// A tool that notices the cancellation late and still returns its result.
		plan.ToolFetchCBRData: func(ctx context.Context, _ plan.ToolCall) (facts.Payload, error) {
			<-ctx.Done()
			<-time.After(20 * time.Millisecond)
			return item("курс"), nil
		},
		plan.ToolSearchGeneralKB: func(context.Context, plan.ToolCall) (facts.Payload, error) {
			dependentRan.Store(true)
			return item("статья"), nil
		},
	}
	p := plan.QueryPlan{ToolCalls: calls(plan.ToolFetchCBRData, plan.ToolSearchGeneralKB)}
	p.ToolCalls[1].DependsOn = []int{0}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	res := Run(ctx, p, reg, Options{CallTimeout: time.Second})
	if dependentRan.Load() {
		t.Error("the dependent call ran after the run was cancelled")
	}
	if got := res.Records[1]; got.Status != StatusSkipped || !strings.Contains(got.Error, "cancelled while waiting for call 0") {
		t.Errorf("dependent record = %+v, want skipped as cancelled", got)
	}
	if got := res.Records[0]; got.Status != StatusOK {
		t.Errorf("parent record = %+v, want its own outcome", got)
	}
}
