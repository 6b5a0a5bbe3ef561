package history

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// results is the behaviour shared by RedisResults and MemoryResults.
type results interface {
	Put(ctx context.Context, key string, data []byte) error
	Get(ctx context.Context, key string) ([]byte, bool, error)
}

var (
	_ results = (*RedisResults)(nil)
	_ results = (*MemoryResults)(nil)
)

func resultStores() []struct {
	name string
	open func(t *testing.T) results
} {
	return []struct {
		name string
		open func(t *testing.T) results
	}{
		{"redis", func(t *testing.T) results {
			rdb := newRedisClient(t)
			return NewRedisResults(rdb, testPrefix(t, rdb), time.Hour)
		}},
		{"memory", func(t *testing.T) results { return NewMemoryResults(100, time.Hour) }},
	}
}

// TestResults: what is put under a key is got back under that key only; a key never put (or
// of another scope) has nothing; a second put replaces the first.
func TestResults(t *testing.T) {
	steps := []struct {
		do   string // "put" or "get"
		key  string
		data string // put: the data; get: the data expected
		ok   bool   // get: found
	}{
		{"get", "chat:1:abc", "", false},
		{"put", "chat:1:abc", "первый результат", false},
		{"get", "chat:1:abc", "первый результат", true},
		{"get", "chat:2:abc", "", false}, // the same id in another chat
		{"put", "chat:2:abc", "другой чат", false},
		{"get", "chat:1:abc", "первый результат", true},
		{"get", "chat:2:abc", "другой чат", true},
		{"put", "chat:1:abc", "заменён", false},
		{"get", "chat:1:abc", "заменён", true},
		{"put", "chat:1:bin", "\x00\xff\x01", false}, // binary (gob) round-trips
		{"get", "chat:1:bin", "\x00\xff\x01", true},
	}
	for _, sc := range resultStores() {
		t.Run(sc.name, func(t *testing.T) {
			s := sc.open(t)
			for i, st := range steps {
				switch st.do {
				case "put":
					if err := s.Put(t.Context(), st.key, []byte(st.data)); err != nil {
						t.Fatalf("step %d: Put(%s): %v", i, st.key, err)
					}
				case "get":
					got, ok, err := s.Get(t.Context(), st.key)
					if err != nil || ok != st.ok || !bytes.Equal(got, []byte(st.data)) && st.ok {
						t.Errorf("step %d: Get(%s) = %q, %v, %v; want %q, %v", i, st.key, got, ok, err, st.data, st.ok)
					}
				}
			}
		})
	}
}

// TestResultsExpire: an entry lives for the TTL and no longer (Redis: the key's own TTL;
// memory: its clock).
func TestResultsExpire(t *testing.T) {
	t.Run("redis", func(t *testing.T) {
		rdb := newRedisClient(t)
		prefix := testPrefix(t, rdb)
		s := NewRedisResults(rdb, prefix, 48*time.Hour)
		if err := s.Put(t.Context(), "chat:1:x", []byte("v")); err != nil {
			t.Fatal(err)
		}
		ttl, err := rdb.PTTL(t.Context(), prefix+"res:chat:1:x").Result()
		if err != nil || ttl <= 47*time.Hour || ttl > 48*time.Hour {
			t.Errorf("TTL = %v, %v; want just under 48h", ttl, err)
		}
		if NewRedisResults(rdb, prefix, 0).ttl != DefaultResultTTL {
			t.Error("a non-positive TTL does not default")
		}
	})
	t.Run("memory", func(t *testing.T) {
		clock := newFakeClock()
		s := NewMemoryResults(0, 48*time.Hour)
		s.Now = clock.Now
		s.Put(t.Context(), "chat:1:x", []byte("v"))
		clock.Advance(48*time.Hour - time.Second)
		if _, ok, _ := s.Get(t.Context(), "chat:1:x"); !ok {
			t.Error("gone before its TTL")
		}
		clock.Advance(time.Second)
		if _, ok, _ := s.Get(t.Context(), "chat:1:x"); ok {
			t.Error("still there after its TTL")
		}
	})
	t.Run("memory bound", func(t *testing.T) {
		s := NewMemoryResults(2, time.Hour)
		for _, k := range []string{"a", "b", "c"} {
			s.Put(t.Context(), k, []byte(k))
		}
		if _, ok, _ := s.Get(t.Context(), "a"); ok {
			t.Error("the oldest entry was kept beyond the bound")
		}
		if got, ok, _ := s.Get(t.Context(), "c"); !ok || string(got) != "c" {
			t.Errorf("newest = %q, %v", got, ok)
		}
	})
}
