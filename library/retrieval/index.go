package retrieval

import (
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
)

// Chunk is one retrievable passage of a document.
type Chunk struct {
	ID      string // unique within the index, e.g. "<doc>#<n>"; Build does not check
	DocID   string // the document the chunk belongs to
	Text    string // the passage text
	Page    int    // page number in the source document, if known
	Heading string // the nearest heading; indexed together with Text
}

// Options are the ranking parameters.
type Options struct {
	K1 float64 // term-frequency saturation; default 1.2
	B  float64 // length normalisation, 0..1; default 0.75

	// DocWeight mixes in document context: a chunk that matches the query
	// also gets DocWeight times the BM25 score of its whole document (all
	// chunks of the DocID taken together). Questions name the document
	// («по договору с Техснабом», «акт № 77») while the answering clause
	// does not repeat the name; this lets the document's header vouch for
	// its clauses. Only chunks with at least one matching term are scored.
	// 0 means the default (0.5); a negative value disables it.
	DocWeight float64
}

// DefaultOptions returns k1 = 1.2, b = 0.75, DocWeight = 0.5.
func DefaultOptions() Options { return Options{K1: 1.2, B: 0.75, DocWeight: 0.5} }

// Index is an immutable BM25 index over chunks. It is safe for concurrent
// Search once Build has returned.
//
// Postings are stored in one flat array per field (CSR layout) with the BM25
// weight of every (term, chunk) pair precomputed, so a search is a sum over
// the postings of the query terms followed by a top-k selection.
type Index struct {
	chunks []Chunk
	opts   Options

	vocab map[string]uint32 // term -> term id
	off   []uint32          // postings of term t are [off[t], off[t+1])
	pDoc  []uint32          // chunk index of each posting, ascending per term
	pW    []float32         // precomputed BM25 weight of each posting

	// Document-level postings (chunks of a DocID merged), same layout;
	// dDoc holds document ordinals.
	dOff []uint32
	dDoc []uint32
	dW   []float32

	docOrd []uint32          // chunk index -> document ordinal
	docs   map[string]uint32 // DocID -> document ordinal

	// scratch pools *searchScratch. A pointer, not a field: a used sync.Pool is listed in the
	// runtime until two collections have passed, and as a field it would keep the whole
	// index alive for a collection after its last user dropped it.
	scratch *sync.Pool
}

// Build indexes chunks with DefaultOptions. Tokenisation and stemming
// happen here, once; large inputs are tokenised on all CPUs.
func Build(chunks []Chunk) *Index { return BuildWithOptions(chunks, DefaultOptions()) }

// BuildWithOptions indexes chunks with the given options; zero or
// out-of-range values fall back to the defaults (see Options). The chunk slice is copied,
// the strings in it are shared.
func BuildWithOptions(chunks []Chunk, opts Options) *Index {
	ix, _ := build(context.Background(), slices.Clone(chunks), opts, buildWorkers(len(chunks))) // cannot fail without a ctx
	return ix
}

// BuildContext is Build for a caller with a budget: it tokenises on one goroutine, whose
// vocabulary becomes the index's (parallel workers each hold one, merged into a new one:
// for chunks full of numbers and codes, whose terms seldom repeat, that is the largest part
// of the memory a build takes), and it gives up when ctx is done, returning ctx's error.
// The index keeps chunks itself, not a copy: the caller must not change it afterwards.
func BuildContext(ctx context.Context, chunks []Chunk) (*Index, error) {
	return build(ctx, chunks, DefaultOptions(), 1)
}

// buildWorkers keeps small builds (one owner's few documents) on one
// goroutine and spreads large ones over GOMAXPROCS.
func buildWorkers(n int) int {
	w := min(runtime.GOMAXPROCS(0), (n+minChunksPerWorker-1)/minChunksPerWorker)
	return max(w, 1)
}

