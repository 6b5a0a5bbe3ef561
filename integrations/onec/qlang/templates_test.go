package qlang_test

import (
	"testing"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/qlang"
)

// templates returns the text of every whitelisted query, by ID.
func templates(tb testing.TB) map[string]string {
	tb.Helper()
	m := map[string]string{}
	for _, id := range onec.QueryIDs() {
		text, ok := onec.Query(id)
		if !ok {
			tb.Fatalf("onec.Query(%q) not found", id)
		}
		m[id] = text
	}
	return m
}

// TestParseTemplates parses every whitelisted query and resolves every field path in it.
func TestParseTemplates(t *testing.T) {
	for id, text := range templates(t) {
		t.Run(id, func(t *testing.T) {
			b, err := qlang.Parse(text)
			if err != nil {
				t.Fatalf("Parse() error: %v", err)
			}
			refs, err := qlang.Fields(b)
			if err != nil {
				t.Errorf("Fields() error: %v", err)
			}
			if len(refs) == 0 {
				t.Errorf("Fields() found no field paths")
			}
			if len(b.Queries) != 1 || len(b.Queries[0].Selects[0].From) == 0 {
				t.Errorf("Parse() = %d queries, want one that reads a source", len(b.Queries))
			}
		})
	}
}
