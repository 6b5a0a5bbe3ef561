package agent

// The planner stage, for a message the parser is unsure of: the plan is read as a decision when
// it is one skill's slots, answered by the skill its calls all belong to when that skill answers
// such a plan whole, else run by the executor over the skills' tools and phrased by the answer
// LLM under the post-check.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

// Planner defaults.
const (
	defaultPlanCacheTTL  = 10 * time.Minute
	defaultPlanCacheSize = 10_000
	defaultToolTimeout   = 20 * time.Second
)

// planned asks the planner and answers by its plan. Without a valid plan (the model could not
// be reached, or its plans failed validation and repair) the parser's decision stands: the
// emergency default plan, a broad search, would answer a rates or 1C question worse.
func (a *Agent) planned(ctx context.Context, q skill.Query, route api.Route) (api.Answer, error) {
	q.Summary = plan.Memory(q.Text, q.History)
	in := plan.Input{Question: q.Text, Summary: q.Summary, Today: a.now().In(ru.Moscow), Rules: a.planRules(ctx, q),
		Conversation: fmt.Sprintf("chat:%d:user:%d", q.ChatID, q.UserID)}
	for _, m := range q.Docs.Selected {
		in.SelectedDocs, in.SelectedIDs = append(in.SelectedDocs, ru.Truncate(m.Title, 80)), append(in.SelectedIDs, m.ID)
	}
	p, tr := a.planner.Plan(ctx, in)
	if ctx.Err() != nil {
		return api.Answer{}, ctx.Err()
	}
	dbg := &plan.Debug{Summary: q.Summary}
	dbg.Traced(tr)
	if tr.Source == plan.SourceDefault {
		tag := "planner_invalid"
		if tr.Unreachable() {
			tag = "planner_unavailable"
		}
		a.log.WarnContext(ctx, "no valid plan; the parser decides", "why", tag, "err", strings.Join(tr.Errors, "; "))
		route.LLMError = strings.Join(tr.Errors, "; ")
		ans, err := a.decided(ctx, q, route)
		ans.Debug.Degraded = append(ans.Debug.Degraded, tag)
		return ans, err
	}
	dbg.Plan = p
	route.Source = "planner"
	if dbg.Source != plan.SourceLLM {
		route.Source = "planner_" + dbg.Source
	}
	route.Reasons = append(route.Reasons, "план: "+p.KindsText())
	ans, err := a.byPlan(ctx, q, p, route, dbg)
	if err != nil {
		return api.Answer{}, err
	}
	ans.Debug.Plan = dbg
	return ans, nil
}

// byPlan answers by the plan: as a decision when the plan is one skill's slots (a 1C recipe,
// rates, the key rate), validated as the parser's own (understand.Parser.FromPlan: what the
// parser read stays, names must be in the catalogs and the message, dates must be real); else
// by the skill that answers such a plan whole (planRow), and when it has no answer of its own,
// from the facts of the plan's calls (the general skill).
func (a *Agent) byPlan(ctx context.Context, q skill.Query, p plan.QueryPlan, route api.Route, dbg *plan.Debug) (api.Answer, error) {
	if pl, ok := p.Planned(); ok && !p.Deep() {
		in := understand.Input{Text: q.Text, Now: a.now()}
		if pl.Ledger != nil {
			in.Catalogs = a.catalogs(ctx, q)
		}
		context := "" // a follow-up's names and dates may come from the questions it continues
		if q.Summary != "" {
			chain, _ := plan.Chain(q.History)
			context = strings.Join(chain, " ")
		}
		if d, ok := a.parser.FromPlan(pl, q.Decision, in, context); ok {
			parsed := q.Decision
			q.Decision = d
			if d.Kind == understand.KindLedger || d.Kind == understand.KindKB {
				// The plan chose 1C or the rules; the user's documents may hold the message
				// better (a model that lies plans «open items» for a question about a lease).
				q.Decision, _ = a.weighDocuments(ctx, q, true)
			}
			if q.Decision.Kind == understand.KindLedger && understand.TakesParty(q.Decision.Recipe) && !q.Decision.Counterparty.Set &&
				a.asksBackOverDocs(ctx, q, parsed) {
				// a 1C plan that would only ask whose, for a message of the user's documents' words
				// the parser did not read as 1C's: the parser's reading stands
				q.Decision = parsed
				route.Reasons = append(route.Reasons, parserOverAskBack)
			}
			dbg.Handler = string(q.Decision.Kind)
			route.Sure, route.Rule = q.Decision.Sure, q.Decision.Rule
			return a.decided(ctx, q, route)
		}
	}
	if r := planRow(p); r.kind == understand.KindLedger {
		// A 1C plan the parser could not read as its own (no counterparty: the ledger would
		// ask back): the user's documents answer when they hold the message.
		if d, _ := a.weighDocuments(ctx, q, true); d.Kind == understand.KindDocs {
			q.Decision = d
			route.Sure, route.Rule = d.Sure, d.Rule
			return a.decided(ctx, q, route)
		}
		// …and when they hold it too weakly, a plan that would only ask whose, for a message the
		// parser did not read as 1C's («тко за весь срок субаренды скока выйдет»), adds nothing
		// the parser's own reading lacks: an LLM may only add.
		if a.asksBackOverDocs(ctx, q, q.Decision) {
			route.Reasons = append(route.Reasons, parserOverAskBack)
			return a.decided(ctx, q, route)
		}
	}
	if s := p.Query(); q.Summary != "" && s != "" {
		q.Text = s // the follow-up resolved into a whole question
	}
	q.Plan = &p
	r := planRow(p)
	q.Searches = p.Searches(r.tools, q.Text)
	rep, err := a.ask(ctx, r, q)
	if err == nil && rep.Unanswered && r.kind != understand.KindGeneral {
		r = rowOf(understand.KindGeneral)
		rep, err = a.ask(ctx, r, q)
	}
	if err != nil {
		return api.Answer{}, err
	}
	dbg.Handler, dbg.Answer, dbg.PostCheck = string(r.kind), rep.Wording, rep.PostCheck
	if r.kind == understand.KindGeneral {
		dbg.Handler = r.skill
	}
	dbg.Records, _ = rep.Trace["records"].([]plan.Record)
	dbg.Trigger, _ = rep.Trace["fallback_trigger"].(string)
	ans := reply(r, rep, route)
	if r.kind == understand.KindGeneral && len(p.Kinds) > 0 && rep.Kind == "" {
		ans.Kind, ans.Scenario = p.Kinds[0], rowOf(p.Kinds[0]).scenario
	}
	return ans, nil
}

