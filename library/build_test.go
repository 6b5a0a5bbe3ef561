package library

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/finbot/finbot/integrations/docstore"
)

// buildIndex indexes docs as a build does, all at once.
func buildIndex(version int64, docs []docstore.Doc) *ownerIndex {
	metas := make([]docstore.Meta, len(docs))
	for i, d := range docs {
		metas[i] = d.Meta
	}
	b := newIndexBuilder(version, metas)
	for _, d := range docs {
		b.add(d)
	}
	idx, err := b.finish(context.Background())
	if err != nil {
		panic(err) // unreachable: the context never ends
	}
	return idx
}

// corpusFiles returns the evaluation corpus's files by name.
func corpusFiles(t testing.TB) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(corpusDir, "corpus", "*.md"))
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = data
	}
	return out
}

// The IndexBytes an upload records is what the index counts for the document when it builds it
// from the stored chunks and vectors, lexical and dense; and the estimate for documents stored
// before IndexBytes were recorded (metaCost from characters and chunks) stays near it.
func TestIndexBytesRecorded(t *testing.T) {
	for _, emb := range []Embedder{nil, hashEmbedder{dims: 64}} {
		t.Run(fmt.Sprintf("dense=%v", emb != nil), func(t *testing.T) {
			ctx := context.Background()
			store := docstore.NewMemory()
			lib := New(store, emb, Options{})
			for name, data := range corpusFiles(t) {
				if _, err := lib.Add(ctx, "u:1", 1, name, data); err != nil {
					t.Fatal(err)
				}
			}
			metas, err := store.List(ctx, "u:1")
			if err != nil || len(metas) == 0 {
				t.Fatalf("%d documents, %v", len(metas), err)
			}
			docs, err := store.Load(ctx, "u:1", nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, d := range docs {
				recorded := d.Meta.IndexBytes
				if recorded == 0 {
					t.Fatalf("%s: no IndexBytes recorded", d.Meta.FileName)
				}
				d.Meta.IndexBytes = 0 // counted by the build, as a document stored before them would be
				if counted := buildIndex(1, []docstore.Doc{d}).bytes; counted != recorded {
					t.Errorf("%s: recorded %d bytes, the build counts %d", d.Meta.FileName, recorded, counted)
				}
				if ratio := float64(metaCost(d.Meta)) / float64(recorded); ratio < 0.7 || ratio > 1.5 {
					t.Errorf("%s: estimated %d bytes from its size for %d recorded (ratio %.2f), want within 0.7 … 1.5",
						d.Meta.FileName, metaCost(d.Meta), recorded, ratio)
				}
				if metaCost(metas[i]) != recorded {
					t.Errorf("%s: metaCost %d, want the recorded %d", d.Meta.FileName, metaCost(metas[i]), recorded)
				}
			}
		})
	}
}

// The quota counts what a file costs the index: a file of many tiny pages (one chunk each)
// is refused however few characters it has, before anything is stored; files that fit are
// stored until the next one would take the index past the bound; with vectors, their cost is
// counted before the embedder is asked. The refusal is ErrQuota with its own words.
func TestIndexQuota(t *testing.T) {
	ctx := context.Background()
	contract := corpusFiles(t)["dogovor-postavki-tehsnab.md"]
	pages := []byte(strings.Repeat("а\f", 20_000)) // 40,000 characters, 20,000 pages
	var one int64                                  // the contract's index cost
	{
		lib := New(docstore.NewMemory(), nil, Options{})
		added, err := lib.Add(ctx, "u:1", 1, "c.md", contract)
		if err != nil {
			t.Fatal(err)
		}
		one = added.Meta.IndexBytes
	}
	type upload struct {
		name string
		data []byte
		ok   bool
	}
	tests := []struct {
		name     string
		maxIndex int64
		dense    bool
		uploads  []upload
		embeds   int // embedder calls
	}{
		{"tiny pages", 1 << 20, false, []upload{{"pages.txt", pages, false}}, 0},
		{"until the bound", 2*one + one/2, false, []upload{
			{"1.md", contract, true},
			{"2.md", append([]byte("Копия 2\n\n"), contract...), true},
			{"3.md", append([]byte("Копия 3\n\n"), contract...), false},
		}, 0},
		{"vectors counted first", 2*one + one/2, true, []upload{
			{"1.md", contract, true},
			{"2.md", append([]byte("Копия 2\n\n"), contract...), false}, // fits as words, not with 1,536 dimensions
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := docstore.NewMemory()
			emb := &countingEmbedder{Embedder: hashEmbedder{dims: 1536}}
			lib := New(store, nil, Options{MaxIndexBytes: tt.maxIndex})
			if tt.dense {
				lib = New(store, emb, Options{MaxIndexBytes: tt.maxIndex})
			}
			stored := 0
			for _, u := range tt.uploads {
				_, err := lib.Add(ctx, "u:1", 1, u.name, u.data)
				if u.ok {
					if err != nil {
						t.Fatalf("%s: %v", u.name, err)
					}
					stored++
					continue
				}
				if !errors.Is(err, ErrQuota) || !strings.Contains(UserMessage(err), "слишком много памяти") {
					t.Fatalf("%s: %v (%q), want the index quota", u.name, err, UserMessage(err))
				}
			}
			if metas, _ := store.List(ctx, "u:1"); len(metas) != stored {
				t.Errorf("%d documents stored, want %d", len(metas), stored)
			}
			if n := emb.calls(); n != tt.embeds {
				t.Errorf("the embedder was asked %d times, want %d", n, tt.embeds)
			}
		})
	}
}

// countingEmbedder counts Embed calls.
type countingEmbedder struct {
	Embedder
	mu sync.Mutex
	n  int
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.Embedder.Embed(ctx, texts)
}

func (c *countingEmbedder) calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// A library stored before the index quota, larger than the bound, is not loaded whole: the
// question is refused with ErrTooLarge and words for the user, and the next question at the
// same version is refused without loading it again.
func TestOversizedLibraryIsNotBuilt(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		legacy bool // stored without IndexBytes: the estimate passes, the build finds out
		loads  int32
	}{
		{"recorded", false, 0},
		{"estimated too low", true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := docstore.NewMemory()
			var recorded int64
			for i, data := range []string{string(corpusFiles(t)["dogovor-arendy.md"]), string(corpusFiles(t)["akt-rabot-77.md"])} {
				lib := New(mem, nil, Options{})
				added, err := lib.Add(ctx, "u:1", 1, fmt.Sprintf("%d.md", i), []byte(data))
				if err != nil {
					t.Fatal(err)
				}
				recorded += added.Meta.IndexBytes
				if tt.legacy {
					ds, _ := mem.Load(ctx, "u:1", []string{added.Meta.ID})
					ds[0].Meta.IndexBytes, ds[0].Meta.Chars = 0, 10 // an estimate far too low
					if err := mem.Put(ctx, "u:1", ds[0]); err != nil {
						t.Fatal(err)
					}
				}
			}
			store := &countingStore{Store: mem}
			lib := New(store, nil, Options{MaxIndexBytes: recorded / 2})
			for range 2 {
				_, _, err := lib.Search(ctx, "u:1", Query{Text: "арендная плата"})
				if !errors.Is(err, ErrTooLarge) || UserMessage(err) == "" || IsUnavailable(err) {
					t.Fatalf("search: %v (%q), want ErrTooLarge explained", err, UserMessage(err))
				}
			}
			if n := store.loads.Load(); n != tt.loads {
				t.Errorf("%d loads, want %d", n, tt.loads)
			}
		})
	}
}

