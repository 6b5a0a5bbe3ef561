package library

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/internal/testredis"
	"github.com/finbot/finbot/library/extract"
)

// textShape is how a generated text file is laid out.
type textShape struct {
	words int  // words of corpus sentences a paragraph has after its numbers
	pages bool // each paragraph on a page of its own (a form feed after it), no headings
}

var (
	// archive: long paragraphs under a heading every 20 — a large archive's text.
	archive = textShape{words: 90}
	// slips: a short paragraph a page — the text that costs the index most per character
	// (a chunk, with its fixed costs and its vector, for every page).
	slips = textShape{words: 8, pages: true}
	// numbers: a page a number line, no prose — the index quota, not the characters', binds.
	numbers = textShape{words: 0, pages: true}
)

// largeText returns about runes runes of Russian contract text as a .txt file would hold it:
// the evaluation corpus's sentences in a deterministic mix, each paragraph with a contract
// number, an INN, a date and an amount of its own, so that the vocabulary keeps growing the
// way a big archive's does.
func largeText(tb testing.TB, seed uint64, runes int, shape textShape) []byte {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(corpusDir, "corpus", "*.md"))
	var sentences []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for _, s := range strings.Split(string(data), ". ") {
			s = strings.TrimSpace(strings.ReplaceAll(s, "#", ""))
			if len(strings.Fields(s)) >= 4 {
				sentences = append(sentences, s)
			}
		}
	}
	slices.Sort(sentences)
	sentences = slices.Compact(sentences)
	state := seed*0x9E3779B97F4A7C15 + 1
	next := func() uint64 { // xorshift64*: deterministic across runs
		state ^= state >> 12
		state ^= state << 25
		state ^= state >> 27
		return state * 2685821657736338717
	}
	var sb strings.Builder
	sb.Grow(runes * 2)
	n := 0
	for p := 0; n < runes; p++ {
		start := sb.Len()
		if p%20 == 0 && !shape.pages {
			fmt.Fprintf(&sb, "Раздел %d. Расчёты с контрагентом № %d\n\n", p/20+1, next()%100000)
		}
		fmt.Fprintf(&sb, "По договору № Д-%d/%d от %02d.%02d.%d ИНН %010d сумма %d %03d,%02d руб. ",
			next()%100000, 2020+next()%7, 1+next()%28, 1+next()%12, 2020+next()%7, 7700000000+next()%99999999,
			1+next()%999, next()%1000, next()%100)
		for words := 0; words < shape.words; {
			s := sentences[next()%uint64(len(sentences))]
			sb.WriteString(s)
			sb.WriteString(". ")
			words += strings.Count(s, " ") + 1
		}
		if shape.pages {
			sb.WriteString("\f")
		} else {
			sb.WriteString("\n\n")
		}
		n += len([]rune(sb.String()[start:]))
	}
	return []byte(sb.String())
}

// fillQuota uploads large text files of shape (just under extract.DefaultMaxChars each) for
// owner until the library refuses one for its quota, then smaller ones (halving down to
// 100,000 characters) until those are refused too, and returns how many it took.
func fillQuota(tb testing.TB, lib *Library, owner string, shape textShape) (docs int, chars int) {
	tb.Helper()
	ctx := context.Background()
	size := extract.DefaultMaxChars - 100_000
	for i := 0; ; i++ {
		data := largeText(tb, uint64(i+1), size, shape)
		added, err := lib.Add(ctx, owner, 1, fmt.Sprintf("archive-%d.txt", i), data)
		if errors.Is(err, ErrQuota) {
			if size /= 2; size < 100_000 {
				return docs, chars
			}
			continue
		}
		if err != nil {
			tb.Fatalf("add file %d: %v", i, err)
		}
		docs++
		chars += added.Meta.Chars
		if i > 1000 {
			tb.Fatal("the quota never refused a file")
		}
	}
}

// peakMemory samples the Go heap (live and not yet collected objects) and the memory the
// runtime holds from the OS every millisecond until stop is called, which returns the peaks.
type peakMemory struct {
	stop func() (heap, total uint64)
}

