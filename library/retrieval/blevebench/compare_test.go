package blevebench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ru" // registers the "ru" analyzer
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/finbot/finbot/library/retrieval"
)

// Same splitter parameters as library/retrieval/corpus_test.go.
const (
	chunkWords  = 120
	chunkStride = 90
)

type question struct {
	Question string `json:"question"`
	Doc      string `json:"doc"`
	Passage  string `json:"passage"`
}

func splitWords(docID, text string) []retrieval.Chunk {
	type word struct{ w, heading string }
	var words []word
	heading := ""
	for _, line := range strings.Split(text, "\n") {
		if h, ok := strings.CutPrefix(strings.TrimSpace(line), "#"); ok {
			heading = strings.TrimSpace(strings.TrimLeft(h, "#"))
		}
		for _, w := range strings.Fields(line) {
			words = append(words, word{w, heading})
		}
	}
	var chunks []retrieval.Chunk
	for start, n := 0, 0; start < len(words); start, n = start+chunkStride, n+1 {
		end := min(start+chunkWords, len(words))
		parts := make([]string, 0, end-start)
		for _, w := range words[start:end] {
			parts = append(parts, w.w)
		}
		chunks = append(chunks, retrieval.Chunk{
			ID: fmt.Sprintf("%s#%d", docID, n), DocID: docID, Text: strings.Join(parts, " "),
			Page: start/400 + 1, Heading: words[start].heading,
		})
		if end == len(words) {
			break
		}
	}
	return chunks
}

func load(t testing.TB) ([]retrieval.Chunk, []question) {
	dir := filepath.Join("..", "testdata")
	files, err := filepath.Glob(filepath.Join(dir, "corpus", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus: %v", err)
	}
	slices.Sort(files)
	var chunks []retrieval.Chunk
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, splitWords(strings.TrimSuffix(filepath.Base(f), ".md"), string(b))...)
	}
	b, err := os.ReadFile(filepath.Join(dir, "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []question
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatal(err)
	}
	return chunks, qs
}

// retriever is one query row of the comparison: question -> top-5 chunk
// IDs. An error counts as a question without an answer.
type retriever func(q string) ([]string, error)

// built is an index of one engine: one search function per query row of
// the engine, the index itself (kept reachable for the memory measurement)
// and a function releasing it.
type built struct {
	searches []retriever
	index    any
	// settle blocks until the engine has no background work left (scorch:
	// every segment persisted and the merger idle); nil if it has none.
	settle func(tb testing.TB)
	// files is the size of the index's files; nil if it keeps none.
	files func() int64
	close func()
}

// engine builds an index over chunks the way the product would; rows names
// its query rows, in the order of built.searches.
type engine struct {
	rows  []string
	build func(tb testing.TB, chunks []retrieval.Chunk) built
}

var engines = []engine{
	{[]string{"finbot retrieval (BM25 + Snowball, RRF)"}, buildFinbot},
	{[]string{
		"bleve " + bleveVersion() + " scorch (bleve.New), MatchQuery",
		"bleve " + bleveVersion() + " scorch (bleve.New), QueryStringQuery",
	}, buildScorch},
	{[]string{"bleve " + bleveVersion() + " upsidedown (NewMemOnly), MatchQuery"}, buildMemOnly},
}

func buildFinbot(_ testing.TB, chunks []retrieval.Chunk) built {
	ix := retrieval.Build(chunks)
	return built{
		searches: []retriever{func(q string) ([]string, error) {
			var ids []string
			for _, h := range ix.Search(retrieval.Query{Text: q, TopK: 5}) {
				ids = append(ids, h.Chunk.ID)
			}
			return ids, nil
		}},
		index: ix,
		close: func() {},
	}
}

// bleveMapping is the mapping of both bleve indexes: one text field "body"
// analysed with bleve's "ru" analyzer (Snowball Russian stemmer, Russian
// stop words), not stored, without term vectors (nothing is highlighted);
// otherwise bleve's defaults: the field also goes into the composite "_all"
// field (the default field of query strings), doc values on, TF-IDF scoring.
func bleveMapping() *mapping.IndexMappingImpl {
	body := bleve.NewTextFieldMapping()
	body.Analyzer = "ru"
	body.Store = false
	body.IncludeTermVectors = false
	doc := bleve.NewDocumentMapping()
	doc.AddFieldMappingsAt("body", body)
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = "ru"
	return m
}

