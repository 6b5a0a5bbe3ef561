package library

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/sync/semaphore"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library/retrieval"
)

// Index builds. The first question of an owner whose index is not cached loads the owner's
// documents and indexes them. That is the most memory one question can cost, so a build is
// bounded four ways:
//
//   - streaming: documents are loaded a batch at a time without their full text (the index
//     needs only chunks and vectors), each document's vectors a piece at a time, and vectors
//     are kept quantised to one byte a dimension; what a batch took in transit is garbage
//     once it is indexed;
//   - per owner: the owner's index may not grow past Options.MaxIndexBytes — uploads that
//     would take it there are refused (the quota counts each document's index cost, not only
//     its characters), and a build that finds more (documents stored before the quota) stops;
//   - per process: builds take their estimated memory from a BuildMemory shared by every
//     Library of the process before they load anything, so builds of many owners at once wait
//     for each other instead of multiplying the memory;
//   - in time: Options.BuildTimeout bounds each build, the wait for memory included; the
//     question that started it stops waiting when its own context ends, and the build goes on
//     (within its budget) for the next question.

// ErrTooLarge: the owner's documents make an index larger than Options.MaxIndexBytes, or one
// that could not be built within Options.BuildTimeout. UserMessage explains it.
var ErrTooLarge = errors.New("docs: document index over its budget")

// Build defaults.
const (
	// DefaultMaxIndexBytes bounds one owner's index (128 MiB estimated). The default quota of
	// 20,000,000 characters of ordinary Russian text takes about 120 MiB with 1,536-dimension
	// vectors.
	DefaultMaxIndexBytes = 128 << 20
	// DefaultBuildMemory bounds the index builds of a process running at once (256 MiB): one
	// build of a full library, or several smaller ones.
	DefaultBuildMemory = 256 << 20
	// DefaultBuildTimeout bounds one index build.
	DefaultBuildTimeout = 30 * time.Second
	// batchLoad bounds what one LoadChunks call brings in transit (loadBytes), so that small
	// documents are read a few dozen at a time and a large one alone.
	batchLoad = 16 << 20
)

// BuildMemory bounds the estimated memory of the index builds running at once. Pass one to
// every Library of a process (Options.Builds). It is safe for concurrent use.
type BuildMemory struct {
	size int64
	sem  *semaphore.Weighted
}

// NewBuildMemory returns a bound of bytes (DefaultBuildMemory when bytes <= 0).
func NewBuildMemory(bytes int64) *BuildMemory {
	if bytes <= 0 {
		bytes = DefaultBuildMemory
	}
	return &BuildMemory{size: bytes, sem: semaphore.NewWeighted(bytes)}
}

// acquire waits until n bytes (at most the whole bound, at least 1) are free, or ctx ends.
func (m *BuildMemory) acquire(ctx context.Context, n int64) (release func(), err error) {
	n = min(max(n, 1), m.size)
	if err := m.sem.Acquire(ctx, n); err != nil {
		return nil, fmt.Errorf("docs: waiting for index build memory: %w", err)
	}
	return func() { m.sem.Release(n) }, nil
}

// index returns the owner's index, rebuilding it when the stored version moved on. A caller
// whose ctx ends stops waiting; the build it started goes on within its own budget and is
// cached for the next question.
func (l *Library) index(ctx context.Context, owner string) (*ownerIndex, error) {
	v, err := l.store.Version(ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("docs: version: %w", err)
	}
	if idx, ok := l.cache.get(owner); ok && idx.version == v {
		return idx, nil
	}
	if err := l.tooLarge.check(owner, v); err != nil {
		return nil, err
	}
	// Whoever answers the question is told that it waits on the heaviest work a question does.
	defer beginHeavy(ctx)()
	// The build runs on singleflight's goroutine, owned by the group and ended by its budget.
	ch := l.build.DoChan(fmt.Sprintf("%s@%d", owner, v), func() (res any, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("docs: index build panicked: %v", p)
			}
		}()
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.opts.BuildTimeout)
		defer cancel()
		idx, err := l.buildOwner(bctx, owner, v)
		if errors.Is(err, ErrTooLarge) && !errors.Is(err, context.DeadlineExceeded) {
			l.tooLarge.add(owner, v, err)
		}
		if err != nil {
			return nil, err
		}
		if !l.cache.add(owner, idx) && idx.bytes > l.opts.CacheBytes {
			l.log.WarnContext(ctx, "document index larger than the whole index cache; rebuilt on every search", "owner", owner,
				"owner_chunks", idx.ix.Len(), "index_bytes", idx.bytes, "cache_bytes", l.opts.CacheBytes)
		}
		return idx, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*ownerIndex), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("docs: index of %s: %w", owner, ctx.Err())
	}
}

