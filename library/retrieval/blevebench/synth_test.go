package blevebench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/library/retrieval"
)

// synthChunks is a copy of the generator in library/retrieval
// (bench_test.go), so both modules benchmark the same data: it
// deterministically generates n chunks of about 120 words by mixing
// sentences of the evaluation corpus (corpus must be the chunked evaluation
// corpus, as returned by load), with per-chunk document numbers, amounts,
// dates and INNs so the vocabulary keeps growing the way real documents do.
// 20 chunks share a DocID. The generator is sequential, so
// synthChunks(c, 10_000) equals synthChunks(c, 100_000)[:10_000].
func synthChunks(corpus []retrieval.Chunk, n int) []retrieval.Chunk {
	var sentences []string
	for _, c := range corpus {
		for _, s := range strings.Split(c.Text, ". ") {
			if len(strings.Fields(s)) >= 4 {
				sentences = append(sentences, s)
			}
		}
	}
	slices.Sort(sentences)
	sentences = slices.Compact(sentences)
	names := []string{"Техснаб", "Альфа", "Промметалл", "СтройМастер", "Канцлер", "Облачные решения", "Вектор", "Гамма"}
	out := make([]retrieval.Chunk, n)
	state := uint64(synthSeed)
	next := func() uint64 { // xorshift64*: deterministic across runs
		state ^= state >> 12
		state ^= state << 25
		state ^= state >> 27
		return state * 2685821657736338717
	}
	var sb strings.Builder
	for i := range out {
		sb.Reset()
		fmt.Fprintf(&sb, "Договор № Д-%d/%d с ООО «%s», ИНН %010d, от %02d.%02d.%d на сумму %d %03d,%02d руб. ",
			i%5000, 2020+i%7, names[i%len(names)], 7700000000+next()%99999999,
			1+i%28, 1+i%12, 2020+i%7, 1+next()%999, next()%1000, next()%100)
		for words := 0; words < 110; {
			s := sentences[next()%uint64(len(sentences))]
			sb.WriteString(s)
			sb.WriteString(". ")
			words += strings.Count(s, " ") + 1
		}
		doc := fmt.Sprintf("doc-%d", i/20)
		out[i] = retrieval.Chunk{ID: fmt.Sprintf("%s#%d", doc, i%20), DocID: doc, Text: sb.String(), Page: i%20/4 + 1, Heading: names[(i/20)%len(names)]}
	}
	return out
}

// synthSeed is the xorshift64* seed of synthChunks (the same as in
// library/retrieval/bench_test.go).
const synthSeed = 0x9E3779B97F4A7C15

// textBytes is the amount of chunk text (text plus heading) an index is
// built over; build throughput is reported per byte of it.
func textBytes(chunks []retrieval.Chunk) int64 {
	var n int64
	for _, c := range chunks {
		n += int64(len(c.Text) + len(c.Heading))
	}
	return n
}
