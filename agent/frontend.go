package agent

// What the front ends ask of the agent besides answers: uploads and their receipts, inline
// offers, the error vocabulary and the Markdown escape.

import (
	"context"
	"errors"

	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/llm"
)

// The agent's error vocabulary. The front end turns these, and only these, into user text.
var (
	// ErrEmpty means the message had nothing to answer.
	ErrEmpty = errors.New("agent: empty message")
	// ErrUnavailable means a data source the answer needs is unavailable. The skills return it
	// too (it is skill.ErrUnavailable).
	ErrUnavailable = skill.ErrUnavailable
	// ErrTooLong means the message is longer than the agent accepts.
	ErrTooLong = errors.New("agent: message too long")
)

// EscapeMarkdown makes a dynamic value (a counterparty name, a document title, a currency name
// from the Bank of Russia) literal inside the agent's Markdown.
func EscapeMarkdown(s string) string { return md.Escape(s) }

// MaxUploadBytes is Telegram's limit on files a bot may download (20 MB).
const MaxUploadBytes = documents.MaxUploadBytes

// File is a document a user sent.
type File = documents.File

// Owner is whose documents a request reads and writes: the group's shared set in a group, the
// user's private set otherwise. It is derived from the request only, never from user input.
func Owner(req Request) string { return documents.Owner(req.UserID, req.ChatID, req.Group) }

// docsSkill is the documents skill as the conductor asks it besides answers.
type docsSkill interface {
	skill.Skill
	Scope(ctx context.Context, who documents.Asker) (skill.Docs, error)
	Titles(ctx context.Context, owner string) []string
	Upload(ctx context.Context, q skill.Query, f File) (skill.Reply, error)
	RememberReceipt(ctx context.Context, q skill.Query, messageID int, id string) error
}

// ledgerSkill is the 1C skill as the conductor asks it besides answers.
type ledgerSkill interface {
	skill.Skill
	Catalogs(ctx context.Context, userID, chatID int64) *recipe.Catalogs
}

// Upload adds a file to the requester's library and returns the receipt (or the reason it was
// refused), which the dialog remembers as «[файл] name». The front end remembers the receipt
// message with RememberReceipt.
func (a *Agent) Upload(ctx context.Context, req Request, f File) (Answer, error) {
	if a.docs == nil {
		return Answer{Text: "Загрузка документов в этой установке не подключена."}, nil
	}
	in := turn{req: req, text: "[файл] " + f.Name, start: a.now(), usage: new(llm.Usage)}
	rep, err := a.docs.Upload(ctx, skill.Query{UserID: req.UserID, ChatID: req.ChatID, Group: req.Group}, f)
	if err != nil {
		return Answer{}, err
	}
	if rep.Receipt != "" {
		in.key = ConversationKey(req)
	}
	ans := reply(rowOf(understand.KindDocs), rep, Route{Source: "command", Sure: true})
	ans.Scenario, ans.Kind = Command, "upload"
	return a.exit(ctx, in, ans, nil)
}

// RememberReceipt records that the bot's message messageID is the receipt of document id, so
// that replying to it selects the document.
func (a *Agent) RememberReceipt(ctx context.Context, req Request, messageID int, id string) error {
	if a.docs == nil {
		return nil
	}
	return a.docs.RememberReceipt(ctx, skill.Query{UserID: req.UserID, ChatID: req.ChatID, Group: req.Group}, messageID, id)
}

// InlineResult is one offer of inline mode ("@finbot usd" in any chat): public figures only —
// ledger data never appears here.
type InlineResult struct {
	ID          string
	Title       string
	Description string
	Text        string // Markdown sent to the chat when the result is chosen
}

// Inline answers an inline query with today's Bank of Russia rates and the key rate.
func (a *Agent) Inline(ctx context.Context, query string) ([]InlineResult, error) {
	if a.cbr == nil {
		return nil, nil
	}
	var out []InlineResult
	for _, o := range a.cbr.Offers(ctx, query) {
		out = append(out, InlineResult(o))
	}
	return out, nil
}

func buildDocuments(b *builder) skill.Skill {
	if b.d.Library == nil {
		return nil
	}
	return documents.New(b.d.Library, documents.Options{Writer: b.a.writer, Parser: b.a.parser, Logger: b.a.opts.Logger,
		HistoryTimeout: b.a.opts.HistoryTimeout})
}

func buildKB(b *builder) skill.Skill {
	if b.d.KB == nil {
		return nil
	}
	return kb.New(b.d.KB, b.d.Library, kb.Options{Writer: b.a.writer, Logger: b.a.opts.Logger, Parser: b.a.parser, Now: b.a.opts.Now,
		LedgerFor: func(userID, chatID int64) bool { return b.d.Ledger != nil && b.access(userID, chatID) },
		Rates:     b.d.Rates != nil})
}

func buildLedger(b *builder) skill.Skill {
	if b.d.Ledger == nil {
		return nil
	}
	return ledger.New(b.d.Ledger, b.d.Results, ledger.Options{Writer: b.a.writer, Parser: b.a.parser, Now: b.a.opts.Now,
		Logger: b.a.opts.Logger, LedgerAccess: b.access, ToolTimeout: b.a.opts.ToolTimeout, HistoryTimeout: b.a.opts.HistoryTimeout})
}
