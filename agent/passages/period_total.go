package passages

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// What a contract's monthly payment adds up to over a period — «сколько за 2026 год платим
// постоянки», «базовой аренды за весь срок» — month by month: each month of the period within
// the contract's term is paid as the clause read then, in its first wording before the month a
// supplementary agreement's new wording applies from (Amendment.From) and in the new one from
// it on.

var (
	// indexed: a clause that raises the payment by an index from some day («индексируются с
	// 01 января 2027 г. на 5 процентов»).
	indexed = regexp.MustCompile(`(?i)индексац|индексир`)
)

// monthSpan is a run of months paid at one amount.
type monthSpan struct {
	from, to time.Time // first days of the first and the last month
	k        int64
	place    string
}

// periodTotalFor is the line (Markdown) that adds a contract's monthly payment over the month,
// quarter, half-year or year the question names, or over the contract's whole term («за весь
// срок»), month by month, and the units it is computed by — "" when the question asks no such
// amount, the best unit's contract states no monthly payment or no term of whole months, a new
// wording applies from no stated month, or an indexation by no stated percentage («на индекс
// потребительских цен») falls within the period: that figure is the landlord's to compute.
func periodTotalFor(q Question, hits []library.ClauseHit, rds []*readDoc, docs []docstore.Doc) (string, []library.ClauseHit) {
	lower := strings.ToLower(q.Text)
	// «абонентская плата за октябрь»: a month and the payment's clause first ask its amount too
	implicit := !asksHowMuch.MatchString(q.Text) && !together.MatchString(q.Text)
	if implicit && interrogative.MatchString(q.Text) || asksTermOf.MatchString(q.Text) ||
		askedPenalty.MatchString(lower) || asksInterest.MatchString(q.Text) || countsOther.MatchString(lower) || asksChange.MatchString(q.Text) {
		return "", nil
	}
	return periodTotalOf(q, hits, rds, docs, implicit)
}

