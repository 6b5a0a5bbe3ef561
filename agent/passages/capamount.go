package passages

// «потолок неустойки подрядчику за просрочку по полам», «на сколько максимум можно увеличить
// цену подряда допниками», «сервисных кредитов максимум сколько в месяц»: a clause caps a sum by
// a share of a base it names («не более 10 (десяти) процентов стоимости этапа», «Общее
// увеличение Цены Договора … не может превышать 10 (десяти) процентов», «не может превышать 15
// процентов абонентской платы без НДС»). The question asks the cap in roubles: the share of the
// base as the documents state it — the stage the question names (its row's cost), the contract's
// price, the monthly fee (without VAT when the clause says so) — or no answer computed when the
// base is not stated or not named once.

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var (
	// capShare: «но не более 10 (десяти) процентов стоимости этапа», «не более 10 % от
	// неоплаченной суммы», «не может превышать 15 (пятнадцать) процентов абонентской платы без
	// НДС»: the share and the words of its base.
	capShare = regexp.MustCompile(`(?i)(?:не\s+более|не\s+может\s+превышать|не\s+должен\s+превышать|не\s+может\s+быть\s+более)\s+(\d{1,2}(?:,\d{1,3})?)\s*(?:\([^)]{1,40}\)\s*)?(?:%|процент\p{L}*)\s*(?:\([^)]{1,40}\)\s*)?(?:от\s+)?((?:\p{L}+[\s,]*){1,6})`)
	// capOfIncrease: «Общее увеличение Цены Договора дополнительными соглашениями не может
	// превышать 10 (десяти) процентов»: the base is the sum whose increase is capped.
	capOfIncrease = regexp.MustCompile(`(?i)увеличени\p{L}*\s+((?:\p{L}+\s+){1,7}?)(?:не\s+может\s+превышать|не\s+должно\s+превышать|не\s+более)\s+(\d{1,2}(?:,\d{1,3})?)\s*(?:\([^)]{1,40}\)\s*)?(?:%|процент)`)
	// asksCapIn: the question asks the most a sum may come to, or a cap.
	asksCapIn = regexp.MustCompile(`(?i)максим\p{L}*|потолок|предел\p{L}*|предельн\p{L}*|самое\s+большее|не\s+больше\s+скольк|в\s+худшем`)
	// asksCapMoney: …in money («сколько», «в рублях», «на какую сумму», «на сколько»).
	asksCapMoney = regexp.MustCompile(`(?i)(^|[^\p{L}])(сколько|скока|скоко|в\s+рублях|руб\p{L}*|сумм\p{L}*|на\s*сколько|какой|какая|потолок)([^\p{L}]|$)`)
	// asksIncrease: the question asks how far a sum may grow.
	asksIncrease = regexp.MustCompile(`(?i)увелич\p{L}*|повы\p{L}*|подня\p{L}*|рост\p{L}*|доп\p{L}*\s+соглаш|допник`)
	// contractPrice: «Цена Договора составляет 4 860 000,00», «Общая стоимость Договора — …».
	// «Стоимость услуг по Договору составляет 951 600,00», «Общая сумма Договора — …».
	contractPrice = regexp.MustCompile(`(?i)(?:цена|стоимость|сумма)(?:\s+(?:услуг|работ|товара))?\s+(?:по\s+)?договор\p{L}*[^.;]{0,60}?(?:составляет|—|-|:)\s*(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})`)
)

// capBase is what a cap's share is counted from, by the words after it: a row of the
// contract's table, the contract's price, its monthly fee; "" for a base this file does not
// state (an unpaid sum the question does not give, the cost of a transport).
func capBase(words string) string {
	w := strings.ToLower(words)
	switch {
	case rowCostBase.MatchString("от " + w):
		return "row"
	case strings.HasPrefix(w, "цены договора") || strings.HasPrefix(w, "цену договора") || strings.HasPrefix(w, "стоимости договора") ||
		strings.HasPrefix(w, "суммы договора") || strings.HasPrefix(w, "цена договора"):
		return "price"
	case strings.HasPrefix(w, "абонентской платы") || strings.HasPrefix(w, "ежемесячной платы") || strings.HasPrefix(w, "ежемесячной абонентской"):
		return "monthly"
	}
	return ""
}

