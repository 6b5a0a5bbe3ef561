package history

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/internal/testredis"
)

type dedupeCase struct {
	name string
	open func(t *testing.T, ttl time.Duration) dedupe
}

// dedupes returns the dedupe cases: Redis on each test Redis (the single server and the
// cluster), and Memory.
func dedupes() []dedupeCase {
	var cases []dedupeCase
	for _, target := range testredis.Targets() {
		cases = append(cases, dedupeCase{target.Name, func(t *testing.T, ttl time.Duration) dedupe {
			rdb := target.Open(t)
			return NewRedisDedupe(rdb, testPrefix(t, rdb), ttl)
		}})
	}
	return append(cases, dedupeCase{"memory", func(t *testing.T, ttl time.Duration) dedupe {
		return NewMemoryDedupe(100, ttl)
	}})
}

// claimResult is what Claim returned, in a comparable form: wait is only told apart as zero
// ("drop it") or positive ("another instance holds it").
type claimResult struct {
	ok      bool
	waiting bool
}

func claim(t *testing.T, d dedupe, id int64, lease time.Duration) claimResult {
	t.Helper()
	ok, wait, err := d.Claim(t.Context(), id, lease)
	if err != nil {
		t.Fatalf("Claim(%d): %v", id, err)
	}
	if wait < 0 || (ok && wait != 0) {
		t.Fatalf("Claim(%d) = %v, %v: want ok with no wait, or a wait >= 0", id, ok, wait)
	}
	return claimResult{ok: ok, waiting: wait > 0}
}

var (
	claimed = claimResult{ok: true}
	drop    = claimResult{}
	waiting = claimResult{waiting: true}
)

// TestDedupeStates walks one instance through every state: claimed, done, released.
func TestDedupeStates(t *testing.T) {
	steps := []struct {
		do   string // "claim", "done" or "release"
		id   int64
		want claimResult // for "claim"
	}{
		{"claim", 42, claimed},
		{"claim", 42, drop}, // being answered here
		{"claim", 43, claimed},
		{"done", 42, drop},
		{"claim", 42, drop}, // answered
		{"release", 43, drop},
		{"claim", 43, claimed}, // released: the next delivery is answered
		{"done", 43, drop},
		{"release", 43, drop}, // releasing an answered update changes nothing
		{"claim", 43, drop},
		{"claim", -1, claimed},
		{"release", 1000, drop}, // unknown: nothing to do
		{"claim", 1000, claimed},
	}
	for _, dc := range dedupes() {
		t.Run(dc.name, func(t *testing.T) {
			d := dc.open(t, time.Minute)
			for i, s := range steps {
				switch s.do {
				case "claim":
					if got := claim(t, d, s.id, time.Minute); got != s.want {
						t.Errorf("step %d: Claim(%d) = %+v, want %+v", i, s.id, got, s.want)
					}
				case "done":
					if err := d.Done(t.Context(), s.id); err != nil {
						t.Fatalf("step %d: Done(%d): %v", i, s.id, err)
					}
				case "release":
					if err := d.Release(t.Context(), s.id); err != nil {
						t.Fatalf("step %d: Release(%d): %v", i, s.id, err)
					}
				}
			}
		})
	}
}

func TestDedupeConcurrent(t *testing.T) {
	for _, dc := range dedupes() {
		t.Run(dc.name, func(t *testing.T) {
			d := dc.open(t, time.Minute)
			var wg sync.WaitGroup
			var firsts atomic.Int32
			for range 20 {
				wg.Go(func() {
					ok, _, err := d.Claim(t.Context(), 7, time.Minute)
					if err != nil {
						t.Errorf("Claim: %v", err)
					}
					if ok {
						firsts.Add(1)
					}
				})
			}
			wg.Wait()
			if n := firsts.Load(); n != 1 {
				t.Errorf("%d goroutines claimed the update, want exactly 1", n)
			}
		})
	}
}

// Two processes sharing one Redis: a live claim of the other makes Claim wait, never answer;
// Done makes it drop; a lapsed claim (its process died) makes the update claimable again.
func TestRedisDedupeInstances(t *testing.T) { eachRedis(t, testRedisDedupeInstances) }

