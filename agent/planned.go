package agent

// The planner stage, for a message the parser is unsure of: the planner's plan, read as a
// decision when it is one skill's, answered by that skill when its tools are all one skill's,
// else run by the executor over the skills' tools and phrased by the answer LLM under the
// post-check.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/render"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/ru"
)

// Planner defaults.
const (
	defaultPlanCacheTTL  = 10 * time.Minute
	defaultPlanCacheSize = 10_000
	defaultToolTimeout   = 20 * time.Second
)

// llmDown reports whether planning would fail at once: the LLM's breaker is open, or the
// service asked with a 429's Retry-After not to be called yet.
func (a *Agent) llmDown() bool {
	if s, ok := a.llm.(interface{ State() string }); ok && s.State() == "open" {
		return true
	}
	r, ok := a.llm.(interface{ RetryAfter() time.Time })
	return ok && !r.RetryAfter().IsZero()
}

// planned asks the planner and answers by the plan. When no valid plan comes (the model could
// not be reached, or its plans failed validation and repair) the parser's decision stands:
// the emergency default plan, a broad search, would answer a rates or 1C question worse.
func (a *Agent) planned(ctx context.Context, req Request, q skill.Query, route Route) (Answer, error) {
	q.Summary = memoryGate(q.Text, q.History)
	in := plan.Input{Question: q.Text, Summary: q.Summary, Today: a.now().In(ru.Moscow), Rules: a.planRules(ctx, q)}
	var ids []string
	for _, m := range q.Docs.Selected {
		in.SelectedDocs = append(in.SelectedDocs, ru.Truncate(m.Title, 80))
		ids = append(ids, m.ID)
	}
	key := planKey(fmt.Sprintf("chat:%d:user:%d", req.ChatID, req.UserID), q.Text, q.Summary, in, ids)
	p, ok := a.cachedPlan(key)
	dbg := &PlanDebug{Source: "cache", Summary: q.Summary}
	if !ok {
		var tr plan.Trace
		p, tr = a.planner.Plan(ctx, in)
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		dbg.Source, dbg.Attempts, dbg.Problems, dbg.Errors = tr.Source, tr.Attempts, tr.Problems, tr.Errors
		if tr.Source == plan.SourceDefault {
			tag := "planner_invalid"
			if planLLMFailed(tr) {
				tag = "planner_unavailable"
			}
			a.log.WarnContext(ctx, "no valid plan; the parser decides", "why", tag, "err", strings.Join(tr.Errors, "; "))
			route.LLMError = strings.Join(tr.Errors, "; ")
			ans, err := a.decided(ctx, req, q, route)
			ans.Debug.Degraded = append(ans.Debug.Degraded, tag)
			return ans, err
		}
		if a.opts.PlanCacheTTL > 0 {
			a.plans.Add(key, cachedPlan{plan: p, at: a.now()})
		}
	}
	dbg.Plan = p
	route.Source = "planner"
	if dbg.Source != plan.SourceLLM {
		route.Source = "planner_" + dbg.Source
	}
	route.Reasons = append(route.Reasons, "план: "+kindsOf(p))
	ans, err := a.byPlan(ctx, req, q, p, route, dbg)
	if err != nil {
		return Answer{}, err
	}
	ans.Debug.Plan = dbg
	return ans, nil
}

