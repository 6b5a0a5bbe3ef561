package kb

// The knowledge-base skill (S2): answers from the company knowledge base behind its relevance
// gate, a rules question first from the user's own documents, and the search_general_kb tool.

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/retrieval"
)

// Options are the skill's dependencies besides the libraries.
type Options struct {
	// Writer is the answer LLM; nil or without an LLM, answers are quoted.
	Writer *phrase.Writer
	Logger *slog.Logger
	// Parser reads the planner's search queries for the gate (Facts); nil = understand.NewParser().
	Parser *understand.Parser
	// Now is the clock of the parser's dates; nil = time.Now.
	Now func() time.Time
	// What a refusal says can be asked: LedgerFor reports whether 1C answers this requester
	// (nil = nobody); Rates, whether the Bank of Russia's rates are installed.
	LedgerFor func(userID, chatID int64) bool
	Rates     bool
}

// Skill answers from the knowledge base kept in kbLib under library.KBOwner; a question about
// rules is answered first from the user's documents in userLib when they hold a passage on it.
// Either library may be nil (not installed).
type Skill struct {
	kb, user *library.Library
	opts     Options
	ans      passages.Answerer
}

var _ skill.Skill = (*Skill)(nil)

// New returns the knowledge-base skill over the knowledge base kbLib and the users' documents
// userLib.
func New(kbLib, userLib *library.Library, opts Options) *Skill {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Parser == nil {
		opts.Parser = understand.NewParser()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Skill{kb: kbLib, user: userLib, opts: opts, ans: passages.Answerer{Writer: opts.Writer, Log: opts.Logger}}
}

// ownClauseCoverage: a clause of the user's documents (not a policy the question names) that
// holds this share of a rules question answers it before the knowledge base.
const ownClauseCoverage = 0.75

// ours: the question speaks of the user's own company («где у нас самые высокие пени», «по
// нашим договорам»): its documents answer first.
var ours = regexp.MustCompile(`(^|[^\p{L}])(у\s+нас|наш\p{L}*|мы|нам|` +
	// …or of a case of its own in the first person («пени если просрочим абонентку», «задолжали
	// 240 000 на 12 дней», «едем в стамбул»)
	`просрочим|просрочили|задолжали|задержим|задержали|заплатим|оплатим|платим|перечислим|перечислили|вернём|вернем|` +
	`получим|получили|подпишем|подписали|отправим|заключим|расторгнем|едем|поедем|отгрузим|привезём|привезем|` +
	`опоздаем|опоздали|нарушим|нарушили|сдадим|отдаём|отдаем|потеряли|превысили)([^\p{L}]|$)`)

// Answer answers a terminology or rules question read as q.Decision. When the parser (not
// the planner) routed it, not as a definition, and the user has documents, a relevant passage
// of their own documents wins: «какие пени за просрочку оплаты?» after uploading a contract is
// about that contract (the reply's Scenario is S1 and its Kind docs). A contract that lacks
// the clause asked about is said to lack it, followed by what the knowledge base says.
// Otherwise, and always when handed the question over (q.HandedOff), the knowledge base
// answers behind its gate (Gate), or says what can be asked.
func (s *Skill) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	if s.user != nil && !q.HandedOff && q.Plan == nil && q.Decision.Rule != "kb_definition" {
		own := owner(q)
		all, err := s.user.List(ctx, own)
		if err != nil && ctx.Err() != nil {
			return skill.Reply{}, ctx.Err()
		}
		if err == nil && len(all) > 0 {
			dbg := &passages.Debug{Owner: own}
			r, err := s.ans.Passages(ctx, s.user, own, nil, s.question(q), false, 0, dbg)
			if err != nil {
				return skill.Reply{}, err
			}
			if len(dbg.Passages) > 0 {
				r.Scenario, r.Kind, r.Trace = skill.S1Search, understand.KindDocs, skill.Trace{"docs": dbg}
				if dbg.Clauses == nil || !dbg.Clauses.NotFound && (dbg.Clauses.Mentions || !q.Decision.Sure ||
					dbg.Clauses.Coverage >= ownClauseCoverage || ours.MatchString(strings.ToLower(q.Text))) {
					return r, nil
				}
				if !dbg.Clauses.NotFound {
					// A rules question the parser is sure of, that names none of the user's
					// documents and that a contract's clause holds only in part («по какой ставке
					// ндс продаем с января» beside a lease that mentions VAT): the knowledge base
					// answers when it has an article; the clause otherwise.
					if kb, err := s.answer(ctx, q, q.Rules); err != nil || len(kb.Sources) > 0 {
						return kb, err
					}
					return r, nil
				}
				// The user's documents do not say it. A question that names one of them («…по
				// положению»), or that the parser was not sure is about rules, keeps the
				// documents' «не нашёл», what the knowledge base says after it; any other
				// («сколько лет срок давности» beside a lease) is the knowledge base's when it
				// answers.
				if dbg.Clauses.Mentions || !q.Decision.Sure {
					return s.withKB(ctx, q, r)
				}
				if kb, err := s.answer(ctx, q, q.Rules); err != nil || len(kb.Sources) > 0 {
					return kb, err
				}
				return r, nil
			}
			// «какая неустойка?» after uploading a contract without one: say so, then what the
			// knowledge base says of penalties in general.
			if miss, ok := s.ans.Missing(ctx, s.user, own, nil, s.question(q), true); ok {
				return s.withKB(ctx, q, miss)
			}
		}
	}
	return s.answer(ctx, q, q.Rules)
}

