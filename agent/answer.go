package agent

// The way in: a message cleaned, its history and documents loaded, understood once, and routed
// by its kind — or, when the parser is unsure, planned.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/anon"
	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/retrieval"
	"github.com/finbot/finbot/ru"
)

// understandTimeout bounds loading what the parser reads around a message (catalogs, titles).
const understandTimeout = 5 * time.Second

// Answer answers one message. History failures degrade the answer (no context) but never stop
// it.
func (a *Agent) Answer(ctx context.Context, req api.Request) (api.Answer, error) {
	start := a.now()
	usage := new(llm.Usage)
	ctx = llm.WithUsage(ctx, usage)
	if a.opts.LLMBudget > 0 {
		// Real time, not a.now: the budget bounds what the user waits for.
		ctx = llm.WithBudget(ctx, time.Now().Add(a.opts.LLMBudget))
	}
	text := strings.TrimSpace(ru.CleanInput(strings.ToValidUTF8(req.Text, "\uFFFD")))
	if text == "" && req.Command == "" {
		return api.Answer{}, api.ErrEmpty
	}
	if utf8.RuneCountInString(text) > api.MaxQuestionRunes {
		return api.Answer{}, api.ErrTooLong
	}
	in := turn{req: req, key: conversation(req), start: start, usage: usage}
	hist, lost, err := a.dialogs.Load(ctx, in.key)
	if err != nil {
		return api.Answer{}, err
	}
	if lost != "" {
		in.degraded = append(in.degraded, lost)
	}
	if req.Command == "drill" && strings.HasPrefix(text, api.TextButtonPrefix) {
		// A button whose question was too long for Telegram's 64 bytes of callback data: its
		// question is kept server-side, and pressing it asks that question.
		q, ok, err := a.long.Question(ctx, req.ChatID, strings.TrimPrefix(text, api.TextButtonPrefix))
		if err != nil {
			return api.Answer{}, err
		}
		if !ok {
			return a.exit(ctx, in, reply(rowOf(understand.KindLedger), ledger.StaleButton(), api.Route{Source: "command", Sure: true}), nil)
		}
		req.Command, text = "", q
		in.req = req
	}
	in.text = text
	q := query(req)
	// One anonymiser session per answer: every LLM call of it gives a name or number the same
	// placeholder, and the requester's catalogs are read only if a call is made (agent/anon).
	sctx := ctx
	ctx = anon.WithSession(ctx, anon.NewSession(func() *recipe.Catalogs { return a.catalogs(sctx, q) }))
	q.Command, q.Text, q.History, q.Progress = req.Command, text, hist, req.Progress
	var ans api.Answer
	if req.Command != "" {
		ans, err = a.command(ctx, q)
	} else {
		ans, err = a.question(ctx, req, q)
	}
	if err != nil {
		return api.Answer{}, err
	}
	return a.exit(ctx, in, ans, hist)
}

