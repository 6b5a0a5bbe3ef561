package agent

// The table of meanings: every kind of question the parser, the planner, a command or a button
// can ask, the scenario of the design it belongs to, and the skill that answers it.

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/clarify"
	"github.com/finbot/finbot/agent/digest"
	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/agent/general"
	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/news"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/rates"
	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/smalltalk"
	"github.com/finbot/finbot/agent/understand"
)

// row is one line of the table.
type row struct {
	kind     understand.Kind
	scenario api.Scenario
	// skill names the skill that answers (debug payload, metrics); rows of one skill share it.
	skill string
	// tools are the planner's tools the skill serves: the planner is offered a tool only when
	// its skill is connected (and, for 1C, open to the requester).
	tools []plan.Tool
	// commands ask this kind directly ("/rate USD 01.05"); their arguments are read as a
	// question is, unless raw (button data, /docs pages).
	commands []string
	raw      bool
	// missing is the answer when this installation lacks the skill.
	missing string
	// build makes the skill from the agent's dependencies; nil when the dependency is absent.
	build func(a *Agent, d Deps) skill.Skill
}

// table is the one map from what a message means to who answers it. A kind's first row is its
// route; a command's is the first row that lists it. Adding a skill is a package that
// implements skill.Skill and a row here (docs/architecture.md).
var table = []row{
	{kind: understand.KindRate, scenario: api.S2General, skill: "rates", tools: []plan.Tool{plan.ToolFetchCBRData},
		commands: []string{"rate"}, missing: "Курсы Банка России в этой установке не подключены.", build: buildRates},
	{kind: understand.KindKeyRate, scenario: api.S2General, skill: "rates", commands: []string{"keyrate"},
		missing: "Данные Банка России в этой установке не подключены.", build: buildRates},
	{kind: understand.KindNews, scenario: api.S2General, skill: "news", tools: []plan.Tool{plan.ToolFetchFinanceNews},
		commands: []string{"news"}, raw: true, build: buildNews},
	{kind: understand.KindKB, scenario: api.S2General, skill: "kb", tools: []plan.Tool{plan.ToolSearchGeneralKB},
		missing: "Корпоративная база знаний в этой установке не подключена.", build: buildKB},
	// «сверь» over a counterparty's uploaded act: claimed before the documents claim the
	// questions over a selection.
	{kind: understand.KindReconcile, scenario: api.OneC, skill: "reconcile", missing: ledgerMissing, build: buildReconcile},
	{kind: understand.KindDocs, scenario: api.S1Search, skill: "documents",
		tools:   []plan.Tool{plan.ToolSearchUserDocuments, plan.ToolLoadDocumentsFull},
		missing: "Поиск по документам в этой установке не подключён.", build: buildDocuments},
	{kind: understand.KindDocs, scenario: api.Command, skill: "documents", commands: []string{"docs", "doc"}, raw: true,
		missing: "Загрузка документов в этой установке не подключена.", build: buildDocuments},
	{kind: understand.KindLedger, scenario: api.OneC, skill: "ledger", tools: []plan.Tool{plan.ToolLedgerQuery},
		commands: []string{"debts", "payables", "balance", "aging", "act", "sverka", "card", "offsets", "stock"}, missing: ledgerMissing, build: buildLedger},
	{kind: understand.KindLedger, scenario: api.OneC, skill: "ledger", commands: []string{"drill"}, raw: true,
		missing: ledgerMissing, build: buildLedger},
	// /base: which of the 1C bases open to the asker answers them (ledger.BaseCommand).
	{kind: understand.KindLedger, scenario: api.OneC, skill: "ledger", commands: []string{ledger.BaseCommand}, raw: true,
		missing: ledgerMissing, build: buildLedger},
	{kind: understand.KindLedgerWrite, scenario: api.OneC, skill: "ledger", missing: ledgerMissing, build: buildLedger},
	{kind: understand.KindUnknownEntity, scenario: api.OneC, skill: "ledger", missing: ledgerMissing, build: buildLedger},
	// Guarded discovery: the skill runs the plan's primitives itself, within its budget.
	{kind: understand.KindLedgerDeep, scenario: api.OneC, skill: "ledger", missing: ledgerMissing, build: buildLedger},
	// Digests and alerts: /subscribe, /subscriptions, /unsubscribe, /digest and their buttons.
	{kind: understand.KindSubscribe, scenario: api.Command, skill: "digest", commands: digest.Commands, raw: true,
		missing: "Подписки на сводки в этой установке не подключены.", build: buildDigest},
	{kind: understand.KindSmallTalk, scenario: api.S2General, skill: "smalltalk", build: buildSmallTalk},
	{kind: understand.KindClarify, scenario: api.S5Clarify, skill: "clarify", build: buildClarify},
	// A plan of several sources: the executor runs its calls over the other rows' tools and the
	// answer LLM phrases the facts.
	{kind: understand.KindGeneral, scenario: api.S2General, skill: "facts", build: buildGeneral},
}

