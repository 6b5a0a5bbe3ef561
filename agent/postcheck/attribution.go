package postcheck

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/ru"
)

// Attribution: a figure is not checked against all the facts but against the source the answer
// attributes it to. Each sentence's figures, dates, names and links must be held by a source
// its footnote marks cite, or by the user's question; a sentence without a mark may only use
// what every source the answer cites agrees on (a list's items take the marks of the line that
// introduces them). A sentence that presents a figure as 1C's («по данным 1С») or the Bank of
// Russia's (a rate, the key rate, «ЦБ») must find it in a source of that origin. A document's
// title proves nothing: an uploaded file is named by whoever uploaded it. What every source may
// state — the counts of the payload, its limitations, facts that have no source — counts for
// every sentence.
//
// This is what stops a document that carries an injected instruction from lending its figures
// to the 1C or Bank of Russia parts of an answer: «По данным 1С задолженность 99,99 руб. [1]»
// fails when [1] is 1C and only the document holds 99,99.

// origin is where a source's facts come from.
type origin uint8

const (
	originOther  origin = iota
	originLedger        // 1C
	originBank          // the Bank of Russia: rates, the key rate, its news
	originDocs          // the user's uploaded documents
	originKB            // the company knowledge base
	originWeb           // web news
)

func (o origin) String() string {
	switch o {
	case originLedger:
		return "1С"
	case originBank:
		return "Банк России"
	case originDocs:
		return "документ пользователя"
	case originKB:
		return "база знаний"
	case originWeb:
		return "новости из интернета"
	}
	return "источник"
}

// itemOrigin is the origin of one fact, read from its kind and section.
func itemOrigin(it facts.Item) origin {
	switch {
	case strings.HasPrefix(it.Kind, "ledger"):
		return originLedger
	case it.Kind == "rate" || it.Kind == "key_rate":
		return originBank
	case it.Kind == "news" && it.Section == facts.External:
		return originWeb
	case it.Kind == "news":
		return originBank
	case it.Kind == "kb_article" || it.Section == facts.KnowledgeBase:
		return originKB
	case it.Kind == "passage" || it.Kind == "document" || it.Section == facts.UserDocuments:
		return originDocs
	}
	return originOther
}

// sourceFacts is what one source holds.
type sourceFacts struct {
	origin origin
	known  *known
	text   string // folded texts, for names
	raw    string // the texts as written, for links
	url    string // normalised
}

// attribution is the per-source view of the facts a Checker keeps.
type attribution struct {
	sources []sourceFacts // index 0 = source [1]
	common  *known        // what any sentence may state: counts, limitations, unsourced facts
	commonT string        // folded texts of the same, and the question, for names
	// commonRaw are the texts of facts without a source and the limitations, for links.
	commonRaw string
	qlinks    map[string]bool
}

func newAttribution(p facts.Payload, question string) *attribution {
	a := &attribution{sources: make([]sourceFacts, len(p.Sources)), common: emptyKnown(),
		qlinks: map[string]bool{}}
	texts := make([]strings.Builder, len(p.Sources))
	for i := range a.sources {
		a.sources[i].known = emptyKnown()
		if p.Sources[i].URL != "" {
			a.sources[i].url = normalizeLink(p.Sources[i].URL)
		}
		texts[i].WriteString(p.Sources[i].Title + "\n") // a title may name, never prove a figure
	}
	var common strings.Builder
	titles := make([][]string, len(p.Sources)) // the titles of each source's items
	for _, it := range p.Items {
		if it.Source < 1 || it.Source > len(p.Sources) {
			for _, s := range itemTexts(it, true) {
				a.common.add(s)
				common.WriteString(s + "\n")
			}
			continue
		}
		s := &a.sources[it.Source-1]
		if o := itemOrigin(it); s.origin == originOther {
			s.origin = o
		}
		for _, t := range itemTexts(it, false) {
			s.known.add(t)
			texts[it.Source-1].WriteString(t + "\n")
		}
		titles[it.Source-1] = append(titles[it.Source-1], it.Title)
		texts[it.Source-1].WriteString(it.Title + "\n")
	}
	for i := range a.sources {
		s := &a.sources[i]
		if strings.HasSuffix(hostOf(p.Sources[i].URL), "cbr.ru") {
			s.origin = originBank
		}
		// A document's title is whatever its uploader named the file: it may name the document
		// by its number, never lend it a figure or a date. The bot's own titles (1C's recipe and
		// accounts, the Bank's pages) are facts like any other.
		for _, t := range append(titles[i], p.Sources[i].Title) {
			for _, tok := range scan(unescape(t), false) {
				if s.origin != originDocs || tok.kind == tCode {
					s.known.addToken(tok)
				}
			}
		}
		s.raw = texts[i].String()
		s.text = ru.Fold(s.raw)
	}
	for _, l := range p.Limitations {
		a.common.add(l)
		common.WriteString(l + "\n")
	}
	a.commonRaw = common.String()
	a.common.addQuestion(question)
	a.common.addCounts(p)
	common.WriteString(question)
	a.commonT = ru.Fold(common.String())
	for _, l := range findLinks(question) {
		a.qlinks[l.norm] = true
	}
	return a
}