// capAmountFor is the line (Markdown) that computes a cap the documents state by a share of a
// base, in roubles, and the units it is computed from (the cap's clause first); "" when the
// question asks no cap in money, gives figures of its own (penaltyFor counts those), or no
// clause among the best caps a sum by a share of a base stated once.
func capAmountFor(q Question, hits []library.ClauseHit, rds []*readDoc, place func(library.ClauseHit) string) (string, []library.ClauseHit) {
	text := strings.ToLower(q.Text)
	if len(hits) == 0 || !asksCapIn.MatchString(text) || !asksCapMoney.MatchString(text) || askedAmount(text, -1) != nil ||
		askedDays.MatchString(text) || whatIf(q.Text) {
		return "", nil
	}
	increase := asksIncrease.MatchString(text) && !askedPenalty.MatchString(text)
	esc := md.Escape
	unresolved := false // a better clause caps a sum no document states
	// The best clauses, then — the question naming the document — its other clauses in their
	// order: «на какую сумму максимум отвечает исполнитель по ит договору» has few words of
	// «Совокупная ответственность Исполнителя … ограничена суммой …».
	var cands []library.ClauseHit
	for _, h := range hits[:min(len(hits), 6)] {
		if h.Score < hits[0].Score*weakPenalty {
			break
		}
		cands = append(cands, h)
	}
	if hits[0].Named {
		for _, u := range rds[hits[0].Doc].cd.Units {
			cands = append(cands, library.ClauseHit{Doc: hits[0].Doc, Unit: u, Named: true})
		}
	}
	for _, h := range cands {
		if hits[0].Named && h.Doc != hits[0].Doc || h.Unit.Kind != library.UnitClause {
			continue
		}
		t := currentText(rds, h.Doc, h.Unit)
		var pct, words string
		if increase {
			m := capOfIncrease.FindStringSubmatch(t)
			if m == nil {
				continue
			}
			words, pct = m[1], m[2]
		} else {
			if !capOfAsked(text, t) {
				continue // a cap of what the question does not ask about
			}
			m := capShare.FindStringSubmatch(t)
			if m == nil {
				// «Совокупная ответственность … ограничена суммой абонентской платы за 3 (три)
				// месяца»: so many months of the monthly payment
				mm := capMonths.FindStringSubmatch(t)
				if mm == nil {
					continue
				}
				n := monthWords[strings.ToLower(mm[1])]
				if v, err := strconv.Atoi(mm[1]); err == nil {
					n = v
				}
				k, basis, what, ok := monthlyBase(rds, h.Doc, strings.Contains(strings.ToLower(mm[0]), "без ндс"))
				if !ok || n <= 0 || unresolved {
					return "", nil
				}
				return esc(fmt.Sprintf("Предел — плата за %d мес. (%s): %d × %s = ", n, place(h), n, ru.Money(k))) + "**" + esc(ru.Money(k*int64(n))) + "**" +
					esc(" ("+what+" — "+place(basis)+")."), []library.ClauseHit{h, basis}
			}
			pct, words = m[1], m[2]
		}
		r, ok := new(big.Rat).SetString(strings.ReplaceAll(pct, ",", "."))
		if !ok {
			continue
		}
		// The best clause that caps what is asked decides: its base stated, or no computation
		// (a lower one caps another sum) — unless the lower one is counted from the row the
		// question names («по полам»: the stage's cost) and the better one from a sum no
		// document states (an unpaid sum).
		var base int64
		var basis library.ClauseHit
		var what string
		kind := capBase(words)
		if unresolved && kind != "row" {
			return "", nil
		}
		switch kind {
		case "":
			unresolved = true
			continue
		case "row":
			k, row, ok := rowCost(q, hits, h.Doc)
			if !ok {
				// the row the question names by a word of its own («по полам»), though
				// the ranking put it below the clauses
				if k, row, ok = rowNamed(q, rds, h.Doc); !ok {
					return "", nil
				}
			}
			base, basis, what = k, row, "стоимость «"+rowLabel(row.Unit)+"»"
		case "price":
			k, at, ok := contractPriceOf(rds, h.Doc)
			if !ok {
				return "", nil
			}
			base, basis, what = k, at, "цена договора"
		case "monthly":
			k, at, w, ok := monthlyBase(rds, h.Doc, strings.Contains(strings.ToLower(words), "без ндс"))
			if !ok {
				return "", nil
			}
			base, basis, what = k, at, w
		}
		if base == 0 {
			return "", nil
		}
		share := ru.Kopecks(new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(base, 100), r), big.NewRat(100, 1)))
		units := []library.ClauseHit{h, basis}
		if increase {
			return esc("Увеличение — не более "+pct+" %: "+ru.Money(base)+" × "+pct+" % = ") + "**" + esc(ru.Money(share)) + "**" +
				esc(", то есть до "+ru.Money(base+share)+" ("+place(h)+"; "+what+" — "+place(basis)+")."), units
		}
		return esc("Предел — "+pct+" % ("+place(h)+"): "+ru.Money(base)+" × "+pct+" % = ") + "**" + esc(ru.Money(share)) + "**" +
			esc(" ("+what+" — "+place(basis)+")."), units
	}
	return "", nil
}

