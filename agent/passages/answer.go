package passages

// The answer over the passages a search finds: by the answer LLM when there is one, quoted
// (extractively) otherwise or when it fails.

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/prompts"
)

// Debug explains an answer over documents or knowledge-base articles: the debug payload's
// "docs" (skill.Reply.Trace["docs"]).
type Debug struct {
	Owner      string             `json:"-"`
	Selected   []string           `json:"selected,omitempty"`
	Chars      int                `json:"chars,omitempty"` // characters of the selected documents
	Expansions []string           `json:"expansions,omitempty"`
	Search     library.SearchInfo `json:"search"`
	// Gate is the evidence a knowledge-base passage needed to answer (the knowledge-base
	// skill's gate); 0 for the user's documents.
	Gate     float64           `json:"gate,omitempty"`
	Passages []library.Passage `json:"passages,omitempty"`
	// Clauses is what the answer read the user's documents as clauses found (Clauses).
	Clauses *ClauseResult `json:"clauses,omitempty"`
	// Unanswered: passages passed the gate, but none of their articles states a time limit
	// for what the question asks about, so the answer is the knowledge base's refusal
	// (ExtractiveKB: without an LLM, or when it failed).
	Unanswered bool `json:"unanswered,omitempty"`
	// Refused says which claims of the model's answer the checks refused, and why (the
	// violations of the last attempt), when they did.
	Refused string `json:"refused,omitempty"`
}

// Refusal records in d why the model's answer was refused, when err says it was.
func (d *Debug) Refusal(err error) {
	if d != nil && errors.Is(err, phrase.ErrRefused) {
		d.Refused = err.Error()
	}
}

// KBPrefix goes before an answer from the knowledge base.
const KBPrefix = "_Основывается на корпоративной базе знаний._\n\n"

// Answerer answers over passages and documents with the answer LLM of Writer (none: quoted).
type Answerer struct {
	Writer *phrase.Writer
	Log    *slog.Logger
}

func (a Answerer) log() *slog.Logger {
	if a.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.Log
}

// Question is what an answer over passages searches for.
type Question struct {
	Text string
	// Asking is what Text asks about, as the parser read it (Asking): the quotes are chosen by it.
	Asking library.Asking
	// Continues is the question a follow-up continues (understand.Decision.Continues), and
	// Prefer the documents its answer quoted.
	Continues string
	Prefer    []string
	// Now is the day the question's own dates are read by («подписали 3 декабря»); zero: none
	// are read.
	Now time.Time
	// Searches are the planner's search queries: searched instead of the LLM's expansions.
	// nil = none planned (the LLM expands the question when there is one); empty = planned none.
	Searches []string
	// Progress receives the answer's checked text while the LLM streams it; nil = none.
	Progress func(string)
}

