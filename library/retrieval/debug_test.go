package retrieval

import (
	"os"
	"testing"
)

// TestDebugQuery prints the terms and the top 20 hits of one question over
// the evaluation corpus, for tuning:
//
//	RETRIEVAL_QUERY='какой срок оплаты по договору с Техснабом?' go test -run DebugQuery -v
func TestDebugQuery(t *testing.T) {
	q := os.Getenv("RETRIEVAL_QUERY")
	if q == "" {
		t.Skip("set RETRIEVAL_QUERY")
	}
	chunks, _ := loadCorpus(t)
	ix := Build(chunks)
	t.Logf("terms %q", Tokens(q))
	for _, h := range ix.Search(Query{Text: q, TopK: 20}) {
		t.Logf("%2d %6.3f %-32s | %.90s", h.Rank, h.Score, h.Chunk.ID, h.Chunk.Text)
	}
}
