package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/probes"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/agent/render"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/ru"
)

// Guarded discovery (issue #6) answers 1C questions outside the recipe catalog
// (LEDGER_DEEP_ANALYSIS). The model only proposes: the runtime plan of agent/ledger/probes keeps
// the whitelisted primitives and decides whether anything may run; the runner runs each allowed
// primitive as a fixed read-only query within the plan's probe budget; the evidence gate decides
// how strongly the answer may speak, and the code, not the model, says so up front.

// Statuses of a discovery call that did not run, besides the runner's own (ok, empty, error,
// unsupported).
const (
	probeNotAllowed = "not_allowed" // the runtime plan rejected the primitive
	probeBadArgs    = "bad_args"    // the arguments did not decode
	probeOverBudget = executor.StatusOverBudget
	probeTimeout    = executor.StatusTimeout
)

// DiscoveryDebug explains a deep-analysis answer: the runtime plan, the evidence contract and
// every primitive call of the plan.
type DiscoveryDebug struct {
	Plan     probes.Plan      `json:"plan"`
	Evidence probes.Evidence  `json:"evidence"`
	Probes   []DiscoveryProbe `json:"probes,omitempty"`
}

// DiscoveryProbe is one primitive call and what became of it.
type DiscoveryProbe struct {
	// Index is the call's position in the plan's tool_calls; -1 for a call made from the
	// proposal alone.
	Index     int              `json:"index"`
	Primitive string           `json:"primitive"`
	Args      runner.ProbeArgs `json:"args"`
	// Status is the runner's (ok, empty, error, unsupported), timeout, or why the call did not
	// run: not_allowed, bad_args, over_budget.
	Status       string        `json:"status"`
	RowsReceived int           `json:"rows_received"`
	RowsMatched  int           `json:"rows_matched"`
	RowsReturned int           `json:"rows_returned"`
	Confirmed    bool          `json:"confirmed"`
	Queries      []string      `json:"queries,omitempty"`
	Scope        string        `json:"scope,omitempty"`
	Limitations  []string      `json:"limitations,omitempty"`
	Error        string        `json:"error,omitempty"`
	Elapsed      time.Duration `json:"elapsed_ns"`
}

// ran reports whether the call reached the runner.
func (p DiscoveryProbe) ran() bool {
	return p.Status != probeNotAllowed && p.Status != probeBadArgs && p.Status != probeOverBudget
}

// records are the calls as the executor's records, for the trace's "records".
func (d *DiscoveryDebug) records() []plan.Record {
	out := make([]plan.Record, 0, len(d.Probes))
	for _, p := range d.Probes {
		out = append(out, plan.Record{Index: p.Index, Tool: plan.Tool(p.Primitive), Status: p.Status, Items: p.RowsMatched,
			Elapsed: p.Elapsed, Error: p.Error})
	}
	return out
}

// deepAnalysis answers a LEDGER_DEEP_ANALYSIS plan through guarded discovery: q.Text is the
// question (a follow-up resolved into a whole one), q.Summary what the planner was told of the
// previous turn. The trace holds the runtime plan, the evidence and the probes ("discovery")
// and the probes as the executor's records ("records").
func (s *Skill) deepAnalysis(ctx context.Context, q skill.Query, p plan.QueryPlan) (skill.Reply, error) {
	if s.runner == nil {
		return skill.Text(NotConnectedText), nil
	}
	if !s.access(q.UserID, q.ChatID) {
		return denied(), nil
	}
	r, dd, err := s.discover(ctx, q, p)
	if err != nil {
		return skill.Reply{}, err
	}
	if r.Trace == nil {
		r.Trace = skill.Trace{}
	}
	r.Trace["records"], r.Trace["discovery"] = dd.records(), dd
	return r, nil
}