// question answers a message that is not a command. The message is understood once, by the
// deterministic parser. A decision it is sure of is answered at once, with no LLM; only when
// it is unsure does the planner get to add, and when the planner fails or returns nothing
// valid the parser's decision stands.
func (a *Agent) question(ctx context.Context, req api.Request, q skill.Query) (api.Answer, error) {
	if a.docs != nil {
		docs, err := a.docs.Scope(ctx, documents.Asker{UserID: req.UserID, ChatID: req.ChatID, Group: req.Group, OnlyDoc: req.OnlyDoc, ReplyTo: req.ReplyTo})
		if errors.Is(err, documents.ErrGone) {
			return api.Answer{Scenario: api.S5Clarify, Text: documents.GoneText}, nil
		}
		if err != nil {
			return api.Answer{}, err
		}
		q.Docs = docs
	}
	var prev *understand.State
	if st, ok := understand.LastState(q.History); ok {
		prev = &st
	}
	if st, ok := a.replied(ctx, req); ok {
		prev = &st // a reply to one of the bot's answers continues that answer
	}
	q.Decision = a.understand(ctx, q, prev)
	if c := q.Decision.Counterparty; c.Set && c.Source == understand.FromCatalog {
		// the name as the message wrote it, typo and all, is masked as the one the parser read
		anon.Alias(ctx, c.Text, c.Value.Name)
	}
	var offerDocs bool
	q.Decision, offerDocs = a.weighDocuments(ctx, q, false)
	if q.Decision.Kind == understand.KindLedger && understand.Future(q.Text) && !penaltyAsked.MatchString(strings.ToLower(q.Text)) {
		// what 1C will show has not been posted (the user's documents, which state what is due,
		// were weighed first; a penalty to come is theirs too)
		q.Decision = understand.AsForecast(q.Decision)
	}
	route := api.Route{Source: "rules", Sure: q.Decision.Sure, Rule: q.Decision.Rule, Reasons: q.Decision.Reasons}
	var ans api.Answer
	var err error
	// «сверь» over a counterparty's uploaded act is the comparison's, whatever a planner would
	// read into the word.
	_, compares := a.actsClaim(q)
	if q.Decision.Sure && !a.opts.forcePlan || a.planner == nil || phrase.Down(a.llm) || compares {
		ans, err = a.decided(ctx, q, route)
	} else {
		ans, err = a.planned(ctx, q, route)
	}
	if err == nil && offerDocs && ans.Debug.Route.Kind != understand.KindDocs && utf8.RuneCountInString(q.Text) <= maxOfferRunes {
		// Both fit: 1C answered, the user's documents hold the question too — one press asks them.
		ans.Buttons = append(ans.Buttons, api.Button{Text: docsOfferPrefix + q.Text})
	}
	if q.Docs.Unavailable {
		ans.Debug.Degraded = append([]string{"documents_unavailable"}, ans.Debug.Degraded...)
	}
	return ans, err
}

// actsClaim is the comparison's claim on q (reconcile.Comparer.Claims), false without it.
func (a *Agent) actsClaim(q skill.Query) ([]string, bool) {
	if a.acts == nil {
		return nil, false
	}
	return a.acts.Claims(q)
}

// understand reads a message once, into a typed decision. Names are resolved against the 1C
// catalogs only for a user with access to 1C; the titles of the user's documents tell a
// question about an uploaded contract from one for 1C. prev is the dialog state the message
// may continue (nil for none).
func (a *Agent) understand(ctx context.Context, q skill.Query, prev *understand.State) understand.Decision {
	in := understand.Input{Text: q.Text, Now: a.now()}
	lctx, cancel := context.WithTimeout(ctx, understandTimeout) // bounds what is loaded around it
	defer cancel()
	if a.docs != nil {
		in.Docs = a.docs.Titles(lctx, q.Docs.Owner)
	}
	for _, m := range q.Docs.Selected {
		in.Docs = append(in.Docs, m.Title)
	}
	return a.parser.Understand(in, prev, func() *recipe.Catalogs { return a.catalogs(lctx, q) })
}

// catalogs are the 1C catalogs for a user with access to 1C, loaded within understandTimeout;
// nil without.
func (a *Agent) catalogs(ctx context.Context, q skill.Query) *recipe.Catalogs {
	if a.books == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, understandTimeout)
	defer cancel()
	return a.books.Catalogs(ctx, q.UserID, q.ChatID)
}

// decided answers a decision with the skill of its kind. Nothing here reads the text again:
// the skill reads the decision's slots.
func (a *Agent) decided(ctx context.Context, q skill.Query, route api.Route) (api.Answer, error) {
	r := rowOf(q.Decision.Kind)
	for _, c := range table {
		if cl, ok := a.skillOf(c).(skill.Claimer); ok && c.commands == nil {
			if why, ok := cl.Claims(q); ok {
				r, route.Reasons = c, append(route.Reasons, why...)
				break
			}
		}
	}
	return a.answerBy(ctx, r, q, route, true)
}

