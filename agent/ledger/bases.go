package ledger

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/history"
)

// Base is one 1C base the skill may ask: a channel of the 1C proxy, with its own infobase and
// 1C user, so that 1C's own rights apply to what it answers, and the Telegram users and chats it
// is open to. The ledger access lists are checked before any of this (Options.LedgerAccess).
type Base struct {
	ID     string // the proxy channel; a /base button carries it
	Title  string // what users see: «ООО Северный ветер — бухгалтерия»
	Runner Runner
	// Users may use the base in their private chat with the bot; Chats, everyone in them (in a
	// group only the chat's mapping counts: everyone there reads the answer).
	Users, Chats []int64
	// All opens the base to everyone the access lists let through.
	All bool
}

// open reports whether the base is open to userID in chatID (negative: a group).
func (b Base) open(userID, chatID int64) bool {
	if b.All || slices.Contains(b.Chats, chatID) {
		return true
	}
	return chatID > 0 && slices.Contains(b.Users, userID)
}

// Bases are the 1C bases of an installation, and which one answers whom: the one a user chose
// in a chat (/base), kept in Choices so that it survives restarts, else the first one open to
// them. It is safe for concurrent use.
type Bases struct {
	list    []Base
	choices Results
	timeout time.Duration
	log     *slog.Logger
	// open: every base is open to everyone (the console, whose operator holds the
	// configuration).
	open bool
}

// BasesOptions tune Bases.
type BasesOptions struct {
	// Choices keep each user's choice per chat; nil = in this process only, for a while.
	Choices Results
	// Timeout bounds each read and write of Choices (default 2s).
	Timeout time.Duration
	Logger  *slog.Logger
	// Open makes every base open to everyone (the console).
	Open bool
}

// ErrNotYours: the base named is not one of the requester's (a forged or outdated button, a
// typo). Choose returns it and keeps nothing.
var ErrNotYours = errors.New("ledger: the 1C base is not open to this user")

// NewBases checks the list: at least one base, ids unique, every runner set.
func NewBases(list []Base, o BasesOptions) (*Bases, error) {
	if len(list) == 0 {
		return nil, errors.New("ledger: no 1C base")
	}
	for i, b := range list {
		if b.Runner == nil || b.ID == "" {
			return nil, fmt.Errorf("ledger: 1C base %d has no id or no runner", i+1)
		}
		if slices.ContainsFunc(list[:i], func(o Base) bool { return o.ID == b.ID }) {
			return nil, fmt.Errorf("ledger: 1C base %q listed twice", b.ID)
		}
	}
	if o.Timeout <= 0 {
		o.Timeout = defaultHistoryTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Choices == nil {
		o.Choices = history.NewMemoryResults(0, 0)
	}
	return &Bases{list: slices.Clone(list), choices: o.Choices, timeout: o.Timeout, log: o.Logger, open: o.Open}, nil
}

// OneBase is the single base of an installation without channels: r, open to everyone the
// access lists let through.
func OneBase(r Runner) *Bases {
	b, _ := NewBases([]Base{{ID: "default", Runner: r, All: true}}, BasesOptions{})
	return b
}

// Several reports whether there is more than one base to choose from.
func (b *Bases) Several() bool { return len(b.list) > 1 }

// List is every base, in the configured order.
func (b *Bases) List() []Base { return slices.Clone(b.list) }

// Allowed are the bases open to userID in chatID, in the configured order.
func (b *Bases) Allowed(userID, chatID int64) []Base {
	var out []Base
	for _, x := range b.list {
		if b.open || x.open(userID, chatID) {
			out = append(out, x)
		}
	}
	return out
}

// choiceKey is where a user's choice in a chat is kept.
func choiceKey(userID, chatID int64) string {
	return fmt.Sprintf("base:chat:%d:user:%d", chatID, userID)
}

// For is the base that answers userID in chatID: the one they chose, while it is still open to
// them, else the first one that is; false when none is. A store that fails costs the choice,
// not the answer (the first open base answers, and its footnote names it).
func (b *Bases) For(ctx context.Context, userID, chatID int64) (Base, bool) {
	allowed := b.Allowed(userID, chatID)
	if len(allowed) == 0 {
		return Base{}, false
	}
	if len(allowed) == 1 {
		return allowed[0], true
	}
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	data, ok, err := b.choices.Get(sctx, choiceKey(userID, chatID))
	cancel()
	if err != nil && ctx.Err() == nil {
		b.log.WarnContext(ctx, "1C base choice unavailable; the first base answers", "chat_id", chatID, "err", err)
	}
	if i := slices.IndexFunc(allowed, func(x Base) bool { return x.ID == string(data) }); ok && i >= 0 {
		return allowed[i], true
	}
	return allowed[0], true
}

// Choose keeps base id as the one that answers userID in chatID. A base not open to them is
// ErrNotYours, and nothing is kept.
func (b *Bases) Choose(ctx context.Context, userID, chatID int64, id string) (Base, error) {
	allowed := b.Allowed(userID, chatID)
	i := slices.IndexFunc(allowed, func(x Base) bool { return x.ID == id })
	if i < 0 {
		return Base{}, ErrNotYours
	}
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	if err := b.choices.Put(sctx, choiceKey(userID, chatID), []byte(id)); err != nil {
		return Base{}, fmt.Errorf("keep the 1C base choice: %w", err)
	}
	return allowed[i], nil
}

// named is the base of allowed whose id or title is name (case-insensitive); false for none.
func named(allowed []Base, name string) (Base, bool) {
	name = strings.TrimSpace(name)
	for _, x := range allowed {
		if strings.EqualFold(x.ID, name) || strings.EqualFold(x.Title, name) {
			return x, true
		}
	}
	return Base{}, false
}
