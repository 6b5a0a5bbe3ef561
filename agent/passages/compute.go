package passages

// Figures a clause implies, computed exactly (kopecks) and shown with their computation: the
// amount without VAT of a clause that states an amount «в том числе НДС».

import (
	"cmp"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var (
	// withoutVAT: the question asks for an amount without VAT.
	withoutVAT = regexp.MustCompile(`(?i)без\s+ндс`)
	// vatIncluded: «185 760,00 (…) рублей …, в том числе НДС 22 % — 33 497,70 рубля»; a dot
	// before a lower-case letter or a comma («руб., в т.ч.») ends no sentence.
	vatIncluded = regexp.MustCompile(`(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})(?:[^.;]|\.\s*[а-яё,]){0,160}?в\s+(?:том\s+числе|т\.\s?ч\.)\s+НДС(?:\s+\d{1,2}(?:,\d+)?\s?%)?\s*[—–-]?\s*(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})`)
)

// netOfVAT is the line (Markdown) that computes the amount without VAT from the first unit of hits that
// states an amount with the VAT it includes, when q asks for one (or continues a question that
// did); "" otherwise.
func netOfVAT(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string) string {
	if !withoutVAT.MatchString(q.Text) || asksWhich.MatchString(q.Text) {
		return ""
	}
	for _, h := range hits {
		m := vatIncluded.FindStringSubmatch(h.Unit.Text)
		if m == nil {
			continue
		}
		gross, ok1 := kopecks(m[1])
		vat, ok2 := kopecks(m[2])
		if !ok1 || !ok2 || vat > gross {
			continue
		}
		return fmt.Sprintf("Без НДС: %s − %s = **%s** (расчёт по %s)\\.", md.Escape(ru.Money(gross)), md.Escape(ru.Money(vat)),
			md.Escape(ru.Money(gross-vat)), md.Escape(place(h)))
	}
	// no clause states its VAT's amount: the best one that states a sum with VAT included at a
	// rate (never a rate per square metre when the monthly payment states its VAT, above)
	for _, h := range hits {
		if line := netOfRate(h, place); line != "" {
			return line
		}
	}
	return ""
}

// vatRateIncluded: «36 600,00 рублей, в том числе НДС 22 %» — the rate, not the tax's amount.
var vatRateIncluded = regexp.MustCompile(`(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})(?:[^.;]|\.\s*[а-яё,]){0,160}?в\s+(?:том\s+числе|т\.\s?ч\.)\s+НДС\s+(\d{1,2})\s?%`)

// netOfRate is the line that computes the amount without VAT from a unit that states a sum with
// VAT included at a rate, not the tax itself: 36 600,00 × 100 / 122 = 30 000,00, rounded to the
// kopeck as an invoice rounds it; "" when the unit states none.
func netOfRate(h library.ClauseHit, place func(library.ClauseHit) string) string {
	m := vatRateIncluded.FindStringSubmatch(h.Unit.Text)
	if m == nil {
		return ""
	}
	gross, ok := kopecks(m[1])
	rate, err := strconv.Atoi(m[2])
	if !ok || err != nil || rate <= 0 {
		return ""
	}
	net := ru.Kopecks(new(big.Rat).SetFrac64(gross, int64(100+rate))) // kopecks × 100 / (100 + rate), in roubles
	return fmt.Sprintf("Без НДС: %s × 100 / %d = **%s**, НДС %d %% — %s (расчёт по %s)\\.", md.Escape(ru.Money(gross)), 100+rate,
		md.Escape(ru.Money(net)), rate, md.Escape(ru.Money(gross-net)), md.Escape(place(h)))
}

// asksWhich: the question asks which items («какие позиции в прайсе без ндс»), not an amount.
var asksWhich = regexp.MustCompile(`(?i)(^|[^\p{L}])(какие|каких|какой\s+товар|на\s+что|что\s+(в|из)|перечисл\p{L}*|список)([^\p{L}]|$)`)

// kopecks reads «185 760,00» exactly.
func kopecks(s string) (int64, bool) {
	s = strings.NewReplacer(" ", "", "\u00a0", "", ",", "").Replace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

var (
	// askedPenalty: the question asks how much a penalty comes to («сколько пени», «пени в
	// рублях», «какая сумма неустойки»).
	askedPenalty = regexp.MustCompile(`(?i)(пен[иья]|неустойк\p{L}*|штраф\p{L}*)`)
	// askedBase: the amount the question names («4 млн», «500 тыс», «185 760,00 руб.», «1200000»).
	askedBase = regexp.MustCompile(`(?i)(\d+(?:[ \x{00a0}\x{202f}]\d{3})*(?:[.,]\d{1,2})?)\s*(млн|миллион\p{L}*|тыс\p{L}*|т\.\s?р\.?|руб\p{L}*|р\.|₽)?`)
	// askedDays: the days of delay the question names («на 10 дней», «15 календарных дней»).
	askedDays = regexp.MustCompile(`(?i)(\d{1,4})\s*((?:календарн|рабоч)\p{L}*\s+)?(?:дн(?:я|ей|и)?\.?|день)(\s|$|\?|,)`)
	// dailyRate: «пени в размере 0,03 % от просроченной суммы за каждый день просрочки».
	dailyRate = regexp.MustCompile(`(\d+(?:,\d+)?)\s*(?:\([^()]{1,60}\)\s*)?(?:%|процент\p{L}*)[^.;]{0,160}?за\s+каждый\s+(?:календарный\s+)?день`)
	// paymentBase: a penalty counted from a payment due («от суммы задолженности», «от
	// неоплаченной суммы», «от ежемесячной арендной платы»), not from goods undelivered.
	paymentBase = regexp.MustCompile(`(?i)от\s+(суммы\s+задолженност|неоплаченн|невыплаченн|просроченн\p{L}*\s+(?:суммы|задолженност|платеж|оплат)|суммы\s+ежемесячн|ежемесячн|суммы\s+(?:арендн|абонентск))`)
	// rateCap: «но не более 5 % от …».
	rateCap = regexp.MustCompile(`не\s+более\s+(\d+(?:,\d+)?)\s*(?:\([^()]{1,40}\)\s*)?(?:%|процент)`)
)

// penaltyFor is the line (Markdown) that computes a penalty for the amount and the days of
// delay the question names, at the daily rate of the first unit of hits that states one, with
// the unit's cap; "" when the question names no amount and days, or no unit states a rate.
//
// A question that names no amount («просрочили аренду на 4 дня») counts from the document's
// monthly payment (monthly; nil: none), when the penalty clause counts from a payment due.
//
// The monthly payment is the base only when the penalty clause is about it: the two share a
// word of their own («внесения арендной платы» — «арендная плата составляет»); a licence fee's
// penalty is not counted from the support's monthly fee.
func penaltyFor(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string, monthly func(doc int) (int64, string, string, bool)) (string, library.ClauseHit) {
	text := strings.ToLower(q.Text)
	if !askedPenalty.MatchString(text) {
		return "", library.ClauseHit{}
	}
	dm := askedDays.FindStringSubmatchIndex(text)
	if dm == nil {
		return "", library.ClauseHit{}
	}
	if weDelayPaying.MatchString(text) {
		// «пени если просрочим абонентку»: the penalty the payer pays for paying late, not the
		// contractor's fine for its own delays, whichever scores higher
		hits = slices.Clone(hits)
		slices.SortStableFunc(hits, func(a, b library.ClauseHit) int {
			return cmp.Compare(b2i(paymentBase.MatchString(b.Unit.Text)), b2i(paymentBase.MatchString(a.Unit.Text)))
		})
	}
	days, _ := strconv.Atoi(text[dm[2]:dm[3]])
	base := askedAmount(text, dm[0])
	if days <= 0 {
		return "", library.ClauseHit{}
	}
	for _, h := range hits {
		m := dailyRate.FindStringSubmatch(h.Unit.Text)
		if m == nil {
			continue
		}
		from := ""
		base := base
		if base == nil {
			k, where, text, ok := int64(0), "", "", false
			if monthly != nil && paymentBase.MatchString(h.Unit.Text) {
				k, where, text, ok = monthly(h.Doc)
			}
			// …or the penalty counts from any sum unpaid and the question names the monthly
			// payment («пени если просрочим абонентку»: «от неоплаченной суммы», «абонентская плата»)
			if !ok || !sameSubject(h.Unit.Text, text) && !sameSubject(q.Text, text) {
				return "", library.ClauseHit{}
			}
			base, from = big.NewRat(k, 100), " — от ежемесячного платежа по "+where
		}
		if line := penaltyLine(h, base, days, from, place); line != "" {
			return line, h
		}
	}
	return "", library.ClauseHit{}
}

// penaltyLine is the line (Markdown) that computes the daily penalty clause h charges on base for
// days, capped as the clause caps it; from says where the base comes from (" — от …"), when not
// from the question; "" when h states no daily rate.
func penaltyLine(h library.ClauseHit, base *big.Rat, days int, from string, place func(library.ClauseHit) string) string {
	m := dailyRate.FindStringSubmatch(h.Unit.Text)
	if m == nil {
		return ""
	}
	rate, ok := new(big.Rat).SetString(strings.ReplaceAll(m[1], ",", "."))
	if !ok {
		return ""
	}
	pct := new(big.Rat).Quo(rate, big.NewRat(100, 1))
	sum := new(big.Rat).Mul(base, pct)
	sum.Mul(sum, big.NewRat(int64(days), 1))
	esc := md.Escape
	head := esc(fmt.Sprintf("Пени: %s × %s %% × %d дн. = ", ru.Money(ru.Kopecks(base)), m[1], days))
	line := head + "**" + esc(ru.Money(ru.Kopecks(sum))) + "**"
	if c := rateCap.FindStringSubmatch(h.Unit.Text); c != nil {
		if cr, ok := new(big.Rat).SetString(strings.ReplaceAll(c[1], ",", ".")); ok {
			limit := new(big.Rat).Mul(base, new(big.Rat).Quo(cr, big.NewRat(100, 1)))
			if sum.Cmp(limit) > 0 {
				line = head + esc(fmt.Sprintf("%s, но не более %s %% — ", ru.Money(ru.Kopecks(sum)), c[1])) +
					"**" + esc(ru.Money(ru.Kopecks(limit))) + "**"
			}
		}
	}
	return line + " " + esc("(расчёт по "+place(h)+from+").")
}

// weDelayPaying: the question is about the asker paying late («если просрочим абонентку»,
// «задолжали 240 000 на 12 дней», «не оплатим вовремя»).
var weDelayPaying = regexp.MustCompile(`(?i)(^|[^\p{L}])(просрочим|просрочили|задержим|задержали|задолжали|задолжаем|не\s+(?:за|о|у)?платим|не\s+оплатили|не\s+заплатили)([^\p{L}]|$)`)

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var (
	// termDays: «в течение 10 (десяти) рабочих дней с даты подписания», «в течение 3 рабочих
	// дней после возвращения», «в течение 5 банковских дней», «в течение 30 календарных дней».
	termDays = regexp.MustCompile(`(?i)в\s+течение\s+(\d{1,3})\s*(?:\([^)]{1,40}\)\s*)?(рабочих|банковских|календарных)?\s*дн(?:я|ей)`)
	// termBefore: «не позднее чем за 2 (два) рабочих дня до начала командировки».
	termBefore = regexp.MustCompile(`(?i)(?:^|[^\p{L}])за\s+(\d{1,3})\s*(?:\([^)]{1,40}\)\s*)?(рабочих|банковских|календарных)?\s*(?:дн(?:я|ей)|день)\s+до\s`)
	// fromSigning: a period counted from the contract's signing («с даты подписания Договора»).
	// fromAct: a term counted from the act of acceptance («в течение 5 рабочих дней с даты
	// подписания акта приёма-передачи Помещения»), which another clause of the contract dates.
	fromAct = regexp.MustCompile(`(?i)^[^.;]{0,40}?с\s+(?:даты|момента|дня)\s+(?:подписания\s+|составления\s+)?(?:сторонами\s+)?акта\s+при[её]ма-передачи`)
	// actDated: a clause that dates the act of acceptance («Помещение передаётся Арендатору по
	// акту приёма-передачи 01 апреля 2026 г.»).
	actDated = regexp.MustCompile(`(?i)акт\p{L}*\s+при[её]ма-передачи`)
	// …or of the agreement that is the document itself («с даты подписания Соглашения» of a
	// supplementary agreement).
	fromSigning = regexp.MustCompile(`(?i)^[^.;]{0,40}с\s+(даты|момента|дня)\s+(подписания|заключения)\s+(настоящего\s+)?(договора|соглашения|дополнительного\s+соглашения)`)
	// termEnd: a period counted from the end of the contract's term («… до окончания срока
	// лицензии», «… после окончания срока субаренды», «… до истечения срока действия Договора»).
	termEnd = regexp.MustCompile(`(?i)^\s*(?:после\s+)?(?:окончания|истечения)\s+(?:срока|действия)`)
	// endAction: what a question asks to do before or after a term's end («сообщить», «отказаться от
	// продления», «выставят счёт», «вернуть склад») — not the term itself («срок аренды до какого»).
	endAction = regexp.MustCompile(`(?i)сообщ|уведом|предупред|отказ|продл|пролонг|сч[её]т|выстав|пришл|присыл|направ|вернут|возвра|сдат|сдава|передат|переда|расторг|заяв`)
	// askedWhen: a bare «когда» («счёт на продление когда выставят»).
	askedWhen = regexp.MustCompile(`(?i)(^|[^\p{L}])когда([^\p{L}]|$)`)
	// askedDeadline: the question asks until when («до какого числа», «когда крайний срок»).
	askedDeadline = regexp.MustCompile(`(?i)до\s+какого|какого\s+числа|до\s+какой\s+даты|к\s+какой\s+дате|по\s+какое\s+число|крайний\s+срок|последний\s+день|к\s+какому\s+числу|когда\s+(?:крайн|последн)|` +
		`когда\s+(?:(?:нужно|надо|должны)\s+)?(?:платить|оплатить|оплачивать|уплатить|уплачивать|вносить|внести|перечислить|сдать|сдавать|представить|вернуть|` +
		`платим|оплачиваем|заплатим|оплатим|вносим|внесём|внесем|перечисляем|перечислим|уплачиваем|уплатим)|` +
		`(?:^|\s)(?:то\s+|тогда\s+)?до\s*\??\s*$|до\s+когда`)
)

// asksPaying: the question asks when to pay; statesPaying: a clause's term is of a payment.
var (
	asksPaying   = regexp.MustCompile(`(?i)оплат|(^|[^\p{L}])(за)?плат|выплат|перечисл|внести|вносить|погас`)
	statesPaying = regexp.MustCompile(`(?i)оплач|оплат|плат[её]ж|плат[аиуы]|выплач|перечисл|внос|внес|уплач|возмещ|погаш`)
)

// writtenDay: a date written in figures («11.12», «14.12.2026»).
var writtenDay = regexp.MustCompile(`(^|[^\d.])(\d{1,2}\.\d{1,2}(?:\.\d{2,4})?)($|[^\d.])`)

// subjectGeneric are words every payment clause has: they tell no payment from another.
var subjectGeneric = map[string]bool{"плате": true, "плата": true, "платы": true, "оплат": true, "сумма": true, "суммы": true,
	"месяц": true, "ежеме": true, "рубле": true, "рубля": true, "копее": true, "разме": true, "соста": true, "включ": true,
	"котор": true, "течен": true, "кажды": true, "догов": true, "сторо": true, "проце": true, "прост": true, "уплач": true,
	"задол": true, "кален": true, "проср": true, "насто": true, "сколь": true, "скока": true, "опозд": true, "задер": true,
	"будет": true, "посчи": true, "нужно": true, "получ": true}

// sameSubject reports whether two clauses share a word of their own (its first five letters): the
// penalty's «арендной платы» and the rent's «арендная плата».
func sameSubject(a, b string) bool {
	words := func(s string) map[string]bool {
		out := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if r := []rune(w); len(r) >= 5 {
				if p := string(r[:5]); !subjectGeneric[p] {
					out[p] = true
				}
			}
		}
		return out
	}
	wa := words(a)
	for w := range words(b) {
		if wa[w] {
			return true
		}
	}
	return false
}

// monthOf: a clause about one month's payment («Арендная плата за февраль 2026 г. вносится в
// течение 5 банковских дней с даты подписания»).
var monthOf = regexp.MustCompile(`(?i)за\s+(январ|феврал|март|апрел|ма[йя]|июн|июл|август|сентябр|октябр|ноябр|декабр)\p{L}*\s+\d{4}`)

// ofOtherMonth reports whether a clause sets the term of one month's payment that the question
// does not ask about: «когда платить аренду» is the monthly term, not February's first payment.
func ofOtherMonth(clause, question string) bool {
	m := monthOf.FindStringSubmatch(clause)
	return m != nil && !strings.Contains(strings.ToLower(question), strings.ToLower(m[1]))
}

// yearWritten: a date written with its year («3 декабря 2026», «03.12.26»).
var yearWritten = regexp.MustCompile(`\d{4}|\d{1,2}\.\d{1,2}\.\d{2}`)

// fixedHolidays are the non-working holidays of the Labour Code (art. 112), month and day;
// the government's yearly transfers of days off are not known here, and the answer says so.
var fixedHolidays = map[[2]int]bool{{1, 1}: true, {1, 2}: true, {1, 3}: true, {1, 4}: true, {1, 5}: true, {1, 6}: true,
	{1, 7}: true, {1, 8}: true, {2, 23}: true, {3, 8}: true, {5, 1}: true, {5, 9}: true, {6, 12}: true, {11, 4}: true}

// deadlineFor is the line (Markdown) that computes a deadline: the day the question names («если
// подписали 3 декабря», «вернулся 10 декабря») plus the days the first unit of hits that states
// a period counts («в течение 10 рабочих дней»), from the next day on (Civil Code art. 191) — or
// less them, for a period before the event («не позднее чем за 2 рабочих дня до начала
// командировки» and «выезд 14.12»). A period counted from the signing of the contract («в
// течение 3 банковских дней с даты подписания Договора») starts on the document's own date
// (signed: nil when unknown) when the question names no day; one counted from the end of the
// contract's term («не позднее чем за 30 календарных дней до окончания срока лицензии», «в
// течение 2 рабочих дней после окончания срока субаренды») from the last day of the term its
// own clause states (ends: its last day and where it is stated; nil when unknown) — then «когда» asks it too. "" when the question
// asks no deadline, there is no day to count from, or no unit states such a period.
func deadlineFor(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string, signed func(library.ClauseHit) (time.Time, bool),
	ends func(library.ClauseHit) (time.Time, string, bool), unitsOf func(doc int) []library.Unit) (string, library.ClauseHit) {
	if q.Now.IsZero() || !askedDeadline.MatchString(q.Text) && !askedWhen.MatchString(q.Text) {
		return "", library.ClauseHit{}
	}
	var start time.Time
	text := q.Text
	if d := writtenDay.FindStringSubmatch(text); d != nil {
		text = d[2] // «в пятницу 11.12»: the date written, not last Friday
	}
	if p, ok, err := ru.ParsePeriod(text, q.Now); err == nil && ok && p.Kind == ru.KindDay {
		start = p.From
		if !yearWritten.MatchString(p.Text) {
			// «вернулся 10 декабря» on 6 December: an event's day without a year is its nearest
			// occurrence, not last year's, as an as-of date would be.
			if next := start.AddDate(1, 0, 0); next.Sub(q.Now).Abs() < q.Now.Sub(start).Abs() {
				start = next
			}
		}
	}
	topScore := 0.0
	for _, h := range hits {
		topScore = max(topScore, h.Score)
	}
	for _, h := range hits {
		back := false
		m := termDays.FindStringSubmatch(h.Unit.Text)
		if b := termBefore.FindStringSubmatch(h.Unit.Text); b != nil && (m == nil || strings.Index(h.Unit.Text, b[0]) < strings.Index(h.Unit.Text, m[0])) {
			m, back = b, true
		}
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if n <= 0 || n > 365 || ofOtherMonth(h.Unit.Text, q.Text) {
			continue
		}
		if asksPaying.MatchString(q.Text) && !statesPaying.MatchString(h.Unit.Text) {
			continue // «крайний срок оплаты агенту»: not the ten days to send the original of a report
		}
		after := h.Unit.Text[strings.Index(h.Unit.Text, m[0])+len(m[0]):]
		// counted from the term's end: the end the contract states, whatever day the question
		// names («продлится на 27й» is no 27th)
		fromEnd := ends != nil && q.Continues == "" && termEnd.MatchString(after) && endAction.MatchString(q.Text)
		if !fromEnd && !askedDeadline.MatchString(q.Text) {
			continue // a bare «когда» is asked of something done by the term's end only («когда кончается аренда» asks the end itself)
		}
		from, fromDoc, termAt := start, false, ""
		if fromEnd {
			d, at, ok := ends(h)
			if !ok {
				continue
			}
			from, termAt = d, at
		} else if termEnd.MatchString(after) {
			continue // the term's end unknown, a follow-up's, or the term itself asked («срок аренды до какого»)
		}
		chain := ""
		if anchor, dated := clauseAnchor(after), datedEvent(q.Text); !fromEnd && !back && !from.IsZero() && anchor != "" && dated != "" && anchor != dated {
			// counted from another event than the one the question dates: through the clause
			// that sets that event's own term, or not at all
			if unitsOf == nil {
				continue
			}
			cm, cu, ok := chainStep(unitsOf(h.Doc), anchor, dated)
			if !ok {
				continue
			}
			cn, _ := strconv.Atoi(cm[1])
			ck := strings.ToLower(cm[2])
			mid := addTerm(from, cn, ck, 1)
			cdays := termDaysText(cn, ck)
			chain = eventNames[anchor] + " — не позднее " + mid.Format("02.01.2006") + " (" + cdays + " с " + from.Format("02.01.2006") + ", " +
				place(library.ClauseHit{Doc: h.Doc, Unit: cu}) + ")"
			from = mid
		}
		actAt := "" // where the act a term counts from is dated («по акту приёма-передачи 01 апреля 2026 г.», п. 2.2)
		if from.IsZero() && unitsOf != nil && !back && q.Continues == "" && h.Score >= topScore && fromAct.MatchString(h.Unit.Text[strings.Index(h.Unit.Text, m[0]):]) {
			if d, u, ok := actDay(unitsOf(h.Doc), h.Unit); ok {
				from, actAt = d, place(library.ClauseHit{Doc: h.Doc, Unit: u})
			}
		}
		if from.IsZero() {
			d, ok := time.Time{}, false
			// only for a question of its own: a follow-up's «а до какого числа платить» may be
			// about another payment than the clause the dialog's words found
			if signed != nil && !back && q.Continues == "" && h.Score >= topScore && fromSigning.MatchString(h.Unit.Text[strings.Index(h.Unit.Text, m[0]):]) {
				// only the unit that answers best: «когда платить» of a lease is its monthly rent,
				// not the deposit's five days from the contract's date further down
				d, ok = signed(h)
			}
			if !ok {
				continue
			}
			from, fromDoc = d, true
		}
		kind := strings.ToLower(m[2])
		step := 1
		if back {
			step = -1
		}
		day := addTerm(from, n, kind, step)
		days := termDaysText(n, kind)
		how := days + " с " + from.Format("02.01.2006") + ", со следующего дня"
		if chain != "" {
			how = chain + "; затем " + days + " с " + from.Format("02.01.2006") + " (" + place(h) + ")"
		}
		switch {
		case fromEnd && back:
			how = days + " до окончания срока " + from.Format("02.01.2006") + " по " + termAt
		case fromEnd:
			how = days + " после окончания срока " + from.Format("02.01.2006") + " по " + termAt + ", со следующего дня"
		case back:
			how = days + " до " + from.Format("02.01.2006")
		case actAt != "":
			how = days + " с даты акта приёма-передачи " + from.Format("02.01.2006") + " (" + actAt + "), со следующего дня"
		case fromDoc:
			what := "договора"
			if m := fromSigning.FindStringSubmatch(h.Unit.Text[strings.Index(h.Unit.Text, m[0]):]); m != nil && !strings.EqualFold(m[4], "договора") {
				what = "соглашения" // a supplementary agreement's own date
			}
			how = days + " с даты " + what + " " + from.Format("02.01.2006") + ", со следующего дня"
		}
		how += workingDaysNote(kind)
		esc := md.Escape
		lead, tail := "Срок: до ", " включительно ("
		if back {
			lead, tail = "Срок: не позднее ", " ("
		}
		if today := time.Date(q.Now.Year(), q.Now.Month(), q.Now.Day(), 0, 0, 0, 0, day.Location()); day.Before(today) {
			how += "; этот срок уже прошёл"
		}
		return esc(lead) + "**" + esc(day.Format("02.01.2006")) + "**" + esc(tail+how+"; расчёт по "+place(h)+")."), h
	}
	return "", library.ClauseHit{}
}

var (
	// asksChange: the question asks by how much something changed («на сколько подорожал»,
	// «разница», «насколько увеличилась сумма»).
	asksChange = regexp.MustCompile(`(?i)на\s*сколько\s+(\p{L}+\s+)?(подорож|подешев|измен|вырос|увелич|уменьш|сниз|поднял)|разниц|изменил\p{L}*\s+на\s+сколько`)
	// askedFall, askedRise: the direction of a change asked.
	askedFall = regexp.MustCompile(`(?i)уменьш|сниз|подешев|меньше`)
	askedRise = regexp.MustCompile(`(?i)подорож|вырос|увелич|поднял|больше`)
	// firstAmount: the first amount in roubles and kopecks a text states.
	firstAmount = regexp.MustCompile(`\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2}`)
)

// changeOf is the line (Markdown) that says by how much a clause's amount changed when another
// document set it anew (the first amount of each wording, new less old), when the question asks;
// "" otherwise.
func changeOf(q Question, old, new, by string) string {
	if !asksChange.MatchString(q.Text) {
		return ""
	}
	o, n := firstAmount.FindString(old), firstAmount.FindString(new)
	ok, okK := kopecks(o)
	nk, nkK := kopecks(n)
	if o == "" || n == "" || !okK || !nkK {
		return ""
	}
	d := nk - ok
	if d > 0 && askedFall.MatchString(q.Text) || d < 0 && askedRise.MatchString(q.Text) {
		// «на сколько уменьшаем абонентскую плату» and an agreement that raised it: another
		// reduction is asked (a day not served), not this change
		return ""
	}
	sign := "+"
	if d < 0 {
		sign, d = "−", -d
	}
	esc := md.Escape
	return esc(fmt.Sprintf("Изменение: %s − %s = ", ru.Money(nk), ru.Money(ok))) + "**" + esc(sign+ru.Money(d)) + "**" + esc(" (по «"+by+"»).")
}

// askedAmount is the amount of money text names («4 млн», «500 тыс», «185 760,00 руб.»,
// «1200000»; not a bare small number nor a year), nil when none; the figure starting at byte
// skip (the days of «на 10 дней») is not one.
func askedAmount(text string, skip int) *big.Rat {
	for _, m := range askedBase.FindAllStringSubmatchIndex(text, -1) {
		if m[0] == skip {
			continue // the days
		}
		v, ok := new(big.Rat).SetString(strings.NewReplacer(" ", "", "\u00a0", "", ",", ".").Replace(text[m[2]:m[3]]))
		if !ok {
			continue
		}
		unit := ""
		if m[4] >= 0 {
			unit = text[m[4]:m[5]]
		}
		switch {
		case strings.HasPrefix(unit, "млн") || strings.HasPrefix(unit, "миллион"):
			v.Mul(v, big.NewRat(1_000_000, 1))
		case strings.HasPrefix(unit, "тыс") || strings.HasPrefix(unit, "т."):
			v.Mul(v, big.NewRat(1_000, 1))
		case unit == "" && v.Cmp(big.NewRat(1000, 1)) < 0:
			continue // a bare small number is no amount
		case unit == "" && v.IsInt() && v.Cmp(big.NewRat(1990, 1)) >= 0 && v.Cmp(big.NewRat(2100, 1)) <= 0:
			continue // «за 2026 год» is a year
		}
		return v
	}
	return nil
}

// actDay is the day the contract's act of acceptance is dated by a clause other than self
// («2.2. Помещение передаётся Арендатору по акту приёма-передачи 01 апреля 2026 г.»): the one
// date written after the act's name in that clause; ok is false when no clause, or more than
// one, dates it so.
func actDay(units []library.Unit, self library.Unit) (time.Time, library.Unit, bool) {
	var day time.Time
	var at library.Unit
	found := 0
	for _, u := range units {
		if u.Index == self.Index || u.Kind != library.UnitClause {
			continue
		}
		loc := actDated.FindStringIndex(u.Text)
		if loc == nil {
			continue
		}
		tail := []rune(u.Text[loc[1]:])
		tail = tail[:min(len(tail), 80)] // the date that follows the act's name, not the clause's others
		if d, ok := library.FirstDate(string(tail)); ok {
			if found > 0 && !d.Equal(day) {
				return time.Time{}, library.Unit{}, false // two acts, two dates: which one is meant is not said
			}
			day, at = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, ru.Moscow), u
			found++
		}
	}
	return day, at, found > 0
}

// termDaysText is a term's days as an answer says them: «10 рабочих дн.», «5 дн.».
func termDaysText(n int, kind string) string {
	if kind == "" {
		return fmt.Sprintf("%d дн.", n)
	}
	return fmt.Sprintf("%d %s дн.", n, kind)
}

// workingDaysNote is what a count of working or banking days adds: the days off it assumes.
func workingDaysNote(kind string) string {
	if kind == "рабочих" || kind == "банковских" {
		return "; выходные и праздники по Трудовому кодексу, переносы выходных в этом году проверьте по производственному календарю"
	}
	return ""
}
