package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/agent/render"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
	"github.com/finbot/finbot/ru"
)

// Planner turns a question into a validated plan; *plan.Planner satisfies it.
type Planner interface {
	Plan(ctx context.Context, in plan.Input) (plan.QueryPlan, plan.Trace)
}

// streamer is an LLM that can stream its reply; *llm.Client satisfies it.
type streamer interface {
	Stream(ctx context.Context, msgs []llm.Message, call llm.Call, onDelta func(text string)) (string, error)
}

// PlanDebug explains an answer the planner planned.
type PlanDebug struct {
	Plan plan.QueryPlan `json:"plan"`
	// Source is how the plan was obtained: "llm", "repair", "default" or "cache".
	Source   string           `json:"source"`
	Attempts int              `json:"attempts"`
	Problems [][]plan.Problem `json:"problems,omitempty"`
	Errors   []string         `json:"errors,omitempty"`
	// Summary is the memory gate's summary of the previous turn given to the planner.
	Summary string `json:"memory_summary,omitempty"`
	// Handler is what answered: "clarify", "smalltalk", "ledger", "deep_analysis", "rates",
	// "key_rate", "cbr_news", "news", "documents", "kb", "facts".
	Handler string            `json:"handler"`
	Records []executor.Record `json:"records,omitempty"`
	// Discovery is the runtime plan, the evidence and the probes of a "deep_analysis" answer.
	Discovery *DiscoveryDebug `json:"discovery,omitempty"`
	Trigger   string          `json:"fallback_trigger,omitempty"`
	// Answer is how the "facts" and "deep_analysis" handlers worded the reply: "llm",
	// "llm_regenerated", "deterministic".
	Answer string `json:"answer,omitempty"`
	// PostCheck lists what the post-check refused, per attempt.
	PostCheck [][]string `json:"post_check,omitempty"`
}

// Planner defaults.
const (
	defaultPlanCacheTTL  = 10 * time.Minute
	defaultPlanCacheSize = 10_000
	defaultToolTimeout   = 20 * time.Second
	answerMaxTokens      = 2000
)

// question answers a message that is not a command. The message is understood once, by the
// deterministic parser (agent/understand). A decision it is sure of is answered at once, with
// no LLM; only when it is unsure does the planner get to add, and when the planner fails or
// returns nothing valid the parser's decision stands.
func (a *Agent) question(ctx context.Context, req Request, text string, hist []history.Turn, scope docScope) (Answer, RouteDecision, error) {
	var prev *understand.State
	if st, ok := lastState(hist); ok {
		prev = &st
	}
	d := a.understandIn(ctx, req, text, scope, prev)
	if d.Sure || a.planner == nil || a.llmDown() {
		return a.answerDecision(ctx, req, d, text, hist, scope)
	}
	return a.planned(ctx, req, text, hist, scope, d)
}

// llmDown reports whether planning would fail at once: the LLM's breaker is open, or the
// service asked with a 429's Retry-After not to be called yet.
func (a *Agent) llmDown() bool {
	if s, ok := a.llm.(interface{ State() string }); ok && s.State() == "open" {
		return true
	}
	r, ok := a.llm.(interface{ RetryAfter() time.Time })
	return ok && !r.RetryAfter().IsZero()
}

// followUpRe is an explicit follow-up: «а по Альфе?», «а в евро?», «и на конец февраля».
var followUpRe = regexp.MustCompile(`^(а|и|ну а|а если|а что|а теперь|а еще|и еще|тоже|то же самое|также)( |$)`)

// maxFollowUpWords bounds a follow-up: a longer message is a question of its own.
const maxFollowUpWords = 8

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
		if !isFollowUp(hist[i].Text) {
			break
		}
	}
	slices.Reverse(chain)
	return chain, reply
}

// isFollowUp reports whether text explicitly continues the previous turn.
func isFollowUp(text string) bool {
	norm := normalize(text)
	return followUpRe.MatchString(norm) && len(strings.Fields(norm)) <= maxFollowUpWords
}

