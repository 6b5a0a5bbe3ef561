package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/internal/testnet"
)

func TestLimitsDefaults(t *testing.T) {
	got := Limits{MaxTurns: -1}.withDefaults()
	want := Limits{MaxTurns: DefaultMaxTurns, MaxChars: DefaultMaxChars, TTL: DefaultTTL}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("withDefaults (-want +got):\n%s", diff)
	}
}

// TestStoreBehaviour runs the same behavioural table against Redis and Memory.
func TestStoreBehaviour(t *testing.T) {
	u1, a1 := turn("user", "hi", 1), turn("assistant", "hello", 2)
	u2, a2 := turn("user", "how are you", 3), turn("assistant", "fine", 4)
	huge := turn("assistant", strings.Repeat("x", 50), 5)

	tests := []struct {
		name   string
		limits Limits
		// run performs operations on key and returns what to compare.
		run  func(ctx context.Context, t *testing.T, s store, key string) []Turn
		want []Turn
	}{
		{
			name:   "unknown key is empty",
			limits: Limits{},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{},
		},
		{
			name:   "append and load keep order",
			limits: Limits{},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				mustAppend(ctx, t, s, key, u1, a1)
				mustAppend(ctx, t, s, key, u2)
				mustAppend(ctx, t, s, key, a2)
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{u1, a1, u2, a2},
		},
		{
			name:   "a turn keeps its state",
			limits: Limits{},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				st := a1
				st.State = json.RawMessage(`{"kind":"rate","currencies":["EUR"]}`)
				mustAppend(ctx, t, s, key, u1, st)
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{u1, {Role: "assistant", Text: "hello", At: a1.At, State: json.RawMessage(`{"kind":"rate","currencies":["EUR"]}`)}},
		},
		{
			name:   "append nothing is a no-op",
			limits: Limits{},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				mustAppend(ctx, t, s, key)
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{},
		},
		{
			name:   "MaxTurns keeps newest",
			limits: Limits{MaxTurns: 3},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				mustAppend(ctx, t, s, key, u1, a1)
				mustAppend(ctx, t, s, key, u2, a2)
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{a1, u2, a2},
		},
		{
			name:   "MaxChars drops oldest",
			limits: Limits{MaxChars: 20}, // a1+u2+a2 = 5+11+4 = 20, u1 = 2 more
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				mustAppend(ctx, t, s, key, u1, a1, u2, a2)
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{a1, u2, a2},
		},
		{
			name:   "MaxChars drops oldest behind a long turn",
			limits: Limits{MaxChars: 20},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				mustAppend(ctx, t, s, key, u1, turn("user", strings.Repeat("y", 19), 3), a2)
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{a2},
		},
		{
			name:   "single huge turn truncated",
			limits: Limits{MaxChars: 10},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				mustAppend(ctx, t, s, key, u1, huge)
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{{Role: "assistant", Text: "xxxxxxxxx…", At: huge.At}},
		},
		{
			name:   "reset deletes",
			limits: Limits{},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				mustAppend(ctx, t, s, key, u1, a1)
				if err := s.Reset(ctx, key); err != nil {
					t.Fatalf("Reset: %v", err)
				}
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{},
		},
		{
			name:   "reset unknown key",
			limits: Limits{},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				if err := s.Reset(ctx, key); err != nil {
					t.Fatalf("Reset: %v", err)
				}
				mustAppend(ctx, t, s, key, u1)
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{u1},
		},
		{
			name:   "conversations are separate",
			limits: Limits{},
			run: func(ctx context.Context, t *testing.T, s store, key string) []Turn {
				mustAppend(ctx, t, s, key, u1)
				mustAppend(ctx, t, s, key+":other", u2)
				return mustLoad(ctx, t, s, key)
			},
			want: []Turn{u1},
		},
	}
	for _, sc := range stores(t) {
		t.Run(sc.name, func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					s := sc.open(t, tt.limits)
					ctx := t.Context()
					if err := s.Ping(ctx); err != nil {
						t.Fatalf("Ping: %v", err)
					}
					got := tt.run(ctx, t, s, "chat:1")
					if got == nil {
						t.Errorf("Load returned a nil slice, want non-nil")
					}
					if diff := cmp.Diff(tt.want, got); diff != "" {
						t.Errorf("Load (-want +got):\n%s", diff)
					}
				})
			}
		})
	}
}

