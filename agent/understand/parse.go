package understand

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hbollon/go-edlib"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// Parser is the deterministic understanding step.
type Parser struct {
	Lexicon *Lexicon
}

// NewParser returns a parser over the default lexicon.
func NewParser() *Parser { return &Parser{Lexicon: DefaultLexicon} }

// ParseLazy understands a message, loading the catalogs only when names may matter: a first
// reading without them settles what needs no name (rates, the key rate, news, the knowledge
// base, small talk, documents, a request to change data); a question for 1C, or one the first
// reading is unsure of, is read again with the catalogs. So a question that is not for 1C sends
// 1C nothing. load returns nil when the catalogs cannot be had; names then stay unresolved.
func (p *Parser) ParseLazy(in Input, load func() *recipe.Catalogs) Decision {
	return p.Understand(in, nil, load)
}

// Understand is ParseLazy and, when the last answer left the state prev (nil for none),
// FollowUp: the message read as the continuation of that question. The message is tokenised
// and looked up in the lexicon once for all its readings; the catalogs are loaded when the
// message needs them (ParseLazy) or, failing that, when the question it may continue is one
// for 1C.
func (p *Parser) Understand(in Input, prev *State, load func() *recipe.Catalogs) Decision {
	r := p.read(in.Text)
	in.Catalogs = nil
	d := p.parse(p.scanOf(in, r))
	if NeedsCatalogs(d) {
		if in.Catalogs = load(); in.Catalogs != nil {
			d = p.parse(p.scanOf(in, r))
		}
	}
	if prev == nil || prev.Kind == "" {
		return d
	}
	if in.Catalogs == nil && prev.Kind == KindLedger {
		in.Catalogs = load() // the message alone needed no names; the 1C question it may continue does
	}
	if f, ok := p.followUp(p.scanOf(in, r), d, *prev); ok {
		// what the message itself says, whatever it continues: a «сверь» after an act is still a
		// check of the uploaded act (Decision.Reconcile), which the comparison claims
		f.Duty, f.Money, f.Asks, f.Reconcile = d.Duty, d.Money, d.Asks, d.Reconcile
		f.DocumentType = documentKind(f, in.Text)
		return f
	}
	return d
}

// NeedsCatalogs reports whether a decision made without the catalogs may change with them.
func NeedsCatalogs(d Decision) bool {
	switch d.Kind {
	case KindLedger, KindUnknownEntity, KindClarify:
		return true
	case KindDocs:
		// «акт сверки с альфой за 1 квартал» beside an uploaded act with another company: whose
		// act it asks for, the catalogs say
		return d.Rule == "docs_act"
	case KindKB:
		// «сколько нам должен вектор с ндс»: a rules topic with no company named — until the
		// catalogs say «вектор» is one
		return d.Rule == "kb_topic" || !d.Sure
	}
	return !d.Sure
}

// scan is what the parser found in one message.
type scan struct {
	in Input
	// spans are the tokens [start, end) that name a catalog entity: no unknown name is read there.
	spans [][2]int
	// dateText is a date phrase that named a contract («от 06.02.2024»).
	dateText string
	folded   string // the message folded (ru.Fold): its tokens' texts, one space apart
	toks     []Token
	found    []Hit // the lexicon's terms, before the catalogs drop any (reading.found)
	hits     []Hit
	has      map[Concept]int // concept → index of its first hit
	named    []string        // account codes written in the message, as written
	banks    []bankMention   // settlement accounts written in the message
}

// reading is a message tokenised and looked up in the lexicon: what all its readings share,
// whatever the catalogs. Its slices are never changed.
type reading struct {
	folded string
	toks   []Token
	found  []Hit // the lexicon's terms, before the catalogs drop any
}

func (p *Parser) read(text string) *reading {
	r := &reading{}
	r.folded, r.toks = tokenize(text)
	r.found = p.Lexicon.Find(r.toks)
	return r
}

// scan reads a message's words and the lexicon's terms in it.
func (p *Parser) scan(in Input) *scan { return p.scanOf(in, p.read(in.Text)) }

// scanOf is the scan of in over its reading r: a typo reading of a catalog name's word and a
// debt reading of an obligation («должен подписать») are dropped.
func (p *Parser) scanOf(in Input, r *reading) *scan {
	s := &scan{in: in, folded: r.folded, toks: r.toks, found: r.found, has: map[Concept]int{}}
	s.hits = dropObligations(dropNameTypos(slices.Clone(r.found), s.toks, in.Catalogs), s.toks)
	s.index()
	return s
}