// buildOwner builds the owner's index at version from the store, a batch of documents at a
// time, within ctx and the library's bounds.
func (l *Library) buildOwner(ctx context.Context, owner string, version int64) (*ownerIndex, error) {
	metas, err := l.store.List(ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("docs: list %s: %w", owner, err)
	}
	var est, transit int64
	batches := loadBatches(metas)
	for _, m := range metas {
		est += metaCost(m)
	}
	for _, b := range batches {
		transit = max(transit, b.load)
	}
	if est > l.opts.MaxIndexBytes {
		return nil, fmt.Errorf("%w: the index of %s's %d documents would take about %d bytes, over %d",
			ErrTooLarge, owner, len(metas), est, l.opts.MaxIndexBytes)
	}
	release, err := l.opts.Builds.acquire(ctx, est+transit)
	if err != nil {
		return nil, err
	}
	defer release()
	b := newIndexBuilder(version, metas)
	for _, batch := range batches {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w: %s's index not built in %s: %w", ErrTooLarge, owner, l.opts.BuildTimeout, err)
		}
		docs, err := l.store.LoadChunks(ctx, owner, batch.ids)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%w: %s's index not built in %s: %w", ErrTooLarge, owner, l.opts.BuildTimeout, err)
			}
			return nil, fmt.Errorf("docs: load %s: %w", owner, err)
		}
		for _, d := range docs {
			first := len(b.chunks)
			b.add(d)
			if d.Meta.Dims == 0 || len(d.Chunks) == 0 {
				continue
			}
			err := l.store.EachVector(ctx, owner, d.Meta, func(i int, v []float32) { b.addVector(first+i, v) })
			switch {
			case ctx.Err() != nil:
				return nil, fmt.Errorf("%w: %s's index not built in %s: %w", ErrTooLarge, owner, l.opts.BuildTimeout, ctx.Err())
			case errors.Is(err, docstore.ErrChanged):
				// Replaced since its chunks were read: the version has moved on, and the next
				// question rebuilds; this one searches the document's words only.
				l.log.InfoContext(ctx, "document changed while indexed; its vectors left out", "owner", owner, "doc", d.Meta.ID)
			case err != nil:
				return nil, fmt.Errorf("docs: vectors of %s: %w", owner, err)
			}
		}
		if b.idx.bytes > l.opts.MaxIndexBytes {
			return nil, fmt.Errorf("%w: %s's index takes over %d bytes", ErrTooLarge, owner, l.opts.MaxIndexBytes)
		}
	}
	idx, err := b.finish(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %s's index not built in %s: %w", ErrTooLarge, owner, l.opts.BuildTimeout, err)
	}
	return idx, nil
}

// batch is documents loaded together.
type batch struct {
	ids  []string
	load int64 // sum of their loadBytes
}

// loadBatches groups documents, in order, into batches of at most batchLoad in transit (a
// larger document is a batch of its own) and at most 64 documents.
func loadBatches(metas []docstore.Meta) []batch {
	var out []batch
	var cur batch
	for _, m := range metas {
		n := loadBytes(m)
		if len(cur.ids) > 0 && (cur.load+n > batchLoad || len(cur.ids) == 64) {
			out = append(out, cur)
			cur = batch{}
		}
		cur.ids = append(cur.ids, m.ID)
		cur.load += n
	}
	if len(cur.ids) > 0 {
		out = append(out, cur)
	}
	return out
}

// indexBuilder accumulates documents into an ownerIndex.
type indexBuilder struct {
	idx      *ownerIndex
	chunks   []retrieval.Chunk
	arena    []int8 // the quantised vectors, one after another
	recorded bool   // the document added last has its IndexBytes recorded
}

// newIndexBuilder sizes the builder for metas (what List said the documents hold), so that
// nothing grows by copying while documents are added.
func newIndexBuilder(version int64, metas []docstore.Meta) *indexBuilder {
	chunks, vecs, dims := 0, 0, 0
	for _, m := range metas {
		chunks += m.Chunks
		if m.Dims > 0 {
			vecs += m.Chunks
			dims += m.Chunks * m.Dims
		}
	}
	return &indexBuilder{
		idx: &ownerIndex{version: version, metas: make(map[string]docstore.Meta, len(metas)),
			chunkN: make(map[string]int, chunks), vecs: make([]qvec, 0, vecs)},
		chunks: make([]retrieval.Chunk, 0, chunks),
		arena:  make([]int8, 0, dims),
	}
}