// hostOf is the host of an address, lower case.
func hostOf(u string) string {
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	host, _, _ := strings.Cut(u, "/")
	return strings.ToLower(host)
}

// itemTexts are the texts of an item that may hold figures; with titles when titles count.
func itemTexts(it facts.Item, titles bool) []string {
	out := []string{it.Text, it.Group}
	if titles {
		out = append(out, it.Title)
	}
	for _, f := range it.Fields {
		out = append(out, f.Name, f.Value)
	}
	return out
}

func emptyKnown() *known {
	return &known{values: map[string]bool{}, dates: map[string]bool{}, dayMonths: map[string]bool{},
		years: map[string]bool{}, times: map[string]bool{}, codes: map[string]bool{}, counts: map[string]bool{},
		periods: map[string]bool{}}
}

// claim cues: a sentence that names 1C or the Bank of Russia as what its figures are.
var (
	ledgerCue = regexp.MustCompile(`(?i)(?:по данным|согласно|судя по|данн\p{L}* из|в данных|из) 1[сc](?:[^\p{L}\p{N}]|$)|(?:^|[^\p{L}\p{N}])1[сc] показыва|по данным (?:бухгалтерского )?уч[её]та`)
	bankCue   = regexp.MustCompile(`(?i)банк\p{L}* росси|(?:^|[^\p{L}])цб(?:[^\p{L}]|$)|ключев\p{L}* ставк|официальн\p{L}* курс|курс\p{L}* (?:доллар|евро|юан|usd|eur|cny|валют|рубл)`)
)

// cited is one sentence of an answer with the sources it cites (0-based).
type cited struct {
	span
	text    string
	sources []int
	item    bool // a list item
}

// citedSentences splits text into sentences and gives each the footnote marks written in it,
// or right after its end («… ₽. [1]»). A mark of a source that does not exist counts as none.
func citedSentences(text string, nsrc int) []cited {
	var out []cited
	for _, s := range sentences(text) {
		c := cited{span: span{s.start, s.start + len(s.text)}, text: s.text}
		line := strings.TrimLeft(text[strings.LastIndexByte(text[:s.start], '\n')+1:s.start], " \t")
		c.item = line != "" && strings.ContainsAny(line[:1], "-•*+") || listNumRe.MatchString(line+" ")
		out = append(out, c)
	}
	for _, m := range footnotesRe.FindAllStringIndex(text, -1) {
		k := -1
		for i, c := range out {
			if c.start <= m[0] && m[0] < c.end+1 {
				k = i
				break
			}
			if c.end <= m[0] {
				k = i // the last sentence before a mark that stands alone
			}
		}
		if k < 0 {
			continue
		}
		for _, n := range marks(text[m[0]:m[1]]) {
			if n >= 1 && n <= nsrc && !slices.Contains(out[k].sources, n-1) {
				out[k].sources = append(out[k].sources, n-1)
			}
		}
	}
	return out
}

// footnotesRe finds footnote marks anywhere: «[1]», «[1, 2]», «[1–3]».
var footnotesRe = regexp.MustCompile(`\[\d{1,3}(?:[ \t]*[,;–—-][ \t]*\d{1,3})*\]`)

// markPartRe is a number or a dash of a footnote mark.
var markPartRe = regexp.MustCompile(`\d{1,3}|[–—-]`)

// marks are the source numbers of one footnote mark; a range «[1–3]» is its ends and between.
func marks(m string) []int {
	parts := markPartRe.FindAllString(m, -1)
	var out []int
	for i := 0; i < len(parts); i++ {
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			continue
		}
		if i+2 < len(parts) && parts[i+1] != "" && strings.ContainsAny(parts[i+1], "–—-") {
			if to, err := strconv.Atoi(parts[i+2]); err == nil && to >= n && to-n < 20 {
				for k := n; k <= to; k++ {
					out = append(out, k)
				}
				i += 2
				continue
			}
		}
		out = append(out, n)
	}
	return out
}

// attribute reports the figures, dates and names of text that the sources their sentences
// cite do not hold. skip are spans reported already (artifacts, the model's source list).
func (a *attribution) attribute(text string, skip []span) []Violation {
	sents := citedSentences(text, len(a.sources))
	var all []int // every source the answer cites
	for _, c := range sents {
		for _, n := range c.sources {
			if n >= 0 && n < len(a.sources) && !slices.Contains(all, n) {
				all = append(all, n)
			}
		}
	}
	if len(all) == 0 {
		for i := range a.sources {
			all = append(all, i)
		}
	}
	// The sources each sentence answers for: its own marks; a list item without marks takes
	// those of the line that introduced the list; any other sentence without marks, all.
	scopes := make([][]int, len(sents))
	var intro []int
	for i, c := range sents {
		switch {
		case len(c.sources) > 0:
			scopes[i] = c.sources
			if !c.item {
				intro = c.sources
			}
		case c.item && intro != nil:
			scopes[i] = intro
		default:
			scopes[i] = nil // every cited source must agree
			if !c.item {
				intro = nil
			}
		}
	}
	var vs []Violation
	toks := scan(text, true)
	for i, c := range sents {
		required := cue(c.text)
		for _, t := range toks {
			if t.start < c.start || t.start >= c.end || overlaps(t.span, skip) {
				continue
			}
			if why := a.figure(t, text, scopes[i], all, required); why != "" {
				vs = append(vs, Violation{Unattributed, t.detail() + ": " + why})
			}
		}
		for _, n := range names(c.text) {
			if why := a.name(n, scopes[i], all); why != "" {
				vs = append(vs, Violation{Unattributed, "название «" + n + "»: " + why})
			}
		}
	}
	return vs
}

