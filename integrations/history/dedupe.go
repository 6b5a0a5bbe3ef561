package history

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"
)

// Update de-duplication.
//
// Telegram delivers an update at least once. It delivers it again when a webhook call did not
// answer 2xx, and to the next getUpdates when the offset that confirms it never reached Telegram
// (the process stopped between receiving a batch and its next poll). So a dedupe cannot simply
// remember "seen": an update seen by a process that then died must be answered by the next one.
// It keeps one of three states per update_id instead:
//
//   - none: never seen, released by a process that stopped before answering it, or claimed by
//     one whose lease ran out (it died). The next Claim takes it.
//   - claimed ("processing:<instance>"): one process is answering it. The claim lapses after the
//     lease the claimer asked for, so the updates of a crashed process become claimable again.
//   - done ("done"): answered. Remembered for the TTL; Telegram never re-delivers anything older
//     than 24 hours.
//
// Claim reports which one it found: ok (the caller answers the update), wait == 0 (answered, or
// being answered by this very instance: drop it), or wait > 0 (another instance claimed it, for
// that much longer). In the last case the caller waits and claims again: by then the update is
// done (drop it) or the claim has lapsed (answer it). Dropping it at once would lose it when the
// claimer has crashed, since Telegram counts it as delivered once the caller polls again.

// DefaultDedupeTTL is how long an answered update_id is remembered when a dedupe is created with
// a non-positive ttl. Telegram keeps undelivered updates for 24 hours, so a re-delivery cannot
// arrive later than that.
const DefaultDedupeTTL = 24 * time.Hour

// DefaultDedupeLease is the lease of a claim when Claim is given a non-positive one.
const DefaultDedupeLease = 2 * time.Minute

// DefaultDedupeSize is the number of update_ids a [MemoryDedupe] remembers when NewMemoryDedupe
// is given a non-positive size.
const DefaultDedupeSize = 100000

const (
	claimedPrefix = "processing:"
	doneValue     = "done"
)

// claimScript takes an update's key for this instance unless it holds a claim or "done". It
// returns -1 when it took the key; 0 when the key is done, claimed by this instance, or holds a
// value of an older version ("1", which meant "seen"); otherwise the milliseconds left on another
// instance's claim.
var claimScript = redis.NewScript(`
local v = redis.call("GET", KEYS[1])
if not v then
	redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
	return -1
end
if v == ARGV[1] or string.sub(v, 1, #ARGV[3]) ~= ARGV[3] then
	return 0
end
local left = redis.call("PTTL", KEYS[1])
if left < 1 then
	left = tonumber(ARGV[2])
end
return left
`)

// releaseScript deletes an update's key if it still holds this instance's claim.
var releaseScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0
`)

// extendSrc renews an update's claim for ARGV[2] ms if it still holds this instance's claim.
// It is sent with EVAL in a pipeline (one round trip for every claim a replica holds), where
// a script's EVALSHA could not fall back on NOSCRIPT.
const extendSrc = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0
`

// RedisDedupe keeps the state of Telegram updates in Redis, under prefix + "upd:" + id, so that
// every process sharing the Redis answers an update once. Each RedisDedupe is one instance: its
// claims carry a random instance id.
type RedisDedupe struct {
	rdb    redis.UniversalClient
	prefix string
	ttl    time.Duration
	claim  string // "processing:<instance>"
}

// NewRedisDedupe returns a dedupe backed by rdb that remembers an answered update_id for ttl
// (DefaultDedupeTTL when <= 0).
func NewRedisDedupe(rdb redis.UniversalClient, prefix string, ttl time.Duration) *RedisDedupe {
	if ttl <= 0 {
		ttl = DefaultDedupeTTL
	}
	return &RedisDedupe{rdb: rdb, prefix: prefix, ttl: ttl, claim: claimedPrefix + instanceID()}
}

// instanceID names this process in its claims: host and pid for whoever reads Redis, and random
// bytes so that two dedupes in one process (or a restarted pid) never share claims.
func instanceID() string {
	host, _ := os.Hostname()
	b := make([]byte, 6)
	rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b))
}

func (d *RedisDedupe) key(updateID int64) string {
	return d.prefix + "upd:" + strconv.FormatInt(updateID, 10)
}

// Claim takes updateID for this instance for lease (DefaultDedupeLease when <= 0). ok means the
// caller answers the update. Otherwise wait is zero when the update is answered or already being
// answered by this instance, and how long another instance's claim still holds when it has one.
func (d *RedisDedupe) Claim(ctx context.Context, updateID int64, lease time.Duration) (ok bool, wait time.Duration, err error) {
	if lease <= 0 {
		lease = DefaultDedupeLease
	}
	ms := max(lease.Milliseconds(), 1)
	res, err := claimScript.Run(ctx, d.rdb, []string{d.key(updateID)}, d.claim, ms, claimedPrefix).Int64()
	if err != nil {
		return false, 0, fmt.Errorf("history: claim update %d: %w: %w", updateID, ErrUnavailable, err)
	}
	if res < 0 {
		return true, 0, nil
	}
	return false, time.Duration(res) * time.Millisecond, nil
}