func samplePeak() peakMemory {
	samples := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	var (
		heap, total uint64
		wg          sync.WaitGroup
		done        = make(chan struct{})
	)
	read := func() {
		metrics.Read(samples)
		heap = max(heap, samples[0].Value.Uint64())
		total = max(total, samples[1].Value.Uint64()-samples[2].Value.Uint64())
	}
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			read()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return peakMemory{stop: func() (uint64, uint64) {
		close(done)
		wg.Wait()
		read()
		return heap, total
	}}
}

// hashEmbedder returns deterministic vectors of dims dimensions (a hash of each text's words),
// as an embeddings model of that size would: what matters here is their size.
type hashEmbedder struct{ dims int }

func (h hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, h.dims)
		for _, w := range strings.Fields(t) {
			x := uint32(2166136261)
			for j := 0; j < len(w); j++ {
				x = (x ^ uint32(w[j])) * 16777619
			}
			v[x%uint32(h.dims)]++
		}
		out[i] = v
	}
	return out, nil
}

// cpuSeconds is the CPU time the Go runtime has spent so far, in Go code and in the collector
// (the runtime's estimate): on a shared machine it moves less than the wall time.
func cpuSeconds() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/user:cpu-seconds"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64() + s[1].Value.Float64()
}

// BenchmarkFirstQuestionFullQuota: an owner has filled the document quota with large text
// files (stored in the real Redis; lexical only and with 1,536-dimension vectors; an archive's
// long paragraphs, and a page for every short paragraph, which costs the index most); their
// first question loads the documents and builds the index. It reports the peak of the Go heap
// during the question above the live heap before it (peak-heap-MB), the peak of the memory
// the Go runtime held from the OS (peak-total-MB: the process's footprint without its binary,
// the benchmark's own ~11 MiB included), the time and the CPU time.
//
//	go test ./library -run '^$' -bench FirstQuestionFullQuota -benchtime 3x
func BenchmarkFirstQuestionFullQuota(b *testing.B) {
	for _, tc := range []struct {
		name  string
		shape textShape
		dims  int
	}{
		{"archive/dims=0", archive, 0},
		{"archive/dims=1536", archive, 1536},
		{"slips/dims=0", slips, 0},
		{"slips/dims=1536", slips, 1536},
		{"numbers/dims=0", numbers, 0},
		{"numbers/dims=1536", numbers, 1536},
	} {
		dims := tc.dims
		b.Run(tc.name, func(b *testing.B) {
			rdb := testredis.Client(b)
			store := docstore.NewRedis(rdb, testredis.Prefix(b, rdb))
			var emb Embedder
			if dims > 0 {
				emb = hashEmbedder{dims}
			}
			lib := New(store, emb, Options{})
			const owner = "u:quota"
			docs, chars := fillQuota(b, lib, owner, tc.shape)
			b.Logf("quota filled with %d files, %d characters", docs, chars)
			ctx := context.Background()
			var peakHeap, peakTotal, baseTotal uint64
			var cpu float64
			for b.Loop() {
				b.StopTimer()
				lib.cache.purge()
				debug.FreeOSMemory() // a GC, and what it freed goes back: the peaks start from the live heap
				var base runtime.MemStats
				runtime.ReadMemStats(&base)
				baseTotal = base.Sys - base.HeapReleased
				b.StartTimer()
				cpu0 := cpuSeconds()
				peak := samplePeak()
				_, info, err := lib.Search(ctx, owner, Query{Text: "какой срок оплаты по договору поставки"})
				heap, total := peak.stop()
				cpu += cpuSeconds() - cpu0
				if err != nil {
					b.Fatal(err)
				}
				if info.Chunks == 0 {
					b.Fatal("nothing indexed")
				}
				peakHeap = max(peakHeap, heap-min(heap, base.HeapAlloc))
				peakTotal = max(peakTotal, total)
			}
			if idx, ok := lib.cache.get(owner); ok {
				runtime.GC()
				var live runtime.MemStats
				runtime.ReadMemStats(&live)
				b.Logf("index: %d chunks, %d vectors, %.1f MiB estimated, %.1f MiB live", idx.ix.Len(), len(idx.vecs),
					float64(idx.bytes)/(1<<20), float64(live.HeapAlloc)/(1<<20))
			}
			b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(peakTotal)/(1<<20), "peak-total-MB")
			b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(chars), "quota-chars")
			b.Logf("before the question the runtime held %.1f MiB", float64(baseTotal)/(1<<20))
		})
	}
}
