package history

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// store is the behaviour shared by Redis and Memory.
type store interface {
	Load(ctx context.Context, key string) ([]Turn, error)
	Append(ctx context.Context, key string, turns ...Turn) error
	Reset(ctx context.Context, key string) error
	Ping(ctx context.Context) error
}

// dedupe is the behaviour shared by RedisDedupe and MemoryDedupe.
type dedupe interface {
	Claim(ctx context.Context, updateID int64, lease time.Duration) (ok bool, wait time.Duration, err error)
	Done(ctx context.Context, updateID int64) error
	Release(ctx context.Context, updateID int64) error
}

var (
	_ store  = (*Redis)(nil)
	_ store  = (*Memory)(nil)
	_ dedupe = (*RedisDedupe)(nil)
	_ dedupe = (*MemoryDedupe)(nil)
)

// fakeClock is an injectable clock for Memory and MemoryDedupe.
type fakeClock struct{ t time.Time }

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

// redisURL returns REDIS_URL or the local default.
func redisURL() string {
	if url := os.Getenv("REDIS_URL"); url != "" {
		return url
	}
	return "redis://127.0.0.1:6379/0"
}

// redisProbe pings Redis once per test binary, so that a missing server
// costs one timeout rather than one per test.
var redisProbe = sync.OnceValue(func() error {
	opt, err := redis.ParseURL(redisURL())
	if err != nil {
		return err
	}
	opt.ContextTimeoutEnabled = true
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return rdb.Ping(ctx).Err()
})

// newRedisClient connects to REDIS_URL (default redis://127.0.0.1:6379/0).
// When Redis does not answer PING the test is skipped, or fails when
// FINBOT_REQUIRE_REDIS=1.
func newRedisClient(tb testing.TB) *redis.Client {
	tb.Helper()
	url := redisURL()
	opt, err := redis.ParseURL(url)
	if err != nil {
		tb.Fatalf("parse REDIS_URL %q: %v", url, err)
	}
	opt.ContextTimeoutEnabled = true
	if err := redisProbe(); err != nil {
		if os.Getenv("FINBOT_REQUIRE_REDIS") == "1" {
			tb.Fatalf("redis at %s unavailable and FINBOT_REQUIRE_REDIS=1: %v", opt.Addr, err)
		}
		tb.Skipf("redis at %s unavailable (set REDIS_URL, or FINBOT_REQUIRE_REDIS=1 to fail instead): %v", opt.Addr, err)
	}
	rdb := redis.NewClient(opt)
	tb.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// testPrefix returns a unique key prefix and deletes every key under it when
// the test ends.
func testPrefix(tb testing.TB, rdb redis.UniversalClient) string {
	tb.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	prefix := "test:" + hex.EncodeToString(b) + ":"
	tb.Cleanup(func() {
		// t.Context() is already cancelled during cleanup.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		iter := rdb.Scan(ctx, 0, prefix+"*", 100).Iterator()
		var keys []string
		for iter.Next(ctx) {
			keys = append(keys, iter.Val())
		}
		if err := iter.Err(); err != nil {
			tb.Errorf("cleanup: scan %s*: %v", prefix, err)
			return
		}
		if len(keys) > 0 {
			if err := rdb.Del(ctx, keys...).Err(); err != nil {
				tb.Errorf("cleanup: del: %v", err)
			}
		}
	})
	return prefix
}

// storeCase opens one kind of history store. For Redis, open skips the
// (sub)test when Redis is unavailable, so Memory cases still run.
type storeCase struct {
	name string
	open func(t *testing.T, l Limits) store
}

// stores returns the Redis and the Memory store cases.
func stores(t *testing.T) []storeCase {
	t.Helper()
	return []storeCase{
		{"redis", func(t *testing.T, l Limits) store {
			rdb := newRedisClient(t)
			return NewRedis(rdb, testPrefix(t, rdb), l)
		}},
		{"memory", func(t *testing.T, l Limits) store {
			return NewMemory(100, l)
		}},
	}
}

// turn builds a Turn with a fixed, JSON-round-trippable timestamp.
func turn(role, text string, sec int) Turn {
	return Turn{Role: role, Text: text, At: time.Date(2025, 1, 1, 0, 0, sec, 0, time.UTC)}
}
