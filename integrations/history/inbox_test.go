package history

import (
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"
)

type dueEntry struct {
	ID        int64
	Body      string
	Takeovers int
}

func due(t *testing.T, in *RedisInbox, olderThan time.Duration, limit int) []dueEntry {
	t.Helper()
	var got []dueEntry
	err := in.Due(t.Context(), olderThan, limit, func(id int64, body []byte, takeovers int) {
		got = append(got, dueEntry{id, string(body), takeovers})
	})
	if err != nil {
		t.Fatalf("Due: %v", err)
	}
	return got
}

// TestInboxLifecycle: an update stays in the inbox from Put to Remove; a sweep sees it once it
// is old enough and not again until it is that old once more; takeovers are counted.
func TestInboxLifecycle(t *testing.T) {
	eachRedis(t, func(t *testing.T, open func(testing.TB) redis.UniversalClient) {
		rdb := open(t)
		in := NewRedisInbox(rdb, testPrefix(t, rdb), time.Second)
		ctx := t.Context()
		body := `{"update_id":7,"message":{"text":"кто нам должен"}}`
		if err := in.Put(ctx, 7, []byte(body)); err != nil {
			t.Fatal(err)
		}
		if got := due(t, in, time.Hour, 10); len(got) != 0 {
			t.Fatalf("a fresh update is due: %v", got)
		}
		if got, want := due(t, in, 0, 10), []dueEntry{{7, body, 0}}; !cmp.Equal(got, want) {
			t.Fatalf("sweep: %s", cmp.Diff(want, got))
		}
		if got := due(t, in, time.Hour, 10); len(got) != 0 {
			t.Fatalf("a swept update is due again at once: %v", got)
		}
		if err := in.TookOver(ctx, 7); err != nil {
			t.Fatal(err)
		}
		if got, want := due(t, in, 0, 10), []dueEntry{{7, body, 1}}; !cmp.Equal(got, want) {
			t.Fatalf("after a takeover: %s", cmp.Diff(want, got))
		}
		if err := in.Remove(ctx, 7); err != nil {
			t.Fatal(err)
		}
		if got := due(t, in, 0, 10); len(got) != 0 {
			t.Fatalf("removed update still due: %v", got)
		}
		if n, err := in.Len(ctx); err != nil || n != 0 {
			t.Fatalf("Len = %d, %v; want 0", n, err)
		}
		if n, _ := rdb.Exists(ctx, in.bodies, in.tries, in.begun).Result(); n != 0 {
			t.Errorf("%d inbox hashes left after the last update was removed", n)
		}
	})
}

