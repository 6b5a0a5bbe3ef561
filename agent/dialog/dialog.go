// Package dialog keeps the conversations the agent answers in: one per private chat, one per
// (chat, user) in groups, so that colleagues in a group do not share a dialog. Every read and
// write is bounded, so that an unreachable store costs an answer its context, not its
// promptness, and never the answer itself.
package dialog

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/history"
)

// Store keeps dialogs. *history.Redis and *history.Memory satisfy it.
type Store interface {
	Load(ctx context.Context, key string) ([]history.Turn, error)
	Append(ctx context.Context, key string, turns ...history.Turn) error
	Reset(ctx context.Context, key string) error
}

// The roles of a dialog's turns.
const (
	User      = "user"
	Assistant = "assistant"
)

// What went wrong without stopping an answer, as the debug payload names it.
const (
	Unavailable = "history_unavailable" // the dialog could not be read: answered without it
	NotSaved    = "history_not_saved"   // the turn could not be kept
)

// Key is the store key of a conversation.
func Key(chatID, userID int64, group bool) string {
	if group {
		return fmt.Sprintf("chat:%d:user:%d", chatID, userID)
	}
	return fmt.Sprintf("chat:%d", chatID)
}

// Keeper reads and writes dialogs under a deadline.
type Keeper struct {
	Store   Store
	Timeout time.Duration // of each read and write
	Log     *slog.Logger
}

// Load is the dialog under key, oldest first. A store that fails is logged and the dialog read
// as empty, with degraded set to Unavailable; only ctx's end is an error.
func (k Keeper) Load(ctx context.Context, key string) (turns []history.Turn, degraded string, err error) {
	lctx, cancel := context.WithTimeout(ctx, k.Timeout)
	defer cancel()
	turns, err = k.Store.Load(lctx, key)
	switch {
	case err == nil:
		return turns, "", nil
	case ctx.Err() != nil:
		return nil, "", ctx.Err()
	}
	k.Log.WarnContext(ctx, "history load failed", "key", key, "err", err)
	return nil, Unavailable, nil
}

// Save appends a question and its answer to the dialog under key. A store that fails is logged,
// with degraded set to NotSaved; only ctx's end is an error.
func (k Keeper) Save(ctx context.Context, key string, question, answer history.Turn) (degraded string, err error) {
	sctx, cancel := context.WithTimeout(ctx, k.Timeout)
	defer cancel()
	if err := k.Store.Append(sctx, key, question, answer); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		k.Log.WarnContext(ctx, "history append failed", "key", key, "err", err)
		return NotSaved, nil
	}
	return "", nil
}

// Question is how a message is remembered: commands keep their slash, so that a follow-up reads
// naturally ("/rate EUR", then "а в юанях?").
func Question(command, text string, at time.Time) history.Turn {
	if command != "" {
		text = strings.TrimSpace("/" + command + " " + text)
	}
	return history.Turn{Role: User, Text: text, At: at}
}
