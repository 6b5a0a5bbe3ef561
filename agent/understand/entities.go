package understand

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/address"
	"github.com/finbot/finbot/agent/ru"
)

// legalForms are the legal-form words stripped from a catalog name before matching.
var legalForms = map[string]bool{"ооо": true, "ао": true, "пао": true, "зао": true, "оао": true, "ип": true,
	"нко": true, "ано": true, "фгуп": true, "муп": true, "гуп": true, "тоо": true}

// nameKey is a catalog name as words to match: folded and stemmed, legal form and quotes gone.
type nameKey struct {
	words []string
	// surname is set for an individual entrepreneur's surname alone.
	surname bool
	// person: the words are a person's names, whose stems differ by declension («смирн» for
	// «Смирнов», «смирнов» for «Смирнову»).
	person bool
	// glued: the words of a multi-word name written as one («векторплюс»): matched exactly.
	glued bool
}

// keysOf returns the ways a message may write an entity's name: «ООО «Вектор Плюс»» is
// «вектор плюс» and «векторплюс»; «ПАО «Северсталь-Логистик»» also «северсталь логистик»;
// «ИП Смирнов Алексей Петрович» also «смирнов».
func keysOf(e address.Entity) []nameKey {
	name := strings.NewReplacer("«", " ", "»", " ", "\"", " ", "'", " ", "(", " ", ")", " ").Replace(e.Name)
	var ws []string
	for _, w := range strings.Fields(ru.Fold(name)) {
		if !legalForms[w] {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return nil
	}
	person := strings.HasPrefix(ru.Fold(e.Name), "ип ")
	keys := []nameKey{{words: stemAll(ws), person: person}}
	if strings.Contains(strings.Join(ws, " "), "-") {
		var split []string
		for _, w := range ws {
			split = append(split, strings.FieldsFunc(w, func(r rune) bool { return r == '-' })...)
		}
		keys = append(keys, nameKey{words: stemAll(split)})
	}
	if len(ws) > 1 {
		keys = append(keys, nameKey{words: []string{stem(strings.ReplaceAll(strings.Join(ws, ""), "-", ""))}, glued: true})
	}
	if person {
		keys = append(keys, nameKey{words: []string{stem(ws[0])}, surname: true, person: true})
	}
	return keys
}

// nameMatch is an entity named in a message, over tokens [start, end).
type nameMatch struct {
	e          address.Entity
	start, end int
	full       bool // every word of the name matched
	words      int  // name words matched
}

// matchNames finds the entities of es named in toks. skip marks tokens that belong to the
// lexicon (a term is not a name).
func matchNames(toks []Token, es []address.Entity, skip []bool) []nameMatch {
	var out []nameMatch
	for _, e := range es {
		if e.Deleted {
			continue
		}
		best := nameMatch{}
		for _, k := range keysOf(e) {
			for i := range toks {
				if m, ok := matchKey(toks, i, k, skip); ok && m.words > best.words {
					m.e = e
					best = m
				}
			}
		}
		if best.words > 0 {
			out = append(out, best)
		}
	}
	return out
}

// matchKey matches a name at toks[i:]. A name's first word must match; then as many of its
// words as follow (a partial match names the entity only when nothing matches fully). Tokens
// glued together in the message («строй маркет») match a one-word name.
func matchKey(toks []Token, i int, k nameKey, skip []bool) (nameMatch, bool) {
	n := 0
	j := i
	for n < len(k.words) && j < len(toks) {
		if !nameWordEq(toks[j].Stem, k.words[n], k) {
			if n == 0 && j+1 < len(toks) && len(k.words) == 1 && !k.surname {
				glued := stem(toks[j].Text + toks[j+1].Text)
				if glued == k.words[0] {
					return nameMatch{start: j, end: j + 2, full: true, words: 1}, true
				}
			}
			break
		}
		n, j = n+1, j+1
	}
	if n == 0 {
		return nameMatch{}, false
	}
	if skip != nil && n == 1 && skip[i] && len(k.words) > 1 {
		return nameMatch{}, false
	}
	if k.surname && !isSurnameToken(toks[i].Text) {
		return nameMatch{}, false
	}
	return nameMatch{start: i, end: j, full: n == len(k.words), words: n}, true
}

func isSurnameToken(w string) bool { return utf8.RuneCountInString(w) >= 4 }

// nameWordEq compares a message word with a name word of key k: equal stems, or one typo in
// a long word; a person's name also when one stem extends the other by a declension ending.
func nameWordEq(t, w string, k nameKey) bool {
	switch {
	case t == w:
		return true
	case k.glued:
		return false
	case typoEligible(w) && typoEligible(t) && within1(t, w):
		return true
	case k.person:
		short, long := []rune(t), []rune(w)
		if len(short) > len(long) {
			short, long = long, short
		}
		return len(short) >= 4 && len(long)-len(short) <= 2 && string(long[:len(short)]) == string(short)
	}
	return false
}

// Resolution of the counterparty a message names.
type partyResult struct {
	match      *nameMatch
	candidates []address.Entity
}

// resolveParty picks the counterparty: a full match over the longest span wins; several equal
// ones are candidates; a partial match counts when it is the only one.
func resolveParty(ms []nameMatch) partyResult {
	if len(ms) == 0 {
		return partyResult{}
	}
	best := func(filter func(nameMatch) bool) []nameMatch {
		var top []nameMatch
		for _, m := range ms {
			if !filter(m) {
				continue
			}
			switch {
			case len(top) == 0 || m.end-m.start > top[0].end-top[0].start:
				top = []nameMatch{m}
			case m.end-m.start == top[0].end-top[0].start:
				top = append(top, m)
			}
		}
		return top
	}
	top := best(func(m nameMatch) bool { return m.full })
	if len(top) == 0 {
		top = best(func(m nameMatch) bool { return true })
	}
	top = dedupeSameParty(top)
	if len(top) == 1 {
		return partyResult{match: &top[0]}
	}
	var c []address.Entity
	for _, m := range top {
		c = append(c, m.e)
	}
	return partyResult{candidates: c}
}

// dedupeSameParty keeps one match per INN: a renamed duplicate of a live entity is the same party.
func dedupeSameParty(ms []nameMatch) []nameMatch {
	var out []nameMatch
	for _, m := range ms {
		if slices.ContainsFunc(out, func(o nameMatch) bool { return o.e.Ref == m.e.Ref }) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// innRe is a 10- or 12-digit number.
var innRe = regexp.MustCompile(`(?:^|\D)(\d{10}|\d{12})(?:\D|$)`)

// findINN returns the entities of es whose INN the text names.
func findINN(text string, es []address.Entity) (inn string, found []address.Entity) {
	for _, m := range innRe.FindAllStringSubmatch(text, -1) {
		if !address.ValidINN(m[1]) {
			continue
		}
		inn = m[1]
		for _, e := range es {
			if e.INN == m[1] && !e.Deleted {
				found = append(found, e)
			}
		}
		if len(found) > 0 {
			return inn, found
		}
	}
	return inn, nil
}

// contractRe is a document number: letters and digits joined by - or /, with a digit.
var contractRe = regexp.MustCompile(`(?i)[\p{L}\d]+(?:[-/][\p{L}\d]+)+|№\s*[\p{L}\d][\p{L}\d/-]*`)

// findContract returns the contract the text names by its number: exact («П-77/2024») or
// without the year («П-77») when that is unique.
func findContract(text string, es []address.Entity) (address.Entity, string, bool) {
	for _, raw := range contractRe.FindAllString(text, -1) {
		num := strings.ToLower(strings.TrimSpace(strings.TrimLeft(raw, "№")))
		if num == "" || !strings.ContainsAny(num, "0123456789") {
			continue
		}
		var exact, prefix []address.Entity
		for _, e := range es {
			if e.Deleted || e.Number == "" {
				continue
			}
			n := strings.ToLower(e.Number)
			switch {
			case n == num:
				exact = append(exact, e)
			case strings.HasPrefix(n, num+"/"):
				prefix = append(prefix, e)
			}
		}
		if len(exact) == 1 {
			return exact[0], raw, true
		}
		if len(exact) == 0 && len(prefix) == 1 {
			return prefix[0], raw, true
		}
	}
	return address.Entity{}, "", false
}