// add indexes one document's chunks, and its vectors when d has them (addVector adds them
// one by one otherwise). The document's cost is the IndexBytes recorded when it was stored,
// or, for one stored before they were, counted as its chunks and vectors are added.
func (b *indexBuilder) add(d docstore.Doc) {
	idx := b.idx
	idx.metas[d.Meta.ID] = d.Meta
	b.recorded = d.Meta.IndexBytes > 0
	if b.recorded {
		idx.bytes += d.Meta.IndexBytes
	} else {
		idx.bytes += docBytes(d.Meta)
	}
	tw := titleWords(d.Meta.Title)
	withVectors := len(d.Vectors) == len(d.Chunks)
	headings := map[string]string{} // one string per distinct heading of the document
	for i, c := range d.Chunks {
		rc := retrievalChunk(d.Meta.ID, c)
		// The document title vouches for its clauses: it is indexed with every chunk's
		// heading, so «договор с Техснабом» finds the clause on penalties.
		h, ok := headings[c.Heading]
		if !ok {
			h = strings.TrimSpace(d.Meta.Title + "\n" + c.Heading)
			headings[c.Heading] = h
		}
		rc.Heading = h
		b.chunks = append(b.chunks, rc)
		idx.chunkN[rc.ID] = c.N
		if !b.recorded {
			idx.bytes += chunkCost(d.Meta.Title, tw, c)
		}
		if withVectors {
			b.addVector(len(b.chunks)-1, d.Vectors[i])
		}
	}
}

// addVector adds the vector of the chunk-th chunk added, of the document added last (v is
// not kept).
func (b *indexBuilder) addVector(chunk int, v []float32) {
	if chunk >= len(b.chunks) {
		return
	}
	if q, ok := b.quantize(v); ok {
		q.chunk = b.chunks[chunk]
		b.idx.vecs = append(b.idx.vecs, q)
		if !b.recorded {
			b.idx.bytes += vectorBytes(len(q.v))
		}
	}
}

// quantize stores v's direction in the arena: scaled to unit length, then to one byte a
// dimension with one scale for the vector. A cosine computed from it is within about 1e-3 of
// the float one, and it takes a quarter of the memory. It reports false for a zero vector.
func (b *indexBuilder) quantize(v []float32) (qvec, bool) {
	var n, top float64
	for _, x := range v {
		n += float64(x) * float64(x)
		top = max(top, math.Abs(float64(x)))
	}
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return qvec{}, false
	}
	n = math.Sqrt(n)
	scale := top / n / 127 // unit length: the largest component becomes ±127
	q := b.take(len(v))
	for i, x := range v {
		q[i] = int8(math.Round(float64(x) / n / scale))
	}
	return qvec{v: q, scale: float32(scale)}, true
}

// take returns the next n bytes of the arena. The arena never grows by copying (the vectors
// already in it would keep the old array alive): when metas undercounted, a new block starts.
func (b *indexBuilder) take(n int) []int8 {
	if cap(b.arena)-len(b.arena) < n {
		b.arena = make([]int8, 0, max(n, 1<<20))
	}
	start := len(b.arena)
	b.arena = b.arena[:start+n]
	return b.arena[start : start+n : start+n]
}

// finish indexes the accumulated chunks.
func (b *indexBuilder) finish(ctx context.Context) (*ownerIndex, error) {
	ix, err := retrieval.BuildContext(ctx, b.chunks)
	if err != nil {
		return nil, err
	}
	b.idx.ix = ix
	return b.idx, nil
}

// qvec is a chunk's unit vector quantised to int8: component i is v[i]·scale.
type qvec struct {
	v     []int8
	scale float32
	chunk retrieval.Chunk
}

// cosine returns the cosine similarity of the vector with q, a unit vector of the same length.
func (v *qvec) cosine(q []float32) float64 {
	var dot float32
	for j, x := range v.v {
		dot += float32(x) * q[j]
	}
	return float64(dot) * float64(v.scale)
}

// tooLarge remembers the owners whose index was over the budget, at the version it was, so
// that their next questions are refused without loading their documents again.
type tooLarge struct {
	mu  sync.Mutex
	lru *simplelru.LRU[string, tooLargeAt]
}

type tooLargeAt struct {
	version int64
	err     error
}

func newTooLarge() *tooLarge {
	lru, _ := simplelru.NewLRU[string, tooLargeAt](1024, nil) // a positive size: cannot fail
	return &tooLarge{lru: lru}
}

func (t *tooLarge) add(owner string, version int64, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lru.Add(owner, tooLargeAt{version, err})
}

// check returns the error of the owner's last build when it was over the budget at version.
func (t *tooLarge) check(owner string, version int64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if at, ok := t.lru.Get(owner); ok && at.version == version {
		return at.err
	}
	return nil
}