func mustAppend(ctx context.Context, t *testing.T, s store, key string, turns ...Turn) {
	t.Helper()
	if err := s.Append(ctx, key, turns...); err != nil {
		t.Fatalf("Append(%q): %v", key, err)
	}
}

func mustLoad(ctx context.Context, t *testing.T, s store, key string) []Turn {
	t.Helper()
	turns, err := s.Load(ctx, key)
	if err != nil {
		t.Fatalf("Load(%q): %v", key, err)
	}
	return turns
}

// TestStoreConcurrentAppend appends from several goroutines at once: nothing
// is lost up to MaxTurns, and exactly MaxTurns survive beyond it.
func TestStoreConcurrentAppend(t *testing.T) {
	tests := []struct {
		name          string
		maxTurns      int
		goroutines    int
		perGoroutine  int
		wantRemaining int
	}{
		{"below MaxTurns", 100, 8, 10, 80},
		{"above MaxTurns", 30, 8, 10, 30},
	}
	for _, sc := range stores(t) {
		t.Run(sc.name, func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					s := sc.open(t, Limits{MaxTurns: tt.maxTurns, MaxChars: 1 << 20})
					ctx := t.Context()
					var wg sync.WaitGroup
					for g := range tt.goroutines {
						wg.Go(func() {
							for i := range tt.perGoroutine {
								tr := turn("user", fmt.Sprintf("g%02d-%03d", g, i), i)
								if err := s.Append(ctx, "chat:c", tr); err != nil {
									t.Errorf("Append: %v", err)
									return
								}
							}
						})
					}
					wg.Wait()
					got := mustLoad(ctx, t, s, "chat:c")
					if len(got) != tt.wantRemaining {
						t.Fatalf("Load returned %d turns, want %d", len(got), tt.wantRemaining)
					}
					// Each goroutine's own turns must stay in order and unique.
					last := map[string]string{}
					seen := map[string]bool{}
					for _, tr := range got {
						if seen[tr.Text] {
							t.Errorf("duplicate turn %q", tr.Text)
						}
						seen[tr.Text] = true
						g := tr.Text[:3]
						if prev, ok := last[g]; ok && prev >= tr.Text {
							t.Errorf("turn %q after %q: per-goroutine order broken", tr.Text, prev)
						}
						last[g] = tr.Text
					}
					if tt.wantRemaining == tt.goroutines*tt.perGoroutine {
						var texts []string
						for _, tr := range got {
							texts = append(texts, tr.Text)
						}
						sort.Strings(texts)
						var want []string
						for g := range tt.goroutines {
							for i := range tt.perGoroutine {
								want = append(want, fmt.Sprintf("g%02d-%03d", g, i))
							}
						}
						if diff := cmp.Diff(want, texts); diff != "" {
							t.Errorf("turns lost (-want +got):\n%s", diff)
						}
					}
				})
			}
		})
	}
}

func TestRedisTTL(t *testing.T) { eachRedis(t, testRedisTTL) }

func testRedisTTL(t *testing.T, newRedisClient func(testing.TB) redis.UniversalClient) {
	rdb := newRedisClient(t)
	prefix := testPrefix(t, rdb)
	const ttl = time.Hour
	s := NewRedis(rdb, prefix, Limits{TTL: ttl})
	ctx := t.Context()
	rk := prefix + "hist:chat:ttl"

	mustAppend(ctx, t, s, "chat:ttl", turn("user", "hi", 1))
	got, err := rdb.TTL(ctx, rk).Result()
	if err != nil {
		t.Fatalf("TTL: %v", err)
	}
	if got <= ttl-time.Minute || got > ttl {
		t.Fatalf("TTL after Append = %v, want about %v", got, ttl)
	}

	// Shorten the TTL by hand; the next Append must refresh it.
	if err := rdb.Expire(ctx, rk, 10*time.Second).Err(); err != nil {
		t.Fatalf("EXPIRE: %v", err)
	}
	mustAppend(ctx, t, s, "chat:ttl", turn("assistant", "hello", 2))
	got, err = rdb.TTL(ctx, rk).Result()
	if err != nil {
		t.Fatalf("TTL: %v", err)
	}
	if got <= ttl-time.Minute || got > ttl {
		t.Fatalf("TTL after second Append = %v, want refreshed to about %v", got, ttl)
	}

	// Load does not touch the TTL.
	if err := rdb.Expire(ctx, rk, 10*time.Second).Err(); err != nil {
		t.Fatalf("EXPIRE: %v", err)
	}
	mustLoad(ctx, t, s, "chat:ttl")
	if got, _ = rdb.TTL(ctx, rk).Result(); got > 10*time.Second {
		t.Errorf("TTL after Load = %v, want unchanged (<= 10s)", got)
	}
}