// Done marks updateID answered, for the TTL. It overwrites any claim: the answer is out.
func (d *RedisDedupe) Done(ctx context.Context, updateID int64) error {
	if err := d.rdb.Set(ctx, d.key(updateID), doneValue, d.ttl).Err(); err != nil {
		return fmt.Errorf("history: mark update %d done: %w: %w", updateID, ErrUnavailable, err)
	}
	return nil
}

// Release gives up this instance's claim on updateID, so that the next delivery of the update is
// answered at once. It does nothing when the update is done or claimed by another instance.
func (d *RedisDedupe) Release(ctx context.Context, updateID int64) error {
	if err := releaseScript.Run(ctx, d.rdb, []string{d.key(updateID)}, d.claim).Err(); err != nil {
		return fmt.Errorf("history: release update %d: %w: %w", updateID, ErrUnavailable, err)
	}
	return nil
}

// Extend renews this instance's claims on updateIDs for lease (DefaultDedupeLease when <= 0),
// so that an answer that takes longer than one lease is not taken over by another instance. A
// claim that is done, released or another instance's is left alone.
func (d *RedisDedupe) Extend(ctx context.Context, updateIDs []int64, lease time.Duration) error {
	if len(updateIDs) == 0 {
		return nil
	}
	if lease <= 0 {
		lease = DefaultDedupeLease
	}
	ms := max(lease.Milliseconds(), 1)
	_, err := d.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range updateIDs {
			p.Eval(ctx, extendSrc, []string{d.key(id)}, d.claim, ms)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("history: extend %d claims: %w: %w", len(updateIDs), ErrUnavailable, err)
	}
	return nil
}

// MemoryDedupe keeps the state of Telegram updates in process: at most a fixed number of ids
// (least recently used evicted first), each until its lease or TTL ends (applied lazily). The
// process is the only instance, so every live claim is its own. It is safe for concurrent use.
type MemoryDedupe struct {
	// Now returns the current time; nil means time.Now. Tests may replace it
	// before the MemoryDedupe is used.
	Now func() time.Time

	ttl   time.Duration
	mu    sync.Mutex // makes check-and-store atomic
	cache *lru.Cache[int64, memoryState]
}

// memoryState is one update's state: claimed until expires, or done until expires.
type memoryState struct {
	done    bool
	expires time.Time
}

// NewMemoryDedupe returns an in-process dedupe remembering at most size ids (DefaultDedupeSize
// when <= 0), each answered one for ttl (DefaultDedupeTTL when <= 0).
func NewMemoryDedupe(size int, ttl time.Duration) *MemoryDedupe {
	if size <= 0 {
		size = DefaultDedupeSize
	}
	if ttl <= 0 {
		ttl = DefaultDedupeTTL
	}
	cache, err := lru.New[int64, memoryState](size)
	if err != nil {
		panic("history: " + err.Error()) // unreachable: size is positive
	}
	return &MemoryDedupe{ttl: ttl, cache: cache}
}

func (d *MemoryDedupe) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// Claim takes updateID for lease (DefaultDedupeLease when <= 0) unless it is answered or claimed
// and the claim has not lapsed; wait is always zero. It never fails.
func (d *MemoryDedupe) Claim(_ context.Context, updateID int64, lease time.Duration) (ok bool, wait time.Duration, err error) {
	if lease <= 0 {
		lease = DefaultDedupeLease
	}
	t := d.now()
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, found := d.cache.Get(updateID); found && t.Before(s.expires) {
		return false, 0, nil
	}
	d.cache.Add(updateID, memoryState{expires: t.Add(lease)})
	return true, 0, nil
}

// Done marks updateID answered, for the TTL. It never fails.
func (d *MemoryDedupe) Done(_ context.Context, updateID int64) error {
	t := d.now()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cache.Add(updateID, memoryState{done: true, expires: t.Add(d.ttl)})
	return nil
}

// Extend renews the claims on updateIDs for lease (DefaultDedupeLease when <= 0); answered
// updates stay answered. It never fails.
func (d *MemoryDedupe) Extend(_ context.Context, updateIDs []int64, lease time.Duration) error {
	if lease <= 0 {
		lease = DefaultDedupeLease
	}
	t := d.now()
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, id := range updateIDs {
		if s, found := d.cache.Peek(id); found && !s.done {
			d.cache.Add(id, memoryState{expires: t.Add(lease)})
		}
	}
	return nil
}

// Release forgets a claim on updateID; an answered update stays answered. It never fails.
func (d *MemoryDedupe) Release(_ context.Context, updateID int64) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, found := d.cache.Peek(updateID); found && !s.done {
		d.cache.Remove(updateID)
	}
	return nil
}
