package address

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/ru"
)

// FallbackRuleHit values of the guards and of the no-match case. The intent rules name
// themselves after what they recognised ("receivables", "balance_by_counterparty", …).
const (
	RuleWriteIntent = "write_intent"
	RuleInjection   = "query_injection"
	RuleDeep        = "deep_analysis_marker"
	RuleNoIntent    = "no_intent"
)

// maxFilterRunes bounds every text filter: values are anchors, never text to execute.
const maxFilterRunes = 200

// invalidDatePrefix marks the reason that carries a date the user wrote but that does not
// exist; DateProblem reads it back.
const invalidDatePrefix = "invalid_date:"

// Decompose is the deterministic decomposer: it always returns a Decomposition, with
// confidences, FallbackRuleHit naming the rule that decided, and Reasons (Russian).
//
// Guards come first and end the decision: a request to change data in 1C is unsupported
// ("write_intent"), so is a query text or an attempt to override instructions anywhere in
// the message, quoted names included ("query_injection"); a why/analysis/forecast question
// is deep_analysis ("deep_analysis_marker"). Otherwise the filters are extracted, the intent
// is chosen from the cues (a contract anchor beats a counterparty anchor), and dates are
// placed by the intent: as_of_date for snapshot recipes (a period gives its last day),
// period_from/period_to for period recipes. A date that does not exist («31.02.2026») leaves
// the date filters empty and is reported by [DateProblem].
func Decompose(text string, now time.Time) Decomposition {
	san := Sanitize(text)
	d := Decomposition{Sanitized: san, Missing: []string{}}
	full := foldForRules(san)
	if why := writeIntentReason(full); why != "" {
		return guarded(d, ModeUnsupported, RuleWriteIntent, why)
	}
	if why := injectionReason(full, ru.FoldAligned(san)); why != "" {
		return guarded(d, ModeUnsupported, RuleInjection, why)
	}

	sc := scanQuestion(san, now)
	d.Filters = sc.filters
	d.Reasons = sc.reasons
	if san == "" {
		d.Reasons = append(d.Reasons, "пустое сообщение")
	}
	fams := findFamilies(sc.rules)
	pick := pickIntent(fams, sc)

	if m := deepMarkerRe.FindString(sc.rules); m != "" {
		d.QuestionMode, d.ModeConfidence = ModeDeep, 0.8
		d.Intent, d.IntentConfidence = IntentUnknown, 0
		d.FallbackRuleHit = RuleDeep
		d.Reasons = append(d.Reasons, fmt.Sprintf("просьба объяснить или проанализировать («%s»): это глубокий анализ, а не адресный запрос", strings.TrimSpace(m)))
		if pick.intent != IntentUnknown {
			d.Reasons = append(d.Reasons, "ближайший адресный сценарий: "+string(pick.intent))
		}
		placeDates(&d, IntentUnknown, sc)
		return d
	}

	d.QuestionMode = ModeAddress
	d.Intent, d.IntentConfidence, d.FallbackRuleHit = pick.intent, pick.conf, pick.rule
	d.Reasons = append(d.Reasons, pick.reasons...)
	switch {
	case pick.intent == IntentUnknown:
		d.ModeConfidence = 0.4
	case pick.conf >= 0.75:
		d.ModeConfidence = 0.9
	default:
		d.ModeConfidence = 0.7
	}
	if pick.impliedAccount != "" && d.Filters.Account == "" {
		d.Filters.Account = pick.impliedAccount
	}
	placeDates(&d, pick.intent, sc)
	d.QueryShape, d.QueryShapeConfidence = questionShape(pick.intent, sc.rules, pick.compound)
	d.Missing = MissingFilters(d.Intent, d.Filters)
	return d
}

// guarded is the decision of a guard: nothing else in the message matters.
func guarded(d Decomposition, mode Mode, rule, why string) Decomposition {
	d.QuestionMode, d.ModeConfidence = mode, 0.95
	d.Intent, d.IntentConfidence = IntentUnknown, 0
	d.FallbackRuleHit = rule
	d.Reasons = []string{why}
	return d
}

// MissingFilters lists the recipe's required filters absent from f (as_of_date included — the caller defaults it to today and says so).
//
// The list is never nil, so it encodes as [] in JSON; it is empty for IntentUnknown. An INN
// counts as a counterparty.
func MissingFilters(i Intent, f Filters) []string {
	missing := []string{}
	r, ok := RecipeFor(i)
	if !ok {
		return missing
	}
	for _, key := range r.Required {
		if filterKeyValue(f, key) == "" {
			missing = append(missing, key)
		}
	}
	return missing
}

// filterKeyValue returns the value of a filter-catalog key as text, "" when it is unset.
func filterKeyValue(f Filters, key string) string {
	switch key {
	case FilterPeriodFrom:
		return f.PeriodFrom
	case FilterPeriodTo:
		return f.PeriodTo
	case FilterAsOfDate:
		return f.AsOfDate
	case FilterOrganization:
		return f.Organization
	case FilterCounterparty:
		if f.Counterparty == "" {
			return f.INN
		}
		return f.Counterparty
	case FilterContract:
		return f.Contract
	case FilterAccount:
		return f.Account
	case FilterDocumentType:
		return f.DocumentType
	case FilterDocumentRef:
		return f.DocumentRef
	case FilterStatus:
		return f.Status
	case FilterLimit:
		if f.Limit == 0 {
			return ""
		}
		return fmt.Sprint(f.Limit)
	case FilterSort:
		return f.Sort
	}
	return ""
}

// DateProblem returns the Russian reason why a date in the question could not be used
// («неверная дата «31.02.2026»: в феврале 2026 года 28 дней»), or "" when there is none.
// Decompose then leaves the date filters empty; the caller must say so rather than default
// as_of_date to today silently.
func DateProblem(d Decomposition) string {
	for _, r := range d.Reasons {
		if rest, ok := strings.CutPrefix(r, invalidDatePrefix); ok {
			return rest
		}
	}
	return ""
}

