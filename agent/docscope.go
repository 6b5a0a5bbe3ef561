package agent

// Which documents a question is asked over: the owner's library, the selection, a reply to a receipt.

import (
	"context"
	"errors"
	"fmt"

	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// docScope is what documents a question is asked over.
type docScope struct {
	owner    string
	selected []docstore.Meta
	note     string // "Выбрал «…»" after a reply to a receipt
	// kbFallback: the question looked like a knowledge-base one; if the selected documents
	// hold no answer, the knowledge base is asked instead.
	kbFallback bool
}

// lookup is the scope as the documents skill reads it.
func (s docScope) lookup() documents.Scope {
	return documents.Scope{Owner: s.owner, Selected: s.selected}
}

// scope resolves the question's documents: a reply to a receipt selects that document; a
// one-shot document (a file's caption) overrides the selection.
func (a *Agent) scope(ctx context.Context, req Request) (docScope, error) {
	s := docScope{owner: owner(req)}
	if a.library == nil {
		return s, nil
	}
	ctx, cancel := context.WithTimeout(ctx, a.opts.HistoryTimeout)
	defer cancel()
	if req.OnlyDoc != "" {
		m, err := a.library.Get(ctx, s.owner, req.OnlyDoc)
		if err != nil {
			return s, err
		}
		s.selected = []docstore.Meta{m}
		return s, nil
	}
	if req.ReplyTo != 0 {
		m, err := a.library.Receipt(ctx, s.owner, req.ChatID, req.ReplyTo)
		switch {
		case err == nil:
			if err := a.library.Select(ctx, s.owner, req.UserID, m.ID, true); err != nil {
				return s, err
			}
			s.note = fmt.Sprintf("_Выбрал документ «%s» — отвечаю по выбранным документам. Снять выбор — /docs._", EscapeMarkdown(m.Title))
		case !errors.Is(err, library.ErrNotFound):
			return s, err
		}
	}
	sel, err := a.library.Selected(ctx, s.owner, req.UserID)
	if err != nil {
		return s, err
	}
	s.selected = sel
	return s, nil
}

// docScenario turns a route into S3/S4 when documents are selected and the question is not
// about rates, news, 1C or small talk, nor a definition («что такое …») or a knowledge-base
// question the LLM chose knowing the selection.
func docScenario(route RouteDecision, s *docScope) RouteDecision {
	if len(s.selected) == 0 {
		return route
	}
	kb := route.Scenario == S2General && route.Intent == IntentKB
	switch {
	case route.Scenario == S1Search, route.Scenario == S5Clarify && route.FallbackRuleHit != "too_short":
	case kb && route.Source == "rules" && route.FallbackRuleHit != "kb_definition":
		s.kbFallback = true
	default:
		return route
	}
	chars := 0
	for _, m := range s.selected {
		chars += m.Chars
	}
	route.Scenario, route.Intent = S4Retrieve, ""
	reason := fmt.Sprintf("выбраны документы (%d), %s > %d", len(s.selected), ru.Count(chars, "знак", "знака", "знаков"), FullContextChars)
	if chars <= FullContextChars {
		route.Scenario = S3Full
		reason = fmt.Sprintf("выбраны документы (%d), %s ≤ %d", len(s.selected), ru.Count(chars, "знак", "знака", "знаков"), FullContextChars)
	}
	route.Reasons = append(route.Reasons, reason)
	return route
}
