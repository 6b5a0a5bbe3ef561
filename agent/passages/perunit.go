package passages

import (
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

// What a clause prices per unit of something — «1 500 (одна тысяча пятьсот) рублей за каждый
// день», «2 440,00 руб. за 1 час», «12 рублей за 1 км» — times the quantity the question gives
// («за 5 дней», «7 часов», «300 км»).

var (
	// perUnitPrice: an amount in roubles, then within a few words what it is per.
	perUnitPrice = regexp.MustCompile(`(?i)(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*(?:,\d{2})?)\s*(?:\([^()]{1,80}\)\s*)?(?:руб\p{L}*\.?|₽)(?:\s*\d{2}\s*коп\p{L}*\.?)?[^.;:]{0,60}?(?:за\s+(?:каждый|каждые|1|один|одни)\s*(?:\([^()]{1,20}\)\s*)?|в\s+)(календарн\p{L}*\s+|рабоч\p{L}*\s+)?(день|дня|сутки|час|км|километр|месяц|кв\.\s*м)`)
	// askedQuantity: the quantity the question gives: «за 5 дней», «7 часов», «300 км».
	askedQuantity = regexp.MustCompile(`(?i)(\d{1,4})\s*(дн\p{L}*|день|сут\p{L}*|час\p{L}*|ч\.?(?:\s|$)|км|километр\p{L}*|месяц\p{L}*|мес\.?|кв\.?\s*м|м2|м²|квм|шт\p{L}*\.?|штук\p{L}*)`)
	// askedMonths: a span of months the question names in words («за год», «за квартал»).
	askedMonths = regexp.MustCompile(`(?:^|\s)за\s+(год|квартал|полгода|полугодие)(?:\s|$|\?)`)
	// monthlyPrice: a monthly payment's amount, exact to the kopeck.
	monthlyPrice = regexp.MustCompile(`(?i)ежемесячн\p{L}*[^.;]{0,80}?(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})`)
	// moneyCellText is a table cell that is an amount with kopecks («2 440,00»).
	moneyCellText = regexp.MustCompile(`^\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2}$`)
)

// oneWay: a distance the question gives one way («350 км в одну сторону»).
var oneWay = regexp.MustCompile(`(?i)в\s+одну\s+сторону|в\s+один\s+конец`)

// threshold: words of the amount's sentence that make it a limit («превышающей», «не более»),
// and limitBefore a preposition right before it («до 700 рублей»).
var (
	threshold   = regexp.MustCompile(`(?i)превыша|свыше|сверх\s+\d|не\s+более|не\s+менее|лимит|предел`)
	limitBefore = regexp.MustCompile(`(?i)(^|\s)(до|от)\s*$`)
)

// countedThings: a figure with what it counts («2 чел», «2 часа», «170 км»), a date's or an
// amount's digits aside.
var countedThings = regexp.MustCompile(`(?i)(?:^|[^\d.,])\d{1,4}\s*(?:-?\s*(?:х|ти|и|ми|ух|ех|ёх))?\s*(?:чел\p{L}*|люд\p{L}*|грузчик\p{L}*|рабоч\p{L}*|сотрудник\p{L}*|машин\p{L}*|смен\p{L}*|дн\p{L}*|день|сут\p{L}*|час\p{L}*|ч\b|км|километр\p{L}*|мес\p{L}*|кв\.?\s*м|м2|м²|шт\p{L}*|штук\p{L}*|раз\p{L}*)`)

// compoundHour: an hour of something, as a tariff's unit cell writes it («маш.-час»,
// «чел.-ч.»).
var compoundHour = regexp.MustCompile(`^\p{L}{2,4}\.?\s*-\s*ч(ас)?\.?$`)

var monthsIn = map[string]int{"год": 12, "квартал": 3, "полгода": 6, "полугодие": 6}

// perUnitKind is what a price or a quantity counts: day, hour, km, month, m².
func perUnitKind(w string) string {
	w = strings.ToLower(w)
	switch {
	case strings.HasPrefix(w, "д"), strings.HasPrefix(w, "сут"):
		return "day"
	case strings.HasPrefix(w, "час"), strings.TrimRight(w, ". ") == "ч":
		return "hour"
	case strings.HasPrefix(w, "км"), strings.HasPrefix(w, "километр"):
		return "km"
	case strings.HasPrefix(w, "мес"):
		return "month"
	case strings.HasPrefix(w, "кв"), w == "м2", w == "м²":
		return "m2"
	case compoundHour.MatchString(w):
		return "hour" // «маш.-час», «чел.-ч»: an hour of a machine, of a worker
	case strings.HasPrefix(w, "шт"):
		return "piece"
	}
	return ""
}

// perUnitFor is the line (Markdown) that multiplies the best unit's price per day, hour, km,
// month or m² by the quantity the question gives in the same measure; "" when the question
// gives none or the units price nothing so.
func perUnitFor(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string) string {
	var n int
	var kind string
	if qm := askedQuantity.FindStringSubmatch(q.Text); qm != nil {
		n, _ = strconv.Atoi(qm[1])
		kind = perUnitKind(qm[2])
	} else if pm := askedMonths.FindStringSubmatch(strings.ToLower(q.Text)); pm != nil {
		n, kind = monthsIn[pm[1]], "month" // «аренда за год»: twelve monthly payments
	}
	if n <= 0 || kind == "piece" {
		return piecesFor(q, hits, place) // «5 шт»: the row's prices with and without VAT
	}
	if len(countedThings.FindAllString(q.Text, -1)) > 1 {
		return "" // «грузчики 2 чел на 2 часа»: quantities multiplied, each priced otherwise
	}
	for _, h := range hits[:min(len(hits), 2)] {
		if h.Unit.Kind == library.UnitRow {
			// A price list's or a tariff's row: «Выездные работы … | час | 2 440,00»: the unit
			// cell, then the first amount after it (a quantity may stand between).
			cells := strings.Split(h.Unit.Text, " | ")
			for i, c := range cells {
				if perUnitKind(strings.TrimSpace(c)) != kind || len([]rune(strings.TrimSpace(c))) > 5 && !compoundHour.MatchString(strings.ToLower(strings.TrimSpace(c))) {
					continue
				}
				for j := i + 1; j < len(cells); j++ {
					p := strings.TrimSpace(cells[j])
					if !moneyCellText.MatchString(p) {
						continue
					}
					if k, ok := kopecks(p); ok {
						if kind == "km" && bothWays.MatchString(h.Unit.Text) && !bothWays.MatchString(q.Text) && !oneWay.MatchString(q.Text) {
							// «Оплачивается пробег в обе стороны»: the distance asked is one way
							return md.Escape(fmt.Sprintf("Оплачивается пробег в обе стороны: %d × 2 = %d км; ", n, 2*n)) + timesLine("", k, 2*n, "", place(h)) + grossOfRow(h.Unit, 2*n, j)
						}
						if least := rowMinimum(h.Unit); least > n {
							// «мойка окон 35 кв.м» with «Минимальный объём 50 кв. м»: the minimum is paid
							return md.Escape(fmt.Sprintf("Оплачивается минимальный объём %d вместо %d; ", least, n)) + timesLine("", k, least, "", place(h)) + grossOfRow(h.Unit, least, j)
						}
						return timesLine("", k, n, "", place(h)) + grossOfRow(h.Unit, n, j)
					}
				}
				break
			}
			continue
		}
		if kind == "month" {
			// «Ежемесячная арендная плата … составляет 185 760,00 (…) рублей»
			if m := monthlyPrice.FindStringSubmatch(h.Unit.Text); m != nil {
				if k, what, ok := vatPart(q, h.Unit.Text, m[1]); ok {
					return timesLine(what, k, n, " мес.", place(h))
				}
				continue
			}
		}
		for _, m := range perUnitPrice.FindAllStringSubmatch(h.Unit.Text, -1) {
			if perUnitKind(m[3]) != kind {
				continue
			}
			at := strings.Index(h.Unit.Text, m[0])
			sentence := h.Unit.Text[strings.LastIndexAny(h.Unit.Text[:at], ".;")+1 : at]
			if threshold.MatchString(sentence) || limitBefore.MatchString(sentence) {
				continue // «в части, превышающей 700 рублей … и 2 500 рублей за каждый день»: a limit, not a price
			}
			price, ok := new(big.Rat).SetString(strings.NewReplacer(" ", "", "\u00a0", "", ",", ".").Replace(m[1]))
			if !ok {
				continue
			}
			if asksVAT(q) {
				if k, _, ok := vatPart(q, h.Unit.Text, m[1]); ok {
					price = big.NewRat(k, 100)
				} else {
					return "" // the VAT of a price the clause does not split
				}
			}
			k := ru.Kopecks(price) // at most two decimals: exact in kopecks
			line := timesLine("", k, n, "", place(h))
			if kind == "km" && oneWay.MatchString(q.Text) {
				// «350 км в одну сторону»: a trip goes there and back
				esc := md.Escape
				line = strings.TrimSuffix(line, esc(" ("+basis(place(h))+")."))
				line += esc(fmt.Sprintf("; туда и обратно: %s × %d = ", ru.Money(k), 2*n)) + "**" + esc(ru.Money(k*int64(2*n))) + "**" +
					esc(" ("+basis(place(h))+").")
			}
			return line
		}
	}
	return ""
}

// bothWays: a distance paid there and back («пробег в обе стороны», «туда и обратно»).
var bothWays = regexp.MustCompile(`(?i)в\s+обе\s+стороны|туда\s+и\s+обратно`)

// grossOfRow is the line (Markdown) that adds a tariff row's price with VAT times n, when the row
// has a column of it beside the one without (priced, the cell counted): «С НДС: 67,10 ₽ × 90 =
// 6 039,00 ₽».
func grossOfRow(u library.Unit, n, priced int) string {
	header := headerCells(u)
	cells := strings.Split(u.Text, " | ")
	for i, hd := range header {
		l := strings.ToLower(hd)
		if i < len(cells) && i != priced && strings.Contains(l, "с ндс") && moneyCellText.MatchString(strings.TrimSpace(cells[i])) {
			if k, ok := kopecks(strings.TrimSpace(cells[i])); ok {
				return " " + md.Escape(fmt.Sprintf("С НДС: %s × %d = ", ru.Money(k), n)) + "**" + md.Escape(ru.Money(k*int64(n))) + "**" + md.Escape(".")
			}
		}
	}
	return ""
}

// rowMinimum is the minimum order a tariff's row states under a header of it («Минимальный
// объём»: «50 кв. м», «Мин. заказ, ед.»: «3»); 0 when none.
func rowMinimum(u library.Unit) int {
	header := headerCells(u)
	cells := strings.Split(u.Text, " | ")
	for i, hd := range header {
		if i < len(cells) && strings.Contains(strings.ToLower(hd), "мин") {
			if m := leadingCount.FindStringSubmatch(strings.TrimSpace(cells[i])); m != nil {
				n, _ := strconv.Atoi(strings.Join(strings.Fields(m[1]), ""))
				return n
			}
		}
	}
	return 0
}

// leadingCount: a whole number opening a cell («50 кв. м», «3»).
var leadingCount = regexp.MustCompile(`^(\d{1,3}(?:[ \x{00a0}]\d{3})*|\d+)(?:\s|$)`)

// untilWhat: a follow-up that ends on «до» («а за декабрь значит до?»): until when.
var untilWhat = regexp.MustCompile(`(?i)(^|\s)до\s*\?*\s*$`)

// nextMonthDay: «не позднее 15-го числа месяца, следующего за истекшим процентным периодом»,
// «не позднее 15-го числа каждого месяца», «до 10 числа следующего месяца»,
// «до 25 числа месяца, следующего за отчётным кварталом», «не позднее 5-го числа текущего месяца».
var nextMonthDay = regexp.MustCompile(`(?i)(?:не\s+позднее|до)\s+(\d{1,2})[-\s]?(?:го|ого)?\s*(?:\([^()]{1,30}\)\s*)?числа\s+(?:(месяца,?\s+следующего\s+за|следующего\s+(?:за\s+\p{L}+\s+)?месяца)|(текущего|оплачиваемого|расчётного|расчетного|каждого)\s+(?:\([^()]{1,30}\)\s*)?месяца|(месяца,?\s+предшествующего))`)

// nthWorkingDay: «не позднее 5-го рабочего дня месяца, следующего за отчётным», «не позднее
// 3-го рабочего дня следующего месяца».
var nthWorkingDay = regexp.MustCompile(`(?i)(?:не\s+позднее|до)\s+(\d{1,2})[-\s]?(?:го|ого)?\s*(?:\([^()]{1,30}\)\s*)?рабочего\s+дня\s+(?:месяца,?\s+следующего\s+за|следующего\s+месяца)`)

// dueDayFor is the line (Markdown) that dates a deadline a clause sets by the day of a month
// from the period the question names: «проценты за 3 квартал до какого числа» with «не позднее
// 15-го числа месяца, следующего за истекшим процентным периодом» is 15.10.2026; a day off moves
// it to the next working day (Civil Code art. 193).
func dueDayFor(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string, unitsOf func(doc int) []library.Unit) string {
	// «за ноябрь значит когда» after «агентский отчёт до какого числа сдают»: the follow-up names
	// the period, the question it continues asked the deadline
	// …or «а декабрь» after «за ноябрь клининг сколько и до какого платим»: a month alone
	elliptical := len(strings.Fields(q.Text)) <= 3 && askedDeadline.MatchString(q.Continues)
	if q.Now.IsZero() || !askedDeadline.MatchString(q.Text) && !((askedWhen.MatchString(q.Text) || untilWhat.MatchString(q.Text) || elliptical) && askedDeadline.MatchString(q.Continues)) {
		return ""
	}
	p, ok := termMonth(q.Text, q.Now) // «январскую аренду когда платим»: the January to come
	if !ok || p.Single() {
		return ""
	}
	esc := md.Escape
	for _, h := range hits[:min(len(hits), 3)] {
		if w := nthWorkingDay.FindStringSubmatch(h.Unit.Text); w != nil {
			// the n-th working day of the month after the period the question names
			n, _ := strconv.Atoi(w[1])
			if n < 1 || n > 23 {
				continue
			}
			day := time.Date(p.To.Year(), p.To.Month()+1, 1, 0, 0, 0, 0, ru.Moscow)
			for day = workingDayFrom(day); n > 1; n-- {
				day = workingDayFrom(day.AddDate(0, 0, 1))
			}
			return esc("Срок: не позднее ") + "**" + esc(day.Format("02.01.2006")) + "**" +
				esc(fmt.Sprintf(" (%s-й рабочий день месяца, следующего за периодом %s–%s; выходные и праздники по Трудовому кодексу, переносы выходных проверьте по производственному календарю; %s).",
					w[1], p.From.Format("02.01.2006"), p.To.Format("02.01.2006"), basis(place(h))))
		}
		m := nextMonthDay.FindStringSubmatch(h.Unit.Text)
		if m == nil {
			continue
		}
		if asksPaying.MatchString(q.Text) && issuedBy(h.Unit.Text, m[0]) {
			// «Арендодатель выставляет счёт … до 10-го числа месяца, следующего за расчётным»:
			// the day the invoice is issued by, not the day it is paid by
			continue
		}
		day, _ := strconv.Atoi(m[1])
		month := p.To
		how := "месяца, следующего за периодом " + p.From.Format("02.01.2006") + "–" + p.To.Format("02.01.2006")
		if m[4] != "" { // «месяца, предшествующего оплачиваемому»: the month before the one named
			if p.From.Month() != p.To.Month() || p.From.Year() != p.To.Year() {
				continue
			}
			month = p.From.AddDate(0, -2, 0)
			how = "месяца, предшествующего месяцу " + p.From.Format("01.2006")
		} else if m[2] == "" { // the current month: the one the question names
			if p.From.Month() != p.To.Month() || p.From.Year() != p.To.Year() {
				continue
			}
			month = p.From.AddDate(0, -1, 0)
			how = "месяца " + p.From.Format("01.2006")
		}
		due := time.Date(month.Year(), month.Month()+1, day, 0, 0, 0, 0, ru.Moscow)
		if due.Day() != day {
			continue // «31-го числа» of a shorter month
		}
		// The day to pay by opens the answer in bold: a day off moves it back by the contract's
		// own rule («если последний день срока платежа приходится на нерабочий день, платёж
		// вносится не позднее предшествующего ему рабочего дня»); with none, the Civil Code's
		// next working day is said beside the day the contract names.
		holds, why := due, ""
		if rule, ok := dayOffBefore(unitsOf, h.Doc); ok && !workingDayFrom(due).Equal(due) {
			holds = workingDayBefore(due)
			why = fmt.Sprintf("; %s — выходной, по %s срок — предшествующий рабочий день, %s", due.Format("02.01.2006"),
				place(library.ClauseHit{Doc: h.Doc, Unit: rule}), holds.Format("02.01.2006"))
		} else if moved := workingDayFrom(due); !moved.Equal(due) {
			// forward: the day the contract names stays in bold — paying by it is never late
			why = fmt.Sprintf("; %s — выходной, по ст. 193 ГК РФ срок переносится на %s", due.Format("02.01.2006"), moved.Format("02.01.2006"))
		}
		return esc("Срок: не позднее ") + "**" + esc(holds.Format("02.01.2006")) + "**" + esc(fmt.Sprintf(" (%d-е число %s%s; %s).", day, how, why, basis(place(h))))
	}
	return ""
}

// issuedBy reports whether the deadline term (its words as matched in text) is the one by which a
// document is issued or sent («выставляет счёт … до 10-го числа», «направляет акт не позднее
// 3-го числа»), read in the term's own sentence before it.
func issuedBy(text, term string) bool {
	i := strings.Index(text, term)
	if i < 0 {
		return false
	}
	before := text[:i]
	if j := strings.LastIndexAny(before, ".;"); j >= 0 {
		before = before[j+1:]
	}
	if issuing.MatchString(before) {
		return true
	}
	// «Лизингодатель ежемесячно, не позднее 5-го числа …, направляет … УПД»: the verb after the
	// term, in its sentence, and no payment in it
	after := text[i+len(term):]
	if j := strings.IndexAny(after, ";"); j >= 0 {
		after = after[:j]
	}
	if j := sentenceEnd.FindStringIndex(after); j != nil {
		after = after[:j[0]]
	}
	return issuing.MatchString(after) && !paysIn.MatchString(before+after)
}

// paysIn: a sentence that pays («оплачивает», «вносит», «уплачивает», «перечисляет»).
var paysIn = regexp.MustCompile(`(?i)оплач|внос|уплач|перечисл|выплач`)

// issuing: a document issued or sent («выставляет счёт», «направляет акт», «представляет отчёт»).
var issuing = regexp.MustCompile(`(?i)(выставля|выставит|направля|направит|представля|представит)\p{L}*`)

// dayOffBefore is the clause of the document that moves a deadline falling on a day off to the
// working day before it («…приходится на нерабочий день, платёж вносится не позднее
// предшествующего ему рабочего дня»), overriding the Civil Code's next working day.
func dayOffBefore(unitsOf func(doc int) []library.Unit, doc int) (library.Unit, bool) {
	if unitsOf == nil {
		return library.Unit{}, false
	}
	for _, u := range unitsOf(doc) {
		if u.Kind == library.UnitClause && dayOffRuleBefore.MatchString(u.Text) {
			return u, true
		}
	}
	return library.Unit{}, false
}

// dayOffRuleBefore: a contract's rule that a deadline on a day off moves back.
var dayOffRuleBefore = regexp.MustCompile(`(?i)(нерабоч\p{L}*|выходн\p{L}*|праздничн\p{L}*)\s+д\p{L}*[^.]{0,80}?(?:предшествующ\p{L}*\s+(\p{L}+\s+)?рабоч|рабоч\p{L}*\s+дн\p{L}*,?\s+предшествующ)`)

// workingDayBefore is day, or the last working day before it.
func workingDayBefore(day time.Time) time.Time {
	for day.Weekday() == time.Saturday || day.Weekday() == time.Sunday || fixedHolidays[[2]int{int(day.Month()), day.Day()}] {
		day = day.AddDate(0, 0, -1)
	}
	return day
}

// workingDayFrom is day, or the first working day after it (weekends and the Labour Code's
// holidays; yearly transfers are not known).
func workingDayFrom(day time.Time) time.Time {
	for day.Weekday() == time.Saturday || day.Weekday() == time.Sunday || fixedHolidays[[2]int{int(day.Month()), day.Day()}] {
		day = day.AddDate(0, 0, 1)
	}
	return day
}

// basis is how a computed line names the unit it computes from: «расчёт по п. 4.1», «расчёт:
// таблица, строка 2».
func basis(place string) string {
	if strings.HasPrefix(place, "п.") || strings.HasPrefix(place, "документу") {
		return "расчёт по " + place
	}
	return "расчёт: " + place
}

// timesLine is a computed line «[what]price × n[unit] = **total** (расчёт по …)» (Markdown).
func timesLine(what string, k int64, n int, unit, place string) string {
	esc := md.Escape
	return esc(fmt.Sprintf("%s%s × %d%s = ", what, ru.Money(k), n, unit)) + "**" + esc(ru.Money(k*int64(n))) + "**" +
		esc(" ("+basis(place)+").")
}

// asksVAT: the question asks for VAT or for an amount without it («ндс за год», «без ндс»).
func asksVAT(q Question) bool { return strings.Contains(strings.ToLower(q.Text), "ндс") }

// vatPart is the part of the amount gross (as text, the unit states it) the question asks:
// the whole, its VAT («сколько ндс …») or the rest («… без ндс»), from the unit's «в том числе
// НДС … — X»; ok is false when the question asks for VAT and the unit does not state it.
func vatPart(q Question, text, gross string) (k int64, what string, ok bool) {
	g, ok := kopecks(gross)
	if !ok || !asksVAT(q) {
		return g, "", ok
	}
	for _, m := range vatIncluded.FindAllStringSubmatch(text, -1) {
		if m[1] != gross {
			continue
		}
		vat, ok := kopecks(m[2])
		if !ok || vat > g {
			break
		}
		if withoutVAT.MatchString(q.Text) {
			return g - vat, "без НДС ", true
		}
		return vat, "НДС ", true
	}
	return 0, "", false
}

var (
	// countedItems: «3 мониторов», «2 ибп»: a count and what is counted.
	countedItems = regexp.MustCompile(`(?i)(?:^|\s)(\d{1,3}(?:[ \x{00a0}]\d{3})*|\d{4,6})\s+(\p{L}{2,})`)
	// vatRateCell: a row's VAT rate («22%», «22 %»); «без НДС» has none.
	vatRateCell = regexp.MustCompile(`^(\d{1,2})\s?%$`)
	// notItems are the words after a number that count no goods.
	notItems = regexp.MustCompile(`(?i)^(дн|день|сут|час|мин|мес|год|лет|недел|руб|коп|тыс|млн|процент|проц|раз|числ|кв|км|партии|партия)`)
	// pieceUnit: a row's unit cell that counts goods.
	pieceUnit = regexp.MustCompile(`(?i)^(шт\.?|штук\p{L}*|компл\.?|комплект|пачка|пач\.?|упак\.?|упаковка|уп\.?|ед\.?)$`)
)

// piecesFor is the line (Markdown) that prices the goods or services the question counts
// («стоимость 3 мониторов aoc», «2 ибп ippon почём», «85 паллет на стеллаже месяц», «12000
// кодов маркировки») by the best row of a price list, a specification or a tariff: a row whose
// unit counts pieces, or whose unit or name is of the word counted («паллет» —
// «паллето-место»). With a net price and a VAT rate the VAT is charged on the whole net sum, as
// an invoice does (not the rounded gross price times the count); else the row's prices with VAT
// and without, the one asked first. A minimum order («Мин. заказ, ед.») above the count is what
// is paid, and the line says so.
func piecesFor(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string) string {
	if len(hits) == 0 || hits[0].Unit.Kind != library.UnitRow {
		return ""
	}
	h := hits[0]
	for _, o := range hits[1:min(len(hits), 3)] {
		if o.Doc == h.Doc && o.Unit.Kind == library.UnitRow && o.Unit.Lead == h.Unit.Lead && o.Score >= h.Score*tiedRows {
			return "" // «150 м флиса» and two rows of fleece: which one is not said
		}
	}
	if !minimumIn(h.Unit.Lead) && !specAsked.MatchString(q.Text) {
		// «нужно 60 м флиса»: a price list's row with its minimum lot over a specification's row
		// of the same goods — the list prices what is bought now, the specification one order
		for _, o := range hits[1:min(len(hits), 6)] {
			if o.Unit.Kind == library.UnitRow && minimumIn(o.Unit.Lead) && (sameGoods(h.Unit.Text, o.Unit.Text) || sameGoods(o.Unit.Text, h.Unit.Text)) {
				h = o
				break
			}
		}
	}
	cells := strings.Split(h.Unit.Text, " | ")
	header := headerCells(h.Unit)
	for len(cells) < len(header) {
		cells = append(cells, "") // a spreadsheet's empty last cells («Примечание»)
	}
	if len(header) != len(cells) {
		return ""
	}
	pieces := slices.ContainsFunc(cells, func(c string) bool { return pieceUnit.MatchString(strings.TrimSpace(c)) })
	unit := "" // the cell under «Ед. изм.», «Единица»
	for i, hd := range header {
		if l := strings.ToLower(hd); (strings.HasPrefix(l, "ед") || strings.Contains(l, "единиц")) && !packHeader.MatchString(l) {
			unit = cells[i] // not «Ед. в коробе»: how many a box holds
		}
	}
	n := 0
	for _, m := range countedItems.FindAllStringSubmatch(q.Text, -1) {
		count := strings.Join(strings.Fields(m[1]), "")
		if notItems.MatchString(m[2]) || standalone(m[1]).MatchString(h.Unit.Text) || standalone(count).MatchString(h.Unit.Text) {
			continue // «27"» of a monitor's name is no count
		}
		if !pieces && !ofRow(m[2], unit) {
			continue // «85 паллет»: a tariff's unit is «паллето-место в месяц», not «шт»; «1800 коробов» of a row priced per container is no count of it
		}
		if countsIn(m[2], h.Unit.Text) {
			continue // «(до 1 500 коробов)»: the row prices the word's count by a threshold, not one by one
		}
		n, _ = strconv.Atoi(count)
		break
	}
	if n <= 0 && unit != "" {
		// «60 м», «12 кг»: a count in the row's own unit
		for _, m := range measured.FindAllStringSubmatch(q.Text, -1) {
			written := strings.TrimSuffix(m[2], ".")
			if strings.HasPrefix(strings.ToLower(written), "тонн") {
				written = "т" // «20 тонн» of a row priced by the «т»
			}
			if strings.EqualFold(written, strings.TrimSuffix(strings.TrimSpace(unit), ".")) {
				n, _ = strconv.Atoi(strings.Join(strings.Fields(m[1]), ""))
				break
			}
		}
	}
	if n <= 0 {
		return ""
	}
	esc := md.Escape
	type price struct {
		k   int64
		vat string // "с НДС", "без НДС" or ""
	}
	var prices []price
	rate, least := "", 0
	packs, perPack, pack := 0, 0, "" // a minimum in boxes («Мин. заказ, коробов»), the units in one («Ед. в коробе»)
	for i, hd := range header {
		l, c := strings.ToLower(hd), strings.TrimSpace(cells[i])
		switch {
		case strings.Contains(l, "ставка") && strings.Contains(l, "ндс"):
			if m := vatRateCell.FindStringSubmatch(c); m != nil {
				rate = m[1]
			}
			continue
		case strings.Contains(l, "мин") && packHeader.MatchString(l):
			packs, _ = strconv.Atoi(strings.Join(strings.Fields(c), ""))
			pack = packHeader.FindString(l)
			continue
		case strings.Contains(l, "мин"):
			least, _ = strconv.Atoi(strings.Join(strings.Fields(c), ""))
			continue
		case strings.HasPrefix(l, "ед") && packHeader.MatchString(l) || strings.Contains(l, "в коробе") || strings.Contains(l, "в ящике") || strings.Contains(l, "в упаковке"):
			perPack, _ = strconv.Atoi(strings.Join(strings.Fields(c), ""))
			continue
		case !strings.Contains(l, "цена"):
			continue
		}
		k, ok := kopecks(c)
		if !ok || !moneyCellText.MatchString(c) {
			continue
		}
		p := price{k: k}
		switch {
		case strings.Contains(l, "без ндс"):
			p.vat = "без НДС"
		case strings.Contains(l, "ндс"):
			p.vat = "с НДС"
		}
		prices = append(prices, p)
	}
	if len(prices) == 0 {
		return ""
	}
	paid, note := n, ""
	if least > n {
		paid, note = least, fmt.Sprintf("Оплачивается минимальный заказ %d вместо %d; ", least, n)
	}
	if packs > 0 && perPack > 0 && packs*perPack > n {
		// «Мин. заказ, коробов: 4», «Ед. в коробе: 10»: 40 units at least
		paid, note = packs*perPack, fmt.Sprintf("Минимальный заказ, %s: %d, по %d в каждом — %d вместо %d; ", pack, packs, perPack, packs*perPack, n)
	}
	netIdx := slices.IndexFunc(prices, func(p price) bool { return p.vat == "без НДС" })
	if r, ok := new(big.Rat).SetString(rate); ok && netIdx >= 0 {
		// «780,00 | 22% | 951,60» × 85: the VAT of the whole net sum
		net := prices[netIdx].k * int64(paid)
		vat := ru.Kopecks(new(big.Rat).Mul(big.NewRat(net, 100), new(big.Rat).Quo(r, big.NewRat(100, 1))))
		head := esc(fmt.Sprintf("%s%s × %d = ", note, ru.Money(prices[netIdx].k), paid))
		if withoutVAT.MatchString(q.Text) {
			return head + "**" + esc(ru.Money(net)) + "**" + esc(fmt.Sprintf(" без НДС; с НДС %s %%: %s (%s).", rate, ru.Money(net+vat), basis(place(h))))
		}
		line := head + esc(ru.Money(net)+" без НДС + НДС "+rate+" % "+ru.Money(vat)+" = ") + "**" + esc(ru.Money(net+vat)) + "**" + esc(" с НДС")
		if asksVAT(q) {
			line += esc("; в т.ч. НДС ") + "**" + esc(ru.Money(vat)) + "**"
		}
		return line + esc(" ("+basis(place(h))+").")
	}
	want := "с НДС"
	if withoutVAT.MatchString(q.Text) {
		want = "без НДС"
	}
	slices.SortStableFunc(prices, func(a, b price) int {
		switch {
		case a.vat == want && b.vat != want:
			return -1
		case b.vat == want && a.vat != want:
			return 1
		}
		return 0
	})
	first := prices[0]
	line := esc(fmt.Sprintf("%s%s × %d = ", note, ru.Money(first.k), paid)) + "**" + esc(ru.Money(first.k*int64(paid))) + "**"
	if first.vat != "" {
		line += esc(" " + first.vat)
	}
	for _, p := range prices[1:] {
		if p.vat != "" && p.vat != first.vat {
			line += esc(fmt.Sprintf("; %s: %s × %d = %s", p.vat, ru.Money(p.k), paid, ru.Money(p.k*int64(paid))))
			if asksVAT(q) && !withoutVAT.MatchString(q.Text) && first.vat == "с НДС" && p.vat == "без НДС" && first.k > p.k {
				// «сумма и ндс»: the VAT of the sum, the two sums' difference
				line += esc("; в т.ч. НДС ") + "**" + esc(ru.Money((first.k-p.k)*int64(paid))) + "**"
			}
		}
	}
	if want == "без НДС" && first.vat == "с НДС" {
		line += esc("; цены без НДС в этой строке нет")
	}
	return line + esc(" ("+basis(place(h))+").")
}

var (
	// measured: a count with a short unit («60 м», «12 кг», «3 рул.»).
	measured = regexp.MustCompile(`(?i)(?:^|\s)(\d{1,3}(?:[ \x{00a0}]\d{3})*|\d{4,6})\s*(м|кг|г|л|т|тонн\p{L}*|рул\.?|пог\.?\s*м|м2|м²|м3|м³)(?:$|[\s,.?!])`)
	// packHeader: a header that counts boxes («Мин. заказ, коробов», «Ед. в коробе»).
	packHeader = regexp.MustCompile(`короб\p{L}*|ящик\p{L}*|упаков\p{L}*`)
	// specAsked: the question asks of a specification («по спецификации», «по спеке»).
	specAsked = regexp.MustCompile(`(?i)специф|спек`)
)

// tiedRows: a row of the same table scoring this share of the best one's is as likely meant.
const tiedRows = 0.97

// minimumIn: a table's header with a minimum order or lot («Мин. партия, ед.», «Мин. заказ»).
func minimumIn(lead string) bool {
	l := strings.ToLower(lead[strings.LastIndexByte(lead, '\n')+1:])
	return strings.Contains(l, "мин")
}

// sameGoods: two rows name the same goods — a code or the name cell of one in the other.
func sameGoods(a, b string) bool {
	for _, c := range strings.Split(a, " | ") {
		c = strings.TrimSpace(c)
		if len([]rune(c)) >= 6 && !moneyCellText.MatchString(c) && strings.Contains(b, c) {
			return true
		}
	}
	return false
}

// countsIn: the row itself counts the word («до 1 500 коробов»).
func countsIn(word, row string) bool {
	for _, m := range countedItems.FindAllStringSubmatch(row, -1) {
		if ofRow(word, m[2]) {
			return true
		}
	}
	return false
}

// ofRow: the counted word is the row's — its first five letters (four of a short word) open a
// word of the row («паллет» — «паллето-место», «кодов» — «кода маркировки»).
func ofRow(word, row string) bool {
	r := []rune(strings.ToLower(word))
	if len(r) < 4 {
		return false
	}
	stem := string(r[:min(len(r)-1, 5)])
	for _, w := range strings.FieldsFunc(strings.ToLower(row), func(c rune) bool { return !unicode.IsLetter(c) }) {
		if strings.HasPrefix(w, stem) {
			return true
		}
	}
	return false
}

// standalone matches n written as a number of its own in a row («27"», «| 10 |»), not inside a
// model's name («Core i5»).
func standalone(n string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s(|])` + regexp.QuoteMeta(n) + `([\s,.)|"”]|$)`)
}

// yearlyDay: a day of the year a clause repeats every year («проводится ежегодно по состоянию
// на 31 декабря», «ежегодно не позднее 1 марта»): the day and the month's genitive.
var yearlyDay = regexp.MustCompile(`(?i)(?:ежегодно|каждого\s+года|каждый\s+год|ежегодн\p{L}*)[^.;]{0,60}?(?:на|до|не\s+позднее|по\s+состоянию\s+на)\s+(\d{1,2})\s+(\p{L}+)|(?:на|до|не\s+позднее)\s+(\d{1,2})\s+(\p{L}+)\s+(?:каждого|ежегодно)`)

// yearlyFor is the line (Markdown) that dates the next occurrence of a day a clause repeats
// every year, when the question asks when: «инвентаризация когда» with «ежегодно по состоянию
// на 31 декабря» is 31.12.2026 on 6 December 2026 — and the unit that states it. "" when no unit
// of the first two states one.
func yearlyFor(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	if q.Now.IsZero() || !askedDeadline.MatchString(q.Text) && !askedWhen.MatchString(q.Text) {
		return "", library.ClauseHit{}
	}
	for _, h := range hits[:min(len(hits), 2)] {
		m := yearlyDay.FindStringSubmatch(h.Unit.Text)
		if m == nil {
			continue
		}
		dayText, monthText := m[1], m[2]
		if dayText == "" {
			dayText, monthText = m[3], m[4]
		}
		day, _ := strconv.Atoi(dayText)
		var month time.Month
		for mo := time.January; mo <= time.December; mo++ {
			if strings.EqualFold(monthText, ru.MonthGenitive(mo)) {
				month = mo
			}
		}
		if month == 0 || day < 1 || day > 31 {
			continue
		}
		today := time.Date(q.Now.Year(), q.Now.Month(), q.Now.Day(), 0, 0, 0, 0, ru.Moscow)
		next := time.Date(today.Year(), month, day, 0, 0, 0, 0, ru.Moscow)
		if next.Day() != day {
			continue
		}
		if next.Before(today) {
			next = next.AddDate(1, 0, 0)
		}
		esc := md.Escape
		return esc("Ближайшая дата: ") + "**" + esc(next.Format("02.01.2006")) + "**" +
			esc(fmt.Sprintf(" (ежегодно, %d %s; %s).", day, ru.MonthGenitive(month), basis(place(h)))), h
	}
	return "", library.ClauseHit{}
}
