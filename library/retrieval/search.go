package retrieval

// DefaultTopK is the number of hits Search returns when Query.TopK <= 0.
const DefaultTopK = 5

// Query is a search request.
type Query struct {
	Text   string   // free text; tokenised exactly like the indexed chunks
	TopK   int      // maximum number of hits; <= 0 means DefaultTopK
	DocIDs []string // restrict hits to these documents; empty means all
}

// Hit is one search result.
type Hit struct {
	Chunk Chunk
	Score float64 // BM25 score (for RRF output: the fused score)
	Rank  int     // 1-based position in the result list
}

// searchScratch is the per-search accumulator, pooled per index so a search
// over 100,000 chunks does not allocate 400 KB each time.
type searchScratch struct {
	scores    []float32 // chunk index -> accumulated score; all zero between searches
	docScores []float32 // document ordinal -> document-level score; likewise
	docsHit   []uint32
	touched   []uint32 // chunks with a non-zero score
	terms     []uint32
	allowed   []uint64 // bitset over document ordinals
	heap      []scored
}

type scored struct {
	score float32
	chunk uint32
}

// better orders hits: higher score first, then earlier chunk (stable for
// equal scores).
func (a scored) better(b scored) bool {
	return a.score > b.score || a.score == b.score && a.chunk < b.chunk
}

// Search returns up to q.TopK chunks ranked by BM25, best first. Chunks of
// documents outside a non-empty q.DocIDs are never returned (if none of the
// listed documents is in the index the result is empty). A query without
// indexable terms returns nil. Search is safe for concurrent use.
func (ix *Index) Search(q Query) []Hit {
	if ix == nil || len(ix.chunks) == 0 {
		return nil
	}
	k := q.TopK
	if k <= 0 {
		k = DefaultTopK
	}
	sc := ix.scratch.Get().(*searchScratch)
	defer ix.scratch.Put(sc)

	// Query terms, deduplicated, unknown terms skipped.
	sc.terms = sc.terms[:0]
	tk := tokenizerPool.Get().(*tokenizer)
	tk.run(q.Text, func(term []byte) {
		id, ok := ix.vocab[string(term)]
		if !ok {
			return
		}
		for _, t := range sc.terms {
			if t == id {
				return
			}
		}
		sc.terms = append(sc.terms, id)
	})
	tokenizerPool.Put(tk)
	if len(sc.terms) == 0 {
		return nil
	}

	// Document filter as a bitset over document ordinals.
	filter := len(q.DocIDs) > 0
	if filter {
		words := (len(ix.docs) + 63) / 64
		if cap(sc.allowed) < words {
			sc.allowed = make([]uint64, words)
		}
		sc.allowed = sc.allowed[:words]
		clear(sc.allowed)
		known := false
		for _, id := range q.DocIDs {
			if ord, ok := ix.docs[id]; ok {
				sc.allowed[ord/64] |= 1 << (ord % 64)
				known = true
			}
		}
		if !known {
			return nil
		}
	}

	// Accumulate.
	scores, touched := sc.scores, sc.touched[:0]
	for _, t := range sc.terms {
		lo, hi := ix.off[t], ix.off[t+1]
		docs, ws := ix.pDoc[lo:hi], ix.pW[lo:hi]
		for i, c := range docs {
			if filter {
				ord := ix.docOrd[c]
				if sc.allowed[ord/64]&(1<<(ord%64)) == 0 {
					continue
				}
			}
			if scores[c] == 0 {
				touched = append(touched, c)
			}
			scores[c] += ws[i]
		}
	}

	// Document context: add DocWeight × the document's own BM25 score.
	if w := float32(ix.opts.DocWeight); w > 0 && len(ix.dOff) > 0 {
		dscores, hit := sc.docScores, sc.docsHit[:0]
		for _, t := range sc.terms {
			lo, hi := ix.dOff[t], ix.dOff[t+1]
			for i, d := range ix.dDoc[lo:hi] {
				if dscores[d] == 0 {
					hit = append(hit, d)
				}
				dscores[d] += ix.dW[lo+uint32(i)]
			}
		}
		for _, c := range touched {
			scores[c] += w * dscores[ix.docOrd[c]]
		}
		for _, d := range hit {
			dscores[d] = 0
		}
		sc.docsHit = hit[:0]
	}

	// Top-k with a min-heap whose root is the worst kept hit.
	h := sc.heap[:0]
	for _, c := range touched {
		s := scored{scores[c], c}
		scores[c] = 0
		switch {
		case len(h) < k:
			h = append(h, s)
			siftUp(h, len(h)-1)
		case s.better(h[0]):
			h[0] = s
			siftDown(h, 0)
		}
	}
	sc.touched, sc.heap = touched[:0], h

	hits := make([]Hit, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		top := h[0]
		h[0] = h[i]
		siftDown(h[:i], 0)
		hits[i] = Hit{Chunk: ix.chunks[top.chunk], Score: float64(top.score), Rank: i + 1}
	}
	return hits
}

// The heap keeps the worst element at the root: parent is "not better" than
// its children.
func siftUp(h []scored, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[p].better(h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func siftDown(h []scored, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		w := l
		if r := l + 1; r < len(h) && h[l].better(h[r]) {
			w = r
		}
		if !h[i].better(h[w]) {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}