// command answers a command: the command names its kind, and its arguments are read by the
// same parser as a question («/rate USD 01.05», «/keyrate 2025»), unless they are a button's
// data or a page.
func (a *Agent) command(ctx context.Context, q skill.Query) (api.Answer, error) {
	route := api.Route{Source: "command", Sure: true, Reasons: []string{"команда /" + q.Command}}
	r, ok := commandRow(q.Command)
	if !ok {
		route.Reasons = []string{"неизвестная команда /" + q.Command}
		r = rowOf(understand.KindClarify)
		q.Command = ""
	}
	if ok && !r.raw {
		in := understand.Input{Text: q.Text, Now: a.now()}
		if r.scenario == api.OneC {
			in.Catalogs = a.catalogs(ctx, q)
		}
		q.Decision = a.parser.Parse(in)
	}
	q.Decision.Kind = r.kind
	if rc, ok := ledger.CommandRecipe(q.Command, q.Text, q.Decision); ok && r.kind == understand.KindLedger {
		// «/debts 31.03» leaves the dialog what «кто нам должен на 31.03» would: «а поставщикам?»
		// and «а на 1 апреля?» continue it.
		q.Decision.Recipe = rc
	}
	return a.answerBy(ctx, r, q, route, !r.raw)
}

// answerBy has row r's skill answer q; the answer keeps q's decision as the dialog's state, for
// a follow-up, when remember is set.
func (a *Agent) answerBy(ctx context.Context, r row, q skill.Query, route api.Route, remember bool) (api.Answer, error) {
	rep, err := a.ask(ctx, r, q)
	if err != nil {
		return api.Answer{}, err
	}
	ans := reply(r, rep, route)
	d := q.Decision
	if len(rep.Quoted) > 0 {
		// Answered from the user's documents (a vague question, a rules topic, a planned search
		// included): the dialog continues them.
		d = understand.Decision{Kind: understand.KindDocs, Continues: d.Continues, ContinuesDocs: rep.Quoted}
	}
	if st, ok := understand.StateOf(d, q.Text); ok && remember {
		st.Listed = rep.Listed
		ans.State = &st
	}
	return ans, nil
}

// reply is a skill's reply as the answer of row r, routed as route says.
func reply(r row, rep skill.Reply, route api.Route) api.Answer {
	ans := api.Answer{Scenario: cmp.Or(rep.Scenario, r.scenario), Kind: cmp.Or(rep.Kind, r.kind), Recipe: rep.Recipe,
		Text: rep.Text, Chart: rep.Chart, Buttons: rep.Buttons, Document: rep.Document,
		Attachments: rep.Attachments, Receipt: rep.Receipt}
	ans.Sources, ans.Debug.Calls, ans.Debug.Degraded = rep.Sources, rep.Calls, rep.Degraded
	if len(rep.Trace) > 0 {
		ans.Debug.Trace = maps.Clone(rep.Trace)
	}
	route.Skill = r.skill
	route.Reasons = append(route.Reasons, rep.Reasons...)
	ans.Debug.Route = route
	return ans
}

// Documents weigh as a source in understanding: a message that names no 1C object the
// catalogs know (a counterparty, a contract, an account, a settlement account) and whose
// content words a clause of the asker's own documents holds is answered from the documents.
// How strongly it must hold them depends on what else the message could be: little for a
// message the parser could not place, more for one it took for the knowledge base's, and, for
// a question the parser is sure is one for 1C, the Bank of Russia or the rules, the message
// must name the document too («ставка по займу», «лимит по нашему положению»): the user's own
// policy beats the knowledge base on its topic when the question asks about it.
const (
	docsRouteCoverage = 0.4 // library.ClauseHit.Coverage of the best unit
	docsRouteSure     = 0.9
	docsRouteNamed    = 0.5 // a 1C reading of a message that names one of the documents
	docsRouteBare     = 0.6 // a 1C or rates reading of a message that names nothing of theirs
	docsRouteStrong   = 0.75
	// docsRouteWeak is enough where the other reading is weak too: a knowledge-base question
	// that names one of the user's documents by its title («вернулся из командировки…» with
	// the travel policy uploaded: the user's policy beats the general article), a name 1C does
	// not know that a document's title holds, a planner's 1C plan that would only ask back.
	docsRouteWeak = 0.2
	// docsRouteAskedBack: a 1C reading that would only ask back whose, of a message that names
	// nothing of 1C's (no counterparty, account, date or period).
	docsRouteAskedBack = 0.3
)

