package retrieval

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestSearchBasics(t *testing.T) {
	chunks := []Chunk{
		{ID: "a#0", DocID: "a", Text: "Срок оплаты по договору поставки — 20 банковских дней."},
		{ID: "a#1", DocID: "a", Text: "Неустойка за просрочку поставки 0,1% в день.", Heading: "Ответственность сторон"},
		{ID: "b#0", DocID: "b", Text: "Арендная плата 385 000,00 рублей в месяц."},
		{ID: "b#1", DocID: "b", Text: "Договор аренды подписали Кравцов и Морозова."},
	}
	ix := Build(chunks)
	if ix.Len() != 4 {
		t.Fatalf("Len = %d, want 4", ix.Len())
	}
	hits := ix.Search(Query{Text: "сколько платить за аренду в месяц, 385 тыс. руб.?"})
	if len(hits) == 0 || hits[0].Chunk.ID != "b#0" {
		t.Fatalf("top hit = %v, want b#0", hits)
	}
	for i, h := range hits {
		if h.Rank != i+1 {
			t.Errorf("hit %d has Rank %d", i, h.Rank)
		}
		if i > 0 && h.Score > hits[i-1].Score {
			t.Errorf("scores not descending: %v", hits)
		}
		if h.Score <= 0 || math.IsNaN(h.Score) {
			t.Errorf("bad score %v", h.Score)
		}
	}
	// The heading is indexed with the chunk.
	if hits := ix.Search(Query{Text: "ответственность", TopK: 1}); len(hits) != 1 || hits[0].Chunk.ID != "a#1" {
		t.Errorf("heading search = %v, want a#1", hits)
	}
	// Chunk values come back intact.
	if hits := ix.Search(Query{Text: "Кравцов", TopK: 1}); len(hits) != 1 || hits[0].Chunk != chunks[3] {
		t.Errorf("chunk round trip = %+v", hits)
	}
}

func TestSearchEdgeCases(t *testing.T) {
	var empty *Index
	if hits := empty.Search(Query{Text: "договор"}); hits != nil {
		t.Errorf("nil index: %v", hits)
	}
	ix := Build(nil)
	if ix.Len() != 0 || ix.Search(Query{Text: "договор"}) != nil {
		t.Errorf("empty index returned hits")
	}
	chunks, _ := loadCorpus(t)
	ix = Build(chunks)
	for _, q := range []string{"", "   ", "и в на", "???", "несуществующееслово"} {
		if hits := ix.Search(Query{Text: q}); hits != nil {
			t.Errorf("Search(%q) = %d hits, want nil", q, len(hits))
		}
	}
	if got := len(ix.Search(Query{Text: "договор"})); got != DefaultTopK {
		t.Errorf("default TopK: %d hits", got)
	}
	if got := len(ix.Search(Query{Text: "договор", TopK: -3})); got != DefaultTopK {
		t.Errorf("negative TopK: %d hits", got)
	}
	if got := len(ix.Search(Query{Text: "договор", TopK: 1 << 20})); got == 0 || got > ix.Len() {
		t.Errorf("huge TopK: %d hits", got)
	}
}

// TestDocIDsRestriction: a restricted search never returns another
// document's chunk, for every question and several restrictions.
func TestDocIDsRestriction(t *testing.T) {
	chunks, docs := loadCorpus(t)
	ix := Build(chunks)
	var ids []string
	for id := range docs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	restrictions := [][]string{
		{ids[0]},
		{ids[1], ids[5]},
		ids[:len(ids)/2],
		{ids[3], "no-such-doc"},
	}
	for _, q := range loadQuestions(t) {
		for _, allowed := range restrictions {
			for _, h := range ix.Search(Query{Text: q.Question, TopK: 20, DocIDs: allowed}) {
				if !slices.Contains(allowed, h.Chunk.DocID) {
					t.Fatalf("query %q restricted to %v returned %s", q.Question, allowed, h.Chunk.ID)
				}
			}
		}
		// Restricting to the answering document never loses the answer
		// that the unrestricted search found.
		all := ix.Search(Query{Text: q.Question})
		if slices.ContainsFunc(all, func(h Hit) bool { return answers(h.Chunk, q) }) {
			only := ix.Search(Query{Text: q.Question, DocIDs: []string{q.Doc}})
			if !slices.ContainsFunc(only, func(h Hit) bool { return answers(h.Chunk, q) }) {
				t.Errorf("query %q: answer lost when restricted to %s", q.Question, q.Doc)
			}
		}
	}
	if hits := ix.Search(Query{Text: "договор", DocIDs: []string{"no-such-doc"}}); hits != nil {
		t.Errorf("unknown DocIDs returned %d hits, want none", len(hits))
	}
}