func testRedisDedupeInstances(t *testing.T, newRedisClient func(testing.TB) redis.UniversalClient) {
	rdb := newRedisClient(t)
	prefix := testPrefix(t, rdb)
	a, b := NewRedisDedupe(rdb, prefix, time.Minute), NewRedisDedupe(rdb, prefix, time.Minute)
	const lease = time.Minute

	if got := claim(t, a, 1, lease); got != claimed {
		t.Fatalf("A: Claim(1) = %+v, want claimed", got)
	}
	_, wait, err := b.Claim(t.Context(), 1, lease)
	if err != nil || wait <= 0 || wait > lease {
		t.Errorf("B: Claim(1) while A holds it: wait %v, err %v; want a wait in (0, %v]", wait, err, lease)
	}
	if err := b.Release(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	if got := claim(t, b, 1, lease); got != waiting {
		t.Errorf("B: Claim(1) after B released A's claim = %+v, want still waiting (only the owner releases)", got)
	}
	if err := a.Done(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	if got := claim(t, b, 1, lease); got != drop {
		t.Errorf("B: Claim(1) after A's Done = %+v, want drop", got)
	}

	// A "crashes" holding update 2 with a short lease; B takes it once the lease lapses.
	// start is taken before A's claim: the lease cannot have run longer than time.Since(start),
	// however long the round trips take on a loaded machine.
	start := time.Now()
	if got := claim(t, a, 2, 150*time.Millisecond); got != claimed {
		t.Fatalf("A: Claim(2) = %+v", got)
	}
	for {
		got := claim(t, b, 2, lease)
		if got == claimed {
			break
		}
		if got != waiting {
			t.Fatalf("B: Claim(2) while A's lease runs = %+v, want waiting", got)
		}
		if time.Since(start) > 30*time.Second { // a generous ceiling, not a timing assertion
			t.Fatal("A's lapsed claim never became claimable")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if elapsed := time.Since(start); elapsed < 100*time.Millisecond {
		t.Errorf("B took the update after %v, before A's 150ms lease could lapse", elapsed)
	}
	if got := claim(t, a, 2, lease); got != waiting {
		t.Errorf("A: Claim(2) after B took it = %+v, want waiting", got)
	}
}

func TestRedisDedupeTTLs(t *testing.T) { eachRedis(t, testRedisDedupeTTLs) }

func testRedisDedupeTTLs(t *testing.T, newRedisClient func(testing.TB) redis.UniversalClient) {
	rdb := newRedisClient(t)
	prefix := testPrefix(t, rdb)
	const ttl, lease = 90 * time.Second, 20 * time.Second
	d := NewRedisDedupe(rdb, prefix, ttl)
	if got := claim(t, d, 42, lease); got != claimed {
		t.Fatalf("Claim = %+v", got)
	}
	if got, err := rdb.PTTL(t.Context(), prefix+"upd:42").Result(); err != nil || got <= 0 || got > lease {
		t.Errorf("claim PTTL = %v, %v; want in (0, %v]", got, err, lease)
	}
	if err := d.Done(t.Context(), 42); err != nil {
		t.Fatal(err)
	}
	if got, err := rdb.TTL(t.Context(), prefix+"upd:42").Result(); err != nil || got <= lease || got > ttl {
		t.Errorf("done TTL = %v, %v; want in (%v, %v]", got, err, lease, ttl)
	}
	if got := rdb.Get(t.Context(), prefix+"upd:42").Val(); got != "done" {
		t.Errorf("done value = %q", got)
	}
}

// Keys written by the previous version ("1" for "seen") count as answered during a rolling
// deploy, and the claim script survives a Redis restart (which empties the script cache).
func TestRedisDedupeCompatibility(t *testing.T) { eachRedis(t, testRedisDedupeCompatibility) }

func testRedisDedupeCompatibility(t *testing.T, newRedisClient func(testing.TB) redis.UniversalClient) {
	rdb := newRedisClient(t)
	prefix := testPrefix(t, rdb)
	d := NewRedisDedupe(rdb, prefix, time.Minute)
	if err := rdb.Set(t.Context(), prefix+"upd:5", 1, time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if got := claim(t, d, 5, time.Minute); got != drop {
		t.Errorf("Claim of an update seen by the old version = %+v, want drop", got)
	}
	if err := rdb.ScriptFlush(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
	if got := claim(t, d, 6, time.Minute); got != claimed {
		t.Errorf("Claim after SCRIPT FLUSH = %+v, want claimed", got)
	}
	if err := rdb.ScriptFlush(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
	if err := d.Release(t.Context(), 6); err != nil {
		t.Errorf("Release after SCRIPT FLUSH: %v", err)
	}
}

func TestMemoryDedupeLeaseAndTTL(t *testing.T) {
	const ttl, lease = time.Hour, time.Minute
	clock := newFakeClock()
	d := NewMemoryDedupe(10, ttl)
	d.Now = clock.Now
	check := func(want claimResult) {
		t.Helper()
		if got := claim(t, d, 42, lease); got != want {
			t.Fatalf("Claim(42) = %+v; want %+v", got, want)
		}
	}
	check(claimed)
	clock.Advance(lease - time.Second)
	check(drop) // still claimed; does not extend the lease
	clock.Advance(time.Second)
	check(claimed) // the lease lapsed: claimable again
	if err := d.Done(context.Background(), 42); err != nil {
		t.Fatal(err)
	}
	clock.Advance(ttl - time.Second)
	check(drop) // answered
	clock.Advance(time.Second)
	check(claimed) // forgotten after the TTL
}

func TestDedupeDefaults(t *testing.T) {
	if d := NewMemoryDedupe(0, 0); d.ttl != DefaultDedupeTTL || d.cache == nil {
		t.Errorf("NewMemoryDedupe(0, 0): ttl %v, want %v", d.ttl, DefaultDedupeTTL)
	}
	if d := NewRedisDedupe(nil, "", -1); d.ttl != DefaultDedupeTTL {
		t.Errorf("NewRedisDedupe ttl %v, want %v", d.ttl, DefaultDedupeTTL)
	}
	clock := newFakeClock()
	d := NewMemoryDedupe(10, time.Hour)
	d.Now = clock.Now
	if ok, _, _ := d.Claim(t.Context(), 1, 0); !ok {
		t.Fatal("Claim with the default lease failed")
	}
	clock.Advance(DefaultDedupeLease - time.Second)
	if ok, _, _ := d.Claim(t.Context(), 1, 0); ok {
		t.Errorf("claim with lease 0 lapsed before DefaultDedupeLease (%v)", DefaultDedupeLease)
	}
	a, b := NewRedisDedupe(nil, "", 0), NewRedisDedupe(nil, "", 0)
	if a.claim == b.claim {
		t.Errorf("two dedupes share the claim value %q", a.claim)
	}
}
