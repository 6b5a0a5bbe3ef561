package understand

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hbollon/go-edlib"
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

// oneEdit is the optimal string alignment distance's «at most 1», without its matrix: checked
// against go-edlib on every pair of short words over a small alphabet and on random longer ones.
func TestOneEditIsOSAWithinOne(t *testing.T) {
	alphabet := []rune("аеоп")
	var words []string
	var gen func(prefix []rune)
	gen = func(prefix []rune) {
		words = append(words, string(prefix))
		if len(prefix) == 4 {
			return
		}
		for _, r := range alphabet {
			gen(append(prefix[:len(prefix):len(prefix)], r))
		}
	}
	gen(nil)
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		w := make([]rune, 5+r.IntN(6))
		for i := range w {
			w[i] = alphabet[r.IntN(len(alphabet))]
		}
		words = append(words, string(w))
		v := append([]rune(nil), w...) // one or two random edits away
		for range 1 + r.IntN(2) {
			i := r.IntN(len(v))
			switch r.IntN(4) {
			case 0:
				v[i] = alphabet[r.IntN(len(alphabet))]
			case 1:
				v = append(v[:i], v[i+1:]...)
			case 2:
				v = append(v[:i], append([]rune{alphabet[r.IntN(len(alphabet))]}, v[i:]...)...)
			default:
				if i+1 < len(v) {
					v[i], v[i+1] = v[i+1], v[i]
				}
			}
			if len(v) == 0 {
				v = []rune("а")
			}
		}
		words = append(words, string(v))
	}
	for i, a := range words {
		for _, b := range words[max(0, i-150) : i+1] {
			want := edlib.OSADamerauLevenshteinDistance(a, b) <= 1
			if got := oneEdit([]rune(a), []rune(b)); got != want {
				t.Fatalf("oneEdit(%q, %q) = %v, OSA distance says %v", a, b, got, want)
			}
		}
	}
}
