package retrieval

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// synthChunks deterministically generates n chunks of about 120 words by
// mixing sentences of the evaluation corpus, with per-chunk document
// numbers, amounts, dates and INNs so the vocabulary keeps growing the way
// real documents do. 20 chunks share a DocID.
func synthChunks(tb testing.TB, n int) []Chunk {
	tb.Helper()
	chunks, _ := loadCorpus(tb)
	var sentences []string
	for _, c := range chunks {
		for _, s := range strings.Split(c.Text, ". ") {
			if len(strings.Fields(s)) >= 4 {
				sentences = append(sentences, s)
			}
		}
	}
	slices.Sort(sentences)
	sentences = slices.Compact(sentences)
	names := []string{"Техснаб", "Альфа", "Промметалл", "СтройМастер", "Канцлер", "Облачные решения", "Вектор", "Гамма"}
	out := make([]Chunk, n)
	state := uint64(0x9E3779B97F4A7C15)
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
		out[i] = Chunk{ID: fmt.Sprintf("%s#%d", doc, i%20), DocID: doc, Text: sb.String(), Page: i%20/4 + 1, Heading: names[(i/20)%len(names)]}
	}
	return out
}

var (
	synthOnce sync.Once
	synth100k []Chunk
)

func synthCorpus100k(tb testing.TB) []Chunk {
	synthOnce.Do(func() { synth100k = synthChunks(tb, 100_000) })
	return synth100k
}

func textBytes(chunks []Chunk) int64 {
	var n int64
	for _, c := range chunks {
		n += int64(len(c.Text) + len(c.Heading))
	}
	return n
}

// BenchmarkBuild100k measures index build throughput in MB/s of chunk text
// over 100,000 chunks (all CPUs).
func BenchmarkBuild100k(b *testing.B) {
	chunks := synthCorpus100k(b)
	b.SetBytes(textBytes(chunks))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		runtime.KeepAlive(Build(chunks))
	}
	b.ReportMetric(float64(len(chunks))*float64(b.N)/b.Elapsed().Seconds(), "chunks/s")
}

// BenchmarkBuild1k is the per-owner case: one owner's ~1,000 chunks on one
// goroutine.
func BenchmarkBuild1k(b *testing.B) {
	chunks := synthCorpus100k(b)[:1000]
	b.SetBytes(textBytes(chunks))
	b.ReportAllocs()
	for b.Loop() {
		runtime.KeepAlive(Build(chunks))
	}
}

// BenchmarkSearch100k measures query latency over 100,000 chunks with the
// evaluation questions, reporting p50 and p99.
func BenchmarkSearch100k(b *testing.B) {
	benchSearch(b, nil)
}

// BenchmarkSearch100kDocIDs is the same with a restriction to 3 documents
// (S4: selected documents).
func BenchmarkSearch100kDocIDs(b *testing.B) {
	benchSearch(b, []string{"doc-17", "doc-2500", "doc-4999"})
}

func benchSearch(b *testing.B, docIDs []string) {
	ix := Build(synthCorpus100k(b))
	qs := loadQuestions(b)
	lat := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		start := time.Now()
		hits := ix.Search(Query{Text: qs[i%len(qs)].Question, TopK: 5, DocIDs: docIDs})
		lat = append(lat, time.Since(start))
		runtime.KeepAlive(hits)
		i++
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkMemoryPer10k reports the heap held by an index of 10,000 chunks
// (postings, vocabulary, per-chunk arrays and the copied Chunk headers; the
// chunk text itself is shared with the caller and reported separately).
func BenchmarkMemoryPer10k(b *testing.B) {
	chunks := synthCorpus100k(b)[:10_000]
	var delta uint64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ix := Build(chunks)
		runtime.GC()
		runtime.ReadMemStats(&after)
		delta = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(ix)
	}
	b.ReportMetric(float64(delta), "bytes/10k-chunks")
	b.ReportMetric(float64(textBytes(chunks)), "text-bytes/10k-chunks")
}
