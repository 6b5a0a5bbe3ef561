package runner

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/recipe"
)

// Resolution is the resolver block of the debug payload plus the candidates.
type Resolution struct {
	AnchorType  string `json:"anchor_type"` // "counterparty", "contract", "organization"
	Raw         string `json:"anchor_value_raw"`
	ResolvedRef string `json:"-"`
	Resolved    string `json:"anchor_value_resolved"` // the chosen entity's Name, "" when none
	// Confidence is the step's confidence when one entity was chosen (ref 1.0, inn 0.99,
	// exact 0.98, normalized 0.9, fuzzy 0.7), that divided by the number of candidates when
	// ambiguous, and 0 when nothing matched.
	Confidence float64 `json:"resolver_confidence"`
	// AmbiguityCount is the number of entities that fit when ambiguous (≥2; it may exceed
	// len(Candidates)), else 0.
	AmbiguityCount int    `json:"ambiguity_count"`
	Method         string `json:"resolver_method"` // "ref", "inn", "exact", "normalized", "fuzzy", "none"
	// Candidates are the entities to offer when ambiguous: sorted by name (contracts by
	// number and date), at most 8.
	Candidates []recipe.Entity `json:"-"`
}

// Found reports whether exactly one entity was chosen.
func (r Resolution) Found() bool { return r.ResolvedRef != "" }

// Ambiguous reports whether several entities fit equally well, so the user has to choose.
func (r Resolution) Ambiguous() bool { return r.AmbiguityCount >= 2 }

const (
	resolveMaxRunes      = 200 // longer anchors are not names: never matched
	resolveMaxCandidates = 8   // buttons the bot can reasonably offer
)

var resolveConfidence = map[string]float64{"ref": 1, "inn": 0.99, "exact": 0.98, "normalized": 0.9, "fuzzy": 0.7}

// ResolveCounterparty picks the counterparty that raw (a name, a Ref or an INN) or inn names.
// Steps, first that yields candidates wins: Ref, INN, exact name, normalised name (legal
// forms, quotes and Russian case endings ignored), fuzzy (word prefixes, one typo).
func ResolveCounterparty(raw, inn string, all []recipe.Entity) Resolution {
	return resolveParty("counterparty", raw, inn, all)
}

// ResolveOrganization picks one of our own organizations, by the same steps as
// ResolveCounterparty. Counterparties are a separate list, so a customer that shares our
// organization's name does not make this ambiguous.
func ResolveOrganization(raw string, all []recipe.Entity) Resolution {
	return resolveParty("organization", raw, "", all)
}

func resolveParty(kind, raw, inn string, all []recipe.Entity) Resolution {
	res := Resolution{AnchorType: kind, Raw: raw, Method: "none"}
	if utf8.RuneCountInString(raw) > resolveMaxRunes {
		return res
	}
	q := strings.TrimSpace(raw)
	live := resolveLive(all, func(recipe.Entity) bool { return true })
	byName := func(a, b recipe.Entity) int {
		return cmp.Or(strings.Compare(resParseName(a.Name).display, resParseName(b.Name).display),
			strings.Compare(a.Name, b.Name), strings.Compare(a.Ref, b.Ref))
	}
	if m := resolveRef(live, q); len(m) > 0 {
		return res.decide("ref", m, byName)
	}
	if inn = strings.TrimSpace(inn); inn == "" {
		inn = resINN(q)
	}
	if inn != "" {
		if m := resolveFilter(live, func(e recipe.Entity) bool { return e.INN == inn }); len(m) > 0 {
			return res.decide("inn", m, byName)
		}
	}
	if q == "" {
		return res
	}
	if m := resolveFilter(live, func(e recipe.Entity) bool {
		return strings.EqualFold(e.Name, q) || e.FullName != "" && strings.EqualFold(e.FullName, q)
	}); len(m) > 0 {
		return res.decide("exact", m, byName)
	}
	name := resParseName(q)
	if name.key == "" {
		return res
	}
	if m := resolveFilter(live, func(e recipe.Entity) bool {
		return name.equals(resParseName(e.Name)) || e.FullName != "" && name.equals(resParseName(e.FullName))
	}); len(m) > 0 {
		return res.decide("normalized", m, byName)
	}
	var fuzzy, strong []recipe.Entity
	for _, e := range live {
		if ok, near := name.fuzzyIn(resParseName(e.Name)); ok {
			fuzzy = append(fuzzy, e)
			if near {
				strong = append(strong, e)
			}
		}
	}
	if len(strong) == 1 { // «Альфо» is ООО «Альфа», not also ООО «Альфа Поставка»
		fuzzy = strong
	}
	if len(fuzzy) > 0 {
		return res.decide("fuzzy", fuzzy, byName)
	}
	return res
}