// periodTotalOf is periodTotalFor once the question is known to ask the amount (implicit: by a
// month and the payment's clause alone, which must then be the best hit).
func periodTotalOf(q Question, hits []library.ClauseHit, rds []*readDoc, docs []docstore.Doc, implicit bool) (string, []library.ClauseHit) {
	if len(hits) == 0 {
		return "", nil
	}
	whole := asksWholeTerm.MatchString(q.Text)
	var asked ru.Period
	if !whole {
		p, ok := termMonth(q.Text, q.Now)
		if !ok || !slices.Contains([]string{ru.KindMonth, ru.KindQuarter, ru.KindHalf, ru.KindYear}, p.Kind) {
			return "", nil
		}
		asked = p
	}
	doc := contractOf(rds, hits[0].Doc)
	if doc < 0 || namesAnother(q.Text, rds, docs, doc) {
		return "", nil // «сколько уйдет на лизинг и клининг»: two contracts asked, one summed would be half
	}
	cds := clauseDocs(rds)
	t, ok := library.TermOf(cds[doc].Units)
	if !ok || t.Performance {
		return "", nil
	}
	var term ru.Period
	if t.Indefinite {
		// «заключён на неопределённый срок», «Оказание Услуг начинается с 01 февраля 2026 г.»:
		// from that day to the end of this year at most — a year to come may see it ended
		start, su, ok := startOf(cds[doc].Units)
		yearEnd := time.Date(q.Now.In(ru.Moscow).Year(), 12, 31, 0, 0, 0, 0, ru.Moscow)
		if !ok || whole || asked.To.After(yearEnd) {
			return "", nil
		}
		term = ru.Period{From: start, To: yearEnd, Kind: ru.KindRange}
		t.Unit = su
	} else {
		if t.End.IsZero() {
			return "", nil
		}
		p, ok, err := ru.ParsePeriod(t.Unit.Text, q.Now)
		if err != nil || !ok || p.Kind != ru.KindRange {
			return "", nil
		}
		term = p
	}
	if term.From.Day() != 1 || term.To.AddDate(0, 0, 1).Day() != 1 {
		return "", nil
	}
	from, to := term.From, term.To
	if !whole {
		if t.Renewal != nil && asked.To.After(term.To) {
			return "", nil // a contract that renews itself may run on: the months after its term are not known
		}
		from, to = later(from, asked.From), earlier(to, asked.To)
		if from.After(to) {
			// «сколько за март 2027» of a lease until February: nothing is paid under it then
			return md.Escape(fmt.Sprintf("Срок договора — с %s по %s (%s): %s в него не входит, платы за этот период договор не устанавливает.",
				term.From.Format("02.01.2006"), term.To.Format("02.01.2006"), unitPlace(t.Unit, docs[doc].Meta), periodName(asked))), []library.ClauseHit{{Doc: doc, Unit: t.Unit}}
		}
	}
	// The payment asked: the best unit's own monthly amount («тко за год»: the waste removal
	// fee), else the contract's monthly payment.
	u, amount, ok := library.Unit{}, "", false
	if hits[0].Doc == doc && !deposit.MatchString(hits[0].Unit.Text) {
		amount, ok = monthlyIn(hits[0].Unit)
		u = hits[0].Unit
	}
	if !ok {
		if u, amount, ok = monthlyOf(cds[doc]); !ok {
			return "", nil
		}
	}
	k, ok := kopecks(amount)
	if !ok || !nearTop(hits, doc, u) || implicit && (asked.Kind != ru.KindMonth || !nearTop(hits[:1], doc, u)) {
		return "", nil
	}
	place := unitPlace(u, docs[doc].Meta)
	used := []library.ClauseHit{{Doc: doc, Unit: u}, {Doc: doc, Unit: t.Unit}}
	// A new wording from its month on — or, when it states amounts by day («— с 01 ноября
	// 2026 г. — 128 100,00 …; — с 01 февраля 2027 г. — 151 280,00 …»), each from its own.
	steps := []payStep{{k: k, place: place}}
	if am, ai, ok := amendmentOf(rds, library.ClauseHit{Doc: doc, Unit: u}); ok && am.Text != "" {
		by := place + " в редакции «" + amendedBy(rds[ai], docs[ai]) + "»"
		if statesNet.MatchString(am.Text) != statesNet.MatchString(u.Text) {
			return "", nil // a new payment on another basis
		}
		if st := stepsIn(am.Text); len(st) > 0 {
			for _, s := range st {
				steps = append(steps, payStep{from: s.from, k: s.k, place: by})
			}
		} else {
			a, ok := monthlyIn(library.Unit{Text: am.Text})
			var nk int64
			if ok {
				nk, ok = kopecks(a)
			}
			if !ok || am.From.IsZero() {
				return "", nil // a new payment from no stated month
			}
			steps = append(steps, payStep{from: am.From, k: nk, place: by})
		}
		for _, s := range steps[1:] {
			if s.from.Day() != 1 {
				return "", nil // a new payment from the middle of a month: a part of a month at each
			}
		}
	}
	// An indexation by a stated percentage from its month on; by an index not stated, no sum.
	indexFrom, percent, indexPlace := time.Time{}, (*big.Rat)(nil), ""
	for _, o := range cds[doc].Units {
		text := currentText(rds, doc, o)
		if !indexed.MatchString(text) || !indexedWithin(text, from, to) {
			continue
		}
		m := indexedBy.FindStringSubmatch(text)
		if m == nil || !indexFrom.IsZero() {
			return "", nil
		}
		d, ok := library.FirstDate(m[1])
		r, ok2 := new(big.Rat).SetString(strings.Replace(m[2], ",", ".", 1))
		if !ok || !ok2 || d.Day() != 1 {
			return "", nil
		}
		indexFrom, percent, indexPlace = d, r, unitPlace(o, docs[doc].Meta)
		if _, _, amended := amendmentOf(rds, library.ClauseHit{Doc: doc, Unit: o}); amended {
			indexPlace += " в новой редакции"
		}
		used = append(used, library.ClauseHit{Doc: doc, Unit: o})
	}
	var spans []monthSpan
	for m := monthStart(from); !m.After(to); m = m.AddDate(0, 1, 0) {
		a, at := k, place
		for _, st := range steps[1:] {
			if !m.Before(monthStart(st.from)) {
				a, at = st.k, st.place
			}
		}
		if percent != nil && !m.Before(monthStart(indexFrom)) {
			grown := new(big.Rat).Mul(big.NewRat(a, 100), new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Quo(percent, big.NewRat(100, 1))))
			a = ru.Kopecks(grown)
			at += fmt.Sprintf(", с индексацией на %s %% с %s — %s", percentText(percent), indexFrom.Format("02.01.2006"), indexPlace)
		}
		if n := len(spans); n > 0 && spans[n-1].k == a && spans[n-1].place == at {
			spans[n-1].to = m
			continue
		}
		spans = append(spans, monthSpan{from: m, to: m, k: a, place: at})
	}
	esc := md.Escape
	var total int64
	for _, s := range spans {
		total += s.k * int64(monthsBetween(s.from, s.to)+1)
	}
	head := "За весь срок"
	if !whole {
		head = "За " + periodName(asked)
	}
	if what := paymentName(u.Text, amount); what != "" {
		head = what + " " + lowerFirst(head) // «Базовая арендная плата за 2026 год»
	}
	var b strings.Builder
	b.WriteString(esc(head+": ") + "**" + esc(ru.Money(total)) + "**")
	switch {
	case strings.Contains(strings.ToLower(head), "ндс"): // «Постоянная часть с учётом НДС»
	case statesNet.MatchString(u.Text):
		b.WriteString(esc(" без НДС"))
	case strings.Contains(strings.ToLower(u.Text), "ндс"):
		b.WriteString(esc(" с НДС"))
	}
	others := otherMonthly(rds, docs, doc, u, amount)
	if len(spans) == 1 && spans[0].from.Equal(spans[0].to) {
		b.WriteString(esc(fmt.Sprintf(" (%s).", spans[0].place)))
		if len(others) > 0 {
			// «сколько за январь платить»: what else the contract charges every month
			sum := total
			for _, o := range others {
				b.WriteString("\n" + esc(fmt.Sprintf("Кроме того, ежемесячно: %s — %s (%s).", lowerFirst(o.name), ru.Money(o.k), o.place)))
				sum += o.k
			}
			b.WriteString("\n" + esc("Вместе: ") + "**" + esc(ru.Money(sum)) + "**" + esc("."))
			for _, o := range others {
				used = append(used, library.ClauseHit{Doc: doc, Unit: o.unit})
			}
		}
		return b.String(), used
	}
	if t.Indefinite {
		b.WriteString(esc(fmt.Sprintf(" — с начала оказания %s (%s; договор бессрочный):", term.From.Format("02.01.2006"), unitPlace(t.Unit, docs[doc].Meta))))
	} else {
		b.WriteString(esc(fmt.Sprintf(" — по сроку с %s по %s (%s):", term.From.Format("02.01.2006"), term.To.Format("02.01.2006"), unitPlace(t.Unit, docs[doc].Meta))))
	}
	for _, s := range spans {
		n := monthsBetween(s.from, s.to) + 1
		b.WriteString("\n" + esc(fmt.Sprintf("- %s: %d × %s = %s (%s);", monthsName(s.from, s.to), n, ru.Money(s.k), ru.Money(s.k*int64(n)), s.place)))
	}
	return strings.TrimSuffix(b.String(), ";"), used
}