// discover builds the runtime plan, runs what it allows and answers as the evidence permits.
// It records the wording and the post-check in the reply.
func (s *Skill) discover(ctx context.Context, q skill.Query, p plan.QueryPlan) (skill.Reply, *DiscoveryDebug, error) {
	question, summary := q.Text, q.Summary
	dp := probes.BuildPlan(discoveryInput(p))
	dd := &DiscoveryDebug{Plan: dp}
	r := skill.Reply{Recipe: plan.ModeDeepAnalysis}
	switch dp.PlanStatus {
	case probes.PlanBlocked:
		dd.Evidence = probes.ResolveEvidence(probes.EvidenceInput{Plan: dp})
		r.Text = "**" + sentence(dd.Evidence.Wording()) + ".** Предложенные способы проверки не входят в утверждённый список запросов к 1С, поэтому данные 1С не запрашивались."
		return r, dd, nil
	case probes.PlanNeedsClarification:
		dd.Evidence = probes.ResolveEvidence(probes.EvidenceInput{Plan: dp})
		r.Text = md.Escape(clarifyingQuestion(p, dp, question))
		for _, o := range p.ClarificationOptions {
			// The model's labels, sent back as the user's question when pressed: checked, at
			// most five.
			if o, ok := postcheck.Unsourced(o, question, 60); ok && len(r.Buttons) < 5 {
				r.Buttons = append(r.Buttons, skill.Button{Text: o})
			}
		}
		return r, dd, nil
	}

	outcomes, results, err := s.runProbes(ctx, s.discoveryCalls(p, dp), dp, dd)
	if err != nil {
		return skill.Reply{}, nil, err
	}
	ev := probes.ResolveEvidence(evidenceInput(dp, dd.Probes, outcomes, results))
	dd.Evidence = ev
	if slices.ContainsFunc(dd.Probes, func(p DiscoveryProbe) bool { return p.Status == string(runner.ProbeError) || p.Status == probeTimeout }) {
		r.Degraded = append(r.Degraded, "tools_failed")
	}

	for _, pr := range dd.Probes {
		if pr.ran() {
			args, _ := json.Marshal(pr.Args)
			r.Calls = append(r.Calls, skill.Call{Source: "1c." + pr.Primitive, Args: string(args), Result: pr.Status, Rows: pr.RowsMatched})
		}
	}
	source := facts.Source{Title: "Данные: " + s.runner.SourceName()}
	if ev.AnswerPermission == probes.AnswerCheckedSourcesOnly {
		r.Text = checkedSourcesText(ev, dd.Probes)
		if slices.ContainsFunc(dd.Probes, DiscoveryProbe.ran) {
			r.Sources = []facts.Source{source}
		}
		return r, dd, nil
	}

	f := discoveryFacts(ev, dd.Probes, outcomes, source)
	style, _ := render.ParseStyle(string(p.RenderStyle))
	limits := render.Limits{MaxItems: p.Limits.MaxItems, MaxGroups: p.Limits.MaxGroups, MaxParagraphs: p.Limits.MaxParagraphs}
	text, how, checks, degraded := s.writer.Facts(ctx, q.Progress, question, summary, f, style, limits)
	if ctx.Err() != nil {
		return skill.Reply{}, nil, ctx.Err()
	}
	r.Wording, r.PostCheck = how, checks
	if degraded != "" {
		r.Degraded = append(r.Degraded, degraded)
	}
	// The permission is stated by code, before whatever the model wrote.
	lead := "**" + sentence(ev.Wording()) + ".**"
	if ev.AnswerPermission == probes.AnswerBoundedInference {
		lead = "**" + sentence(ev.Wording()) + ":** прямого подтверждения в 1С нет, ниже — то, на что указывают связанные данные."
	}
	r.Text = lead + "\n\n" + text
	for _, src := range f.Sources {
		r.Sources = append(r.Sources, facts.Source{Title: src.Title, URL: src.URL})
	}
	return r, dd, nil
}

// evidenceInput is what the evidence gate reads: the probe results, and the findings of the
// probes that ran as confirmed (plain readings of matched rows) or inferred facts, with their
// unknowns, scopes and limitations. explain_evidence_basis only describes the others: it is no
// evidence of its own.
func evidenceInput(dp probes.Plan, ran []DiscoveryProbe, outcomes map[int]runner.ProbeOutcome, results []probes.ProbeResult) probes.EvidenceInput {
	in := probes.EvidenceInput{Plan: dp, ProbeResults: results}
	var rowsSummary []string
	for i, pr := range ran {
		o, ok := outcomes[i]
		switch {
		case !ok:
			if pr.Status == probeOverBudget && in.RecommendedNextProbe == "" {
				in.RecommendedNextProbe = pr.Primitive
			}
			continue
		case pr.Primitive == string(plan.ToolExplainEvidenceBasis):
			continue
		}
		for _, it := range o.Facts {
			statement := it.Text
			if it.Title != "" {
				statement = it.Title + ": " + it.Text
			}
			if o.Confirmed {
				in.ConfirmedFacts = append(in.ConfirmedFacts, statement)
			} else {
				in.InferredFacts = append(in.InferredFacts, statement)
			}
		}
		in.UnknownFacts = append(in.UnknownFacts, o.Unknown...)
		if o.Scope != "" {
			in.QueryLimitations = append(in.QueryLimitations, o.Scope)
		}
		in.QueryLimitations = append(in.QueryLimitations, o.Limitations...)
		rowsSummary = append(rowsSummary, fmt.Sprintf("%s: %d of %d rows matched, %d returned (%s)", pr.Primitive, o.RowsMatched,
			o.RowsReceived, o.RowsReturned, strings.Join(o.Queries, ", ")))
	}
	in.SourceRowsSummary = strings.Join(rowsSummary, "; ")
	return in
}

