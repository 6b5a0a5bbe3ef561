// Package blevebench compares finbot's lexical retriever
// (library/retrieval) with bleve v2 and prints one markdown table
// measured in one run on the same data. bleve is measured as its users run
// it, with the "ru" analyzer on one text field:
//
//   - scorch, bleve's default index (bleve.New on a directory: /dev/shm,
//     a tmpfs, when it is writable, else the test's temporary directory),
//     queried with a MatchQuery on the field (terms joined with OR) and,
//     as bleve's README writes a search, with a QueryStringQuery of the
//     question as typed;
//   - upsidedown, the older index bleve.NewMemOnly builds over an in-memory
//     key-value store, queried with the MatchQuery.
//
// For every row it reports:
//
//   - recall@5 on the evaluation corpus (../testdata, 68 questions);
//   - index build time and throughput in MB/s of chunk text over synthetic
//     chunks (the deterministic generator of ../bench_test.go, copied):
//     100,000 of them, or 10,000 with -short; for scorch also the time until
//     it has persisted every segment and finished merging, after which the
//     queries are timed;
//   - single-threaded top-5 query latency p50 and p99 over that index
//     (the evaluation questions, at least 2,000 queries);
//   - the heap held by an index of 10,000 of those chunks and, for scorch,
//     the size of its files;
//
// with the machine (GOOS/GOARCH, CPU model, NumCPU, Go version) and date.
// The test asserts only sanity (finbot's recall@5 is at least 0.85 and
// every row finds something); which engine is faster or finds more is
// reported, never asserted.
//
// It is a separate module so the main module never depends on bleve. The
// short form takes about 2 minutes on 2 CPUs, most of it the upsidedown
// index, and is what bench.sh runs by default:
//
//	library/retrieval/blevebench/run.sh -short
//
// The 100,000-chunk form (bench.sh --full-bleve) takes about 15 minutes and
// about 8 GB of RAM, almost all of it the upsidedown index's, so it needs a
// test timeout above go test's default 10m; run.sh passes one:
//
//	library/retrieval/blevebench/run.sh
//
// or, from this directory,
//
//	go test -count=1 -timeout 60m -run Compare -v .
package blevebench
