package library

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library/retrieval"
)

// Query is a search over one owner's documents.
type Query struct {
	// Text is the user's question; relevance is judged against it.
	Text string
	// Expansions are extra sub-queries (from the LLM), each searched and fused with Text.
	Expansions []string
	// DocIDs restricts the search to these documents; empty = all of the owner's.
	DocIDs []string
	// TopK is how many passages to return (default 5).
	TopK int
	// MinOverlap is the relevance floor: the share of the question's terms a passage (with
	// its document title) must contain; 0 means the default 0.5.
	MinOverlap float64
	// MinEvidence, when positive, is the answer gate (see KBMinEvidence): a passage is
	// returned only when it also has at least this much lexical evidence for Text, and
	// similarity of meaning alone no longer lets it in. An index of fewer than 20 chunks is
	// not gated (see minGateChunks).
	MinEvidence float64
}

// Passage is one retrieved chunk with its source.
type Passage struct {
	DocID   string  `json:"doc_id"`
	Title   string  `json:"title"`
	Page    int     `json:"page,omitempty"`
	Heading string  `json:"heading,omitempty"`
	Text    string  `json:"text"`
	N       int     `json:"n"`
	Score   float64 `json:"score"`    // fused RRF score
	Overlap float64 `json:"coverage"` // share of the question's terms found in the passage and its document title
	// Evidence is the passage's BM25 score for the question itself (not its expansions) in
	// units of the index's largest term weight: about how many distinctive terms of the
	// question it matches. 0 when only the dense search found it.
	Evidence float64 `json:"evidence"`
	Dense    float64 `json:"dense,omitempty"`
	// Meta is the document the passage comes from.
	Meta docstore.Meta `json:"-"`
}

// SearchInfo says how a search ran, for the debug payload.
type SearchInfo struct {
	Chunks     int      `json:"chunks"`     // chunks in the searched index
	Lists      int      `json:"lists"`      // ranked lists fused
	Dense      bool     `json:"dense"`      // vectors took part
	Candidates int      `json:"candidates"` // fused hits before the relevance floor
	Degraded   []string `json:"degraded,omitempty"`
}

const (
	// MinOverlap is the relevance floor: a passage (with its document's title) must contain
	// at least this share of the question's distinct terms to be offered as an answer.
	MinOverlap = 0.5
	// MinDense lets a passage in on meaning alone when its cosine similarity is this high.
	MinDense = 0.55
	// candidates per ranked list before fusion.
	candidates = 30
	// maxQueries bounds the question plus its expansions.
	maxQueries = 4
	// embedQueryTimeout bounds embedding the queries; lexical search answers when it runs out.
	embedQueryTimeout = 5 * time.Second
)

// Search returns the owner's passages that answer q best, most relevant first, or none when
// nothing in the documents is relevant enough.
func (l *Library) Search(ctx context.Context, owner string, q Query) ([]Passage, SearchInfo, error) {
	var info SearchInfo
	if q.TopK <= 0 {
		q.TopK = 5
	}
	if q.MinOverlap <= 0 {
		q.MinOverlap = MinOverlap
	}
	idx, err := l.index(ctx, owner)
	if err != nil {
		return nil, info, err
	}
	info.Chunks = idx.ix.Len()
	if info.Chunks == 0 {
		return nil, info, nil
	}
	queries := []string{q.Text}
	for _, e := range q.Expansions {
		if e = strings.TrimSpace(e); e != "" && !slices.Contains(queries, e) && len(queries) < maxQueries {
			queries = append(queries, e)
		}
	}
	var lists [][]retrieval.Hit
	lexical := map[string]float64{} // chunk → BM25 score for the question itself
	for i, text := range queries {
		hits := idx.ix.Search(retrieval.Query{Text: text, TopK: candidates, DocIDs: q.DocIDs})
		if len(hits) > 0 {
			lists = append(lists, hits)
		}
		if i == 0 {
			for _, h := range hits {
				lexical[h.Chunk.ID] = h.Score
			}
		}
	}
	dense := map[string]float64{}
	if l.emb != nil && len(idx.vecs) > 0 {
		ectx, cancel := context.WithTimeout(ctx, embedQueryTimeout)
		qv, err := l.emb.Embed(ectx, queries)
		cancel()
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, info, ctx.Err()
		case err != nil:
			l.log.WarnContext(ctx, "query embedding failed; lexical search only", "err", err)
			info.Degraded = append(info.Degraded, "embeddings_unavailable")
		default:
			info.Dense = true
			for _, v := range qv {
				hits := idx.nearest(v, q.DocIDs, candidates)
				for _, h := range hits {
					dense[h.Chunk.ID] = max(dense[h.Chunk.ID], h.Score)
				}
				if len(hits) > 0 {
					lists = append(lists, hits)
				}
			}
		}
	}
	info.Lists = len(lists)
	fused := retrieval.RRF(0, lists...)
	info.Candidates = len(fused)
	terms := questionTerms(q.Text)
	var out []Passage
	for _, h := range fused {
		meta := idx.metas[h.Chunk.DocID]
		p := Passage{DocID: h.Chunk.DocID, Title: meta.Title, Page: h.Chunk.Page, Heading: h.Chunk.Heading,
			Text: h.Chunk.Text, N: idx.chunkN[h.Chunk.ID], Score: h.Score, Dense: dense[h.Chunk.ID], Meta: meta}
		p.Overlap = overlap(terms, meta.Title+"\n"+h.Chunk.Heading+"\n"+h.Chunk.Text)
		p.Evidence = lexical[h.Chunk.ID] / idx.ix.MaxIDF()
		if relevant(p, q, info.Chunks) {
			out = append(out, p)
		}
		if len(out) == q.TopK {
			break
		}
	}
	return out, info, nil
}

