// Package agent is finbot's pipeline: history in, a route decision, the scenario's handler,
// history out. It declares the interfaces it needs (deps.go) and owns the vocabulary the front
// ends speak (types.go).
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/finbot/finbot/agent/news"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/rates"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

const (
	roleUser      = "user"
	roleAssistant = "assistant"
)

// MaxQuestionRunes bounds a question; Telegram itself allows 4096 characters.
const MaxQuestionRunes = 4096

// Deps are the agent's collaborators. LLM may be nil: the agent then routes and answers
// deterministically.
type Deps struct {
	LLM     LLM
	History History
	// Rates is the Bank of Russia; nil = rates, the key rate and its news are not connected.
	Rates Rates
	// News searches finance news on the web; nil or unconfigured = only the Bank of Russia's news.
	News NewsSearch
	// Ledger is the 1C lane to 1C (or the demo ledger); nil = not connected.
	Ledger Ledger
	// Library is the library of users' and groups' documents; nil = uploads not connected.
	Library *library.Library
	// KB is the company knowledge base (owner library.KBOwner); nil = not connected.
	KB *library.Library
	// Planner plans questions (issue #6); nil = the router decides (the LLM router when LLM is
	// set, the rules otherwise).
	Planner Planner
	// Results keeps what the buttons of 1C answers point at; nil = in this process only.
	Results Results
}

// Options tune the agent.
type Options struct {
	Logger *slog.Logger
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// RouteTimeout bounds the LLM query expansion of a document search (default 15s).
	RouteTimeout time.Duration
	// HistoryTimeout bounds each history read and write, so an unreachable store costs an
	// answer its context, not its promptness (default 2s).
	HistoryTimeout time.Duration
	// LedgerAccess says who may see 1C data; nil = nobody.
	LedgerAccess func(userID, chatID int64) bool
	// PlanConfidence is the lowest plan confidence accepted without repair
	// (PLAN_CONFIDENCE_THRESHOLD; default plan.DefaultConfidenceThreshold).
	PlanConfidence float64
	// MaxToolCalls bounds the tool calls of one plan (MAX_TOOL_CALLS; default 4).
	MaxToolCalls int
	// ToolTimeout is each tool call's own deadline (default 20s).
	ToolTimeout time.Duration
	// AnswerModel and AnswerTemperature tune the answer LLM (ANSWER_MODEL, ANSWER_TEMPERATURE);
	// an empty model is the client's default.
	AnswerModel       string
	AnswerTemperature float32
	// PlanCacheTTL is how long a plan is reused for the same question and context (default
	// 10m; negative = no cache).
	PlanCacheTTL time.Duration
	// LLMBudget is the time every LLM call of one answer shares — planner, repair, query
	// expansion, embeddings, the answer model (LLM_BUDGET; default 20s; negative = none).
	// When it runs out the answer is given from the facts, as without an LLM.
	LLMBudget time.Duration
}

// DefaultLLMBudget is Options.LLMBudget's default: with the deterministic work around it, a
// user waits well under 30 s whatever the LLM does.
const DefaultLLMBudget = 20 * time.Second

// Agent answers messages. It is safe for concurrent use; the front end serialises the messages
// of one conversation.
type Agent struct {
	llm     LLM
	history History
	rates   *rates.Skill // nil = the Bank of Russia is not connected
	news    *news.Skill  // nil = no web news search
	lane    Ledger
	library *library.Library
	kb      *library.Library
	// results keeps the 1C results that answers' choice and export buttons are bound to.
	results Results
	planner Planner
	// parser understands each message once (agent/understand).
	parser *understand.Parser
	// plans caches valid plans by question and context, each for Options.PlanCacheTTL. (The
	// expirable LRU of golang-lru starts a goroutine it never stops; a timestamp checked on
	// read needs none.)
	plans *lru.Cache[string, cachedPlan]
	log   *slog.Logger
	now   func() time.Time
	opts  Options
}

// New builds an agent.
func New(d Deps, o Options) *Agent {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RouteTimeout <= 0 {
		o.RouteTimeout = 15 * time.Second
	}
	if o.LLMBudget == 0 {
		o.LLMBudget = DefaultLLMBudget
	}
	if o.HistoryTimeout <= 0 {
		o.HistoryTimeout = 2 * time.Second
	}
	if d.History == nil {
		panic("agent: Deps.History is required")
	}
	if d.Results == nil {
		d.Results = history.NewMemoryResults(0, 0)
	}
	if o.LedgerAccess == nil {
		o.LedgerAccess = func(int64, int64) bool { return false }
	}
	if o.MaxToolCalls <= 0 {
		o.MaxToolCalls = plan.DefaultMaxToolCalls
	}
	if o.PlanConfidence <= 0 {
		o.PlanConfidence = plan.DefaultConfidenceThreshold
	}
	if o.ToolTimeout <= 0 {
		o.ToolTimeout = defaultToolTimeout
	}
	if o.PlanCacheTTL == 0 {
		o.PlanCacheTTL = defaultPlanCacheTTL
	}
	plans, _ := lru.New[string, cachedPlan](defaultPlanCacheSize)
	var cbr *rates.Skill
	if d.Rates != nil {
		cbr = rates.New(d.Rates, rates.Options{Now: o.Now, Logger: o.Logger})
	}
	var web *news.Skill
	if d.News != nil {
		web = news.New(d.News, news.Options{Now: o.Now})
	}
	return &Agent{llm: d.LLM, history: d.History, rates: cbr, news: web, lane: d.Ledger, library: d.Library, kb: d.KB, results: d.Results,
		planner: d.Planner, plans: plans, parser: understand.NewParser(),
		log: o.Logger, now: o.Now, opts: o}
}

