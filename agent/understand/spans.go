package understand

import (
	"slices"
	"strings"
	"unicode"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// NameSpan is where a text names a catalog entity: bytes [Start, End) of the text as given,
// from the first word of the name to its last (a legal form and quotes around it stay
// outside). Entity is the entity's index in the list the NameIndex was built over; Full is
// set when every word of the name is there.
type NameSpan struct {
	Start, End int
	Entity     int
	Full       bool
}

// NameIndex finds the names of a list of entities in any text — a question, a fact, a
// document's passage — as the parser reads them in a message: case-inflected, misspelt, glued,
// shortened, in Latin letters, an individual entrepreneur by the surname alone (the rules of
// matchKey). Deletion-marked entities are found too: a name is a name. It is safe for
// concurrent use.
//
// Candidates are looked up by the first three letters of each word of a name (and of its Latin
// consonant skeleton), so a catalog of thousands of names costs a text a few lookups per word;
// a typo in a word's first three letters is the price (the parser, which reads only the
// message, still resolves those).
type NameIndex struct {
	keys  []indexedKey
	byPre map[string][]int // prefix → indexes into keys
}

type indexedKey struct {
	entity int
	key    nameKey
}

// NewNameIndex indexes the names of es.
func NewNameIndex(es []recipe.Entity) *NameIndex {
	x := &NameIndex{byPre: map[string][]int{}}
	for i, e := range es {
		for _, k := range keysOf(e) {
			n := len(x.keys)
			x.keys = append(x.keys, indexedKey{entity: i, key: k})
			var seen []string
			for _, w := range k.raw {
				for _, p := range wordPrefixes(w) {
					if !slices.Contains(seen, p) {
						seen = append(seen, p)
						x.byPre[p] = append(x.byPre[p], n)
					}
				}
			}
		}
	}
	return x
}

// wordPrefixes are the index keys of a folded word: its first three letters, and the first
// three consonants of its Latin skeleton (a Latin name written in Cyrillic, or the other way round).
func wordPrefixes(w string) []string {
	out := []string{"p:" + firstRunes(w, 3)}
	if sk := ru.Skeleton(ru.Translit(w)); sk != "" {
		out = append(out, "s:"+firstRunes(sk, 3))
	}
	return out
}

func firstRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// Find returns the non-overlapping spans of text that name an entity, in the order of the
// text. Where matches overlap, a full one beats a partial one, then the longer wins.
func (x *NameIndex) Find(text string) []NameSpan {
	if x == nil || len(x.keys) == 0 {
		return nil
	}
	toks := spanTokens(text)
	var all []NameSpan
	var tried []int
	for i, t := range toks {
		tried = tried[:0]
		for _, p := range wordPrefixes(t.Text) {
			for _, ki := range x.byPre[p] {
				if slices.Contains(tried, ki) {
					continue
				}
				tried = append(tried, ki)
				k := x.keys[ki]
				m, ok := matchKey(toks, i, k.key)
				if !ok || m.end <= m.start {
					continue
				}
				all = append(all, NameSpan{Start: toks[m.start].Start, End: toks[m.end-1].End, Entity: k.entity, Full: m.full})
			}
		}
	}
	slices.SortStableFunc(all, func(a, b NameSpan) int {
		switch {
		case a.Full != b.Full:
			if a.Full {
				return -1
			}
			return 1
		case a.End-a.Start != b.End-b.Start:
			return (b.End - b.Start) - (a.End - a.Start)
		}
		return a.Start - b.Start
	})
	var out []NameSpan
	for _, s := range all {
		if !slices.ContainsFunc(out, func(o NameSpan) bool { return s.Start < o.End && o.Start < s.End }) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b NameSpan) int { return a.Start - b.Start })
	return out
}

// spanTokens splits text into words with their byte offsets in text itself: runs of letters,
// digits and inner hyphens, folded as the parser folds a message (lower case, ё as е). A
// Markdown escape («Гранит\-М») or an underscore splits words, as Fold's spaces do, so a name
// escaped for Markdown is still found.
func spanTokens(text string) []Token {
	var toks []Token
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		s, e := start, end
		for s < e && text[s] == '-' {
			s++
		}
		for e > s && text[e-1] == '-' {
			e--
		}
		if s < e {
			w := ru.FoldAligned(text[s:e])
			toks = append(toks, Token{Text: w, Stem: stem(w), Start: s, End: e})
		}
		start = -1
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	return toks
}

// NameWords is an entity's name as a text writes it in full, without its legal form and
// quotes: «Альфа» for «ООО «Альфа»», «Смирнов Алексей Петрович» for «ИП Смирнов Алексей
// Петрович».
func NameWords(name string) string {
	var ws []string
	for _, w := range strings.Fields(nameQuotes.Replace(name)) {
		if !legalForms[ru.Fold(w)] {
			ws = append(ws, w)
		}
	}
	return strings.Join(ws, " ")
}