// searchWords are the words of a request about searching itself («найди в загруженных
// документах»): they say where to look, not what, so relevance is judged without them.
var searchWords = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range retrieval.Tokens("найди найти поищи покажи отыщи скажи подскажи посмотри есть ли документ документы документах " +
		"файл файле файлах загруженный загруженном загруженных присланном мои моих моем этом этой там сказано написано указано говорится") {
		m[t] = true
	}
	return m
}()

// questionTerms are the distinct content terms of a question.
func questionTerms(q string) []string {
	var out []string
	for _, t := range distinct(retrieval.Tokens(q)) {
		if !searchWords[t] {
			out = append(out, t)
		}
	}
	return out
}

// overlap is the share of terms that occur in text.
func overlap(terms []string, text string) float64 {
	if len(terms) == 0 {
		return 0
	}
	have := map[string]bool{}
	for _, t := range retrieval.Tokens(text) {
		have[t] = true
	}
	n := 0
	for _, t := range terms {
		if have[t] {
			n++
		}
	}
	return float64(n) / float64(len(terms))
}

func distinct(ts []string) []string {
	seen := map[string]bool{}
	out := ts[:0:0]
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// ownerIndex is the searchable form of one owner's documents at one version (built by
// indexBuilder).
type ownerIndex struct {
	version int64
	ix      *retrieval.Index
	metas   map[string]docstore.Meta
	chunkN  map[string]int
	// vecs are the chunks' unit vectors, quantised, for cosine search.
	vecs []qvec
	// bytes estimates the memory the index holds (see chunkCost), for the cache's budget.
	bytes int64
}

// nearest returns the k chunks most similar to v (cosine), restricted to docIDs when given.
func (idx *ownerIndex) nearest(v []float32, docIDs []string, k int) []retrieval.Hit {
	q := unit(v)
	if q == nil {
		return nil
	}
	var hits []retrieval.Hit
	for i := range idx.vecs {
		c := &idx.vecs[i]
		if len(docIDs) > 0 && !slices.Contains(docIDs, c.chunk.DocID) {
			continue
		}
		if len(c.v) != len(q) {
			continue // a document embedded with another model
		}
		hits = append(hits, retrieval.Hit{Chunk: c.chunk, Score: c.cosine(q)})
	}
	slices.SortStableFunc(hits, func(a, b retrieval.Hit) int { return cmp.Compare(b.Score, a.Score) })
	if len(hits) > k {
		hits = hits[:k]
	}
	for i := range hits {
		hits[i].Rank = i + 1
	}
	return hits
}

// unit returns v scaled to length 1, or nil for a zero vector.
func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return nil
	}
	n = math.Sqrt(n)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

// IsUnavailable reports whether err is a storage outage rather than the user's mistake.
func IsUnavailable(err error) bool {
	return err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrQuota) && !errors.Is(err, ErrTooLarge) && UserMessage(err) == ""
}