// withKB follows a reply about the user's documents with what the knowledge base says, its
// footnotes numbered after the reply's own.
func (s *Skill) withKB(ctx context.Context, q skill.Query, r skill.Reply) (skill.Reply, error) {
	// The question asks for a standard clause (library.TopicOf): a question about rules, whatever
	// the parser made of it beside the user's documents.
	kb, err := s.answer(ctx, q, true)
	if err != nil || len(kb.Sources) == 0 {
		return r, err
	}
	r.Text += "\n\n" + phrase.Renumber(kb.Text, len(r.Sources))
	r.Sources = append(r.Sources, kb.Sources...)
	r.Trace, r.Degraded = kb.Trace, append(r.Degraded, kb.Degraded...)
	return r, nil
}

// answer answers from the shared knowledge base, with the passages that pass its answer gate
// (Gate; the rules question's when rules); when none does, it says what was not understood and
// offers the likeliest readings (refusal) instead of an article on something else.
func (s *Skill) answer(ctx context.Context, q skill.Query, rules bool) (skill.Reply, error) {
	if s.kb == nil {
		return skill.Text("Корпоративная база знаний в этой установке не подключена."), nil
	}
	d := q.Decision
	dbg := &passages.Debug{Owner: library.KBOwner, Gate: Gate(d)}
	if rules {
		dbg.Gate = library.KBMinEvidenceRules
	}
	r, err := s.ans.Passages(ctx, s.kb, library.KBOwner, nil, s.question(q), true, dbg.Gate, dbg)
	if err != nil {
		return skill.Reply{}, err
	}
	if (len(dbg.Passages) == 0 || dbg.Unanswered) && d.Rule == "kb_definition" {
		// «что такое ЕНС»: one short term weighs too little for the gate, but an article whose
		// title names it is about it.
		if ids := s.titled(ctx, q.Text); len(ids) > 0 {
			tdbg := &passages.Debug{Owner: library.KBOwner}
			if tr, err := s.ans.Passages(ctx, s.kb, library.KBOwner, ids, s.question(q), true, 0, tdbg); err == nil && len(tdbg.Passages) > 0 && !tdbg.Unanswered {
				r, dbg = tr, tdbg
			}
		}
	}
	if len(dbg.Passages) == 0 || dbg.Unanswered {
		degraded := r.Degraded
		r = s.refusal(ctx, q, d)
		r.Degraded = degraded
		if !q.HandedOff && q.Plan == nil {
			// No article answers it: the asker's own documents may (a question of words the
			// parser could not place — «можно ставить программу в минском филиале» beside a
			// licence agreement); the refusal stands when they hold nothing on it.
			r.Then = &skill.Handoff{Kind: understand.KindDocs, OnlyIfFound: true, Direct: true,
				Reason: "в базе знаний статьи нет: ответ нашёлся в документах пользователя"}
		}
	}
	r.Trace = skill.Trace{"docs": dbg}
	return r, nil
}