// capMonths: «ограничена суммой абонентской платы за 3 (три) месяца», «… без НДС за 3 месяца».
var capMonths = regexp.MustCompile(`(?i)ограничен\p{L}*\s+(?:суммой\s+)?(?:\p{L}+\s+)?плат\p{L}*(?:\s+без\s+НДС)?\s+за\s+(\d{1,2}|один|одни|два|две|три|четыре|шесть|двенадцать)\s*(?:\([^)]{1,20}\)\s*)?(?:календарн\p{L}*\s+)?месяц`)

// liabilityAsked: the question asks how far a side answers («отвечает», «ответственность»).
var liabilityAsked = regexp.MustCompile(`(?i)ответствен\p{L}*|отвеча\p{L}*`)

// capOfAsked reports whether clause caps what question asks about: a side's liability, a
// penalty, service credits — else a sum the clause names by a word of the question.
func capOfAsked(question, clause string) bool {
	c := strings.ToLower(clause)
	switch {
	case liabilityAsked.MatchString(question):
		return strings.Contains(c, "ответственност")
	case askedPenalty.MatchString(question):
		return askedPenalty.MatchString(c)
	case strings.Contains(question, "кредит"):
		return strings.Contains(c, "кредит")
	}
	return sharedWords(question, clause) > 0
}

// monthlyBase is document doc's monthly payment as it reads now — without its VAT when net —,
// the unit that states it and what it is called; ok is false when the document states none, or
// no VAT within it when net is asked.
func monthlyBase(rds []*readDoc, doc int, net bool) (int64, library.ClauseHit, string, bool) {
	u, k, ok := monthlyNow(rds, doc)
	if !ok {
		return 0, library.ClauseHit{}, "", false
	}
	at := library.ClauseHit{Doc: doc, Unit: u}
	if !net {
		return k, at, "ежемесячная плата", true
	}
	k, ok = netOfMonthly(currentText(rds, doc, u), k)
	return k, at, "ежемесячная плата без НДС", ok
}

// monthlyVAT: «…, в том числе НДС 22 % — 23 100,00 рубля».
var monthlyVAT = regexp.MustCompile(`(?i)в\s+том\s+числе\s+НДС[^.;]{0,30}?(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})`)

// netOfMonthly is a monthly payment without the VAT its clause says it includes; ok is false
// when the clause states no VAT within it.
func netOfMonthly(text string, gross int64) (int64, bool) {
	if shareNoVAT.MatchString(text) && !monthlyVAT.MatchString(text) {
		return gross, true // the fee is stated without VAT
	}
	m := monthlyVAT.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	vat, ok := kopecks(m[1])
	if !ok || vat >= gross {
		return 0, false
	}
	return gross - vat, true
}