// discoveryInput is what the runtime plan is built from: the plan's discovery proposal plus
// the primitives its tool calls name. Scenario tools (ledger_query, search_general_kb…) are
// not discovery proposals; a tool nobody registered is, so that the policy rejects it.
func discoveryInput(p plan.QueryPlan) probes.PlanInput {
	var in probes.PlanInput
	if d := p.Discovery; d != nil {
		in.SemanticDataNeed = d.SemanticDataNeed
		in.TurnMeaning = turnMeaningRef(d.TurnMeaning)
		for _, t := range d.ProposedPrimitives {
			in.ProposedPrimitives = append(in.ProposedPrimitives, string(t))
		}
		in.RequiredAxes, in.ClarificationGaps = d.RequiredAxes, d.ClarificationGaps
	}
	for _, c := range p.ToolCalls {
		if isProbeCall(c.Tool) {
			in.ProposedPrimitives = append(in.ProposedPrimitives, string(c.Tool))
		}
	}
	return in
}

// isProbeCall reports whether a tool call belongs to discovery: a discovery primitive, or a
// tool the planner does not know at all.
func isProbeCall(t plan.Tool) bool { return t.Discovery() || !slices.Contains(plan.Tools(), t) }

// turnMeaningRef converts the model's reading of the turn; a reading with nothing in it is
// none (nil).
func turnMeaningRef(m plan.TurnMeaning) *probes.TurnMeaningRef {
	if m.AskedDomainFamily == "" && m.AskedActionFamily == "" && m.AskedAggregationAxis == "" &&
		len(m.ExplicitEntityCandidates) == 0 && m.ExplicitOrganizationScope == "" && m.ExplicitDateScope == "" && m.MeaningConfidence == 0 {
		return nil
	}
	conf := m.MeaningConfidence
	return &probes.TurnMeaningRef{
		AskedDomainFamily:         m.AskedDomainFamily,
		AskedActionFamily:         m.AskedActionFamily,
		AskedAggregationAxis:      m.AskedAggregationAxis,
		ExplicitEntityCandidates:  m.ExplicitEntityCandidates,
		ExplicitOrganizationScope: m.ExplicitOrganizationScope,
		ExplicitDateScope:         m.ExplicitDateScope,
		MeaningConfidence:         &conf,
	}
}

// discoveryCall is one primitive call to consider.
type discoveryCall struct {
	index int
	tool  plan.Tool
	args  runner.ProbeArgs
	err   error // the arguments did not decode
}

// discoveryCalls are the plan's discovery calls in plan order; a plan with none gets one call
// per allowed primitive, with the arguments the turn's meaning gives. Every call reads the
// organization the turn names, and an aggregation without an axis takes the turn's.
func (s *Skill) discoveryCalls(p plan.QueryPlan, dp probes.Plan) []discoveryCall {
	meaning := s.meaningArgs(p)
	var calls []discoveryCall
	for i, c := range p.ToolCalls {
		if !isProbeCall(c.Tool) {
			continue
		}
		var da plan.DiscoveryArgs
		err := c.Decode(&da)
		args := runner.ProbeArgs{Entity: da.Entity, Account: da.Account, DateFrom: da.DateFrom, DateTo: da.DateTo, Axis: da.Axis,
			DocumentType: da.DocumentType, Organization: meaning.Organization, Limit: da.Limit}
		if args.Axis == "" {
			args.Axis = meaning.Axis
		}
		calls = append(calls, discoveryCall{index: i, tool: c.Tool, args: args, err: err})
	}
	if len(calls) > 0 {
		return calls
	}
	for _, prim := range dp.AllowedPrimitives {
		calls = append(calls, discoveryCall{index: -1, tool: plan.Tool(prim), args: meaning})
	}
	return calls
}

// meaningArgs are the arguments the turn's meaning gives: its first entity, its axis, its date
// scope (when it reads as a period) and its organization.
func (s *Skill) meaningArgs(p plan.QueryPlan) runner.ProbeArgs {
	var args runner.ProbeArgs
	if p.Discovery == nil {
		return args
	}
	d := p.Discovery
	m := d.TurnMeaning
	if len(m.ExplicitEntityCandidates) > 0 {
		args.Entity = m.ExplicitEntityCandidates[0]
	}
	for _, axis := range append([]string{m.AskedAggregationAxis}, d.RequiredAxes...) {
		if slices.Contains(plan.Axes, axis) {
			args.Axis = axis
			break
		}
	}
	if m.ExplicitDateScope != "" {
		if period, ok, err := ru.ParsePeriod(m.ExplicitDateScope, s.now()); ok && err == nil {
			args.DateFrom, args.DateTo = period.From.Format(time.DateOnly), period.To.Format(time.DateOnly)
		}
	}
	args.Organization = m.ExplicitOrganizationScope
	return args
}

