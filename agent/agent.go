// Package agent is finbot's conductor. A message goes history in → understand (agent/understand)
// → route (the table of meanings, route.go) → the skill of its kind, or, when the parser is
// unsure, the planner → the executor over the skills' tools → facts → the answer LLM →
// post-check (planned.go) → one exit (exit.go) → history out. It owns no skill: rates, news,
// 1C, documents, the knowledge base, small talk and questions back are packages behind
// skill.Skill, each registered by a row of the table.
package agent

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/finbot/finbot/agent/anon"
	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/buttons"
	"github.com/finbot/finbot/agent/dialog"
	"github.com/finbot/finbot/agent/digest"
	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/news"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/rates"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/library"
)

// History keeps dialogs. *history.Redis and *history.Memory satisfy it.
type History = dialog.Store

// Planner turns a question into a validated plan; *plan.Planner satisfies it.
type Planner interface {
	Plan(ctx context.Context, in plan.Input) (plan.QueryPlan, plan.Trace)
}

// Deps are the agent's collaborators. Every one but History may be nil: its skill is then
// absent, and the table's row answers that it is not connected.
type Deps struct {
	LLM     phrase.LLM // *llm.Client
	History History
	Rates   rates.Bank // the Bank of Russia (*cbr.Client)
	// News searches finance news on the web (*tavily.Client); nil or unconfigured = only the
	// Bank of Russia's news.
	News   news.Searcher
	Ledger ledger.Runner // 1C through the query runner (*runner.Lane): one base for everyone with access
	// Bases, when set, are several 1C bases (ONEC_CHANNELS), each open to the users and chats
	// mapped to it, a user's pick kept per chat; Ledger is then not used.
	Bases   *ledger.Bases
	Library *library.Library // the users' and groups' documents
	KB      *library.Library // the company knowledge base (owner library.KBOwner)
	// Planner plans the questions the parser is unsure of; nil = the parser decides alone.
	Planner Planner
	// Results keeps, for a while, what the buttons of answers are bound to (a 1C result, a long
	// button's question) in a chat's scope (*history.RedisResults); nil = in this process only.
	// The counterparty's acts users upload are kept there too, for a reply «сверь».
	Results buttons.Store
	// Acts builds our act of reconciliation from 1C, which a counterparty's uploaded act is
	// compared with; nil = their act is read and summed up, and the answer says ours cannot be
	// built yet.
	Acts reconcile.OurActs
	// Digests keeps the chats' subscriptions to digests and alerts
	// (*history.RedisSubscriptions); nil = /subscribe is not offered.
	Digests digest.Store
	// OCR reads photos and scans of documents (*ocr.Engine); nil = they are refused with the
	// packages to install. A recognised primary document is found in 1C through Acts.
	OCR documents.Recognizer
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
	// DigestZone is the time zone of a chat that set none for its digests (DIGEST_ZONE);
	// Moscow when nil.
	DigestZone *time.Location
	// LLMBudget is the time every LLM call of one answer shares — planner, repair, query
	// expansion, the answer model (LLM_BUDGET; default 20s; negative = none). When it runs out
	// the answer is given from the facts, as without an LLM.
	LLMBudget time.Duration
	// forcePlan asks the planner even of the questions the parser is sure of: the tests that
	// must see the LLM called for every message (the anonymiser's corpus test) set it.
	forcePlan bool
}

// DefaultLLMBudget is Options.LLMBudget's default: with the deterministic work around it, a
// user waits well under 30 s whatever the LLM does.
const DefaultLLMBudget = 20 * time.Second

// docsSkill is the documents skill as the conductor asks it besides answers.
type docsSkill interface {
	skill.Skill
	Scope(ctx context.Context, who documents.Asker) (skill.Docs, error)
	Titles(ctx context.Context, owner string) []string
	Evidence(ctx context.Context, q skill.Query) (library.ClauseHit, bool)
	NamesParty(ctx context.Context, q skill.Query) bool
	Upload(ctx context.Context, q skill.Query, f api.File) (skill.Reply, error)
	RememberReceipt(ctx context.Context, q skill.Query, messageID int, id string) error
}

// ledgerSkill is the 1C skill as the conductor asks it besides answers.
type ledgerSkill interface {
	skill.Skill
	Catalogs(ctx context.Context, userID, chatID int64) *recipe.Catalogs
}

