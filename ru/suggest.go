package ru

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hbollon/go-edlib"
)

// Suggest returns up to 3 currencies of the table closest to an unknown code or name,
// closest first (ties: the longer common start, then the code): Suggest("USB") is
// USD, UAH, UZS; Suggest("EUO") starts with EUR; Suggest("доллор") with USD. A Latin word is compared with the codes (at most 2 edits
// away); any other word with the currency names, each word of the official name and
// the nouns FindCurrencies knows (at most a third of its letters, and at least one, off).
// A word FindCurrencies recognises («юаней») comes first. nil when nothing is close.
func Suggest(s string) []Currency {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if utf8.RuneCountInString(s) > 64 {
		return nil // longer than any currency name
	}
	q := normWord(s)
	type scored struct {
		c      Currency
		dist   int // edits, plus one for a match on a single word of a longer name
		prefix int // letters in common at the start, for ties
	}
	best := map[string]scored{}
	consider := func(code string, d, prefix int) {
		if old, ok := best[code]; !ok || d < old.dist || (d == old.dist && prefix > old.prefix) {
			best[code] = scored{byCode[code], d, prefix}
		}
	}
	if n := nouns[q]; n != nil && n.def != "" {
		consider(n.def, 0, utf8.RuneCountInString(q))
	}
	if isASCIILetters(s) {
		up := strings.ToUpper(s)
		for _, c := range table {
			if d := edlib.LevenshteinDistance(up, c.Code); d <= 2 {
				consider(c.Code, d, commonPrefix(up, c.Code))
			}
		}
	} else {
		limit := max(1, utf8.RuneCountInString(q)/3)
		for _, a := range aliases {
			if d := edlib.LevenshteinDistance(q, a.word); d <= limit {
				consider(a.code, d+a.penalty, commonPrefix(q, a.word))
			}
		}
	}
	out := make([]scored, 0, len(best))
	for _, sc := range best {
		out = append(out, sc)
	}
	slices.SortFunc(out, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(b.prefix, a.prefix), cmp.Compare(a.c.Code, b.c.Code))
	})
	if len(out) > 3 {
		out = out[:3]
	}
	var res []Currency
	for _, o := range out {
		res = append(res, o.c)
	}
	return res
}

// alias is a word that names a currency, for Suggest. penalty is 1 for one word of a
// longer name: «доллар» of «Канадский доллар» is a weaker match than the noun «доллар».
type alias struct {
	word, code string
	penalty    int
}

// aliases are the lower-cased names of the table, each of their words of three letters
// or more, and the nominative nouns with their default codes.
var aliases = func() []alias {
	var out []alias
	for _, c := range table {
		name := normWord(c.Name)
		out = append(out, alias{name, c.Code, 0})
		for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == ' ' || r == '(' || r == ')' }) {
			if w != name && utf8.RuneCountInString(w) >= 3 {
				out = append(out, alias{w, c.Code, 1})
			}
		}
	}
	for _, w := range []string{"доллар", "бакс", "евро", "юань", "фунт", "стерлинг", "иена", "йена",
		"франк", "тенге", "лари", "сомони", "сдр", "лира", "дирхам", "рупия", "вона", "злотый",
		"гривна", "лей", "сом", "драм", "манат", "сум", "бат", "реал", "ранд", "рэнд", "донг",
		"форинт", "лев", "динар", "риал"} {
		out = append(out, alias{w, nouns[w].def, 0})
	}
	return out
}()

// commonPrefix counts the runes a and b share at the start.
func commonPrefix(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	return n
}