// TestOwnerIsolation is a contract test for the caller's per-owner design:
// an index built from owner A's chunks never returns owner B's chunks, even
// when both own a document with the same DocID and chunk IDs.
func TestOwnerIsolation(t *testing.T) {
	chunks, _ := loadCorpus(t)
	var a, b []Chunk
	for i, c := range chunks {
		if i%2 == 0 {
			c.Text = "[owner A] " + c.Text
			a = append(a, c)
		} else {
			c.Text = "[owner B] " + c.Text
			b = append(b, c)
		}
	}
	// Owner B also has a document that collides with one of A's by DocID
	// and chunk ID.
	b = append(b, Chunk{ID: a[0].ID, DocID: a[0].DocID, Text: "[owner B] Договор поставки № П-15/2025 с ООО «Техснаб»"})
	ixA, ixB := Build(a), Build(b)
	check := func(ix *Index, owner string, query string) {
		for _, h := range ix.Search(Query{Text: query, TopK: 50}) {
			if !strings.HasPrefix(h.Chunk.Text, "[owner "+owner+"]") {
				t.Fatalf("index of owner %s returned %s: %.40q", owner, h.Chunk.ID, h.Chunk.Text)
			}
		}
	}
	for _, q := range loadQuestions(t) {
		check(ixA, "A", q.Question)
		check(ixB, "B", q.Question)
		check(ixA, "A", q.Question+" owner B")
	}
}

func TestSearchDeterministic(t *testing.T) {
	chunks, _ := loadCorpus(t)
	ix1, ix2 := Build(chunks), Build(chunks)
	for _, q := range loadQuestions(t) {
		h1 := ix1.Search(Query{Text: q.Question, TopK: 10})
		h2 := ix2.Search(Query{Text: q.Question, TopK: 10})
		h3 := ix1.Search(Query{Text: q.Question, TopK: 10})
		if !slices.Equal(h1, h2) || !slices.Equal(h1, h3) {
			t.Fatalf("query %q: results differ between builds or runs", q.Question)
		}
	}
	// Equal scores are ordered by position in the input.
	dup := []Chunk{{ID: "x", DocID: "d", Text: "акт сверки"}, {ID: "y", DocID: "d", Text: "акт сверки"}, {ID: "z", DocID: "d", Text: "акт сверки"}}
	hits := Build(dup).Search(Query{Text: "акт сверки"})
	if len(hits) != 3 || hits[0].Chunk.ID != "x" || hits[1].Chunk.ID != "y" || hits[2].Chunk.ID != "z" {
		t.Errorf("tie order = %v", hits)
	}
}

// TestParallelBuildMatchesSerial: splitting tokenisation over workers
// yields exactly the index a single worker builds.
func TestParallelBuildMatchesSerial(t *testing.T) {
	chunks, _ := loadCorpus(t)
	var big []Chunk
	for i := 0; len(big) < 3*minChunksPerWorker; i++ {
		for _, c := range chunks {
			c.ID = fmt.Sprintf("%s/%d", c.ID, i)
			c.DocID = fmt.Sprintf("%s/%d", c.DocID, i%7)
			big = append(big, c)
		}
	}
	ctx := context.Background()
	serial, _ := build(ctx, big, DefaultOptions(), 1)
	for _, workers := range []int{2, 3, 5} {
		par, _ := build(ctx, big, DefaultOptions(), workers)
		if !maps.Equal(par.vocab, serial.vocab) || !slices.Equal(par.off, serial.off) ||
			!slices.Equal(par.pDoc, serial.pDoc) || !slices.Equal(par.pW, serial.pW) ||
			!slices.Equal(par.dDoc, serial.dDoc) || !slices.Equal(par.dW, serial.dW) {
			t.Fatalf("%d workers: index differs from the serial build", workers)
		}
	}
}

