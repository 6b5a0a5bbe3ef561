package agent

import (
	"context"
	"slices"

	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
)

// The tests' short words for what a question is asked over and what its answer traced.

// docScope is the documents a test's question is asked over.
type docScope struct {
	owner    string
	selected []docstore.Meta
}

// tools is the executor's registry for one question of req over s.
func (a *Agent) tools(req Request, s docScope, question string) executor.Registry {
	return a.registry(skill.Query{UserID: req.UserID, ChatID: req.ChatID, Group: req.Group, Text: question,
		Docs: skill.Docs{Owner: s.owner, Selected: s.selected}})
}

// scope is the documents req's question is asked over.
func (a *Agent) scope(ctx context.Context, req Request) (docScope, error) {
	d, err := a.docs.Scope(ctx, documents.Asker{UserID: req.UserID, ChatID: req.ChatID, Group: req.Group,
		OnlyDoc: req.OnlyDoc, ReplyTo: req.ReplyTo})
	return docScope{owner: d.Owner, selected: d.Selected}, err
}

// kbAnswer is the knowledge base's own answer to text (no documents of the user first).
func (a *Agent) kbAnswer(ctx context.Context, req Request, text string) (Answer, error) {
	q := skill.Query{UserID: req.UserID, ChatID: req.ChatID, Group: req.Group, Text: text, HandedOff: true,
		Decision: a.understandText(ctx, req, text)}
	rep, err := a.ask(ctx, rowOf(understand.KindKB), q)
	return reply(rowOf(understand.KindKB), rep, Route{}), err
}

// understandText is the parser's reading of text alone, for req.
func (a *Agent) understandText(ctx context.Context, req Request, text string) understand.Decision {
	return a.understand(ctx, skill.Query{UserID: req.UserID, ChatID: req.ChatID, Group: req.Group, Text: text,
		Docs: skill.Docs{Owner: Owner(req)}}, nil)
}

func owner(req Request) string { return Owner(req) }

func contains(list []string, s string) bool { return slices.Contains(list, s) }

// docsOf is the documents' or knowledge base's trace of an answer; nil for another.
func docsOf(ans Answer) *passages.Debug {
	d, _ := ans.Debug.Trace["docs"].(*passages.Debug)
	return d
}

// ledgerOf is the 1C trace of an answer; nil for another.
func ledgerOf(ans Answer) *runner.Debug {
	d, _ := ans.Debug.Trace["ledger"].(*runner.Debug)
	return d
}

// resultOf is the 1C result of an answer; nil for another.
func resultOf(ans Answer) *runner.Result {
	r, _ := ans.Debug.Trace["result"].(*runner.Result)
	return r
}
