package tavily_test

import (
	"testing"

	"github.com/finbot/finbot/integrations/tavily"
)

func BenchmarkSearchCached(b *testing.B) {
	s := newStandIn(b)
	c := newClient(s, tavily.Options{})
	q := tavily.Query{Text: "ключевая ставка ЦБ", UserID: 42}
	if _, err := c.Search(b.Context(), q); err != nil {
		b.Fatalf("warm-up Search error: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := c.Search(b.Context(), q)
		if err != nil || !resp.Cached {
			b.Fatalf("Search = cached %t, error %v; want a cache hit", resp.Cached, err)
		}
	}
	if s.Calls() != 1 {
		b.Errorf("upstream calls = %d, want 1", s.Calls())
	}
}
