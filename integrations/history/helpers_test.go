package history

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/internal/testredis"
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
	Extend(ctx context.Context, updateIDs []int64, lease time.Duration) error
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

// The shared test Redis (internal/testredis), by the names this package's tests use.
var (
	newRedisClient = testredis.Client
	testPrefix     = testredis.Prefix
)

// eachRedis runs test against the single test Redis and the test Redis Cluster, each in a
// subtest named after it (internal/testredis.Targets), handing it that Redis's client opener.
func eachRedis(t *testing.T, test func(t *testing.T, newRedisClient func(testing.TB) redis.UniversalClient)) {
	t.Helper()
	for _, target := range testredis.Targets() {
		t.Run(target.Name, func(t *testing.T) { test(t, target.Open) })
	}
}

// storeCase opens one kind of history store. For Redis, open skips the
// (sub)test when Redis is unavailable, so Memory cases still run.
type storeCase struct {
	name string
	open func(t *testing.T, l Limits) store
}

// stores returns the store cases: Redis on each test Redis (the single server and the
// cluster), and Memory.
func stores(t *testing.T) []storeCase {
	t.Helper()
	var cases []storeCase
	for _, target := range testredis.Targets() {
		cases = append(cases, storeCase{target.Name, func(t *testing.T, l Limits) store {
			rdb := target.Open(t)
			return NewRedis(rdb, testPrefix(t, rdb), l)
		}})
	}
	return append(cases, storeCase{"memory", func(t *testing.T, l Limits) store {
		return NewMemory(100, l)
	}})
}

// turn builds a Turn with a fixed, JSON-round-trippable timestamp.
func turn(role, text string, sec int) Turn {
	return Turn{Role: role, Text: text, At: time.Date(2025, 1, 1, 0, 0, sec, 0, time.UTC)}
}