func TestRedisKeyLayout(t *testing.T) { eachRedis(t, testRedisKeyLayout) }

func testRedisKeyLayout(t *testing.T, newRedisClient func(testing.TB) redis.UniversalClient) {
	rdb := newRedisClient(t)
	prefix := testPrefix(t, rdb)
	ctx := t.Context()
	mustAppend(ctx, t, NewRedis(rdb, prefix, Limits{}), "chat:7", turn("user", "hi", 1))
	if _, _, err := NewRedisDedupe(rdb, prefix, time.Minute).Claim(ctx, 99, time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{prefix + "hist:chat:7", prefix + "upd:99"} {
		if n, err := rdb.Exists(ctx, k).Result(); err != nil || n != 1 {
			t.Errorf("EXISTS %s = %d, %v; want 1", k, n, err)
		}
	}
	if typ, _ := rdb.Type(ctx, prefix+"hist:chat:7").Result(); typ != "list" {
		t.Errorf("TYPE hist key = %q, want list", typ)
	}
}

func TestRedisLoadSkipsCorruptEntries(t *testing.T) { eachRedis(t, testRedisLoadSkipsCorruptEntries) }

func testRedisLoadSkipsCorruptEntries(t *testing.T, newRedisClient func(testing.TB) redis.UniversalClient) {
	rdb := newRedisClient(t)
	prefix := testPrefix(t, rdb)
	s := NewRedis(rdb, prefix, Limits{})
	ctx := t.Context()
	u1, a1 := turn("user", "hi", 1), turn("assistant", "hello", 2)

	mustAppend(ctx, t, s, "chat:bad", u1)
	if err := rdb.RPush(ctx, prefix+"hist:chat:bad", "{not json", `{"role":"user","at":"yesterday"}`).Err(); err != nil {
		t.Fatal(err)
	}
	mustAppend(ctx, t, s, "chat:bad", a1)
	if diff := cmp.Diff([]Turn{u1, a1}, mustLoad(ctx, t, s, "chat:bad")); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}
}

func TestMemoryExpiry(t *testing.T) {
	const ttl = time.Hour
	clock := newFakeClock()
	m := NewMemory(10, Limits{TTL: ttl})
	m.Now = clock.Now
	ctx := t.Context()
	u1, a1 := turn("user", "hi", 1), turn("assistant", "hello", 2)

	mustAppend(ctx, t, m, "k", u1)
	clock.Advance(ttl - time.Minute)
	if diff := cmp.Diff([]Turn{u1}, mustLoad(ctx, t, m, "k")); diff != "" {
		t.Fatalf("before expiry (-want +got):\n%s", diff)
	}

	// Append refreshes the TTL: still there past the first expiry.
	mustAppend(ctx, t, m, "k", a1)
	clock.Advance(30 * time.Minute)
	if diff := cmp.Diff([]Turn{u1, a1}, mustLoad(ctx, t, m, "k")); diff != "" {
		t.Fatalf("after refresh (-want +got):\n%s", diff)
	}

	// Load does not refresh it.
	clock.Advance(ttl - 30*time.Minute)
	if got := mustLoad(ctx, t, m, "k"); len(got) != 0 {
		t.Fatalf("after expiry Load = %v, want empty", got)
	}

	// An expired conversation starts afresh.
	mustAppend(ctx, t, m, "k", a1)
	if diff := cmp.Diff([]Turn{a1}, mustLoad(ctx, t, m, "k")); diff != "" {
		t.Fatalf("after re-append (-want +got):\n%s", diff)
	}
}