// rowNamed is the cost of the one row of document doc's tables whose name shares a word with
// the question («полам» — «Устройство наливного полиуретанового пола»), in kopecks, and the
// row; ok is false when no row or several share as many words, or the row states no cost.
func rowNamed(q Question, rds []*readDoc, doc int) (int64, library.ClauseHit, bool) {
	qw := strings.FieldsFunc(strings.ToLower(q.Text), func(r rune) bool { return !unicode.IsLetter(r) })
	// The most words shared, then the larger share of the row's name: «полам» is the stage
	// «Устройство наливного полиуретанового пола» rather than «Демонтаж покрытия пола и кровли, …».
	best, bestDensity, runnerUp := 0, 0.0, 0.0
	var bestHit library.ClauseHit
	var bestCost int64
	for _, u := range rds[doc].cd.Units {
		if u.Kind != library.UnitRow || u.Number == "" {
			continue
		}
		h := library.ClauseHit{Doc: doc, Unit: u}
		k, ok := costCell(h)
		if !ok {
			continue
		}
		n := 0
		label := strings.FieldsFunc(strings.ToLower(rowLabel(u)), func(r rune) bool { return !unicode.IsLetter(r) })
		for _, rw := range label {
			for _, w := range qw {
				if sameWord(w, rw) {
					n++
					break
				}
			}
		}
		density := float64(n) / float64(max(len(label), 1))
		switch {
		case n == 0:
		case n > best:
			best, bestDensity, runnerUp, bestHit, bestCost = n, density, 0, h, k
		case n == best && density > bestDensity:
			runnerUp, bestDensity, bestHit, bestCost = bestDensity, density, h, k
		case n == best:
			runnerUp = max(runnerUp, density)
		}
	}
	// …by a clear margin: «кровлю» is as much of «Устройство кровли из ПВХ-мембраны с
	// утеплением» as of the demolition «… пола и кровли, …» — which is meant?
	tied := runnerUp > 0 && bestDensity < runnerUp*1.5
	if best < 1 || tied {
		return 0, library.ClauseHit{}, false
	}
	return bestCost, bestHit, true
}

// sameWord reports whether two words are forms of one («полам», «пола», «полы»; «кровлю»,
// «кровли»): three letters or more, sharing all but the last letter of the shorter one.
func sameWord(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < 3 || len(rb) < 3 || rowStop[a] || rowStop[b] {
		return false
	}
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	// …and of about one length: «пол» is no form of «полиуретанового»
	return n >= max(3, min(len(ra), len(rb))-1) && (n >= 5 || max(len(ra), len(rb))-min(len(ra), len(rb)) <= 3)
}

// rowStop are short words every question and row may hold.
var rowStop = map[string]bool{"для": true, "без": true, "при": true, "что": true, "как": true, "под": true, "над": true,
	"это": true, "все": true, "всё": true, "наш": true, "или": true, "так": true, "там": true, "тот": true}

var (
	// rowShare: a share of a row's cost a clause sets («аванс в размере 30 % (тридцати
	// процентов) стоимости каждого этапа», «удерживает 5 (пять) процентов стоимости этапа»).
	rowShare = regexp.MustCompile(`(?i)(\d{1,2}(?:,\d{1,3})?)\s*(?:\([^)]{1,40}\)\s*)?(?:%|процент\p{L}*)\s*(?:\([^)]{1,40}\)\s*)?(?:от\s+)?стоимости\s+(?:каждого\s+|этого\s+|соответствующего\s+|данного\s+)?(этапа|партии|позиции)`)
	// stageNumber: the row a question names by its number («по 3 этапу», «этап 2», «2-й этап»).
	stageNumber = regexp.MustCompile(`(?i)(?:^|[^\d])(\d{1,2})\s*(?:-?\s*(?:й|му|го|ому|ему|ый|ой))?\s*(этап|парти|позици)\p{L}*|(этап|парти|позици)\p{L}*\s*(?:№\s*)?(\d{1,2})(?:[^\d]|$)`)
	// ordinalWords: a row named by its ordinal («второму этапу», «третьей партии»).
	ordinalWords = regexp.MustCompile(`(?i)(перв|втор|трет|четв[её]рт|пят|шест|седьм|восьм|девят|десят)\p{L}*\s+(этап|парти|позици)\p{L}*`)
)

