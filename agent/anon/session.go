package anon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// Session is the placeholders of one answer: every LLM call of it (the planner, its repair,
// the answer model, a query expansion) gives the same identifier the same placeholder, so the
// model may refer to «[КОНТРАГЕНТ_1]» across them, and a reply's placeholders are restored to
// what they stand for. It is safe for concurrent use (the executor's tool calls run at once).
type Session struct {
	catalogs func() *recipe.Catalogs
	once     sync.Once
	dict     *Dictionary

	mu      sync.Mutex
	aliases []alias
	byKey   map[string]*slot
	labels  map[string]*slot
	next    map[Kind]int
}

// slot is one placeholder: its label and the ways the texts wrote what it stands for.
type slot struct {
	label     string
	kind      Kind
	preferred string         // the catalog's own form of a name; "" for numbers and other names
	seen      map[string]int // surface → times masked
	order     []string       // the surfaces in the order first seen
}

// NewSession starts the placeholders of one answer. catalogs, when not nil, gives the
// requester's 1C catalogs; it is called once, at the first text masked.
func NewSession(catalogs func() *recipe.Catalogs) *Session {
	return &Session{catalogs: catalogs, byKey: map[string]*slot{}, labels: map[string]*slot{}, next: map[Kind]int{}}
}

type sessionKey struct{}

