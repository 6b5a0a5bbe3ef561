package understand

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/finbot/finbot/agent/address"
	"github.com/finbot/finbot/agent/ru"
)

// Parser is the deterministic understanding step.
type Parser struct {
	Lexicon *Lexicon
}

// NewParser returns a parser over the default lexicon.
func NewParser() *Parser { return &Parser{Lexicon: DefaultLexicon} }

// scan is what the parser found in one message.
type scan struct {
	in    Input
	toks  []Token
	hits  []Hit
	has   map[Concept]int // concept → index of its first hit
	named []string        // account codes written in the message, as written
}

func (s *scan) is(cs ...Concept) bool {
	for _, c := range cs {
		if _, ok := s.has[c]; ok {
			return true
		}
	}
	return false
}

// Parse understands one message.
func (p *Parser) Parse(in Input) Decision {
	s := &scan{in: in, toks: Tokenize(in.Text), has: map[Concept]int{}}
	s.hits = p.Lexicon.Find(s.toks)
	for i, h := range s.hits {
		if _, ok := s.has[h.Concept]; !ok {
			s.has[h.Concept] = i
		}
	}
	var d Decision
	p.accounts(s, &d)
	p.dates(s, &d)
	p.currencies(s, &d)
	p.entities(s, &d)
	p.decide(s, &d)
	p.settleDates(&d)
	return d
}

// accountRe is an account code: 2 digits, then up to two sub-levels («62», «62.01», «90.01.1»).
var accountRe = regexp.MustCompile(`^\d{2}(\.\d{1,2}(\.\d)?)?$`)

// datePreps are the words after which a number is a date, not an account.
var datePreps = map[string]bool{"на": true, "за": true, "с": true, "по": true, "к": true, "до": true, "от": true, "до.": true}

// accounts finds the account the message names: a code after an account word or a balance
// term («сч 62.01», «сальдо 60», «оборотка по 62»), a code that cannot be a date («62.01»),
// or a term that means one («авансы полученные» → 62.02). A code right after «на», «за», «с»,
// «по состоянию на» is a date, not an account.
func (p *Parser) accounts(s *scan, d *Decision) {
	for _, h := range s.hits {
		if h.Concept == CAccount && !d.Account.Set {
			d.Account = slot(h.Value, FromLexicon, h.Phrase)
		}
	}
	for i, t := range s.toks {
		if !accountRe.MatchString(t.Text) {
			continue
		}
		prev := ""
		if i > 0 {
			prev = s.toks[i-1].Text
		}
		cue := s.coveredBy(i-1, CAccountWord, CBalance) ||
			(prev == "по" || prev == "на" || prev == "к") && s.coveredBy(i-2, CAccountWord, CBalance)
		if datePreps[prev] && !cue {
			// «на 1.05», «за 01.03»: a date. «сальдо на 62»? no such date: an account below.
			if couldBeDate(t.Text) {
				continue
			}
		}
		switch {
		case cue, !couldBeDate(t.Text), len(t.Text) == 2 && s.is(CBalance, CDebt, CReceivables, CPayables, COpenItems, CForming) && !datePreps[prev]:
		default:
			continue
		}
		s.named = append(s.named, t.Text)
		if d.Account.Set && d.Account.Source == FromText {
			continue
		}
		code := t.Text
		if s.in.Catalogs != nil && len(s.in.Catalogs.Accounts) > 0 && !knownAccount(code, s.in.Catalogs.Accounts) {
			d.UnknownAccount = code
			continue
		}
		d.Account = slot(code, FromText, t.Text)
	}
}

// coveredBy reports whether token i belongs to a hit of one of cs.
func (s *scan) coveredBy(i int, cs ...Concept) bool {
	if i < 0 {
		return false
	}
	for _, h := range s.hits {
		if h.Start <= i && i < h.End && slices.Contains(cs, h.Concept) {
			return true
		}
	}
	return false
}

// couldBeDate reports whether a code like «10.01» could be a day and month.
func couldBeDate(code string) bool {
	a, b, ok := strings.Cut(code, ".")
	if !ok {
		return false
	}
	if strings.Contains(b, ".") {
		return false
	}
	day, _ := strconv.Atoi(a)
	mon, _ := strconv.Atoi(b)
	return day >= 1 && day <= 31 && mon >= 1 && mon <= 12
}

// knownAccount reports whether code is in the chart, or is a parent of an account in it.
func knownAccount(code string, chart []string) bool {
	for _, c := range chart {
		if c == code || strings.HasPrefix(c, code+".") {
			return true
		}
	}
	return false
}

// dates reads the date or period with the account codes masked out.
func (p *Parser) dates(s *scan, d *Decision) {
	text := s.in.Text
	for _, code := range s.named {
		text = maskCode(text, code)
	}
	per, ok, err := ru.ParsePeriod(text, s.in.Now)
	var de *ru.DateError
	switch {
	case errors.As(err, &de):
		d.DateError = de.Error()
	case err != nil:
		d.DateError = err.Error()
	case !ok:
	case per.Kind == ru.KindDay:
		d.Date = slot(per.From, FromText, per.Text)
	default:
		d.Period = slot(per, FromText, per.Text)
	}
}

