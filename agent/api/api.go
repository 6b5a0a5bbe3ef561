// Package api is what the agent and its front ends (the Telegram bot, the console) say to each
// other: a Request in, an Answer with its debug payload out, uploads and inline offers, and the
// error vocabulary the front ends turn into user text. The front ends depend on this contract,
// not on the agent that fulfils it.
package api

import (
	"errors"
	"time"

	"github.com/finbot/finbot/agent/buttons"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
)

// Scenario is the scenario of the design an answer belongs to (S1–S5, the 1C lane): a column
// of the table of meanings (route.go), shown in the debug payload and `ask --json`.
type Scenario = skill.Scenario

// The scenarios.
const (
	S1Search   = skill.S1Search   // search all the user's documents
	S2General  = skill.S2General  // knowledge base, rates, news, small talk
	S3Full     = skill.S3Full     // selected documents in full
	S4Retrieve = skill.S4Retrieve // selected documents by retrieval
	S5Clarify  = skill.S5Clarify  // ask a clarifying question
	OneC       = skill.OneC       // a question to 1C (the ledger skill)
	Command    = skill.Command    // a command of the front end (/docs, uploads)
)

// Request is one incoming message.
type Request struct {
	UserID int64
	ChatID int64
	// Group is true in groups and supergroups, where history is kept per (chat, user).
	Group bool
	// Text is the message with any mention of the bot removed; for a command, its arguments.
	Text string
	// Command is a command ("rate", "debts", "docs", "drill" for a button's data…); empty for
	// questions.
	Command string
	// ReplyTo is the bot's own message this one replies to (0 = none); replying to an upload
	// receipt selects that document.
	ReplyTo int
	// OnlyDoc restricts this one question to a document of the requester (a file's caption).
	OnlyDoc string
	// Progress, when set, receives the answer's text so far, as plain text, while the answer LLM
	// streams it: only text that passed the post-check (phrase.Writer.Complete). It is advisory:
	// the Answer returned is what must be shown. It is called from the answering goroutine and
	// must not block for long.
	Progress func(partial string)
}

// Answer is what the agent replies: Markdown text plus what the front end needs to show it.
type Answer struct {
	Scenario Scenario `json:"scenario"`
	// Kind is what the message was understood to ask (agent/understand's vocabulary); Recipe the
	// 1C recipe that answered it.
	Kind   understand.Kind `json:"kind,omitempty"`
	Recipe string          `json:"recipe,omitempty"`
	// Text is Russian Markdown; the front end converts it for Telegram or the console.
	Text    string   `json:"text"`
	Sources []Source `json:"sources"`
	// Buttons are suggested replies (clarification choices); pressing one sends its Text back.
	Buttons []Button `json:"buttons,omitempty"`
	// Chart is a picture that goes with the text (a rate series), sent as a photo.
	Chart *Chart `json:"chart,omitempty"`
	// Document is a file sent after the text.
	Document *Document `json:"document,omitempty"`
	// Attachments are further files sent after Document (an act of reconciliation's PDF beside
	// its Excel).
	Attachments []Document `json:"attachments,omitempty"`
	// Receipt is the id of a document this answer acknowledges; the front end reports the
	// message it sent with Agent.RememberReceipt.
	Receipt string `json:"receipt,omitempty"`
	Debug   Debug  `json:"debug"`

	// State is what the dialog keeps of the question this answer answered, for a follow-up; the
	// agent sets and reads it, the front ends leave it alone — but for handing the answer back
	// with the message it went out as (Agent.RememberAnswer), when it lists companies.
	State *understand.State `json:"-"`
}

// Chart is a rendered PNG with its caption (Markdown, under 1024 characters), drawn by a skill.
type Chart = skill.Chart

// Document is a file that goes with an answer (an Excel export).
type Document = skill.Document

// Source is a footnote of an answer.
type Source = facts.Source

// Button is a suggested reply. Pressing it sends Text back as a question, or, when Data is set,
// Data as a compact command the agent re-validates (a drilldown, an export).
type Button = skill.Button