// gateStore blocks LoadChunks until the test lets it through.
type gateStore struct {
	Store
	entered chan string   // the owner, as LoadChunks starts
	open    chan struct{} // receive to proceed
}

func (g *gateStore) LoadChunks(ctx context.Context, owner string, ids []string) ([]docstore.Doc, error) {
	g.entered <- owner
	select {
	case <-g.open:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.Store.LoadChunks(ctx, owner, ids)
}

// Builds of two owners whose indexes do not fit the process's build memory together run one
// after the other; a question whose own deadline passes stops waiting while the build it
// started goes on and serves the next question; a build that outlives BuildTimeout is
// abandoned with ErrTooLarge.
func TestBuildsAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		mem := docstore.NewMemory()
		files := corpusFiles(t)
		for _, owner := range []string{"u:1", "u:2"} {
			if _, err := New(mem, nil, Options{}).Add(ctx, owner, 1, "c.md", files["dogovor-postavki-tehsnab.md"]); err != nil {
				t.Fatal(err)
			}
		}
		metas, _ := mem.List(ctx, "u:1")
		need := metaCost(metas[0]) + loadBytes(metas[0])
		gate := &gateStore{Store: mem, entered: make(chan string, 4), open: make(chan struct{})}
		lib := New(gate, nil, Options{Builds: NewBuildMemory(need + need/2), BuildTimeout: time.Minute})
		q := Query{Text: "срок оплаты"}

		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for _, owner := range []string{"u:1", "u:2"} {
			wg.Go(func() {
				_, _, err := lib.Search(ctx, owner, q)
				errs <- err
			})
		}
		synctest.Wait()
		if n := len(gate.entered); n != 1 {
			t.Fatalf("%d builds loading at once, want 1 (the other waits for memory)", n)
		}
		<-gate.entered
		gate.open <- struct{}{}
		synctest.Wait()
		if n := len(gate.entered); n != 1 {
			t.Fatalf("after the first build, %d loading, want the second", n)
		}
		<-gate.entered
		gate.open <- struct{}{}
		wg.Wait()
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}

		// A question with a short deadline of its own stops waiting; the build finishes and
		// the next question finds the index cached.
		if _, err := New(mem, nil, Options{}).Add(ctx, "u:1", 1, "a.md", files["akt-rabot-77.md"]); err != nil {
			t.Fatal(err)
		}
		short, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		if _, _, err := lib.Search(short, "u:1", q); !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrTooLarge) {
			t.Fatalf("a question past its deadline: %v, want its own context.DeadlineExceeded", err)
		}
		<-gate.entered
		gate.open <- struct{}{}
		synctest.Wait()
		if ps, _, err := lib.Search(ctx, "u:1", q); err != nil || len(ps) == 0 || len(gate.entered) != 0 {
			t.Fatalf("the next question: %d passages, %v, %d loads; want the cached index", len(ps), err, len(gate.entered))
		}

		// Nobody lets the build load: it gives up at BuildTimeout.
		if _, err := New(mem, nil, Options{}).Add(ctx, "u:2", 1, "a.md", files["akt-rabot-77.md"]); err != nil {
			t.Fatal(err)
		}
		_, _, err := lib.Search(ctx, "u:2", q)
		if !errors.Is(err, ErrTooLarge) || !errors.Is(err, context.DeadlineExceeded) || UserMessage(err) == "" {
			t.Fatalf("a build past BuildTimeout: %v, want ErrTooLarge (deadline)", err)
		}
		<-gate.entered
	})
}

