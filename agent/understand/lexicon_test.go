package understand

import (
	"strings"
	"testing"
)

// TestLexiconReachable checks that every entry of lexicon.tsv is found when its phrase is
// written on its own, with its concept and value: no entry is shadowed by a longer one or
// lost to folding and stemming.
func TestLexiconReachable(t *testing.T) {
	lx := DefaultLexicon
	if n := len(lx.Entries()); n < 300 {
		t.Fatalf("lexicon has %d entries; lexicon.tsv did not load whole", n)
	}
	for _, e := range lx.Entries() {
		hits := lx.Find(Tokenize(e.Phrase))
		found := false
		for _, h := range hits {
			if h.Concept == e.Concept && h.Value == e.Value {
				found = true
			}
		}
		if !found {
			t.Errorf("lexicon.tsv:%d %q (%s %s) is not reachable: found %v", e.Line, e.Phrase, e.Concept, e.Value, hits)
		}
	}
}

func TestLoadLexiconErrors(t *testing.T) {
	for _, src := range []string{"дз\n", "дз\tnosuch\n", "р/с\taccount\n", "\treceivables\n", "a\tb\tc\td\n"} {
		if _, err := LoadLexicon(src); err == nil {
			t.Errorf("LoadLexicon(%q) = nil error", src)
		}
	}
}

func TestLexiconTypos(t *testing.T) {
	lx := DefaultLexicon
	for _, tc := range []struct{ text, concept string }{
		{"дебеторка", "receivables"},
		{"кридиторка", "payables"},
		{"сальдо", "balance"},
		{"оборотно-сальдовая", "balance"},
		{"неоплоченные", "open_items"},
	} {
		var got []string
		for _, h := range lx.Find(Tokenize(tc.text)) {
			got = append(got, string(h.Concept))
		}
		if !strings.Contains(strings.Join(got, ","), tc.concept) {
			t.Errorf("Find(%q) = %v, want %s", tc.text, got, tc.concept)
		}
	}
}