// BuildContext gives up, with the context's error, once its context is done, on one worker
// and on several; with a live context it builds what Build builds.
func TestBuildContext(t *testing.T) {
	chunks, _ := loadCorpus(t)
	var big []Chunk
	for i := 0; len(big) < 2*minChunksPerWorker; i++ {
		for _, c := range chunks {
			c.ID = fmt.Sprintf("%s/%d", c.ID, i)
			big = append(big, c)
		}
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, in := range [][]Chunk{chunks, big} {
		if ix, err := BuildContext(done, in); !errors.Is(err, context.Canceled) || ix != nil {
			t.Errorf("%d chunks, cancelled: %v, %v; want nil, context.Canceled", len(in), ix, err)
		}
	}
	ix, err := BuildContext(context.Background(), chunks)
	if err != nil {
		t.Fatal(err)
	}
	want := Build(chunks)
	if !maps.Equal(ix.vocab, want.vocab) || !slices.Equal(ix.pDoc, want.pDoc) || !slices.Equal(ix.pW, want.pW) {
		t.Error("BuildContext built another index than Build")
	}
}

func TestBuildOptions(t *testing.T) {
	chunks := []Chunk{
		{ID: "1", DocID: "d1", Text: "пени пени пени пени договор"},
		{ID: "2", DocID: "d2", Text: "пени договор поставки с длинным описанием условий"},
	}
	for _, o := range []Options{{}, {K1: -1, B: 2}, {K1: math.NaN(), B: math.NaN(), DocWeight: math.Inf(1)}, {DocWeight: -1}, {K1: 2, B: 0}} {
		ix := BuildWithOptions(chunks, o)
		if !(ix.opts.K1 > 0) || !(ix.opts.B >= 0 && ix.opts.B <= 1) || !(ix.opts.DocWeight >= 0) || math.IsInf(ix.opts.DocWeight, 0) {
			t.Errorf("BuildWithOptions(%+v) kept invalid options %+v", o, ix.opts)
		}
		hits := ix.Search(Query{Text: "пени"})
		if len(hits) != 2 || hits[0].Chunk.ID != "1" {
			t.Errorf("options %+v: hits %v", o, hits)
		}
	}
	if got := BuildWithOptions(chunks, Options{DocWeight: -1}).opts.DocWeight; got != 0 {
		t.Errorf("negative DocWeight = %v, want disabled (0)", got)
	}
}

func TestSearchConcurrent(t *testing.T) {
	chunks, _ := loadCorpus(t)
	ix := Build(chunks)
	qs := loadQuestions(t)
	want := make([][]Hit, len(qs))
	for i, q := range qs {
		want[i] = ix.Search(Query{Text: q.Question})
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range qs {
				j := (i + g*7) % len(qs)
				q := Query{Text: qs[j].Question}
				if g%2 == 1 {
					q.DocIDs = []string{qs[j].Doc}
					for _, h := range ix.Search(q) {
						if h.Chunk.DocID != qs[j].Doc {
							t.Errorf("restricted search leaked %s", h.Chunk.ID)
						}
					}
					continue
				}
				if got := ix.Search(q); !slices.Equal(got, want[j]) {
					t.Errorf("concurrent search %q differs", q.Text)
				}
			}
		})
	}
	wg.Wait()
}

func TestMaxIDF(t *testing.T) {
	ix := Build([]Chunk{
		{ID: "a#0", DocID: "a", Text: "Срок оплаты по договору поставки."},
		{ID: "a#1", DocID: "a", Text: "Неустойка за просрочку поставки."},
		{ID: "b#0", DocID: "b", Text: "Арендная плата в месяц."},
		{ID: "b#1", DocID: "b", Text: "Договор аренды."},
	})
	if got, want := ix.MaxIDF(), math.Log(10); math.Abs(got-want) > 1e-12 {
		t.Errorf("MaxIDF() = %v, want ln(1 + 4.5/0.5) = %v", got, want)
	}
	// A term of one chunk weighs less than a term of none: one matched rare term scores below
	// MaxIDF × (k1 + 1) × (1 + DocWeight), the most a single term can add.
	hits := ix.Search(Query{Text: "неустойка", TopK: 1})
	if len(hits) != 1 || hits[0].Score >= ix.MaxIDF()*2.2*1.5 {
		t.Errorf("one rare term scored %v, want below %v", hits, ix.MaxIDF()*2.2*1.5)
	}
	var empty *Index
	if empty.MaxIDF() != 0 {
		t.Errorf("nil index MaxIDF = %v, want 0", empty.MaxIDF())
	}
}
