package docstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/internal/testredis"
)

// store is the behaviour shared by Redis and Memory.
type store interface {
	Put(ctx context.Context, owner string, d Doc) error
	List(ctx context.Context, owner string) ([]Meta, error)
	Get(ctx context.Context, owner, id string) (Meta, error)
	Load(ctx context.Context, owner string, ids []string) ([]Doc, error)
	LoadChunks(ctx context.Context, owner string, ids []string) ([]Doc, error)
	EachVector(ctx context.Context, owner string, m Meta, fn func(i int, v []float32)) error
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

// storeCase opens one kind of store. For Redis, open skips the (sub)test
// when Redis is unavailable, so the Memory cases still run.
type storeCase struct {
	name string
	open func(t *testing.T) store
}

// stores returns the store cases: Redis on each test Redis (the single server and the
// cluster), and Memory.
func stores() []storeCase {
	var cases []storeCase
	for _, target := range testredis.Targets() {
		cases = append(cases, storeCase{target.Name, func(t *testing.T) store {
			rdb := target.Open(t)
			return NewRedis(rdb, testredis.Prefix(t, rdb))
		}})
	}
	return append(cases, storeCase{"memory", func(*testing.T) store { return NewMemory() }})
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