// placeDates puts the period found in the question into the filters the intent needs.
func placeDates(d *Decomposition, intent Intent, sc questionScan) {
	if sc.dateErr != nil {
		d.Reasons = append(d.Reasons, invalidDatePrefix+sc.dateErr.Error())
		return
	}
	if !sc.hasPeriod {
		return
	}
	p := sc.period
	from, to := p.From.Format(time.DateOnly), p.To.Format(time.DateOnly)
	switch {
	case periodIntent(intent):
		d.Filters.PeriodFrom, d.Filters.PeriodTo = from, to
		d.Reasons = append(d.Reasons, fmt.Sprintf("период «%s»: %s — %s", p.Text, from, to))
	case intent != IntentUnknown || p.Single():
		d.Filters.AsOfDate = to
		if p.Single() {
			d.Reasons = append(d.Reasons, fmt.Sprintf("дата среза «%s»: %s", p.Text, to))
		} else {
			d.Reasons = append(d.Reasons, fmt.Sprintf("«%s» — период, для среза беру его последний день: %s", p.Text, to))
		}
	default:
		d.Filters.PeriodFrom, d.Filters.PeriodTo = from, to
		d.Reasons = append(d.Reasons, fmt.Sprintf("период «%s»: %s — %s", p.Text, from, to))
	}
}

// periodIntent reports whether the intent's recipe takes a period rather than a date.
func periodIntent(i Intent) bool {
	switch i {
	case IntentDocumentsByParty, IntentDocumentsByContract, IntentBankOpsByParty:
		return true
	}
	return false
}

// questionShape tells a list from a total, a single balance and two questions at once.
func questionShape(i Intent, rules string, compound bool) (string, float64) {
	switch {
	case compound:
		return "compound", 0.7
	case i == IntentUnknown:
		return "", 0
	case aggregateRe.MatchString(rules):
		return "aggregate", 0.85
	case i == IntentAccountBalance:
		return "single_value", 0.8
	}
	return "list", 0.8
}

var aggregateRe = regexp.MustCompile(` (сколько всего|итого|итог|всего|общ\S* сумм\S*|сумм\S* всех|в сумме|суммарн\S*|совокупн\S*) `)

// questionScan is what the extraction found, before the intent decides where dates go.
type questionScan struct {
	filters   Filters
	reasons   []string
	period    ru.Period
	hasPeriod bool
	dateErr   *ru.DateError
	// rules is the question folded for the word rules, with names, numbers of contracts and
	// INNs and the date phrase blanked out, so a company called «Открытие» or «Прогноз» does
	// not read as a cue.
	rules string
}

// scanQuestion extracts every filter but the dates' placement. The order matters: contract
// numbers, INNs and names are blanked before the date parser and the account rules run, so
// «договор П-15/2025 от 01.03.2025» is not an as-of date and «ООО «Март»» is not a month.
func scanQuestion(san string, now time.Time) questionScan {
	var sc questionScan
	low := ru.FoldAligned(san)
	mask := []byte(low)
	blank := func(start, end int) {
		for i := start; i < end && i < len(mask); i++ {
			mask[i] = ' '
		}
	}
	f := &sc.filters

	if c, ok := findContract(san, low); ok {
		f.Contract = clipRunes(c.raw, maxFilterRunes)
		blank(c.start, c.end)
		sc.reasons = append(sc.reasons, fmt.Sprintf("номер договора «%s»", f.Contract))
	}

	for _, c := range findINNs(string(mask)) {
		blank(c.start, c.end)
		switch {
		case !c.valid:
			sc.reasons = append(sc.reasons, fmt.Sprintf("ИНН %s не проходит проверку контрольных цифр", c.digits))
		case f.INN == "":
			f.INN = c.digits
			sc.reasons = append(sc.reasons, "ИНН "+c.digits)
		}
	}

	mentions := findPartyMentions(san, string(mask))
	party, bare := -1, -1
	for k, m := range mentions {
		blank(m.start, m.end)
		switch {
		case m.org && f.Organization == "":
			f.Organization = clipRunes(m.raw, maxFilterRunes)
			sc.reasons = append(sc.reasons, fmt.Sprintf("организация «%s»", f.Organization))
		case m.org:
		case m.explicit && party < 0:
			party = k
		case !m.explicit && bare < 0:
			bare = k
		}
	}
	if party < 0 {
		party = bare
	}
	if party >= 0 {
		f.Counterparty = clipRunes(mentions[party].raw, maxFilterRunes)
		sc.reasons = append(sc.reasons, fmt.Sprintf("контрагент «%s»", f.Counterparty))
		for k, m := range mentions {
			if k != party && !m.org && m.raw != mentions[party].raw {
				sc.reasons = append(sc.reasons, fmt.Sprintf("назван ещё контрагент «%s»: учитываю только первого", clipRunes(m.raw, 60)))
			}
		}
	} else if f.INN != "" {
		f.Counterparty = f.INN
	}

	masked := maskedLike(san, mask)
	p, ok, err := ru.ParsePeriod(masked, now)
	var de *ru.DateError
	switch {
	case errors.As(err, &de):
		sc.dateErr = de
		if i := strings.Index(masked, de.Text); i >= 0 {
			blank(i, i+len(de.Text))
		}
	case err != nil:
		sc.dateErr = &ru.DateError{Text: "", Reason: err.Error()}
	case ok:
		sc.period, sc.hasPeriod = p, true
		if i := strings.Index(masked, p.Text); i >= 0 {
			blank(i, i+len(p.Text))
		}
	}

	acc, others := findAccount(string(mask))
	if acc != "" {
		f.Account = acc
		sc.reasons = append(sc.reasons, "счёт "+acc)
		if len(others) > 0 {
			sc.reasons = append(sc.reasons, "упомянуты ещё счета "+strings.Join(others, ", ")+": учитываю первый")
		}
	}

	sc.rules = foldForRules(maskedLike(san, mask))
	extractOptions(&sc)
	return sc
}

