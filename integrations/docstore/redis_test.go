package docstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/internal/testnet"
	"github.com/finbot/finbot/internal/testredis"
)

// openRedis returns a Redis store under a fresh prefix, its client and the
// key base of owner.
func openRedis(t *testing.T, owner string) (*Redis, *redis.Client, string) {
	t.Helper()
	rdb := testredis.Client(t)
	prefix := testredis.Prefix(t, rdb)
	return NewRedis(rdb, prefix), rdb, prefix + "docs:{" + owner + "}:"
}

func TestRedisKeyLayout(t *testing.T) {
	ctx := t.Context()
	s, rdb, base := openRedis(t, "g:-100123")
	a := makeDoc("a", 0, 3, 4)
	mustPut(ctx, t, s, "g:-100123", a)
	mustSelect(ctx, t, s, "g:-100123", 7, []string{"a"}, true)
	if err := s.SetReceipt(ctx, "g:-100123", -100123, 55, "a"); err != nil {
		t.Fatal(err)
	}

	want := map[string]string{ // key → type
		base + "meta":     "hash",
		base + "chunks:a": "string",
		base + "vec:a":    "string",
		base + "text:a":   "string",
		base + "ver":      "string",
		base + "sel:7":    "set",
		base + "sels":     "set",
		base + "rcpt":     "hash",
		base + "sha":      "hash",
	}
	keys, err := testredis.Keys(ctx, rdb, base)
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string]string, len(keys))
	for _, k := range keys {
		got[k] = rdb.Type(ctx, k).Val()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	if n := rdb.StrLen(ctx, base+"vec:a").Val(); n != 3*4*4 {
		t.Errorf("vec:a is %d bytes, want %d", n, 3*4*4)
	}
	if got := rdb.HGet(ctx, base+"rcpt", "-100123:55").Val(); got != "a" {
		t.Errorf("rcpt[-100123:55] = %q, want a", got)
	}
	if got := rdb.HGet(ctx, base+"sha", "sha-a").Val(); got != "a" {
		t.Errorf("sha[sha-a] = %q, want a", got)
	}
	if got := rdb.Get(ctx, base+"text:a").Val(); got != a.Text {
		t.Errorf("text:a = %q, want %q", got, a.Text)
	}
}

// TestRedisDeleteRemovesEveryKey deletes documents and checks with SCAN that
// nothing of them is left behind.
func TestRedisDeleteRemovesEveryKey(t *testing.T) {
	ctx := t.Context()
	const owner = "u:1"
	s, rdb, base := openRedis(t, owner)
	mustPut(ctx, t, s, owner, makeDoc("a", 0, 3, 4), makeDoc("b", 1, 2, 8))
	mustSelect(ctx, t, s, owner, 7, []string{"a", "b"}, true)
	mustSelect(ctx, t, s, owner, 8, []string{"a"}, true)
	for i, id := range []string{"a", "b", "a"} {
		if err := s.SetReceipt(ctx, owner, 100, i, id); err != nil {
			t.Fatal(err)
		}
	}

	if err := s.Delete(ctx, owner, "a"); err != nil {
		t.Fatal(err)
	}
	keys, err := testredis.Keys(ctx, rdb, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if strings.HasSuffix(k, ":a") {
			t.Errorf("key %s of the deleted document remains", k)
		}
		switch rdb.Type(ctx, k).Val() {
		case "hash":
			for field, v := range rdb.HGetAll(ctx, k).Val() {
				if field == "a" || v == "a" {
					t.Errorf("hash %s still refers to a: %s → %s", k, field, v)
				}
			}
		case "set":
			if rdb.SIsMember(ctx, k, "a").Val() {
				t.Errorf("set %s still holds a", k)
			}
		}
	}
	if !slices.Contains(keys, base+"chunks:b") || !slices.Contains(keys, base+"vec:b") {
		t.Errorf("keys of b went missing: %q", keys)
	}

	if err := s.Delete(ctx, owner, "b"); err != nil {
		t.Fatal(err)
	}
	keys, err = testredis.Keys(ctx, rdb, base)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	// Only the version and the list of selectors outlive the documents.
	if diff := cmp.Diff([]string{base + "sels", base + "ver"}, keys); diff != "" {
		t.Errorf("keys after deleting everything (-want +got):\n%s", diff)
	}
}