// index records where each concept is first found among the hits.
func (s *scan) index() {
	clear(s.has)
	for i, h := range s.hits {
		if _, ok := s.has[h.Concept]; !ok {
			s.has[h.Concept] = i
		}
	}
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
func (p *Parser) Parse(in Input) Decision { return p.parse(p.scan(in)) }

func (p *Parser) parse(s *scan) Decision {
	var d Decision
	p.accounts(s, &d)
	s.findBankMentions()
	p.dates(s, &d)
	p.currencies(s, &d)
	p.entities(s, &d)
	p.bankAccount(s, &d)
	p.decide(s, &d)
	p.settleDates(&d)
	p.doubt(s, &d)
	d.Duty, d.Money = dutyQuestion(s.in.Text), s.speaksOfMoney()
	for _, c := range []Concept{CReceivables, CPayables, CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CNotClosed, CDocuments, CTurnoverSheet, CAccountCard} {
		_, has := s.has[c]
		d.Settles = d.Settles || has
	}
	d.Asks = asksOf(s.in.Text)
	d.Reconcile = reconcileCue.MatchString(" " + ru.Fold(s.in.Text) + " ")
	d.DocumentType = documentKind(d, s.in.Text)
	if taxAmount(s.in.Text) && !(d.Account.Set && d.Account.Source == FromText) && d.Kind != KindDocs {
		// «сколько ндс платить за квартал»: an amount of tax to pay, which no recipe computes —
		// never the card of 51 or an article on reporting periods in its place.
		d = Decision{Kind: KindClarify, Rule: "tax_amount", Sure: true, Date: d.Date, Period: d.Period, Asks: d.Asks,
			Reasons: []string{"сумма налога к уплате: её не считает ни один рецепт 1С"}}
	}
	if Future(s.in.Text) && (d.Kind == KindRate || d.Kind == KindKeyRate) && !strings.Contains(ru.Fold(s.in.Text), "завтра") && !d.Nominal.Set {
		// «какой будет курс доллара в январе»: the latest rate, said to be no forecast — never
		// a past January's. Tomorrow's rate is no forecast at all: the Bank of Russia sets it the
		// day before; «сколько будет 100 долларов в рублях» is a conversion.
		d.Forecast = true
		d.Date, d.Period = Slot[time.Time]{}, Slot[ru.Period]{}
	}
	return d
}

// Future reports whether a message is in the future tense or asks a forecast («будет»,
// «заплатит», «поступят», «прогноз»): what it asks has not happened yet.
func Future(text string) bool { return futureTense.MatchString(ru.Fold(text)) }

// futureTense: a verb of the future or a word of forecasting («будет», «заплатит», «поступят»,
// «прогноз») — what is asked has not happened yet.
var futureTense = regexp.MustCompile(`(^|[^\p{L}])(будет|будут|будем|заплатит|заплатят|заплатим|оплатит|оплатят|оплатим|поступит|поступят|придет|придут|` +
	`вернет|вернут|вернем|перечислит|перечислят|перечислим|получим|спишется|спишут|станет|прогноз\p{L}*|спрогнозир\p{L}*)([^\p{L}]|$)`)

// AsForecast is the question back to a 1C question in the future tense («какой будет остаток на
// 51 в январе», «сколько нам заплатит вектор»): 1C holds what was posted — a past January's
// balance, or today's, would be a confident answer to another question. The recipe, account
// and company stay, for the reply to offer what can be shown today.
func AsForecast(d Decision) Decision {
	return Decision{Kind: KindClarify, Rule: "forecast", Sure: true, Recipe: d.Recipe, Account: d.Account,
		Counterparty: d.Counterparty, Asks: d.Asks, Continues: d.Continues,
		Reasons: append(slices.Clone(d.Reasons), "прогноз: будущих операций нет в 1С, а прошлые — ответ на другой вопрос")}
}

var (
	taxNamed  = regexp.MustCompile(`(?i)(^|[^\p{L}])(ндс|ндфл|енп|усн|налог\p{L}*|взнос\p{L}*|акциз\p{L}*)([^\p{L}]|$)`)
	taxHowMuc = regexp.MustCompile(`(?i)(^|[^\p{L}])(сколько|какую\s+сумму|какая\s+сумма|сумм[ау]\s+(налога|ндс|ндфл|взносов))([^\p{L}]|$)`)
	taxToPay  = regexp.MustCompile(`(?i)(за|у|до|вы)?плат\p{L}*|к\s+уплате|начисл\p{L}*|перечисл\p{L}*`)
)

// taxAmount reports whether text asks how much tax to pay or is charged («сколько ндс платить
// за 1 квартал», «какую сумму налога на прибыль заплатим»).
func taxAmount(text string) bool {
	return taxNamed.MatchString(text) && taxHowMuc.MatchString(text) && taxToPay.MatchString(text)
}

// documentKinds are the kinds of 1C document a message may ask for alone: goods received
// («поступления товаров», «закупки»), goods sold («реализации», «отгрузки», «продажи»),
// reconciliation acts.
var documentKinds = []struct {
	re   *regexp.Regexp
	kind string
}{
	{regexp.MustCompile(`(?i)поступлени\p{L}*\s+(товар|услуг)|закупк|закупил|закупал|(^|\s)(купил|купили|покупали)|приход\p{L}*\s+товар|(^|\s)покупк`), "ПоступлениеТоваровУслуг"},
	{regexp.MustCompile(`(?i)реализаци|отгрузк|отгрузил|отгружал|продаж|(^|\s)продал`), "РеализацияТоваровУслуг"},
	{regexp.MustCompile(`(?i)акт\p{L}*\s+сверк`), "АктСверкиВзаиморасчетов"},
}

// documentKind is the one kind of document a question for a counterparty's or contract's
// documents asks for («поступления товаров от Ромашки»), or "" for all of them; a message
// naming two kinds asks for both, so for all.
func documentKind(d Decision, text string) string {
	if d.Kind != KindLedger || d.Recipe != recipe.DocumentsByParty && d.Recipe != recipe.DocumentsByContract {
		return ""
	}
	kind := ""
	for _, k := range documentKinds {
		if k.re.MatchString(text) {
			if kind != "" {
				return ""
			}
			kind = k.kind
		}
	}
	return kind
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
		prev, next := "", ""
		if i > 0 {
			prev = s.toks[i-1].Text
		}
		if i+1 < len(s.toks) {
			next = s.toks[i+1].Text
		}
		dotted := strings.Contains(t.Text, ".")
		// Right after an account word or a balance term: «сч 62.01», «сальдо 60».
		cue := s.coveredBy(i-1, CAccountWord, CBalance, CTurnoverSheet, CAccountCard) || s.coveredBy(i+1, CAccountWord)
		// After «по» or «на» that follow such a term («остаток по 51», «сальдо на 62»), or
		// in a question about debts or balances: only a code that cannot be a date.
		ledgerCtx := s.is(CBalance, CDebt, CReceivables, CPayables, COwesUs, CWeOwe, COpenItems, CForming, CAccountWord, CTurnoverSheet, CAccountCard) ||
			i == 0 || s.toks[0].Text == "сколько"
		switch {
		case !dotted && nextIsMonth(s.toks, i) || strings.HasPrefix(next, "процент") || strings.HasPrefix(next, "%"):
			continue // «31 декабря», «20 процентов»
		case !dotted && spanWord.MatchString(next):
			continue // «больше 90 дней», «за 60 суток»: a span of time, not account 90
		case dotted && couldBeDate(t.Text) && prev == "по" && s.coveredBy(i-2, CTurnoverSheet, CAccountCard, CBalance, CAccountWord) &&
			s.knownCode(t.Text) && s.periodBesides(t.Text):
			// «осв по 19.03 за 1 кв»: the period is «за 1 кв»; 19.03 after «осв по» is the sub-account
		case dotted && couldBeDate(t.Text) && (datePreps[prev] || !cue):
			continue // «на 1.05», «сальдо на 25.04»: a date
		case dotted && mistypedDate(t.Text):
			continue // «на 32.01»: no account starts with 3; the calendar says the date is wrong
		case cue:
		case dotted:
			// «62.01» cannot be a date.
		case prev == "с" || prev == "за" || prev == "до" || prev == "от" || prev == "к":
			continue // «с 10 по 20»: days
		case strings.HasPrefix(prev, "договор") || prev == "№":
			continue // «по договору 41»: a contract's number
		case ledgerCtx && s.knownCode(t.Text):
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

// spanWord is a unit of time after a number («90 дней», «3 месяца»).
var spanWord = regexp.MustCompile(`^(дн|день|сут|недел|месяц|мес$|лет$|год|час|раб)`)

// periodBesides reports whether the message names a period or a date without code: «за 1 кв»
// beside «по 19.03».
func (s *scan) periodBesides(code string) bool {
	_, ok, err := ru.ParsePeriod(maskCode(s.in.Text, code), s.in.Now)
	return ok && err == nil
}

// knownCode reports whether a bare number is an account of the chart (any two digits when the
// chart is not known).
func (s *scan) knownCode(code string) bool {
	if s.in.Catalogs == nil || len(s.in.Catalogs.Accounts) == 0 {
		return true
	}
	return knownAccount(code, s.in.Catalogs.Accounts)
}

// nextIsMonth reports whether the token after i names a month («62 на 1 марта» has 1, not 62,
// before one; «31 декабря» is a date).
func nextIsMonth(toks []Token, i int) bool {
	if i+1 >= len(toks) {
		return false
	}
	w := toks[i+1].Text
	if dayWord[w] {
		return false // «сальдо 60 вчера»: a day, not a month after a day number
	}
	return calendarWord(w) && !strings.HasPrefix(w, "числ") || w == "числа" || w == "число"
}

// dayWord are the days named relative to today.
var dayWord = map[string]bool{"вчера": true, "сегодня": true, "позавчера": true, "завтра": true, "сейчас": true}

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

// mistypedDate reports whether a code like «32.01» is a day and month with a day past 31: the
// chart has no accounts 30–39, so it is a mistyped date, not an account.
func mistypedDate(code string) bool {
	a, b, ok := strings.Cut(code, ".")
	day, err1 := strconv.Atoi(a)
	mon, err2 := strconv.Atoi(b)
	return ok && err1 == nil && err2 == nil && len(a) == 2 && day >= 32 && day <= 39 && mon >= 1 && mon <= 12
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
	if strings.Contains(text, "/") { // what bankAccountRe matches has one
		text = bankAccountRe.ReplaceAllStringFunc(text, func(m string) string { return strings.Repeat(" ", len(m)) })
	}
	for _, code := range s.named {
		text = maskCode(text, code)
	}
	per, ok, err := ru.ParsePeriod(text, s.in.Now)
	var de *ru.DateError
	switch {
	case errors.As(err, &de):
		d.DateError = fmt.Sprintf("«%s» — такой даты нет: %s.", de.Text, de.Reason)
		d.DateFuture = de.Future
	case err != nil:
		d.DateError = err.Error()
	case !ok:
	case per.Kind == ru.KindDay:
		d.Date = slot(per.From, FromText, per.Text)
		// «на 1 марта и на 1 апреля»: a second day after «и» or a comma
		if i := strings.Index(text, per.Text); i >= 0 {
			rest := text[i+len(per.Text):]
			if m := nextDate.FindStringIndex(rest); m != nil {
				// «/act Альфа 01.01.2026 31.03.2026»: two dates side by side are a period's bounds
				if p2, ok2, err2 := ru.ParsePeriod(rest, s.in.Now); err2 == nil && ok2 && p2.Kind == ru.KindDay &&
					strings.HasPrefix(strings.TrimSpace(rest), p2.Text) && p2.From.After(per.From) {
					d.Date = Slot[time.Time]{}
					d.Period = slot(ru.Period{From: per.From, To: p2.From, Kind: ru.KindRange, Text: per.Text + rest[:m[1]]}, FromText, per.Text+rest[:m[1]])
					return
				}
			}
			if m := secondDay.FindStringIndex(rest); m != nil && m[0] == 0 {
				if p2, ok2, err2 := ru.ParsePeriod(rest, s.in.Now); err2 == nil && ok2 && p2.Kind == ru.KindDay && !p2.From.Equal(per.From) {
					first, second := per.From, p2.From
					if second.Before(first) {
						d.Date = slot(second, FromText, p2.Text)
						second = first
					}
					d.Date2 = slot(second, FromText, p2.Text)
				}
			}
		}
	default:
		d.Period = slot(per, FromText, per.Text)
	}
}

// allOrganizations: every organization of ours at once («по обеим организациям», «по всем
// нашим юрлицам», «в целом по группе»).
var allOrganizations = regexp.MustCompile(`(?i)(?:по|для|в|на)\s+(?:обе(?:им|их)?|обо(?:им|их)|всем|всех|каждой)\s+(?:нашим\s+|наших\s+)?(?:организаци\p{L}*|юрлиц\p{L}*|юр\.?\s*лиц\p{L}*|компани\p{L}*|фирм\p{L}*)|(?:в\s+целом\s+)?по\s+группе(?:\s+компаний)?`)

// exceptBefore: what says the thing after it is left out («кроме договора», «за исключением
// договора №», «без договора»).
var exceptBefore = regexp.MustCompile(`(?i)(кроме|за\s+исключением|исключая|помимо|без)\s+(договор\p{L}*\s+)?(№\s*)?$`)

// excluded reports whether the contract written as raw is named to be left out.
func excluded(text, raw string) bool {
	i := strings.Index(text, raw)
	return raw != "" && i > 0 && exceptBefore.MatchString(text[:i])
}

// maxParties is how many companies one message may ask about at once.
const maxParties = 5

// ForOrganization is text asking about all our organizations («дебиторка по обеим
// организациям на 31.03») asked about one («дебиторка по организации ООО «Северный ветер» на
// 31.03»): what a button sends to ask one organization's answer whole. «организации» keeps our
// organization from being read as a counterparty of the same name.
func ForOrganization(text, name string) string {
	if m := allOrganizations.FindStringIndex(text); m != nil {
		return text[:m[0]] + "по организации " + name + text[m[1]:]
	}
	return strings.TrimSpace(text) + " по организации " + name
}

// nextDate is a numeric date right after another, a space apart: «01.01.2026 31.03.2026».
var nextDate = regexp.MustCompile(`^\s+\d{1,2}\.\d{1,2}(?:\.\d{2,4})?`)

// secondDay: what joins a second as-of date to the first («… и на 1 апреля», «, 1 апреля»).
var secondDay = regexp.MustCompile(`^\s*(?:,|и|а\s+также|vs|против)\s`)

// bankAccountRe is «р/с», «р/сч»: its «с» is no preposition of a date.
var bankAccountRe = regexp.MustCompile(`(?i)р\s*/\s*сч?`)

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

var (
	// explicitINN: digits the message calls an INN («инн 7701234567», «ИНН: 77012345»).
	explicitINN = regexp.MustCompile(`(?i)(?:^|[^\p{L}])инн\s*:?\s*(\d{5,15})(?:\D|$)`)
	// crossCue: one currency against another — «евро к доллару», «eur/usd», «кросс-курс».
	crossCue = regexp.MustCompile(`кросс|\p{L}\s*/\s*\p{L}|\s(к|против)\s+(доллар|евро|юан|фунт|франк|иен|тенге|рубл|usd|eur|cny|gbp|chf|jpy|kzt|\p{Lu}{3})`)
	// reconcileCue: a check of an act against our data — «сверь», «сверить», «сделай сверку»,
	// «сравни с 1С / с нашими данными»; not «акт сверки», which names the document.
	reconcileCue = regexp.MustCompile(` (свер(ь|ьте|ить|им|ите|яю|яем|ять|ка|ку|кой)|сравни(те)? (акт )?с (1с|нами|нашими|нашим|нашей|учетом|данными))( |$)`)
	// forecastCue: what a rate will be — a forecast, an expectation, a future move.
	forecastCue = regexp.MustCompile(`прогноз|ожида|вырастет|упад[её]т|снизят|повысят|поднимут|опустят|что\s+будет\s+с|куда\s+пойд|будет\s+(снижен|повышен|расти|падать|дороже|дешевле)`)
)

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
	d.Cross = len(found) == 2 && crossCue.MatchString(strings.ToLower(s.in.Text))
	d.Forecast = forecastCue.MatchString(strings.ToLower(s.in.Text))
	if len(found) == 0 && len(unknown) == 0 {
		// «сколько стоит» asks a price: a rate only of a currency («почём 100 тенге»), not of a
		// ticket or a laptop.
		s.hits = slices.DeleteFunc(s.hits, func(h Hit) bool { return h.Concept == CRate && h.Value == "price" })
		s.index()
	}
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

// entities resolves the counterparty, contract and organization against the catalogs. Our own
// organization is read first: its words are then no counterparty's («кредиторка северного
// ветра трейд» is a list for that organization, not the debt of a customer «Северный ветер»).
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
	inn, byINN := findINN(s.in.Text, c.Counterparties)
	if len(byINN) > 0 {
		d.Counterparty = slot(byINN[0], FromCatalog, inn)
	} else if inn != "" {
		if orgs := innOwners(inn, c.Organizations); len(orgs) > 0 {
			d.Organization = slot(orgs[0], FromCatalog, inn)
		} else {
			d.Unknown = "ИНН " + inn
		}
	} else if m := explicitINN.FindStringSubmatch(s.in.Text); m != nil {
		// «по инн 7701234567» with a number no INN can be (its check digits, its length): no
		// company has it, so the answer is «не нашёл», not a list of everyone.
		d.Unknown = "ИНН " + m[1]
	}
	if m := allOrganizations.FindStringIndex(s.folded); m != nil && len(c.Organizations) > 1 {
		// «по обеим организациям»: no company's name, and every one of ours
		for _, o := range c.Organizations {
			if !o.Deleted {
				d.Organizations = append(d.Organizations, o)
			}
		}
		from := strings.Count(s.folded[:m[0]], " ")
		to := from + len(strings.Fields(s.folded[m[0]:m[1]]))
		for i := from; i < to && i < len(skip); i++ {
			skip[i] = true
		}
		s.spans = append(s.spans, [2]int{from, min(to, len(s.toks))})
	}
	var orgSpan *nameMatch
	var orgFull []nameMatch
	for _, m := range matchNames(s.toks, c.Organizations, skip) {
		if m.full {
			orgFull = append(orgFull, m)
		}
	}
	if r := resolveParty(orgFull); r.match != nil && (s.is(COrg) || !partyNamed(c, r.match)) {
		d.Organization = slot(r.match.e, FromCatalog, s.span(r.match.start, r.match.end))
		orgSpan = r.match
		s.spans = append(s.spans, [2]int{r.match.start, r.match.end})
	} else if m, ok := s.orgByOwnWord(c, skip); ok {
		d.Organization = slot(m.e, FromCatalog, s.span(m.start, m.end))
		orgSpan = &m
		s.spans = append(s.spans, [2]int{m.start, m.end})
	}
	if s.asksStock() {
		// «сколько штук бумаги на складе»: the words are an item's, not a company's («Бумага и Ко»,
		// «Склад-Сервис»); a stock is no counterparty's, so none is looked for
		return
	}
	if !d.Counterparty.Set {
		var parties []nameMatch
		for _, m := range matchNames(s.toks, c.Counterparties, skip) {
			if orgSpan == nil || m.end <= orgSpan.start || orgSpan.end <= m.start {
				parties = append(parties, m)
			}
		}
		r := resolveParty(parties)
		for _, m := range parties {
			s.spans = append(s.spans, [2]int{m.start, m.end})
		}
		switch {
		case r.match != nil && s.unsureOfName() && len(overlapping(parties, r.match)) > 1:
			// «вектор какой-то, не помню какой»: the user says the name may be another's.
			d.Candidates = overlapping(parties, r.match)
		case r.match != nil:
			d.Counterparty = slot(r.match.e, FromCatalog, s.span(r.match.start, r.match.end))
			d.PartOfName = !r.match.full
		case len(r.candidates) > 1 && r.several && !strings.Contains(" "+s.folded+" ", " или ") && len(r.candidates) <= maxParties:
			// «сколько мы должны альфе поставке и промпоставке»: each of them
			d.Parties = r.candidates
		case len(r.candidates) > 1:
			d.Candidates = r.candidates
		}
	}
	owner := ""
	if d.Counterparty.Set {
		owner = d.Counterparty.Value.Ref
	}
	if e, raw, ok := findContract(s.in.Text, c.Contracts, owner); ok {
		d.Contract = slot(e, FromCatalog, raw)
	} else if e, raw, shared, ok := findContracts(s.in.Text, c.Contracts, ""); ok && owner == "" {
		d.Contract = slot(e, FromCatalog, raw)
	} else if len(shared) > 1 && owner == "" && len(d.Candidates) == 0 {
		// «долг по договору ДП-68/2024» when three counterparties have a contract of that
		// number: whose, the user says (the question back names them).
		for _, k := range shared {
			if i := slices.IndexFunc(c.Counterparties, func(p recipe.Entity) bool { return p.Ref == k.OwnerRef }); i >= 0 &&
				!slices.ContainsFunc(d.Candidates, func(p recipe.Entity) bool { return p.Ref == k.OwnerRef }) {
				d.Candidates = append(d.Candidates, c.Counterparties[i])
			}
		}
		d.SharedContract = shared[0].Number
	} else if raw, found := bareContract(s.in.Text, c.Contracts, owner); raw != "" && len(found) == 1 {
		d.Contract = slot(found[0], FromCatalog, raw) // «по договору 178»: 178/2024
	} else if raw != "" && len(found) > 1 && owner == "" && len(d.Candidates) == 0 {
		for _, k := range found {
			if i := slices.IndexFunc(c.Counterparties, func(p recipe.Entity) bool { return p.Ref == k.OwnerRef }); i >= 0 &&
				!slices.ContainsFunc(d.Candidates, func(p recipe.Entity) bool { return p.Ref == k.OwnerRef }) {
				d.Candidates = append(d.Candidates, c.Counterparties[i])
			}
		}
		d.SharedContract = raw
	} else if raw != "" && len(found) == 0 && !strings.Contains(d.Date.Text, raw) && !strings.Contains(d.Period.Text, raw) {
		// «задолженность по договору 999/2024»: no contract has the number — said, never
		// answered as if the message had not named it
		d.UnknownContract = raw
		d.ClosestContracts = closestContracts(raw, c.Contracts, owner, 5)
	} else if e, ok := s.contractByDate(d, c.Contracts, owner); ok {
		// «договор с Альфой от 06.02.2024»: the date names the contract, not the as-of day;
		// another date in the message («на 1.03») is read again without it.
		d.Contract = slot(e, FromCatalog, "договор "+d.Date.Text)
		d.Date = Slot[time.Time]{}
		s.in.Text = blank(s.in.Text, s.dateText)
		p.dates(s, d)
	}
	if d.Contract.Set && excluded(s.in.Text, d.Contract.Text) {
		// «долг альфы кроме договора П-77/2024»: the company's settlements less that contract's
		d.ExceptContract, d.Contract = d.Contract, Slot[recipe.Entity]{}
		if !d.Counterparty.Set {
			if i := slices.IndexFunc(c.Counterparties, func(p recipe.Entity) bool { return p.Ref == d.ExceptContract.Value.OwnerRef }); i >= 0 {
				d.Counterparty = slot(c.Counterparties[i], FromCatalog, d.ExceptContract.Text)
			}
		}
	}
	if !d.Counterparty.Set && len(d.Candidates) == 0 && d.Unknown == "" {
		if name := s.unknownName(); name != "" && !(d.Organization.Set && strings.Contains(ru.Fold(d.Organization.Value.Name), ru.Fold(name))) {
			// (…) — «по ООО «Северный ветер Трейд»» names our organization, not an unknown company
			if found := byLatin(name, c.Counterparties); len(found) == 1 {
				d.Counterparty = slot(found[0], FromCatalog, name) // «долг alfa»: ООО «Альфа»
			} else if len(found) > 1 {
				d.Candidates = found
			} else {
				d.Unknown = name
				d.Closest = closest(name, c.Counterparties, 3)
			}
		}
	}
}

// byLatin are the counterparties a name written in Latin letters stands for («alfa», «granit»):
// those whose name, its legal form and quotes aside, reads the same in Latin (ru.Translit) by
// its consonants (ru.Skeleton); a whole-name match beats one of the first word, and a name of two
// consonants matches only a whole name. None for a name with Cyrillic letters.
func byLatin(name string, es []recipe.Entity) []recipe.Entity {
	for _, r := range name {
		if unicode.IsLetter(r) && r > unicode.MaxASCII {
			return nil
		}
	}
	sounds := strings.NewReplacer("ph", "f", "ch", "ch", "sh", "sh", "x", "ks", "w", "v", "q", "k", "c", "k") // «vector» is «vektor»
	skeleton := func(latin string) string { return ru.Skeleton(sounds.Replace(strings.ToLower(latin))) }
	want := skeleton(name)
	if len([]rune(want)) < 2 {
		return nil
	}
	var whole, first []recipe.Entity
	for _, e := range es {
		if e.Deleted {
			continue
		}
		var words []string
		for _, w := range strings.FieldsFunc(strings.ToLower(e.Name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if !legalForms[w] {
				words = append(words, w)
			}
		}
		if len(words) == 0 {
			continue
		}
		switch {
		case skeleton(ru.Translit(strings.Join(words, " "))) == want:
			whole = append(whole, e)
		case skeleton(ru.Translit(words[0])) == want:
			first = append(first, e)
		}
	}
	if len(whole) > 0 || len([]rune(want)) < 3 {
		return whole // «alfa»: two consonants name only a whole name
	}
	return first
}

// dropObligations drops a debt reading of «должен», «должны» followed by a verb in the
// infinitive: «кто должен подписать акт сверки», «когда покупатель должен платить» ask who is
// obliged to do something, not who owes money.
func dropObligations(hits []Hit, toks []Token) []Hit {
	return slices.DeleteFunc(hits, func(h Hit) bool {
		if h.Concept != COwesUs && h.Concept != CWeOwe && h.Concept != CDebt {
			return false
		}
		last := toks[h.End-1].Text
		if !strings.HasPrefix(last, "долж") && !strings.HasPrefix(last, "обязан") || h.End >= len(toks) {
			return false
		}
		next := toks[h.End].Text
		return utf8.RuneCountInString(next) > 3 && (strings.HasSuffix(next, "ть") || strings.HasSuffix(next, "ти") ||
			strings.HasSuffix(next, "чь") || strings.HasSuffix(next, "ться") || strings.HasSuffix(next, "тись"))
	})
}

// dropNameTypos drops the lexicon's typo readings of a word that is a word of a catalog name:
// «трейд» of «Северный ветер Трейд» is no misspelt «тренд».
func dropNameTypos(hits []Hit, toks []Token, c *recipe.Catalogs) []Hit {
	if c == nil {
		return hits
	}
	var names map[string]bool
	return slices.DeleteFunc(hits, func(h Hit) bool {
		if h.End-h.Start != 1 || strings.Contains(ru.Fold(h.Phrase), toks[h.Start].Text) {
			return false
		}
		if names == nil {
			names = map[string]bool{}
			for _, es := range [][]recipe.Entity{c.Organizations, c.Counterparties} {
				for _, e := range es {
					for _, k := range keysOf(e) {
						for _, w := range k.words {
							names[w] = true
						}
					}
				}
			}
		}
		return names[toks[h.Start].Stem]
	})
}

// orgByOwnWord finds one of our organizations by the word of its name that no other of our
// organizations has — «трейд» of «Северный ветер Трейд» in «кредиторка ветер трейд», «сколько
// должна трейду» — where that word is no part of a counterparty's name in the message («Delta
// Trade»). The span takes in the other words of the name around it («ветер трейд»).
func (s *scan) orgByOwnWord(c *recipe.Catalogs, skip []bool) (nameMatch, bool) {
	if len(c.Organizations) < 2 {
		return nameMatch{}, false
	}
	taken := make([]bool, len(s.toks))
	for _, m := range matchNames(s.toks, c.Counterparties, skip) {
		for i := m.start; i < m.end && m.full; i++ {
			taken[i] = true // «дельта трейд» is Delta Trade; «трейд» alone is not
		}
	}
	var found []nameMatch
	for _, org := range c.Organizations {
		keys := keysOf(org)
		if len(keys) == 0 {
			continue
		}
		own := slices.Clone(keys[0].words)
		for _, other := range c.Organizations {
			if other.Ref == org.Ref {
				continue
			}
			if ok := keysOf(other); len(ok) > 0 {
				own = slices.DeleteFunc(own, func(w string) bool { return slices.Contains(ok[0].words, w) })
			}
		}
		if len(own) == 0 {
			continue
		}
		for i, t := range s.toks {
			if skip[i] || taken[i] || t.Stem != own[0] && !declined(t.Text, own[0]) {
				continue
			}
			start, end := i, i+1
			for start > 0 && !taken[start-1] && slices.Contains(keys[0].words, s.toks[start-1].Stem) {
				start--
			}
			for end < len(s.toks) && !taken[end] && slices.Contains(keys[0].words, s.toks[end].Stem) {
				end++
			}
			found = append(found, nameMatch{e: org, start: start, end: end})
			break
		}
	}
	if len(found) != 1 {
		return nameMatch{}, false
	}
	return found[0], true
}

// unsureOfName reports whether the message says the user is not sure which company it is:
// «какой-то», «не помню», «не уверен», «то ли», «вроде».
func (s *scan) unsureOfName() bool {
	for i, t := range s.toks {
		next := ""
		if i+1 < len(s.toks) {
			next = s.toks[i+1].Text
		}
		switch {
		case t.Text == "какой-то" || t.Text == "какая-то" || t.Text == "какое-то" || t.Text == "вроде":
			return true
		case (t.Text == "какой" || t.Text == "какая" || t.Text == "какое") && next == "то":
			return true
		case t.Text == "не" && (strings.HasPrefix(next, "помн") || strings.HasPrefix(next, "уверен") || next == "знаю"):
			return true
		case t.Text == "то" && next == "ли":
			return true
		}
	}
	return false
}

// overlapping are the entities matched over the same words as m, m's first: its namesakes.
func overlapping(ms []nameMatch, m *nameMatch) []recipe.Entity {
	out := []recipe.Entity{m.e}
	for _, o := range ms {
		if o.start < m.end && m.start < o.end && !o.e.Deleted && !slices.ContainsFunc(out, func(e recipe.Entity) bool { return e.Ref == o.e.Ref }) {
			out = append(out, o.e)
		}
	}
	return out
}

// partyNamed reports whether the organization's name is also a counterparty's and the message
// does not say it means our organization (one customer is named like our company).
func partyNamed(c *recipe.Catalogs, m *nameMatch) bool {
	for _, e := range c.Counterparties {
		if !e.Deleted && sameCore(e.Name, m.e.Name) {
			return true
		}
	}
	return false
}

func sameCore(a, b string) bool {
	ka, kb := keysOf(recipe.Entity{Name: a}), keysOf(recipe.Entity{Name: b})
	return len(ka) > 0 && len(kb) > 0 && slices.Equal(ka[0].words, kb[0].words)
}

func innOwners(inn string, es []recipe.Entity) []recipe.Entity {
	var out []recipe.Entity
	for _, e := range es {
		if e.INN == inn {
			out = append(out, e)
		}
	}
	return out
}

// contractByDate returns the one live contract dated as the message's date when that date is
// written as a contract's («договор … от 06.02.2024») — of the named counterparty when there is
// one.
func (s *scan) contractByDate(d *Decision, contracts []recipe.Entity, owner string) (recipe.Entity, bool) {
	if !s.hasStem("договор", "дог") || !d.Date.Set || !strings.HasPrefix(d.Date.Text, "от ") {
		return recipe.Entity{}, false
	}
	day := d.Date.Value.Format(time.DateOnly)
	var found []recipe.Entity
	for _, e := range contracts {
		if !e.Deleted && e.Date == day && (owner == "" || e.OwnerRef == owner) {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		return recipe.Entity{}, false
	}
	s.dateText = d.Date.Text
	return found[0], true
}

// hasStem reports whether a word of the message has one of the stems.
func (s *scan) hasStem(stems ...string) bool {
	for _, t := range s.toks {
		if slices.Contains(stems, t.Stem) {
			return true
		}
	}
	return false
}

// blank replaces the first occurrence of phrase in text with spaces.
func blank(text, phrase string) string {
	if i := strings.Index(text, phrase); i >= 0 {
		return text[:i] + strings.Repeat(" ", len(phrase)) + text[i+len(phrase):]
	}
	return text
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
	covered := s.covered()
	raw := strings.Fields(s.in.Text)
	for i := 0; i+1 < len(s.toks); i++ {
		if !nameCues[s.toks[i].Text] && !s.coveredBy(i, ledgerFigures...) && !s.coveredBy(i, CDocuments) {
			continue
		}
		j := i + 1
		if covered[j] || !isWordToken(s.toks[j].Text) || calendarWord(s.toks[j].Text) || pronoun[s.toks[j].Text] ||
			nameCues[s.toks[j].Text] && !legalForms[s.toks[j].Text] {
			continue // «долг перед итд»: the name follows «перед», it is not «перед итд»
		}
		legal := legalForms[s.toks[i].Text]
		cue := s.toks[i].Text
		afterDebt := s.coveredBy(i, CDebt, COwesUs, CWeOwe) ||
			(cue == "перед" || cue == "у" || cue == "от" || cue == "для") && s.is(ledgerFigures...) ||
			cue == "по" && s.coveredBy(i-1, ledgerFigures...) // «кредиторка по лукойлу»
		// a name after a debt's word: four letters at least, three after «перед» («долг перед итд»)
		least := 4
		if cue == "перед" {
			least = 3
		}
		if !legal && !capitalized(raw, s.toks[j].Text) && !(afterDebt && !notName[s.toks[j].Stem] && len([]rune(s.toks[j].Text)) >= least) {
			continue
		}
		end := j + 1
		for end < len(s.toks) && end < j+3 && (!covered[end] || s.toks[end].Text == "и") && !calendarWord(s.toks[end].Text) &&
			!pronoun[s.toks[end].Text] && !notName[s.toks[end].Stem] && (isWordToken(s.toks[end].Text) || s.toks[end].Text == "и") {
			end++
		}
		for end > j+1 && s.toks[end-1].Text == "и" {
			end-- // «рога и» is no name; «рога и копыта» is
		}
		return asWritten(raw, s.toks[j:end])
	}
	return ""
}

// asWritten is the words of toks as the message writes them («векторТранс», not the folded
// «вектортранс»): a name is said back to the user as they typed it.
func asWritten(raw []string, toks []Token) string {
	ws := make([]string, 0, len(toks))
	for _, t := range toks {
		w := t.Text
		for _, r := range raw {
			if r = strings.Trim(r, ".,!?:;«»\"'()"); ru.Fold(r) == t.Text {
				w = r
				break
			}
		}
		ws = append(ws, w)
	}
	return strings.Join(ws, " ")
}

var quotedRe = regexp.MustCompile(`[«"']([^«»"']{2,60})[»"']`)

func quoted(text string) string {
	if m := quotedRe.FindStringSubmatch(text); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

// notName are words that follow «должны», «перед» without being a name.
var notName = map[string]bool{"старш": true, "дольш": true, // «долги старше 90 дней»
	"всег": true, "вообщ": true, "сейчас": true, "итог": true, "примерн": true, "точн": true,
	"кажд": true, "бюджет": true, "налогов": true, "банк": true, "сотрудник": true, "работник": true, "персона": true,
	"заплат": true, "оплат": true, "верн": true, "получ": true, "перевест": true, "был": true, "будет": true, "ещ": true,
	"уж": true, "денег": true, "деньг": true, "рубл": true, "сумм": true, "покупател": true, "поставщик": true,
	"контрагент": true, "клиент": true, "заказчик": true, "подрядчик": true, "фнс": true, "нам": true, "мы": true,
	"больш": true, "компани": true, "компан": true, "фирм": true, "организац": true, "меньш": true, "сколько": true, "скольк": true, "больше": true, "меньше": true, "там": true, "тут": true, "теб": true,
	// «по прочим 76», «по шестьдесят второму»: words before an account, numerals.
	"проч": true, "всем": true, "остальн": true, "разн": true, "шестьдесят": true, "пятьдесят": true, "семьдесят": true,
	"восемьдесят": true, "девяност": true, "сорок": true, "перв": true, "втор": true, "трет": true, "счет": true, "счёт": true,
	// «свыше 3 млн», «более миллиона»: a threshold, not a name
	"свыш": true, "боле": true, "бол": true, "более": true, "выш": true, "миллион": true, "млн": true, "тыс": true, "тысяч": true, "млрд": true,
	// «первый платёж по графику», «по спецификации»: a document's part, not a company
	"график": true, "спецификац": true, "приложен": true}

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

// capitalized reports whether the message writes the folded word w, somewhere other than at
// its very beginning, with a capital letter — first or inside («векторТранс» typed in a hurry
// is a name as «ВекторТранс» is) — or in Latin.
func capitalized(raw []string, w string) bool {
	for i, r := range raw {
		r = strings.Trim(r, ".,!?:;«»\"'()")
		if i > 0 && ru.Fold(r) == w {
			first := []rune(r)[0]
			return strings.IndexFunc(r, unicode.IsUpper) >= 0 || unicode.Is(unicode.Latin, first)
		}
	}
	return false
}

// calendarRoots begin the words of the calendar; calendarWords are whole calendar words.
var (
	calendarRoots = []string{"январ", "феврал", "март", "апрел", "июн", "июл", "август", "сентябр", "октябр", "ноябр",
		"декабр", "квартал", "месяц", "недел", "сегодн", "вчер", "позавчер", "состояни", "числ", "полугод"}
	calendarWords = map[string]bool{"май": true, "мая": true, "мае": true, "год": true, "года": true, "году": true,
		"конец": true, "конца": true, "начало": true, "начала": true, "янв": true, "фев": true, "мар": true, "апр": true,
		"авг": true, "сен": true, "сент": true, "окт": true, "ноя": true, "нояб": true, "дек": true, "кв": true}
)

func calendarWord(w string) bool {
	if calendarWords[w] {
		return true
	}
	for _, r := range calendarRoots {
		if strings.HasPrefix(w, r) {
			return true
		}
	}
	return false
}

// closest returns up to n live counterparties whose names are nearest to name.
func closest(name string, es []recipe.Entity, n int) []recipe.Entity {
	q := stemAll(words(name))
	type scored struct {
		e recipe.Entity
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
			best = min(best, edlib.OSADamerauLevenshteinDistance(q[0], k.words[0]))
		}
		all = append(all, scored{e, best})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return a.d - b.d })
	var out []recipe.Entity
	for _, s := range all {
		if len(out) == n || s.d > 4 {
			break
		}
		out = append(out, s.e)
	}
	return out
}

// doubt marks a decision the parser cannot answer whole: a question that asks for two things
// at once («курс доллара и ключевая ставка»), or for a trend or comparison over the ledger that
// a single recipe only approximates («как менялись продажи Альфы по месяцам»). The decision
// still answers its first part when no planner may add (no LLM, or the LLM fails).
func (p *Parser) doubt(s *scan, d *Decision) {
	if d.Kind != KindRate && d.Kind != KindKeyRate && d.Kind != KindLedger && d.Kind != KindUnknownEntity {
		return // news about the key rate, a rule about debts: one topic
	}
	parts := 0
	for _, on := range []bool{
		d.Currencies.Set && s.is(CRate) || d.Kind == KindRate,
		s.hasValue(CKeyRate, "strong"),
		s.is(CNews),
		d.Kind == KindLedger,
	} {
		if on {
			parts++
		}
	}
	switch {
	case parts > 1:
		d.Sure, d.Rule = false, d.Rule+"+compound"
		d.Reasons = append(d.Reasons, "в вопросе несколько тем")
	case s.outsideNames(CAnalysis) && (d.Kind == KindLedger || d.Kind == KindUnknownEntity) && !s.reportWording(d) && d.Top == 0 && !d.Date2.Set:
		// («сравни дебиторку на 1 января и 1 марта» is two snapshots and their difference: no LLM needed)
		// («кому больше всего должны» ranks the list the recipe gives: no analysis)
		d.Sure, d.Analysis = false, true
		d.Reasons = append(d.Reasons, "нужен анализ, а не один отчёт")
	}
}

// outsideNames reports whether a hit of concept c lies outside the names of the catalogs: the
// «трейд» of «Северный ветер Трейд» is no misspelt «тренд».
func (s *scan) outsideNames(c Concept) bool {
	for _, h := range s.hits {
		if h.Concept == c && !slices.ContainsFunc(s.spans, func(sp [2]int) bool { return sp[0] <= h.Start && h.End <= sp[1] }) {
			return true
		}
	}
	return false
}

// settleDates puts the date where the decision needs it: an as-of date for balances, debts,
// rates and the key rate (the end of a named period), a period for documents and payments (a
// single day is a one-day period).
func (p *Parser) settleDates(d *Decision) {
	asOf := d.Kind == KindKeyRate || d.Kind == KindRate || d.Kind == KindLedger && asOfRecipe(d.Recipe)
	switch {
	case d.Recipe == recipe.ReconciliationAct:
		// an act is of a period; a date alone is its end («на 31.03»), which the lane takes
		// from the start of its quarter (decide made «за 31.03» a one-day period)
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
