// Package skill is the one interface every skill of the agent implements, and what skills share
// with the agent that conducts them. A skill (agent/rates, agent/news, agent/ledger,
// agent/documents, agent/kb, agent/smalltalk, agent/clarify) answers the kinds of question the
// agent's table of meanings routes to it, from one source, in two shapes: a deterministic
// [Reply] to a decision of agent/understand, and [facts.Payload] for the planner's tool calls.
// Skills do not import each other: when one needs another's answer it asks the agent for it
// with a [Handoff].
package skill

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/ru"
)

// Skill answers the kinds of question routed to it.
type Skill interface {
	// Answer answers a question understood as q.Decision. It reads the decision, not the text:
	// the date, the currency, the names and what is asked are the decision's slots.
	Answer(ctx context.Context, q Query) (Reply, error)
	// Facts runs one of the planner's tool calls this skill serves and returns what it found:
	// every figure written as people read it, because the post-check accepts an answer's number
	// only when the facts hold it. Arguments that do not decode are ErrArgs.
	Facts(ctx context.Context, q Query, call plan.ToolCall) (facts.Payload, error)
}

// Scenario is the scenario of the design a route belongs to, shown in the debug payload.
type Scenario string

// The scenarios of the design plus the 1C lane.
const (
	S1Search   Scenario = "S1"      // search all the user's documents
	S2General  Scenario = "S2"      // knowledge base, rates, news, small talk
	S3Full     Scenario = "S3"      // selected documents in full
	S4Retrieve Scenario = "S4"      // selected documents by retrieval
	S5Clarify  Scenario = "S5"      // ask a clarifying question
	OneC       Scenario = "1c"      // a question to 1C (the ledger skill)
	Command    Scenario = "command" // a command of the front end (/docs, uploads)
)

// Query is one question as a skill receives it: who asks, the message, its understanding and
// what the agent resolved around it.
type Query struct {
	UserID int64
	ChatID int64
	// Group is true in groups, where documents are the group's.
	Group bool
	// Command is the command the message came as ("rate", "debts", "drill", "docs"); "" for a
	// question.
	Command string
	// Text is the message (a command's arguments), cleaned.
	Text string
	// Decision is the message understood once (agent/understand), or the planner's plan read
	// as one.
	Decision understand.Decision
	// History is the dialog so far, oldest first.
	History []history.Turn
	// Docs are the documents the question is asked over.
	Docs Docs
	// Plan is the planner's plan when it planned the question; nil otherwise.
	Plan *plan.QueryPlan
	// Summary is what the planner was told of the previous turn ("" for a question of its own).
	Summary string
	// Searches are the search queries the planner wrote for this skill's tool: a skill then
	// searches them instead of asking the LLM for expansions.
	Searches []string
	// HandedOff is set when another skill handed the question over (Handoff): the skill answers
	// from its own source only, and hands nothing on.
	HandedOff bool
	// Rules marks a handed-over question as one about rules (a standard clause the user's
	// documents lack): the knowledge base answers it with the evidence a rules question needs.
	Rules bool
	// Progress, when set, receives the answer's checked text so far while the answer LLM
	// streams it (phrase.Writer.Complete).
	Progress func(partial string)
}

// Docs are the documents a question is asked over: the owner's library and the selection.
type Docs struct {
	Owner    string
	Selected []docstore.Meta
	// Note goes before the answer ("Выбрал «…»" after a reply to an upload receipt).
	Note string
	// Caption: the question is a file's caption, asked about that file (Selected).
	Caption bool
	// Unavailable: the selection could not be read (the store is down); the question is asked
	// over none.
	Unavailable bool
}

// Claimer is a skill that may claim a question before the table routes it by its kind: the
// documents skill claims most questions asked over selected documents.
type Claimer interface {
	// Claims reports whether the skill answers q whatever its kind, and why.
	Claims(q Query) (why []string, ok bool)
}

// Handoff asks the agent to answer the question as another kind too, with that kind's skill:
// the asking skill does not know (or import) the other.
type Handoff struct {
	Kind understand.Kind
	// Append adds the other answer after this reply, its footnotes numbered after this reply's;
	// otherwise the other answer replaces this reply.
	Append bool
	// Prefix goes before the other answer when it replaces this reply, Suffix after it.
	Prefix, Suffix string
	// OnlyIfFound keeps this reply when the other answer has no sources.
	OnlyIfFound bool
	// Direct keeps this reply when the other answer only quotes what comes closest
	// (Reply.Nearest): a source asked because this one had nothing must answer.
	Direct bool
	// Note goes before this reply when it stands alone (the other answer was not taken).
	Note string
	// Reason says why the other answer was taken, for the debug payload.
	Reason string
	// Rules marks the question as one about rules (a standard clause the documents lack).
	Rules bool
}

