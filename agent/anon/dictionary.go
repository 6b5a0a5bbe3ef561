package anon

import (
	"hash/fnv"
	"strings"
	"sync"
	"unicode"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

// Dictionary is what the 1C catalogs say is an identifier: the names of our organizations and
// of the counterparties (individual entrepreneurs as persons), read the way the understanding
// step reads them in a message (understand.NameIndex: inflected, misspelt, glued, in Latin
// letters), and their ИНН, КПП, contracts' and bank accounts' numbers. It is safe for
// concurrent use.
type Dictionary struct {
	index    *understand.NameIndex
	entities []named
	inns     map[string]bool
	kpps     map[string]bool
	accounts map[string]bool
	// contracts are the catalogs' contract numbers («п-77/2024»), folded, found anywhere.
	contracts map[string]bool
	// sum is the fingerprint of the catalogs it was built of.
	sum uint64
}

// named is an entity of the index: its kind, and its name as a text writes it in full.
type named struct {
	kind      Kind
	key       string
	preferred string
}

// dictionaries keeps the dictionaries of the catalogs met, by their content: the ledger
// returns a new copy of the same catalogs for every question.
var dictionaries, _ = lru.New[uint64, *Dictionary](16)

// buildMu keeps two questions from building the same dictionary at once.
var buildMu sync.Mutex

// DictionaryOf is the dictionary of the catalogs c; nil for nil catalogs.
func DictionaryOf(c *recipe.Catalogs) *Dictionary {
	if c == nil {
		return nil
	}
	sum := fingerprint(c)
	if d, ok := dictionaries.Get(sum); ok {
		return d
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	if d, ok := dictionaries.Get(sum); ok {
		return d
	}
	d := newDictionary(c)
	d.sum = sum
	dictionaries.Add(sum, d)
	return d
}

// fingerprint hashes what a dictionary is built of.
func fingerprint(c *recipe.Catalogs) uint64 {
	h := fnv.New64a()
	for _, list := range [][]recipe.Entity{c.Organizations, c.Counterparties, c.Contracts} {
		for _, e := range list {
			h.Write([]byte(e.Ref + "\x00" + e.Name + "\x00" + e.INN + "\x00" + e.KPP + "\x00" + e.Number + "\x01"))
		}
		h.Write([]byte{2})
	}
	for _, b := range c.BankAccounts {
		h.Write([]byte(b.Number + "\x00"))
	}
	return h.Sum64()
}

func newDictionary(c *recipe.Catalogs) *Dictionary {
	d := &Dictionary{inns: map[string]bool{}, kpps: map[string]bool{}, accounts: map[string]bool{}}
	var es []recipe.Entity
	addEntity := func(e recipe.Entity, k Kind) {
		if strings.TrimSpace(e.Name) == "" {
			return
		}
		k, key, words := entityKey(k, e.Name)
		es = append(es, e)
		d.entities = append(d.entities, named{kind: k, key: key, preferred: words})
		if e.INN != "" {
			d.inns[e.INN] = true
		}
		if e.KPP != "" {
			d.kpps[e.KPP] = true
		}
	}
	for _, e := range c.Organizations {
		addEntity(e, Organization)
	}
	for _, e := range c.Counterparties {
		addEntity(e, Counterparty)
	}
	d.index = understand.NewNameIndex(es)
	d.contracts = map[string]bool{}
	for _, e := range c.Contracts {
		if n := strings.TrimSpace(e.Number); len(n) >= 2 && strings.ContainsAny(n, "0123456789") {
			d.contracts[ru.FoldAligned(n)] = true
		}
	}
	for _, b := range c.BankAccounts {
		d.accounts[b.Number] = true
	}
	return d
}

// entityKey is a catalog name's kind (a counterparty named «ИП …» is a person), the key its
// placeholder is kept by, and its words as the catalog writes them.
func entityKey(k Kind, name string) (Kind, string, string) {
	if k == Counterparty && strings.HasPrefix(ru.Fold(name), "ип ") {
		k = Person
	}
	words := understand.NameWords(name)
	return k, string(k) + ":" + fold(words), words
}

// names are the catalogs' names in text.
func (d *Dictionary) names(text string) []hit {
	if d == nil {
		return nil
	}
	var out []hit
	for _, s := range d.index.Find(text) {
		n := d.entities[s.Entity]
		out = append(out, hit{start: s.Start, end: s.End, kind: n.kind, key: n.key, preferred: n.preferred})
	}
	return out
}

// numbers are the catalogs' contract numbers in text (their ИНН, КПП and accounts are read as
// numbers by detect).
func (d *Dictionary) numbers(text string) []hit {
	if d == nil || len(d.contracts) == 0 {
		return nil
	}
	var out []hit
	start := -1
	flush := func(end int) {
		for end > start && (text[end-1] == '.' || text[end-1] == '-' || text[end-1] == '/') {
			end-- // the full stop after a number
		}
		if end > start {
			if n := ru.FoldAligned(text[start:end]); d.contracts[n] {
				out = append(out, hit{start: start, end: end, kind: Contract, key: "contract:" + n})
			}
		}
		start = -1
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || start >= 0 && (r == '/' || r == '.' || r == '-') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			flush(i)
		}
	}
	if start >= 0 {
		flush(len(text))
	}
	return out
}

// fold is a name as its key: lower case, ё as е, Markdown escapes and quotes gone, spaces single.
func fold(s string) string { return ru.Fold(strings.ReplaceAll(s, `\`, "")) }
