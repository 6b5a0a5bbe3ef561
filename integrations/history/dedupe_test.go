package history

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type dedupeCase struct {
	name string
	open func(t *testing.T, ttl time.Duration) dedupe
}

func dedupes() []dedupeCase {
	return []dedupeCase{
		{"redis", func(t *testing.T, ttl time.Duration) dedupe {
			rdb := newRedisClient(t)
			return NewRedisDedupe(rdb, testPrefix(t, rdb), ttl)
		}},
		{"memory", func(t *testing.T, ttl time.Duration) dedupe {
			return NewMemoryDedupe(100, ttl)
		}},
	}
}

func TestDedupeFirstSeen(t *testing.T) {
	steps := []struct {
		id   int64
		want bool
	}{
		{42, true},
		{42, false},
		{43, true},
		{42, false},
		{-1, true},
		{43, false},
	}
	for _, dc := range dedupes() {
		t.Run(dc.name, func(t *testing.T) {
			d := dc.open(t, time.Minute)
			for i, s := range steps {
				got, err := d.FirstSeen(t.Context(), s.id)
				if err != nil {
					t.Fatalf("step %d: FirstSeen(%d): %v", i, s.id, err)
				}
				if got != s.want {
					t.Errorf("step %d: FirstSeen(%d) = %v, want %v", i, s.id, got, s.want)
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
					ok, err := d.FirstSeen(t.Context(), 7)
					if err != nil {
						t.Errorf("FirstSeen: %v", err)
					}
					if ok {
						firsts.Add(1)
					}
				})
			}
			wg.Wait()
			if n := firsts.Load(); n != 1 {
				t.Errorf("%d goroutines saw FirstSeen true, want exactly 1", n)
			}
		})
	}
}

func TestRedisDedupeTTL(t *testing.T) {
	rdb := newRedisClient(t)
	prefix := testPrefix(t, rdb)
	const ttl = 90 * time.Second
	d := NewRedisDedupe(rdb, prefix, ttl)
	if _, err := d.FirstSeen(t.Context(), 42); err != nil {
		t.Fatal(err)
	}
	got, err := rdb.TTL(t.Context(), prefix+"upd:42").Result()
	if err != nil {
		t.Fatal(err)
	}
	if got <= 0 || got > ttl {
		t.Errorf("TTL = %v, want in (0, %v]", got, ttl)
	}
}

func TestMemoryDedupeTTL(t *testing.T) {
	const ttl = time.Minute
	clock := newFakeClock()
	d := NewMemoryDedupe(10, ttl)
	d.Now = clock.Now
	check := func(want bool) {
		t.Helper()
		got, err := d.FirstSeen(t.Context(), 42)
		if err != nil || got != want {
			t.Fatalf("FirstSeen(42) = %v, %v; want %v, nil", got, err, want)
		}
	}
	check(true)
	clock.Advance(ttl - time.Second)
	check(false) // still remembered; does not extend the TTL
	clock.Advance(time.Second)
	check(true) // expired: seen anew
	check(false)
}

func TestDedupeDefaults(t *testing.T) {
	if d := NewMemoryDedupe(0, 0); d.ttl != DefaultDedupeTTL || d.cache == nil {
		t.Errorf("NewMemoryDedupe(0, 0): ttl %v, want %v", d.ttl, DefaultDedupeTTL)
	}
	if d := NewRedisDedupe(nil, "", -1); d.ttl != DefaultDedupeTTL {
		t.Errorf("NewRedisDedupe ttl %v, want %v", d.ttl, DefaultDedupeTTL)
	}
}
