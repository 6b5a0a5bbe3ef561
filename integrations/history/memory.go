package history

import (
	"context"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// DefaultMaxConversations is the number of conversations a [Memory] keeps
// when NewMemory is given a non-positive size.
const DefaultMaxConversations = 10000

// conversation is the Memory state of one dialog.
type conversation struct {
	turns   []Turn    // oldest first, at most MaxTurns, owned by Memory
	expires time.Time // idle expiry, refreshed by Append
}

// Memory is the in-process history store used when no Redis is configured.
// Within one process it behaves like [Redis]; the number of conversations is
// bounded, the least recently used one being evicted first. Expiry is applied
// lazily when a conversation is read. It is safe for concurrent use.
type Memory struct {
	// Now returns the current time; nil means time.Now. Tests may replace it
	// before the Memory is used.
	Now func() time.Time

	limits Limits
	mu     sync.Mutex // serialises read-modify-write of conversations
	cache  *lru.Cache[string, *conversation]
}

// NewMemory returns an in-process history store holding at most
// maxConversations conversations (DefaultMaxConversations when <= 0). Zero
// fields of l take their defaults.
func NewMemory(maxConversations int, l Limits) *Memory {
	if maxConversations <= 0 {
		maxConversations = DefaultMaxConversations
	}
	cache, err := lru.New[string, *conversation](maxConversations)
	if err != nil {
		panic("history: " + err.Error()) // unreachable: size is positive
	}
	return &Memory{limits: l.withDefaults(), cache: cache}
}

// now returns the current time of m's clock.
func (m *Memory) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// live returns the unexpired conversation of key, removing an expired one.
// m.mu must be held.
func (m *Memory) live(key string, now time.Time) (*conversation, bool) {
	c, ok := m.cache.Get(key)
	if !ok {
		return nil, false
	}
	if !now.Before(c.expires) {
		m.cache.Remove(key)
		return nil, false
	}
	return c, true
}

// Load returns the turns of conversation key, oldest first, with the same
// limits as [Redis.Load]. An unknown or expired key yields an empty slice and
// a nil error.
func (m *Memory) Load(_ context.Context, key string) ([]Turn, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.live(key, m.now())
	if !ok {
		return []Turn{}, nil
	}
	return fitChars(c.turns, m.limits.MaxChars), nil // fitChars copies
}

// Append adds turns to the end of conversation key, keeps the MaxTurns newest
// and refreshes the TTL. Texts longer than MaxChars are stored truncated.
// Appending no turns is a no-op.
func (m *Memory) Append(_ context.Context, key string, turns ...Turn) error {
	if len(turns) == 0 {
		return nil
	}
	turns = truncateTurns(turns, m.limits.MaxChars)
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	c, ok := m.live(key, now)
	if !ok {
		c = &conversation{}
		m.cache.Add(key, c)
	}
	all := append(c.turns, turns...)
	if extra := len(all) - m.limits.MaxTurns; extra > 0 {
		n := copy(all, all[extra:])
		clear(all[n:])
		all = all[:n]
	}
	c.turns = all
	c.expires = now.Add(m.limits.TTL)
	return nil
}

// Reset deletes conversation key. Resetting an unknown key is not an error.
func (m *Memory) Reset(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cache.Remove(key)
	return nil
}

// Ping always succeeds: the memory store is always available.
func (m *Memory) Ping(context.Context) error {
	return nil
}