// ResolveContract picks the contract that raw names: a Ref, a number («П-77/2024»,
// «№ п 77/2024», «договор 77», optionally «от 06.02.2024»), or the contract's name. ownerRef ""
// searches every counterparty's contracts; otherwise only that counterparty's. A partial
// number matches whole tokens only: «77» and «П-77» match «П-77/2024», not «П-177/2024».
func ResolveContract(raw string, all []recipe.Entity, ownerRef string) Resolution {
	res := Resolution{AnchorType: "contract", Raw: raw, Method: "none"}
	q := strings.TrimSpace(raw)
	if q == "" || utf8.RuneCountInString(raw) > resolveMaxRunes {
		return res
	}
	live := resolveLive(all, func(e recipe.Entity) bool { return ownerRef == "" || e.OwnerRef == ownerRef })
	byNumber := func(a, b recipe.Entity) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.Number), strings.ToLower(b.Number)),
			strings.Compare(a.Date, b.Date), strings.Compare(a.Ref, b.Ref))
	}
	if m := resolveRef(live, q); len(m) > 0 {
		return res.decide("ref", m, byNumber)
	}
	if m := resolveFilter(live, func(e recipe.Entity) bool {
		return e.Number != "" && strings.EqualFold(e.Number, q) || strings.EqualFold(e.Name, q)
	}); len(m) > 0 {
		return res.decide("exact", m, byNumber)
	}
	num, date := resSplitDate(q)
	toks := resNumberTokens(num)
	hasDigit := slices.ContainsFunc(toks, func(t string) bool { return t[0] >= '0' && t[0] <= '9' })
	onDate := func(e recipe.Entity) bool { return date == "" || e.Date == date }
	name := resParseName(q)
	if m := resolveFilter(live, func(e recipe.Entity) bool {
		return hasDigit && onDate(e) && slices.Equal(toks, resNumberTokens(e.Number)) ||
			name.key != "" && name.equals(resParseName(e.Name))
	}); len(m) > 0 {
		return res.decide("normalized", m, byNumber)
	}
	if hasDigit {
		if m := resolveFilter(live, func(e recipe.Entity) bool {
			return onDate(e) && resContains(resNumberTokens(e.Number), toks)
		}); len(m) > 0 {
			return res.decide("fuzzy", m, byNumber)
		}
	}
	return res
}

// decide turns the entities one step matched into the resolution.
func (r Resolution) decide(method string, m []recipe.Entity, order func(a, b recipe.Entity) int) Resolution {
	conf := resolveConfidence[method]
	r.Method = method
	if len(m) == 1 {
		r.ResolvedRef, r.Resolved, r.Confidence = m[0].Ref, m[0].Name, conf
		return r
	}
	m = slices.Clone(m)
	slices.SortFunc(m, order)
	r.AmbiguityCount = len(m)
	r.Confidence = math.Round(conf/float64(len(m))*100) / 100
	r.Candidates = slices.Clip(m[:min(len(m), resolveMaxCandidates)])
	return r
}

// resolveLive keeps the entities that may be chosen: not deletion-marked, with a Ref, each
// Ref once (a catalog query that joins can repeat rows; that must not look ambiguous).
func resolveLive(all []recipe.Entity, keep func(recipe.Entity) bool) []recipe.Entity {
	seen := make(map[string]bool, len(all))
	out := make([]recipe.Entity, 0, len(all))
	for _, e := range all {
		if e.Deleted || e.Ref == "" || seen[e.Ref] || !keep(e) {
			continue
		}
		seen[e.Ref] = true
		out = append(out, e)
	}
	return out
}

func resolveFilter(es []recipe.Entity, match func(recipe.Entity) bool) []recipe.Entity {
	var out []recipe.Entity
	for _, e := range es {
		if match(e) {
			out = append(out, e)
		}
	}
	return out
}

func resolveRef(es []recipe.Entity, q string) []recipe.Entity {
	if q == "" {
		return nil
	}
	return resolveFilter(es, func(e recipe.Entity) bool { return strings.EqualFold(e.Ref, q) })
}

// resINN returns the INN that q consists of («7707083893», «ИНН 7707083893»), or "".
func resINN(q string) string {
	s := strings.TrimSpace(strings.ToLower(q))
	s = strings.TrimLeft(strings.TrimPrefix(s, "инн"), " :№#")
	if len(s) != 10 && len(s) != 12 {
		return ""
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return ""
		}
	}
	return s
}

// resName is a name normalised for comparison.
type resName struct {
	words   []string // lower case, ё→е, no quotes, legal forms or leading service words; «гранит-м» stays one word
	stems   []string // words with their case ending cut: «альфой» → «альф»
	key     string   // stems joined by spaces
	flat    string   // key with hyphenated words split, so that «Гранит М» equals «Гранит-М»
	display string   // words joined: the sort key of candidates
}