// build indexes chunks, which the index keeps.
func build(ctx context.Context, chunks []Chunk, opts Options, workers int) (*Index, error) {
	def := DefaultOptions()
	if !(opts.K1 > 0) || math.IsInf(opts.K1, 0) {
		opts.K1 = def.K1
	}
	if !(opts.B >= 0 && opts.B <= 1) {
		opts.B = def.B
	}
	switch {
	case opts.DocWeight < 0:
		opts.DocWeight = 0
	case opts.DocWeight == 0 || math.IsNaN(opts.DocWeight) || math.IsInf(opts.DocWeight, 0):
		opts.DocWeight = def.DocWeight
	}
	ix := &Index{
		chunks: chunks,
		opts:   opts,
		docs:   make(map[string]uint32),
		docOrd: make([]uint32, len(chunks)),
	}
	for i := range ix.chunks {
		id := ix.chunks[i].DocID
		ord, ok := ix.docs[id]
		if !ok {
			ord = uint32(len(ix.docs))
			ix.docs[id] = ord
		}
		ix.docOrd[i] = ord
	}
	n := len(ix.chunks)
	numDocs := len(ix.docs)
	ix.scratch = &sync.Pool{New: func() any {
		return &searchScratch{scores: make([]float32, n), docScores: make([]float32, numDocs)}
	}}

	parts := tokenizeParallel(ctx, ix.chunks, workers)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// Merge the workers' local vocabularies in chunk order, so term ids (and
	// therefore everything downstream) are deterministic.
	var df []uint32
	if len(parts) == 1 {
		// One worker: its local term ids are the global ones (p.global stays nil), and it
		// kept no list of terms: that is needed only to merge.
		p := parts[0]
		ix.vocab = p.local
		df = make([]uint32, p.nterms)
	} else {
		ix.vocab = make(map[string]uint32)
		for _, p := range parts {
			p.global = make([]uint32, len(p.terms))
			for local, term := range p.terms {
				g, ok := ix.vocab[term]
				if !ok {
					g = uint32(len(df))
					ix.vocab[term] = g
					df = append(df, 0)
				}
				p.global[local] = g
			}
		}
	}
	for _, p := range parts {
		for _, lt := range p.pairTerm {
			df[p.globalID(lt)]++
		}
	}

	// Offsets (prefix sums of document frequencies) and IDF.
	ix.off = make([]uint32, len(df)+1)
	idf := make([]float64, len(df))
	for t, f := range df {
		ix.off[t+1] = ix.off[t] + f
		idf[t] = math.Log(1 + (float64(n)-float64(f)+0.5)/(float64(f)+0.5))
	}
	total := ix.off[len(df)]
	ix.pDoc = make([]uint32, total)
	ix.pW = make([]float32, total)
	var pTF []uint16 // kept for the document-level postings
	if opts.DocWeight > 0 {
		pTF = make([]uint16, total)
	}

	var sumLen float64
	for _, p := range parts {
		for _, l := range p.length {
			sumLen += float64(l)
		}
	}
	avgLen := 1.0
	if n > 0 && sumLen > 0 {
		avgLen = sumLen / float64(n)
	}

	// Fill postings in chunk order: each term's list ends up sorted.
	cursor := make([]uint32, len(df))
	copy(cursor, ix.off[:len(df)])
	k1, b := opts.K1, opts.B
	for _, p := range parts {
		at := 0
		for c := range p.length {
			chunk := uint32(p.first + c)
			norm := k1 * (1 - b + b*float64(p.length[c])/avgLen)
			for ; at < int(p.pairEnd[c]); at++ {
				g := p.globalID(p.pairTerm[at])
				tf := float64(p.pairTF[at])
				pos := cursor[g]
				cursor[g]++
				ix.pDoc[pos] = chunk
				ix.pW[pos] = float32(idf[g] * tf * (k1 + 1) / (tf + norm))
				if pTF != nil {
					pTF[pos] = p.pairTF[at]
				}
			}
		}
	}
	if pTF != nil {
		ix.buildDocPostings(parts, pTF)
	}
	return ix, nil
}

// buildDocPostings derives document-level BM25 postings from the chunk
// postings: a document's term frequency is the sum over its chunks, its
// length the sum of its chunks' lengths.
func (ix *Index) buildDocPostings(parts []*tokenized, pTF []uint16) {
	numDocs := len(ix.docs)
	docLen := make([]float64, numDocs)
	var sum float64
	for _, p := range parts {
		for c, l := range p.length {
			docLen[ix.docOrd[p.first+c]] += float64(l)
			sum += float64(l)
		}
	}
	avg := 1.0
	if numDocs > 0 && sum > 0 {
		avg = sum / float64(numDocs)
	}
	k1, b := ix.opts.K1, ix.opts.B
	norm := make([]float64, numDocs)
	for d, l := range docLen {
		norm[d] = k1 * (1 - b + b*l/avg)
	}
	terms := len(ix.off) - 1
	ix.dOff = make([]uint32, terms+1)
	ix.dDoc = make([]uint32, 0, len(ix.pDoc)/4)
	ix.dW = make([]float32, 0, len(ix.pDoc)/4)
	tf := make([]uint32, numDocs)
	var touched []uint32
	for t := range terms {
		touched = touched[:0]
		for pos := ix.off[t]; pos < ix.off[t+1]; pos++ {
			d := ix.docOrd[ix.pDoc[pos]]
			if tf[d] == 0 {
				touched = append(touched, d)
			}
			tf[d] += uint32(pTF[pos])
		}
		df := float64(len(touched))
		idf := math.Log(1 + (float64(numDocs)-df+0.5)/(df+0.5))
		for _, d := range touched {
			f := float64(tf[d])
			ix.dDoc = append(ix.dDoc, d)
			ix.dW = append(ix.dW, float32(idf*f*(k1+1)/(f+norm[d])))
			tf[d] = 0
		}
		ix.dOff[t+1] = uint32(len(ix.dDoc))
	}
}

