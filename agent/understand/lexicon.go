package understand

import (
	"bufio"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/russian"

	"github.com/finbot/finbot/ru"
)

// Concept is what a lexicon phrase means (lexicon.tsv lists them with their meaning).
type Concept string

// The concepts of lexicon.tsv.
const (
	CReceivables Concept = "receivables"
	CPayables    Concept = "payables"
	CDebt        Concept = "debt"
	COwesUs      Concept = "owes_us"
	CWeOwe       Concept = "we_owe"
	CBalance     Concept = "balance"
	COpenItems   Concept = "open_items"
	CDocuments   Concept = "documents"
	CBankOps     Concept = "bank_ops"
	CContracts   Concept = "contracts"
	CNotClosed   Concept = "not_closed"
	CForming     Concept = "forming"
	CAccount     Concept = "account"
	CAccountWord Concept = "account_word"
	CWrite       Concept = "write"
	CRate        Concept = "rate"
	CKeyRate     Concept = "key_rate"
	CNews        Concept = "news"
	CSmallTalk   Concept = "smalltalk"
	CKBQuestion  Concept = "kb_question"
	CKBTopic     Concept = "kb_topic"
	CMyDocs      Concept = "my_docs"
	CDocTerms    Concept = "doc_terms"
	COrg         Concept = "organization"
	CCustomers   Concept = "customers"
	CSuppliers   Concept = "suppliers"
	CByParty     Concept = "by_party"
	CFollowUp    Concept = "follow_up"
	CAnalysis    Concept = "analysis"
	// The reports of a period (the turnover sheet, the account card).
	CTurnoverSheet Concept = "turnover_sheet"
	CAccountCard   Concept = "account_card"
	// CAging is a debt by days overdue (the aging of receivables and payables); value "strong"
	// when the phrase alone asks for it, else only beside a debt.
	CAging Concept = "aging"
	// CReconcile is the act of reconciliation with a counterparty («акт сверки», «сверка»).
	CReconcile Concept = "reconciliation"
	// CPartyCard is the counterparty card; value "strong" when the phrase alone asks for it,
	// else only with a company named and nothing else asked of it.
	CPartyCard Concept = "party_card"
	// COffsets are the offset candidates (взаимозачёт).
	COffsets Concept = "offsets"
	// CStock is a stock of goods or materials in their units (the quantity accounts 10, 41,
	// 43): value "strong" when the phrase alone asks for it («на складе», «в наличии»), "units"
	// when it asks for the quantity itself («в штуках»), "unit" for a unit of measure, which asks
	// it beside a balance or «осталось» («сколько кг цемента осталось»).
	CStock Concept = "stock"
)

var knownConcepts = map[Concept]bool{CReceivables: true, CPayables: true, CDebt: true, COwesUs: true, CWeOwe: true,
	CBalance: true, COpenItems: true, CDocuments: true, CBankOps: true, CContracts: true, CNotClosed: true,
	CForming: true, CAccount: true, CAccountWord: true, CWrite: true, CRate: true, CKeyRate: true, CNews: true,
	CSmallTalk: true, CKBQuestion: true, CKBTopic: true, CMyDocs: true, CDocTerms: true, COrg: true,
	CCustomers: true, CSuppliers: true, CByParty: true, CFollowUp: true, CAnalysis: true, CTurnoverSheet: true, CAccountCard: true,
	CAging: true, CReconcile: true, CPartyCard: true, COffsets: true, CStock: true}

//go:embed lexicon.tsv
var lexiconTSV string

// Entry is one line of the lexicon.
type Entry struct {
	Phrase  string
	Concept Concept
	Value   string
	Line    int
	words   []string // folded and stemmed; for a write request folded only
	// exact: matched word for word as written, no stemming nor typos. Requests to change data
	// are imperatives: «проведи» asks to post, «проведено» asks what is posted.
	exact bool
}

// Lexicon maps the trade's words to concepts.
type Lexicon struct {
	entries []Entry
	byFirst map[string][]int // first word → entries
	// byTypo: the entries whose first word may be matched with one typo, by its first letter
	// and length in runes (a typo keeps the first letter and changes the length by at most one).
	byTypo map[typoKey][]int
	// typos remembers the entries each unknown stem may be a typo of (typoCandidates).
	typos *memo[[]int]
}

type typoKey struct {
	first rune
	runes int
}

// typoKeyOf is the key of a stem in byTypo.
func typoKeyOf(s string) typoKey {
	r, _ := utf8.DecodeRuneInString(s)
	return typoKey{first: r, runes: utf8.RuneCountInString(s)}
}