// byPlan answers by the plan: as a decision when the plan is one skill's slots (a 1C recipe,
// rates, the key rate), validated as the parser's own; by the one skill all its calls belong
// to, or that its kinds name, when that skill answers such a plan whole; else by the facts of
// its calls, phrased by the answer LLM.
func (a *Agent) byPlan(ctx context.Context, req Request, q skill.Query, p plan.QueryPlan, route Route, dbg *PlanDebug) (Answer, error) {
	parsed := q.Decision
	if d, ok := a.fromPlan(ctx, q, p, parsed); ok {
		q.Decision = d
		r := rowOf(d.Kind)
		dbg.Handler = string(d.Kind)
		if d.Kind == understand.KindUnknownEntity {
			dbg.Handler = string(understand.KindLedger)
		}
		route.Sure, route.Rule = d.Sure, d.Rule
		_ = r
		return a.decided(ctx, req, q, route)
	}
	if q.Summary != "" {
		if s := planQuery(p); s != "" {
			q.Text = s // the follow-up resolved into a whole question
		}
	}
	q.Plan = &p
	if k, ok := planKind(p); ok {
		r := rowOf(k)
		q.Searches = searches(p, r.tools, q.Text)
		rep, err := a.ask(ctx, r, q)
		if err != nil {
			return Answer{}, err
		}
		if !rep.Unanswered {
			dbg.Handler = string(r.kind)
			dbg.Answer, dbg.PostCheck = rep.Wording, rep.PostCheck
			if recs, ok := rep.Trace["records"].([]executor.Record); ok {
				dbg.Records = recs
			}
			ans := reply(r, rep, route)
			return ans, nil
		}
	}
	dbg.Handler = "facts"
	ans, err := a.facts(ctx, q, p, dbg)
	ans.Debug.Route = route
	ans.Kind = understand.KindGeneral
	if len(p.Kinds) > 0 {
		ans.Kind = p.Kinds[0]
		ans.Scenario = rowOf(p.Kinds[0]).scenario
	}
	return ans, err
}

// planKind is the one kind a plan's skill may answer it as: a question back or small talk
// without calls, guarded discovery, or the kind of the one skill every call belongs to.
func planKind(p plan.QueryPlan) (understand.Kind, bool) {
	switch {
	case len(p.ToolCalls) == 0 && slices.Contains(p.Kinds, understand.KindClarify):
		return understand.KindClarify, true
	case len(p.ToolCalls) == 0 && slices.Contains(p.Kinds, understand.KindSmallTalk):
		return understand.KindSmallTalk, true
	case slices.Contains(p.Kinds, understand.KindLedgerDeep) && !only(p, plan.ToolLedgerQuery):
		return understand.KindLedgerDeep, true
	case len(p.ToolCalls) == 0:
		return understand.KindClarify, true
	}
	first, ok := toolRow(p.ToolCalls[0].Tool)
	if !ok {
		return "", false
	}
	for _, c := range p.ToolCalls[1:] {
		if r, ok := toolRow(c.Tool); !ok || r.skill != first.skill {
			return "", false
		}
	}
	return first.kind, true
}

// fromPlan reads a plan that is one skill's slots into a typed decision, validated as the
// parser's own (understand.Parser.FromPlan): what the parser read from the message stays,
// names must be in the catalogs and in the message, dates must be real. A follow-up's names
// and dates may come from the questions it continues.
func (a *Agent) fromPlan(ctx context.Context, q skill.Query, p plan.QueryPlan, parsed understand.Decision) (understand.Decision, bool) {
	if slices.Contains(p.Kinds, understand.KindLedgerDeep) && !only(p, plan.ToolLedgerQuery) {
		return understand.Decision{}, false
	}
	pl, ok := p.Planned()
	if !ok {
		return understand.Decision{}, false
	}
	in := understand.Input{Text: q.Text, Now: a.now()}
	if pl.Ledger != nil {
		lctx, cancel := context.WithTimeout(ctx, understandTimeout)
		in.Catalogs = a.catalogs(lctx, q)
		cancel()
	}
	context := ""
	if q.Summary != "" {
		chain, _ := questionChain(q.History)
		context = strings.Join(chain, " ")
	}
	return a.parser.FromPlan(pl, parsed, in, context)
}