// Len returns the number of chunks in the index.
func (ix *Index) Len() int { return len(ix.chunks) }

// MaxIDF returns the largest weight a term can have in this index, that of a term no chunk
// contains: ln(1 + (N + 0.5)/0.5) for N chunks. A BM25 score divided by it reads as «about
// this many distinctive terms matched», which compares across indexes of different sizes.
func (ix *Index) MaxIDF() float64 {
	if ix == nil {
		return 0
	}
	return math.Log(1 + (float64(len(ix.chunks))+0.5)/0.5)
}

// tokenized is one worker's share of Build: chunks [first, first+len(length)).
type tokenized struct {
	first    int
	alone    bool              // the only worker: its term ids are the index's, terms stays nil
	nterms   int               // local terms
	terms    []string          // local term id -> term, to merge workers' vocabularies
	local    map[string]uint32 // term -> local term id
	pairTerm []uint32          // local term id of each distinct (chunk, term) pair
	pairTF   []uint16          // its term frequency (saturated at 65535)
	pairEnd  []uint32          // pairs of chunk c end at pairEnd[c]
	length   []uint32          // chunk length in terms
	global   []uint32          // local term id -> global term id (filled by Build; nil: the same)
}

// globalID returns the index's term id of the worker's term id local.
func (p *tokenized) globalID(local uint32) uint32 {
	if p.global == nil {
		return local
	}
	return p.global[local]
}

// minChunksPerWorker is the smallest share of chunks worth a goroutine.
const minChunksPerWorker = 2048

// tokenizeParallel splits chunks into contiguous ranges, one per worker. Workers stop early
// when ctx is done (the caller checks ctx.Err()).
func tokenizeParallel(ctx context.Context, chunks []Chunk, workers int) []*tokenized {
	parts := make([]*tokenized, workers)
	per := (len(chunks) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		lo := min(w*per, len(chunks))
		hi := min(lo+per, len(chunks))
		parts[w] = &tokenized{first: lo, alone: workers == 1}
		wg.Go(func() { parts[w].run(ctx, chunks[lo:hi]) })
	}
	wg.Wait()
	return parts
}

// ctxEvery is how many chunks a tokenising worker handles between looks at its context.
const ctxEvery = 256

// run tokenises chunks, counting term frequencies with a last-seen array
// indexed by local term id (linear, no per-chunk map). It stops early, leaving the rest of
// the chunks empty, when ctx is done.
func (p *tokenized) run(ctx context.Context, chunks []Chunk) {
	tk := newTokenizer(0)
	local := make(map[string]uint32) // term -> local term id
	p.local = local
	wordIDs := make(map[string]int32) // word -> local term id, -1 = dropped
	type seen struct {
		chunk int32  // the last chunk the term occurred in
		count uint32 // its occurrences in that chunk
	}
	var (
		last   []seen   // by local term id
		uniq   []uint32 // distinct terms of the current chunk
		chunk  int32
		length uint32
	)
	record := func(id uint32) {
		if last[id].chunk != chunk {
			last[id] = seen{chunk: chunk}
			uniq = append(uniq, id)
		}
		last[id].count++
		length++
	}
	intern := func(term []byte) uint32 {
		id, ok := local[string(term)]
		if !ok {
			id = uint32(p.nterms)
			p.nterms++
			s := string(term)
			local[s] = id
			if !p.alone {
				p.terms = append(p.terms, s)
			}
			last = append(last, seen{chunk: -1})
		}
		return id
	}
	emit := func(term []byte) { record(intern(term)) }
	tk.wordHook = func(w []byte, cyr, lat bool) {
		id, ok := wordIDs[string(w)]
		if !ok {
			id = -1
			if term := sharedTerm(w, cyr, lat); term != "" {
				id = int32(intern([]byte(term)))
			}
			wordIDs[string(w)] = id
		}
		if id >= 0 {
			record(uint32(id))
		}
	}
	// About one distinct (chunk, term) pair per 12 bytes of Russian text.
	var size int
	for i := range chunks {
		size += len(chunks[i].Text) + len(chunks[i].Heading)
	}
	p.pairTerm = make([]uint32, 0, size/12+16)
	p.pairTF = make([]uint16, 0, size/12+16)
	p.pairEnd = make([]uint32, len(chunks))
	p.length = make([]uint32, len(chunks))
	for i := range chunks {
		if i%ctxEvery == 0 && ctx.Err() != nil {
			return
		}
		chunk, length, uniq = int32(i), 0, uniq[:0]
		if chunks[i].Heading != "" {
			tk.run(chunks[i].Heading, emit)
		}
		tk.run(chunks[i].Text, emit)
		for _, id := range uniq {
			p.pairTerm = append(p.pairTerm, id)
			p.pairTF = append(p.pairTF, uint16(min(last[id].count, math.MaxUint16)))
		}
		p.pairEnd[i] = uint32(len(p.pairTerm))
		p.length[i] = length
	}
}
