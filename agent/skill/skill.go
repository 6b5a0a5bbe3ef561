// Package skill is what the skills under agent/ (rates, news, ledger) share with the agent that
// calls them. A skill answers one kind of question from one source, in two shapes: facts
// (agent/facts) for the planned path, and a [Reply] for the deterministic one, with the [Call]
// records behind it. A planner tool of a skill fails with the errors below, which the agent's
// vocabulary repeats.
package skill

import (
	"errors"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/ru"
)

var (
	// ErrUnavailable means a data source the answer needs is unavailable; it is
	// agent.ErrUnavailable.
	ErrUnavailable = errors.New("agent: a data source is unavailable")
	// ErrArgs means a tool call's arguments do not decode or make no request (an unparsable
	// date, an unknown mode or recipe, an empty query).
	ErrArgs = errors.New("agent: bad tool arguments")
)

// BadArgs is an [ErrArgs] that says what is wrong.
func BadArgs(format string, v ...any) error {
	return fmt.Errorf("%w: %s", ErrArgs, fmt.Sprintf(format, v...))
}

// Unavailable wraps a source's failure in [ErrUnavailable], keeping the cause matchable.
func Unavailable(what string, err error) error {
	return fmt.Errorf("%w: %s: %w", ErrUnavailable, what, err)
}

// Reply is a skill's deterministic answer: what the agent shows without the answer LLM.
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
}

// Button is a suggested reply. Pressing it sends Text back as a question, or, when Data is set,
// Data as a compact command the agent re-validates (a drilldown, an export).
type Button struct {
	Text string `json:"text"`
	Data string `json:"data,omitempty"`
	// SameRow puts the button on the row of the previous one.
	SameRow bool `json:"same_row,omitempty"`
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
