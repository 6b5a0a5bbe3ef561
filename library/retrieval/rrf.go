package retrieval

import "sort"

// DefaultRRFK is the RRF constant used when RRF is called with k <= 0.
const DefaultRRFK = 60

// RRF fuses ranked lists by reciprocal rank: a chunk at 1-based position r
// of a list contributes 1/(k+r), and contributions are summed over lists.
// Positions in the lists are used, not Hit.Rank, and a chunk repeated within
// one list counts only at its first position. Hits are deduplicated by
// Chunk.ID, keeping the Chunk of the first occurrence. The result is sorted
// by fused score, best first; equal scores keep the order in which the
// chunks were first seen (lists in argument order, each from the top), so
// the output is deterministic. Score holds the fused score and Rank the
// 1-based position. k <= 0 means DefaultRRFK.
func RRF(k int, lists ...[]Hit) []Hit {
	if k <= 0 {
		k = DefaultRRFK
	}
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	if n == 0 {
		return nil
	}
	at := make(map[string]int, n) // Chunk.ID -> index in out
	out := make([]Hit, 0, n)
	seen := make(map[string]bool)
	for _, l := range lists {
		clear(seen)
		for pos, h := range l {
			if seen[h.Chunk.ID] {
				continue
			}
			seen[h.Chunk.ID] = true
			contrib := 1 / float64(k+pos+1)
			if i, ok := at[h.Chunk.ID]; ok {
				out[i].Score += contrib
				continue
			}
			at[h.Chunk.ID] = len(out)
			out = append(out, Hit{Chunk: h.Chunk, Score: contrib})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}
