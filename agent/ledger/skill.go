package ledger

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/buttons"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/history"
)

// Runner is the 1C query runner. *runner.Lane satisfies it.
type Runner interface {
	Run(ctx context.Context, d runner.Decomposition) runner.Result
	Drill(ctx context.Context, data string) (runner.Result, error)
	// Probe runs one guarded-discovery primitive as a fixed read-only query (deep.go).
	Probe(ctx context.Context, primitive string, args runner.ProbeArgs) (runner.ProbeOutcome, error)
	SourceName() string
	// Catalogs are the 1C catalogs the parser resolves names against.
	Catalogs(ctx context.Context) (recipe.Catalogs, error)
}

// Results keeps, for a while, the results that replies' buttons are bound to (a 1C result
// under a random id), under keys the skill builds in a chat's scope. *history.RedisResults and
// *history.MemoryResults satisfy it.
type Results interface {
	Put(ctx context.Context, key string, data []byte) error
	// Get's ok is false when nothing is kept under key (never, or no longer).
	Get(ctx context.Context, key string) (data []byte, ok bool, err error)
}

// Options tune the skill.
type Options struct {
	// Writer is the answer LLM that words a deep analysis; nil (or one without an LLM) words
	// it deterministically.
	Writer *phrase.Writer
	// Parser reads a ledger command's arguments; understand.NewParser() when nil.
	Parser *understand.Parser
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Logger is discarded when nil.
	Logger *slog.Logger
	// LedgerAccess says who may see 1C data; nil = nobody.
	LedgerAccess func(userID, chatID int64) bool
	// ToolTimeout is each discovery probe's own deadline (default 20s).
	ToolTimeout time.Duration
	// HistoryTimeout bounds each read and write of the results store (default 2s).
	HistoryTimeout time.Duration
	// Bases, when set, are the installation's 1C bases and who may ask which (ONEC_CHANNELS);
	// the runner New is given is then not used. Nil: the runner is the one base, open to
	// everyone LedgerAccess lets through.
	Bases *Bases
}

// The defaults of Options.
const (
	defaultToolTimeout    = 20 * time.Second
	defaultHistoryTimeout = 2 * time.Second
)

// Skill answers questions to 1C: the questions understood as 1C ones, the ledger commands
// (/debts, /payables, /balance), the buttons of its replies (drilldowns, a choice, the export),
// the planner's ledger_query tool and deep analyses. It is safe for concurrent use.
type Skill struct {
	bases *Bases // nil = 1C is not connected
	// runner and base are the base that answers the query at hand: set in the copy each
	// entry point makes for its asker (ask); in the skill New returns, the one base, or nil
	// with several.
	runner  Runner
	base    Base
	results Results
	writer  *phrase.Writer
	parser  *understand.Parser
	now     func() time.Time
	log     *slog.Logger
	access  func(userID, chatID int64) bool
	toolTO  time.Duration
	storeTO time.Duration
}

var _ skill.Skill = (*Skill)(nil)

