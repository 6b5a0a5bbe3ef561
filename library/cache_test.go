package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library/retrieval"
)

// The cache evicts least recently used owners until the indexes' bytes fit the budget, keeps
// the owner-count bound as well, never keeps an index larger than the whole budget, and
// accounts for replaced and removed indexes.
func TestIndexCacheBounds(t *testing.T) {
	idx := func(version, bytes int64) *ownerIndex { return &ownerIndex{version: version, bytes: bytes} }
	type step struct {
		op     string // "add", "get", "remove", "purge"
		owner  string
		idx    *ownerIndex
		kept   bool     // add: whether the index is cached
		owners []string // cached owners after the step, any order
		bytes  int64
	}
	tests := []struct {
		name   string
		owners int
		budget int64
		steps  []step
	}{
		{"bytes evict the least recently used", 10, 100, []step{
			{op: "add", owner: "a", idx: idx(1, 40), kept: true, owners: []string{"a"}, bytes: 40},
			{op: "add", owner: "b", idx: idx(1, 40), kept: true, owners: []string{"a", "b"}, bytes: 80},
			{op: "get", owner: "a", owners: []string{"a", "b"}, bytes: 80}, // b is now the oldest
			{op: "add", owner: "c", idx: idx(1, 40), kept: true, owners: []string{"a", "c"}, bytes: 80},
			{op: "add", owner: "d", idx: idx(1, 90), kept: true, owners: []string{"d"}, bytes: 90},
			{op: "add", owner: "e", idx: idx(1, 10), kept: true, owners: []string{"d", "e"}, bytes: 100},
		}},
		{"an index over the budget is not kept", 10, 100, []step{
			{op: "add", owner: "a", idx: idx(1, 60), kept: true, owners: []string{"a"}, bytes: 60},
			{op: "add", owner: "big", idx: idx(1, 101), kept: false, owners: []string{"a"}, bytes: 60},
			// A new version of a cached owner that outgrew the budget drops the old one.
			{op: "add", owner: "a", idx: idx(2, 150), kept: false, owners: nil, bytes: 0},
		}},
		{"the owner count still bounds", 2, 1 << 30, []step{
			{op: "add", owner: "a", idx: idx(1, 5), kept: true, owners: []string{"a"}, bytes: 5},
			{op: "add", owner: "b", idx: idx(1, 6), kept: true, owners: []string{"a", "b"}, bytes: 11},
			{op: "add", owner: "c", idx: idx(1, 7), kept: true, owners: []string{"b", "c"}, bytes: 13},
		}},
		{"replaced, stale, removed and purged indexes", 10, 100, []step{
			{op: "add", owner: "a", idx: idx(2, 30), kept: true, owners: []string{"a"}, bytes: 30},
			{op: "add", owner: "a", idx: idx(3, 50), kept: true, owners: []string{"a"}, bytes: 50},
			{op: "add", owner: "a", idx: idx(2, 10), kept: false, owners: []string{"a"}, bytes: 50}, // a slower, older build
			{op: "add", owner: "b", idx: idx(1, 20), kept: true, owners: []string{"a", "b"}, bytes: 70},
			{op: "remove", owner: "a", owners: []string{"b"}, bytes: 20},
			{op: "purge", owners: nil, bytes: 0},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newIndexCache(tt.owners, tt.budget)
			for i, st := range tt.steps {
				switch st.op {
				case "add":
					if kept := c.add(st.owner, st.idx); kept != st.kept {
						t.Errorf("step %d: add(%s, %d bytes) kept %v, want %v", i, st.owner, st.idx.bytes, kept, st.kept)
					}
				case "get":
					c.get(st.owner)
				case "remove":
					c.remove(st.owner)
				case "purge":
					c.purge()
				}
				var got []string
				for _, o := range []string{"a", "b", "c", "d", "e", "big"} {
					if _, ok := c.lru.Peek(o); ok {
						got = append(got, o)
					}
				}
				n, bytes := c.usage()
				if !cmp.Equal(got, st.owners) || n != len(st.owners) || bytes != st.bytes {
					t.Errorf("step %d (%s %s): cached %v (%d owners), %d bytes; want %v, %d bytes", i, st.op, st.owner, got, n, bytes, st.owners, st.bytes)
				}
			}
		})
	}
}

// countingStore counts the loads of index builds.
type countingStore struct {
	Store
	loads atomic.Int32
}

func (s *countingStore) LoadChunks(ctx context.Context, owner string, ids []string) ([]docstore.Doc, error) {
	s.loads.Add(1) // one batch: these tests' owners have a few small documents
	return s.Store.LoadChunks(ctx, owner, ids)
}