// maskCode blanks the first occurrence of an account code that stands as a word.
func maskCode(text, code string) string {
	for off := 0; ; {
		i := strings.Index(text[off:], code)
		if i < 0 {
			return text
		}
		i += off
		end := i + len(code)
		before := i == 0 || !isCodeByte(text[i-1])
		after := end == len(text) || !isCodeByte(text[end])
		if before && after {
			return text[:i] + strings.Repeat(" ", len(code)) + text[end:]
		}
		off = end
	}
}

func isCodeByte(b byte) bool { return b >= '0' && b <= '9' || b == '.' }

// nominalRe is an amount of currency: «100 тенге», «100$», «1000 юаней».
var nominalRe = regexp.MustCompile(`(\d[\d ]{0,8})\s*([\p{L}$€£¥₸]+)`)

func (p *Parser) currencies(s *scan, d *Decision) {
	found, unknown := ru.FindCurrencies(s.in.Text)
	if len(found) > 0 {
		var codes []string
		for _, c := range found {
			codes = append(codes, c.Code)
		}
		d.Currencies = slot(codes, FromText, "")
	}
	d.UnknownCurrencies = unknown
	for _, m := range nominalRe.FindAllStringSubmatch(s.in.Text, -1) {
		if cs, _ := ru.FindCurrencies(m[2]); len(cs) == 1 {
			n, err := strconv.Atoi(strings.ReplaceAll(m[1], " ", ""))
			if err == nil && n > 1 && n <= 1_000_000 {
				d.Nominal = slot(n, FromText, strings.TrimSpace(m[0]))
			}
			break
		}
	}
}

// entities resolves the counterparty, contract and organization against the catalogs.
func (p *Parser) entities(s *scan, d *Decision) {
	c := s.in.Catalogs
	if c == nil {
		return
	}
	skip := make([]bool, len(s.toks))
	for _, h := range s.hits {
		for i := h.Start; i < h.End; i++ {
			skip[i] = true
		}
	}
	if inn, es := findINN(s.in.Text, c.Counterparties); len(es) > 0 {
		d.Counterparty = slot(es[0], FromCatalog, inn)
	} else if inn != "" {
		if orgs := innOwners(inn, c.Organizations); len(orgs) > 0 {
			d.Organization = slot(orgs[0], FromCatalog, inn)
		} else {
			d.Unknown = "ИНН " + inn
		}
	}
	if e, raw, ok := findContract(s.in.Text, c.Contracts); ok {
		d.Contract = slot(e, FromCatalog, raw)
	}
	orgs := matchNames(s.toks, c.Organizations, skip)
	orgSpan := map[[2]int]bool{}
	if len(orgs) > 0 {
		r := resolveParty(orgs)
		if r.match != nil && (s.is(COrg) || r.match.full && len(r.match.e.Name) > 0 && !partyNamed(s, c, r.match)) {
			d.Organization = slot(r.match.e, FromCatalog, s.span(r.match.start, r.match.end))
			orgSpan[[2]int{r.match.start, r.match.end}] = true
		}
	}
	if d.Counterparty.Set {
		return
	}
	var parties []nameMatch
	for _, m := range matchNames(s.toks, c.Counterparties, skip) {
		if !orgSpan[[2]int{m.start, m.end}] {
			parties = append(parties, m)
		}
	}
	r := resolveParty(parties)
	switch {
	case r.match != nil:
		d.Counterparty = slot(r.match.e, FromCatalog, s.span(r.match.start, r.match.end))
	case len(r.candidates) > 1:
		d.Candidates = r.candidates
	}
	if !d.Counterparty.Set && len(d.Candidates) == 0 && d.Unknown == "" {
		if name := s.unknownName(); name != "" {
			d.Unknown = name
			d.Closest = closest(name, c.Counterparties, 3)
		}
	}
}

// partyNamed reports whether the organization's name is also a counterparty's and the message
// does not say it means our organization (one customer is named like our company).
func partyNamed(s *scan, c *Catalogs, m *nameMatch) bool {
	for _, e := range c.Counterparties {
		if !e.Deleted && sameCore(e.Name, m.e.Name) {
			return true
		}
	}
	return false
}

func sameCore(a, b string) bool {
	ka, kb := keysOf(address.Entity{Name: a}), keysOf(address.Entity{Name: b})
	return len(ka) > 0 && len(kb) > 0 && slices.Equal(ka[0].words, kb[0].words)
}

func innOwners(inn string, es []address.Entity) []address.Entity {
	var out []address.Entity
	for _, e := range es {
		if e.INN == inn {
			out = append(out, e)
		}
	}
	return out
}

// span returns the folded words of tokens [i, j).
func (s *scan) span(i, j int) string {
	var ws []string
	for _, t := range s.toks[i:j] {
		ws = append(ws, t.Text)
	}
	return strings.Join(ws, " ")
}