func TestMemoryEvictsLeastRecentlyUsed(t *testing.T) {
	m := NewMemory(2, Limits{})
	ctx := t.Context()
	mustAppend(ctx, t, m, "a", turn("user", "a", 1))
	mustAppend(ctx, t, m, "b", turn("user", "b", 1))
	mustLoad(ctx, t, m, "a") // a is now more recent than b
	mustAppend(ctx, t, m, "c", turn("user", "c", 1))
	for key, want := range map[string]int{"a": 1, "b": 0, "c": 1} {
		if got := len(mustLoad(ctx, t, m, key)); got != want {
			t.Errorf("Load(%q) has %d turns, want %d", key, got, want)
		}
	}
}

func TestMemoryLoadReturnsCopy(t *testing.T) {
	m := NewMemory(1, Limits{})
	ctx := t.Context()
	mustAppend(ctx, t, m, "k", turn("user", "a", 1))
	got := mustLoad(ctx, t, m, "k")
	got[0].Text = "mutated"
	if again := mustLoad(ctx, t, m, "k"); again[0].Text != "a" {
		t.Errorf("stored turn changed through a loaded slice: %q", again[0].Text)
	}
}

// closedAddr returns a TCP address nothing listens on: reserved for the test, so that no other
// process can start listening there meanwhile, and every connection to it is refused.
func closedAddr(t *testing.T) string {
	t.Helper()
	return testnet.Addr(t)
}

func TestRedisUnavailable(t *testing.T) {
	addr := closedAddr(t)
	clients := []struct {
		name          string
		maxRetries    int // command retries; -1 disables them
		dialerRetries int // pool dial attempts; 0 keeps the default (5)
		// original is the underlying error that must stay matchable.
		original func(error) bool
		// deadline is each call's context deadline: what ends the call with retries, and only a
		// bound without (the refusal comes at once, however loaded the machine).
		deadline time.Duration
	}{
		// go-redis retries the dial until the context deadline.
		{"default retries", 0, 0, func(err error) bool { return errors.Is(err, context.DeadlineExceeded) }, 300 * time.Millisecond},
		// Without retries the refused connection itself comes through.
		{"no retries", -1, 1, func(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }, 10 * time.Second},
	}
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			rdb := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true, MaxRetries: c.maxRetries, DialerRetries: c.dialerRetries})
			t.Cleanup(func() { _ = rdb.Close() })
			s := NewRedis(rdb, "test:down:", Limits{})
			d := NewRedisDedupe(rdb, "test:down:", time.Minute)

			ops := []struct {
				name string
				call func(ctx context.Context) error
			}{
				{"Load", func(ctx context.Context) error { _, err := s.Load(ctx, "k"); return err }},
				{"Append", func(ctx context.Context) error { return s.Append(ctx, "k", turn("user", "hi", 1)) }},
				{"Reset", func(ctx context.Context) error { return s.Reset(ctx, "k") }},
				{"Ping", s.Ping},
				{"Claim", func(ctx context.Context) error { _, _, err := d.Claim(ctx, 42, time.Minute); return err }},
				{"Done", func(ctx context.Context) error { return d.Done(ctx, 42) }},
				{"Release", func(ctx context.Context) error { return d.Release(ctx, 42) }},
			}
			for _, op := range ops {
				t.Run(op.name, func(t *testing.T) {
					ctx, cancel := context.WithTimeout(t.Context(), c.deadline)
					defer cancel()
					start := time.Now()
					err := op.call(ctx)
					elapsed := time.Since(start)
					t.Logf("%s: %v", elapsed.Round(time.Millisecond), err)
					if !errors.Is(err, ErrUnavailable) {
						t.Fatalf("err = %v, want errors.Is(err, ErrUnavailable)", err)
					}
					if !c.original(err) {
						t.Errorf("err = %v: original error not matchable", err)
					}
					if !strings.HasPrefix(err.Error(), "history: ") {
						t.Errorf("err = %q, want a %q prefix", err, "history: ")
					}
					if elapsed > 15*time.Second { // a hang detector, generous for a loaded machine
						t.Errorf("took %v, want a quick failure", elapsed)
					}
				})
			}
		})
	}
}