// New is the skill over the 1C runner r (nil: 1C is not connected, and every answer says so)
// keeping its buttons' results in results (nil: in this process only).
func New(r Runner, results Results, o Options) *Skill {
	if results == nil {
		results = history.NewMemoryResults(0, 0)
	}
	if o.Writer == nil {
		o.Writer = &phrase.Writer{}
	}
	if o.Parser == nil {
		o.Parser = understand.NewParser()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.LedgerAccess == nil {
		o.LedgerAccess = func(int64, int64) bool { return false }
	}
	if o.ToolTimeout <= 0 {
		o.ToolTimeout = defaultToolTimeout
	}
	if o.HistoryTimeout <= 0 {
		o.HistoryTimeout = defaultHistoryTimeout
	}
	bases := o.Bases
	if bases == nil && r != nil {
		bases = OneBase(r)
	}
	if o.Bases != nil {
		r = nil // the asker's base answers (ask); nothing without one
	}
	return &Skill{bases: bases, runner: r, results: results, writer: o.Writer, parser: o.Parser, now: o.Now, log: o.Logger,
		access: o.LedgerAccess, toolTO: o.ToolTimeout, storeTO: o.HistoryTimeout}
}

// User-facing texts of 1C not being there for the asker.
const (
	// NotConnectedText answers everything when 1C is not connected.
	NotConnectedText = "Данные 1С в этой установке не подключены."
	// DeniedText answers a user without access to 1C.
	DeniedText = "Данные 1С доступны только сотрудникам с доступом к учёту. Если он вам нужен, обратитесь к администратору бота."
	// notUnderstoodText answers what reaches the skill as neither a command nor a 1C decision.
	notUnderstoodText = "Не понял, что показать из 1С. Спросите, например: «кто нам должен на 31.03», «остаток по 51 на 1.04», «документы Альфы за март»."
	// badDrillText answers a drilldown button whose data does not decode.
	badDrillText = "Эта кнопка устарела или повреждена. Задайте вопрос заново — например, «кто нам должен на сегодня»."
)

// ErrDenied: the requester may not see 1C data. Facts returns it before touching the runner,
// so nothing of 1C reaches the facts.
var ErrDenied = errors.New("agent: 1C data is not available to this user")

// ErrNotConnected: 1C is not connected in this installation (Facts of a skill over no runner).
var ErrNotConnected = errors.New("agent: 1C is not connected")

// Catalogs are the 1C catalogs for a user with access to 1C; nil without access, without 1C or
// when they cannot be loaded (names then stay unresolved and the answer says what was not
// found). The agent's understanding step reads names against them before routing.
func (s *Skill) Catalogs(ctx context.Context, userID, chatID int64) *recipe.Catalogs {
	s = s.ask(ctx, userID, chatID)
	if s.runner == nil || !s.access(userID, chatID) {
		return nil
	}
	c, err := s.runner.Catalogs(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.log.WarnContext(ctx, "1C catalogs unavailable; names are not resolved", "err", err)
		}
		return nil
	}
	return &c
}

// Answer answers a ledger command (q.Command "debts", "payables", "balance", with q.Text its
// arguments), a button of a 1C reply (q.Command "drill", q.Text its data), or a question
// understood as a 1C one (q.Decision of kind ledger, ledger_write, unknown_entity, or
// ledger_deep with the planner's plan in q.Plan).
func (s *Skill) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	if q.Command == BaseCommand {
		return s.chooseBase(ctx, q) // bases_command.go
	}
	s = s.ask(ctx, q.UserID, q.ChatID)
	if q.Plan != nil {
		if q.Decision.Kind == understand.KindLedgerDeep || slices.Contains(q.Plan.Kinds, understand.KindLedgerDeep) {
			return s.deepAnalysis(ctx, q, *q.Plan) // deep.go
		}
		// A plan of several recipes: its facts are phrased together (the agent's facts path).
		return skill.Reply{Unanswered: true}, nil
	}
	if q.Command == "" {
		switch q.Decision.Kind {
		case understand.KindLedger, understand.KindLedgerWrite, understand.KindUnknownEntity:
			return s.decision(ctx, q) // decision.go's answers
		case understand.KindLedgerDeep:
			if q.Plan != nil {
				return s.deepAnalysis(ctx, q, *q.Plan) // deep.go
			}
		}
	}
	return s.with(ctx, q, nil)
}

// run answers with a decomposition made elsewhere (the decision's or the planner's recipe and
// filters).
func (s *Skill) run(ctx context.Context, q skill.Query, d runner.Decomposition) (skill.Reply, error) {
	q.Command = ""
	return s.with(ctx, q, &d)
}