// maskedLike returns san with the bytes blanked in mask blanked too (mask is the folded,
// byte-aligned copy of san).
func maskedLike(san string, mask []byte) string {
	b := []byte(san)
	for i := range b {
		if i < len(mask) && mask[i] == ' ' {
			b[i] = ' '
		}
	}
	return string(b)
}

// extractOptions reads document_type, limit, sort and status from the folded question.
func extractOptions(sc *questionScan) {
	s, f := sc.rules, &sc.filters

	first := len(s)
	for _, c := range documentTypeCues {
		if loc := c.re.FindStringIndex(s); loc != nil && loc[0] < first {
			first, f.DocumentType = loc[0], c.typ
		}
	}
	if f.DocumentType != "" {
		sc.reasons = append(sc.reasons, "тип документа "+f.DocumentType)
	}

	for _, c := range limitCues {
		m := c.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		n := atoiSmall(m[1])
		switch {
		case n < MinLimit:
			sc.reasons = append(sc.reasons, fmt.Sprintf("ограничение «%s» не может быть меньше %d: не учитываю", strings.TrimSpace(m[0]), MinLimit))
			continue
		case n > MaxLimit:
			sc.reasons = append(sc.reasons, fmt.Sprintf("ограничение %d больше допустимого, беру %d", n, MaxLimit))
			n = MaxLimit
		}
		f.Limit, f.Sort = n, c.sort
		sc.reasons = append(sc.reasons, fmt.Sprintf("ограничение %d строк", n))
		break
	}
	for _, c := range sortCues {
		if c.re.MatchString(s) {
			f.Sort = c.sort
			break
		}
	}

	open := len(findNotNegated(statusOpenRe, s)) > 0
	closed := len(findNotNegated(statusClosedRe, s)) > 0
	switch {
	case open && closed, statusBothRe.MatchString(s):
		f.Status = "all"
	case open:
		f.Status = "open"
	case closed:
		f.Status = "closed"
	case statusAllRe.MatchString(s):
		f.Status = "all"
	}
}