// nameCues are the words after which a ledger question names its counterparty.
var nameCues = map[string]bool{"у": true, "по": true, "от": true, "с": true, "для": true, "перед": true, "ооо": true,
	"ип": true, "ао": true, "пао": true, "зао": true, "контрагент": true, "контрагента": true, "контрагенту": true}

// unknownName returns a name the message gives that is no catalog entry: quoted, after a legal
// form, or a capitalised word after a cue such as «у», «по», «от» that is neither a term of the
// lexicon nor a calendar word. "" when there is none.
func (s *scan) unknownName() string {
	if q := quoted(s.in.Text); q != "" {
		return q
	}
	covered := make([]bool, len(s.toks))
	for _, h := range s.hits {
		for i := h.Start; i < h.End; i++ {
			covered[i] = true
		}
	}
	raw := strings.Fields(s.in.Text)
	for i := 0; i+1 < len(s.toks); i++ {
		if !nameCues[s.toks[i].Text] && !s.coveredBy(i, ledgerFigures...) && !s.coveredBy(i, CDocuments) {
			continue
		}
		j := i + 1
		if covered[j] || !isWordToken(s.toks[j].Text) || calendarWord(s.toks[j].Text) || pronoun[s.toks[j].Text] {
			continue
		}
		legal := legalForms[s.toks[i].Text]
		if !legal && !capitalized(raw, s.toks[j].Text) {
			continue
		}
		end := j + 1
		for end < len(s.toks) && end < j+3 && !covered[end] && isWordToken(s.toks[end].Text) && !calendarWord(s.toks[end].Text) &&
			(capitalized(raw, s.toks[end].Text) || s.toks[end].Text == "и") {
			end++
		}
		return s.span(j, end)
	}
	return ""
}

var quotedRe = regexp.MustCompile(`[«"']([^«»"']{2,60})[»"']`)

func quoted(text string) string {
	if m := quotedRe.FindStringSubmatch(text); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

var pronoun = map[string]bool{"нам": true, "нас": true, "мы": true, "нами": true, "вас": true, "вам": true, "них": true,
	"кого": true, "кому": true, "ним": true, "нему": true, "ней": true, "всем": true, "всех": true, "каким": true, "какой": true,
	"какому": true, "какие": true, "этому": true, "этим": true, "всему": true, "сегодня": true, "состоянию": true}

func isWordToken(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) && r != '-' {
			return false
		}
	}
	return len([]rune(w)) >= 3
}

// capitalized reports whether the message writes the folded word w with a capital letter
// somewhere other than at its very beginning.
func capitalized(raw []string, w string) bool {
	for i, r := range raw {
		r = strings.Trim(r, ".,!?:;«»\"'()")
		if i > 0 && ru.Fold(r) == w {
			first := []rune(r)[0]
			return unicode.IsUpper(first) || unicode.Is(unicode.Latin, first)
		}
	}
	return false
}

var calendarWords = []string{"январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август", "сентябр", "октябр",
	"ноябр", "декабр", "квартал", "год", "месяц", "недел", "сегодн", "вчер", "конец", "конц", "начал", "состоян", "числ"}

func calendarWord(w string) bool {
	st := stem(w)
	for _, c := range calendarWords {
		if st == c || len(c) > 3 && strings.HasPrefix(st, c) {
			return true
		}
	}
	return false
}

// closest returns up to n live counterparties whose names are nearest to name.
func closest(name string, es []address.Entity, n int) []address.Entity {
	q := stemAll(words(name))
	type scored struct {
		e address.Entity
		d int
	}
	var all []scored
	for _, e := range es {
		if e.Deleted {
			continue
		}
		best := 1 << 30
		for _, k := range keysOf(e) {
			if len(k.words) == 0 || len(q) == 0 {
				continue
			}
			best = min(best, osa([]rune(q[0]), []rune(k.words[0])))
		}
		all = append(all, scored{e, best})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return a.d - b.d })
	var out []address.Entity
	for _, s := range all {
		if len(out) == n || s.d > 4 {
			break
		}
		out = append(out, s.e)
	}
	return out
}

// settleDates puts the date where the decision needs it: an as-of date for balances, debts,
// rates and the key rate (the end of a named period), a period for documents and payments (a
// single day is a one-day period).
func (p *Parser) settleDates(d *Decision) {
	asOf := d.Kind == KindKeyRate || d.Kind == KindRate ||
		d.Kind == KindLedger && !slices.Contains([]address.Intent{address.IntentDocumentsByParty,
			address.IntentBankOpsByParty, address.IntentDocumentsByContract}, d.Recipe)
	switch {
	case asOf && d.Period.Set && d.Kind == KindLedger:
		end := d.Period.Value.To
		d.Date = slot(end, d.Period.Source, d.Period.Text)
		d.Period = Slot[ru.Period]{}
	case !asOf && d.Kind == KindLedger && d.Date.Set:
		day := d.Date.Value
		d.Period = slot(ru.Period{From: day, To: day, Kind: ru.KindDay, Text: d.Date.Text}, d.Date.Source, d.Date.Text)
		d.Date = Slot[time.Time]{}
	}
}