// Combine is the reply to a question handed over as h asks: other, the answer of h's kind
// (its scenario set), appended after rep with its footnotes numbered after rep's, or instead
// of rep — in either case only when other found something, if h asks so.
func (h Handoff) Combine(rep, other Reply) Reply {
	found := len(other.Sources) > 0 && !other.Unanswered && !(h.Direct && other.Nearest)
	if h.OnlyIfFound && !found {
		if h.Note != "" {
			rep.Text = h.Note + "\n\n" + rep.Text
		}
		return rep
	}
	if other.Kind == "" {
		other.Kind = h.Kind
	}
	if h.Reason != "" {
		other.Reasons = append(other.Reasons, h.Reason)
	}
	if !h.Append {
		other.Text = h.Prefix + other.Text + h.Suffix
		return other
	}
	rep.Text += "\n\n" + phrase.Renumber(other.Text, len(rep.Sources))
	rep.Sources = append(rep.Sources, other.Sources...)
	rep.Degraded = append(rep.Degraded, other.Degraded...)
	if rep.Trace == nil {
		rep.Trace = Trace{}
	}
	maps.Copy(rep.Trace, other.Trace)
	if found {
		rep.Scenario, rep.Kind = other.Scenario, other.Kind
	}
	return rep
}

var (
	// ErrUnavailable means a data source the answer needs is unavailable; it is
	// agent.ErrUnavailable.
	ErrUnavailable = errors.New("agent: a data source is unavailable")
	// ErrArgs means a tool call's arguments do not decode or make no request (an unparsable
	// date, an unknown mode or recipe, an empty query).
	ErrArgs = errors.New("agent: bad tool arguments")
)

// Answered is a tool call's error that is an answer in itself: 1C asks for a choice (with its
// buttons) or a missing filter, the user may not see 1C. When no call of a plan found facts,
// the plan is answered with Reply. It unwraps to the cause.
type Answered struct {
	Err   error
	Reply Reply
}

func (e *Answered) Error() string { return e.Err.Error() }
func (e *Answered) Unwrap() error { return e.Err }

// BadArgs is an [ErrArgs] that says what is wrong.
func BadArgs(format string, v ...any) error {
	return fmt.Errorf("%w: %s", ErrArgs, fmt.Sprintf(format, v...))
}

// Unavailable wraps a source's failure in [ErrUnavailable], keeping the cause matchable.
func Unavailable(what string, err error) error {
	return fmt.Errorf("%w: %s: %w", ErrUnavailable, what, err)
}

// Reply is a skill's answer.
type Reply struct {
	// Text is Russian Markdown.
	Text string
	// Sources are the footnotes [1], [2]… of Text.
	Sources []facts.Source
	// Chart goes with the text (a rate series).
	Chart *Chart
	// Buttons are suggested replies: a choice, a drilldown, an export.
	Buttons []Button
	// Calls are the source calls behind the reply.
	Calls []Call
	// Degraded lists what went wrong without stopping the reply ("cbr_unavailable").
	Degraded []string
	// Document is a file sent after the text (an Excel export).
	Document *Document
	// Receipt is the id of an uploaded document this reply acknowledges.
	Receipt string
	// Scenario, when set, is the scenario the skill settled in (S3 or S4 over selected
	// documents, S1 when a rules question was answered from the user's own documents).
	Scenario Scenario
	// Quoted are the ids of the user's documents the reply quotes, the best first: a follow-up
	// («а без ндс?») continues them.
	Quoted []string
	// Listed are the counterparties a 1C reply lists, in the order of its rows: a follow-up or
	// a reply to it naming a row («карточка 3», «подробнее») asks about that one.
	Listed []recipe.Entity
	// Kind, when set, is the kind the skill answered as, when it differs from the route's (a
	// knowledge-base question answered from the user's documents is docs).
	Kind understand.Kind
	// Recipe is the 1C recipe that answered, for ledger replies.
	Recipe string
	// Trace is the skill's debug payload.
	Trace Trace
	// Wording says how the answer LLM worded a planned reply: "llm", "llm_regenerated",
	// "deterministic"; PostCheck lists what the post-check refused, per attempt.
	Wording   string
	PostCheck [][]string
	// Then asks the agent to answer as another kind too.
	Then *Handoff
	// Reasons say why the skill answered as it did, for the route's reasons in the debug
	// payload.
	Reasons []string
	// Unanswered: the skill has no answer of its own to this question (a search with no passage,
	// a vague question the user's documents do not answer); the agent may try the next route.
	Unanswered bool
	// Nearest: the documents state nothing of what was asked, and the reply quotes the clause
	// that comes closest.
	Nearest bool
}