// runProbes runs the calls the runtime plan allows, in plan order, at most the budget's probe
// count of them (explain_evidence_basis runs no query, so it is not counted, and it runs last,
// once, to describe the others), each within its own deadline and the budget's row limit. It
// returns the outcomes by position in dd.Probes and the probe results for the evidence gate.
func (s *Skill) runProbes(ctx context.Context, calls []discoveryCall, dp probes.Plan, dd *DiscoveryDebug) (map[int]runner.ProbeOutcome, []probes.ProbeResult, error) {
	budget := dp.ExecutionBudget
	outcomes := map[int]runner.ProbeOutcome{}
	var results []probes.ProbeResult
	var explain *discoveryCall
	ran := 0
	run := func(c discoveryCall) error {
		pr := DiscoveryProbe{Index: c.index, Primitive: string(c.tool), Args: c.args}
		o, err := s.probe(ctx, c, budget.MaxRowsPerProbe, &pr)
		if err != nil {
			return err
		}
		outcomes[len(dd.Probes)] = o
		dd.Probes = append(dd.Probes, pr)
		results = append(results, probeResult(pr.Primitive, o))
		return nil
	}
	for _, c := range calls {
		pr := DiscoveryProbe{Index: c.index, Primitive: string(c.tool), Args: c.args}
		switch {
		case !slices.Contains(dp.AllowedPrimitives, probes.Primitive(c.tool)):
			pr.Status = probeNotAllowed
		case c.err != nil:
			pr.Status, pr.Error = probeBadArgs, c.err.Error()
		case c.tool == plan.ToolExplainEvidenceBasis:
			if explain == nil {
				explain = &c
			}
			continue
		case ran >= budget.MaxProbeCount:
			pr.Status = probeOverBudget
			results = append(results, probes.ProbeResult{PrimitiveID: pr.Primitive, Status: probes.ProbeSkipped,
				Limitation: fmt.Sprintf("Лимит в %s исчерпан: «%s» не выполнялась.", ru.Count(budget.MaxProbeCount, "проверку", "проверки", "проверок"),
					primitiveName(pr.Primitive))})
		default:
			ran++
			if err := run(c); err != nil {
				return nil, nil, err
			}
			continue
		}
		dd.Probes = append(dd.Probes, pr)
	}
	if explain != nil {
		if err := run(*explain); err != nil {
			return nil, nil, err
		}
	}
	return outcomes, results, nil
}

// probe runs one primitive on the runner with its own deadline. The error is the answer's
// context only.
func (s *Skill) probe(ctx context.Context, c discoveryCall, maxRows int, pr *DiscoveryProbe) (runner.ProbeOutcome, error) {
	args := c.args
	if args.Limit <= 0 || args.Limit > maxRows {
		args.Limit = maxRows
	}
	pr.Args = args
	pctx, cancel := context.WithTimeout(ctx, s.toolTO)
	defer cancel()
	start := time.Now()
	o, err := s.runner.Probe(pctx, string(c.tool), args)
	pr.Elapsed = time.Since(start)
	if ctx.Err() != nil {
		return o, ctx.Err()
	}
	pr.Status = string(o.Status)
	switch {
	case errors.Is(pctx.Err(), context.DeadlineExceeded):
		pr.Status, o.Status = probeTimeout, runner.ProbeError
	case err != nil: // an unknown primitive: the runtime plan lets none through
		pr.Status, o.Status = string(runner.ProbeError), runner.ProbeError
		o.Error = err.Error()
	}
	if o.Status == runner.ProbeError {
		s.log.WarnContext(ctx, "discovery probe failed", "primitive", c.tool, "status", pr.Status, "err", o.Error)
	}
	pr.RowsReceived, pr.RowsMatched, pr.RowsReturned, pr.Confirmed = o.RowsReceived, o.RowsMatched, o.RowsReturned, o.Confirmed
	pr.Queries, pr.Scope, pr.Limitations, pr.Error = o.Queries, o.Scope, o.Limitations, o.Error
	return o, nil
}

// probeResult is a runner outcome as the evidence gate reads it.
func probeResult(primitive string, o runner.ProbeOutcome) probes.ProbeResult {
	status := probes.ProbeOK
	switch o.Status {
	case runner.ProbeError:
		status = probes.ProbeError
	case runner.ProbeUnsupported:
		status = probes.ProbeSkipped
	}
	received, matched := float64(o.RowsReceived), float64(o.RowsMatched)
	r := probes.ProbeResult{PrimitiveID: primitive, Status: status, RowsReceived: &received, RowsMatched: &matched}
	if len(o.Limitations) > 0 {
		r.Limitation = o.Limitations[0]
	}
	return r
}