// asksWhenOrDays: the question asks a term or a day, not a sum («сколько дней», «когда»).
var asksWhenOrDays = regexp.MustCompile(`(?i)(^|[^\p{L}])(дн\p{L}*|день|срок\p{L}*|когда|числ\p{L}*)([^\p{L}]|$)`)

// lessShares: the question asks a sum less shares of it («за минусом», «за вычетом», «без учёта»).
var lessShares = regexp.MustCompile(`(?i)за\s+минусом|за\s+вычетом|минус|без\s+уч[её]та|после\s+вычета|с\s+уч[её]том\s+(зач[её]та|удержан)`)

var ordinalStems = map[string]int{"перв": 1, "втор": 2, "трет": 3, "четверт": 4, "четвёрт": 4, "пят": 5, "шест": 6, "седьм": 7, "восьм": 8, "девят": 9, "десят": 10}

// numberedRow is the row of document doc's tables numbered n under a header that numbers its
// rows by what they are («Этап», «№ этапа»), with its cost; ok is false when there is not one.
func numberedRow(rds []*readDoc, doc, n int, noun string) (int64, library.ClauseHit, bool) {
	var found []library.ClauseHit
	for _, u := range rds[doc].cd.Units {
		if u.Kind != library.UnitRow || u.Number != strconv.Itoa(n) {
			continue
		}
		first := strings.ToLower(strings.TrimSpace(headerCells(u)[0]))
		if !strings.Contains(first, noun) {
			continue
		}
		found = append(found, library.ClauseHit{Doc: doc, Unit: u})
	}
	if len(found) != 1 {
		return 0, library.ClauseHit{}, false
	}
	k, ok := costCell(found[0])
	return k, found[0], ok
}

// rowShareFor is the line (Markdown) that computes the share of a row's cost a clause sets —
// «аванс аудиторам по 3 этапу сколько» with «аванс … 30 % стоимости каждого этапа» and the third
// stage's cost — and the units it is computed from; "" when the question asks no amount, gives
// figures of its own, or names no row the documents price, or no clause among the best sets such
// a share of what the question asks.
func rowShareFor(q Question, hits []library.ClauseHit, rds []*readDoc, place func(library.ClauseHit) string) (string, []library.ClauseHit) {
	text := strings.ToLower(q.Text)
	if len(hits) == 0 || !asksHowMuch.MatchString(q.Text) || askedAmount(text, -1) != nil || askedDays.MatchString(text) || whatIf(q.Text) ||
		asksWhenOrDays.MatchString(text) {
		return "", nil // «сколько у нас дней подписать акт»: a term, not a sum
	}
	if loc := lessShares.FindStringIndex(text); loc != nil {
		// «за 2 этап за минусом зачёта аванса и гарантийки»: what is left of the row's cost
		return rowLessShares(q, text[loc[1]:], hits, rds, place)
	}
	for _, h := range hits[:min(len(hits), 6)] {
		if h.Score < hits[0].Score*weakPenalty {
			break
		}
		t := currentText(rds, h.Doc, h.Unit)
		m := rowShare.FindStringSubmatchIndex(t)
		if m == nil || perDay.MatchString(t) || capBefore.MatchString(t[max(0, m[0]-40):m[0]]) || !namesShare(q.Text, t) {
			continue // no share of a row, a penalty's, a cap's, or not of what is asked («аванс», «гарантийка»)
		}
		pct := t[m[2]:m[3]]
		noun := strings.ToLower(t[m[4]:m[5]])[:5] // «этапа» — «этап», «партии» — «парти»
		cost, row, ok := rowAsked(q, text, rds, h.Doc, noun)
		if !ok {
			return "", nil // the share is the asked one, its row is not named once
		}
		r, okR := new(big.Rat).SetString(strings.ReplaceAll(pct, ",", "."))
		if !okR {
			return "", nil
		}
		share := ru.Kopecks(new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(cost, 100), r), big.NewRat(100, 1)))
		esc := md.Escape
		return esc(pct+" % × "+ru.Money(cost)+" (стоимость «"+rowLabel(row.Unit)+"» — "+place(row)+") = ") + "**" + esc(ru.Money(share)) + "**" +
			esc(" (расчёт по "+place(h)+")."), []library.ClauseHit{h, row}
	}
	return "", nil
}