// namesKeyRate: the message names the Bank of Russia's rate as such, not only «ставка».
var namesKeyRate = regexp.MustCompile(`ключев|ключик|цб|центробанк|банк\p{L}*\s+росси|рефинанс|(^|[^\p{L}])кс([^\p{L}]|$)`)

// givesKeyRate: the message gives the key rate itself («если ключевая 16 %», «при ключевой 21»).
// rateChanges: a change of a rate supposed («поднимут», «повысят», «подорожает», «если изменится»).
var rateChanges = regexp.MustCompile(`(^|[^\p{L}])(поднимут|поднимет|повысят|повысит|снизят|снизит|понизят|изменится|изменят|вырастет|упадет|упадёт|подорожа\p{L}*|подешеве\p{L}*|если)([^\p{L}]|$)`)

var givesKeyRate = regexp.MustCompile(`ключев\p{L}*(\s+ставк\p{L}*)?\s+(будет\s+|равна\s+)?\d{1,2}([.,]\d{1,2})?(\s*%|\s|$)`)

// asksPrice: the message asks what something costs («почём», «сколько стоит», «цена …»).
var asksPrice = regexp.MustCompile(`(^|\s)(почем|почём|сколько\s+стои\p{L}*|цена|цену|стоимость)(\s|$|\?)`)

// docMention: a message that refers to a document of its own («по договору», «в акте», «в
// прайсе», «по положению», «дог.», «допник», «наш договор») — not one that asks about a kind of
// document in general («акт сверки обязателен?»).
var docMention = regexp.MustCompile(`(^|[^\p{L}])(в|во|по|из|к|у|от)\s+(\p{L}+\s+)?(договор|акт|прайс|положени|соглашени|спецификаци|дс)|` +
	`(^|[^\p{L}])(дог|допник\p{L}*)([^\p{L}]|$)|(^|[^\p{L}])(наш\p{L}*|этом\p{L}*)\s+(договор|акт|положени|прайс)`)

// penaltyAsked: the message asks about a penalty — a contract's, never a 1C figure.
var penaltyAsked = regexp.MustCompile(`(^|[^\p{L}])(пен[иья]|неустойк\p{L}*|штраф\p{L}*)`)

// docsOfferPrefix starts the button that asks the user's documents what 1C answered: the
// parser reads «в моих документах» as a question about them. maxOfferRunes bounds the
// questions offered so (a button's text is the question sent back).
const (
	docsOfferPrefix = "В моих документах: "
	maxOfferRunes   = 120
)