// monthlyFee is another fixed monthly payment of a contract than the one summed.
type monthlyFee struct {
	name, place string
	k           int64
	unit        library.Unit
}

// otherMonthly are the contract's other fixed monthly payments, as they read now, each named by
// its sentence («Плата за пользование машино-местами … а за два машино-места — 11 000,00 … в
// месяц»: the last monthly amount of the clause, what is paid for all the places): none that is
// a deposit, a limit, a rate per square metre or the summed payment itself (k), nor one its
// clause does not name.
func otherMonthly(rds []*readDoc, docs []docstore.Doc, doc int, u library.Unit, amount string) []monthlyFee {
	k, _ := kopecks(amount)
	own := strings.Fields(strings.ToLower(paymentName(u.Text, amount)))
	var out []monthlyFee
	for _, o := range rds[doc].cd.Units {
		if o.Index == u.Index || o.Kind != library.UnitClause {
			continue
		}
		text := currentText(rds, doc, o)
		if deposit.MatchString(text) {
			continue
		}
		var last []string
		for _, m := range perUnitPrice.FindAllStringSubmatch(text, -1) {
			if perUnitKind(m[3]) == "month" && strings.Contains(m[1], ",") && !strings.Contains(m[0], "кв.") {
				last = m
			}
		}
		if last == nil {
			continue
		}
		at := strings.Index(text, last[0])
		if sentence := text[strings.LastIndexAny(text[:at], ".;")+1 : at]; threshold.MatchString(sentence) || limitBefore.MatchString(sentence) {
			continue
		}
		fee, ok := kopecks(last[1])
		name := paymentName(text, text[at:at+len(last[1])])
		if !ok || fee == k || name == "" || statesNet.MatchString(text) != statesNet.MatchString(u.Text) {
			continue // the same payment, or one on another basis: no sum with it
		}
		if words := strings.Fields(strings.ToLower(name)); len(own) > 0 && words[0] == own[0] {
			continue // «Постоянная часть» beside «Постоянная часть с учётом НДС»: the same payment
		}
		out = append(out, monthlyFee{name: name, place: unitPlace(o, docs[doc].Meta), k: fee, unit: o})
	}
	return out
}