func atoiSmall(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' || n > 100000 {
			return -1
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// findNotNegated returns the matches of re in s that do not follow the word «не».
func findNotNegated(re *regexp.Regexp, s string) [][]int {
	var out [][]int
	for _, loc := range re.FindAllStringIndex(s, -1) {
		if strings.HasSuffix(s[:loc[0]], " не") {
			continue
		}
		out = append(out, loc)
	}
	return out
}

var documentTypeCues = []struct {
	re  *regexp.Regexp
	typ string
}{
	{regexp.MustCompile(` поступлени\S* (на (расчетн|р/с|сч|банк)|денеж|денег|средств|оплат)| оплат\S* от | входящ\S* платеж`), "ПоступлениеНаРасчетныйСчет"},
	{regexp.MustCompile(` списани\S* (с (расчетн|р/с|банк)|со (сч|расчетн)|денеж|денег|средств)| (платеж|оплат)\S* поставщик| исходящ\S* платеж`), "СписаниеСРасчетногоСчета"},
	{regexp.MustCompile(` (реализаци|отгрузк)`), "РеализацияТоваровУслуг"},
	{regexp.MustCompile(` поступлени\S* (товар|услуг|материал|тмц)| закупк| приход\S* товар`), "ПоступлениеТоваровУслуг"},
	{regexp.MustCompile(` акт\S* сверк| сверк\S* (взаиморасчет|расчет)`), "АктСверкиВзаиморасчетов"},
	{regexp.MustCompile(` ввод\S* остатк`), "ВводОстатков"},
}

var limitCues = []struct {
	re   *regexp.Regexp
	sort string
}{
	{regexp.MustCompile(` топ-? ?(\d{1,6}) `), "amount_desc"},
	{regexp.MustCompile(` первы[еxх] (\d{1,6}) `), "amount_desc"},
	{regexp.MustCompile(` (\d{1,6}) (самых )?(крупнейш|крупных|больших|максимальн)`), "amount_desc"},
	{regexp.MustCompile(` последни[еxх] (\d{1,6}) `), "date_desc"},
	{regexp.MustCompile(` (\d{1,6}) (последн|свеж|новых)`), "date_desc"},
	{regexp.MustCompile(` (?:не более|не больше|лимит|максимум) (\d{1,6}) `), ""},
	{regexp.MustCompile(` (\d{1,6}) (строк|позици|записе|записи)`), ""},
}

var sortCues = []struct {
	re   *regexp.Regexp
	sort string
}{
	{regexp.MustCompile(` по (алфавиту|наименовани\S*|названи\S*) `), "name_asc"},
	{regexp.MustCompile(` по (убыванию )?(сумм\S*|размеру) | самы\S* крупн`), "amount_desc"},
	{regexp.MustCompile(` по (дате|датам) | сначала (нов|свеж|последн)`), "date_desc"},
}

var (
	statusOpenRe   = regexp.MustCompile(` (открыт|незакрыт)(ые|ых|ый|ая|ое|ой|ым|ыми|ы|о|а)? | (неоплачен|непогашен)\S*| не (закрыт|оплачен|погашен)\S*`)
	statusClosedRe = regexp.MustCompile(` закрыт(ые|ых|ый|ая|ое|ой|ым|ыми|ы|о|а)? | (оплачен|погашен)(ые|ых|ый|ая|ое|ой|ым|ыми|ы|о|а)? `)
	statusBothRe   = regexp.MustCompile(` (открыт|незакрыт)\S* (и|или) закрыт| закрыт\S* (и|или) (открыт|незакрыт)`)
	statusAllRe    = regexp.MustCompile(` (все|всех|любые) `)
)

// family is a kind of cue; with the anchors found it decides the intent.
type family int

const (
	famForm family = iota
	famOpenContracts
	famOpen
	famReceivables
	famPayables
	famBalance
	famBankStrong
	famDocsExplicit
	famBankPay
	famBankFlow
	famDocs
	famCount
)

// familyCues are tried on foldForRules text; the order of the families is their precedence.
var familyCues = [famCount]*regexp.Regexp{
	famForm:          regexp.MustCompile(` расшифр\S*| из чего (складывается|состоит|сложил\S*|образовал\S*)| (какие|какими|каких) документ\S*( \S+){0,2} (формир|сформир|образу|составля|складыва)\S*| документ\S* (формирующ|образующ|составляющ)\S*| формирующ\S* (остат|сальдо)| (детализаци|разбивк)\S* (остатк|сальдо)| разверн\S* (остат|сальдо)| за счет каких документ`),
	famOpenContracts: regexp.MustCompile(` (открыт|незакрыт|неисполнен|непогашен)\S* договор| договор\S* (с |со )?(открыт|незакрыт|ненулев|непогашен)\S*| договор\S* (с |со )?(остатк|сальдо|задолженност|долг)`),
	famOpen:          regexp.MustCompile(` (открыт|незакрыт)\S* (позици|счет|документ|расчет|сумм|задолженн|обязательств|долг|сальдо|остатк|платеж|взаиморасчет)| (неоплачен|непогашен)\S*| не (оплачен|погашен|закрыт)\S*| (висит|висят|висящ)\S*`),
	famReceivables:   regexp.MustCompile(` (кто|кто-то|какие|какие-то)( \S+){0,3} (нам|нас) (долж|задолж)\S*| долж\S* нам | нам (долж|задолж)\S*| дебитор\S*| задолженност\S* (покупател|заказчик|клиент|дебитор)\S*| должник\S*| (долг|задолженност)\S*( \S+){0,2} перед нами| нам не (заплатил|оплатил|вернул|перечислил)\S*| (покупател|клиент|заказчик)\S* (нам )?(долж|задолж)\S*`),
	famPayables:      regexp.MustCompile(` кому( \S+){0,2} (долж|задолж)\S*| перед кем| мы (\S+ )?(должн|задолжал)\S*| наш\S* (долг|задолж)\S*| кредитор\S*| задолженност\S* (перед )?(поставщик|подрядчик)\S*| долг\S* перед (поставщик|подрядчик)\S*| (мы|нам) (надо|нужно) (заплатить|оплатить|погасить)`),
	famBalance:       regexp.MustCompile(` (сальдо|остат(ок|ки|ка|ку|ков|кам|ках|ком|ке)) | что (у нас )?(на|по) (\d{2}|сч)| сколько (денег |средств )?(на|в) (сч|\d{2}|расчетн|касс|банк)| состояни\S* (сч|\d{2})`),
	famBankStrong:    regexp.MustCompile(` банковск\S*| выписк\S*| платежк\S*| платежн\S* поручени\S*| банк\S* (операц|документ|движени)\S*`),
	famDocsExplicit:  regexp.MustCompile(` документ\S*| первичк\S*`),
	famBankPay:       regexp.MustCompile(` (платеж|платежи|платежей|платежам|платежах|перечислени\S*|оплат(а|ы|у|ой|ам|ами|ах)? (от|по|с|в адрес|контрагент\S*|поставщик\S*)|движени\S* (денег|денежн\S*|средств|по (расчетн|банк)\S*)|(денег|деньги) от) `),
	famBankFlow:      regexp.MustCompile(` (поступлени|списани)\S*`),
	famDocs:          regexp.MustCompile(` (реализаци|накладн|отгрузк|упд|сверк|закупк|операци)\S*| акт\S* сверк| счет\S*-фактур\S*| ввод\S* остатк| поступлени\S* (товар|услуг|материал|тмц)| что (было|проходило) (по|у|с) `),
}

// goodsPhrases are document types that look like bank or balance cues («поступления
// товаров», «ввод остатков»); they are removed before those cues are tried.
var goodsPhrases = regexp.MustCompile(` (поступлени|списани)\S* (товар|услуг|материал|тмц|ос)\S*| ввод\S* остатк\S*`)

var conjunctionRe = regexp.MustCompile(` (и|а также|плюс|кроме того|заодно|еще и) `)

// deepMarkerRe finds why/analysis/forecast questions.
var deepMarkerRe = regexp.MustCompile(` (почему|отчего|зачем|проанализир\S*|спрогнозир\S*|прогноз\S*|тенденци\S*|тренд\S*|динамик\S*|сравни|сравните|сравнить|сравнени\S*|оцени|оцените|оценить|объясни|объясните|объяснить|причин\S*|риск\S*|рекоменд\S*|посоветуй\S*) | (проведи|сделай|выполни)( \S+)? анализ\S*| анализ\S* (динамик|причин|тенденц|структур|риск|эффективн)\S*| (что будет|как изменит\S*|за счет чего|в чем причина) `)

// findFamilies returns the position of each family's first cue, -1 when absent.
func findFamilies(rules string) [famCount]int {
	var pos [famCount]int
	plain := goodsPhrases.ReplaceAllString(rules, " ")
	for f, re := range familyCues {
		s := plain
		if family(f) == famDocs {
			s = rules
		}
		pos[f] = -1
		if loc := re.FindStringIndex(s); loc != nil {
			pos[f] = loc[0]
		}
	}
	return pos
}

// intentPick is the intent rules' decision.
type intentPick struct {
	intent         Intent
	conf           float64
	rule           string
	reasons        []string
	compound       bool
	impliedAccount string // 51 for «расчётный счёт», 50 for «касса» in a balance question
}

// pickIntent chooses the family that decides and maps it onto an intent with the anchors.
// Two different questions joined by «и» are a compound question: the first one asked decides.
func pickIntent(pos [famCount]int, sc questionScan) intentPick {
	groups := compoundGroups(pos)
	chosen := family(-1)
	compound := (pos[famReceivables] >= 0 && pos[famPayables] >= 0) ||
		(len(groups) >= 2 && conjunctionRe.MatchString(sc.rules))
	if compound {
		for _, f := range groups {
			if chosen < 0 || pos[f] < pos[chosen] {
				chosen = f
			}
		}
	} else {
		for f := range famCount {
			if pos[f] >= 0 {
				chosen = f
				break
			}
		}
	}
	p := familyIntent(chosen, sc)
	if compound {
		p.compound = true
		p.reasons = append(p.reasons, "в сообщении два вопроса сразу: отвечаю на первый")
	}
	return p
}

// compoundGroups returns one family per distinct question kind present, after removing
// cues that belong to a stronger one («расшифруй остаток» is not also a balance question).
func compoundGroups(pos [famCount]int) []family {
	has := func(f family) bool { return pos[f] >= 0 }
	var out []family
	add := func(fs ...family) {
		for _, f := range fs {
			if has(f) {
				out = append(out, f)
				return
			}
		}
	}
	add(famForm)
	add(famOpenContracts)
	if !has(famForm) {
		add(famOpen)
	}
	add(famReceivables)
	add(famPayables)
	if !has(famForm) && !has(famOpen) && !has(famReceivables) && !has(famPayables) {
		add(famBalance)
	}
	if has(famDocsExplicit) {
		add(famBankStrong, famBankPay)
	} else {
		add(famBankStrong, famBankPay, famBankFlow)
	}
	if !has(famForm) {
		add(famDocsExplicit, famDocs)
	}
	return out
}

// familyIntent maps a family onto an intent. A contract anchor beats a counterparty anchor.
func familyIntent(f family, sc questionScan) intentPick {
	fl := sc.filters
	party, contract, account := fl.Counterparty != "" || fl.INN != "", fl.Contract != "", fl.Account != ""
	pick := func(i Intent, conf float64, rule, why string) intentPick {
		return intentPick{intent: i, conf: conf, rule: rule, reasons: []string{why}}
	}
	anchoredConf := func(ok bool) float64 {
		if ok {
			return 0.9
		}
		return 0.6
	}
	switch f {
	case famForm:
		return pick(IntentDocumentsFormBalance, 0.9, "documents_forming_balance", "просьба расшифровать остаток до документов")
	case famOpenContracts:
		if contract {
			return pick(IntentOpenItemsByContract, 0.9, "open_items_contract", "открытые позиции по названному договору")
		}
		return pick(IntentOpenContracts, 0.9, "open_contracts", "вопрос о незакрытых договорах на дату")
	case famOpen:
		if contract {
			return pick(IntentOpenItemsByContract, 0.9, "open_items_contract", "открытые позиции по договору (договор важнее контрагента)")
		}
		return pick(IntentOpenItemsByParty, anchoredConf(party), "open_items_counterparty", "вопрос об открытых позициях по контрагенту")
	case famReceivables, famPayables:
		side, intent, rule := "кто должен нам", IntentReceivables, "receivables"
		if f == famPayables {
			side, intent, rule = "кому должны мы", IntentPayables, "payables"
		}
		switch {
		case contract:
			return pick(IntentOpenItemsByContract, 0.75, rule+"_by_contract", "вопрос «"+side+"» по конкретному договору: показываю открытые позиции договора")
		case party:
			return pick(IntentOpenItemsByParty, 0.75, rule+"_by_counterparty", "вопрос «"+side+"» по конкретному контрагенту: показываю его открытые позиции")
		}
		return pick(intent, 0.9, rule, "вопрос «"+side+"»")
	case famBalance:
		switch {
		case contract:
			return pick(IntentOpenItemsByContract, 0.75, "balance_by_contract", "остаток по договору: показываю открытые позиции договора"+accountNote(fl.Account))
		case party:
			return pick(IntentOpenItemsByParty, 0.75, "balance_by_counterparty", "остаток по контрагенту: показываю его открытые позиции"+accountNote(fl.Account))
		}
		p := pick(IntentAccountBalance, anchoredConf(account), "account_balance", "вопрос об остатке по счёту")
		if !account {
			switch {
			case strings.Contains(sc.rules, " расчетн"):
				p.impliedAccount = "51"
				p.reasons = append(p.reasons, "«расчётный счёт» — счёт 51")
			case strings.Contains(sc.rules, " касс"):
				p.impliedAccount = "50"
				p.reasons = append(p.reasons, "«касса» — счёт 50")
			}
			if p.impliedAccount != "" {
				p.conf = 0.75
			}
		}
		return p
	case famBankStrong, famBankPay, famBankFlow:
		if contract {
			return pick(IntentDocumentsByContract, 0.75, "bank_ops_by_contract", "банковские операции по договору: показываю документы договора")
		}
		return pick(IntentBankOpsByParty, anchoredConf(party), "bank_ops_counterparty", "вопрос о платежах и банковских операциях контрагента")
	case famDocsExplicit, famDocs:
		switch {
		case contract:
			return pick(IntentDocumentsByContract, 0.9, "documents_contract", "документы по договору (договор важнее контрагента)")
		case party:
			return pick(IntentDocumentsByParty, 0.9, "documents_counterparty", "вопрос о документах контрагента")
		case account:
			return pick(IntentDocumentsFormBalance, 0.6, "documents_by_account", "документы по счёту без контрагента: расшифровываю остаток счёта")
		}
		return pick(IntentDocumentsByParty, 0.6, "documents_counterparty", "вопрос о документах, контрагент не назван")
	}
	switch {
	case contract:
		return pick(IntentDocumentsByContract, 0.5, "contract_only", "назван только договор: показываю его документы")
	case account:
		return pick(IntentAccountBalance, 0.6, "account_only", "назван только счёт: показываю остаток по нему")
	}
	return pick(IntentUnknown, 0.2, RuleNoIntent, "не нашёл признаков ни одного адресного сценария")
}

func accountNote(acc string) string {
	if acc == "" {
		return ""
	}
	return " по счёту " + acc
}

// textSpan is a piece of the sanitized question with its byte span.
type textSpan struct {
	raw        string
	start, end int
}

var (
	contractAfterWordRe  = regexp.MustCompile(`(?:^|[^\p{L}\p{N}])договор\p{L}*(?:\s+(?:поставки|подряда|аренды|займа|комиссии|купли-продажи|оказания\s+услуг|на\s+оказание\s+услуг|услуг))?\s*(?:№|номер|n|no\.?)?\s*([\p{L}\p{N}][\p{L}\p{N}\-/._]*)`)
	contractNumberSignRe = regexp.MustCompile(`№\s*([\p{L}\p{N}][\p{L}\p{N}\-/._]*)`)
	contractShapeRe      = regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(\p{L}{1,4}-?\d{1,6}/\d{2,4})(?:[^\p{L}\p{N}/]|$)`)
	contractTailDateRe   = regexp.MustCompile(`^\s*от\s+(?:\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{1,2}\s+\p{L}+\s+\d{4})(?:\s*(?:года|г\.?))?`)
	numericDateRe        = regexp.MustCompile(`^(\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{4}-\d{2}-\d{2})$`)
)

// findContract finds a contract number: «по договору № П-15/2025», «договор П-77/2024»,
// «№П-112/2024». The span includes a following «от 01.03.2025», which dates the contract,
// not the question.
func findContract(san, low string) (textSpan, bool) {
	try := func(re *regexp.Regexp, accept func(string) bool) (textSpan, bool) {
		for _, m := range re.FindAllStringSubmatchIndex(low, -1) {
			start, end := m[2], m[3]
			for end > start && strings.ContainsRune(".-_/", rune(low[end-1])) {
				end--
			}
			num := low[start:end]
			if !strings.ContainsAny(num, "0123456789") || numericDateRe.MatchString(num) || ValidINN(num) || !accept(num) {
				continue
			}
			spanEnd := end
			if t := contractTailDateRe.FindString(low[end:]); t != "" {
				spanEnd += len(t)
			}
			return textSpan{raw: san[start:end], start: start, end: spanEnd}, true
		}
		return textSpan{}, false
	}
	if c, ok := try(contractAfterWordRe, func(string) bool { return true }); ok {
		return c, true
	}
	mentionsContract := strings.Contains(low, "договор")
	if c, ok := try(contractNumberSignRe, func(n string) bool { return mentionsContract || contractShapeRe.MatchString(n) }); ok {
		return c, true
	}
	return try(contractShapeRe, func(string) bool { return true })
}

var (
	accountAfterWordRe  = regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(?:суб)?сч(?:ет\p{L}*|\.)?\s*(?:№\s*)?(\d{2}(?:\.\d{2})?)(?:[^\p{N}.,]|[.,][^\p{N}]|[.,]?$)`)
	accountBeforeWordRe = regexp.MustCompile(`(?:^|[^\p{N}.,])(\d{2}(?:\.\d{2})?)(?:-?(?:м|й|го|ом|ому|ем|ый|ого))?\s*(?:суб)?сч(?:ет|\.|\p{L}|\s|$)`)
	accountAfterCueRe   = regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(сальдо|остат\p{L}*|оборот\p{L}*|по|на)\s+(?:(?:по|на)\s+)?(\d{2}(?:\.\d{2})?)(?:[^\p{N}.,]|[.,][^\p{N}]|[.,]?$)`)
	accountBareRe       = regexp.MustCompile(`(?:^|[^\p{N}.,])(\d{2}\.\d{2})(?:[^\p{N}.,]|[.,][^\p{N}]|[.,]?$)`)
)

// chartAccounts are the synthetic accounts of the Russian chart of accounts (order 94n). A
// two-digit number without the word «счёт» is an account only if it is one of them.
var chartAccounts = func() map[string]bool {
	m := map[string]bool{}
	for _, a := range strings.Fields("01 02 03 04 05 07 08 09 10 11 14 15 16 19 20 21 23 25 26 28 29 " +
		"40 41 42 43 44 45 46 50 51 52 55 57 58 59 60 62 63 66 67 68 69 70 71 73 75 76 77 79 " +
		"80 81 82 83 84 86 90 91 94 96 97 98 99") {
		m[a] = true
	}
	return m
}()

// notAccountFollowers start the text after a number that is an amount or a count, not an account.
var notAccountFollowers = []string{"%", "руб", "р.", "₽", "тыс", "млн", "млрд", "коп", "шт", "строк", "позици",
	"запис", "дн", "день", "числ", "процент", "доллар", "евро", "$", "€", "лет", "год", "мес", "час", "минут", "раз"}

// findAccount returns the first account token of the (blanked, folded) question and the
// other distinct ones. Tokens next to «счёт» come first; then those after «сальдо»,
// «остаток», «по», «на»; then a bare «62.01».
func findAccount(low string) (string, []string) {
	type hit struct {
		pos int
		acc string
	}
	var strong []hit
	for _, re := range []*regexp.Regexp{accountAfterWordRe, accountBeforeWordRe} {
		for _, m := range re.FindAllStringSubmatchIndex(low, -1) {
			strong = append(strong, hit{m[2], low[m[2]:m[3]]})
		}
	}
	var hits []hit
	if len(strong) > 0 {
		hits = strong
	} else {
		for _, m := range accountAfterCueRe.FindAllStringSubmatchIndex(low, -1) {
			acc, cue := low[m[4]:m[5]], low[m[2]:m[3]]
			after := strings.TrimSpace(low[m[5]:])
			if !chartAccounts[acc[:2]] || (len(acc) > 2 && (cue == "по" || cue == "на") && maybeDayMonth(acc)) ||
				hasAnyPrefix(after, notAccountFollowers) || (len(after) >= 3 && isDigits(after[:3])) {
				continue
			}
			hits = append(hits, hit{m[4], acc})
		}
		if len(hits) == 0 {
			for _, m := range accountBareRe.FindAllStringSubmatchIndex(low, -1) {
				if acc := low[m[2]:m[3]]; chartAccounts[acc[:2]] && !maybeDayMonth(acc) {
					hits = append(hits, hit{m[2], acc})
				}
			}
		}
	}
	if len(hits) == 0 {
		return "", nil
	}
	first := hits[0]
	for _, h := range hits {
		if h.pos < first.pos {
			first = h
		}
	}
	var others []string
	for _, h := range hits {
		if h.acc != first.acc && !slices.Contains(others, h.acc) {
			others = append(others, h.acc)
		}
	}
	return first.acc, others
}

// maybeDayMonth reports whether "dd.mm" could be a day and a month rather than a subaccount.
func maybeDayMonth(acc string) bool {
	d, m := atoiSmall(acc[:2]), atoiSmall(acc[3:])
	return d >= 1 && d <= 31 && m >= 1 && m <= 12
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// partyMention is a name in the question: a counterparty, or our organization when the
// phrase says so («по организации …», «от имени …», «в ООО «…»»).
type partyMention struct {
	raw        string
	start, end int
	org        bool
	// explicit is true for quoted names, names after a legal form and names after
	// «контрагент»; a capitalised word after «по», «у», «от», «для», «с» is not.
	explicit bool
}

// qtoken is a word or a punctuation mark of the question, with its byte span.
type qtoken struct {
	start, end int
	low        string // folded: lower case, ё→е
	word       bool
}

// tokenizeQuestion splits folded text into words and single punctuation marks. Inner
// hyphens, dots, slashes, ampersands and apostrophes stay inside a word («Гранит-М», «И.И»).
func tokenizeQuestion(low string) []qtoken {
	var toks []qtoken
	for i := 0; i < len(low); {
		r, w := utf8.DecodeRuneInString(low[i:])
		switch {
		case unicode.IsSpace(r):
			i += w
		case isNameRune(r):
			start := i
			for i += w; i < len(low); {
				r, w := utf8.DecodeRuneInString(low[i:])
				if isNameRune(r) {
					i += w
					continue
				}
				if strings.ContainsRune("-./&'’_", r) && i+w < len(low) {
					if r2, _ := utf8.DecodeRuneInString(low[i+w:]); isNameRune(r2) {
						i += w
						continue
					}
				}
				break
			}
			toks = append(toks, qtoken{start: start, end: i, low: low[start:i], word: true})
		default:
			toks = append(toks, qtoken{start: i, end: i + w, low: low[i : i+w]})
			i += w
		}
	}
	return toks
}

func isNameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

var legalForms = map[string]bool{"ооо": true, "оао": true, "зао": true, "пао": true, "ао": true, "нао": true,
	"ип": true, "нко": true, "ано": true, "гуп": true, "муп": true, "фгуп": true, "кфх": true}

// barePrepositions introduce a capitalised counterparty name: «по Альфе», «у Гранита».
var barePrepositions = map[string]bool{"по": true, "у": true, "от": true, "для": true, "с": true, "со": true}

// quoteClosers maps an opening quote to the marks that may close it.
var quoteClosers = map[string]string{"«": "»", "„": "“”", "“": "”“", "\"": "\"", "'": "'’", "‘": "’", "‚": "‘’"}

// nameStopwords end a name: prepositions, pronouns, question words, months and the words of
// the questions themselves. nameStopStems do the same by prefix.
var nameStopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`за на по с со от до в во и или а но у для к ко о об обо при через из изо между после
		перед без под над про что кто где когда как какие какой какая каких сколько нам нас мы наш наша наше наши
		нашей нашего нашему им их его ее он она они все всех всего весь вся это этот эта эти тот та те ли же бы не нет
		да г гг год года году лет ндс ндфл инн кпп руб рублей рубля тыс млн шт сегодня вчера завтра позавчера сейчас
		итого топ первые первых последние последних самые самых имени акт акта акты актов акту актом акте дата дате
		дату даты датой сумма сумме сумму суммы суммой суммам январь января январе февраль февраля феврале март
		марта марте апрель апреля апреле май мая мае июнь июня июне июль июля июле август августа августе сентябрь
		сентября сентябре октябрь октября октябре ноябрь ноября ноябре декабрь декабря декабре конец конца конце
		начало начала начале 1с ооо оао зао пао ао нао ип нко ано гуп муп фгуп кфх покажи выведи найди дай нужны
		нужен нужно надо пожалуйста спасибо`) {
		m[w] = true
	}
	return m
}()

var nameStopStems = []string{"документ", "платеж", "платежк", "оплат", "операци", "поступлен", "списан", "выписк",
	"остат", "сальдо", "договор", "счет", "сч.", "контрагент", "организаци", "период", "позици", "открыт",
	"незакрыт", "закрыт", "неоплач", "реализац", "сверк", "задолж", "долг", "должн", "дебитор", "кредитор",
	"банк", "расчетн", "квартал", "месяц", "недел", "отгруз", "накладн", "упд", "движен", "перечисл",
	"поставщик", "покупател", "клиент", "заказчик", "подрядчик", "компани", "фирм", "крупн", "алфавит",
	"наименован", "назван", "статус"}

func nameStop(w string) bool { return nameStopwords[w] || hasAnyPrefix(w, nameStopStems) }

// findPartyMentions finds names in the question in order. san is the sanitized question,
// low its folded, byte-aligned copy with contract numbers and INNs blanked.
func findPartyMentions(san, low string) []partyMention {
	toks := tokenizeQuestion(low)
	var out []partyMention
	add := func(start, end int, raw string, org, explicit bool) {
		out = append(out, partyMention{raw: strings.TrimSpace(raw), start: start, end: end, org: org, explicit: explicit})
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.word && legalForms[t.low]:
			org := orgCueBefore(toks, i) || prevWordIn(toks, i, "в", "во")
			if i+1 < len(toks) && quoteClosers[toks[i+1].low] != "" {
				if j := closeQuote(toks, i+1); j > 0 {
					add(t.start, toks[j].end, san[t.start:toks[j].end], org, true)
					i = j
				}
				continue
			}
			if end, next, ok := nameAfter(toks, i+1, san, false, false, 4); ok {
				add(t.start, end, san[t.start:end], org, true)
				i = next - 1
			}
		case !t.word && quoteClosers[t.low] != "":
			j := closeQuote(toks, i)
			if j < 0 {
				continue
			}
			if inner := strings.TrimSpace(san[t.end:toks[j].start]); inner != "" && startsWithNameRune(inner) {
				add(t.start, toks[j].end, inner, orgCueBefore(toks, i), true)
			}
			i = j
		case t.word && (orgCueAt(toks, i) || hasAnyPrefix(t.low, partyCueStems)):
			j := i + 1
			for j < len(toks) && !toks[j].word && strings.Contains(":—–-", toks[j].low) {
				j++
			}
			if j >= len(toks) || !toks[j].word || legalForms[toks[j].low] {
				continue
			}
			if end, next, ok := nameAfter(toks, j, san, true, false, 5); ok {
				add(toks[j].start, end, san[toks[j].start:end], orgCueAt(toks, i), true)
				i = next - 1
			}
		case t.word && (barePrepositions[t.low] || debtVerbs[t.low] || hasAnyPrefix(t.low, genitiveHeads)):
			if end, next, ok := nameAfter(toks, i+1, san, true, true, 3); ok {
				add(toks[i+1].start, end, san[toks[i+1].start:end], false, false)
				i = next - 1
			}
		}
	}
	return out
}

// genitiveHeads are nouns a capitalised counterparty name may follow in the genitive:
// «документы Альфы», «платежи Гранита».
var genitiveHeads = []string{"документ", "платеж", "операци", "долг", "задолженност", "остат", "сальдо", "позици",
	"оплат", "поступлени", "списани", "выписк", "реализаци", "договор", "счета", "дебитор", "кредитор"}

// debtVerbs may precede a capitalised counterparty in the nominative: «нам должна Альфа».
var debtVerbs = map[string]bool{"должен": true, "должна": true, "должно": true, "должны": true,
	"задолжал": true, "задолжала": true, "задолжали": true}

// partyCueStems are words after which a counterparty's name follows: «контрагент Альфа».
var partyCueStems = []string{"контрагент", "поставщик", "покупател", "клиент", "заказчик", "подрядчик"}

// orgCueAt reports whether toks[k] ends a phrase that names our own organization:
// «по организации», «от имени», «нашей компании».
func orgCueAt(toks []qtoken, k int) bool {
	if k < 0 || k >= len(toks) || !toks[k].word {
		return false
	}
	w := toks[k].low
	switch {
	case strings.HasPrefix(w, "организац"):
		return true
	case w == "имени":
		return prevWordIn(toks, k, "от")
	case strings.HasPrefix(w, "компани"), strings.HasPrefix(w, "фирм"), strings.HasPrefix(w, "юрлиц"):
		return k > 0 && toks[k-1].word && strings.HasPrefix(toks[k-1].low, "наш")
	}
	return false
}

// orgCueBefore reports whether an organization cue precedes toks[i], allowing a colon or dash between.
func orgCueBefore(toks []qtoken, i int) bool {
	k := i - 1
	for k >= 0 && !toks[k].word && strings.Contains(":—–-,", toks[k].low) {
		k--
	}
	return orgCueAt(toks, k)
}

func prevWordIn(toks []qtoken, i int, words ...string) bool {
	return i > 0 && toks[i-1].word && slices.Contains(words, toks[i-1].low)
}

// closeQuote returns the index of the mark closing the quote at toks[i], or -1.
func closeQuote(toks []qtoken, i int) int {
	open, closers := toks[i].low, quoteClosers[toks[i].low]
	depth := 0
	for j := i + 1; j < len(toks); j++ {
		s := toks[j].low
		switch {
		case toks[j].word:
		case open == "«" && s == "«":
			depth++
		case strings.Contains(closers, s):
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return -1
}

// nameAfter collects up to max words of a name starting at toks[i]. capFirst and capRest
// require a capital or Latin first letter of the first and of the following words. end is
// the byte end of the name, next the index after it.
func nameAfter(toks []qtoken, i int, san string, capFirst, capRest bool, max int) (end, next int, ok bool) {
	n := 0
	next = i
	for j := i; j < len(toks) && n < max; j++ {
		t := toks[j]
		if !t.word || nameStop(t.low) || (n == 0 && !startsWithLetter(t.low)) || isDigits(t.low) {
			break
		}
		if need := (n == 0 && capFirst) || (n > 0 && capRest); need && !capitalOrLatin(san[t.start:t.end]) {
			break
		}
		end, next, n = t.end, j+1, n+1
	}
	if n == 0 {
		return 0, i, false
	}
	// An initial's dot: «ИП Иванов И.И.».
	if next < len(toks) && toks[next].low == "." && isInitials(toks[next-1].low) {
		end, next = toks[next].end, next+1
	}
	return end, next, true
}

func startsWithLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

func startsWithNameRune(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isNameRune(r)
}

func capitalOrLatin(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) || (unicode.IsLetter(r) && unicode.Is(unicode.Latin, r))
}

// isInitials reports «и» or «и.и»: one or two single-letter initials.
func isInitials(w string) bool {
	parts := strings.Split(w, ".")
	if len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if utf8.RuneCountInString(p) != 1 {
			return false
		}
	}
	return true
}