// weighDocuments returns q's decision, or the documents' when they answer it better.
//
// planned: the decision is the planner's (the parser was unsure): a 1C recipe it chose that
// would only ask back weighs no more than the documents.
func (a *Agent) weighDocuments(ctx context.Context, q skill.Query, planned bool) (d understand.Decision, offerDocs bool) {
	d = q.Decision
	// 1C keeps no prices: «почём бумага» asks the price list, whatever counterparty «бумага» names.
	price := asksPrice.MatchString(strings.ToLower(q.Text))
	// An impossible date («31.02») is said to be one; a period yet to begin («с марта 2027») may
	// be a contract's.
	if a.docs == nil || d.Kind == understand.KindDocs && d.Sure || d.Kind == understand.KindLedgerWrite || d.DateError != "" && !d.DateFuture ||
		d.Rule == "kb_definition" || len(d.Candidates) > 0 {
		return d, false
	}
	other1C := d.Contract.Set && d.Contract.Source == understand.FromCatalog ||
		d.Account.Set && d.Account.Source == understand.FromText || d.BankAccount.Set
	party1C := d.Counterparty.Set && d.Counterparty.Source == understand.FromCatalog
	named1C := (party1C && !price || other1C) && d.Kind != understand.KindKeyRate // the key rate names no 1C object
	hit, ok := a.docs.Evidence(ctx, q)
	if !ok {
		return d, false
	}
	// The user's documents hold the question strongly too: 1C answers what it names, and the
	// documents are offered (a counterparty of the same name, «сколько оплатили меридиану»).
	fits := hit.Coverage >= passages.MinClauseCoverage && hit.Matched >= 2 && d.Kind == understand.KindLedger
	// A name 1C does not know that is a party of the user's document («сколько заплатили
	// векторТранс в ноябре» beside the forwarding contract with ООО «ВекторТранс»): 1C says it
	// does not know it, and one press asks the documents — which state terms, not payments.
	fits = fits || d.Kind == understand.KindUnknownEntity && hit.AnyNamed && a.namesDocument(ctx, q, d.Unknown)
	// A counterparty the user's documents name too («сколько платим меридиану в месяц за
	// офис» with the lease of «Меридиан Недвижимость»): what is asked decides, not the name —
	// a debt, a balance or documents posted are 1C's («долг перед меридианом»).
	asksNo1C := named1C && !other1C && !d.Settles
	namesDoc := asksNo1C && a.namesDocument(ctx, q, d.Counterparty.Text)
	partyToo := namesDoc && hit.Named
	// …and when 1C's name is only a word of the message's («склад» of ООО «Склад-Сервис»: the
	// word names a document, whichever of them holds the rest best) or the message names the
	// document's party with more words than 1C's name has («маркет партнер» and ООО «Партнер»),
	// the document answers however little of the rest it holds.
	wordOfName := asksNo1C && (partOfName(d.Counterparty.Value.Name, d.Counterparty.Text) && namesDoc ||
		partyToo && slices.ContainsFunc(widerNames(q.Text, d.Counterparty.Text), func(w string) bool {
			return partOfName(d.Counterparty.Value.Name, w) && a.namesDocument(ctx, q, w)
		}))
	partyToo = partyToo || wordOfName
	// 1C keeps no penalties: «заплатили постоянку 20.11, пени будут?» is no bank statement of
	// December, whatever «заплатили» reads as — unless a counterparty 1C knows is named.
	penalty1C := d.Kind == understand.KindLedger && !party1C && penaltyAsked.MatchString(strings.ToLower(q.Text))
	// What was paid is 1C's («сколько заплатили за март»): an agreement states what is owed,
	// not what went out — unless the message names the document.
	paidFact := d.Kind == understand.KindLedger && d.Asks.Paid && !d.Asks.Due && !hit.Named
	if named1C && !partyToo && !penalty1C || paidFact && !penalty1C {
		return d, fits && d.Counterparty.Set
	}
	if hit.AnyNamed && docMention.MatchString(strings.ToLower(q.Text)) {
		// «по договору аренды», «в прайсе», «в акте сверки»: the user names the document — it
		// answers, or says that it does not say it.
		why := fmt.Sprintf("документы: вопрос называет документ (%s)", hit.Unit.Number)
		return understand.Decision{Kind: understand.KindDocs, Sure: true, Rule: "docs_named", Asks: d.Asks,
			Reasons: append(slices.Clone(d.Reasons), why)}, false
	}
	need := docsRouteCoverage
	// A 1C question that would only be asked back (whose counterparty?) is no surer than the
	// documents; small talk needs their words held strongly.
	// (Not one that asks a side of the bank's turnover: «платежи поставщикам за март» is 51 — 60.)
	asksBack := d.Kind == understand.KindLedger && understand.TakesParty(d.Recipe) && !d.Counterparty.Set && d.Corr == ""
	// A 1C reading that only inherits the last question's slots — the message starts no
	// follow-up («в каком договоре есть обеспечительный платёж» after a debt of Ромашка) — is
	// no surer than the documents either.
	inherited := d.Rule == "follow_up" && !understand.IsFollowUp(q.Text)
	sure := d.Sure && d.Kind != understand.KindClarify && d.Kind != understand.KindDocs && !asksBack &&
		d.Kind != understand.KindSmallTalk && !inherited && !planned
	if inherited {
		need = docsRouteStrong
	}
	if price && d.Kind == understand.KindLedger {
		sure = false // a price is no 1C figure
	}
	// A name 1C does not know («Не нашёл контрагента «займу»») that a document's title holds
	// is the document's; the user's own policy beats the knowledge base on its topic.
	unknown := d.Kind == understand.KindUnknownEntity && hit.AnyNamed
	// …named, or holding the question strongly («подотчёт менеджеру макс сколько» and the
	// policy's table of limits by position).
	ownPolicy := d.Kind == understand.KindKB && (hit.Named || hit.Policy && hit.Coverage >= docsRouteStrong && hit.Matched >= 2)
	// A message with no sign of anything the bot knows — no counterparty, account, currency, no
	// rules term («машина опоздала на погрузку на 3 часа, что можем требовать») — from a user
	// with documents is about them when a clause holds some of its words: the knowledge base would
	// only say that it did not understand.
	signless := d.Kind == understand.KindKB && d.Rule == "default"
	// «ключевую поднимут — лизинг подорожает?»: what a change of the key rate does to the
	// contract the message names is the contract's to say, not the Bank of Russia's rate today
	rateWhatIf := d.Kind == understand.KindKeyRate && hit.Named && (understand.Future(q.Text) || rateChanges.MatchString(strings.ToLower(q.Text)))
	if unknown || ownPolicy || signless || penalty1C || rateWhatIf {
		sure, need = false, docsRouteWeak
	}
	// A 1C or Bank of Russia reading that names nothing of theirs — no counterparty, account
	// (not even one the words imply: «сколько денег на счетах» is 51's balance), currency or
	// date, only words («конфиденциальность … после окончания договора» is no list of
	// open contracts, «по какому курсу пересчитываем суточные» no rate) — yields to documents
	// that hold the message strongly.
	bare := d.Kind == understand.KindLedger && !d.Date.Set && !d.Period.Set && !d.Account.Set ||
		d.Kind == understand.KindRate && !d.Currencies.Set && !d.Date.Set ||
		// «до какого они обязаны сообщить новую ставку на 27 год» beside a sublease: «ставка» not
		// named as the Bank of Russia's, among more of a document's words than the rate's own
		// («ставка с какого числа действует» stays the key rate)
		d.Kind == understand.KindKeyRate && !namesKeyRate.MatchString(strings.ToLower(q.Text)) && (hit.Matched >= 3 || hit.Named)
	// What is to be paid («есть скидка если оплатим итд раньше срока», «сколько заплатим за
	// аренду в январе») is an agreement's, never 1C's, which holds only what was posted.
	future := d.Kind == understand.KindLedger && (understand.Future(q.Text) || d.DateFuture)
	// «пазик по рапорту 7 ч 10 мин отработал, сколько оплатим», «нужно 300 коробов … сколько
	// заплатим»: a payment to come that names no counterparty, account or day — 1C would only
	// say it makes no forecasts, or ask back whose; the documents answer what they hold of it,
	// or say they do not.
	futureBare := future && bare && !d.Counterparty.Set && !d.Asks.Paid
	switch {
	case futureBare:
		need = docsRouteWeak
	case future && hit.Named:
		// «есть скидка если оплатим итд раньше срока»: 1C would only say it makes no
		// forecasts; the document the message names answers, or says it states no such thing
		need = docsRouteWeak
	case d.Kind == understand.KindLedger && (d.Asks.Due || future):
		// «за октябрь по новой ставке надо было до 10го заплатить?»: what was owed by when is
		// an agreement's term; 1C keeps what was paid (its card of 51 for October, or its
		// question whose, would answer another question).
		need = docsRouteNamed
	case asksBack && !planned && !hit.Named && bare:
		// 1C would only ask back whose («банковские операции по контрагенту») of a question that
		// names nothing of its own («дивиденды участникам можно платить пока кредит не
		// погашен», «отменили заявку на кран накануне — платим что-то»): the documents that hold
		// some of its words answer, or say they do not state it
		need = docsRouteAskedBack
	// A 1C question that would ask back whose, in words one of the documents holds, needs them
	// held strongly — unless it names the document («остаток займа после сентябрьского платежа»).
	case d.Kind == understand.KindSmallTalk || asksBack && !planned && !hit.Named:
		need = docsRouteStrong
	case asksBack && planned:
		need = docsRouteWeak // the planner's 1C reading would only ask back whose
	}
	if penalty1C {
		need = docsRouteWeak // whatever 1C would ask back, it keeps no penalty
	}
	if sure {
		switch {
		case hit.AnyNamed && d.Kind == understand.KindKeyRate && givesKeyRate.MatchString(strings.ToLower(q.Text)):
			// «проценты по займу за ноябрь, если ключевая 16 %»: the rate is given, the
			// contract computes with it — no question to the Bank of Russia
			need = docsRouteNamed
		case wordOfName:
			// The «counterparty» 1C found is a word that names the user's document («склад» —
			// ООО «Склад-Сервис» in 1C, the warehouse sublease in the documents), and nothing
			// only 1C keeps is asked («склад чей, собственник кто»): the document answers.
			need = docsRouteWeak
		case hit.Named && d.Kind == understand.KindKeyRate && bare:
			// «ставка доп работ ит»: a rate of the document the message names, not the Bank of
			// Russia's, which the message does not name
			need = docsRouteNamed
		case hit.Named && future:
			need = docsRouteWeak // what is to be paid under the document the message names (above)
		case hit.Named && d.Kind == understand.KindLedger:
			// 1C read the message by its vocabulary alone («пени по займу за 10 дней просрочки
			// декабрьского платежа» is no card of 51): the named document answers what it holds.
			need = docsRouteNamed
		case hit.Named:
			need = docsRouteSure
		case d.Kind == understand.KindLedger && (d.Asks.Due || future):
			need = docsRouteNamed // what was owed by when, what is to be paid (above)
		case bare:
			need = docsRouteBare
		default:
			return d, fits
		}
	}
	// One word in common is not «strongly» — unless the message asks a price and the word names
	// a priced row («сколько стоит бумага») or a priced clause of the document the message names
	// («сколько стоит поддержка склад про»: 1C keeps no prices, whatever counterparty «склад»
	// names).
	pricedRow := price && (hit.Unit.Kind == library.UnitRow || hit.Named) && hit.States.Money() && hit.Coverage >= need
	// A planner's 1C plan that would only ask back whose loses to a document the message names
	// («ДС1 к поставке от какого числа»), however few of its words a clause holds.
	// So does the parser's «документы контрагента» (whose?) to a document the message names
	// and the user has («упд статус 1? ндс к вычету можно») — not a report 1C would ask a
	// period or a party of («оборотка за 1 квартал» beside an act of the third quarter).
	// …and a deadline asked of a document the message names («упд 1452 получили 03.12 до какого
	// оплатить»): 1C keeps what was paid, never by when — its question back whose would be no
	// answer.
	namedOverPlan := asksBack && hit.Named && (planned || d.Rule == "documents" || d.Asks.Deadline)
	// A message of no source's signs that names a document or its party («есть у кронверка
	// лицензия фстэк») is about it, though the rest of its words are nowhere: the documents say
	// they do not state it — «не понял вопрос» would be no answer.
	namedSignless := signless && hit.Named && hit.Titled > 0
	// A computation with the message's own figures of a document it names («тобол за ноябрь
	// наторговал на 3 100 000, сколько им комиссионных») is the document's, however few of its
	// words one clause holds — not a knowledge-base article on the same term.
	namedWhatIf := ownPolicy && hit.Titled > 0 && passages.WhatIf(q.Text)
	// A name 1C does not know that names the user's document — its title or its party
	// («остаток долга по лизингу», «сколько мы должны горизонту за второй этап» beside the
	// repair contract with ООО «СК Горизонт-Урал») — in a question of what is owed, not of what
	// was paid: the document is the only source that may hold it, however few of the other
	// words one clause holds («Не нашёл в 1С контрагента «лизингу»» is no answer). What was paid
	// stays 1C's, the documents offered (fits, above).
	unknownNamed := unknown && !d.Asks.Paid && a.namesDocument(ctx, q, d.Unknown)
	// …nor is a company 1C's catalog does not have and the parser did not take for one, named
	// whole as a party of the document the message names («сколько нам должен см ритейл по
	// займу на конец года» with the loan to ООО «СМ Ритейл»): 1C would answer every debtor's.
	unknownParty := d.Kind == understand.KindLedger && !d.Counterparty.Set && !d.Asks.Paid && hit.Named && hit.Coverage >= need && a.docs.NamesParty(ctx, q)
	if hit.Coverage < need || hit.Matched < 2 && !pricedRow && !namedOverPlan && !wordOfName && !namedSignless && !namedWhatIf && !unknownNamed && !unknownParty && !futureBare {
		return d, fits
	}
	why := fmt.Sprintf("документы: %s (%.0f %% слов вопроса)", hit.Unit.Number, 100*hit.Coverage)
	return understand.Decision{Kind: understand.KindDocs, Sure: true, Rule: "docs_content", Asks: d.Asks,
		Reasons: append(slices.Clone(d.Reasons), why)}, false
}

