package agent

// Answers over a user's documents: search (S1), selected documents read whole (S3) or by retrieval (S4).

import (
	"context"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/prompts"
)

// FullContextChars is the most text of selected documents answered in full (S3); above it
// the answer is built from retrieved passages (S4). Seed 002 §1.
const FullContextChars = documents.FullContextChars

// DocsDebug explains a document answer.
type DocsDebug struct {
	Owner      string             `json:"-"`
	Selected   []string           `json:"selected,omitempty"`
	Chars      int                `json:"chars,omitempty"` // characters of the selected documents
	Expansions []string           `json:"expansions,omitempty"`
	Search     library.SearchInfo `json:"search"`
	// Gate is the evidence a knowledge-base passage needed to answer (see kbGate); 0 for the
	// user's documents.
	Gate     float64           `json:"gate,omitempty"`
	Passages []library.Passage `json:"passages,omitempty"`
	// Unanswered: passages passed the gate, but none of their articles states a time limit
	// for what the question asks about, so the answer is the knowledge base's refusal
	// (documents.ExtractiveKB: without an LLM, or when it failed).
	Unanswered bool `json:"unanswered,omitempty"`
}

// documentAnswer answers S1, S3 and S4.
func (a *Agent) documentAnswer(ctx context.Context, req Request, route RouteDecision, text string, s docScope) (Answer, error) {
	if a.library == nil {
		return Answer{Text: "Поиск по документам в этой установке не подключён."}, nil
	}
	dbg := &DocsDebug{Owner: s.owner}
	var ids []string
	for _, m := range s.selected {
		ids = append(ids, m.ID)
		dbg.Selected = append(dbg.Selected, m.Title)
		dbg.Chars += m.Chars
	}
	if route.Scenario == S1Search {
		all, err := a.library.List(ctx, s.owner)
		if err != nil {
			return a.docError(err)
		}
		if len(all) == 0 {
			msg := "У вас пока нет загруженных документов, искать мне негде. Пришлите файл — договор, акт или счёт " +
				"(PDF с текстом, DOCX, XLSX, TXT, MD, CSV до 20 МБ), и задайте вопрос по нему."
			if req.Group {
				msg = "В этой группе пока нет загруженных документов. Пришлите файл с упоминанием бота — он станет доступен всем участникам группы."
			}
			return Answer{Text: msg}, nil
		}
	}
	if miss, ok := a.missingClause(ctx, s.owner, s.selected, text, false); ok {
		// The documents, read whole, have no clause on what is asked: say so rather than quote
		// the clause that comes closest («В договоре … нет пункта о неустойке»).
		if s.kbFallback {
			if kbAns, err := a.withKB(ctx, req, miss, text); err != nil || len(kbAns.Sources) > len(miss.Sources) {
				kbAns.Scenario, kbAns.Intent = S2General, IntentKB
				return kbAns, err
			}
		}
		miss.Debug.Docs = dbg
		if s.note != "" {
			miss.Text = s.note + "\n\n" + miss.Text
		}
		return miss, nil
	}
	var ans Answer
	var err error
	if route.Scenario == S3Full && a.llm != nil {
		ans, err = a.fullContextAnswer(ctx, s, ids, text, dbg)
	} else {
		ans, err = a.passageAnswer(ctx, a.library, s.owner, ids, text, false, 0, dbg)
	}
	if err != nil {
		return Answer{}, err
	}
	if s.kbFallback && (ans.Debug.Docs == nil && len(dbg.Passages) == 0 && !usedFullText(route, a.llm != nil) ||
		usedFullText(route, a.llm != nil) && strings.Contains(ans.Text, noAnswerPhrase)) {
		kbAns, err := a.kbAnswer(ctx, req, text)
		if err != nil {
			return Answer{}, err
		}
		if len(kbAns.Sources) > 0 {
			kbAns.Text = "_В выбранных документах об этом ничего нет._\n\n" + kbAns.Text
			kbAns.Scenario, kbAns.Intent = S2General, IntentKB
			return kbAns, nil
		}
	}
	if s.note != "" {
		ans.Text = s.note + "\n\n" + ans.Text
	}
	ans.Debug.Docs = dbg
	return ans, nil
}

