package library

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/finbot/finbot/library/retrieval"
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
	// chunkOverhead: a retrieval.Chunk in the index (72) and in vecChunks, the chunk's
	// "<doc>#<n>" id, its chunkN entry and the search scratch's score slot.
	chunkOverhead = 200
	// wordCost: postings of a word in the chunk and in the document (id and weight, 8 bytes
	// each) — fewer than the words, as words repeat — and its share of the vocabulary.
	wordCost = 12
	// docOverhead: a document's Meta and its entries in the index's document tables.
	docOverhead = 512
)

// chunkBytes estimates what one chunk adds to an index: its text and heading, its postings
// and the fixed overhead. Vectors are counted apart.
func chunkBytes(c retrieval.Chunk) int64 {
	return int64(len(c.Text)+len(c.Heading)+chunkOverhead) + int64(words(c.Text)+words(c.Heading))*wordCost
}

// vectorBytes is the memory of one unit vector of dims float32s.
func vectorBytes(dims int) int64 { return int64(dims)*4 + 24 }

// words counts the runs of letters and digits of s: about the terms the index makes of it.
func words(s string) int {
	n, in := 0, false
	for _, r := range s {
		if r < utf8.RuneSelf {
			alnum := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
			if alnum && !in {
				n++
			}
			in = alnum
			continue
		}
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if alnum && !in {
			n++
		}
		in = alnum
	}
	return n
}