// Passages searches lib (with query expansion when there is an LLM and no planned searches)
// and answers from the passages found: by the LLM when there is one, extractively otherwise or
// when it fails. ids limit the search to those documents; kb answers from knowledge-base
// articles; a positive gate is the evidence each passage needs (library.Query.MinEvidence).
// dbg receives what was searched and found.
func (a Answerer) Passages(ctx context.Context, lib *library.Library, own string, ids []string, q Question, kb bool, gate float64,
	dbg *Debug) (skill.Reply, error) {
	text := q.Text
	var degraded []string
	var r skill.Reply
	if q.Searches != nil {
		dbg.Expansions = q.Searches // the planner already wrote the sub-queries: no expansion call
	} else if a.Writer.Enabled() {
		ex, err := a.Writer.Expand(ctx, text)
		if err != nil && ctx.Err() == nil {
			a.log().WarnContext(ctx, "query expansion failed; searching the question alone", "err", err)
			degraded = append(degraded, "query_expansion_failed")
		}
		dbg.Expansions = ex
	}
	lq := library.Query{Text: text, Expansions: dbg.Expansions, DocIDs: ids, TopK: 5, MinEvidence: gate}
	if len(ids) > 0 {
		// The user chose these documents: the answer is expected to be in them, so a passage
		// sharing fewer of the question's words still qualifies.
		lq.MinOverlap = SelectedOverlap
	}
	if len(ids) == 0 && q.Continues != "" && len(q.Prefer) > 0 {
		// A follow-up's passages come from the documents the dialog is about («а за декабрь
		// значит до»: not the supply contract's «до 19 декабря» after the services contract's
		// payment day); one that names another document is read as clauses, by its name.
		lq.DocIDs = q.Prefer
	}
	passages, info, err := lib.Search(ctx, own, lq)
	if err != nil {
		if ctx.Err() != nil {
			return skill.Reply{}, ctx.Err()
		}
		return Error(err)
	}
	dbg.Search, dbg.Passages = info, passages
	degraded = append(degraded, info.Degraded...)
	clauses := func() bool { // a user's documents read as their clauses, when they have the question's terms
		x, res, ok := Clauses(ctx, lib, own, ids, passages, q)
		if ok {
			dbg.Clauses = &res
			r.Text, r.Sources, r.Quoted = x.Text, x.Sources, x.Quoted
		}
		return ok
	}
	if len(passages) == 0 && !kb && clauses() {
		r.Degraded = degraded
		return r, nil
	}
	if len(passages) == 0 {
		return skill.Reply{Text: NothingFound(len(ids) > 0), Degraded: degraded}, nil
	}
	if a.Writer.Enabled() {
		srcs, numbers := Sources(passages, kb)
		ps := make([]prompts.DocSource, len(passages))
		for i, p := range passages {
			ps[i] = prompts.DocSource{N: numbers[i], Title: srcs[numbers[i]-1].Title, Text: p.Text}
		}
		out, err := a.Writer.OverSources(ctx, q.Progress, prompts.DocsAnswerData{Question: text, Sources: ps, KB: kb}, len(srcs))
		if err == nil {
			r = skill.Reply{Text: out, Sources: Cited(out, srcs)}
		} else {
			if ctx.Err() != nil {
				return skill.Reply{}, ctx.Err()
			}
			a.log().WarnContext(ctx, "llm answer over passages failed; extractive answer", "err", err)
			degraded = append(degraded, phrase.SourcesDegraded(err))
			dbg.Refusal(err)
		}
	}
	if r.Text == "" && !kb && clauses() {
		r.Degraded = degraded
		return r, nil
	}
	if r.Text == "" {
		// The answer with no LLM, and the same when the LLM failed: the passages it quotes,
		// each with its footnote.
		top := passages[:min(len(passages), ExtractiveQuotes)]
		x, ok := Extractive(top, text, q.Asking, false), true
		if kb {
			x, ok = ExtractiveKB(top, a.articleTexts(ctx, lib, own, top), text, q.Asking)
		}
		if !ok {
			// The articles found state no time limit for what the question asks about: the
			// knowledge base's refusal, not an excerpt on something else.
			dbg.Unanswered = true
			r.Degraded = degraded
			return r, nil
		}
		r.Text, r.Sources = x.Text, x.Sources
	}
	if kb {
		r.Text = KBPrefix + r.Text
	}
	r.Degraded = degraded
	return r, nil
}

// articleTexts are the whole texts of the knowledge-base articles passages come from, by
// document id: an extractive answer quotes the part of an article that answers, wherever it
// is. An article that cannot be loaded is quoted from its passages.
func (a Answerer) articleTexts(ctx context.Context, lib *library.Library, own string, passages []library.Passage) map[string]string {
	var ids []string
	for _, p := range passages {
		if !slices.Contains(ids, p.DocID) {
			ids = append(ids, p.DocID)
		}
	}
	docs, err := lib.Full(ctx, own, ids)
	if err != nil {
		if ctx.Err() == nil {
			a.log().WarnContext(ctx, "knowledge-base articles not loaded; quoting their passages", "err", err)
		}
		return nil
	}
	out := make(map[string]string, len(docs))
	for _, d := range docs {
		out[d.Meta.ID] = d.Text
	}
	return out
}

// Missing is MissingClause as the reply, logging documents it could not read.
func (a Answerer) Missing(ctx context.Context, lib *library.Library, own string, selected []docstore.Meta, q Question,
	contractsOnly bool) (skill.Reply, bool) {
	r, ok, err := MissingClause(ctx, lib, own, selected, q.Text, q.Asking, contractsOnly)
	if err != nil && ctx.Err() == nil {
		a.log().WarnContext(ctx, "documents not read for a missing clause", "err", err)
	}
	if !ok {
		return skill.Reply{}, false
	}
	return skill.Reply{Text: r.Text, Sources: r.Sources}, true
}

// Cited is srcs for an answer that cites them; none for one that cites nothing, which
// phrase.Writer.OverSources accepts only when it says the sources hold no answer: a «nothing
// found» has nothing to footnote.
func Cited(text string, srcs []facts.Source) []facts.Source {
	if !phrase.Citation.MatchString(text) {
		return nil
	}
	return srcs
}

// IDs are the ids of ms.
func IDs(ms []docstore.Meta) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}