// generalAnswer answers a terminology or rules question. When the rules (not a definition
// pattern, not an LLM that knew the user's library) routed it and the user has documents, a
// relevant passage of their own documents wins: «какие пени за просрочку оплаты?» after
// uploading a contract is about that contract. Otherwise the knowledge base answers.
func (a *Agent) generalAnswer(ctx context.Context, req Request, route RouteDecision, text string) (Answer, error) {
	if a.library != nil && route.Source == "rules" && route.FallbackRuleHit != "kb_definition" {
		own := owner(req)
		all, err := a.library.List(ctx, own)
		if err != nil && ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		if err == nil && len(all) > 0 {
			dbg := &DocsDebug{Owner: own}
			ans, err := a.passageAnswer(ctx, a.library, own, nil, text, false, 0, dbg)
			if err != nil {
				return Answer{}, err
			}
			if len(dbg.Passages) > 0 {
				ans.Scenario, ans.Intent, ans.Debug.Docs = S1Search, "", dbg
				return ans, nil
			}
			// «какая неустойка?» after uploading a contract without one: say so, then what the
			// knowledge base says of penalties in general.
			if miss, ok := a.missingClause(ctx, own, nil, text, true); ok {
				return a.withKB(ctx, req, miss, text)
			}
		}
	}
	return a.kbAnswer(ctx, req, text)
}

// missingClause is documents.MissingClause as the answer, logging documents it could not read.
func (a *Agent) missingClause(ctx context.Context, own string, selected []docstore.Meta, question string, contractsOnly bool) (Answer, bool) {
	r, ok, err := documents.MissingClause(ctx, a.library, own, selected, question, contractsOnly)
	if err != nil && ctx.Err() == nil {
		a.log.WarnContext(ctx, "documents not read for a missing clause", "err", err)
	}
	if !ok {
		return Answer{}, false
	}
	return Answer{Text: r.Text, Sources: sources(r.Sources)}, true
}

// usedFullText reports whether an S3 answer went to the model with whole documents.
func usedFullText(route RouteDecision, llm bool) bool { return route.Scenario == S3Full && llm }

// passageAnswer searches (with query expansion when there is an LLM) and answers from the
// passages found: by the LLM when there is one, extractively otherwise or when it fails. A
// positive gate is the evidence each passage needs (library.Query.MinEvidence).
func (a *Agent) passageAnswer(ctx context.Context, lib *library.Library, own string, ids []string, text string, kb bool, gate float64,
	dbg *DocsDebug) (Answer, error) {
	var degraded []string
	if qs, ok := ctx.Value(plannedQueriesKey{}).([]string); ok {
		dbg.Expansions = qs // the planner already wrote the sub-queries: no expansion call
	} else if a.llm != nil {
		ex, err := a.expand(ctx, text)
		if err != nil && ctx.Err() == nil {
			a.log.WarnContext(ctx, "query expansion failed; searching the question alone", "err", err)
			degraded = append(degraded, "query_expansion_failed")
		}
		dbg.Expansions = ex
	}
	q := library.Query{Text: text, Expansions: dbg.Expansions, DocIDs: ids, TopK: 5, MinEvidence: gate}
	if len(ids) > 0 {
		// The user chose these documents: the answer is expected to be in them, so a passage
		// sharing fewer of the question's words still qualifies.
		q.MinOverlap = documents.SelectedOverlap
	}
	passages, info, err := lib.Search(ctx, own, q)
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		return a.docError(err)
	}
	dbg.Search, dbg.Passages = info, passages
	degraded = append(degraded, info.Degraded...)
	if len(passages) == 0 {
		ans := Answer{Text: documents.NothingFound(len(ids) > 0)}
		ans.Debug.Degraded = degraded
		return ans, nil
	}
	var ans Answer
	if a.llm != nil {
		srcs, numbers := documents.Sources(passages, kb)
		ps := make([]prompts.DocSource, len(passages))
		for i, p := range passages {
			ps[i] = prompts.DocSource{N: numbers[i], Title: srcs[numbers[i]-1].Title, Text: p.Text}
		}
		out, err := a.answerFromSources(ctx, prompts.DocsAnswerData{Question: text, Sources: ps, KB: kb}, len(srcs))
		if err == nil {
			ans = Answer{Text: out, Sources: cited(out, sources(srcs))}
		} else {
			if ctx.Err() != nil {
				return Answer{}, ctx.Err()
			}
			a.log.WarnContext(ctx, "llm answer over passages failed; extractive answer", "err", err)
			degraded = append(degraded, sourcesDegraded(err))
		}
	}
	if ans.Text == "" {
		// The answer with no LLM, and the same when the LLM failed: the passages it quotes,
		// each with its footnote.
		top := passages[:min(len(passages), documents.ExtractiveQuotes)]
		r, ok := documents.Extractive(top, text, false), true
		if kb {
			r, ok = documents.ExtractiveKB(top, a.articleTexts(ctx, lib, own, top), text)
		}
		if !ok {
			// The articles found state no time limit for what the question asks about: the
			// knowledge base's refusal (kbAnswer), not an excerpt on something else.
			dbg.Unanswered = true
			ans.Debug.Degraded = degraded
			return ans, nil
		}
		ans.Text, ans.Sources = r.Text, sources(r.Sources)
	}
	if kb {
		ans.Text = "_Основывается на корпоративной базе знаний._\n\n" + ans.Text
	}
	ans.Debug.Degraded = degraded
	return ans, nil
}