// equals reports normalised equality: both keys are compared, and «Гранит» equals neither
// form of «Гранит-М».
func (n resName) equals(m resName) bool {
	return n.key != "" && (n.key == m.key || n.flat == m.flat)
}

// fuzzyIn reports whether every word of n is a prefix of (or, for words of five letters or
// more, one edit away from) some word or hyphenated part of e; near means the words pair up
// one to one without prefixes, i.e. n is e with at most a typo per word.
func (n resName) fuzzyIn(e resName) (ok, near bool) {
	type word struct{ w, s string }
	var ews []word
	for i, w := range e.words {
		ews = append(ews, word{w, e.stems[i]})
		if strings.Contains(w, "-") {
			for p := range strings.SplitSeq(w, "-") {
				ews = append(ews, word{p, resStem(p)})
			}
		}
	}
	long := false
	for i, w := range n.words {
		s, short := n.stems[i], utf8.RuneCountInString(n.stems[i]) < 3
		long = long || !short
		if !slices.ContainsFunc(ews, func(ew word) bool {
			if short {
				return s == ew.s || w == ew.w
			}
			return strings.HasPrefix(ew.w, s) || resNear(w, s, ew.w, ew.s)
		}) {
			return false, false
		}
	}
	if !long {
		return false, false
	}
	if len(n.words) != len(e.words) {
		return true, false
	}
	used := make([]bool, len(e.words))
	for i, w := range n.words {
		j := -1
		for k, ew := range e.words {
			if !used[k] && (n.stems[i] == e.stems[k] || resNear(w, n.stems[i], ew, e.stems[k])) {
				j = k
				break
			}
		}
		if j < 0 {
			return true, false
		}
		used[j] = true
	}
	return true, true
}

// resNear reports a typo: words of five letters or more one edit away, as typed or as stems.
func resNear(w, s, ew, es string) bool {
	return utf8.RuneCountInString(w) >= 5 && (resWithin1(w, ew) || resWithin1(s, es))
}

var (
	resLegalForms = map[string]bool{"ооо": true, "ао": true, "пао": true, "зао": true, "оао": true,
		"нао": true, "ип": true, "llc": true, "ltd": true, "gmbh": true, "ooo": true}
	resLegalPhrases = [][]string{
		{"общество", "с", "ограниченной", "ответственностью"},
		{"публичное", "акционерное", "общество"},
		{"непубличное", "акционерное", "общество"},
		{"закрытое", "акционерное", "общество"},
		{"открытое", "акционерное", "общество"},
		{"акционерное", "общество"},
		{"индивидуальный", "предприниматель"},
	}
	// resServiceWords are what users put before a name («по контрагенту Альфа»): prepositions
	// and, by stem, what kind of party it is.
	resServiceWords = map[string]bool{"по": true, "у": true, "с": true, "со": true, "от": true,
		"для": true, "к": true, "ко": true, "о": true, "об": true, "про": true, "при": true,
		"на": true, "из": true, "контрагент": true, "организаци": true, "компани": true,
		"фирм": true, "поставщик": true, "покупател": true, "клиент": true}
	// resEndings are the Russian case endings cut from a word, longest first.
	resEndings = []string{
		"ами", "ями", "ого", "его", "ому", "ему", "ыми", "ими",
		"ой", "ей", "ом", "ем", "ам", "ям", "ах", "ях", "ую", "юю", "ая", "яя",
		"ый", "ий", "ые", "ие", "ых", "их", "ым", "им", "ою", "ею", "ью",
		"а", "я", "ы", "и", "е", "у", "ю", "ь",
	}
)

// resParseName normalises a name: lower case, ё→е, quotes and punctuation folded to spaces
// (hyphens inside a word kept), legal forms and leading service words dropped, each word
// stemmed.
func resParseName(s string) resName {
	words := strings.Fields(resFold(s))
	kept := words[:0]
	for i := 0; i < len(words); i++ {
		if resLegalForms[words[i]] {
			continue
		}
		if p := slices.IndexFunc(resLegalPhrases, func(p []string) bool {
			return len(words)-i >= len(p) && slices.Equal(words[i:i+len(p)], p)
		}); p >= 0 {
			i += len(resLegalPhrases[p]) - 1
			continue
		}
		kept = append(kept, words[i])
	}
	for len(kept) > 1 && (resServiceWords[kept[0]] || resServiceWords[resStem(kept[0])]) {
		kept = kept[1:]
	}
	n := resName{words: kept, stems: make([]string, len(kept))}
	var flat []string
	for i, w := range kept {
		n.stems[i] = resStem(w)
		for p := range strings.SplitSeq(w, "-") {
			flat = append(flat, resStem(p))
		}
	}
	n.key, n.flat, n.display = strings.Join(n.stems, " "), strings.Join(flat, " "), strings.Join(kept, " ")
	return n
}

