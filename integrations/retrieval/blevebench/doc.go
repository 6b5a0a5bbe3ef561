// Package blevebench compares finbot's lexical retriever
// (integrations/retrieval) with bleve v2 (the "ru" analyzer, an in-memory
// bleve.NewMemOnly index) and prints one markdown table measured in one run
// on the same data:
//
//   - recall@5 on the evaluation corpus (../testdata, 68 questions);
//   - index build throughput in MB/s of chunk text over 100,000 synthetic
//     chunks (the deterministic generator of ../bench_test.go, copied);
//   - single-threaded top-5 query latency p50 and p99 over that index
//     (the evaluation questions, at least 2,000 queries);
//   - the heap held by an index of 10,000 of those chunks;
//
// with the machine (GOOS/GOARCH, CPU model, NumCPU, Go version) and date.
//
// It is a separate module so the main module never depends on bleve. The
// 100,000-chunk part takes about 15 minutes on 2 CPUs and about 8 GB of RAM,
// almost all of it bleve's, so it needs a test timeout above go test's
// default 10m; run.sh passes one:
//
//	integrations/retrieval/blevebench/run.sh
//
// or, from this directory,
//
//	go test -count=1 -timeout 60m -run Compare -v .
//
// -short measures recall@5 only and takes well under a second.
package blevebench