// bleveBatchSize bounds one bleve batch; larger inputs are indexed in
// several batches (one batch of 100,000 documents would hold every analysed
// document in memory at once).
const bleveBatchSize = 1000

func indexBatches(tb testing.TB, idx bleve.Index, chunks []retrieval.Chunk) {
	for start := 0; start < len(chunks); start += bleveBatchSize {
		batch := idx.NewBatch()
		for _, c := range chunks[start:min(start+bleveBatchSize, len(chunks))] {
			if err := batch.Index(c.ID, map[string]any{"body": c.Heading + "\n" + c.Text}); err != nil {
				tb.Fatal(err)
			}
		}
		if err := idx.Batch(batch); err != nil {
			tb.Fatal(err)
		}
	}
}

// matchSearch is the top-5 request as bleve's documentation writes a
// search on one field: a match query (analysed with the field's analyzer,
// terms joined with OR), no stored fields.
func matchSearch(idx bleve.Index) retriever {
	return func(q string) ([]string, error) {
		mq := bleve.NewMatchQuery(q)
		mq.SetField("body")
		return hitIDs(idx.Search(bleve.NewSearchRequestOptions(mq, 5, 0, false)))
	}
}

// queryStringSearch is the top-5 request as bleve's README writes a search:
// the user's text as a query string, which searches the "_all" field. The
// text is passed as it is: query-string syntax applies, so a word ending in
// "?" (most of the questions) is a wildcard term, which is not analysed.
func queryStringSearch(idx bleve.Index) retriever {
	return func(q string) ([]string, error) {
		qq := bleve.NewQueryStringQuery(q)
		return hitIDs(idx.Search(bleve.NewSearchRequestOptions(qq, 5, 0, false)))
	}
}

func hitIDs(res *bleve.SearchResult, err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(res.Hits))
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	return ids, nil
}

