package anon

// The detectors: where a text holds an identifier, and of which kind. Numbers are found by
// their patterns and checksums, names by the 1C catalogs (Dictionary) and by their legal form.

import (
	"crypto/sha256"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/golang-lru/v2"

	"github.com/finbot/finbot/agent/recipe"
)

// Kind is what an identifier is; it names its placeholders: «[КОНТРАГЕНТ_1]».
type Kind string

// The kinds of identifiers.
const (
	Counterparty Kind = "КОНТРАГЕНТ"  // a counterparty's name (the catalogs, or «ООО «…»» anywhere)
	Organization Kind = "ОРГАНИЗАЦИЯ" // one of our organizations
	Person       Kind = "ФИО"         // a person: an individual entrepreneur
	INN          Kind = "ИНН"         // 10 or 12 digits with valid check digits
	KPP          Kind = "КПП"         // 9 digits after «КПП» or an ИНН/, or a catalog's
	OGRN         Kind = "ОГРН"        // ОГРН (13) or ОГРНИП (15) with a valid check digit
	Account      Kind = "СЧЁТ"        // a bank account: 20 digits (the БИК's key checked when one is near)
	Number       Kind = "НОМЕР"       // 20 digits that fail the key check of the БИК beside them
	Card         Kind = "КАРТА"       // a card number: 16–19 digits passing Luhn
	Contract     Kind = "ДОГОВОР"     // a contract's number: after «договор … №», or a catalog's
)

// kinds are every kind, the longest first (the placeholder pattern tries them in order).
var kinds = []Kind{Organization, Counterparty, Contract, Account, Number, Person, Card, OGRN, INN, KPP}

// hit is one identifier found in a text: bytes [start, end), and what it is. key names it
// across texts: two hits of one key get one placeholder («Альфе» and «Альфа», «7707 0838 93»
// and «7707083893»).
type hit struct {
	start, end int
	kind       Kind
	key        string
	// preferred is the way of writing it that a restore should give back when the text used
	// it: the catalog's own form of a name.
	preferred string
}

// digitRun is a run of digits, maybe grouped by single spaces or hyphens in fours (a card).
var digitRun = regexp.MustCompile(`\d+`)

// cardRe is a card number grouped in fours: «4276 3800 1234 5678».
var cardRe = regexp.MustCompile(`(?:^|[^\d])(\d{4}(?:[ -]\d{4}){3}(?:[ -]?\d{1,3})?)(?:[^\d]|$)`)

// kppNear is «КПП» before a 9-digit number, or an ИНН and a slash: «ИНН/КПП 7707083893/770701001».
var kppNear = regexp.MustCompile(`(?:[Кк][Пп][Пп]\D{0,12}|\d{10}\s*/\s*)(\d{9})(?:\D|$)`)

// bikRe is a БИК: 9 digits starting with 04 (Russian banks).
var bikRe = regexp.MustCompile(`(?:^|\D)(04\d{7})(?:\D|$)`)

// contractRe is a contract's number where a text says it is one: «договор поставки №
// П-77/2024», «по договору № 178», «договора 15-А».
var contractRe = regexp.MustCompile(`[Дд][Оо][Гг][Оо][Вв][Оо][Рр]\p{L}*(?:\s+[\p{L}-]+){0,3}?\s*(?:№|N|#)\s*([\p{L}\d][\p{L}\d/.\-]*[\p{L}\d]|\d)`)

// legalName is a name in quotes after a legal form: «ООО «Василёк»», «АО "Север"».
var legalName = regexp.MustCompile(`(?:^|[^\p{L}])(?:ООО|АО|ПАО|ЗАО|ОАО|НКО|АНО|ТОО|ФГУП|МУП|ГУП)\s*[«"“„]([^«»"“”„\n]{1,80})[»"”“]`)

// soleTrader is an individual entrepreneur written out: «ИП Смирнов Алексей Петрович», «ИП
// Смирнов А. П.».
var soleTrader = regexp.MustCompile(`(?:^|[^\p{L}])ИП\s+([А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?(?:\s+[А-ЯЁ]\.\s?[А-ЯЁ]\.|\s+[А-ЯЁ][а-яё]+(?:\s+[А-ЯЁ][а-яё]+)?)?)`)