// Debug explains how an answer was produced.
type Debug struct {
	Route Route `json:"route"`
	// Calls lists the data sources consulted and how each answered.
	Calls []skill.Call `json:"calls,omitempty"`
	LLM   bool         `json:"llm"`
	// LLMCalls and the tokens are what this answer cost at the LLM service (every LLM call made
	// under the answer's context: planner, repair, answer, regeneration).
	LLMCalls         int `json:"llm_calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	HistoryTurns     int `json:"history_turns"`
	// Degraded lists what went wrong without stopping the answer (history unavailable, LLM down…).
	Degraded []string      `json:"degraded,omitempty"`
	Elapsed  time.Duration `json:"elapsed_ns"`
	// Plan explains answers the planner planned.
	Plan *plan.Debug `json:"plan,omitempty"`
	// Trace is the answering skill's own payload, under its keys ("ledger" and "result" of a 1C
	// answer, "docs" of a document or knowledge-base answer); shown inline in the JSON.
	Trace skill.Trace `json:"trace,omitempty"`
}

// Route is how a message was routed: the row of the table of meanings it took and why.
type Route struct {
	Kind     understand.Kind `json:"kind"`
	Recipe   string          `json:"recipe,omitempty"`
	Scenario Scenario        `json:"scenario"`
	// Skill is the skill that answered ("facts" for a plan the executor ran).
	Skill string `json:"skill"`
	// Source is what decided: "rules" (the parser), "command", "planner" (or "planner_repair",
	// "planner_cache"…).
	Source string `json:"source"`
	// Sure is the parser's certainty; an unsure decision may go to the planner.
	Sure bool `json:"sure"`
	// Rule names the parser's rule that decided.
	Rule    string   `json:"rule,omitempty"`
	Reasons []string `json:"reasons"`
	// LLMError is why the planner gave no plan, when it did not.
	LLMError string `json:"llm_error,omitempty"`
}

// The agent's error vocabulary. The front end turns these, and only these, into user text.
var (
	// ErrEmpty means the message had nothing to answer.
	ErrEmpty = errors.New("agent: empty message")
	// ErrUnavailable means a data source the answer needs is unavailable. The skills return it
	// too (it is skill.ErrUnavailable).
	ErrUnavailable = skill.ErrUnavailable
	// ErrTooLong means the message is longer than the agent accepts.
	ErrTooLong = errors.New("agent: message too long")
	// ErrBlocked means a chat cannot receive the bot's messages any more: the user blocked the
	// bot, the bot was removed from the group, or the access lists no longer let the chat in. A
	// front end returns it for what it was asked to deliver unasked (a digest).
	ErrBlocked = errors.New("front end: the chat does not receive the bot's messages")
)

// EscapeMarkdown makes a dynamic value (a counterparty name, a document title, a currency name
// from the Bank of Russia) literal inside the agent's Markdown.
func EscapeMarkdown(s string) string { return md.Escape(s) }

// MaxUploadBytes is Telegram's limit on files a bot may download (20 MB).
const MaxUploadBytes = 20 << 20

// File is a document a user sent.
type File struct {
	Name string
	// Size is the size Telegram reported, checked before Data is fetched.
	Size int64
	Data []byte
	// Captioned: a caption comes with the file and is answered next as a question about it; what
	// the upload would add by itself (a counterparty's act compared with ours) waits for it.
	Captioned bool
	// Album are the further photos of the same document sent together with Data, in order:
	// its pages 2, 3… (the console's and the tests' way to send several at once).
	Album [][]byte
	// MediaGroup is Telegram's media_group_id of a photo sent in an album: the album's photos
	// arrive one message each, and each one adds a page to the document the earlier ones made.
	MediaGroup string
}

// Owner is whose documents a request reads and writes: the group's shared set in a group, the
// user's private set otherwise. It is derived from the request only, never from user input.
func Owner(req Request) string { return passages.Owner(req.UserID, req.ChatID, req.Group) }

// MaxQuestionRunes bounds a question; Telegram itself allows 4096 characters.
const MaxQuestionRunes = 4096

// TextButtonPrefix marks the callback data of a button whose question is kept server-side.
const TextButtonPrefix = buttons.TextPrefix

// InlineResult is one offer of inline mode ("@finbot usd" in any chat): public figures only —
// ledger data never appears here.
type InlineResult struct {
	ID          string
	Title       string
	Description string
	Text        string // Markdown sent to the chat when the result is chosen
}