// TestRedisReplaceRemovesOldKeys checks that Replace leaves no content of
// dropped documents behind.
func TestRedisReplaceRemovesOldKeys(t *testing.T) {
	ctx := t.Context()
	const owner = "kb"
	s, rdb, base := openRedis(t, owner)
	mustPut(ctx, t, s, owner, makeDoc("a", 0, 3, 4), makeDoc("b", 1, 2, 0))
	if err := s.Replace(ctx, owner, []Doc{makeDoc("b", 1, 1, 0), makeDoc("c", 2, 0, 0)}); err != nil {
		t.Fatal(err)
	}
	keys, err := testredis.Keys(ctx, rdb, base)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	want := []string{base + "chunks:b", base + "chunks:c", base + "meta", base + "sha", base + "text:b", base + "ver"}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("keys after Replace (-want +got):\n%s", diff)
	}
	if got := rdb.HGetAll(ctx, base+"sha").Val(); !cmp.Equal(got, map[string]string{"sha-b": "b", "sha-c": "c"}) {
		t.Errorf("sha index = %v", got)
	}
}

// TestRedisCorruptData damages stored data and checks that reads fail with
// an error instead of panicking or returning garbage.
func TestRedisCorruptData(t *testing.T) {
	const owner = "u:1"
	tests := []struct {
		name    string
		corrupt func(ctx context.Context, rdb *redis.Client, base string) error
	}{
		{"vectors truncated", func(ctx context.Context, rdb *redis.Client, base string) error {
			return rdb.Set(ctx, base+"vec:a", "abc", 0).Err()
		}},
		{"one float short", func(ctx context.Context, rdb *redis.Client, base string) error {
			b, err := rdb.Get(ctx, base+"vec:a").Bytes()
			if err != nil {
				return err
			}
			return rdb.Set(ctx, base+"vec:a", b[:len(b)-4], 0).Err()
		}},
		{"vectors missing", func(ctx context.Context, rdb *redis.Client, base string) error {
			return rdb.Del(ctx, base+"vec:a").Err()
		}},
		{"huge dims in meta", func(ctx context.Context, rdb *redis.Client, base string) error {
			return rdb.HSet(ctx, base+"meta", "a", `{"id":"a","chunks":3,"dims":4611686018427387904}`).Err()
		}},
		{"chunk count differs from meta", func(ctx context.Context, rdb *redis.Client, base string) error {
			return rdb.Set(ctx, base+"chunks:a", `[{"n":0,"text":"x"}]`, 0).Err()
		}},
		{"chunks not JSON", func(ctx context.Context, rdb *redis.Client, base string) error {
			return rdb.Set(ctx, base+"chunks:a", "[{", 0).Err()
		}},
		{"chunks missing", func(ctx context.Context, rdb *redis.Client, base string) error {
			return rdb.Del(ctx, base+"chunks:a").Err()
		}},
		{"meta not JSON", func(ctx context.Context, rdb *redis.Client, base string) error {
			return rdb.HSet(ctx, base+"meta", "a", "{not json").Err()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			s, rdb, base := openRedis(t, owner)
			mustPut(ctx, t, s, owner, makeDoc("a", 0, 3, 4))
			if err := tt.corrupt(ctx, rdb, base); err != nil {
				t.Fatal(err)
			}
			for _, ids := range [][]string{nil, {"a"}} {
				docs, err := s.Load(ctx, owner, ids)
				if !errors.Is(err, errCorrupt) {
					t.Errorf("Load(%q) = %d docs, %v; want a corrupt-data error", ids, len(docs), err)
				}
				if errors.Is(err, ErrUnavailable) || errors.Is(err, ErrNotFound) {
					t.Errorf("Load(%q) = %v; corrupt data is neither unavailable nor missing", ids, err)
				}
			}
			// The damaged document can still be deleted or overwritten.
			mustPut(ctx, t, s, owner, makeDoc("a", 0, 1, 2))
			if err := s.Delete(ctx, owner, "a"); err != nil {
				t.Errorf("Delete after corruption: %v", err)
			}
		})
	}

	t.Run("meta not JSON breaks List and Get", func(t *testing.T) {
		ctx := t.Context()
		s, rdb, base := openRedis(t, owner)
		mustPut(ctx, t, s, owner, makeDoc("a", 0, 1, 0))
		if err := rdb.HSet(ctx, base+"meta", "a", "{not json").Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.List(ctx, owner); !errors.Is(err, errCorrupt) {
			t.Errorf("List = %v, want a corrupt-data error", err)
		}
		if _, err := s.Get(ctx, owner, "a"); !errors.Is(err, errCorrupt) {
			t.Errorf("Get = %v, want a corrupt-data error", err)
		}
		if err := s.Delete(ctx, owner, "a"); err != nil {
			t.Errorf("Delete of a corrupt document: %v", err)
		}
	})
}