// articleTexts are the whole texts of the knowledge-base articles passages come from, by
// document id: an extractive answer quotes the part of an article that answers, wherever it
// is. An article that cannot be loaded is quoted from its passages.
func (a *Agent) articleTexts(ctx context.Context, lib *library.Library, own string, passages []library.Passage) map[string]string {
	var ids []string
	for _, p := range passages {
		if !slices.Contains(ids, p.DocID) {
			ids = append(ids, p.DocID)
		}
	}
	docs, err := lib.Full(ctx, own, ids)
	if err != nil {
		if ctx.Err() == nil {
			a.log.WarnContext(ctx, "knowledge-base articles not loaded; quoting their passages", "err", err)
		}
		return nil
	}
	out := make(map[string]string, len(docs))
	for _, d := range docs {
		out[d.Meta.ID] = d.Text
	}
	return out
}

// fullContextAnswer is S3 with an LLM: the selected documents in full, as Markdown.
func (a *Agent) fullContextAnswer(ctx context.Context, s docScope, ids []string, text string, dbg *DocsDebug) (Answer, error) {
	full, err := a.library.Full(ctx, s.owner, ids)
	if err != nil {
		return a.docError(err)
	}
	srcs := make([]Source, len(full))
	ps := make([]prompts.DocSource, len(full))
	for i, d := range full {
		srcs[i] = Source{Title: d.Meta.Title}
		ps[i] = prompts.DocSource{N: i + 1, Title: d.Meta.Title, Text: documents.Serialize(d)}
	}
	out, err := a.answerFromSources(ctx, prompts.DocsAnswerData{Question: text, Sources: ps, FullText: true}, len(srcs))
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		a.log.WarnContext(ctx, "llm full-context answer failed; extractive answer", "err", err)
		ans, perr := a.passageAnswer(ctx, a.library, s.owner, ids, text, false, 0, dbg)
		if !slices.Contains(ans.Debug.Degraded, sourcesDegraded(err)) {
			ans.Debug.Degraded = append(ans.Debug.Degraded, sourcesDegraded(err))
		}
		return ans, perr
	}
	return Answer{Text: out, Sources: cited(out, srcs)}, nil
}

// cited is srcs for an answer that cites them; none for one that cites nothing, which
// answerFromSources accepts only when it says the sources hold no answer: a «nothing found» has
// nothing to footnote.
func cited(text string, srcs []Source) []Source {
	if !citation.MatchString(text) {
		return nil
	}
	return srcs
}