const ledgerMissing = "Данные 1С в этой установке не подключены."

// rowOf is the route of a kind; clarify for one the table lacks.
func rowOf(k understand.Kind) row {
	r, ok := find(func(r row) bool { return r.kind == k })
	if !ok {
		return rowOf(understand.KindClarify)
	}
	return r
}

// commandRow is the row of a command; false for a command no row lists.
func commandRow(cmd string) (row, bool) {
	return find(func(r row) bool { return slices.Contains(r.commands, cmd) })
}

// toolRow is the row of the skill that serves a planner tool.
func toolRow(t plan.Tool) (row, bool) {
	return find(func(r row) bool { return slices.Contains(r.tools, t) })
}

// find is the table's first row that ok accepts.
func find(ok func(row) bool) (row, bool) {
	if i := slices.IndexFunc(table, ok); i >= 0 {
		return table[i], true
	}
	return row{}, false
}

// skillOf is the skill a row routes to; nil when this installation lacks it.
func (a *Agent) skillOf(r row) skill.Skill { return a.skills[r.skill] }

// ask has the skill of row r answer q, and follows the handoff its reply asks for.
func (a *Agent) ask(ctx context.Context, r row, q skill.Query) (skill.Reply, error) {
	s := a.skillOf(r)
	if s == nil {
		if r.missing == "" {
			return skill.Reply{}, fmt.Errorf("%w: no skill answers %s", api.ErrUnavailable, r.kind)
		}
		return skill.Text(r.missing), nil
	}
	rep, err := s.Answer(ctx, q)
	if err != nil || rep.Then == nil || q.HandedOff {
		rep.Then = nil
		return rep, err
	}
	return a.handoff(ctx, q, rep)
}

// handoff answers the question as the kind rep hands it to, and combines the two replies as
// rep asks (skill.Handoff.Combine).
func (a *Agent) handoff(ctx context.Context, q skill.Query, rep skill.Reply) (skill.Reply, error) {
	h := *rep.Then
	rep.Then = nil
	q.HandedOff, q.Rules = true, h.Rules
	r := rowOf(h.Kind)
	other, err := a.ask(ctx, r, q)
	if err != nil {
		return rep, err
	}
	other.Scenario = cmp.Or(other.Scenario, r.scenario)
	return h.Combine(rep, other), nil
}

// The builders make each skill from the agent's dependencies; nil when its dependency is absent.

// access is who may see 1C data, as the agent's options say at the time of asking.
// With several bases, also one of them must be open to them: the access lists are the first
// gate, the bases' mapping the second.
func (a *Agent) access(userID, chatID int64) bool {
	return a.opts.LedgerAccess(userID, chatID) && (a.bases == nil || len(a.bases.Allowed(userID, chatID)) > 0)
}

// hasLedger reports whether 1C is connected.
func hasLedger(d Deps) bool { return d.Ledger != nil || d.Bases != nil }

func buildRates(a *Agent, d Deps) skill.Skill {
	if d.Rates == nil {
		return nil
	}
	return rates.New(d.Rates, rates.Options{Now: a.opts.Now, Logger: a.opts.Logger})
}

