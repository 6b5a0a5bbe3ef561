// Package documents is the documents skill: it answers questions over a user's (or a group's)
// documents kept in the document library (library) — S1 a search of all of them, S3 the
// selected ones read whole, S4 the selected ones by retrieval — and runs /docs, uploads and
// the planner's search_user_documents and load_documents_full tools.
//
// Which documents a question is asked over (the selection, a reply to an upload receipt, a
// file's caption) is resolved before the question is understood: the agent calls
// [Skill.Scope] and hands the result to every skill as skill.Query.Docs. When the selected
// documents hold no answer to a question the knowledge base may answer, the reply hands the
// question over to the knowledge base (skill.Reply.Then).
package documents

import (
	"context"
	"fmt"
	"github.com/finbot/finbot/agent/reconcile"
	"log/slog"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/library"
)

// Options are the skill's dependencies besides the library.
type Options struct {
	// Writer is the answer LLM; nil or without an LLM, answers are quoted.
	Writer *phrase.Writer
	Logger *slog.Logger
	// HistoryTimeout bounds resolving the scope (the selection, a receipt); default 2s.
	HistoryTimeout time.Duration
	// Parser reads what a question the planner wrote asks (a search query, a follow-up it
	// resolved); nil = understand.NewParser().
	Parser *understand.Parser
	// Now is the clock the dates of a question are read by («подписали 3 декабря»); time.Now
	// when nil.
	Now func() time.Time
	// OCR reads photos and scanned PDFs (*ocr.Engine); nil = they are refused with what to
	// install.
	OCR Recognizer
	// Acts finds a recognised primary document in 1C (the seller, the posting, the payment)
	// through our act of reconciliation with its seller; nil = no 1C here.
	Acts reconcile.OurActs
}

// Skill answers over the documents of lib; with lib nil it says that documents are not
// installed.
type Skill struct {
	lib  *library.Library
	opts Options
	ans  passages.Answerer
	// albums are the Telegram albums of photos being received (scans.go).
	albums *albums
}

var _ skill.Skill = (*Skill)(nil)

// New returns the documents skill over lib (nil: documents are not installed).
func New(lib *library.Library, opts Options) *Skill {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.HistoryTimeout <= 0 {
		opts.HistoryTimeout = 2 * time.Second
	}
	if opts.Parser == nil {
		opts.Parser = understand.NewParser()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Skill{lib: lib, opts: opts, ans: passages.Answerer{Writer: opts.Writer, Log: opts.Logger}, albums: &albums{now: opts.Now}}
}

// Answer answers /docs and the document buttons (q.Command "docs" and "doc"), and a question
// over q.Docs: S3 or S4 when documents are selected (Scenario), S1 otherwise. A vague
// question (understand's rule "vague") is answered only when the user's documents hold a
// passage on it; otherwise the reply is Unanswered and the agent asks back.
func (s *Skill) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	switch {
	case q.Command == "docs" || q.Command == "doc":
		return s.command(ctx, q)
	case vague(q):
		return s.vague(ctx, q)
	case s.lib == nil:
		return skill.Text("Поиск по документам в этой установке не подключён."), nil
	}
	return s.answer(ctx, q)
}

// Facts runs search_user_documents and load_documents_full over q.Docs; load_documents_full's
// question, searched when the documents are too large to read whole, is q.Text.
func (s *Skill) Facts(ctx context.Context, q skill.Query, call plan.ToolCall) (facts.Payload, error) {
	if s.lib == nil {
		return facts.Payload{}, fmt.Errorf("%w: %s: documents are not installed", skill.ErrUnavailable, call.Tool)
	}
	scope := Scope{Owner: owner(q), Selected: q.Docs.Selected}
	switch call.Tool {
	case plan.ToolSearchUserDocuments:
		var args plan.SearchUserDocumentsArgs
		if err := call.Decode(&args); err != nil {
			return facts.Payload{}, fmt.Errorf("%w: %s: %v", skill.ErrArgs, call.Tool, err)
		}
		return Search(ctx, s.lib, scope, args, s.opts.Parser)
	case plan.ToolLoadDocumentsFull:
		var args plan.LoadDocumentsFullArgs
		if err := call.Decode(&args); err != nil {
			return facts.Payload{}, fmt.Errorf("%w: %s: %v", skill.ErrArgs, call.Tool, err)
		}
		return LoadFull(ctx, s.lib, scope, s.question(q), args)
	}
	return facts.Payload{}, skill.BadArgs("%s is not a documents tool", call.Tool)
}

// Owner is whose documents a request reads and writes: the group's shared set in a group, the
// user's private set otherwise. It is derived from who asks only, never from user input.
func Owner(userID, chatID int64, group bool) string { return passages.Owner(userID, chatID, group) }

// owner is q's library: q.Docs.Owner, or whose the asker's documents are.
func owner(q skill.Query) string {
	if q.Docs.Owner != "" {
		return q.Docs.Owner
	}
	return Owner(q.UserID, q.ChatID, q.Group)
}

// Titles are the titles of the owner's documents, which tell a question about an uploaded
// contract from one for 1C; none when the library cannot be read.
func (s *Skill) Titles(ctx context.Context, owner string) []string {
	if s.lib == nil {
		return nil
	}
	metas, err := s.lib.List(ctx, owner)
	if err != nil {
		return nil
	}
	titles := make([]string, 0, len(metas))
	for _, m := range metas {
		titles = append(titles, m.Title)
	}
	return titles
}

// Offers reports whether the planner may search q's documents: the asker has some, or the
// library cannot tell (then the model may try).
func (s *Skill) Offers(ctx context.Context, q skill.Query) bool {
	if s.lib == nil {
		return false
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.HistoryTimeout)
	defer cancel()
	all, err := s.lib.List(lctx, owner(q))
	return err != nil || len(all) > 0
}

// NamesParty reports whether q's text names a party of q's documents by its whole name
// (passages.NamesParty).
func (s *Skill) NamesParty(ctx context.Context, q skill.Query) bool {
	if s.lib == nil {
		return false
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.HistoryTimeout)
	defer cancel()
	return passages.NamesParty(lctx, s.lib, owner(q), q.Text)
}

// Evidence is how strongly q's documents answer it: their best unit for q's text, read as
// clauses (passages.Evidence); ok is false when none holds its terms or they cannot be read.
func (s *Skill) Evidence(ctx context.Context, q skill.Query) (library.ClauseHit, bool) {
	if s.lib == nil {
		return library.ClauseHit{}, false
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.HistoryTimeout)
	defer cancel()
	return passages.Evidence(lctx, s.lib, owner(q), q.Text, passages.AskingOf(q, s.opts.Parser))
}
