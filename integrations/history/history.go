// Package history keeps the dialog history of each finbot conversation and
// de-duplicates Telegram updates.
//
// Two interchangeable history stores are provided: [Redis], which keeps one
// Redis LIST of JSON-encoded turns per conversation, and [Memory], an
// in-process LRU-bounded store used when no Redis is configured. Both apply
// the same [Limits]: at most MaxTurns newest turns are kept, Load returns at
// most MaxChars characters (dropping the oldest turns first), and an idle
// conversation expires after TTL.
//
// [RedisDedupe] and [MemoryDedupe] claim Telegram updates and mark them
// answered, so that an update is answered once even when Telegram delivers it
// again, including after a restart between receiving it and replying (see
// dedupe.go).
//
// [RedisResults] and [MemoryResults] keep, for a while, what an answer's
// buttons point at (results.go).
//
// Conversation keys are opaque to this package: the caller builds them (for
// example from a chat id) and they must never contain user text.
package history

import (
	"encoding/json"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/ru"
)

// Default limits applied when a [Limits] field is zero or negative.
const (
	DefaultMaxTurns = 20
	DefaultMaxChars = 8000
	DefaultTTL      = 7 * 24 * time.Hour
)

// ErrUnavailable wraps every failure of the backing store (connection
// refused, timeout, server error, …). The original error is wrapped as well,
// so both errors.Is(err, ErrUnavailable) and, for example,
// errors.Is(err, context.DeadlineExceeded) hold.
var ErrUnavailable = errors.New("history: store unavailable")

// Turn is one message of a dialog.
type Turn struct {
	Role string    `json:"role"` // "user" or "assistant"
	Text string    `json:"text"`
	At   time.Time `json:"at"`
	// State is what the caller keeps of the dialog with this turn (the understanding of the
	// question an assistant turn answered), opaque to this package; it is not counted in
	// MaxChars.
	State json.RawMessage `json:"state,omitempty"`
}

// Limits bound what is kept per conversation. Zero or negative fields take
// their defaults ([DefaultMaxTurns], [DefaultMaxChars], [DefaultTTL]).
type Limits struct {
	// MaxTurns is the number of newest turns kept.
	MaxTurns int
	// MaxChars bounds the total number of characters (runes) of the turns
	// returned by Load; the oldest turns are dropped until the rest fits. A
	// single turn longer than MaxChars is truncated: its beginning is kept
	// and "…" appended.
	MaxChars int
	// TTL is the idle expiry of a conversation; every Append refreshes it.
	TTL time.Duration
}

// withDefaults returns l with every non-positive field replaced by its default.
func (l Limits) withDefaults() Limits {
	if l.MaxTurns <= 0 {
		l.MaxTurns = DefaultMaxTurns
	}
	if l.MaxChars <= 0 {
		l.MaxChars = DefaultMaxChars
	}
	if l.TTL <= 0 {
		l.TTL = DefaultTTL
	}
	return l
}

// truncateTurns returns turns with every text longer than maxChars
// truncated. The input slice is not modified.
func truncateTurns(turns []Turn, maxChars int) []Turn {
	out := make([]Turn, len(turns))
	for i, t := range turns {
		t.Text = ru.Truncate(t.Text, maxChars)
		out[i] = t
	}
	return out
}

// fitChars returns the newest suffix of turns (oldest first) whose total
// rune count fits maxChars, always as a new non-nil slice. When even the
// newest turn alone is longer than maxChars, it is returned truncated.
func fitChars(turns []Turn, maxChars int) []Turn {
	bytes := 0
	for _, t := range turns {
		bytes += len(t.Text)
	}
	if bytes <= maxChars { // a rune takes a byte at least: all fit, no need to count them
		return append(make([]Turn, 0, len(turns)), turns...)
	}
	total, start := 0, len(turns)
	for i := len(turns) - 1; i >= 0; i-- {
		n := utf8.RuneCountInString(turns[i].Text)
		if total+n > maxChars {
			break
		}
		total += n
		start = i
	}
	if start == len(turns) && len(turns) > 0 {
		last := turns[len(turns)-1]
		last.Text = ru.Truncate(last.Text, maxChars)
		return []Turn{last}
	}
	out := make([]Turn, len(turns)-start)
	copy(out, turns[start:])
	return out
}
