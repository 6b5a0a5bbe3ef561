package plan

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
	"github.com/finbot/finbot/ru"
)

// Model completes chats; *llm.Client satisfies it.
type Model interface {
	Complete(ctx context.Context, msgs []llm.Message, call llm.Call) (string, error)
}

// Input is what the planner knows about one question.
type Input struct {
	Question string
	// Summary is the memory gate's summary of the previous turn; empty when the question stands
	// alone.
	Summary string
	// Today is the current time in the user's zone (Moscow); the model resolves relative dates
	// from it. Zero means time.Now().
	Today time.Time
	// SelectedDocs are the titles of the selected documents. A non-empty list implies
	// Rules.HasSelection and Rules.HasDocuments.
	SelectedDocs []string
	Rules        Rules
	// Conversation and SelectedIDs are whose question it is and the ids of the selected
	// documents: never shown to the model, they keep one conversation's plans from another's
	// (Cached).
	Conversation string
	SelectedIDs  []string
}

// Plan sources recorded in Trace.Source.
const (
	SourceLLM     = "llm"     // the first reply was valid
	SourceRepair  = "repair"  // the repair call's reply was valid
	SourceDefault = "default" // the emergency plan
	SourceCache   = "cache"   // kept from an earlier question (Cached)
)

// Trace tells how a plan was obtained, for logs and the debug payload.
type Trace struct {
	Attempts int    // LLM calls made
	Source   string // SourceLLM, SourceRepair or SourceDefault
	// Problems and Raw are per attempt: the problems found in reply i and the reply itself
	// (empty when the call failed).
	Problems [][]Problem
	Raw      []string
	// Errors are the failures that were not plan problems: LLM errors, cancellation, rendering.
	Errors []string
}

// Options tune the planner.
type Options struct {
	// Model overrides the LLM client's model for planning (PLANNER_MODEL); empty = the client's.
	Model string
	// JSONObject asks only for a JSON object (response_format json_object) instead of sending
	// the plan's JSON Schema (json_schema), for models without structured outputs.
	JSONObject  bool
	Temperature float32       // 0 means the default, 0.1
	MaxTokens   int           // default 1200
	Timeout     time.Duration // deadline of one LLM call (default 20s)
}

// Planner turns questions into validated plans.
type Planner struct {
	m Model
	o Options
}

// Bounds of the repair request: the refused reply quoted back to the model, and the problems.
const (
	maxRepairRawRunes = 6000
	maxRepairProblems = 20
)

// NewPlanner returns a planner over m.
func NewPlanner(m Model, o Options) *Planner {
	if o.Temperature == 0 {
		o.Temperature = 0.1
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = 1200
	}
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Second
	}
	return &Planner{m: m, o: o}
}

// Plan asks the model for a plan, with one repair call when the reply is invalid, and falls back
// to Default when the model gives no valid plan. It always returns a plan that passes Validate
// with the input's rules. A cancelled ctx also yields the default plan (Source "default", the
// error in Trace.Errors): callers check ctx themselves.
//
// LLM failures of transport (timeout, 5xx, rate limit, open breaker) go straight to the default:
// a second call would most likely fail too. A reply that is unusable as such (llm.ErrBadResponse:
// empty, no choices) is repaired like an invalid plan.
func (p *Planner) Plan(ctx context.Context, in Input) (QueryPlan, Trace) {
	r := in.Rules.withDefaults()
	if len(in.SelectedDocs) > 0 {
		r.HasSelection, r.HasDocuments = true, true
	}
	if in.Today.IsZero() {
		in.Today = time.Now()
	}
	var tr Trace
	emergency := func() (QueryPlan, Trace) {
		tr.Source = SourceDefault
		return Default(in.Question, r), tr
	}
	prompt, err := prompts.Planner(promptData(in, r))
	if err != nil {
		tr.Errors = append(tr.Errors, err.Error())
		return emergency()
	}
	msgs := []llm.Message{{Role: "user", Content: prompt}}

	plan, raw, probs, err := p.attempt(ctx, msgs, r, &tr)
	switch {
	case err == nil && len(probs) == 0:
		tr.Source = SourceLLM
		return plan, tr
	case err != nil && (ctx.Err() != nil || !errors.Is(err, llm.ErrBadResponse)):
		return emergency()
	}

	repair, err := prompts.PlannerRepair(prompts.PlannerRepairData{Raw: ru.Clip(raw, maxRepairRawRunes),
		Problems: problemLines(probs)})
	if err != nil {
		tr.Errors = append(tr.Errors, err.Error())
		return emergency()
	}
	msgs = append(msgs, llm.Message{Role: "user", Content: repair})
	plan, _, probs, err = p.attempt(ctx, msgs, r, &tr)
	if err == nil && len(probs) == 0 {
		tr.Source = SourceRepair
		return plan, tr
	}
	return emergency()
}