// detect finds the identifiers of text: the patterns first, the dictionaries' names and numbers
// after, overlaps settled for the earlier (a 20-digit account holds a 10-digit run that looks
// like an ИНН; a contract's number may hold a name's word).
func detect(text string, dicts []*Dictionary) []hit {
	var hs []hit
	add := func(h hit) {
		if !slices.ContainsFunc(hs, func(o hit) bool { return h.start < o.end && o.start < h.end }) {
			hs = append(hs, h)
		}
	}
	// Cards grouped in fours, then every bare run of digits by its length.
	var cards [][]int
	if groupedDigits(text) {
		cards = cardRe.FindAllStringSubmatchIndex(text, -1)
	}
	for _, m := range cards {
		d := digitsOf(text[m[2]:m[3]])
		if len(d) >= 16 && len(d) <= 19 && luhn(d) {
			add(hit{start: m[2], end: m[3], kind: Card, key: "card:" + d})
		}
	}
	for _, m := range digitRun.FindAllStringIndex(text, -1) {
		d := text[m[0]:m[1]]
		if h, ok := numberHit(text, m[0], m[1], d, dicts); ok {
			add(h)
		}
	}
	var kpps [][]int
	if strings.Contains(text, "КПП") || strings.Contains(text, "кпп") || strings.Contains(text, "/") {
		kpps = kppNear.FindAllStringSubmatchIndex(text, -1)
	}
	for _, m := range kpps {
		add(hit{start: m[2], end: m[3], kind: KPP, key: "kpp:" + text[m[2]:m[3]]})
	}
	var contracts [][]int
	if strings.Contains(text, "оговор") || strings.Contains(text, "ОГОВОР") {
		contracts = contractRe.FindAllStringSubmatchIndex(text, -1)
	}
	for _, m := range contracts {
		num := text[m[2]:m[3]]
		if strings.ContainsAny(num, "0123456789") {
			add(hit{start: m[2], end: m[3], kind: Contract, key: "contract:" + strings.ToLower(num)})
		}
	}
	for _, d := range dicts {
		for _, h := range d.numbers(text) {
			add(h)
		}
	}
	for _, d := range dicts {
		for _, h := range d.names(text) {
			add(h)
		}
	}
	var legal [][]int
	if strings.ContainsAny(text, "«\"“„") && strings.Contains(text, "О") {
		legal = legalName.FindAllStringSubmatchIndex(text, -1)
	}
	for _, m := range legal {
		name := strings.TrimSpace(text[m[2]:m[3]])
		if name == "" || strings.HasPrefix(name, "[") {
			continue
		}
		add(hit{start: m[2], end: m[3], kind: Counterparty, key: "name:" + fold(name)})
	}
	var traders [][]int
	if strings.Contains(text, "ИП") {
		traders = soleTrader.FindAllStringSubmatchIndex(text, -1)
	}
	for _, m := range traders {
		add(hit{start: m[2], end: m[3], kind: Person, key: "person:" + fold(text[m[2]:m[3]])})
	}
	slices.SortFunc(hs, func(a, b hit) int { return a.start - b.start })
	return hs
}

// groupedDigits reports whether text has four digits, a space or hyphen and a digit: what a
// card number grouped in fours needs (a cheap test before the pattern).
func groupedDigits(text string) bool {
	run := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			run++
		case (c == ' ' || c == '-') && run == 4 && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9':
			return true
		default:
			run = 0
		}
	}
	return false
}

