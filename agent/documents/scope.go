package documents

// Which documents a question is asked over: the owner's library, the selection, a reply to a
// receipt; and whether they are read whole (S3) or by retrieval (S4).

import (
	"context"
	"errors"
	"fmt"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// Asker is who asks and what their message points at, for Scope.
type Asker struct {
	UserID int64
	ChatID int64
	Group  bool
	// OnlyDoc is a one-shot document (a file's caption asks about that file): it overrides the
	// selection.
	OnlyDoc string
	// ReplyTo is the message the question replies to; a reply to an upload receipt selects
	// that document.
	ReplyTo int
}

// ErrGone is Scope's error when the document a question was asked about (a file's caption) is
// no longer the asker's; GoneText says so to the user.
var ErrGone = fmt.Errorf("documents: the document is gone: %w", library.ErrNotFound)

// GoneText is the answer to a question about a document that is gone.
const GoneText = "Этого документа больше нет среди ваших. Список — /docs."

// Scope resolves the documents a question is asked over: a reply to a receipt selects that
// document (and says so in Docs.Note); a one-shot document overrides the selection. When the
// store is down, the question is asked without a selection (Docs.Unavailable) rather than not
// at all — unless it was about one document: then the error is skill.ErrUnavailable. A one-shot
// document that is gone is ErrGone. With documents not installed the scope is the owner's alone.
func (s *Skill) Scope(ctx context.Context, who Asker) (skill.Docs, error) {
	d, err := s.scope(ctx, who)
	switch {
	case err == nil:
		return d, nil
	case ctx.Err() != nil:
		return d, ctx.Err()
	case errors.Is(err, library.ErrNotFound):
		return d, ErrGone
	case who.OnlyDoc != "":
		return d, skill.Unavailable("documents", err)
	}
	s.opts.Logger.WarnContext(ctx, "document selection unavailable", "chat_id", who.ChatID, "err", err)
	d.Selected, d.Unavailable = nil, true
	return d, nil
}

func (s *Skill) scope(ctx context.Context, who Asker) (skill.Docs, error) {
	d := skill.Docs{Owner: Owner(who.UserID, who.ChatID, who.Group)}
	if s.lib == nil {
		return d, nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.HistoryTimeout)
	defer cancel()
	if who.OnlyDoc != "" {
		m, err := s.lib.Get(ctx, d.Owner, who.OnlyDoc)
		if err != nil {
			return d, err
		}
		d.Selected, d.Caption = []docstore.Meta{m}, true
		return d, nil
	}
	if who.ReplyTo != 0 {
		m, err := s.lib.Receipt(ctx, d.Owner, who.ChatID, who.ReplyTo)
		switch {
		case err == nil:
			if err := s.lib.Select(ctx, d.Owner, who.UserID, m.ID, true); err != nil {
				return d, err
			}
			d.Note = fmt.Sprintf("_Выбрал документ «%s» — отвечаю по выбранным документам. Снять выбор — /docs._", md.Escape(m.Title))
		case !errors.Is(err, library.ErrNotFound):
			return d, err
		}
	}
	sel, err := s.lib.Selected(ctx, d.Owner, who.UserID)
	if err != nil {
		return d, err
	}
	d.Selected = sel
	return d, nil
}

// Scenario is how a question over the selected documents is answered: S1 (a search of all the
// documents) with none selected, S3 (read whole) when they hold at most FullContextChars, S4
// (by retrieval) above. reason says so for the debug payload's route; "" for S1.
func Scenario(selected []docstore.Meta) (sc skill.Scenario, reason string) {
	if len(selected) == 0 {
		return skill.S1Search, ""
	}
	chars := 0
	for _, m := range selected {
		chars += m.Chars
	}
	if chars <= FullContextChars {
		return skill.S3Full, fmt.Sprintf("выбраны документы (%d), %s ≤ %d", len(selected), ru.Count(chars, "знак", "знака", "знаков"), FullContextChars)
	}
	return skill.S4Retrieve, fmt.Sprintf("выбраны документы (%d), %s > %d", len(selected), ru.Count(chars, "знак", "знака", "знаков"), FullContextChars)
}

// Claims takes a question asked over selected documents (a reply to an upload, a caption, the
// /docs buttons) unless it is for 1C, the Bank of Russia or small talk, a definition («что такое
// …») or «?». A caption asks about its file even in words 1C knows («сколько оплачено по акту
// сверки?»), unless it names what in 1C it means (a company, a contract, an account). A rules
// question goes to the documents first, and to the knowledge base when they hold no answer
// (the reply hands it over). why says so, with the selection's size (S3 or S4).
func (s *Skill) Claims(q skill.Query) (why []string, ok bool) {
	d := q.Decision
	if len(q.Docs.Selected) == 0 || q.Command != "" {
		return nil, false
	}
	caption := q.Docs.Caption && d.Kind == understand.KindLedger &&
		!d.Counterparty.Set && !d.Contract.Set && !d.Account.Set && !d.BankAccount.Set
	switch {
	case caption:
		why = append(why, "подпись к файлу: вопрос о нём")
	case d.Kind == understand.KindDocs, d.Kind == understand.KindClarify && d.Rule != "too_short",
		d.Kind == understand.KindKB && d.Rule != "kb_definition":
	default:
		return nil, false
	}
	_, reason := Scenario(q.Docs.Selected)
	return append(why, reason), true
}