// memoryGate is seed 004 §5.1 step 2: an explicit follow-up gets a short summary of the
// previous turn (and of the questions it continued); anything doubtful is planned on its own
// (empty summary).
func memoryGate(text string, hist []history.Turn) string {
	if !isFollowUp(text) {
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

// lastState is the dialog state the last answer left: the understanding of the question it
// answered. A last answer without one (knowledge base, documents, small talk) leaves none, so
// a follow-up after it is a question of its own.
func lastState(hist []history.Turn) (understand.State, bool) {
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role != roleAssistant {
			continue
		}
		var st understand.State
		if len(hist[i].State) == 0 || json.Unmarshal(hist[i].State, &st) != nil || st.Kind == "" {
			return understand.State{}, false
		}
		return st, true
	}
	return understand.State{}, false
}

// planned asks the planner and answers by the plan. When the LLM cannot be reached (transport
// failure, open breaker) the deterministic routing decides instead; an invalid plan the model
// could not repair gives way to the safe default plan.
func (a *Agent) planned(ctx context.Context, req Request, text string, hist []history.Turn, scope docScope,
	parsed understand.Decision) (Answer, RouteDecision, error) {
	summary := memoryGate(text, hist)
	in := plan.Input{Question: text, Summary: summary, Today: a.now().In(ru.Moscow), Rules: a.planRules(ctx, req)}
	var ids []string
	for _, m := range scope.selected {
		in.SelectedDocs = append(in.SelectedDocs, ru.Truncate(m.Title, 80))
		ids = append(ids, m.ID)
	}
	key := planKey(fmt.Sprintf("chat:%d:user:%d", req.ChatID, req.UserID), text, summary, in, ids)
	p, ok := a.cachedPlan(key)
	dbg := &PlanDebug{Source: "cache", Summary: summary}
	if !ok {
		var tr plan.Trace
		p, tr = a.planner.Plan(ctx, in)
		if ctx.Err() != nil {
			return Answer{}, RouteDecision{}, ctx.Err()
		}
		dbg.Source, dbg.Attempts, dbg.Problems, dbg.Errors = tr.Source, tr.Attempts, tr.Problems, tr.Errors
		if tr.Source == plan.SourceDefault {
			// No valid plan (the model could not be reached, or its plans failed validation
			// and repair): the parser's decision stands. The seed's default plan, a broad
			// search, would answer a rates or 1C question worse than the parser does.
			tag := "planner_invalid"
			if planLLMFailed(tr) {
				tag = "planner_unavailable"
			}
			a.log.WarnContext(ctx, "no valid plan; the parser decides", "why", tag, "err", strings.Join(tr.Errors, "; "))
			ans, route, err := a.answerDecision(ctx, req, parsed, text, hist, scope)
			route.LLMError = strings.Join(tr.Errors, "; ")
			ans.Debug.Degraded = append(ans.Debug.Degraded, tag)
			return ans, route, err
		}
		if a.opts.PlanCacheTTL > 0 {
			a.plans.Add(key, cachedPlan{plan: p, at: a.now()})
		}
	}
	dbg.Plan = p
	if d, ok := a.fromPlan(ctx, req, p, parsed, text, summary, hist); ok {
		// One skill with typed slots: answered like the parser's own decisions.
		dbg.Handler = handlerOf(d)
		ans, route, err := a.answerDecision(ctx, req, d, text, hist, scope)
		if err != nil {
			return Answer{}, RouteDecision{}, err
		}
		route.Source = planRoute(p, dbg.Source).Source
		ans.Debug.Plan = dbg
		return ans, route, nil
	}
	route := planRoute(p, dbg.Source)
	ans, err := a.runPlan(ctx, req, text, summary, hist, scope, p, &route, dbg)
	if err != nil {
		return Answer{}, RouteDecision{}, err
	}
	ans.Debug.Plan = dbg
	return ans, route, nil
}

// fromPlan reads a plan that is one skill (a 1C recipe, rates, the key rate) into a typed
// decision, validated as the parser's own (understand.Parser.FromPlan): what the parser read
// from the message stays, names must be in the catalogs and in the message, dates must be
// real. A follow-up's names and dates may come from the questions it continues.
func (a *Agent) fromPlan(ctx context.Context, req Request, p plan.QueryPlan, parsed understand.Decision, text, summary string,
	hist []history.Turn) (understand.Decision, bool) {
	if slices.Contains(p.Kinds, understand.KindLedgerDeep) && !only(p, plan.ToolLedgerQuery) {
		return understand.Decision{}, false
	}
	in := understand.Input{Text: text, Now: a.now()}
	if only(p, plan.ToolLedgerQuery) {
		lctx, cancel := context.WithTimeout(ctx, understandTimeout)
		in.Catalogs = a.catalogs(lctx, req)
		cancel()
	}
	context := ""
	if summary != "" {
		chain, _ := questionChain(hist)
		context = strings.Join(chain, " ")
	}
	pl, ok := p.Planned()
	if !ok {
		return understand.Decision{}, false
	}
	return a.parser.FromPlan(pl, parsed, in, context)
}

// handlerOf names the handler a decision goes to, for the debug payload.
func handlerOf(d understand.Decision) string {
	switch d.Kind {
	case understand.KindRate:
		return "rates"
	case understand.KindKeyRate:
		return "key_rate"
	case understand.KindLedger, understand.KindUnknownEntity:
		return "ledger"
	}
	return "clarify"
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

// planRules are the planner's rules for this requester.
func (a *Agent) planRules(ctx context.Context, req Request) plan.Rules {
	r := plan.Rules{ConfidenceThreshold: a.opts.PlanConfidence, MaxToolCalls: a.opts.MaxToolCalls,
		HasLedger:  a.lane != nil && a.opts.LedgerAccess(req.UserID, req.ChatID),
		HasLLMNews: a.news != nil && a.news.Configured()}
	if a.library != nil {
		lctx, cancel := context.WithTimeout(ctx, a.opts.HistoryTimeout)
		all, err := a.library.List(lctx, owner(req))
		cancel()
		r.HasDocuments = err != nil || len(all) > 0 // unknown: let the model try
	}
	return r
}

// planKey is the plan cache key: whose conversation it is (a plan is made for one user's
// question in one chat — their documents, their access, their dialog — and is never served to
// another), the normalised question and everything else the planner saw.
func planKey(conversation, text, summary string, in plan.Input, ids []string) string {
	r := in.Rules
	return fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s\x00%t%t%t%t", conversation, normalize(text), summary, in.Today.Format(time.DateOnly),
		strings.Join(ids, ","), r.HasDocuments, r.HasSelection, r.HasLedger, r.HasLLMNews)
}

// planRoute is the route decision a plan amounts to, for the debug payload and the scenario.
func planRoute(p plan.QueryPlan, source string) RouteDecision {
	d := RouteDecision{Confidence: p.Confidence, Source: "planner"}
	if source != plan.SourceLLM {
		d.Source = "planner_" + source
	}
	var names []string
	for _, in := range p.Kinds {
		names = append(names, string(in))
	}
	d.Reasons = []string{"план: " + strings.Join(names, ", ")}
	d.Scenario, d.Intent = S2General, IntentKB
	if len(p.Kinds) == 0 {
		return d
	}
	switch p.Kinds[0] {
	case understand.KindClarify:
		d.Scenario, d.Intent = S5Clarify, IntentUnknown
	case understand.KindSmallTalk:
		d.Intent = IntentSmallTalk
	case understand.KindLedger, understand.KindLedgerDeep:
		d.Scenario, d.Intent = OneC, IntentUnknown
		if p.Ledger != nil {
			d.Intent = string(p.Ledger.Recipe)
		}
	case understand.KindRate:
		d.Intent = IntentRates
	case understand.KindKeyRate:
		d.Intent = IntentKeyRate
	case understand.KindNews:
		d.Intent = IntentNews
	case understand.KindDocs:
		d.Scenario, d.Intent = S1Search, ""
	}
	if len(p.Kinds) > 1 {
		d.Intent = "composite"
	}
	return d
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

// runPlan answers by the plan. Plans that one deterministic handler answers completely (a 1C
// recipe, Bank of Russia data, documents, the knowledge base, news) go to it with the plan's
// arguments: their answers are exact and need no answer LLM. Other plans (several intents,
// general questions) run through the executor, and the answer LLM phrases the collected facts
// under the post-check.
func (a *Agent) runPlan(ctx context.Context, req Request, text, summary string, hist []history.Turn, scope docScope,
	p plan.QueryPlan, route *RouteDecision, dbg *PlanDebug) (Answer, error) {
	question := text
	if summary != "" {
		if q := planQuery(p); q != "" {
			question = q // the follow-up resolved into a whole question
		}
	}
	switch {
	case len(p.ToolCalls) == 0 && slices.Contains(p.Kinds, understand.KindClarify):
		dbg.Handler = "clarify"
		return a.planClarify(ctx, p, text), nil
	case len(p.ToolCalls) == 0 && slices.Contains(p.Kinds, understand.KindSmallTalk):
		dbg.Handler = "smalltalk"
		return a.smallTalk(ctx, text, hist), nil
	case slices.Contains(p.Kinds, understand.KindLedgerDeep) && !only(p, plan.ToolLedgerQuery):
		// A question outside the recipe catalog: guarded discovery runs the plan's primitives.
		// The lane's own decomposition would refuse it as an analytical question.
		dbg.Handler = "deep_analysis"
		return a.deepAnalysis(ctx, req, question, summary, p, dbg)
	case only(p, plan.ToolFetchCBRData) && len(p.ToolCalls) == 1 && isCBRNews(p.ToolCalls[0]):
		dbg.Handler = "cbr_news"
		return a.cbrNews(ctx, "")
	case only(p, plan.ToolSearchUserDocuments, plan.ToolLoadDocumentsFull):
		dbg.Handler = "documents"
		scope.kbFallback = p.Fallback.Enabled && p.Fallback.Tool == plan.ToolSearchGeneralKB
		*route = docScenario(RouteDecision{Scenario: S1Search, Confidence: route.Confidence, Source: route.Source,
			Reasons: route.Reasons}, &scope)
		return a.documentAnswer(withPlannedQueries(ctx, p, plan.ToolSearchUserDocuments, question), req, *route, question, scope)
	case only(p, plan.ToolSearchGeneralKB) && len(p.ToolCalls) == 1:
		dbg.Handler = "kb"
		return a.generalAnswer(withPlannedQueries(ctx, p, plan.ToolSearchGeneralKB, question), req, *route, question)
	case only(p, plan.ToolFetchFinanceNews) && len(p.ToolCalls) == 1:
		if q := p.ToolCalls[0].Query(); q != "" {
			dbg.Handler = "news"
			return a.answerNews(ctx, req.UserID, "новости "+q)
		}
	case len(p.ToolCalls) == 0:
		dbg.Handler = "clarify"
		return a.planClarify(ctx, p, text), nil
	}
	dbg.Handler = "facts"
	return a.factsAnswer(ctx, req, question, summary, scope, p, dbg)
}

// plannedQueriesKey carries the plan's search queries to the document handlers, which then
// search them instead of asking the LLM for expansions: a planned answer costs at most the
// planner and the answer call.
type plannedQueriesKey struct{}

// withPlannedQueries puts the queries of the plan's calls of tool other than question into ctx.
func withPlannedQueries(ctx context.Context, p plan.QueryPlan, tool plan.Tool, question string) context.Context {
	qs := []string{}
	for _, c := range p.ToolCalls {
		if q := c.Query(); c.Tool == tool && q != "" && q != question && !slices.Contains(qs, q) {
			qs = append(qs, q)
		}
	}
	return context.WithValue(ctx, plannedQueriesKey{}, qs)
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

// isCBRNews reports whether a call asks for the Bank of Russia's news.
func isCBRNews(c plan.ToolCall) bool { return c.CBRMode() == understand.RateNews }

// planClarify asks the plan's clarifying question, its options as buttons.
func (a *Agent) planClarify(ctx context.Context, p plan.QueryPlan, text string) Answer {
	if strings.TrimSpace(p.Clarification) == "" {
		return a.clarify(ctx, RouteDecision{}, text)
	}
	ans := Answer{Text: EscapeMarkdown(strings.TrimSpace(p.Clarification))}
	for _, o := range p.ClarificationOptions {
		if o = strings.TrimSpace(o); o != "" {
			ans.Buttons = append(ans.Buttons, Button{Text: ru.Truncate(o, 60)})
		}
	}
	return ans
}

// factsAnswer runs the plan's calls, then has the answer LLM phrase the facts under the
// post-check; without a usable LLM answer the deterministic rendering is the reply.
func (a *Agent) factsAnswer(ctx context.Context, req Request, question, summary string, scope docScope, p plan.QueryPlan, dbg *PlanDebug) (Answer, error) {
	res := executor.Run(ctx, p, a.tools(req, scope, question), executor.Options{MaxToolCalls: a.opts.MaxToolCalls,
		CallTimeout: a.opts.ToolTimeout})
	if ctx.Err() != nil {
		return Answer{}, ctx.Err()
	}
	dbg.Records, dbg.Trigger = res.Records, res.Trigger
	var ans Answer
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
			if errors.As(err, &limited) {
				// 1C asks for a choice or a missing filter: its own answer, with the buttons.
				la := a.ledgerAnswer(ctx, req, limited.Result)
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
	text, how, checks, degraded := a.phrase(ctx, req, question, summary, f, style, limits)
	if ctx.Err() != nil {
		return Answer{}, ctx.Err()
	}
	dbg.Answer, dbg.PostCheck = how, checks
	if degraded != "" {
		ans.Debug.Degraded = append(ans.Debug.Degraded, degraded)
	}
	ans.Text = text
	for _, s := range f.Sources {
		ans.Sources = append(ans.Sources, Source{Title: s.Title, URL: s.URL})
	}
	return ans, nil
}

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
			if errors.Is(err, errLedgerDenied) {
				return "Данные 1С доступны только сотрудникам с доступом к учёту. Если он вам нужен, обратитесь к администратору бота."
			}
		}
		return "Источники данных сейчас не отвечают, поэтому ответить не могу. Попробуйте через несколько минут."
	}
	return render.NotFound
}

// Degraded tags of an answer whose LLM text was not used.
const (
	// degradedLLMUnavailable: the LLM could not be reached or gave no usable reply (an error
	// status, a 200 with an error object, a timeout, a cut stream).
	degradedLLMUnavailable = "llm_unavailable"
	// degradedAnswerRefused: the LLM answered, but the post-check refused the answer and its
	// regeneration.
	degradedAnswerRefused = "answer_llm_refused"
)

// phrase writes the reply from the facts: the answer LLM's text when it passes the post-check
// (one regeneration with stricter instructions is allowed), else the deterministic rendering.
// how is "llm", "llm_regenerated" or "deterministic"; checks are the refused attempts'
// violations; degraded says why an LLM's text was not used (degradedAnswerRefused or
// degradedLLMUnavailable), "" when it was or there is no LLM.
func (a *Agent) phrase(ctx context.Context, req Request, question, summary string, f facts.Payload, style render.Style,
	limits render.Limits) (text, how string, checks [][]string, degraded string) {
	fallback := func(why string) (string, string, [][]string, string) {
		return render.Facts(f, style, limits), "deterministic", checks, why
	}
	if a.llm == nil {
		return fallback("")
	}
	context, _ := render.Context(f, render.DefaultContextChars)
	maxItems := limits.MaxItems
	if maxItems <= 0 {
		maxItems = render.DefaultMaxItems
	}
	chk := postcheck.New(f, question) // the same facts for every attempt and every streamed part
	var stricter string
	for attempt := range 2 {
		prompt, err := prompts.Answer(prompts.AnswerData{Question: question, Summary: summary, Context: context,
			MaxItems: maxItems, Stricter: stricter})
		if err != nil {
			a.log.ErrorContext(ctx, "answer prompt", "err", err)
			return fallback(degradedLLMUnavailable)
		}
		out, err := a.complete(ctx, []llm.Message{{Role: "user", Content: prompt}},
			llm.Call{Model: a.opts.AnswerModel, Temperature: a.opts.AnswerTemperature, MaxTokens: answerMaxTokens},
			func(settled string) bool { return chk.CheckPartial(settled) == nil })
		if err != nil {
			if ctx.Err() == nil {
				a.log.WarnContext(ctx, "answer llm failed; deterministic rendering", "err", err)
			}
			return fallback(degradedLLMUnavailable)
		}
		// Links the facts do not hold are dropped; what is left must still say something.
		out = chk.DropForeignLinks(stripSourceList(out))
		vs := chk.Check(out)
		if len(vs) == 0 {
			if attempt == 0 {
				return out, "llm", checks, ""
			}
			return out, "llm_regenerated", checks, ""
		}
		var got []string
		for _, v := range vs {
			got = append(got, string(v.Kind)+": "+v.Detail)
		}
		checks = append(checks, got)
		a.log.InfoContext(ctx, "answer refused by the post-check", "attempt", attempt+1, "violations", got)
		stricter = postcheck.Instructions(vs)
	}
	return fallback(degradedAnswerRefused)
}

// progressKey carries Request.Progress to the answer LLM calls of one answer.
type progressKey struct{}

// complete calls the answer LLM, streaming into the request's Progress when both sides can.
//
// check, when not nil, gates the stream: the answer's final text is post-checked, so nothing
// of it may be shown before it passes the same check. Each partial text is cut to its settled
// part (postcheck.Settled, after any source list of the model's own is dropped, as the final
// text's is), and that part is shown only if check accepts it; after the first refusal nothing
// more of this call is shown, and the draft keeps the last accepted text until the final answer
// replaces it. With check nil (small talk, which has no post-check) the text is shown as it
// comes.
//
// A reply longer than MaxAnswerRunes is an unusable reply (llm.ErrBadResponse), whatever the
// model was told: the caller answers from the facts, whose rendering is never cut, and a
// stream stops being shown at that length.
func (a *Agent) complete(ctx context.Context, msgs []llm.Message, call llm.Call, check func(settled string) bool) (string, error) {
	s, ok := a.llm.(streamer)
	progress, _ := ctx.Value(progressKey{}).(func(string))
	var out string
	var err error
	if !ok || progress == nil {
		out, err = a.llm.Complete(ctx, msgs, call)
	} else {
		onDelta := func(text string) { progress(plainProgress(text)) }
		if check != nil {
			onDelta = checkedProgress(progress, check)
		}
		capped := func(text string) {
			if len(text) <= MaxAnswerRunes || utf8.RuneCountInString(text) <= MaxAnswerRunes {
				onDelta(text)
			}
		}
		out, err = s.Stream(ctx, msgs, call, capped)
	}
	if err == nil && utf8.RuneCountInString(out) > MaxAnswerRunes {
		return "", fmt.Errorf("%w: a reply of %d characters, over the %d an answer may have", llm.ErrBadResponse,
			utf8.RuneCountInString(out), MaxAnswerRunes)
	}
	return out, err
}

// MaxAnswerRunes caps what the answer model may say: four Telegram messages. Answers that
// need more are lists of facts, which the deterministic rendering gives whole.
const MaxAnswerRunes = 16000

// checkedProgress is the gated onDelta of complete for one call: it forwards the settled part
// of a partial text while check accepts every settled part so far, and nothing after the
// first refusal. The check reads the whole text with dozens of regular expressions (about 1 ms
// per 1,000 characters), so it does not run for every token: the first settled part is checked
// at once, later ones once they have grown by progressStep bytes or a tenth of their length.
// The checks of one answer then cost about ten final checks, and a long answer's draft still
// moves every few hundred characters. What is forwarded is always exactly what was checked.
func checkedProgress(progress func(string), check func(settled string) bool) func(string) {
	var last string
	refused := false
	return func(text string) {
		if refused {
			return
		}
		settled := postcheck.Settled(stripSourceList(text))
		if settled == "" || last != "" && len(settled)-len(last) < max(progressStep, len(last)/10) {
			return
		}
		if !check(settled) {
			refused = true
			return
		}
		last = settled
		progress(plainProgress(settled))
	}
}

// progressStep is the least growth, in bytes, of a streamed answer's settled text before it is
// checked and shown again.
const progressStep = 64

// plainProgress turns partial Markdown into the plain text shown while streaming.
var progressMarks = strings.NewReplacer("**", "", "__", "", "`", "", "\\", "")

func plainProgress(s string) string { return progressMarks.Replace(s) }