// buildScorch builds bleve's default index, scorch, the way bleve's users
// do: bleve.New on a directory. The directory is under indexRoot (tmpfs
// when /dev/shm is writable) and removed on close.
func buildScorch(tb testing.TB, chunks []retrieval.Chunk) built {
	root, _ := indexRoot(tb)
	parent, err := os.MkdirTemp(root, "blevebench-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(parent) })
	dir := filepath.Join(parent, "index.bleve")
	idx, err := bleve.New(dir, bleveMapping())
	if err != nil {
		tb.Fatal(err)
	}
	indexBatches(tb, idx, chunks)
	return built{
		searches: []retriever{matchSearch(idx), queryStringSearch(idx)},
		index:    idx,
		settle:   func(tb testing.TB) { waitScorchIdle(tb, idx) },
		files:    func() int64 { return dirSize(tb, dir) },
		close: func() {
			if err := idx.Close(); err != nil {
				tb.Error(err)
			}
			if err := os.RemoveAll(parent); err != nil {
				tb.Error(err)
			}
		},
	}
}

// buildMemOnly builds bleve's in-memory index, bleve.NewMemOnly: the older
// upsidedown index over the gtreap in-memory key-value store.
func buildMemOnly(tb testing.TB, chunks []retrieval.Chunk) built {
	idx, err := bleve.NewMemOnly(bleveMapping())
	if err != nil {
		tb.Fatal(err)
	}
	indexBatches(tb, idx, chunks)
	return built{
		searches: []retriever{matchSearch(idx)},
		index:    idx,
		close: func() {
			if err := idx.Close(); err != nil {
				tb.Error(err)
			}
		},
	}
}

// indexRoot is where scorch indexes are created: /dev/shm (tmpfs, so the
// index files live in RAM, as an index on a warm page cache would) when it
// is writable, else tb.TempDir(). It also returns how to describe it.
func indexRoot(tb testing.TB) (dir, what string) {
	const shm = "/dev/shm"
	if d, err := os.MkdirTemp(shm, "blevebench-probe-"); err == nil {
		os.Remove(d)
		return shm, shm + " (tmpfs)"
	}
	d := tb.TempDir()
	return d, d + " (t.TempDir(): /dev/shm is not writable)"
}

// waitScorchIdle waits until scorch's persister has written every segment
// and its merger has nothing left to merge (the index_bgthreads_active
// stat is false three polls in a row). Scorch serves a batch from memory as
// soon as Batch returns, so this is not needed for correct results; it
// keeps the background goroutines from sharing the CPUs with the timed
// queries and makes the heap and file figures those of the settled index.
func waitScorchIdle(tb testing.TB, idx bleve.Index) {
	deadline := time.Now().Add(15 * time.Minute)
	for idle := 0; idle < 3; {
		st, _ := idx.StatsMap()["index"].(map[string]any)
		active, ok := st["index_bgthreads_active"].(bool)
		if !ok {
			tb.Fatalf("scorch stats have no index_bgthreads_active")
		}
		if active {
			idle = 0
		} else {
			idle++
		}
		if time.Now().After(deadline) {
			tb.Fatalf("scorch is still persisting or merging 15 minutes after the last batch")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// dirSize is the total size of the files under dir.
func dirSize(tb testing.TB, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			n += fi.Size()
		}
		return nil
	})
	if err != nil {
		tb.Error(err)
	}
	return n
}

// recallAt5 is the share of questions with an answering chunk in the top
// 5, and the number of questions the search returned an error for.
func recallAt5(search retriever, chunks []retrieval.Chunk, qs []question) (float64, int) {
	byID := make(map[string]retrieval.Chunk, len(chunks))
	for _, c := range chunks {
		byID[c.ID] = c
	}
	found, errs := 0, 0
	for _, q := range qs {
		ids, err := search(q.Question)
		if err != nil {
			errs++
			continue
		}
		for _, id := range ids {
			c := byID[id]
			if c.DocID == q.Doc && strings.Contains(c.Text, strings.Join(strings.Fields(q.Passage), " ")) {
				found++
				break
			}
		}
	}
	return float64(found) / float64(len(qs)), errs
}

// minLatencySamples is the least number of timed queries per row.
const minLatencySamples = 2000

// latency times single queries, one at a time on this goroutine: one
// untimed warm-up pass over the questions, then as many passes as needed for
// minLatencySamples. It returns the nearest-rank p50 and p99 and the number
// of samples.
func latency(search retriever, qs []question) (p50, p99 time.Duration, n int) {
	for _, q := range qs {
		search(q.Question)
	}
	reps := (minLatencySamples + len(qs) - 1) / len(qs)
	lat := make([]time.Duration, 0, reps*len(qs))
	runtime.GC() // do not make the first queries pay for the build's garbage
	for range reps {
		for _, q := range qs {
			start := time.Now()
			ids, err := search(q.Question)
			lat = append(lat, time.Since(start))
			runtime.KeepAlive(ids)
			runtime.KeepAlive(err)
		}
	}
	slices.Sort(lat)
	rank := func(p int) time.Duration { return lat[(len(lat)*p+99)/100-1] }
	return rank(50), rank(99), len(lat)
}

// heapAlloc returns HeapAlloc after a full collection. GC runs twice so
// sync.Pool victim caches filled by the previous step are released too.
func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// footprint builds an index over chunks and reports the live heap it holds
// (HeapAlloc after building it, and after the engine's background work,
// minus HeapAlloc before, with the index kept alive) and the size of its
// files. The chunks themselves are allocated by the caller beforehand and
// not counted.
func footprint(tb testing.TB, e engine, chunks []retrieval.Chunk) (heap, files int64) {
	before := heapAlloc()
	b := e.build(tb, chunks)
	if b.settle != nil {
		b.settle(tb)
	}
	after := heapAlloc()
	if b.files != nil {
		files = b.files()
	}
	runtime.KeepAlive(b.index)
	b.close()
	return int64(after) - int64(before), files
}

// engineResult holds what is measured once per index.
type engineResult struct {
	buildTime   time.Duration // until the last batch was searchable
	settleTime  time.Duration // until the background work ended; 0 if none
	buildMBps   float64
	heapPer10k  int64
	filesPer10k int64 // bytes of index files per 10k chunks; 0 if none
	hasFiles    bool
}

// rowResult holds what is measured per query row.
type rowResult struct {
	recall   float64
	errors   int // questions answered with an error (recall counts them as misses)
	p50, p99 time.Duration
	samples  int
}

const (
	synthN = 100_000
	shortN = 10_000
	memN   = 10_000
	mb     = 1e6

	// fullRunBudget is the least test timeout the 100,000-chunk run is
	// started with: bleve's NewMemOnly index (upsidedown on the gtreap
	// in-memory store) builds at well under 1 MB/s and answers in about
	// 150 ms there, so the whole run takes about 15 minutes on 2 CPUs,
	// more than go test's default -timeout of 10m.
	fullRunBudget = 20 * time.Minute
)

// TestCompare prints one table comparing the engines, measured in this run
// on the same data: recall@5 on the evaluation corpus, build time and
// throughput and single-query latency over 100,000 synthetic chunks
// (10,000 with -short), and the heap and files held by an index of 10,000 of
// them. The full run needs -timeout 20m or more (run.sh passes 60m).
//
// The only assertions are sanity checks (finbot's recall@5 is at least
// 0.85, every row finds something): which engine is faster or finds more is
// reported, not asserted.
func TestCompare(t *testing.T) {
	started := time.Now()
	chunks, qs := load(t)
	var rowNames []string
	for _, e := range engines {
		rowNames = append(rowNames, e.rows...)
	}
	rows := make([]rowResult, len(rowNames))
	for ei, e := range engines {
		b := e.build(t, chunks)
		if b.settle != nil {
			b.settle(t)
		}
		for si, s := range b.searches {
			r := &rows[rowOf(ei, si)]
			r.recall, r.errors = recallAt5(s, chunks, qs)
		}
		b.close()
	}
	if rows[0].recall < 0.85 {
		t.Errorf("finbot recall@5 = %.3f, want >= 0.85", rows[0].recall)
	}
	for i, r := range rows {
		if r.recall == 0 {
			t.Errorf("%s: recall@5 = 0 (%d query errors): the setup is broken", rowNames[i], r.errors)
		}
	}

	n := synthN
	if testing.Short() {
		n = shortN
	} else if deadline, ok := t.Deadline(); ok && time.Until(deadline) < fullRunBudget {
		t.Fatalf("the 100,000-chunk comparison takes about 15 minutes on 2 CPUs, longer than the %s left before the test timeout: run ./run.sh (or go test -timeout 60m -run Compare -v), or add -short for 10,000 chunks",
			time.Until(deadline).Round(time.Second))
	}

	synth := synthChunks(chunks, n)
	t.Logf("%s: generated %d synthetic chunks, %.1f MB of text", time.Since(started).Round(time.Second), len(synth), float64(textBytes(synth))/mb)
	engs := make([]engineResult, len(engines))
	for ei, e := range engines {
		er := &engs[ei]
		var heapBefore uint64
		if n == memN {
			heapBefore = heapAlloc() // the heap is measured on this build
		} else {
			er.heapPer10k, er.filesPer10k = footprint(t, e, synth[:memN])
			t.Logf("%s: %s: heap of a %d-chunk index measured", time.Since(started).Round(time.Second), e.rows[0], memN)
			runtime.GC()
		}
		start := time.Now()
		b := e.build(t, synth)
		er.buildTime = time.Since(start)
		if b.settle != nil {
			b.settle(t)
			er.settleTime = time.Since(start)
		}
		er.buildMBps = float64(textBytes(synth)) / mb / er.buildTime.Seconds()
		er.hasFiles = b.files != nil
		if n == memN {
			er.heapPer10k = int64(heapAlloc()) - int64(heapBefore)
			if b.files != nil {
				er.filesPer10k = b.files()
			}
		}
		settled := ""
		if er.settleTime > 0 {
			settled = fmt.Sprintf(", settled in %s", er.settleTime.Round(time.Millisecond))
		}
		t.Logf("%s: %s: %d-chunk index built in %s%s; timing queries", time.Since(started).Round(time.Second),
			e.rows[0], len(synth), er.buildTime.Round(time.Millisecond), settled)
		for si, s := range b.searches {
			r := &rows[rowOf(ei, si)]
			r.p50, r.p99, r.samples = latency(s, qs)
		}
		runtime.KeepAlive(b.index)
		b.close()
	}

	_, where := indexRoot(t)
	fmt.Print(table(chunks, qs, synth, where, rowNames, rows, engs, time.Since(started)))
}

// rowOf is the index in the table of query row si of engine ei.
func rowOf(ei, si int) int {
	n := si
	for _, e := range engines[:ei] {
		n += len(e.rows)
	}
	return n
}

// table renders the results as markdown.
func table(chunks []retrieval.Chunk, qs []question, synth []retrieval.Chunk, scorchDir string,
	rowNames []string, rows []rowResult, engs []engineResult, took time.Duration,
) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n## finbot retrieval vs bleve, %d chunks, %s\n\n", len(synth), time.Now().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&sb, "- machine: %s/%s, %s, NumCPU %d, GOMAXPROCS %d, %s\n",
		runtime.GOOS, runtime.GOARCH, cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Fprintf(&sb, "- recall@5: evaluation corpus, %d chunks, %d questions\n", len(chunks), len(qs))
	fmt.Fprintf(&sb, "- build, latency: %d synthetic chunks (seed %#x), %.1f MB of text; latency = %d single-threaded top-5 queries per row (the %d questions x %d, after one warm-up pass)\n",
		len(synth), uint64(synthSeed), float64(textBytes(synth))/mb, rows[0].samples, len(qs), rows[0].samples/len(qs))
	fmt.Fprintf(&sb, "- build = until the last batch returned (searchable); settled = until scorch had persisted every segment and its merger was idle, after which the queries were timed (- = no background work)\n")
	fmt.Fprintf(&sb, "- heap: HeapAlloc after (settled) minus before building an index of the first %d of them (index kept alive); files: the scorch index directory, in %s\n", memN, scorchDir)
	fmt.Fprintf(&sb, "- bleve: \"ru\" analyzer on one text field; the two scorch rows query one index, so they share its build, heap and files figures\n")
	for i, r := range rows {
		if r.errors > 0 {
			fmt.Fprintf(&sb, "- %s: %d of %d questions returned an error (counted as misses)\n", rowNames[i], r.errors, len(qs))
		}
	}
	fmt.Fprintf(&sb, "- run took %s\n\n", took.Round(100*time.Millisecond))

	buildCol := fmt.Sprintf("build %dk, s", len(synth)/1000)
	header := []string{"engine", "recall@5", buildCol, "build MB/s", "settled, s", "query p50, ms", "query p99, ms", "heap MB / 10k chunks", "files MB / 10k chunks"}
	cells := [][]string{header}
	for ei, e := range engines {
		er := engs[ei]
		settled, files := "-", "-"
		if er.settleTime > 0 {
			settled = fmt.Sprintf("%.2f", er.settleTime.Seconds())
		}
		if er.hasFiles {
			files = fmt.Sprintf("%.2f", float64(er.filesPer10k)/mb)
		}
		for si := range e.rows {
			r := rows[rowOf(ei, si)]
			cells = append(cells, []string{
				rowNames[rowOf(ei, si)],
				fmt.Sprintf("%.3f", r.recall),
				fmt.Sprintf("%.2f", er.buildTime.Seconds()),
				fmt.Sprintf("%.2f", er.buildMBps),
				settled,
				fmt.Sprintf("%.3f", float64(r.p50)/float64(time.Millisecond)),
				fmt.Sprintf("%.3f", float64(r.p99)/float64(time.Millisecond)),
				fmt.Sprintf("%.2f", float64(er.heapPer10k)/mb),
				files,
			})
		}
	}
	width := make([]int, len(header))
	for _, row := range cells {
		for j, cell := range row {
			width[j] = max(width[j], len([]rune(cell)))
		}
	}
	for i, row := range cells {
		for j, cell := range row {
			pad := strings.Repeat(" ", width[j]-len([]rune(cell)))
			if j == 0 {
				fmt.Fprintf(&sb, "| %s%s ", cell, pad)
			} else {
				fmt.Fprintf(&sb, "| %s%s ", pad, cell)
			}
		}
		sb.WriteString("|\n")
		if i == 0 {
			for j := range row {
				if j == 0 {
					fmt.Fprintf(&sb, "|%s", strings.Repeat("-", width[j]+2))
				} else {
					fmt.Fprintf(&sb, "|%s:", strings.Repeat("-", width[j]+1))
				}
			}
			sb.WriteString("|\n")
		}
	}
	sb.WriteString("\nMB = 10^6 bytes of chunk text (build) or of heap and files (memory).\n")
	return sb.String()
}

// cpuModel returns the first "model name" of /proc/cpuinfo, if there is one.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "CPU model unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "CPU model unknown"
}

// bleveVersion is the bleve version required by go.mod (test binaries
// carry no dependency build info).
func bleveVersion() string {
	b, err := os.ReadFile("go.mod")
	if err != nil {
		return "v2"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "github.com/blevesearch/bleve/v2" {
			return f[1]
		}
	}
	return "v2"
}
