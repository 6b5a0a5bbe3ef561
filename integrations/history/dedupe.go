package history

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"
)

// DefaultDedupeTTL is how long an update_id is remembered when a dedupe is
// created with a non-positive ttl. Telegram keeps undelivered updates for 24
// hours, so a re-delivery cannot arrive later than that.
const DefaultDedupeTTL = 24 * time.Hour

// DefaultDedupeSize is the number of update_ids a [MemoryDedupe] remembers
// when NewMemoryDedupe is given a non-positive size.
const DefaultDedupeSize = 100000

// RedisDedupe remembers handled Telegram update_ids in Redis, under
// prefix + "upd:" + id, so a re-delivered update is never answered twice,
// even by another process.
type RedisDedupe struct {
	rdb    redis.UniversalClient
	prefix string
	ttl    time.Duration
}

// NewRedisDedupe returns a dedupe backed by rdb that remembers an update_id
// for ttl (DefaultDedupeTTL when <= 0).
func NewRedisDedupe(rdb redis.UniversalClient, prefix string, ttl time.Duration) *RedisDedupe {
	if ttl <= 0 {
		ttl = DefaultDedupeTTL
	}
	return &RedisDedupe{rdb: rdb, prefix: prefix, ttl: ttl}
}

// FirstSeen records updateID (SET key 1 NX with the TTL) and reports whether
// this call stored it, that is whether the update has not been seen before.
func (d *RedisDedupe) FirstSeen(ctx context.Context, updateID int64) (bool, error) {
	key := d.prefix + "upd:" + strconv.FormatInt(updateID, 10)
	stored, err := d.rdb.SetNX(ctx, key, 1, d.ttl).Result()
	if err != nil {
		return false, fmt.Errorf("history: first seen %d: %w: %w", updateID, ErrUnavailable, err)
	}
	return stored, nil
}

// MemoryDedupe remembers handled Telegram update_ids in process: at most a
// fixed number of ids (least recently used evicted first), each for a TTL
// applied lazily. It is safe for concurrent use.
type MemoryDedupe struct {
	// Now returns the current time; nil means time.Now. Tests may replace it
	// before the MemoryDedupe is used.
	Now func() time.Time

	ttl   time.Duration
	mu    sync.Mutex                   // makes check-and-store atomic
	cache *lru.Cache[int64, time.Time] // update_id → expiry
}

// NewMemoryDedupe returns an in-process dedupe remembering at most size ids
// (DefaultDedupeSize when <= 0), each for ttl (DefaultDedupeTTL when <= 0).
func NewMemoryDedupe(size int, ttl time.Duration) *MemoryDedupe {
	if size <= 0 {
		size = DefaultDedupeSize
	}
	if ttl <= 0 {
		ttl = DefaultDedupeTTL
	}
	cache, err := lru.New[int64, time.Time](size)
	if err != nil {
		panic("history: " + err.Error()) // unreachable: size is positive
	}
	return &MemoryDedupe{ttl: ttl, cache: cache}
}

// FirstSeen records updateID and reports whether this call stored it, that
// is whether the update has not been seen within the TTL. It never fails.
func (d *MemoryDedupe) FirstSeen(_ context.Context, updateID int64) (bool, error) {
	now := time.Now
	if d.Now != nil {
		now = d.Now
	}
	t := now()
	d.mu.Lock()
	defer d.mu.Unlock()
	if expires, ok := d.cache.Get(updateID); ok && t.Before(expires) {
		return false, nil
	}
	d.cache.Add(updateID, t.Add(d.ttl))
	return true, nil
}