// Trace is a skill's debug payload, under the keys the debug output shows ("ledger" and
// "result" of a 1C answer, "docs" of a document or knowledge-base answer, "discovery" and
// "records" of guarded discovery).
type Trace map[string]any

// Document is a file that goes with a reply.
type Document struct {
	Name    string `json:"name"`
	Bytes   []byte `json:"-"`
	Caption string `json:"caption,omitempty"`
}

// Text is a reply of text alone.
func Text(s string) Reply { return Reply{Text: s} }

// Button is a suggested reply. Pressing it sends Text back as a question, or, when Data is set,
// Data as a compact command the agent re-validates (a drilldown, an export).
type Button struct {
	Text string `json:"text"`
	Data string `json:"data,omitempty"`
	// SameRow puts the button on the row of the previous one.
	SameRow bool `json:"same_row,omitempty"`
	// Style colours the button where the front end can (Telegram's InlineKeyboardButton.style,
	// Bot API 9.4): StylePrimary for the answer's main action, StyleSuccess for a confirmation,
	// StyleDanger for one that destroys; "" is the app's own look. Front ends without colours
	// ignore it.
	Style string `json:"style,omitempty"`
}

// The styles of a button (Button.Style), as Telegram names them.
const (
	StylePrimary = "primary" // blue
	StyleSuccess = "success" // green
	StyleDanger  = "danger"  // red
)

// Styled is b with style s.
func (b Button) Styled(s string) Button {
	b.Style = s
	return b
}

// pairRunes is the longest label that still fits beside another on a phone's row.
const pairRunes = 20

// InPairs lays buttons two to a row where both labels fit beside each other on a phone, each
// row of two starting at an even position; a button already set on its own row stays there.
func InPairs(bs []Button) []Button {
	out := slices.Clone(bs)
	for i := 1; i < len(out); i += 2 {
		if out[i-1].SameRow || utf8.RuneCountInString(out[i-1].Text) > pairRunes || utf8.RuneCountInString(out[i].Text) > pairRunes {
			continue
		}
		out[i].SameRow = true
	}
	return out
}

// Chart is a rendered PNG with its caption (Markdown, under 1024 characters).
type Chart struct {
	PNG     []byte `json:"-"`
	Caption string `json:"caption"`
	Bytes   int    `json:"bytes"`
}

// Call records one data-source call behind an answer.
type Call struct {
	Source string `json:"source"` // "cbr.DailyRates", "tavily.Search", …
	Args   string `json:"args,omitempty"`
	Result string `json:"result"` // "ok", "empty", "stale", "error: …"
	Rows   int    `json:"rows"`
}

// Snippet cuts text to at most n characters at a word boundary, on one line.
func Snippet(s string, n int) string { return ru.Truncate(strings.Join(strings.Fields(s), " "), n) }

// SourceTitle is a short footnote title of a page: the headline and the site.
func SourceTitle(title, url string) string {
	host := url
	if _, rest, ok := strings.Cut(url, "://"); ok {
		host, _, _ = strings.Cut(rest, "/")
	}
	host = strings.TrimPrefix(host, "www.")
	return Snippet(title, 80) + " — " + host
}

// ErrNoTool is the Facts error of a skill that serves no planner tool (small talk, clarify):
// the agent never routes a tool call to it.
var ErrNoTool = fmt.Errorf("%w: the skill serves no planner tool", ErrArgs)

// NoTools is embedded by a skill that serves no planner tool.
type NoTools struct{}

// Facts refuses every call: the skill has no tool.
func (NoTools) Facts(context.Context, Query, plan.ToolCall) (facts.Payload, error) {
	return facts.Payload{}, ErrNoTool
}