// with answers a planned decomposition, a ledger command or a button press.
func (s *Skill) with(ctx context.Context, q skill.Query, planned *runner.Decomposition) (skill.Reply, error) {
	if s.runner == nil {
		return skill.Text(NotConnectedText), nil
	}
	if !s.access(q.UserID, q.ChatID) {
		return denied(), nil
	}
	text := q.Text
	var res runner.Result
	switch {
	case q.Command == "" && planned != nil:
		res = s.runner.Run(ctx, *planned)
	case q.Command == "drill":
		if p, ok := ParsePress(text); ok {
			return s.press(ctx, q, p)
		}
		if strings.HasPrefix(text, ExportPrefix) || strings.HasPrefix(text, ChoicePrefix) {
			return StaleButton(), nil // a button of before (x:last, c:<index>) or forged data
		}
		// with several bases, the base the button's answer came from (bases_drill.go)
		on, data, why := s.drillBase(q, text)
		if why != "" {
			return askAgain(why), nil
		}
		r, err := on.runner.Drill(ctx, data)
		switch {
		case errors.Is(err, runner.ErrStaleDrill):
			return staleDrillButton(), nil
		case errors.Is(err, runner.ErrBadDrill):
			return skill.Text(badDrillText), nil
		}
		return on.reply(ctx, q, r), nil // its buttons bound to that base too
	case Commands[q.Command] != "":
		if why := notINN(q.Command, text); why != "" {
			return skill.Text(why), nil
		}
		d := q.Decision // the command's arguments, read by the agent as a question is
		switch {
		case Commands[q.Command] == recipe.ReconciliationAct:
			// «/act Альфа 1 кв» reads as «акт сверки Альфа 1 кв»: its period, contract and name
			// as an act's, not as the arguments alone would be read (an as-of date of a debt)
			d = s.parser.Parse(understand.Input{Text: "акт сверки " + text, Now: s.now(), Catalogs: s.Catalogs(ctx, q.UserID, q.ChatID)})
			if d.Kind == understand.KindUnknownEntity && d.UnknownContract != "" {
				return unknownContractAnswer(d, "/"+q.Command+" "+text), nil // never the act of all contracts instead
			}
		case q.Command == "stock":
			d = s.parser.Parse(understand.Input{Text: StockArgs(text), Now: s.now(), Catalogs: s.Catalogs(ctx, q.UserID, q.ChatID)})
		case d.Kind != understand.KindLedger:
			d = s.parser.Parse(understand.Input{Text: text, Now: s.now(), Catalogs: s.Catalogs(ctx, q.UserID, q.ChatID)})
		}
		dec, _ := FromCommand(q.Command, text, d)
		res = s.runner.Run(ctx, dec)
	default:
		// A question reaches 1C only as a decision (Answer, also for a plan: understand.Parser.FromPlan).
		return skill.Text(notUnderstoodText), nil
	}
	return s.reply(ctx, q, res), nil
}

// denied is the reply to a user without access to 1C.
func denied() skill.Reply {
	return skill.Reply{Text: DeniedText, Degraded: []string{"ledger_access_denied"}}
}

// reply is a runner result as the reply, with the debug payload. A result with choice or
// export buttons is kept under a fresh id in the chat's scope first, and the buttons carry the
// id: each is bound to this reply, whatever is asked after it. When it cannot be kept (the
// store is down) the reply goes without those buttons.
func (s *Skill) reply(ctx context.Context, q skill.Query, res runner.Result) skill.Reply {
	id, kept := "", true
	if Bound(res) {
		id, kept = s.keep(ctx, q, res)
	}
	r := replyOn(res, id, s.drillTag())
	r.Recipe = string(res.Intent)
	dbg := res.Debug
	r.Trace = skill.Trace{"ledger": &dbg, "result": &res}
	if !kept {
		r.Degraded = append(r.Degraded, "buttons_not_kept")
	}
	return r
}

// resultKey is the store key of a result id: in the chat's scope, so that an id pressed (or
// forged) in another chat finds nothing. Everyone in a group with access to 1C may press a
// button under any reply of that group.
// With several bases the key names the base too: a button pressed after its asker switched
// bases (or by a member whose base is another) is stale, never run on another base.
func resultKey(chatID int64, base, id string) string {
	if base == "" {
		return fmt.Sprintf("chat:%d:%s", chatID, id)
	}
	return fmt.Sprintf("chat:%d:base:%s:%s", chatID, base, id)
}

// keep stores res under a fresh id; "", false when the store failed.
func (s *Skill) keep(ctx context.Context, q skill.Query, res runner.Result) (string, bool) {
	data, err := Encode(res)
	if err != nil {
		s.log.ErrorContext(ctx, "ledger result not encoded", "err", err)
		return "", false
	}
	id := buttons.NewID()
	sctx, cancel := context.WithTimeout(ctx, s.storeTO)
	defer cancel()
	if err := s.results.Put(sctx, resultKey(q.ChatID, s.resultBase(), id), data); err != nil {
		s.log.WarnContext(ctx, "ledger result not kept", "chat_id", q.ChatID, "err", err)
		return "", false
	}
	return id, true
}