// HasLLM reports whether an LLM is configured.
func (a *Agent) HasLLM() bool { return a.llm != nil }

// ConversationKey is the history key of a request: one per private chat, one per (chat, user)
// in groups, so colleagues in a group do not share a dialog.
func ConversationKey(r Request) string {
	if r.Group {
		return fmt.Sprintf("chat:%d:user:%d", r.ChatID, r.UserID)
	}
	return fmt.Sprintf("chat:%d", r.ChatID)
}

// Answer routes one message and answers it. History failures degrade the answer (no context)
// but never stop it.
func (a *Agent) Answer(ctx context.Context, req Request) (Answer, error) {
	start := a.now()
	usage := new(llm.Usage)
	ctx = llm.WithUsage(ctx, usage)
	if a.opts.LLMBudget > 0 {
		// Real time, not a.now: the budget bounds what the user waits for.
		ctx = llm.WithBudget(ctx, time.Now().Add(a.opts.LLMBudget))
	}
	if req.Progress != nil {
		ctx = context.WithValue(ctx, progressKey{}, req.Progress)
	}
	text := strings.TrimSpace(ru.CleanInput(strings.ToValidUTF8(req.Text, "\uFFFD")))
	if text == "" && req.Command == "" {
		return Answer{}, ErrEmpty
	}
	if utf8.RuneCountInString(text) > MaxQuestionRunes {
		return Answer{}, ErrTooLong
	}
	key := ConversationKey(req)
	var degraded []string
	hctx, cancel := context.WithTimeout(ctx, a.opts.HistoryTimeout)
	hist, err := a.history.Load(hctx, key)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		a.log.WarnContext(ctx, "history load failed", "chat_id", req.ChatID, "err", err)
		degraded = append(degraded, "history_unavailable")
		hist = nil
	}

	if req.Command == "drill" && strings.HasPrefix(text, TextButtonPrefix) {
		// A button whose text was too long for Telegram's 64-byte callback data: its question
		// is kept server-side, and pressing it asks that question.
		q, ok, err := a.buttonText(ctx, req, strings.TrimPrefix(text, TextButtonPrefix))
		if err != nil {
			return Answer{}, err
		}
		if !ok {
			return staleLedgerButton(), nil
		}
		req.Command, text = "", q
	}
	var route RouteDecision
	var scope docScope
	if req.Command != "" {
		route = commandRoute(req.Command)
	} else {
		scope, err = a.scope(ctx, req)
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return Answer{}, ctx.Err()
		case errors.Is(err, library.ErrNotFound):
			return Answer{Scenario: S5Clarify, Text: "Этого документа больше нет среди ваших. Список — /docs.", Sources: []Source{}}, nil
		case req.OnlyDoc != "":
			return Answer{}, fmt.Errorf("%w: documents: %w", ErrUnavailable, err)
		default:
			// The store is down: answer without a selection rather than not at all.
			a.log.WarnContext(ctx, "document selection unavailable", "chat_id", req.ChatID, "err", err)
			degraded = append(degraded, "documents_unavailable")
			scope = docScope{owner: owner(req)}
		}
	}
	var ans Answer
	if req.Command != "" {
		ans, err = a.handle(ctx, req, route, text, hist, scope)
	} else {
		ans, route, err = a.question(ctx, req, text, hist, scope)
	}
	if err != nil {
		return Answer{}, err
	}
	if ans.Scenario == "" { // a handler may settle elsewhere (a KB question answered from the user's documents)
		ans.Scenario = route.Scenario
		if ans.Intent == "" {
			ans.Intent = route.Intent
		}
	}
	if ans.Sources == nil {
		ans.Sources = []Source{}
	}
	a.bindLongButtons(ctx, req, &ans)
	ans.Debug.Route = route
	ans.Debug.LLM = a.llm != nil
	ans.Debug.LLMCalls, ans.Debug.PromptTokens, ans.Debug.CompletionTokens = usage.Calls(), usage.PromptTokens(), usage.CompletionTokens()
	ans.Debug.HistoryTurns = len(hist)
	ans.Debug.Degraded = append(degraded, ans.Debug.Degraded...)

	hctx, cancel = context.WithTimeout(ctx, a.opts.HistoryTimeout)
	reply := history.Turn{Role: roleAssistant, Text: ans.Text, At: a.now()}
	if ans.state != nil {
		reply.State, _ = json.Marshal(ans.state)
	}
	err = a.history.Append(hctx, key, history.Turn{Role: roleUser, Text: userTurn(req.Command, text), At: start}, reply)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		a.log.WarnContext(ctx, "history append failed", "chat_id", req.ChatID, "err", err)
		ans.Debug.Degraded = append(ans.Debug.Degraded, "history_not_saved")
	}
	ans.Debug.Elapsed = a.now().Sub(start)
	return ans, nil
}

// Reset forgets the dialog of the request's conversation.
func (a *Agent) Reset(ctx context.Context, req Request) error {
	if err := a.history.Reset(ctx, ConversationKey(req)); err != nil {
		return fmt.Errorf("%w: reset history: %w", ErrUnavailable, err)
	}
	return nil
}

// userTurn is how a message is remembered: commands keep their slash so a follow-up reads
// naturally ("/rate EUR", then "а в юанях?").
func userTurn(command, text string) string {
	if command == "" {
		return text
	}
	return strings.TrimSpace("/" + command + " " + text)
}