// LoadLexicon parses a lexicon in the format of lexicon.tsv.
func LoadLexicon(src string) (*Lexicon, error) {
	lx := &Lexicon{byFirst: map[string][]int{}, byTypo: map[typoKey][]int{}, typos: newMemo[[]int](1 << 14)}
	sc := bufio.NewScanner(strings.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 || len(f) > 3 || strings.TrimSpace(f[0]) == "" {
			return nil, fmt.Errorf("lexicon line %d: want phrase<TAB>concept[<TAB>value], got %q", n, line)
		}
		e := Entry{Phrase: strings.TrimSpace(f[0]), Concept: Concept(strings.TrimSpace(f[1])), Line: n}
		if len(f) == 3 {
			e.Value = strings.TrimSpace(f[2])
		}
		if !knownConcepts[e.Concept] {
			return nil, fmt.Errorf("lexicon line %d: unknown concept %q", n, e.Concept)
		}
		if e.Concept == CAccount && e.Value == "" {
			return nil, fmt.Errorf("lexicon line %d: an account term needs its code", n)
		}
		e.exact = e.Concept == CWrite
		if e.exact {
			e.words = words(e.Phrase)
		} else {
			e.words = stemAll(words(e.Phrase))
		}
		if len(e.words) == 0 {
			return nil, fmt.Errorf("lexicon line %d: no words in %q", n, e.Phrase)
		}
		lx.byFirst[e.words[0]] = append(lx.byFirst[e.words[0]], len(lx.entries))
		// A greeting of six letters is too near other words to be read through a typo: «привезти»
		// is no «привет».
		if !e.exact && typoEligible(e.words[0]) && (e.Concept != CSmallTalk || utf8.RuneCountInString(e.words[0]) >= 7) {
			k := typoKeyOf(e.words[0])
			lx.byTypo[k] = append(lx.byTypo[k], len(lx.entries))
		}
		lx.entries = append(lx.entries, e)
	}
	return lx, sc.Err()
}

// DefaultLexicon is lexicon.tsv, loaded once.
var DefaultLexicon = func() *Lexicon {
	lx, err := LoadLexicon(lexiconTSV)
	if err != nil {
		panic(err) // embedded and tested: a broken file is a build defect
	}
	return lx
}()

// Entries returns the lexicon's entries in file order.
func (lx *Lexicon) Entries() []Entry { return lx.entries }

// Hit is a lexicon phrase found in a message: tokens [Start, End).
type Hit struct {
	Concept    Concept
	Value      string
	Start, End int
	Phrase     string
}

// Find returns the phrases found in the message's tokens. A hit inside a longer one is dropped
// («кто нам должен» keeps owes_us, not also debt for «должен»).
func (lx *Lexicon) Find(toks []Token) []Hit {
	var hits []Hit
	for i := range toks {
		cands := lx.byFirst[toks[i].Stem]
		if toks[i].Text != toks[i].Stem {
			cands = append(cands[:len(cands):len(cands)], lx.byFirst[toks[i].Text]...) // never into byFirst's array
		}
		if len(cands) == 0 && typoEligible(toks[i].Stem) {
			cands = lx.typos.get(toks[i].Stem, lx.typoCandidates)
		}
		for _, j := range cands {
			e := lx.entries[j]
			if e.exact {
				if end, ok := matchExact(toks, i, e.words); ok {
					hits = append(hits, Hit{Concept: e.Concept, Value: e.Value, Start: i, End: end, Phrase: e.Phrase})
				}
				continue
			}
			if end, ok := matchAt(toks, i, e.words); ok {
				hits = append(hits, Hit{Concept: e.Concept, Value: e.Value, Start: i, End: end, Phrase: e.Phrase})
			}
		}
	}
	out := hits[:0:0]
	for _, h := range hits {
		inside := false
		for _, g := range hits {
			if g.End-g.Start > h.End-h.Start && g.Start <= h.Start && h.End <= g.End {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, h)
		}
	}
	return out
}

// typoCandidates are the entries whose first word stem may be a typo of, in file order (as a
// scan of the entries gives).
func (lx *Lexicon) typoCandidates(stem string) []int {
	var cands []int
	k := typoKeyOf(stem)
	for _, n := range [3]int{k.runes - 1, k.runes, k.runes + 1} {
		for _, j := range lx.byTypo[typoKey{k.first, n}] {
			if isTypo(stem, lx.entries[j].words[0]) {
				cands = append(cands, j)
			}
		}
	}
	slices.Sort(cands)
	return cands
}