// Quantised vectors give the cosines of the float vectors within 2e-3, and the same
// nearest chunk.
func TestQuantizedCosine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const dims = 1536
	b := newIndexBuilder(1, nil)
	vecs := make([][]float32, 200)
	for i := range vecs {
		v := make([]float32, dims)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		vecs[i] = v
		b.chunks = append(b.chunks, retrievalChunk("d", docstore.Chunk{N: i}))
		b.addVector(i, v)
	}
	q := unit(vecs[7])
	for i, v := range vecs {
		u := unit(v)
		var want float64
		for j := range u {
			want += float64(u[j]) * float64(q[j])
		}
		if got := b.idx.vecs[i].cosine(q); math.Abs(got-want) > 2e-3 {
			t.Errorf("vector %d: cosine %.5f, want %.5f", i, got, want)
		}
	}
	if hits := b.idx.nearest(vecs[7], nil, 1); len(hits) != 1 || hits[0].Chunk.ID != "d#7" {
		t.Errorf("nearest = %v, want d#7", hits)
	}
}

// Heavy work tells the request's HeavyWatcher: a question that builds the owner's index and
// an upload do, a question the cached index answers does not.
func TestHeavyWatcher(t *testing.T) {
	ctx := context.Background()
	var begun, ended int
	watched := WithHeavyWatcher(ctx, func() func() {
		begun++
		return func() { ended++ }
	})
	lib := New(docstore.NewMemory(), nil, Options{})
	steps := []struct {
		name string
		run  func() error
		want int // heavy work begun so far
	}{
		{"upload", func() error {
			_, err := lib.Add(watched, "u:1", 1, "c.md", corpusFiles(t)["dogovor-arendy.md"])
			return err
		}, 1},
		{"first question", func() error {
			_, _, err := lib.Search(watched, "u:1", Query{Text: "арендная плата"})
			return err
		}, 2},
		{"cached", func() error {
			_, _, err := lib.Search(watched, "u:1", Query{Text: "арендная плата"})
			return err
		}, 2},
		{"no watcher", func() error {
			lib.cache.purge()
			_, _, err := lib.Search(ctx, "u:1", Query{Text: "аренда"})
			return err
		}, 2},
	}
	for _, st := range steps {
		if err := st.run(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if begun != st.want || ended != begun {
			t.Errorf("%s: heavy work begun %d times, ended %d; want %d, all ended", st.name, begun, ended, st.want)
		}
	}
}