// press answers a choice or export button with the result it is bound to.
func (s *Skill) press(ctx context.Context, q skill.Query, p Press) (skill.Reply, error) {
	sctx, cancel := context.WithTimeout(ctx, s.storeTO)
	data, found, err := s.results.Get(sctx, resultKey(q.ChatID, s.resultBase(), p.ID))
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return skill.Reply{}, ctx.Err()
		}
		return skill.Reply{}, skill.Unavailable("button results", err)
	}
	if !found {
		return StaleButton(), nil
	}
	res, err := Decode(data)
	if err != nil {
		s.log.WarnContext(ctx, "kept ledger result unreadable", "chat_id", q.ChatID, "err", err)
		return StaleButton(), nil
	}
	if p.Export {
		return export(res)
	}
	if p.PDF {
		return exportPDF(res)
	}
	d, ok := Choice(res, p.Candidate)
	if !ok {
		return StaleButton(), nil
	}
	return s.reply(ctx, q, s.runner.Run(ctx, d)), nil
}

// StaleButton answers a button whose result is no longer kept (expired, from another chat, or
// of a version that pointed at «the last result»), with a question to ask again. The agent
// answers a text button it no longer keeps the same way.
func StaleButton() skill.Reply {
	return askAgain("Эта кнопка устарела: ответа, к которому она относится, больше нет.")
}

// staleDrillButton answers a drilldown button of an earlier version (runner.ErrStaleDrill), whose
// data named the recipe and the organization by position: run now, it could open another
// report or another organization's figures.
func staleDrillButton() skill.Reply {
	return askAgain("Эта кнопка устарела: она осталась от прежней версии бота.")
}

// askAgain is a stale button's answer: why, and a question to ask again, also as a button.
func askAgain(why string) skill.Reply {
	return skill.Reply{Text: why + " Задайте вопрос заново — например, «кто нам должен на сегодня».",
		Buttons: []skill.Button{{Text: "Кто нам должен на сегодня"}}, Degraded: []string{"stale_button"}}
}

// Facts runs the planner's ledger_query tool (plan.ToolLedgerQuery): one whitelisted 1C recipe
// with the plan's filters for the question q.Text, run as the ledger commands run, read as
// facts (the rows, their total and the scope of the figures). A user without access gets
// ErrDenied before anything reaches 1C; a result the runner limited is a *Limited. Both come as
// a *skill.Answered that carries the reply the user is shown when no other call found facts.
func (s *Skill) Facts(ctx context.Context, q skill.Query, call plan.ToolCall) (facts.Payload, error) {
	if call.Tool != plan.ToolLedgerQuery {
		return facts.Payload{}, skill.BadArgs("the ledger skill does not serve %s", call.Tool)
	}
	s = s.ask(ctx, q.UserID, q.ChatID)
	var args understand.LedgerArgs
	if err := call.Decode(&args); err != nil {
		return facts.Payload{}, fmt.Errorf("%w: %s: %v", skill.ErrArgs, call.Tool, err)
	}
	if s.runner == nil {
		return facts.Payload{}, skill.Unavailable("1C", ErrNotConnected)
	}
	if !s.access(q.UserID, q.ChatID) {
		return facts.Payload{}, &skill.Answered{Err: ErrDenied, Reply: denied()}
	}
	d, err := Decompose(q.Text, args)
	if err != nil {
		return facts.Payload{}, err
	}
	res := s.runner.Run(ctx, d)
	if ctx.Err() != nil {
		return facts.Payload{}, ctx.Err()
	}
	p, err := Facts(res)
	if limited := (*Limited)(nil); errors.As(err, &limited) {
		// 1C asks for a choice or a missing filter: its own answer, with the buttons.
		r := s.reply(ctx, q, limited.Result)
		r.Scenario, r.Kind = skill.OneC, understand.KindLedger
		return p, &skill.Answered{Err: err, Reply: r}
	}
	return p, err
}

// export sends a kept result as an Excel file, captioned with what the sheet holds.
func export(res runner.Result) (skill.Reply, error) {
	if res.ResultMode == runner.Limited {
		return skill.Text("Выгружать нечего: в этом ответе нет строк из 1С."), nil
	}
	data, err := res.XLSX()
	if err != nil {
		return skill.Reply{}, fmt.Errorf("export: %w", err)
	}
	return skill.Reply{Recipe: string(res.Intent), Text: res.ExportCaption(),
		Document: &skill.Document{Name: res.ExportName(), Bytes: data, Caption: "Источник: " + res.Source}}, nil
}

// Offers reports whether the planner may query 1C for q: 1C is connected and open to the
// requester.
func (s *Skill) Offers(_ context.Context, q skill.Query) bool {
	return s.bases != nil && s.access(q.UserID, q.ChatID) && len(s.bases.Allowed(q.UserID, q.ChatID)) > 0
}
