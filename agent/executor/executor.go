// Package executor runs a QueryPlan: its tool calls in order, independent ones concurrently,
// each with its own deadline, within the plan's budget; it merges what they return into one
// facts.Payload and applies the plan's fallback when the facts are missing or thin.
package executor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/plan"
)

// Tool runs one tool call and returns its facts. An empty payload (no items) means the tool
// found nothing; an error means it could not answer.
type Tool func(ctx context.Context, call plan.ToolCall) (facts.Payload, error)

// Registry maps the plan's tool names to their implementations. A tool missing from the
// registry is not available in this installation.
type Registry map[plan.Tool]Tool

// Options bound a run.
type Options struct {
	// MaxToolCalls bounds the calls of one run, the fallback included (default 4).
	MaxToolCalls int
	// CallTimeout is each call's own deadline (default 20s).
	CallTimeout time.Duration
	// MinCoverage is the coverage under which LOW_COVERAGE holds (default 0.5).
	MinCoverage float64
}

// Status of one call.
const (
	StatusOK          = "ok"
	StatusEmpty       = "empty"
	StatusError       = "error"
	StatusTimeout     = "timeout"
	StatusSkipped     = "skipped"     // a call it depends on failed
	StatusUnavailable = "unavailable" // the tool is not in the registry
	StatusOverBudget  = "over_budget"
)

// Result is a run's outcome.
type Result struct {
	Facts   facts.Payload `json:"facts"`
	Records []plan.Record `json:"records"`
	// Trigger is the fallback condition that fired ("NO_RESULTS", "LOW_COVERAGE"), if any.
	Trigger string `json:"fallback_trigger,omitempty"`
	// Errors are the calls' errors, for the caller to decide whether the whole answer failed.
	Errors []error `json:"-"`
}

// Run executes p with the tools of reg.
func Run(ctx context.Context, p plan.QueryPlan, reg Registry, o Options) Result {
	if o.MaxToolCalls <= 0 {
		o.MaxToolCalls = 4
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 20 * time.Second
	}
	if o.MinCoverage <= 0 {
		o.MinCoverage = 0.5
	}
	n := len(p.ToolCalls)
	records := make([]plan.Record, n)
	payloads := make([]facts.Payload, n)
	errs := make([]error, n)
	done := make([]chan struct{}, n)
	for i := range done {
		done[i] = make(chan struct{})
	}
	var wg sync.WaitGroup
	for i, call := range p.ToolCalls {
		records[i] = plan.Record{Index: i, Tool: call.Tool}
		if i >= o.MaxToolCalls {
			records[i].Status = StatusOverBudget
			close(done[i])
			continue
		}
		wg.Go(func() {
			defer close(done[i])
			for _, d := range call.DependsOn {
				if d < 0 || d >= i {
					continue // Validate rejects these; never wait on a later call
				}
				select {
				case <-done[d]:
				case <-ctx.Done():
					// Call d may still be running and writing its record: do not read it.
					records[i].Status = StatusSkipped
					records[i].Error = fmt.Sprintf("cancelled while waiting for call %d: %v", d, ctx.Err())
					return
				}
				// done[d] is closed: call d has finished writing its record.
				if records[d].Status != StatusOK {
					records[i].Status = StatusSkipped
					records[i].Error = fmt.Sprintf("depends on call %d (%s)", d, records[d].Status)
					return
				}
			}
			payloads[i], records[i], errs[i] = runOne(ctx, i, call, reg, o.CallTimeout)
		})
	}
	wg.Wait()

	var res Result
	res.Facts.Sources = []facts.Source{}
	for i := range p.ToolCalls {
		res.Facts.Merge(payloads[i])
		if errs[i] != nil {
			res.Errors = append(res.Errors, errs[i])
		}
	}
	used := min(n, o.MaxToolCalls)
	if f := p.Fallback; f.Enabled && f.Tool != "" && used < o.MaxToolCalls {
		trigger := ""
		switch {
		case len(res.Facts.Items) == 0 && slices.Contains(f.When, "NO_RESULTS"):
			trigger = "NO_RESULTS"
		case len(res.Facts.Items) > 0 && res.Facts.Coverage < o.MinCoverage && slices.Contains(f.When, "LOW_COVERAGE"):
			trigger = "LOW_COVERAGE"
		}
		if trigger != "" {
			res.Trigger = trigger
			pl, rec, err := runOne(ctx, -1, plan.ToolCall{Tool: f.Tool, Args: f.Args}, reg, o.CallTimeout)
			rec.Fallback = true
			records = append(records, rec)
			res.Facts.Merge(pl)
			if err != nil {
				res.Errors = append(res.Errors, err)
			}
		}
	}
	res.Facts.Found = len(res.Facts.Items) > 0
	res.Records = records
	return res
}

// runOne calls one tool under its own deadline and recovers a panicking tool.
func runOne(ctx context.Context, index int, call plan.ToolCall, reg Registry, timeout time.Duration) (pl facts.Payload, rec plan.Record, err error) {
	rec = plan.Record{Index: index, Tool: call.Tool}
	tool, ok := reg[call.Tool]
	if !ok {
		rec.Status = StatusUnavailable
		return facts.Payload{}, rec, nil
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	defer func() {
		rec.Elapsed = time.Since(start)
		if p := recover(); p != nil {
			pl, err = facts.Payload{}, fmt.Errorf("executor: tool %s panicked: %v", call.Tool, p)
			rec.Status, rec.Error = StatusError, err.Error()
		}
	}()
	pl, err = tool(cctx, call)
	switch {
	case err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		rec.Status, rec.Error = StatusTimeout, err.Error()
		err = fmt.Errorf("executor: %s: %w", call.Tool, err)
	case err != nil:
		rec.Status, rec.Error = StatusError, err.Error()
		err = fmt.Errorf("executor: %s: %w", call.Tool, err)
	case len(pl.Items) == 0:
		rec.Status = StatusEmpty
	default:
		rec.Status = StatusOK
	}
	if err != nil {
		pl = facts.Payload{}
	}
	rec.Items = len(pl.Items)
	return pl, rec, err
}
