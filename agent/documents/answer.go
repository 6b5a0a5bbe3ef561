package documents

// Answers over a user's documents: search (S1), selected documents read whole (S3) or by
// retrieval (S4).

import (
	"context"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/prompts"
)

// NothingSelectedPrefix goes before the knowledge base's answer to a question the selected
// documents hold no answer to (the Prefix of the reply's hand-over).
const NothingSelectedPrefix = "_В выбранных документах об этом ничего нет._\n\n"

// answer answers S1, S3 and S4. When the question may be the knowledge base's (kbFallback)
// and the documents hold no answer, the reply hands it over: with the knowledge base's answer
// appended after «в договоре нет пункта о …», or instead of «nothing found».
func (s *Skill) answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	own := owner(q)
	sc, _ := Scenario(q.Docs.Selected)
	dbg := &passages.Debug{Owner: own}
	var ids []string
	for _, m := range q.Docs.Selected {
		ids = append(ids, m.ID)
		dbg.Selected = append(dbg.Selected, m.Title)
		dbg.Chars += m.Chars
	}
	if sc == skill.S1Search {
		all, err := s.lib.List(ctx, own)
		if err != nil {
			return passages.Error(err)
		}
		if len(all) == 0 {
			msg := "У вас пока нет загруженных документов, искать мне негде. Пришлите файл — договор, акт или счёт " +
				"(PDF с текстом, DOCX, XLSX, TXT, MD, CSV до 20 МБ), и задайте вопрос по нему."
			if q.Group {
				msg = "В этой группе пока нет загруженных документов. Пришлите файл с упоминанием бота — он станет доступен всем участникам группы."
			}
			return skill.Text(msg), nil
		}
	}
	fallback := kbFallback(q)
	if miss, ok := s.ans.Missing(ctx, s.lib, own, q.Docs.Selected, s.question(q), false); ok {
		// The documents, read whole, have no clause on what is asked: say so rather than quote
		// the clause that comes closest («В договоре … нет пункта о неустойке»).
		miss.Trace = skill.Trace{"docs": dbg}
		if fallback {
			// … and what the knowledge base says of it, when it says something.
			miss.Then = &skill.Handoff{Kind: understand.KindKB, Append: true, OnlyIfFound: true, Rules: true, Note: q.Docs.Note}
		} else if q.Docs.Note != "" {
			miss.Text = q.Docs.Note + "\n\n" + miss.Text
		}
		miss.Scenario = sc
		return miss, nil
	}
	fullText := sc == skill.S3Full && s.opts.Writer.Enabled()
	var r skill.Reply
	var err error
	if fullText {
		r, err = s.fullContext(ctx, q, own, ids, dbg)
	} else {
		r, err = s.ans.Passages(ctx, s.lib, own, ids, s.question(q), false, 0, dbg)
	}
	if err != nil {
		return skill.Reply{}, err
	}
	notFound := dbg.Clauses != nil && dbg.Clauses.NotFound
	switch {
	case fallback && (!fullText && len(dbg.Passages) == 0 || fullText && strings.Contains(r.Text, phrase.NoAnswerPhrase)):
		r.Then = &skill.Handoff{Kind: understand.KindKB, Prefix: NothingSelectedPrefix, OnlyIfFound: true, Note: q.Docs.Note}
	case notFound && !q.HandedOff && q.Plan == nil:
		// The documents do not say it: what the knowledge base says follows, when its gate
		// lets an article answer («по какой ставке ндс продаем с января 2026» beside a lease).
		r.Then = &skill.Handoff{Kind: understand.KindKB, Append: true, OnlyIfFound: true, Note: q.Docs.Note,
			Reason: "в документах прямого ответа нет"}
	case q.Docs.Note != "":
		r.Text = q.Docs.Note + "\n\n" + r.Text
	}
	r.Nearest = notFound
	r.Trace = skill.Trace{"docs": dbg}
	r.Scenario = sc
	return r, nil
}

// kbFallback reports whether the knowledge base is asked when the documents hold no answer:
// the planner planned it as the fallback of its document search, or the parser read the
// question as one for the knowledge base (not a definition, «что такое …») asked over a
// selection.
func kbFallback(q skill.Query) bool {
	switch {
	case q.HandedOff:
		return false
	case q.Plan != nil:
		return q.Plan.Fallback.Enabled && q.Plan.Fallback.Tool == plan.ToolSearchGeneralKB
	}
	return len(q.Docs.Selected) > 0 && q.Decision.Kind == understand.KindKB && q.Decision.Rule != "kb_definition"
}

// question is what a passage answer searches for q.
func (s *Skill) question(q skill.Query) passages.Question {
	return passages.Question{Text: q.Text, Asking: passages.AskingOf(q, s.opts.Parser), Continues: q.Decision.Continues, Prefer: q.Decision.ContinuesDocs,
		Searches: q.Searches, Progress: q.Progress, Now: s.opts.Now()}
}

// vague reports whether q is a short question that names nothing the bot knows, asked of the
// user's documents when nothing is selected.
func vague(q skill.Query) bool {
	return q.Command == "" && q.Decision.Kind == understand.KindClarify && q.Decision.Rule == "vague" && len(q.Docs.Selected) == 0
}

// vague answers a short question that names nothing the bot knows («какой аванс по
// договору?», «срок оплаты остатка») from the user's own documents when they hold a passage
// on it: someone who has uploaded a contract asks about it in few words. With no documents,
// or none with a passage on it, or a library that fails, the reply is Unanswered and the agent
// asks the question back as before.
func (s *Skill) vague(ctx context.Context, q skill.Query) (skill.Reply, error) {
	if s.lib == nil {
		return skill.Reply{Unanswered: true}, nil
	}
	r, err := s.answer(ctx, q)
	if err != nil || len(r.Sources) == 0 {
		return skill.Reply{Unanswered: true}, nil
	}
	r.Scenario = skill.S1Search
	return r, nil
}

// fullContext is S3 with an LLM: the selected documents in full, as Markdown.
func (s *Skill) fullContext(ctx context.Context, q skill.Query, own string, ids []string, dbg *passages.Debug) (skill.Reply, error) {
	full, err := s.lib.Full(ctx, own, ids)
	if err != nil {
		return passages.Error(err)
	}
	srcs := make([]facts.Source, len(full))
	ps := make([]prompts.DocSource, len(full))
	for i, d := range full {
		srcs[i] = facts.Source{Title: d.Meta.Title}
		ps[i] = prompts.DocSource{N: i + 1, Title: d.Meta.Title, Text: passages.Serialize(d)}
	}
	out, err := s.opts.Writer.OverSources(ctx, q.Progress, prompts.DocsAnswerData{Question: q.Text, Sources: ps, FullText: true}, len(srcs))
	if err != nil {
		if ctx.Err() != nil {
			return skill.Reply{}, ctx.Err()
		}
		s.opts.Logger.WarnContext(ctx, "llm full-context answer failed; extractive answer", "err", err)
		dbg.Refusal(err)
		r, perr := s.ans.Passages(ctx, s.lib, own, ids, s.question(q), false, 0, dbg)
		if !slices.Contains(r.Degraded, phrase.SourcesDegraded(err)) {
			r.Degraded = append(r.Degraded, phrase.SourcesDegraded(err))
		}
		return r, perr
	}
	return skill.Reply{Text: out, Sources: passages.Cited(out, srcs)}, nil
}
