package agent

import (
	"time"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
)

// Scenario is where a message is routed.
type Scenario string

// The scenarios of the design (seed 002 §4) plus the 1C lane to 1C.
const (
	S1Search   Scenario = "S1"      // search all the user's documents
	S2General  Scenario = "S2"      // knowledge base, rates, news, small talk
	S3Full     Scenario = "S3"      // selected documents in full
	S4Retrieve Scenario = "S4"      // selected documents by retrieval
	S5Clarify  Scenario = "S5"      // ask a clarifying question
	OneC       Scenario = "1c"      // a question to 1C (the ledger skill)
	Command    Scenario = "command" // handled by the front end, never routed
)

// Intents within S2 and the 1C lane.
const (
	IntentSmallTalk = "smalltalk"
	IntentKB        = "kb"
	IntentRates     = "rates"
	IntentKeyRate   = "key_rate"
	IntentNews      = "news"
	IntentUnknown   = "unknown"
)

// Request is one incoming message.
type Request struct {
	UserID int64
	ChatID int64
	// Group is true in groups and supergroups, where history is kept per (chat, user).
	Group bool
	// Text is the message with any mention of the bot removed; for a command, its arguments.
	Text string
	// Command is a deterministic command ("rate", "keyrate", "news") that skips the router;
	// empty for questions.
	Command string
	// ReplyTo is the bot's own message this one replies to (0 = none); replying to an upload
	// receipt selects that document.
	ReplyTo int
	// OnlyDoc restricts this one question to a document of the requester (a file's caption).
	OnlyDoc string
	// Progress, when set, receives the answer's text so far while the answer LLM streams it:
	// plain text (no Markdown), each call the whole text up to now. Of a post-checked answer
	// (facts, documents) only text that passed the post-check is sent, up to the last whole
	// word, and nothing more once a part failed it (postcheck.Settled, Agent.complete). It is
	// advisory: the Answer returned at the end is what must be shown, and it may differ
	// (post-check, fallback). Called from the answering goroutine; it must not block for long.
	Progress func(partial string)
}

// Answer is what the agent replies: Markdown text plus what the front end needs to show it.
type Answer struct {
	Scenario Scenario `json:"scenario"`
	Intent   string   `json:"intent,omitempty"`
	// Text is Russian Markdown; the front end converts it for Telegram or the console.
	Text    string   `json:"text"`
	Sources []Source `json:"sources"`
	// Buttons are suggested replies (clarification choices); pressing one sends its Text back.
	Buttons []Button `json:"buttons,omitempty"`
	// Chart is a picture that goes with the text (a rate series), sent as a photo.
	Chart *Chart `json:"chart,omitempty"`
	// Document is a file sent after the text.
	Document *Document `json:"document,omitempty"`
	// Receipt is the id of a document this answer acknowledges; the front end reports the
	// message it sent with Agent.RememberReceipt.
	Receipt string `json:"receipt,omitempty"`
	Debug   Debug  `json:"debug"`

	// state is what the dialog keeps of the question this answer answered, for a follow-up.
	state *understand.State
}

// Chart is a rendered PNG with its caption (Markdown, under 1024 characters), drawn by a skill.
type Chart = skill.Chart

// Source is a footnote of an answer.
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url,omitempty"`
}

// Button is a suggested reply. Pressing it sends Text back as a question, or, when Data is set,
// Data as a compact command the agent re-validates (a drilldown, an export).
type Button struct {
	Text string `json:"text"`
	Data string `json:"data,omitempty"`
	// SameRow puts the button on the row of the previous one.
	SameRow bool `json:"same_row,omitempty"`
}

// Document is a file that goes with an answer (an Excel export).
type Document struct {
	Name    string `json:"name"`
	Bytes   []byte `json:"-"`
	Caption string `json:"caption,omitempty"`
}

// Debug explains how an answer was produced.
type Debug struct {
	Route RouteDecision `json:"route"`
	// Calls lists the data sources consulted and how each answered.
	Calls []Call `json:"calls,omitempty"`
	LLM   bool   `json:"llm"`
	// LLMCalls and the tokens are what this answer cost at the LLM service (every LLM call made
	// under the answer's context: planner, repair, answer, regeneration, lane decomposition).
	LLMCalls         int `json:"llm_calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	HistoryTurns     int `json:"history_turns"`
	// Degraded lists what went wrong without stopping the answer (history unavailable, LLM down…).
	Degraded []string      `json:"degraded,omitempty"`
	Elapsed  time.Duration `json:"elapsed_ns"`
	// Ledger is the 1C lane's debug payload (seed 001), for 1C answers.
	Ledger *runner.Debug `json:"ledger,omitempty"`
	// Result is the 1C lane's unified result (seed 000 §5), for 1C answers.
	Result *runner.Result `json:"result,omitempty"`
	// Docs explains answers from documents and the knowledge base.
	Docs *DocsDebug `json:"docs,omitempty"`
	// Plan explains answers the planner planned.
	Plan *PlanDebug `json:"plan,omitempty"`
}

// RouteDecision is the router's verdict and its reasons.
type RouteDecision struct {
	Scenario      Scenario `json:"scenario"`
	Intent        string   `json:"intent"`
	Confidence    float64  `json:"confidence"`
	Reasons       []string `json:"reasons"`
	Source        string   `json:"source"` // "llm", "rules" or "command"
	Clarification string   `json:"clarification,omitempty"`
	// FallbackRuleHit names the deterministic rule that decided when the LLM did not.
	FallbackRuleHit string `json:"fallback_rule_hit,omitempty"`
	LLMError        string `json:"llm_error,omitempty"`
}

// Call records one data-source call behind an answer ("cbr.DailyRates", "tavily.Search", …).
type Call = skill.Call