// With a byte budget that fits one owner's index, searching another owner evicts the first;
// the first owner's next question rebuilds its index from the store and gets the same
// passages, lexical and dense.
func TestEvictedOwnerRebuilds(t *testing.T) {
	ctx := context.Background()
	contract := "Договор поставки № П-15/2025\n\nЗа просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки. " +
		"Арендная плата за офис вносится ежемесячно до 5 числа."
	memo := "Служебная записка\n\nПремия главному бухгалтеру по итогам года. Штраф за опоздание отменён."
	fill := func(lib *Library) {
		t.Helper()
		for owner, text := range map[string]string{"u:1": contract, "u:2": memo} {
			if _, err := lib.Add(ctx, owner, 1, "doc.txt", []byte(text)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, dense := range []bool{false, true} {
		t.Run(fmt.Sprintf("dense=%v", dense), func(t *testing.T) {
			var emb Embedder
			if dense {
				emb = &fakeEmbedder{}
			}
			// Learn the two indexes' sizes on an unbounded library.
			probe := New(docstore.NewMemory(), emb, Options{})
			fill(probe)
			sizes := map[string]int64{}
			for _, owner := range []string{"u:1", "u:2"} {
				idx, err := probe.index(ctx, owner)
				if err != nil {
					t.Fatal(err)
				}
				sizes[owner] = idx.bytes
			}
			store := &countingStore{Store: docstore.NewMemory()}
			lib := New(store, emb, Options{CacheBytes: max(sizes["u:1"], sizes["u:2"]) + min(sizes["u:1"], sizes["u:2"])/2})
			fill(lib)
			q := Query{Text: "пени за просрочку поставки"}
			first, _, err := lib.Search(ctx, "u:1", q)
			if err != nil || len(first) == 0 {
				t.Fatalf("first search: %d passages, %v", len(first), err)
			}
			if _, _, err := lib.Search(ctx, "u:2", Query{Text: "премия бухгалтеру"}); err != nil {
				t.Fatal(err)
			}
			if n, bytes := lib.cache.usage(); n != 1 || bytes != sizes["u:2"] {
				t.Errorf("cache holds %d owners, %d bytes; want only u:2's %d bytes", n, bytes, sizes["u:2"])
			}
			again, _, err := lib.Search(ctx, "u:1", q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(first, again); diff != "" {
				t.Errorf("the rebuilt index answers differently (-before +after):\n%s", diff)
			}
			lib.Search(ctx, "u:1", q) // cached now
			if n := store.loads.Load(); n != 3 {
				t.Errorf("%d index builds, want 3 (u:1, u:2, u:1 again)", n)
			}
		})
	}
}

// ownerIndex.bytes stays close to what an index really holds, with and without 1,536-dimension
// vectors, on the evaluation corpus (ten copies: a vocabulary shared by many documents) and on
// generated files of three shapes (an archive's long paragraphs, a short paragraph a page,
// a number line a page: a vocabulary that grows with every line): within -10 % … +50 %, so
// the byte budget and the quota mean about what they say.
func TestIndexSizeEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ~10,000 chunks")
	}
	corpus := func(t *testing.T) [][]byte {
		var out [][]byte
		files, _ := filepath.Glob(filepath.Join(corpusDir, "corpus", "*.md"))
		for rep := range 10 {
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, append(fmt.Appendf(nil, "Копия %d\n\n", rep), data...))
			}
		}
		return out
	}
	generated := func(shape textShape) func(t *testing.T) [][]byte {
		return func(t *testing.T) [][]byte {
			return [][]byte{largeText(t, 1, 300_000, shape), largeText(t, 2, 300_000, shape)}
		}
	}
	tests := []struct {
		name  string
		files func(t *testing.T) [][]byte
	}{
		{"corpus", corpus},
		{"archive", generated(archive)},
		{"slips", generated(slips)},
		{"numbers", generated(numbers)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := docstore.NewMemory()
			files := tt.files(t)
			lib := New(store, nil, Options{MaxDocs: len(files)})
			for i, data := range files {
				if _, err := lib.Add(context.Background(), "u:1", 1, fmt.Sprintf("%d.txt", i), data); err != nil {
					t.Fatal(err)
				}
			}
			for _, dims := range []int{0, 1536} {
				estimate, measured, chunks := measureIndex(t, store, dims)
				ratio := float64(estimate) / float64(measured)
				t.Logf("dims %d, %d chunks: estimate %d bytes, measured %d, ratio %.2f", dims, chunks, estimate, measured, ratio)
				if ratio < 0.9 || ratio > 1.5 {
					t.Errorf("dims %d: estimate %d bytes for %d measured (ratio %.2f), want within 0.9 … 1.5", dims, estimate, measured, ratio)
				}
			}
		})
	}
}

// measureIndex builds the index of the store's owner "u:1", with vectors of dims, and returns
// its estimated bytes, the heap it holds and its chunks.
func measureIndex(t *testing.T, store *docstore.Memory, dims int) (estimate, measured int64, chunks int) {
	docs, err := store.Load(context.Background(), "u:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	// Fresh copies of what an index keeps, so that it is counted, not shared with docs.
	fresh := make([]docstore.Doc, len(docs))
	for i, d := range docs {
		d.Meta.ID, d.Meta.Title, d.Text = strings.Clone(d.Meta.ID), strings.Clone(d.Meta.Title), ""
		cs := make([]docstore.Chunk, len(d.Chunks))
		for j, c := range d.Chunks {
			c.Text, c.Heading = strings.Clone(c.Text), strings.Clone(c.Heading)
			cs[j] = c
		}
		// IndexBytes 0: the index counts what it builds (the recorded figure is docCost's,
		// which TestIndexBytesRecorded compares with this count).
		d.Chunks, d.Vectors, d.Meta.Dims, d.Meta.IndexBytes = cs, nil, dims, 0
		if dims > 0 {
			d.Vectors = make([][]float32, len(cs))
			for j := range cs {
				v := make([]float32, dims)
				for k := range v {
					v[k] = float32(k%7 + 1)
				}
				d.Vectors[j] = v
			}
		}
		fresh[i] = d
	}
	idx := buildIndex(1, fresh)
	fresh = nil
	idx.ix.Search(retrieval.Query{Text: "срок оплаты", TopK: 5}) // the search scratch
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(idx)
	runtime.KeepAlive(docs)
	return idx.bytes, int64(after.HeapAlloc) - int64(before.HeapAlloc), idx.ix.Len()
}