func buildNews(a *Agent, d Deps) skill.Skill {
	o := news.Options{Now: a.opts.Now}
	if cbr, ok := a.skills["rates"].(*rates.Skill); ok {
		o.Bank = cbr.RecentNews
	}
	return news.New(d.News, o)
}

func buildSmallTalk(a *Agent, d Deps) skill.Skill {
	var missing []string
	if d.Library == nil {
		missing = append(missing, "поиск по документам пользователя")
	}
	if d.KB == nil {
		missing = append(missing, "база знаний")
	}
	if !hasLedger(d) {
		missing = append(missing, "данные 1С")
	}
	return smalltalk.New(smalltalk.Options{Writer: a.writer, Unavailable: missing, Now: a.opts.Now, Logger: a.opts.Logger})
}

func buildClarify(a *Agent, d Deps) skill.Skill { return clarify.New(a.writer, a.opts.Logger) }

func buildGeneral(a *Agent, d Deps) skill.Skill {
	return general.New(general.Options{Tools: a.registry, Writer: a.writer, MaxToolCalls: a.opts.MaxToolCalls,
		ToolTimeout: a.opts.ToolTimeout, Logger: a.opts.Logger})
}

func buildDocuments(a *Agent, d Deps) skill.Skill {
	if d.Library == nil {
		return nil
	}
	return documents.New(d.Library, documents.Options{Writer: a.writer, Parser: a.parser, Logger: a.opts.Logger,
		HistoryTimeout: a.opts.HistoryTimeout, Now: a.now, OCR: d.OCR, Acts: d.Acts})
}

func buildKB(a *Agent, d Deps) skill.Skill {
	if d.KB == nil {
		return nil
	}
	return kb.New(d.KB, d.Library, kb.Options{Writer: a.writer, Logger: a.opts.Logger, Parser: a.parser, Now: a.opts.Now,
		LedgerFor: func(userID, chatID int64) bool { return hasLedger(d) && a.access(userID, chatID) },
		Rates:     d.Rates != nil})
}

func buildLedger(a *Agent, d Deps) skill.Skill {
	if !hasLedger(d) {
		return nil
	}
	return ledger.New(d.Ledger, d.Results, ledger.Options{Writer: a.writer, Parser: a.parser, Now: a.opts.Now,
		Logger: a.opts.Logger, LedgerAccess: a.access, ToolTimeout: a.opts.ToolTimeout, HistoryTimeout: a.opts.HistoryTimeout,
		Bases: d.Bases})
}

// buildReconcile is the comparison of a counterparty's act with ours: with 1C connected, for the
// users who may see it.
func buildReconcile(a *Agent, d Deps) skill.Skill {
	if !hasLedger(d) {
		return nil
	}
	return reconcile.NewComparer(d.Acts, d.Results, reconcile.ComparerOptions{Access: a.access, Organizations: a.organizations,
		StoreTimeout: a.opts.HistoryTimeout, Now: a.opts.Now, Logger: a.opts.Logger, OCR: d.OCR})
}

// organizations are our organizations as the asker's 1C catalogs name them.
func (a *Agent) organizations(ctx context.Context, userID, chatID int64) []reconcile.Party {
	if a.books == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, understandTimeout)
	defer cancel()
	cats := a.books.Catalogs(ctx, userID, chatID)
	if cats == nil {
		return nil
	}
	out := make([]reconcile.Party, 0, len(cats.Organizations))
	for _, o := range cats.Organizations {
		out = append(out, reconcile.Party{Name: o.Name, INN: o.INN})
	}
	return out
}

// buildDigest is the digests and alerts of /subscribe: with a subscriptions' store.
func buildDigest(a *Agent, d Deps) skill.Skill {
	if d.Digests == nil {
		return nil
	}
	return digest.New(d.Digests, digest.Options{Now: a.opts.Now, Zone: a.opts.DigestZone, Logger: a.opts.Logger, Rates: d.Rates != nil,
		LedgerFor:    func(userID, chatID int64) bool { return hasLedger(d) && a.access(userID, chatID) },
		Produce:      func(ctx context.Context, sub digest.Subscription) (skill.Reply, error) { return a.preview(ctx, sub) },
		StoreTimeout: a.opts.HistoryTimeout})
}