// facts runs the plan's calls through the executor, then has the answer LLM phrase the facts
// under the post-check; without a usable LLM answer the deterministic rendering is the reply.
func (a *Agent) facts(ctx context.Context, q skill.Query, p plan.QueryPlan, dbg *PlanDebug) (Answer, error) {
	res := executor.Run(ctx, p, a.registry(q), executor.Options{MaxToolCalls: a.opts.MaxToolCalls,
		CallTimeout: a.opts.ToolTimeout})
	if ctx.Err() != nil {
		return Answer{}, ctx.Err()
	}
	dbg.Records, dbg.Trigger = res.Records, res.Trigger
	ans := Answer{Scenario: S2General}
	for _, err := range res.Errors {
		a.log.WarnContext(ctx, "tool failed", "err", err)
	}
	for _, r := range res.Records {
		ans.Debug.Calls = append(ans.Debug.Calls, Call{Source: string(r.Tool), Result: recordResult(r), Rows: r.Items})
	}
	f := res.Facts
	if !f.Found {
		var limited *ledger.Limited
		for _, err := range res.Errors {
			if errors.As(err, &limited) && a.books != nil {
				// 1C asks for a choice or a missing filter: its own answer, with the buttons.
				la := reply(rowOf(understand.KindLedger), a.books.LimitedReply(ctx, q, limited), Route{})
				la.Debug.Calls = ans.Debug.Calls
				return la, nil
			}
		}
		ans.Text = notFoundText(res)
		if len(res.Errors) > 0 {
			ans.Debug.Degraded = append(ans.Debug.Degraded, "tools_failed")
		}
		return ans, nil
	}
	style, _ := render.ParseStyle(string(p.RenderStyle))
	limits := render.Limits{MaxItems: p.Limits.MaxItems, MaxGroups: p.Limits.MaxGroups, MaxParagraphs: p.Limits.MaxParagraphs}
	text, how, checks, degraded := a.writer.Facts(ctx, q.Progress, q.Text, q.Summary, f, style, limits)
	if ctx.Err() != nil {
		return Answer{}, ctx.Err()
	}
	dbg.Answer, dbg.PostCheck = how, checks
	if degraded != "" {
		ans.Debug.Degraded = append(ans.Debug.Degraded, degraded)
	}
	ans.Text = text
	for _, s := range f.Sources {
		ans.Sources = append(ans.Sources, Source(s))
	}
	return ans, nil
}

// registry is the executor's registry for one question: the tools of every skill this
// installation has, each running the call against its skill with the question's scope.
func (a *Agent) registry(q skill.Query) executor.Registry {
	reg := executor.Registry{}
	for _, r := range table {
		s := a.skillOf(r)
		if c, ok := s.(interface{ Configured() bool }); s == nil || ok && !c.Configured() {
			continue // not connected: the planner is not offered its tools either
		}
		for _, t := range r.tools {
			reg[t] = func(ctx context.Context, call plan.ToolCall) (facts.Payload, error) { return s.Facts(ctx, q, call) }
		}
	}
	return reg
}

// recordResult is an executor record as a source call's result.
func recordResult(r executor.Record) string {
	if r.Error != "" {
		return r.Status + ": " + r.Error
	}
	return r.Status
}

// notFoundText says that nothing was found, or which sources failed.
func notFoundText(res executor.Result) string {
	failed := 0
	for _, r := range res.Records {
		if r.Status == executor.StatusError || r.Status == executor.StatusTimeout {
			failed++
		}
	}
	if failed > 0 && failed == len(res.Records) {
		for _, err := range res.Errors {
			if errors.Is(err, ledger.ErrDenied) {
				return ledger.DeniedText
			}
		}
		return "Источники данных сейчас не отвечают, поэтому ответить не могу. Попробуйте через несколько минут."
	}
	return render.NotFound
}

// cachedPlan is a plan and when it was made.
type cachedPlan struct {
	plan plan.QueryPlan
	at   time.Time
}

// cachedPlan returns the plan cached under key unless it has expired.
func (a *Agent) cachedPlan(key string) (plan.QueryPlan, bool) {
	c, ok := a.plans.Get(key)
	if !ok || a.opts.PlanCacheTTL < 0 {
		return plan.QueryPlan{}, false
	}
	if a.now().Sub(c.at) >= a.opts.PlanCacheTTL {
		a.plans.Remove(key)
		return plan.QueryPlan{}, false
	}
	return c.plan, true
}

// planLLMFailed reports whether the planner fell back to the default plan only because the
// model could not be reached: no reply was refused for its content.
func planLLMFailed(tr plan.Trace) bool {
	if tr.Source != plan.SourceDefault || len(tr.Errors) == 0 {
		return false
	}
	for _, ps := range tr.Problems {
		if len(ps) > 0 {
			return false
		}
	}
	return true
}