// cue is the origin a sentence attributes its figures to, originOther for none.
func cue(s string) origin {
	switch {
	case ledgerCue.MatchString(s):
		return originLedger
	case bankCue.MatchString(s):
		return originBank
	}
	return originOther
}

// figure says why token t of a sentence citing scope (nil: none, so all of every) is not
// attributed, "" when it is.
func (a *attribution) figure(t token, text string, scope, all []int, required origin) string {
	if a.common.has(t, text) {
		return ""
	}
	// of: the source may stand behind a figure of the required origin (a source whose origin
	// is unknown may).
	of := func(n int) bool {
		o := a.sources[n].origin
		return required == originOther || o == required || o == originOther
	}
	holds := func(n int) bool { return of(n) && a.sources[n].known.has(t, text) }
	scoped := cover(scope, all)
	if required != originOther && !slices.ContainsFunc(scoped, of) {
		return "приписано источнику «" + required.String() + "», а ссылка ведёт на другой источник"
	}
	if t.kind == tNumber && isYear(t.norm) && yearInContext(text, t) {
		// A year («в 2025 году», «с октября 2024») names a period, not a figure: any source
		// may hold it. A bare «2026» may be a sum, and is held to its source like any figure.
		for n := range a.sources {
			if holds(n) {
				return ""
			}
		}
		return "нет ни в одном источнике"
	}
	if scope != nil || t.kind == tDayMonth {
		// A day and month («31 марта») may come from any source the answer cites.
		if slices.ContainsFunc(scoped, holds) {
			return ""
		}
		return "нет в источнике " + refs(scoped)
	}
	for _, n := range all {
		if of(n) && !holds(n) {
			return "нет в источнике [" + strconv.Itoa(n+1) + "], а предложение без ссылки может говорить только то, что есть во всех источниках"
		}
	}
	return ""
}

// cover is scope, or all when the sentence cites nothing.
func cover(scope, all []int) []int {
	if scope == nil {
		return all
	}
	return scope
}

func refs(scope []int) string {
	var b strings.Builder
	for i, n := range scope {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("[" + strconv.Itoa(n+1) + "]")
	}
	return b.String()
}

// orgName is an organisation written with its legal form, «ООО «Альфа»», and a name in
// guillemets that starts with a capital letter.
var (
	orgName    = regexp.MustCompile(`(?:ООО|АО|ПАО|ЗАО|ОАО|НАО|ИП|АНО|НКО|ФГУП|ГУП|МУП|LLC|Ltd)[ \x{a0}]*[«"“]([^»"”\n]{2,80})[»"”]`)
	quotedName = regexp.MustCompile(`«(\p{Lu}[^»\n]{1,80})»`)
)

// names are the proper names of a sentence: organisations with their legal form and names in
// guillemets — not a quoted question or phrase («Кто нам должен?»), which names nobody.
func names(s string) []string {
	var out []string
	for _, re := range []*regexp.Regexp{orgName, quotedName} {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			n := strings.TrimSpace(m[1])
			if re == quotedName && (strings.ContainsAny(n, "?!") || len(strings.Fields(n)) > 6) {
				continue
			}
			if n != "" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// name says why a name is not attributed, "" when a cited source, the common facts or the
// question holds it.
func (a *attribution) name(n string, scope, all []int) string {
	f := ru.Fold(n)
	if strings.Contains(a.commonT, f) {
		return ""
	}
	for _, k := range cover(scope, all) {
		if k >= 0 && k < len(a.sources) && strings.Contains(a.sources[k].text, f) {
			return ""
		}
	}
	if scope == nil && len(all) == 0 {
		return "в ответе без источников"
	}
	return "нет в источнике " + refs(cover(scope, all))
}

// yearInContext reports whether the number t reads as a year: a year word follows it («2025
// года», «2025 г.») or a month precedes it («октября 2024», «октябрь 2024»).
func yearInContext(text string, t token) bool {
	after := strings.TrimLeft(text[t.end:], " \u00a0")
	if strings.HasPrefix(after, "г") {
		return true
	}
	before := strings.TrimRight(text[:t.start], " \u00a0")
	word := strings.ToLower(before[strings.LastIndexFunc(before, func(r rune) bool { return !unicode.IsLetter(r) })+1:])
	for m := time.January; m <= time.December; m++ {
		if word == ru.MonthGenitive(m) || word == strings.ToLower(ru.MonthName(m)) || word == ru.MonthPrepositional(m) {
			return true
		}
	}
	return false
}