// attempt makes one LLM call and checks its reply. err is the call's error; a reply that is not
// a valid plan comes back as problems. An unusable reply (llm.ErrBadResponse) is both.
func (p *Planner) attempt(ctx context.Context, msgs []llm.Message, r Rules, tr *Trace) (QueryPlan, string, []Problem, error) {
	tr.Attempts++
	cctx, cancel := context.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	call := llm.Call{JSON: true, MaxTokens: p.o.MaxTokens, Temperature: p.o.Temperature, Model: p.o.Model}
	if !p.o.JSONObject {
		call.Schema, call.SchemaName = Schema(), "query_plan"
	}
	raw, err := p.m.Complete(cctx, msgs, call)
	if err == nil {
		err = ctx.Err() // a reply that raced the caller's cancellation is not used
	}
	if err != nil {
		tr.Errors = append(tr.Errors, fmt.Sprintf("attempt %d: %v", tr.Attempts, err))
		var probs []Problem
		if errors.Is(err, llm.ErrBadResponse) {
			probs = []Problem{{Message: "ответ пустой или непригоден: нужен JSON-объект плана"}}
		}
		tr.Raw = append(tr.Raw, "")
		tr.Problems = append(tr.Problems, probs)
		return QueryPlan{}, "", probs, err
	}
	tr.Raw = append(tr.Raw, raw)
	plan, err := Decode(raw)
	var probs []Problem
	if err != nil {
		probs = []Problem{{Message: "ответ не разобран как план: " + strings.TrimPrefix(err.Error(), "plan: ")}}
	} else {
		Normalize(&plan)
		probs = Validate(plan, r)
	}
	tr.Problems = append(tr.Problems, probs)
	return plan, raw, probs, nil
}

// problemLines lists the problems for the repair request, at most maxRepairProblems of them.
func problemLines(probs []Problem) []string {
	var out []string
	for i, p := range probs {
		if i == maxRepairProblems {
			out = append(out, fmt.Sprintf("…и ещё %d", len(probs)-i))
			break
		}
		out = append(out, p.String())
	}
	return out
}

// promptData fills the planner prompt from the input, the rules and the 1C catalog.
func promptData(in Input, r Rules) prompts.PlannerData {
	d := prompts.PlannerData{
		Question:      in.Question,
		Summary:       in.Summary,
		Today:         in.Today.Format(time.DateOnly),
		SelectedDocs:  in.SelectedDocs,
		HasDocuments:  r.HasDocuments,
		HasLedger:     r.HasLedger,
		HasNews:       r.HasLLMNews,
		MaxToolCalls:  r.MaxToolCalls,
		Threshold:     strconv.FormatFloat(r.ConfidenceThreshold, 'f', -1, 64),
		DocumentTypes: strings.Join(recipe.DocumentTypes, ", "),
		Schema:        string(Schema()),
	}
	var off []string
	for _, t := range Tools() {
		if unavailable(t, r) != "" && !t.Discovery() {
			off = append(off, string(t))
		}
	}
	if !r.HasLedger {
		off = append(off, "примитивы discovery")
	}
	d.Unavailable = strings.Join(off, ", ")
	for _, rec := range recipe.Specs {
		d.Recipes = append(d.Recipes, prompts.PlannerRecipe{Name: string(rec.Name), Meaning: rec.Purpose,
			Required: strings.Join(rec.Required, ", ")})
	}
	for _, f := range filterMeanings {
		d.Filters = append(d.Filters, prompts.PlannerFilter{Key: f.Key, Meaning: f.Meaning})
	}
	return d
}