// planRules are the planner's rules for this requester: the tools of the table's rows whose
// skill this installation has and this requester may use (the documents' when they have
// documents, 1C's when they have access, the web news' when it is configured).
func (a *Agent) planRules(ctx context.Context, q skill.Query) plan.Rules {
	var tools []plan.Tool
	for _, row := range table {
		if a.offers(ctx, row, q) {
			tools = append(tools, row.tools...)
		}
	}
	return plan.Rules{ConfidenceThreshold: a.opts.PlanConfidence, MaxToolCalls: a.opts.MaxToolCalls,
		HasDocuments: slices.Contains(tools, plan.ToolSearchUserDocuments),
		HasLedger:    slices.Contains(tools, plan.ToolLedgerQuery),
		HasLLMNews:   slices.Contains(tools, plan.ToolFetchFinanceNews)}
}

// offers reports whether the planner may use row's tools for q: its skill is connected and,
// where the skill says so, open to the requester and has something to search.
func (a *Agent) offers(ctx context.Context, r row, q skill.Query) bool {
	s := a.skillOf(r)
	if s == nil {
		return false
	}
	if o, ok := s.(interface {
		Offers(ctx context.Context, q skill.Query) bool
	}); ok {
		return o.Offers(ctx, q)
	}
	return true
}

// planKey is the plan cache key: whose conversation it is (a plan is made for one user's
// question in one chat — their documents, their access, their dialog — and is never served to
// another), the normalised question and everything else the planner saw.
func planKey(conversation, text, summary string, in plan.Input, ids []string) string {
	r := in.Rules
	return fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s\x00%t%t%t%t", conversation, ru.Fold(text), summary, in.Today.Format(time.DateOnly),
		strings.Join(ids, ","), r.HasDocuments, r.HasSelection, r.HasLedger, r.HasLLMNews)
}

// kindsOf lists a plan's kinds, for the route's reasons.
func kindsOf(p plan.QueryPlan) string {
	var names []string
	for _, k := range p.Kinds {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

// only reports whether every call of p uses one of tools (and there is at least one).
func only(p plan.QueryPlan, tools ...plan.Tool) bool {
	if len(p.ToolCalls) == 0 {
		return false
	}
	for _, c := range p.ToolCalls {
		if !slices.Contains(tools, c.Tool) {
			return false
		}
	}
	return true
}

// searches are the queries of the plan's calls of tools other than question: a skill then
// searches them instead of asking the LLM for expansions.
func searches(p plan.QueryPlan, tools []plan.Tool, question string) []string {
	qs := []string{}
	for _, c := range p.ToolCalls {
		if q := c.Query(); slices.Contains(tools, c.Tool) && q != "" && q != question && !slices.Contains(qs, q) {
			qs = append(qs, q)
		}
	}
	return qs
}

// planQuery is the first search query of the plan: what a follow-up means as a whole question.
func planQuery(p plan.QueryPlan) string {
	for _, c := range p.ToolCalls {
		if q := c.Query(); q != "" {
			return q
		}
	}
	return ""
}

// maxChain bounds how far back a chain of follow-ups is followed.
const maxChain = 5

// questionChain returns the previous user questions back to the last one that stands on its
// own, oldest first («курс евро на 15 января», «а на конец февраля?»), and the reply to the
// newest of them.
func questionChain(hist []history.Turn) (chain []string, reply string) {
	for i := len(hist) - 1; i >= 0 && len(chain) < maxChain; i-- {
		if hist[i].Role != roleUser {
			continue
		}
		if len(chain) == 0 && i+1 < len(hist) && hist[i+1].Role == roleAssistant {
			reply = hist[i+1].Text
		}
		chain = append(chain, hist[i].Text)
		if !understand.IsFollowUp(hist[i].Text) {
			break
		}
	}
	slices.Reverse(chain)
	return chain, reply
}

// memoryGate gives an explicit follow-up a short summary of the previous turn (and of the
// questions it continued) for the planner; anything doubtful is planned on its own (empty
// summary).
func memoryGate(text string, hist []history.Turn) string {
	if !understand.IsFollowUp(text) {
		return ""
	}
	chain, r := questionChain(hist)
	if len(chain) == 0 {
		return ""
	}
	var qs []string
	for _, q := range chain {
		qs = append(qs, "«"+ru.Truncate(q, 200)+"»")
	}
	s := "Предыдущий вопрос: " + strings.Join(qs, " → ")
	if r != "" {
		s += "\nНачало ответа на него: " + ru.Truncate(strings.Join(strings.Fields(r), " "), 400)
	}
	return s
}
