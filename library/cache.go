package library

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/finbot/finbot/integrations/docstore"
)

// Cache defaults.
const (
	// DefaultCacheOwners bounds how many owners' indexes stay in memory.
	DefaultCacheOwners = 256
	// DefaultCacheBytes bounds the estimated memory of the cached indexes (512 MiB).
	DefaultCacheBytes = 512 << 20
)

// indexCache keeps the owners' indexes most recently searched, bounded twice: by the number of
// owners and by the sum of the indexes' estimated sizes (ownerIndex.bytes). Adding an index
// evicts least recently used owners until both bounds hold; an index larger than the whole
// byte budget is not kept at all (its owner's searches rebuild it from the store each time).
// It is safe for concurrent use.
type indexCache struct {
	budget int64

	mu    sync.Mutex
	lru   *simplelru.LRU[string, *ownerIndex]
	bytes int64 // sum of the cached indexes' sizes
}

func newIndexCache(owners int, budget int64) *indexCache {
	c := &indexCache{budget: budget}
	// The eviction callback runs under c.mu: every method that may evict holds it.
	c.lru, _ = simplelru.NewLRU(owners, func(_ string, idx *ownerIndex) { c.bytes -= idx.bytes }) // owners > 0: cannot fail
	return c
}

// get returns the owner's cached index and marks it most recently used.
func (c *indexCache) get(owner string) (*ownerIndex, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Get(owner)
}

// add caches idx for owner unless the cache holds a newer version of the owner's index
// (a slower build must not replace a fresher one). It reports whether idx is cached.
func (c *indexCache) add(owner string, idx *ownerIndex) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := c.lru.Peek(owner); ok {
		if cur.version > idx.version {
			return false
		}
		c.lru.Remove(owner) // the callback takes its bytes off
	}
	if idx.bytes > c.budget {
		return false
	}
	c.lru.Add(owner, idx) // may evict the least recently used owner (the count bound)
	c.bytes += idx.bytes
	for c.bytes > c.budget {
		c.lru.RemoveOldest() // never idx itself: it is the newest and fits alone
	}
	return true
}

// remove drops the owner's index (its documents changed).
func (c *indexCache) remove(owner string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(owner)
}

// purge drops every index.
func (c *indexCache) purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Purge()
}

// usage returns how many owners are cached and their indexes' estimated bytes.
func (c *indexCache) usage() (owners int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.bytes
}

// Per-item costs of an ownerIndex, in bytes, measured on the evaluation corpus with
// runtime.MemStats (TestIndexSizeEstimate keeps the estimate honest).
const (
	// chunkOverhead: a retrieval.Chunk in the index (72) and in its vector's qvec, the
	// chunk's "<doc>#<n>" id, its chunkN entry, its lengths and offsets in the index and the
	// search scratch's score slot.
	chunkOverhead = 300
	// wordCost: postings of a word in the chunk and in the document (id and weight, 8 bytes
	// each) — fewer than the words, as words repeat — and its share of a vocabulary that
	// many chunks share.
	wordCost = 4
	// numberCost: what a number, a date or a code of a chunk's text adds besides — the terms
	// it adds to the vocabulary (a map entry and the term), as most occur in one chunk only.
	// A file of number lines costs the index several times its size (TestIndexSizeEstimate).
	numberCost = 40
	// docOverhead: a document's Meta and its entries in the index's document tables.
	docOverhead = 512
	// runeCost estimates, for a document stored before its IndexBytes were recorded, what
	// each character of its text costs the index: its UTF-8 bytes (Cyrillic takes two), the
	// chunks' overlap and the postings of its words (TestMetaCost compares it with chunkCost).
	runeCost = 4
)

// chunkCost estimates what one chunk of a document titled title (of tw words) adds to an
// index: its text and heading (the title is indexed with every chunk's heading), its postings, the terms its
// numbers add and the fixed overhead. Vectors are counted apart.
func chunkCost(title string, tw int, c docstore.Chunk) int64 {
	hl, hw := len(title), tw
	if c.Heading != "" {
		hl += 1 + len(c.Heading)
		w, _ := words(c.Heading)
		hw += w
	}
	w, numbers := words(c.Text)
	return int64(len(c.Text)+hl+chunkOverhead) + int64(w+hw)*wordCost + int64(numbers)*numberCost
}

// docCost is what a document with chunks and vectors of dims dimensions (0: none) adds to an
// index: what put records as its IndexBytes.
func docCost(m docstore.Meta, chunks []docstore.Chunk, dims int) int64 {
	n, tw := docBytes(m), titleWords(m.Title)
	for _, c := range chunks {
		n += chunkCost(m.Title, tw, c)
	}
	if dims > 0 {
		n += int64(len(chunks)) * vectorBytes(dims)
	}
	return n
}

// titleWords counts the words of a title (indexed with each of the document's chunks).
func titleWords(title string) int {
	n, _ := words(title)
	return n
}

// docBytes is a document's own share of an index, chunks apart.
func docBytes(m docstore.Meta) int64 {
	return docOverhead + int64(len(m.Title)+len(m.FileName))
}

// vectorBytes is the memory of one quantised vector of dims dimensions (one byte each, the
// slice and its scale).
func vectorBytes(dims int) int64 { return int64(dims) + 32 }

// metaCost is what a stored document adds to its owner's index: the IndexBytes recorded when
// it was stored, or, for a document stored before they were, an estimate from its size.
func metaCost(m docstore.Meta) int64 {
	if m.IndexBytes > 0 {
		return m.IndexBytes
	}
	perChunk := int64(chunkOverhead+len(m.Title)+1) + int64(titleWords(m.Title))*wordCost
	if m.Dims > 0 {
		perChunk += vectorBytes(m.Dims)
	}
	return docBytes(m) + int64(m.Chunks)*perChunk + int64(m.Chars)*runeCost
}

// loadBytes estimates what loading a document for indexing holds in transit: its chunks'
// JSON twice (the store's reply and the bytes it is decoded from) and a piece of its vectors
// (EachVector reads a megabyte at a time).
func loadBytes(m docstore.Meta) int64 {
	n := int64(m.Chars) * 5
	if m.Dims > 0 {
		n += 2 << 20
	}
	return n
}

// words counts the runs of letters and digits of s (about the terms the index makes of it),
// and, of those, the runs with a digit: numbers, dates and codes, which seldom repeat across
// chunks, so that most of them add a term to the vocabulary.
func words(s string) (all, numeric int) {
	in, digit := false, false
	for _, r := range s {
		var alnum, isDigit bool
		if r < utf8.RuneSelf {
			isDigit = '0' <= r && r <= '9'
			alnum = isDigit || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
		} else {
			isDigit = unicode.IsDigit(r)
			alnum = isDigit || unicode.IsLetter(r)
		}
		switch {
		case alnum && !in:
			all++
			in, digit = true, isDigit
		case alnum:
			digit = digit || isDigit
		case in:
			if digit {
				numeric++
			}
			in = false
		}
	}
	if in && digit {
		numeric++
	}
	return all, numeric
}