// WithSession returns ctx carrying s: the LLM calls made under it share its placeholders.
func WithSession(ctx context.Context, s *Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// sessionFrom is the session of ctx, nil without one.
func sessionFrom(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

// dictionary is the requester's catalogs' dictionary, loaded once.
func (s *Session) dictionary() *Dictionary {
	s.once.Do(func() {
		if s.catalogs != nil {
			s.dict = DictionaryOf(s.catalogs())
		}
	})
	return s.dict
}

// Counts are how many identifiers of each kind a text held.
type Counts map[Kind]int

// Total is the number of identifiers counted.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// mask replaces the identifiers of text, found with dicts, by the session's placeholders.
func (s *Session) mask(text string, dicts []*Dictionary) (string, Counts) {
	hs := s.aliasHits(text, detectLong(text, dicts))
	if len(hs) == 0 {
		return text, nil
	}
	counts := Counts{}
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range hs {
		surface := text[h.start:h.end]
		sl := s.byKey[h.key]
		if sl == nil {
			s.next[h.kind]++
			sl = &slot{label: "[" + string(h.kind) + "_" + strconv.Itoa(s.next[h.kind]) + "]", kind: h.kind,
				preferred: h.preferred, seen: map[string]int{}}
			s.byKey[h.key], s.labels[sl.label] = sl, sl
		}
		if sl.seen[surface] == 0 {
			sl.order = append(sl.order, surface)
		}
		sl.seen[surface]++
		counts[h.kind]++
		b.WriteString(text[last:h.start])
		b.WriteString(sl.label)
		last = h.end
	}
	b.WriteString(text[last:])
	return b.String(), counts
}

// surface is what a placeholder is restored to: the catalog's own form of the name when a
// text wrote it so, else the way the texts wrote it most often (the first of equals). It is
// always a string one of the masked texts held.
func (sl *slot) surface() string {
	best := sl.order[0]
	for _, w := range sl.order {
		if sl.preferred != "" && fold(w) == fold(sl.preferred) {
			return w
		}
		if sl.seen[w] > sl.seen[best] {
			best = w
		}
	}
	return best
}

// ErrUnknownPlaceholder marks a reply holding a placeholder the session never issued, or one
// too mangled to read: what it stands for cannot be known, so the reply is not used.
var ErrUnknownPlaceholder = errors.New("a placeholder that was never issued")

// placeholderRe is a placeholder as a model may write it, read in the reply upper-cased
// (upper): the label, or with its case, spaces or underscore changed; a kind without a number
// is one it made up.
var placeholderRe = regexp.MustCompile(`\[\s*(` + kindAlternatives() + `)(?:[\s_\-]*(\d+))?\s*\]`)

// bareRe is a placeholder's label without its brackets: «КОНТРАГЕНТ_2».
var bareRe = regexp.MustCompile(`(` + kindAlternatives() + `)_(\d+)`)

// upper is s upper-cased rune for rune where that keeps the rune's length in bytes, so that
// offsets found in it point at the same text in s (case-insensitive regular expressions are
// several times slower).
func upper(s string) string {
	return strings.Map(func(r rune) rune {
		if u := unicode.ToUpper(r); utf8.RuneLen(u) == utf8.RuneLen(r) {
			return u
		}
		return r
	}, s)
}

func kindAlternatives() string {
	var alts []string
	for _, k := range kinds {
		alts = append(alts, strings.ReplaceAll(regexp.QuoteMeta(string(k)), "Ё", "[ЁЕ]"))
	}
	return strings.Join(alts, "|")
}

// label is the canonical label of a kind word and number as a model wrote them.
func label(kind, n string) string {
	k := strings.ToUpper(kind)
	if k == "СЧЕТ" {
		k = "СЧЁТ"
	}
	return "[" + k + "_" + n + "]"
}

// Restore puts back what reply's placeholders stand for. In a JSON reply (the planner's), what
// is put back is escaped as a JSON string's content. A placeholder the session never issued,
// or a kind without its number, is ErrUnknownPlaceholder: the reply is not used rather than
// given a wrong name.
func (s *Session) Restore(reply string, inJSON bool) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	bad := 0
	put := func(kind, n string) string {
		sl := s.labels[label(kind, n)]
		if n == "" || sl == nil {
			bad++
			return ""
		}
		v := sl.surface()
		if inJSON {
			v = jsonContent(v)
		}
		return v
	}
	out := replaceUpper(reply, placeholderRe, put)
	if bad == 0 {
		out = replaceUpper(out, bareRe, put)
	}
	if bad > 0 {
		return "", fmt.Errorf("%w: %d in the reply", ErrUnknownPlaceholder, bad)
	}
	return out, nil
}

// replaceUpper replaces the matches of re in s upper-cased by put(kind, number) of each.
func replaceUpper(s string, re *regexp.Regexp, put func(kind, n string) string) string {
	up := upper(s)
	ms := re.FindAllStringSubmatchIndex(up, -1)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		n := ""
		if m[4] >= 0 {
			n = up[m[4]:m[5]]
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(put(up[m[2]:m[3]], n))
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// jsonContent is v escaped as the content of a JSON string.
func jsonContent(v string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	q := strings.TrimSpace(b.String())
	return q[1 : len(q)-1]
}

// alias is a name as the user wrote it that the parser resolved to a catalog's entity — a typo
// the dictionary's index cannot find («ворона» for «Вектор»… or a first letter off: «гомашка»).
type alias struct {
	written string // folded
	kind    Kind
	key     string
	words   string
}

// leadingPrep are the prepositions a slot's text may start with («по вектору», «у ромашки»).
var leadingPrep = regexp.MustCompile(`(?i)^(по|у|от|для|с|со|к|ко|перед|о|об|про|на|в|за)\s+`)

// Alias records, in the session of ctx, that written — a name as the message wrote it — is the
// catalog entity name: the parser resolved it, so it is masked as the entity wherever a text of
// this answer holds it, even where the dictionary's own reading of names would miss the typo.
func Alias(ctx context.Context, written, name string) {
	s := sessionFrom(ctx)
	written = strings.TrimSpace(leadingPrep.ReplaceAllString(strings.TrimSpace(written), ""))
	if s == nil || utf8.RuneCountInString(written) < 3 || strings.TrimSpace(name) == "" {
		return
	}
	k, key, words := entityKey(Counterparty, name)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.aliases = append(s.aliases, alias{written: ru.FoldAligned(strings.ReplaceAll(written, `\`, "")), kind: k, key: key, words: words})
}

// aliasHits are the places text writes one of the session's aliases, outside hs.
func (s *Session) aliasHits(text string, hs []hit) []hit {
	s.mu.Lock()
	as := slices.Clone(s.aliases)
	s.mu.Unlock()
	if len(as) == 0 {
		return hs
	}
	folded := ru.FoldAligned(text) // byte offsets of text itself
	for _, a := range as {
		for from := 0; ; {
			i := strings.Index(folded[from:], a.written)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(a.written)
			from = end
			before, _ := utf8.DecodeLastRuneInString(text[:start])
			after, _ := utf8.DecodeRuneInString(text[end:])
			if wordRune(before) || wordRune(after) {
				continue // inside a longer word
			}
			h := hit{start: start, end: end, kind: a.kind, key: a.key, preferred: a.words}
			if !slices.ContainsFunc(hs, func(o hit) bool { return h.start < o.end && o.start < h.end }) {
				hs = append(hs, h)
			}
		}
	}
	slices.SortFunc(hs, func(a, b hit) int { return a.start - b.start })
	return hs
}

// wordRune: a letter or digit — what a name found inside a longer word is next to. (RuneError,
// what an empty side decodes to, is neither.)
func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