// partOfName: the message names a 1C counterparty by only a part of its name («склад» for ООО
// «Склад-Сервис»), which may as well be a common word — or names more than 1C's name has
// («маркет партнер» for ООО «Партнер»: a company of another name).
func partOfName(name, written string) bool {
	have := retrieval.Tokens(written)
	want := retrieval.Tokens(legalForm.ReplaceAllString(name, " "))
	// one word in two forms the stemmer cuts apart («Меридиан», «меридиану»)
	in := func(t string, all []string) bool {
		return slices.ContainsFunc(all, func(o string) bool { return sameWord(t, o) })
	}
	for _, t := range want {
		if !in(t, have) {
			return true
		}
	}
	for _, t := range have {
		if !in(t, want) {
			return true
		}
	}
	return false
}

// sameWord: two stems of one word — equal, or one the other's prefix of at least five letters.
func sameWord(a, b string) bool {
	if len([]rune(a)) > len([]rune(b)) {
		a, b = b, a
	}
	return a == b || len([]rune(a)) >= 5 && strings.HasPrefix(b, a)
}

// widerNames are the name as the message writes it with the word before it and with the word
// after it («маркет партнер» for «партнер» in «…от клиентов маркет партнер пришло…»).
func widerNames(text, name string) []string {
	words := strings.Fields(strings.ToLower(text))
	nw := strings.Fields(strings.ToLower(name))
	var out []string
	for i := 0; len(nw) > 0 && i+len(nw) <= len(words); i++ {
		if !slices.Equal(words[i:i+len(nw)], nw) {
			continue
		}
		if i > 0 {
			out = append(out, words[i-1]+" "+name)
		}
		if i+len(nw) < len(words) {
			out = append(out, name+" "+words[i+len(nw)])
		}
	}
	return out
}

// legalForm: a company's legal form in its name («ООО», «АО», «ИП»).
var legalForm = regexp.MustCompile(`(^|[^\p{L}])(ООО|АО|ПАО|ЗАО|ОАО|ИП|НКО|ФГУП|МУП|ГУП)([^\p{L}]|$)`)

// namesDocument: every word of name (a counterparty as the message writes it) is a name of one
// of the asker's documents — its title or a party («меридиану» and the lease of «Меридиан
// Недвижимость»; not «северсталь логистик» for «ТехноЛайн Логистик»).
func (a *Agent) namesDocument(ctx context.Context, q skill.Query, name string) bool {
	if strings.TrimSpace(name) == "" {
		return false
	}
	q.Text, q.Decision, q.Plan = name, understand.Decision{}, nil // the name alone, nothing asked
	hit, ok := a.docs.Evidence(ctx, q)
	return ok && hit.Named && hit.Titled >= 0.99
}