// resFold lower-cases s, folds ё to е and every character but letters, digits and inner
// hyphens to a space. Combining marks are dropped, except that и + breve becomes й.
func resFold(s string) string {
	rs := []rune(strings.ToLower(s))
	alnum := func(i int) bool {
		return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]))
	}
	out := make([]rune, 0, len(rs))
	for i, r := range rs {
		switch {
		case r == 'ё':
			out = append(out, 'е')
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			out = append(out, r)
		case r == '\u0306' && len(out) > 0 && out[len(out)-1] == 'и':
			out[len(out)-1] = 'й'
		case unicode.Is(unicode.Mn, r):
		case strings.ContainsRune("-‐‑‒–", r) && alnum(i-1) && alnum(i+1):
			out = append(out, '-')
		default:
			out = append(out, ' ')
		}
	}
	return string(out)
}

// resStem cuts one case ending when at least three letters remain; of a hyphenated word only
// the last part is stemmed, so «Гранит-М» keeps its «М».
func resStem(w string) string {
	if i := strings.LastIndexByte(w, '-'); i >= 0 {
		return w[:i+1] + resStem(w[i+1:])
	}
	for _, end := range resEndings {
		if strings.HasSuffix(w, end) && utf8.RuneCountInString(w)-utf8.RuneCountInString(end) >= 3 {
			return strings.TrimSuffix(w, end)
		}
	}
	return w
}

// resWithin1 reports whether a and b are at most one insertion, deletion or substitution apart.
func resWithin1(a, b string) bool {
	x, y := []rune(a), []rune(b)
	if len(x) > len(y) {
		x, y = y, x
	}
	if len(y)-len(x) > 1 {
		return false
	}
	i := 0
	for i < len(x) && x[i] == y[i] {
		i++
	}
	if i == len(x) {
		return true
	}
	if len(x) == len(y) {
		return slices.Equal(x[i+1:], y[i+1:])
	}
	return slices.Equal(x[i:], y[i+1:])
}

// resDateRe finds a trailing contract date: «П-77/2024 от 06.02.2024», «… 06.02.24 г.».
var resDateRe = regexp.MustCompile(`(?i)^(.*?)[\s,]*(?:от\s*)?(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})\s*(?:г\.?|года)?$`)

// resSplitDate splits a trailing date off a contract anchor; date is YYYY-MM-DD or "".
func resSplitDate(q string) (rest, date string) {
	m := resDateRe.FindStringSubmatch(q)
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return q, ""
	}
	day, _ := strconv.Atoi(m[2])
	month, _ := strconv.Atoi(m[3])
	year, _ := strconv.Atoi(m[4])
	if len(m[4]) == 2 {
		year += 2000
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if t.Day() != day || int(t.Month()) != month { // 31.02 is not a date
		return q, ""
	}
	return m[1], t.Format(time.DateOnly)
}

// resNumberStop are letter tokens that are never part of a contract number («договор № 77 по …»).
var resNumberStop = map[string]bool{"по": true, "от": true, "с": true, "со": true, "на": true,
	"за": true, "для": true, "дог": true, "ном": true, "г": true}

// resNumberTokens splits a contract number into runs of letters and of digits: «П-77/2024»
// and «п 77 / 2024» both give [п 77 2024]. Words of four letters or more («договор»,
// «поставки») and the stop words are dropped, on both sides of a comparison.
func resNumberTokens(s string) []string {
	var toks []string
	var cur []rune
	kind := 0 // 1 letters, 2 digits
	flush := func() {
		t := string(cur)
		if len(cur) > 0 && (kind == 2 || len(cur) < 4 && !resNumberStop[t]) {
			toks = append(toks, t)
		}
		cur = cur[:0]
	}
	for _, r := range strings.ToLower(s) {
		k := 0
		switch {
		case r == 'ё':
			r, k = 'е', 1
		case unicode.IsLetter(r):
			k = 1
		case r >= '0' && r <= '9':
			k = 2
		}
		if k != kind {
			flush()
			kind = k
		}
		if k != 0 {
			cur = append(cur, r)
		}
	}
	flush()
	return toks
}

// resContains reports whether part occurs in toks as a contiguous run.
func resContains(toks, part []string) bool {
	for i := 0; i+len(part) <= len(toks); i++ {
		if slices.Equal(toks[i:i+len(part)], part) {
			return true
		}
	}
	return false
}