// TestInboxDiedOn: an update a replica began heavy work for is one it died on until the work
// ends or the update is removed; beginning an update no longer in the inbox leaves nothing
// behind.
func TestInboxDiedOn(t *testing.T) {
	eachRedis(t, func(t *testing.T, open func(testing.TB) redis.UniversalClient) {
		rdb := open(t)
		in := NewRedisInbox(rdb, testPrefix(t, rdb), time.Second)
		ctx := t.Context()
		diedOn := func(id int64) bool {
			t.Helper()
			died, err := in.DiedOn(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return died
		}
		if err := in.Put(ctx, 8, []byte(`{"update_id":8}`)); err != nil {
			t.Fatal(err)
		}
		steps := []struct {
			op   func() error
			died bool
		}{
			{func() error { return nil }, false},               // stored, not begun
			{func() error { return in.Begin(ctx, 8) }, true},   // begun: a lapsed claim means a death in it
			{func() error { return in.End(ctx, 8) }, false},    // the work ended (or the replica shut down)
			{func() error { return in.Begin(ctx, 8) }, true},   // heavy work again
			{func() error { return in.Remove(ctx, 8) }, false}, // answered
			{func() error { return in.Begin(ctx, 8) }, false},  // too late: not in the inbox
		}
		for i, st := range steps {
			if err := st.op(); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if got := diedOn(8); got != st.died {
				t.Errorf("step %d: DiedOn = %v, want %v", i, got, st.died)
			}
		}
		if n, _ := rdb.Exists(ctx, in.begun).Result(); n != 0 {
			t.Error("a begun mark outlived its update")
		}
	})
}

// TestInboxPutTwiceKeepsFirstTime: a second delivery of an update does not make it young again
// (it would postpone the takeover of an update whose replica died).
func TestInboxPutTwiceKeepsFirstTime(t *testing.T) {
	eachRedis(t, func(t *testing.T, open func(testing.TB) redis.UniversalClient) {
		rdb := open(t)
		in := NewRedisInbox(rdb, testPrefix(t, rdb), time.Second)
		ctx := t.Context()
		if err := in.Put(ctx, 9, []byte(`{"update_id":9}`)); err != nil {
			t.Fatal(err)
		}
		old := float64(time.Now().Add(-time.Hour).UnixMilli())
		rdb.ZAdd(ctx, in.zset, redis.Z{Score: old, Member: "9"})
		if err := in.Put(ctx, 9, []byte(`{"update_id":9}`)); err != nil {
			t.Fatal(err)
		}
		if got, _ := rdb.ZScore(ctx, in.zset, "9").Result(); got != old {
			t.Errorf("second Put moved the update's time from %v to %v", old, got)
		}
	})
}

// TestInboxSweepLimit: one sweep takes at most limit updates, oldest first; the rest wait for
// the next.
func TestInboxSweepLimit(t *testing.T) {
	eachRedis(t, func(t *testing.T, open func(testing.TB) redis.UniversalClient) {
		rdb := open(t)
		in := NewRedisInbox(rdb, testPrefix(t, rdb), time.Second)
		for id := range int64(5) {
			if err := in.Put(t.Context(), 100+id, []byte(strconv.FormatInt(id, 10))); err != nil {
				t.Fatal(err)
			}
			rdb.ZAdd(t.Context(), in.zset, redis.Z{Score: float64(1000 + id), Member: strconv.FormatInt(100+id, 10)})
		}
		var ids []int64
		for _, e := range due(t, in, time.Minute, 2) {
			ids = append(ids, e.ID)
		}
		if want := []int64{100, 101}; !cmp.Equal(ids, want) {
			t.Errorf("first sweep took %v, want %v", ids, want)
		}
		if got := due(t, in, time.Minute, 10); len(got) != 3 {
			t.Errorf("second sweep took %d updates, want the other 3", len(got))
		}
	})
}

// TestLeaseFencing: one holder at a time; renewing keeps the token; each new holder gets a larger
// token; and a holder whose lease lapsed cannot sweep with its old token, even when it does not
// know yet that it lapsed.
func TestLeaseFencing(t *testing.T) {
	eachRedis(t, func(t *testing.T, open func(testing.TB) redis.UniversalClient) {
		rdb := open(t)
		prefix := testPrefix(t, rdb)
		ctx := t.Context()
		a := NewRedisInbox(rdb, prefix, time.Minute)
		b := NewRedisInbox(rdb, prefix, time.Minute)
		acquire := func(in *RedisInbox) (int64, bool) {
			t.Helper()
			token, ok, err := in.sweeper.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return token, ok
		}
		ta, ok := acquire(a)
		if !ok || ta <= 0 {
			t.Fatalf("first Acquire = %d, %v", ta, ok)
		}
		if again, ok := acquire(a); !ok || again != ta {
			t.Fatalf("renewal = %d, %v; want the same token %d", again, ok, ta)
		}
		if _, ok := acquire(b); ok {
			t.Fatal("a second instance took a held lease")
		}
		if err := a.sweeper.Release(ctx, ta); err != nil {
			t.Fatal(err)
		}
		tb, ok := acquire(b)
		if !ok || tb <= ta {
			t.Fatalf("after release: %d, %v; want a token above %d", tb, ok, ta)
		}

		// b's lease lapses (deleted, as PX does) while b is paused; a takes it.
		if err := b.Put(ctx, 1, []byte(`{"update_id":1}`)); err != nil {
			t.Fatal(err)
		}
		rdb.Del(ctx, b.sweeper.key)
		ta2, ok := acquire(a)
		if !ok || ta2 <= tb {
			t.Fatalf("after the lapse: %d, %v; want a token above %d", ta2, ok, tb)
		}
		// b wakes up and sweeps with the token it had: refused by the fence.
		res, err := dueScript.Run(ctx, rdb, []string{b.zset, b.bodies, b.tries, b.sweeper.key},
			b.sweeper.Value(tb), 0, 10).Result()
		if err != redis.Nil || res != nil {
			t.Fatalf("stale sweep = %v, %v; want refused (nil)", res, err)
		}
		if got := due(t, b, 0, 10); len(got) != 0 {
			t.Fatalf("b swept while a holds the lease: %v", got)
		}
		if got := due(t, a, 0, 10); len(got) != 1 {
			t.Fatalf("the holder's sweep = %v, want the update", got)
		}
	})
}

// TestExtendRenewsOwnClaimsOnly: Extend lengthens this instance's live claims and leaves a done
// update, another instance's claim and an unknown update as they are.
func TestExtendRenewsOwnClaimsOnly(t *testing.T) {
	eachRedis(t, func(t *testing.T, open func(testing.TB) redis.UniversalClient) {
		rdb := open(t)
		prefix := testPrefix(t, rdb)
		ctx := t.Context()
		a, b := NewRedisDedupe(rdb, prefix, time.Hour), NewRedisDedupe(rdb, prefix, time.Hour)
		for _, c := range []struct {
			d  *RedisDedupe
			id int64
		}{{a, 1}, {a, 2}, {b, 3}} {
			if ok, _, err := c.d.Claim(ctx, c.id, time.Second); err != nil || !ok {
				t.Fatalf("Claim(%d) = %v, %v", c.id, ok, err)
			}
		}
		if err := a.Done(ctx, 2); err != nil {
			t.Fatal(err)
		}
		if err := a.Extend(ctx, []int64{1, 2, 3, 4}, 10*time.Minute); err != nil {
			t.Fatal(err)
		}
		ttl := func(id int64) time.Duration { return rdb.PTTL(ctx, a.key(id)).Val() }
		if got := ttl(1); got < 9*time.Minute {
			t.Errorf("own claim: TTL %v after Extend, want about 10m", got)
		}
		if got := ttl(2); got < 59*time.Minute {
			t.Errorf("done update: TTL %v, want the done TTL (1h) untouched", got)
		}
		if got := ttl(3); got > time.Second {
			t.Errorf("another instance's claim: TTL %v, want its own 1s", got)
		}
		if n := rdb.Exists(ctx, a.key(4)).Val(); n != 0 {
			t.Error("Extend created a key for an unknown update")
		}
	})
}

// TestMemoryExtend: the in-process dedupe renews a live claim past its lease and leaves a done
// update done.
func TestMemoryExtend(t *testing.T) {
	clock := newFakeClock()
	d := NewMemoryDedupe(10, time.Hour)
	d.Now = clock.Now
	ctx := t.Context()
	d.Claim(ctx, 1, time.Second)
	d.Claim(ctx, 2, time.Second)
	d.Done(ctx, 2)
	d.Extend(ctx, []int64{1, 2}, time.Minute)
	clock.Advance(30 * time.Second)
	if ok, _, _ := d.Claim(ctx, 1, time.Second); ok {
		t.Error("a renewed claim lapsed after its first lease")
	}
	if ok, _, _ := d.Claim(ctx, 2, time.Second); ok {
		t.Error("Extend made a done update claimable")
	}
}
