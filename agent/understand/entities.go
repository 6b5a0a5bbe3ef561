package understand

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hbollon/go-edlib"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// legalForms are the legal-form words stripped from a catalog name before matching.
var legalForms = map[string]bool{"ооо": true, "ао": true, "пао": true, "зао": true, "оао": true, "ип": true,
	"нко": true, "ано": true, "фгуп": true, "муп": true, "гуп": true, "тоо": true}

// nameKey is a catalog name as words to match: folded and stemmed, legal form and quotes gone.
type nameKey struct {
	words []string
	raw   []string // the words as folded, before stemming
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
func keysOf(e recipe.Entity) []nameKey { return nameKeys.get(e.Name, nameKeysOf) }

// nameKeys remembers the keys of the names met: the catalogs' names are read against every
// message, and they change seldom.
var nameKeys = newMemo[[]nameKey](1 << 16)

// nameQuotes are the quotes and brackets around and inside a name.
var nameQuotes = strings.NewReplacer("«", " ", "»", " ", "\"", " ", "'", " ", "(", " ", ")", " ")

func nameKeysOf(fullName string) []nameKey {
	name := nameQuotes.Replace(fullName)
	var ws []string
	for _, w := range strings.Fields(ru.Fold(name)) {
		if !legalForms[w] {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return nil
	}
	person := strings.HasPrefix(ru.Fold(fullName), "ип ")
	keys := []nameKey{{words: stemAll(ws), raw: ws, person: person}}
	if strings.Contains(strings.Join(ws, " "), "-") {
		var split []string
		for _, w := range ws {
			split = append(split, strings.FieldsFunc(w, func(r rune) bool { return r == '-' })...)
		}
		keys = append(keys, nameKey{words: stemAll(split), raw: split})
	}
	if len(ws) > 1 {
		g := strings.ReplaceAll(strings.Join(ws, ""), "-", "")
		keys = append(keys, nameKey{words: []string{stem(g)}, raw: []string{g}, glued: true})
	}
	if person {
		keys = append(keys, nameKey{words: []string{stem(ws[0])}, raw: ws[:1], surname: true, person: true})
	}
	return keys
}

// nameMatch is an entity named in a message, over tokens [start, end).
type nameMatch struct {
	e          recipe.Entity
	start, end int
	full       bool // every word of the name matched
	words      int  // name words matched
}

// genericNameWords are words of company names that name no company on their own.
var genericNameWords = map[string]bool{"групп": true, "центр": true, "плюс": true, "сервис": true, "трейд": true,
	"систем": true, "ко": true, "и": true, "инвест": true, "м": true, "поставк": true, "поставка": true, "торг": true,
	"строй": true, "маркет": true, "софт": true, "снаб": true, "комплект": true, "бумаг": true, "бумага": true,
	"ветер": true, "северн": true, "северный": true, "энерг": true}

// matchNames finds the entities of es named in toks, the best match of each. skip marks tokens
// that belong to the lexicon: a term starts no partial match.
func matchNames(toks []Token, es []recipe.Entity, skip []bool) []nameMatch {
	var out []nameMatch
	for _, e := range es {
		if e.Deleted {
			continue
		}
		best := nameMatch{}
		for _, k := range keysOf(e) {
			for i := range toks {
				m, ok := matchKey(toks, i, k)
				if !ok || !m.full && skip != nil && skip[i] {
					continue
				}
				if m.full && !best.full || m.full == best.full && m.words > best.words {
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

// matchKey matches a name at toks[i:]: its words in order from the first (a full match, or a
// partial one when only the first words are there), any one distinctive word of it alone
// (partial), or an adjective made of its first word («гранитовские», partial). Tokens glued
// together in the message («строй маркет») match a one-word name.
func matchKey(toks []Token, i int, k nameKey) (nameMatch, bool) {
	n, j := 0, i
	for n < len(k.words) && j < len(toks) && (nameWordEq(toks[j], k, n) || abbreviated(toks, j, k, n)) {
		n, j = n+1, j+1
	}
	if n == 0 && len(k.words) == 1 && !k.surname && i+1 < len(toks) && stem(toks[i].Text+toks[i+1].Text) == k.words[0] {
		return nameMatch{start: i, end: i + 2, full: true, words: 1}, true
	}
	if n > 0 {
		if k.surname && !isSurnameToken(toks[i].Text) {
			return nameMatch{}, false
		}
		return nameMatch{start: i, end: j, full: n == len(k.words), words: n}, true
	}
	if k.glued || k.surname {
		return nameMatch{}, false
	}
	for n, w := range k.words[1:] {
		if utf8.RuneCountInString(w) >= 5 && !genericNameWords[w] && nameWordEq(toks[i], k, n+1) {
			return nameMatch{start: i, end: i + 1, words: 1}, true
		}
	}
	if f := strings.TrimRight(k.raw[0], "аяоеиыуюь"); utf8.RuneCountInString(f) >= 4 && strings.HasPrefix(toks[i].Text, f) {
		rest := strings.TrimPrefix(toks[i].Text, f)
		for _, suf := range []string{"ов", "ев", "ин", "ск"} {
			if strings.HasPrefix(rest, suf) {
				return nameMatch{start: i, end: i + 1, words: 1}, true
			}
		}
	}
	return nameMatch{}, false
}

// abbreviated reports whether toks[j] shortens word n of a name of several words and the
// next word follows in full («сев ветер трейд» for «Северный ветер Трейд»).
func abbreviated(toks []Token, j int, k nameKey, n int) bool {
	t := []rune(toks[j].Text)
	if n+1 >= len(k.words) || j+1 >= len(toks) || len(t) < 3 || !isLetters(toks[j].Text) {
		return false
	}
	return strings.HasPrefix(k.raw[n], toks[j].Text) && nameWordEq(toks[j+1], k, n+1)
}

func isSurnameToken(w string) bool { return utf8.RuneCountInString(w) >= 4 }

// nameWordEq compares a message word with a name word of key k: equal stems, a typo (one in a
// word of four letters or more, two in one of eight or more), a Latin name written in Cyrillic
// («дельта трейд»), or, for a person, a declension ending more or less («смирн», «смирнову»).
func nameWordEq(tok Token, k nameKey, n int) bool {
	t, w := tok.Stem, k.words[n]
	switch {
	case t == w || tok.Text == k.raw[n]:
		return true
	case k.glued:
		return false
	case declined(tok.Text, k.raw[n]):
		return true
	}
	tl, wl := utf8.RuneCountInString(t), utf8.RuneCountInString(w)
	if min(tl, wl) >= 4 && max(tl, wl) >= 5 && isLetters(t) && isLetters(w) {
		if within1(t, w) {
			return true
		}
		if min(tl, wl) >= 8 && []rune(t)[0] == []rune(w)[0] && edlib.OSADamerauLevenshteinDistance(t, w) <= 2 {
			return true
		}
	}
	if isLatin(w) && !isLatin(t) {
		if sk := ru.Skeleton(w); len(sk) >= 2 && sk == ru.Skeleton(ru.Translit(t)) {
			return true
		}
	}
	if isLatin(tok.Text) && !isLatin(w) {
		// «romashka» for «Ромашка»: a name written in Latin letters, three consonants at least.
		if sk := ru.Skeleton(tok.Text); len(sk) >= 3 && sk == ru.Skeleton(ru.Translit(w)) {
			return true
		}
	}
	if k.person {
		short, long := []rune(t), []rune(w)
		if len(short) > len(long) {
			short, long = long, short
		}
		return len(short) >= 4 && len(long)-len(short) <= 2 && string(long[:len(short)]) == string(short)
	}
	return false
}

// endings are Russian inflection endings of nouns and adjectives.
var endings = map[string]bool{"": true, "а": true, "я": true, "у": true, "ю": true, "е": true, "и": true, "ы": true,
	"о": true, "ом": true, "ем": true, "ой": true, "ей": true, "ам": true, "ям": true, "ах": true, "ях": true,
	"ами": true, "ями": true, "ов": true, "ев": true, "ого": true, "его": true, "ому": true, "ему": true, "ым": true,
	"им": true, "ую": true, "юю": true, "ая": true, "яя": true, "ое": true, "ее": true, "ые": true, "ие": true,
	"ых": true, "их": true, "ыми": true, "ими": true, "ый": true, "ий": true, "ь": true, "ью": true}

// declined reports whether two folded words are one word in two cases: a common part of four
// letters or more, the rest of each an inflection ending («гранит», «гранита»; «северный»,
// «северному»). Snowball's stems of names are not reliable for this («гранит» → «гран»).
func declined(a, b string) bool {
	x, y := []rune(a), []rune(b)
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		p++
	}
	return p >= 4 && endings[string(x[p:])] && endings[string(y[p:])]
}

func isLatin(s string) bool {
	for _, r := range s {
		if !unicode.In(r, unicode.Latin) {
			return false
		}
	}
	return s != ""
}

// partyResult is the counterparty a message names, or the candidates when it is unclear.
type partyResult struct {
	match      *nameMatch
	candidates []recipe.Entity
	// several: the candidates are different companies each named in full in its own words
	// («альфе поставке и промпоставке»), not one name that fits several.
	several bool
}

// resolveParty picks the counterparty. Full matches come first: the one over the longest span
// wins, unless another entity is also named in full elsewhere in the message («вектор или
// вектор плюс») or several fit the same span; partial matches count only without a full one,
// and only when a single entity fits.
func resolveParty(ms []nameMatch) partyResult {
	var full, part []nameMatch
	for _, m := range ms {
		if m.full {
			full = append(full, m)
		} else {
			part = append(part, m)
		}
	}
	tier := full
	if len(tier) == 0 {
		tier = part
	}
	if len(tier) == 0 {
		return partyResult{}
	}
	slices.SortStableFunc(tier, func(a, b nameMatch) int { return (b.end - b.start) - (a.end - a.start) })
	top := tier[:1]
	for _, m := range tier[1:] {
		overlaps := m.start < top[0].end && top[0].start < m.end
		if m.end-m.start == top[0].end-top[0].start || !overlaps {
			top = append(top, m)
		}
	}
	if len(top) == 1 {
		return partyResult{match: &top[0]}
	}
	var c []recipe.Entity
	for _, m := range top {
		if !slices.ContainsFunc(c, func(e recipe.Entity) bool { return e.Ref == m.e.Ref }) {
			c = append(c, m.e)
		}
	}
	if len(c) == 1 {
		return partyResult{match: &top[0]}
	}
	apart := len(full) > 0 && len(c) == len(top)
	for i := range top {
		for j := range i {
			apart = apart && (top[i].end <= top[j].start || top[j].end <= top[i].start)
		}
	}
	return partyResult{candidates: c, several: apart}
}

// innRe is a 10- or 12-digit number.
var innRe = regexp.MustCompile(`(?:^|\D)(\d{10}|\d{12})(?:\D|$)`)

// findINN returns the entities of es whose INN the text names.
func findINN(text string, es []recipe.Entity) (inn string, found []recipe.Entity) {
	for _, m := range innRe.FindAllStringSubmatch(text, -1) {
		if !recipe.ValidINN(m[1]) {
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

// contractNumber is a number written right after «договор» («по договору 178», «договор №
// 999/2024»): digits, maybe with letters, - or / — not a date («договор от 15.03»), nor a year
// («договор 2024 года»).
var contractNumber = regexp.MustCompile(`(?i)договор\p{L}*\s+(?:№\s*)?([\p{L}]{0,4}-?\d[\p{L}\d/-]*)(\s+(?:г\.|года|год)\b)?`)

// bareContract is the number «договор …» names when contractRe does not read it (no - or /:
// «по договору 178»): the contracts whose number it is, or opens («178/2024»); the number
// alone when none has it.
func bareContract(text string, es []recipe.Entity, owner string) (raw string, found []recipe.Entity) {
	m := contractNumber.FindStringSubmatch(text)
	if m == nil || m[2] != "" || strings.Count(m[1], ".") > 0 {
		return "", nil
	}
	raw = m[1]
	num := strings.ToLower(raw)
	for _, e := range es {
		if e.Deleted || e.Number == "" || owner != "" && e.OwnerRef != owner {
			continue
		}
		n := strings.ToLower(e.Number)
		if n == num || strings.HasPrefix(n, num+"/") || strings.HasSuffix(n, "-"+num) || strings.Contains(n, "-"+num+"/") {
			found = append(found, e)
		}
	}
	return raw, found
}

// closestContracts are the contracts to offer for a number no contract has: the
// counterparty's (owner), else those whose numbers hold its digits; at most n.
func closestContracts(raw string, es []recipe.Entity, owner string, n int) []recipe.Entity {
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, strings.SplitN(raw, "/", 2)[0])
	var out []recipe.Entity
	for _, e := range es {
		if e.Deleted || e.Number == "" || len(out) == n {
			continue
		}
		if owner != "" && e.OwnerRef == owner || owner == "" && digits != "" && strings.Contains(e.Number, digits) {
			out = append(out, e)
		}
	}
	return out
}

// findContract returns the contract the text names by its number: exact («П-77/2024»),
// without the year («П-77») or without its letters («77/2024») when that is unique. owner,
// when not empty, narrows several contracts of one number to the counterparty's.
func findContract(text string, es []recipe.Entity, owner string) (recipe.Entity, string, bool) {
	e, raw, _, ok := findContracts(text, es, owner)
	return e, raw, ok
}

// findContracts is findContract that also returns the contracts a number names when several
// counterparties have a contract of that number («ДП-68/2024»): which is meant, the user says.
func findContracts(text string, es []recipe.Entity, owner string) (recipe.Entity, string, []recipe.Entity, bool) {
	for _, raw := range contractRe.FindAllString(text, -1) {
		num := strings.ToLower(strings.TrimSpace(strings.TrimLeft(raw, "№")))
		if num == "" || !strings.ContainsAny(num, "0123456789") {
			continue
		}
		var exact, prefix []recipe.Entity
		for _, e := range es {
			if e.Deleted || e.Number == "" || owner != "" && e.OwnerRef != owner {
				continue
			}
			n := strings.ToLower(e.Number)
			switch {
			case n == num:
				exact = append(exact, e)
			case strings.HasPrefix(n, num+"/"), strings.HasSuffix(n, "-"+num):
				prefix = append(prefix, e)
			}
		}
		if len(exact) == 1 {
			return exact[0], raw, nil, true
		}
		if len(exact) == 0 && len(prefix) == 1 {
			return prefix[0], raw, nil, true
		}
		if len(exact) > 1 {
			return recipe.Entity{}, raw, exact, false
		}
	}
	return recipe.Entity{}, "", nil, false
}