// lowerFirst is s with its first letter in lower case.
func lowerFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}

// upperFirst is s with its first letter in upper case («График лизинговых платежей»).
func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// countsOther: «сколько» asks a count of something else than money («сколько дней»).
var countsOther = regexp.MustCompile(`(сколько|скока|скоко)\s+(\p{L}+\s+)?(дн|дней|раз|месяц|мес\b|лет|год|час|процент|штук|шт\b|человек|мест)`)

// nearTop reports whether a unit of the section of the payment's unit u of document doc
// («4.1» and «4.2» of «4. ПЛАТЕЖИ»), or a new wording another document gives one, is among the
// best hits: the question is about that payment, not about another clause of the same contract
// («пени за просрочку аренды за ноябрь»).
func nearTop(hits []library.ClauseHit, doc int, u library.Unit) bool {
	section, _, _ := strings.Cut(u.Number, ".")
	if section == "" {
		return false
	}
	for _, h := range hits[:min(len(hits), nearTopHits)] {
		number := h.Unit.Number
		if h.Unit.Kind == library.UnitRow {
			number = h.Unit.Clause
		}
		if s, _, _ := strings.Cut(number, "."); h.Doc == doc && s == section || h.Doc != doc && strings.Contains(h.Unit.Text, "«"+section+".") {
			return true
		}
	}
	return false
}

// nearTopHits is how many of the best hits nearTop looks at.
const nearTopHits = 3

// paymentName is what the amount a unit states is the payment of, as the sentence stating it
// names it before its verb: «Базовая арендная плата» of «Базовая арендная плата устанавливается
// из расчёта … и составляет 245 190,00 …»; "" when the sentence opens otherwise («На сумму
// Постоянной части начисляется НДС …»).
func paymentName(text, amount string) string {
	at := strings.Index(text, amount)
	if at < 0 {
		return ""
	}
	start := 0
	if m := sentenceEnd.FindAllStringIndex(text[:at], -1); m != nil {
		last := m[len(m)-1]
		_, size := utf8.DecodeLastRuneInString(text[last[0]:last[1]])
		start = last[1] - size // the capital that opens the sentence
	}
	sentence := clauseNumber.ReplaceAllString(text[start:at], "")
	v := paymentVerb.FindStringIndex(sentence)
	if v == nil {
		return ""
	}
	name := strings.TrimSpace(sentence[:v[0]])
	words := strings.Fields(name)
	if len(words) == 0 || len(words) > 6 || strings.ContainsAny(name, "0123456789«»()") {
		return ""
	}
	if r := []rune(name); !unicode.IsUpper(r[0]) {
		return ""
	}
	return name
}

var (
	// paymentVerb: the verb that states a payment's amount.
	paymentVerb = regexp.MustCompile(`(?i)\s(составляет|составит|устанавливается|равна|определяется|рассчитывается|—)\s`)
	// clauseNumber: a clause's number opening its text («3.2. »).
	clauseNumber = regexp.MustCompile(`^\s*\d{1,2}(?:\.\d{1,3})*\.?\s+`)
)