// Agent answers messages. It is safe for concurrent use; the front end serialises the messages
// of one conversation.
type Agent struct {
	llm     phrase.LLM
	writer  *phrase.Writer // the answer LLM; nil without one
	dialogs dialog.Keeper
	long    buttons.Long // the questions of long buttons
	planner Planner
	// parser understands each message once (agent/understand).
	parser *understand.Parser
	// skills are the table's skills by name; an absent one is not connected. served maps the
	// planner's tools to the skills that serve them.
	skills map[string]skill.Skill
	served map[plan.Tool]skill.Skill
	// The skills the conductor also asks outside the table: the documents' scope and uploads,
	// the 1C catalogs the parser resolves names against, the Bank of Russia's inline offers.
	docs  docsSkill
	books ledgerSkill
	acts  *reconcile.Comparer // the counterparty's acts compared with ours; nil without 1C
	bases *ledger.Bases       // nil with one base
	cbr   *rates.Skill
	log   *slog.Logger
	now   func() time.Time
	opts  Options
	// preview is previewDigest, for the digest skill's /digest: a method value the table's
	// builders may reach without an initialization cycle through the table.
	preview func(ctx context.Context, sub digest.Subscription) (skill.Reply, error)
}

// New builds an agent and its skills: one per skill of the table whose dependency is set.
func New(d Deps, o Options) *Agent {
	if d.History == nil {
		panic("agent: Deps.History is required")
	}
	if d.Results == nil {
		d.Results = history.NewMemoryResults(0, 0)
	}
	o = o.withDefaults()
	if d.OCR != nil {
		d.OCR = &ocrMemo{next: d.OCR} // one recognition serves the documents and the act's comparison
	}
	if d.News != nil {
		d.News = anon.News{Next: d.News} // the ledger's names never reach a web search
	}
	a := &Agent{bases: d.Bases, llm: d.LLM, dialogs: dialog.Keeper{Store: d.History, Timeout: o.HistoryTimeout, Log: o.Logger}, parser: understand.NewParser(),
		long: buttons.Long{Store: d.Results, Timeout: o.HistoryTimeout}, log: o.Logger, now: o.Now, opts: o}
	a.preview = a.previewDigest
	if d.Planner != nil {
		// Valid plans are kept by question and context, each for Options.PlanCacheTTL.
		a.planner = plan.Cached{Planner: d.Planner, Cache: plan.NewCache(defaultPlanCacheSize, o.PlanCacheTTL, o.Now)}
	}
	if d.LLM != nil {
		a.writer = &phrase.Writer{LLM: d.LLM, Model: o.AnswerModel, Temperature: o.AnswerTemperature,
			ExpandTimeout: o.RouteTimeout, Log: o.Logger}
	}
	a.skills, a.served = map[string]skill.Skill{}, map[plan.Tool]skill.Skill{}
	for _, r := range table {
		if _, done := a.skills[r.skill]; !done && r.build != nil {
			if s := r.build(a, d); s != nil {
				a.skills[r.skill] = s
			}
		}
		for _, t := range r.tools {
			if s := a.skills[r.skill]; s != nil {
				a.served[t] = s
			}
		}
	}
	a.docs, _ = a.skills["documents"].(docsSkill)
	a.books, _ = a.skills["ledger"].(ledgerSkill)
	a.cbr, _ = a.skills["rates"].(*rates.Skill)
	a.acts, _ = a.skills["reconcile"].(*reconcile.Comparer)
	return a
}

// withDefaults fills what o leaves unset.
func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LedgerAccess == nil {
		o.LedgerAccess = func(int64, int64) bool { return false }
	}
	o.RouteTimeout = cmp.Or(max(o.RouteTimeout, 0), 15*time.Second)
	o.HistoryTimeout = cmp.Or(max(o.HistoryTimeout, 0), 2*time.Second)
	o.ToolTimeout = cmp.Or(max(o.ToolTimeout, 0), defaultToolTimeout)
	o.MaxToolCalls = cmp.Or(max(o.MaxToolCalls, 0), plan.DefaultMaxToolCalls)
	o.PlanConfidence = cmp.Or(max(o.PlanConfidence, 0), plan.DefaultConfidenceThreshold)
	o.LLMBudget = cmp.Or(o.LLMBudget, DefaultLLMBudget)
	o.PlanCacheTTL = cmp.Or(o.PlanCacheTTL, defaultPlanCacheTTL)
	return o
}

// HasLLM reports whether an LLM is configured.
func (a *Agent) HasLLM() bool { return a.llm != nil }

// Reset forgets the dialog of the request's conversation.
func (a *Agent) Reset(ctx context.Context, req api.Request) error {
	if err := a.dialogs.Store.Reset(ctx, conversation(req)); err != nil {
		return fmt.Errorf("%w: reset history: %w", api.ErrUnavailable, err)
	}
	return nil
}

// conversation is the history key of a request's dialog (dialog.Key).
func conversation(r api.Request) string { return dialog.Key(r.ChatID, r.UserID, r.Group) }