// numberHit reads a bare run of digits [start, end) of text by its length and checksum.
func numberHit(text string, start, end int, d string, dicts []*Dictionary) (hit, bool) {
	h := hit{start: start, end: end}
	switch {
	case len(d) == 20:
		h.kind, h.key = Account, "account:"+d
		if biks := biksNear(text, start, end); len(biks) > 0 && !slices.ContainsFunc(biks, func(b string) bool { return accountKeyOK(b, d) }) &&
			!slices.ContainsFunc(dicts, func(x *Dictionary) bool { return x != nil && x.accounts[d] }) {
			h.kind, h.key = Number, "number:"+d
		}
	case len(d) >= 16 && len(d) <= 19 && luhn(d):
		h.kind, h.key = Card, "card:"+d
	case len(d) == 15 && ogrnOK(d), len(d) == 13 && ogrnOK(d):
		h.kind, h.key = OGRN, "ogrn:"+d
	case (len(d) == 10 || len(d) == 12) && recipe.ValidINN(d):
		h.kind, h.key = INN, "inn:"+d
	case len(d) == 9 && slices.ContainsFunc(dicts, func(x *Dictionary) bool { return x != nil && x.kpps[d] }):
		h.kind, h.key = KPP, "kpp:"+d
	default:
		return hit{}, false
	}
	return h, true
}

// biksNear are the БИКs within bikReach bytes of [start, end).
func biksNear(text string, start, end int) []string {
	lo, hi := max(0, start-bikReach), min(len(text), end+bikReach)
	var out []string
	for _, m := range bikRe.FindAllStringSubmatch(text[lo:hi], -1) {
		out = append(out, m[1])
	}
	return out
}

// bikReach is how near a БИК must be to an account for its key to be checked.
const bikReach = 200

// accountKeyOK reports whether a 20-digit account passes the control key of the bank bik: the
// Bank of Russia's weights 7, 1, 3 over the БИК's last three digits and the account (a
// settlement account), or over «0» and the БИК's fifth and sixth (a correspondent account).
func accountKeyOK(bik, acc string) bool {
	check := func(s string) bool {
		w := [3]int{7, 1, 3}
		sum := 0
		for i := range len(s) {
			sum += int(s[i]-'0') * w[i%3] % 10
		}
		return sum%10 == 0
	}
	return check(bik[6:9]+acc) || check("0"+bik[4:6]+acc)
}

// luhn reports whether the digits d pass the Luhn check of card numbers.
func luhn(d string) bool {
	sum := 0
	for i := range len(d) {
		n := int(d[len(d)-1-i] - '0')
		if i%2 == 1 {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
	}
	return sum%10 == 0
}

// ogrnOK reports whether d is an ОГРН (13 digits: the first 12 modulo 11, then modulo 10) or an
// ОГРНИП (15: the first 14 modulo 13, then modulo 10) with a valid check digit.
func ogrnOK(d string) bool {
	if d[0] == '0' {
		return false
	}
	body, err := strconv.ParseUint(d[:len(d)-1], 10, 64)
	if err != nil {
		return false
	}
	mod := uint64(11)
	if len(d) == 15 {
		mod = 13
	}
	return body%mod%10 == uint64(d[len(d)-1]-'0')
}

// digitsOf is s without what is not a digit.
func digitsOf(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// A long text is most often one sent again and again — the planner's instructions, the same in
// every request (25 KB: 4.7 ms to scan, 75 ms under the race detector). detectLong keeps what
// detect found in such a text under the text's SHA-256 and the dictionaries' fingerprints, so
// that a text is scanned once per set of catalogs; a short one (a question) is scanned each time.
const longText = 4 << 10

type detectKey struct {
	text  [sha256.Size]byte
	dicts string
}

var detected, _ = lru.New[detectKey, []hit](64)

// detectLong is detect, remembered for long texts.
func detectLong(text string, dicts []*Dictionary) []hit {
	if len(text) < longText {
		return detect(text, dicts)
	}
	var b strings.Builder
	for _, d := range dicts {
		if d == nil {
			continue
		}
		if d.sum == 0 {
			return detect(text, dicts) // a dictionary not built by DictionaryOf: nothing to key it by
		}
		b.WriteString(strconv.FormatUint(d.sum, 16) + ",")
	}
	key := detectKey{text: sha256.Sum256([]byte(text)), dicts: b.String()}
	if hs, ok := detected.Get(key); ok {
		return slices.Clone(hs)
	}
	hs := detect(text, dicts)
	detected.Add(key, slices.Clone(hs))
	return hs
}
