// Package blevebench compares finbot's lexical retriever
// (integrations/retrieval) with bleve's Russian analyzer on the same
// evaluation corpus and questions. It is a separate module so the main
// module never depends on bleve; run it with
//
//	cd integrations/retrieval/blevebench && go test -v -run Compare
package blevebench