// definitionOf is the term a definition question asks about («что такое ЕНС» → «ЕНС»).
var definitionOf = regexp.MustCompile(`(?i)что\s+(?:такое|значит|означает)\s+(.+)`)

// titled are the knowledge-base articles whose titles name every word of the term a
// definition question asks about; none for a term of more than three words.
func (s *Skill) titled(ctx context.Context, text string) []string {
	m := definitionOf.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	terms := retrieval.Tokens(m[1])
	if len(terms) == 0 || len(terms) > 3 {
		return nil
	}
	metas, err := s.kb.List(ctx, library.KBOwner)
	if err != nil {
		return nil
	}
	var ids []string
	for _, meta := range metas {
		title := map[string]bool{}
		for _, t := range retrieval.Tokens(meta.Title) {
			title[t] = true
		}
		if !slices.ContainsFunc(terms, func(t string) bool { return !title[t] }) {
			ids = append(ids, meta.ID)
		}
	}
	return ids
}

// Gate is the evidence a knowledge-base passage needs to answer a message the parser read as
// d: less for what it recognised as a question about rules (library.KBMinEvidenceRules), more
// for anything else (library.KBMinEvidence) — a message nothing in it was understood, a 1C
// question the planner sent to the knowledge base, a query the planner wrote.
func Gate(d understand.Decision) float64 {
	if d.Kind == understand.KindKB && d.Sure {
		return library.KBMinEvidenceRules
	}
	return library.KBMinEvidence
}

// read is a query the planner wrote, read as the parser reads a message.
func (s *Skill) read(query string) understand.Decision {
	return s.opts.Parser.Parse(understand.Input{Text: query, Now: s.opts.Now()})
}

// Facts runs search_general_kb behind the same gate, the query read as the planner wrote it.
func (s *Skill) Facts(ctx context.Context, q skill.Query, call plan.ToolCall) (facts.Payload, error) {
	if call.Tool != plan.ToolSearchGeneralKB {
		return facts.Payload{}, skill.BadArgs("%s is not a knowledge-base tool", call.Tool)
	}
	if s.kb == nil {
		return facts.Payload{}, fmt.Errorf("%w: %s: the knowledge base is not installed", skill.ErrUnavailable, call.Tool)
	}
	var args plan.SearchGeneralKBArgs
	if err := call.Decode(&args); err != nil {
		return facts.Payload{}, fmt.Errorf("%w: %s: %v", skill.ErrArgs, call.Tool, err)
	}
	return Search(ctx, s.kb, args, s.read)
}

// question is what a passage answer searches for q.
func (s *Skill) question(q skill.Query) passages.Question {
	return passages.Question{Text: q.Text, Asking: passages.AskingOf(q, s.opts.Parser), Continues: q.Decision.Continues,
		Prefer: q.Decision.ContinuesDocs, Searches: q.Searches, Progress: q.Progress, Now: s.opts.Now()}
}

// owner is q's library: q.Docs.Owner, or whose the asker's documents are.
func owner(q skill.Query) string {
	if q.Docs.Owner != "" {
		return q.Docs.Owner
	}
	return passages.Owner(q.UserID, q.ChatID, q.Group)
}