// parserOverAskBack is the route's reason when asksBackOverDocs keeps the parser's reading.
const parserOverAskBack = "план 1С без контрагента для вопроса не о 1С: решает разбор"

// asksBackOverDocs: the user has documents that hold some of the message and the parser's own
// reading (parsed) was not 1C's — so a 1C plan that only asks back whose adds nothing to it.
func (a *Agent) asksBackOverDocs(ctx context.Context, q skill.Query, parsed understand.Decision) bool {
	if a.docs == nil || parsed.Kind == understand.KindLedger {
		return false
	}
	_, ok := a.docs.Evidence(ctx, q)
	return ok
}

// planRow is the row whose skill answers a plan: a question back or small talk without calls,
// guarded discovery, the skill every call belongs to, or else the general skill.
func planRow(p plan.QueryPlan) row {
	switch {
	case len(p.ToolCalls) == 0 && !slices.Contains(p.Kinds, understand.KindClarify) && slices.Contains(p.Kinds, understand.KindSmallTalk):
		return rowOf(understand.KindSmallTalk)
	case len(p.ToolCalls) == 0:
		return rowOf(understand.KindClarify)
	case p.Deep():
		return rowOf(understand.KindLedgerDeep)
	}
	first, _ := toolRow(p.ToolCalls[0].Tool)
	for _, c := range p.ToolCalls {
		if r, ok := toolRow(c.Tool); !ok || r.skill != first.skill {
			return rowOf(understand.KindGeneral)
		}
	}
	return first
}

// registry is the executor's registry for one question: the tools of every skill this
// installation has (and has configured), each run against its skill with the question's scope.
func (a *Agent) registry(q skill.Query) executor.Registry {
	reg := executor.Registry{}
	for t, s := range a.served {
		if c, ok := s.(interface{ Configured() bool }); !ok || c.Configured() {
			reg[t] = func(ctx context.Context, call plan.ToolCall) (facts.Payload, error) { return s.Facts(ctx, q, call) }
		}
	}
	return reg
}

// planRules are the planner's rules for this requester: the tools of the rows whose skill this
// installation has and this requester may use (a skill may say whom it serves: the documents'
// tools to someone with documents, 1C's to someone with access, the web news' when configured).
func (a *Agent) planRules(ctx context.Context, q skill.Query) plan.Rules {
	var tools []plan.Tool
	for _, r := range table {
		s := a.skillOf(r)
		o, ok := s.(interface {
			Offers(ctx context.Context, q skill.Query) bool
		})
		if s != nil && (!ok || o.Offers(ctx, q)) {
			tools = append(tools, r.tools...)
		}
	}
	return plan.Rules{ConfidenceThreshold: a.opts.PlanConfidence, MaxToolCalls: a.opts.MaxToolCalls}.Offering(tools)
}
