package history

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"
)

// Results keep what the buttons of an answer point at (the 1C result a choice, a drilldown or
// an export is bound to), each under its own key for a while. The value is opaque bytes: the
// caller encodes it and builds the key, which scopes it (to a chat) and must never contain
// user text.

// DefaultResultTTL is how long a result is kept when a results store is created with a
// non-positive ttl: a button older than that says it is stale.
const DefaultResultTTL = 48 * time.Hour

// DefaultResultsSize is the number of results a [MemoryResults] keeps when NewMemoryResults is
// given a non-positive size.
const DefaultResultsSize = 4096

// RedisResults keeps results in Redis, one STRING per key under prefix + "res:" + key, with a
// TTL. It is safe for concurrent use and across processes sharing the same Redis.
type RedisResults struct {
	rdb    redis.UniversalClient
	prefix string
	ttl    time.Duration
}

// NewRedisResults returns a results store backed by rdb whose entries expire after ttl
// (DefaultResultTTL when non-positive).
func NewRedisResults(rdb redis.UniversalClient, prefix string, ttl time.Duration) *RedisResults {
	if ttl <= 0 {
		ttl = DefaultResultTTL
	}
	return &RedisResults{rdb: rdb, prefix: prefix, ttl: ttl}
}

func (r *RedisResults) redisKey(key string) string { return r.prefix + "res:" + key }

// Put stores data under key for the TTL, replacing what was there.
func (r *RedisResults) Put(ctx context.Context, key string, data []byte) error {
	if err := r.rdb.Set(ctx, r.redisKey(key), data, r.ttl).Err(); err != nil {
		return fmt.Errorf("history: put result %q: %w: %w", key, ErrUnavailable, err)
	}
	return nil
}

// Get returns the data stored under key; ok is false when there is none (never stored, or
// expired).
func (r *RedisResults) Get(ctx context.Context, key string) (data []byte, ok bool, err error) {
	data, err = r.rdb.Get(ctx, r.redisKey(key)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("history: get result %q: %w: %w", key, ErrUnavailable, err)
	}
	return data, true, nil
}

// storedResult is one MemoryResults entry.
type storedResult struct {
	data    []byte
	expires time.Time
}

// MemoryResults is the in-process results store used when no Redis is configured: it behaves
// like [RedisResults] within one process, keeping at most a fixed number of entries (the least
// recently used goes first). Expiry is applied when an entry is read. It is safe for
// concurrent use.
type MemoryResults struct {
	// Now returns the current time; nil means time.Now. Tests may replace it before use.
	Now func() time.Time

	ttl   time.Duration
	mu    sync.Mutex
	cache *lru.Cache[string, storedResult]
}

// NewMemoryResults returns an in-process results store of at most size entries
// (DefaultResultsSize when non-positive), each kept for ttl (DefaultResultTTL when
// non-positive).
func NewMemoryResults(size int, ttl time.Duration) *MemoryResults {
	if size <= 0 {
		size = DefaultResultsSize
	}
	if ttl <= 0 {
		ttl = DefaultResultTTL
	}
	cache, err := lru.New[string, storedResult](size)
	if err != nil {
		panic("history: " + err.Error()) // unreachable: size is positive
	}
	return &MemoryResults{ttl: ttl, cache: cache}
}

func (m *MemoryResults) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Put stores a copy of data under key for the TTL, replacing what was there.
func (m *MemoryResults) Put(_ context.Context, key string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cache.Add(key, storedResult{data: append([]byte(nil), data...), expires: m.now().Add(m.ttl)})
	return nil
}

// Get returns a copy of the data stored under key; ok is false when there is none.
func (m *MemoryResults) Get(_ context.Context, key string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.cache.Get(key)
	if !ok {
		return nil, false, nil
	}
	if !m.now().Before(e.expires) {
		m.cache.Remove(key)
		return nil, false, nil
	}
	return append([]byte(nil), e.data...), true, nil
}
