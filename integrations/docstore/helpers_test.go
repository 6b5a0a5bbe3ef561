package docstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// store is the behaviour shared by Redis and Memory.
type store interface {
	Put(ctx context.Context, owner string, d Doc) error
	List(ctx context.Context, owner string) ([]Meta, error)
	Get(ctx context.Context, owner, id string) (Meta, error)
	Load(ctx context.Context, owner string, ids []string) ([]Doc, error)
	Delete(ctx context.Context, owner, id string) error
	FindSHA(ctx context.Context, owner, sha string) (Meta, error)
	Version(ctx context.Context, owner string) (int64, error)
	Select(ctx context.Context, owner string, selector int64, ids []string, on bool) error
	ClearSelection(ctx context.Context, owner string, selector int64) error
	Selection(ctx context.Context, owner string, selector int64) ([]string, error)
	SetReceipt(ctx context.Context, owner string, chatID int64, messageID int, id string) error
	Receipt(ctx context.Context, owner string, chatID int64, messageID int) (string, error)
	Replace(ctx context.Context, owner string, docs []Doc) error
}

var (
	_ store = (*Redis)(nil)
	_ store = (*Memory)(nil)
)

// redisURL returns REDIS_URL or the local default, as the history tests do.
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
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		keys, err := scanKeys(ctx, rdb, prefix)
		if err != nil {
			tb.Errorf("cleanup: %v", err)
			return
		}
		for len(keys) > 0 {
			n := min(len(keys), 1000)
			if err := rdb.Del(ctx, keys[:n]...).Err(); err != nil {
				tb.Errorf("cleanup: del: %v", err)
				return
			}
			keys = keys[n:]
		}
	})
	return prefix
}

// scanKeys returns every key that starts with prefix. The prefix must not
// contain glob characters other than those of the owner hash tag.
func scanKeys(ctx context.Context, rdb redis.UniversalClient, prefix string) ([]string, error) {
	// Braces are not glob characters, but '[' and '*' would be; tests never use them.
	iter := rdb.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		return nil, fmt.Errorf("scan %s*: %w", prefix, err)
	}
	return keys, nil
}

// storeCase opens one kind of store. For Redis, open skips the (sub)test
// when Redis is unavailable, so the Memory cases still run.
type storeCase struct {
	name string
	open func(t *testing.T) store
}

// stores returns the Redis and the Memory store cases.
func stores() []storeCase {
	return []storeCase{
		{"redis", func(t *testing.T) store {
			rdb := newRedisClient(t)
			return NewRedis(rdb, testPrefix(t, rdb))
		}},
		{"memory", func(*testing.T) store { return NewMemory() }},
	}
}

// t0 is the base of every test timestamp.
var t0 = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

// makeDoc builds a deterministic document: n chunks, vectors of dims
// floats when dims > 0, a text unless n == 0, added sec seconds after t0.
func makeDoc(id string, sec, n, dims int) Doc {
	d := Doc{Meta: Meta{
		ID:         id,
		Title:      "Договор " + id,
		FileName:   id + ".pdf",
		Format:     "pdf",
		Pages:      n/2 + 1,
		Bytes:      int64(1000 + n),
		SHA256:     "sha-" + id,
		UploadedBy: 42,
		Added:      t0.Add(time.Duration(sec) * time.Second),
		Chunks:     n,
		Dims:       dims,
	}}
	var text []string
	for i := range n {
		c := Chunk{N: i, Page: i/2 + 1, Heading: fmt.Sprintf("Раздел %d", i/3), Text: fmt.Sprintf("%s: пункт %d, сумма %d ₽", id, i, 1000*i)}
		d.Chunks = append(d.Chunks, c)
		text = append(text, c.Text)
		if dims > 0 {
			v := make([]float32, dims)
			for j := range v {
				v[j] = float32(i) + float32(j)/8 - 0.5
			}
			d.Vectors = append(d.Vectors, v)
		}
	}
	d.Text = strings.Join(text, "\n")
	d.Meta.Chars = len([]rune(d.Text))
	return d
}

// metas returns the metadata of docs.
func metas(docs ...Doc) []Meta {
	ms := make([]Meta, len(docs))
	for i, d := range docs {
		ms[i] = d.Meta
	}
	return ms
}

func mustPut(ctx context.Context, t testing.TB, s store, owner string, docs ...Doc) {
	t.Helper()
	for _, d := range docs {
		if err := s.Put(ctx, owner, d); err != nil {
			t.Fatalf("Put(%q, %q): %v", owner, d.Meta.ID, err)
		}
	}
}

func mustLoad(ctx context.Context, t testing.TB, s store, owner string, ids []string) []Doc {
	t.Helper()
	docs, err := s.Load(ctx, owner, ids)
	if err != nil {
		t.Fatalf("Load(%q, %q): %v", owner, ids, err)
	}
	return docs
}

func mustVersion(ctx context.Context, t testing.TB, s store, owner string) int64 {
	t.Helper()
	v, err := s.Version(ctx, owner)
	if err != nil {
		t.Fatalf("Version(%q): %v", owner, err)
	}
	return v
}

func mustSelection(ctx context.Context, t testing.TB, s store, owner string, selector int64) []string {
	t.Helper()
	ids, err := s.Selection(ctx, owner, selector)
	if err != nil {
		t.Fatalf("Selection(%q, %d): %v", owner, selector, err)
	}
	return ids
}

func mustSelect(ctx context.Context, t testing.TB, s store, owner string, selector int64, ids []string, on bool) {
	t.Helper()
	if err := s.Select(ctx, owner, selector, ids, on); err != nil {
		t.Fatalf("Select(%q, %d, %q, %v): %v", owner, selector, ids, on, err)
	}
}