// matchExact matches words at toks[i:] as written.
func matchExact(toks []Token, i int, ws []string) (int, bool) {
	if i+len(ws) > len(toks) {
		return 0, false
	}
	for k, w := range ws {
		if toks[i+k].Text != w {
			return 0, false
		}
	}
	return i + len(ws), true
}

// matchAt matches words at toks[i:]; one typo per long word is tolerated.
func matchAt(toks []Token, i int, ws []string) (end int, ok bool) {
	if i+len(ws) > len(toks) {
		return 0, false
	}
	for k, w := range ws {
		if t := toks[i+k].Stem; t != w && !(typoEligible(w) && isTypo(t, w)) {
			return 0, false
		}
	}
	return i + len(ws), true
}

// Token is one word of a message: as folded, and its stem.
type Token struct {
	Text string // folded: lower case, ё→е
	Stem string
	// Start and End are the token's byte offsets in the folded message.
	Start, End int
}

// Tokenize folds text and splits it into words with their stems.
func Tokenize(text string) []Token {
	_, toks := tokenize(text)
	return toks
}

// tokenize is Tokenize that also returns the folded text.
func tokenize(text string) (folded string, toks []Token) {
	folded = ru.Fold(text)
	off := 0
	for _, w := range strings.Split(folded, " ") {
		if w == "" {
			continue
		}
		start := strings.Index(folded[off:], w) + off
		toks = append(toks, Token{Text: w, Stem: stem(w), Start: start, End: start + len(w)})
		off = start + len(w)
	}
	return folded, toks
}

// words splits a lexicon phrase like a message.
func words(s string) []string { return strings.Fields(ru.Fold(s)) }

func stemAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = stem(w)
	}
	return out
}

// stem is the Snowball stem of a Cyrillic word; other tokens (numbers, codes, «р/с», Latin)
// stay as they are.
func stem(w string) string {
	for _, r := range w {
		if !unicode.Is(unicode.Cyrillic, r) {
			return w
		}
	}
	if utf8.RuneCountInString(w) <= 3 || listVerbs[w] || keptWhole[w] {
		return w
	}
	return stems.get(w, snowball)
}

// listVerbs ask for a list («перечисли обязанности арендатора»): their stem would be that of
// «перечислили», a bank transfer.
var listVerbs = map[string]bool{"перечисли": true, "перечислите": true}

// keptWhole are words whose stem is another word's: «как долго» asks a duration, and «долго»'s
// stem would be «долг», a debt.
var keptWhole = map[string]bool{"долго": true, "недолго": true, "надолго": true}

// stems remembers the stems of the words met: a team's messages use few words, again and again.
var stems = newMemo[string](1 << 16)

func snowball(w string) string { return russian.Stem(w, false) }

// isTypo reports whether t is w with one typo. A word that extends the other is another
// word, not a typo («приходн» is not «приход»).
func isTypo(t, w string) bool {
	return t != w && !strings.HasPrefix(t, w) && !strings.HasPrefix(w, t) && within1(t, w)
}

// typoEligible reports whether a stem is long enough to be matched with one typo.
func typoEligible(s string) bool { return utf8.RuneCountInString(s) >= 5 && isLetters(s) }

func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// within1 reports whether a and b differ by at most one edit (insertion, deletion,
// substitution or transposition of neighbours), with the same first letter.
func within1(a, b string) bool {
	if a == b {
		return true
	}
	x, y := []rune(a), []rune(b)
	if len(x) == 0 || len(y) == 0 || x[0] != y[0] {
		return false
	}
	if d := len(x) - len(y); d > 1 || d < -1 {
		return false
	}
	return oneEdit(x, y)
}

// oneEdit reports whether x and y are at most one edit apart (their optimal string alignment
// distance is at most 1): past their common beginning, what is left differs by one rune
// inserted, deleted or replaced, or by two neighbours swapped.
func oneEdit(x, y []rune) bool {
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	switch len(x) - len(y) {
	case 0:
		if i == len(x) {
			return true
		}
		if i+1 < len(x) && x[i] == y[i+1] && x[i+1] == y[i] && slices.Equal(x[i+2:], y[i+2:]) {
			return true
		}
		return slices.Equal(x[i+1:], y[i+1:])
	case 1:
		return slices.Equal(x[i+1:], y[i:])
	case -1:
		return slices.Equal(x[i:], y[i+1:])
	}
	return false
}

// moneyStems are the stems of words about money that the lexicon leaves to context («что с
// деньгами», «наличные»): Decision.Money.
var moneyStems = map[string]bool{"деньг": true, "денег": true, "денежн": true, "наличн": true}