// closedAddr returns a TCP address nothing listens on: reserved for the test, so that no other
// process can start listening there meanwhile, and every connection to it is refused.
func closedAddr(t *testing.T) string {
	t.Helper()
	return testnet.Addr(t)
}

func TestRedisUnavailable(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: closedAddr(t), ContextTimeoutEnabled: true, MaxRetries: -1, DialerRetries: 1})
	t.Cleanup(func() { _ = rdb.Close() })
	s := NewRedis(rdb, "test:down:")
	const owner = "u:1"
	ops := map[string]func(ctx context.Context) error{
		"Put":            func(ctx context.Context) error { return s.Put(ctx, owner, makeDoc("a", 0, 1, 0)) },
		"List":           func(ctx context.Context) error { _, err := s.List(ctx, owner); return err },
		"Get":            func(ctx context.Context) error { _, err := s.Get(ctx, owner, "a"); return err },
		"Load":           func(ctx context.Context) error { _, err := s.Load(ctx, owner, nil); return err },
		"Load(ids)":      func(ctx context.Context) error { _, err := s.Load(ctx, owner, []string{"a"}); return err },
		"Delete":         func(ctx context.Context) error { return s.Delete(ctx, owner, "a") },
		"FindSHA":        func(ctx context.Context) error { _, err := s.FindSHA(ctx, owner, "x"); return err },
		"Version":        func(ctx context.Context) error { _, err := s.Version(ctx, owner); return err },
		"Select":         func(ctx context.Context) error { return s.Select(ctx, owner, 1, []string{"a"}, true) },
		"Unselect":       func(ctx context.Context) error { return s.Select(ctx, owner, 1, []string{"a"}, false) },
		"ClearSelection": func(ctx context.Context) error { return s.ClearSelection(ctx, owner, 1) },
		"Selection":      func(ctx context.Context) error { _, err := s.Selection(ctx, owner, 1); return err },
		"SetReceipt":     func(ctx context.Context) error { return s.SetReceipt(ctx, owner, 1, 1, "a") },
		"Receipt":        func(ctx context.Context) error { _, err := s.Receipt(ctx, owner, 1, 1); return err },
		"Replace":        func(ctx context.Context) error { return s.Replace(ctx, owner, nil) },
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			// Only a bound: the refusal comes at once, and a deadline that passed first on a
			// loaded machine would hide it.
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			err := op(ctx)
			if !errors.Is(err, ErrUnavailable) || !errors.Is(err, syscall.ECONNREFUSED) {
				t.Errorf("err = %v, want ErrUnavailable wrapping ECONNREFUSED", err)
			}
			if errors.Is(err, ErrNotFound) {
				t.Errorf("err = %v: an unreachable store must not look like a missing document", err)
			}
			if !strings.HasPrefix(err.Error(), "docstore: ") {
				t.Errorf("err = %q, want a %q prefix", err, "docstore: ")
			}
		})
	}
}

// TestRedisVersionAfterDataLoss: Redis loses every key (a restart without persistence,
// FLUSHDB — here the test's own keys, so that other tests sharing the server keep theirs) and
// the owner's documents are written again: no version from before the loss may come back, or
// an index built from the lost documents would be served as current (issue #19).
func TestRedisVersionAfterDataLoss(t *testing.T) {
	ctx := t.Context()
	s, rdb, base := openRedis(t, "u:7")
	seen := map[int64]bool{}
	for i := range 3 {
		mustPut(ctx, t, s, "u:7", makeDoc(fmt.Sprintf("d%d", i), 0, 2, 0))
		v, err := s.Version(ctx, "u:7")
		if err != nil {
			t.Fatal(err)
		}
		seen[v] = true
	}
	keys, err := testredis.Keys(ctx, rdb, base)
	if err != nil || len(keys) == 0 {
		t.Fatalf("keys before the loss: %v, %v", keys, err)
	}
	if err := rdb.Del(ctx, keys...).Err(); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Version(ctx, "u:7"); v != 0 {
		t.Errorf("version after the loss = %d, want 0 (nothing stored)", v)
	}
	for i := range 3 {
		mustPut(ctx, t, s, "u:7", makeDoc(fmt.Sprintf("new%d", i), 0, 2, 0))
		v, err := s.Version(ctx, "u:7")
		if err != nil {
			t.Fatal(err)
		}
		if seen[v] {
			t.Errorf("write %d after the loss: version %d was already seen before it", i+1, v)
		}
	}
}