// rowAsked is the row of document doc's table of noun («этап», «парти», «позиц») the question
// names — by its number, its ordinal or a word of its name — with its cost.
func rowAsked(q Question, text string, rds []*readDoc, doc int, noun string) (int64, library.ClauseHit, bool) {
	n := 0
	if sm := stageNumber.FindStringSubmatch(text); sm != nil {
		if sm[1] != "" {
			n, _ = strconv.Atoi(sm[1])
		} else {
			n, _ = strconv.Atoi(sm[4])
		}
	} else if om := ordinalWords.FindStringSubmatch(text); om != nil {
		n = ordinalStems[strings.ReplaceAll(om[1], "ё", "е")]
	}
	if n > 0 {
		return numberedRow(rds, doc, n, strings.TrimSuffix(noun, "а"))
	}
	return rowNamed(q, rds, doc)
}

// rowLessShares is the line (Markdown) that computes what is left of the cost of the row the
// question names less the shares of it the clauses its words after «за минусом» name («зачёт
// аванса» — «удерживается 30 процентов стоимости этого этапа в счёт зачёта аванса»,
// «гарантийки» — «5 процентов стоимости этапа в качестве гарантийного удержания»), and the units;
// "" unless each named share is one clause's and the row is named once.
func rowLessShares(q Question, less string, hits []library.ClauseHit, rds []*readDoc, place func(library.ClauseHit) string) (string, []library.ClauseHit) {
	doc := namedDoc(hits)
	var shares []library.ClauseHit
	var pcts []string
	noun := ""
	for _, u := range rds[doc].cd.Units {
		t := currentText(rds, doc, u)
		m := rowShare.FindStringSubmatchIndex(t)
		if m == nil || perDay.MatchString(t) || capBefore.MatchString(t[max(0, m[0]-40):m[0]]) || !namesShare(less, t) {
			continue
		}
		shares, pcts = append(shares, library.ClauseHit{Doc: doc, Unit: u}), append(pcts, t[m[2]:m[3]])
		noun = strings.ToLower(t[m[4]:m[5]])[:5]
	}
	if len(shares) == 0 || len(shares) > 3 {
		return "", nil
	}
	cost, row, ok := rowAsked(q, strings.ToLower(q.Text), rds, doc, noun)
	if !ok {
		return "", nil
	}
	esc := md.Escape
	line := esc(ru.Money(cost) + " (стоимость «" + rowLabel(row.Unit) + "» — " + place(row) + ")")
	left := cost
	for i, p := range pcts {
		r, ok := new(big.Rat).SetString(strings.ReplaceAll(p, ",", "."))
		if !ok {
			return "", nil
		}
		part := ru.Kopecks(new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(cost, 100), r), big.NewRat(100, 1)))
		left -= part
		line += esc(" − " + p + " % (" + ru.Money(part) + ", " + place(shares[i]) + ")")
	}
	return line + esc(" = ") + "**" + esc(ru.Money(left)) + "**" + esc("."), append([]library.ClauseHit{row}, shares...)
}

// shareGeneric are words every deduction's clause may hold: they name none of them.
var shareGeneric = map[string]bool{"удерж": true, "зачет": true, "зачёт": true, "вычет": true, "стоим": true, "оплат": true, "сумма": true, "суммы": true,
	"этапа": true, "этапу": true, "этапо": true, "сколь": true, "скока": true, "переч": true}

// namesShare reports whether the words after «за минусом» name the share clause t sets by a
// word of its own (first five letters: «гарантийки» — «гарантийного»), not a generic one.
func namesShare(less, t string) bool {
	tl := strings.ToLower(t)
	for _, w := range strings.FieldsFunc(strings.ToLower(less), func(r rune) bool { return !unicode.IsLetter(r) }) {
		r := []rune(w)
		if len(r) < 5 || shareGeneric[string(r[:5])] {
			continue
		}
		if strings.Contains(tl, string(r[:5])) {
			return true
		}
	}
	return false
}