// indexedBy: an indexation by a stated percentage from a day («индексируются с 01 января
// 2027 г. на 5 (пять) процентов»).
var indexedBy = regexp.MustCompile(`(?i)индекс\p{L}*[^.]{0,80}?с\s+((?:\d{1,2}\s+\p{L}+\s+\d{4}|\d{2}\.\d{2}\.\d{4}))\s*(?:г\.|года)?\s+на\s+(\d{1,2}(?:,\d{1,2})?)\s*(?:\([^()]{1,30}\)\s*)?(?:%|процент)`)

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// startsFrom: the first day a contract's performance starts («Оказание Услуг начинается с 01
// февраля 2026 г.», «Исполнитель приступает к оказанию Услуг с 01.02.2026»).
var startsFrom = regexp.MustCompile(`(?i)(?:начина\p{L}*|приступа\p{L}*[^.]{0,40}?)\s+с\s+((?:\d{1,2}\s+\p{L}+\s+\d{4}|\d{2}\.\d{2}\.\d{4}))`)

// startOf is the day a contract's performance starts and the unit that says so.
func startOf(us []library.Unit) (time.Time, library.Unit, bool) {
	for _, u := range us {
		if m := startsFrom.FindStringSubmatch(u.Text); m != nil {
			if d, ok := library.FirstDate(m[1]); ok {
				return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, ru.Moscow), u, true
			}
		}
	}
	return time.Time{}, library.Unit{}, false
}

// percentText is a percentage as a document writes it: «5», «2,5».
func percentText(r *big.Rat) string {
	return strings.Replace(strings.TrimRight(strings.TrimRight(r.FloatString(2), "0"), "."), ".", ",", 1)
}

// namesAnother reports whether a word of the question opens a word of the title of another
// contract than doc and none of doc's own (nor of its supplementary agreements' or its parties'
// names): «лизинг за
// декабрь» is no question about the cleaning contract the words «за декабрь» drew, nor «лизинг и
// клининг» one about either alone.
func namesAnother(q string, rds []*readDoc, docs []docstore.Doc, doc int) bool {
	titleWords := func(i int) []string {
		return strings.FieldsFunc(strings.ToLower(docs[i].Meta.Title+" "+rds[i].header.Title), func(c rune) bool { return !unicode.IsLetter(c) })
	}
	opens := func(ws []string, stem string) bool {
		return slices.ContainsFunc(ws, func(w string) bool { return strings.HasPrefix(w, stem) })
	}
	var own []string
	for i := range rds {
		if contractOf(rds, i) == doc {
			own = append(own, titleWords(i)...)
		}
	}
	for _, p := range rds[doc].parties {
		// «складлогистик»: the contract's party, though a price list of it has the name in its title
		own = append(own, strings.FieldsFunc(strings.ToLower(p.Name), func(c rune) bool { return !unicode.IsLetter(c) })...)
	}
	for _, word := range strings.FieldsFunc(strings.ToLower(q), func(c rune) bool { return !unicode.IsLetter(c) }) {
		r := []rune(word)
		if len(r) < 4 {
			continue
		}
		stem := string(r[:min(len(r), 5)])
		if opens(own, stem) || monthWord.MatchString(word) {
			continue // (a month names a period, though a title dates a form by it)
		}
		for i := range rds {
			if contractOf(rds, i) != doc && opens(titleWords(i), stem) {
				return true
			}
		}
	}
	return false
}

// monthWord: a month's name in some form («декабрь», «декабря», «мае»).
var monthWord = regexp.MustCompile(`^(январ|феврал|март|апрел|май|мая|мае|маю|июн|июл|август|сентябр|октябр|ноябр|декабр)`)

// payStep is a monthly payment from a day on (zero: from the contract's start).
type payStep struct {
	from  time.Time
	k     int64
	place string
}

// stepAt: an amount a wording sets from a day («— с 01 февраля 2027 г. (с учётом …) — 151 280,00»).
var stepAt = regexp.MustCompile(`(?i)с\s+((?:\d{1,2}\s+\p{L}+\s+\d{4}|\d{2}\.\d{2}\.\d{4}))\s*(?:г\.|года)?\s*(?:\([^()]{1,120}\)\s*)?[—–-]\s*(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})`)

// stepsIn are the amounts a wording sets from days of their own, in the order it states them;
// none when it states fewer than one so.
func stepsIn(text string) []payStep {
	var out []payStep
	for _, m := range stepAt.FindAllStringSubmatch(text, -1) {
		d, ok := library.FirstDate(m[1])
		k, ok2 := kopecks(m[2])
		if !ok || !ok2 {
			return nil
		}
		out = append(out, payStep{from: time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, ru.Moscow), k: k})
	}
	return out
}

// contractOf is the contract document doc amends when it is a supplementary agreement (by the
// contract's number), else doc; -1 when the contract it amends is not among the documents.
func contractOf(rds []*readDoc, doc int) int {
	if len(rds[doc].amends) == 0 {
		return doc
	}
	for i, rd := range rds {
		if i != doc && len(rd.amends) == 0 && library.SameNumber(rd.header.Number, rds[doc].amends[0].Contract) {
			return i
		}
	}
	return -1
}

// indexedWithin reports whether an indexation clause dates the index from a day after the
// period's first month and not after its end: each date written after the clause's word for it in its sentence
// («индексируются с 01 января 2027 г. на 5 процентов»); a yearly index that dates none is taken
// to fall within (no sum is safe), a clause that only mentions one («не индексируются») not.
func indexedWithin(text string, from, to time.Time) bool {
	at := indexed.FindStringIndex(text)
	if at == nil {
		return false
	}
	rest, found := text[at[0]:], false
	if end := sentenceEnd.FindStringIndex(rest); end != nil {
		rest = rest[:end[0]] // «… с 01 января 2027 г. на 5 %. Уведомление — не позднее 01 декабря 2026 г.»: the notice's day is no index
	}
	for {
		d, ok := library.FirstDate(rest)
		if !ok {
			return !found && yearly.MatchString(text) // «индексируется ежегодно»: some day of every year; «не индексируются»: none
		}
		found = true
		if d.After(monthStart(from)) && !d.After(to) {
			return true
		}
		i := dateAt.FindStringIndex(rest)
		if i == nil {
			return false
		}
		rest = rest[i[1]:]
	}
}

// yearly: a clause that repeats every year.
var yearly = regexp.MustCompile(`(?i)ежегодн|каждый\s+год|каждого\s+года`)

// sentenceEnd: a full stop and the capital that opens the next sentence.
var sentenceEnd = regexp.MustCompile(`\.\s+\p{Lu}`)

// dateAt finds a date as library.FirstDate reads one, to read on after it.
var dateAt = regexp.MustCompile(`(?i)\d{1,2}»?\s+(январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр)\p{L}*\s+\d{4}|\d{2}\.\d{2}\.\d{4}`)

func monthStart(d time.Time) time.Time {
	return time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, ru.Moscow)
}

// monthsName is «апрель–октябрь 2026» for a run of months, «ноябрь 2026» for one.
func monthsName(from, to time.Time) string {
	if from.Equal(to) {
		return ru.MonthName(from.Month()) + " " + fmt.Sprint(from.Year())
	}
	if from.Year() == to.Year() {
		return ru.MonthName(from.Month()) + "–" + ru.MonthName(to.Month()) + " " + fmt.Sprint(to.Year())
	}
	return ru.MonthName(from.Month()) + " " + fmt.Sprint(from.Year()) + " – " + ru.MonthName(to.Month()) + " " + fmt.Sprint(to.Year())
}

// periodName is «2026 год», «I квартал 2026», «1 полугодие 2026».
func periodName(p ru.Period) string {
	switch p.Kind {
	case ru.KindYear:
		return fmt.Sprintf("%d год", p.From.Year())
	case ru.KindMonth:
		return monthsName(p.From, p.From)
	case ru.KindQuarter:
		return fmt.Sprintf("%d квартал %d", (int(p.From.Month())-1)/3+1, p.From.Year())
	case ru.KindHalf:
		return fmt.Sprintf("%d полугодие %d", (int(p.From.Month())-1)/6+1, p.From.Year())
	}
	return ""
}
