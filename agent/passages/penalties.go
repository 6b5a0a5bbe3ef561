package passages

// «задолжали 240 000 на 12 дней сколько пени» names the amount and the days but no contract:
// with several of the user's contracts charging a daily penalty on an unpaid sum, the best
// scoring clause is one of them by chance. Each is computed, contract by contract, and the
// user picks — never one stated as the answer. «где пени выше — у экспедитора или по складу»
// compares the same clauses' daily rates.

import (
	"math/big"
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
)

// otherDelay: the question is about another delay than a payment's — a delivery, a handover,
// work («если поставщик опоздает на 5 дней», «просрочка поставки»).
var otherDelay = regexp.MustCompile(`(?i)постав|достав|опозда|привез|передач|переда|выполн|работ|возврат\p{L}*\s+(склад|помещ|товар)|отчет|отчёт`)

// aboutPaying: the question is about a payment made late, not a delivery or a service
// («просрочили оплату», «задолжали», «не заплатим»).
var aboutPaying = regexp.MustCompile(`(?i)оплат|платеж|платёж|задолж|заплат|долг|недоимк|аренд|абонент`)

// dailyClause is a document's clause that charges a rate by the day, in its current wording
// (hit.Unit as the document states it; text as amended).
type dailyClause struct {
	hit  library.ClauseHit
	text string
	rate *big.Rat // per day, in per cent
	pct  string   // as written: «0,05»
	cap  string   // «10» of «но не более 10 %»; "" when uncapped
}

// dailyClauses are the clauses of document di that charge a rate by the day, as amended.
func dailyClauses(rds []*readDoc, di int) []dailyClause {
	var out []dailyClause
	for _, u := range rds[di].cd.Units {
		text := currentText(rds, di, u)
		m := dailyRate.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		r, ok := new(big.Rat).SetString(strings.ReplaceAll(m[1], ",", "."))
		if !ok {
			continue
		}
		dc := dailyClause{hit: library.ClauseHit{Doc: di, Unit: u}, text: text, rate: r, pct: m[1]}
		if c := rateCap.FindStringSubmatch(text); c != nil {
			dc.cap = c[1]
		}
		out = append(out, dc)
	}
	return out
}

// limit is the cap of the clause on base kopecks (its cap per cent of it), exactly; ok is
// false when the clause has no cap.
func (dc dailyClause) limit(base int64) (*big.Rat, bool) {
	cr, ok := new(big.Rat).SetString(strings.ReplaceAll(dc.cap, ",", "."))
	if dc.cap == "" || !ok {
		return nil, false
	}
	return new(big.Rat).Mul(big.NewRat(base, 100), new(big.Rat).Quo(cr, big.NewRat(100, 1))), true
}

// latePayments are the clauses charging a daily penalty on an unpaid sum, one a document (of
// prefer, when the dialog is about some; of only, when not nil), supplementary agreements left
// out: theirs is their contract's, amended.
func latePayments(q Question, rds []*readDoc, only map[int]bool) []dailyClause {
	var out []dailyClause
	for di, rd := range rds {
		if len(q.Prefer) > 0 && !slices.Contains(q.Prefer, rd.cd.ID) || len(rd.amends) > 0 || only != nil && !only[di] {
			continue
		}
		for _, dc := range dailyClauses(rds, di) {
			if paymentBase.MatchString(dc.text) {
				out = append(out, dc)
				break // one penalty clause a document
			}
		}
	}
	return out
}

// penaltiesAcross computes the penalty for the amount and days the question names under every
// document with a clause that charges a daily penalty on an unpaid sum; ok is false unless the
// question asks such a penalty with both figures, names no document, and two documents or more
// have such a clause.
func penaltiesAcross(q Question, rds []*readDoc, hits []library.ClauseHit, place func(library.ClauseHit) string, title func(doc int) string) (lead string, units []library.ClauseHit, ok bool) {
	text := strings.ToLower(q.Text)
	// about paying late — or about nothing else: «пени 100 тыс на 10 дней» is most likely an
	// unpaid sum's, and the answer says that it computes those
	if len(hits) == 0 || hits[0].Named || !askedPenalty.MatchString(text) || !askedDays.MatchString(text) ||
		!(weDelayPaying.MatchString(text) || aboutPaying.MatchString(text) || !otherDelay.MatchString(text)) {
		return "", nil, false
	}
	var lines []string
	for _, lp := range latePayments(q, rds, nil) {
		h := lp.hit
		h.Unit.Text = lp.text
		line, _ := penaltyFor(Question{Text: q.Text}, []library.ClauseHit{h}, place, nil)
		if line == "" {
			return "", nil, false // no amount named: the monthly payment of which contract?
		}
		lines = append(lines, "\\- **"+md.Escape(title(h.Doc))+"**: "+line)
		units = append(units, lp.hit)
	}
	if len(lines) < 2 {
		return "", nil, false
	}
	return "Пени за просрочку оплаты по каждому договору, где они начисляются за каждый день — какой из них имеется в виду, уточните:\n" +
		strings.Join(lines, "\n"), units, true
}

// comparesPenalties: the question compares penalties («где пени выше», «в каком договоре самые
// высокие пени», «сравни неустойку»).
// asksLowest: the question asks the lowest («самые низкие», «где меньше»).
var asksLowest = regexp.MustCompile(`(?i)ниже|меньш\p{L}*|низк\p{L}*|минимальн\p{L}*`)

var comparesPenalties = regexp.MustCompile(`(?i)(выше|ниже|больше|меньше|высок\p{L}*|низк\p{L}*|максимальн\p{L}*|минимальн\p{L}*|сравн\p{L}*|разниц\p{L}*)`)

// penaltiesCompared lists the daily rates of late payment of the documents the question names
// (every document when it names fewer than two), highest first, and says which is highest;
// ok is false unless the question compares penalties (not a computation of one) and two
// documents or more charge one.
func penaltiesCompared(q Question, rds []*readDoc, hits []library.ClauseHit, place func(library.ClauseHit) string, title func(doc int) string) (lead string, units []library.ClauseHit, ok bool) {
	text := strings.ToLower(q.Text)
	// «а самые низкие» after «где самые высокие пени»: the penalty is the continued question's
	penalty := askedPenalty.MatchString(text) || q.Continues != "" && askedPenalty.MatchString(strings.ToLower(q.Continues))
	if len(hits) == 0 || !penalty || !comparesPenalties.MatchString(text) || askedDays.MatchString(text) {
		return "", nil, false
	}
	lowest := asksLowest.MatchString(text)
	named := map[int]bool{}
	for _, h := range hits {
		if h.Affinity > 0 {
			named[h.Doc] = true
		}
	}
	only := named
	if len(named) < 2 {
		only = nil // «в каком договоре самые высокие пени»: all of them
	}
	lps := latePayments(q, rds, only)
	if len(lps) < 2 {
		return "", nil, false
	}
	slices.SortStableFunc(lps, func(a, b dailyClause) int {
		if lowest {
			return a.rate.Cmp(b.rate)
		}
		return b.rate.Cmp(a.rate)
	})
	esc := md.Escape
	var lines []string
	for _, lp := range lps {
		line := "\\- **" + esc(title(lp.hit.Doc)) + "**: " + esc(lp.pct+" % в день")
		if lp.cap != "" {
			line += esc(", не более " + lp.cap + " %")
		}
		where := place(lp.hit)
		if lp.text != lp.hit.Unit.Text {
			where += " в новой редакции"
		}
		lines = append(lines, line+esc(" ("+where+")"))
		units = append(units, lp.hit)
	}
	top, next := lps[0], lps[1]
	head, most, than, ratio := "Пени за просрочку оплаты, от высоких к низким:\n", "Выше всего", "выше", new(big.Rat).Quo(top.rate, next.rate)
	if lowest {
		head, most, than, ratio = "Пени за просрочку оплаты, от низких к высоким:\n", "Ниже всего", "ниже", new(big.Rat).Quo(next.rate, top.rate)
	}
	verdict := most + " — по «" + title(top.hit.Doc) + "»"
	if top.rate.Cmp(next.rate) == 0 {
		verdict = most + " — одинаково по «" + title(top.hit.Doc) + "» и «" + title(next.hit.Doc) + "»"
	} else if ratio.IsInt() {
		verdict += ": в " + ratio.RatString() + " раза " + than + ", чем по «" + title(next.hit.Doc) + "»"
	}
	return head + strings.Join(lines, "\n") + "\n\n" + esc(verdict+"."), units, true
}

// asksCap: the question asks whether a penalty is capped («ограничены максимумом», «есть предел»,
// «не более скольки»).
var asksCap = regexp.MustCompile(`(?i)максимум|ограничен|предел|потолок|не\s+более|лимит`)

// dailyPenalties are the clauses of document di that charge a penalty by the day — whoever
// pays — as amended.
func dailyPenalties(rds []*readDoc, di int) []dailyClause {
	return slices.DeleteFunc(dailyClauses(rds, di), func(dc dailyClause) bool { return !askedPenalty.MatchString(dc.text) })
}

// penaltyCaps answers whether the penalties of the documents the question names (every
// contract, when it names none or asks «в каких договорах») are capped: each daily penalty with
// its cap or none. ok is false unless the question asks so, with no amount or days of its own.
func penaltyCaps(q Question, rds []*readDoc, hits []library.ClauseHit, place func(library.ClauseHit) string, title func(int) string) (string, []library.ClauseHit, bool) {
	text := strings.ToLower(q.Text)
	if len(hits) == 0 || !askedPenalty.MatchString(text) || !asksCap.MatchString(text) || askedDays.MatchString(text) || askedAmount(text, -1) != nil {
		return "", nil, false
	}
	only := map[int]bool{}
	if !acrossCue.MatchString(q.Text) {
		for _, h := range hits {
			if h.Named {
				only[h.Doc] = true
			}
		}
	}
	esc := md.Escape
	var capped, uncapped []string
	var units []library.ClauseHit
	for di, rd := range rds {
		if len(only) > 0 && !only[di] || len(rd.amends) > 0 {
			continue
		}
		for _, pc := range dailyPenalties(rds, di) {
			where := place(pc.hit)
			if pc.text != pc.hit.Unit.Text {
				where += " в новой редакции"
			}
			line := "\\- **" + esc(title(di)) + "**"
			if f := penaltyCause.FindStringSubmatch(pc.text); f != nil {
				line += esc(" — " + strings.ToLower(f[1])) // «за просрочку передачи Помещения»
			}
			line += ": " + esc(pc.pct+" % в день")
			if pc.cap != "" {
				capped = append(capped, line+esc(", не более "+pc.cap+" % ("+where+")"))
			} else {
				uncapped = append(uncapped, line+esc(", без предела ("+where+")"))
			}
			units = append(units, pc.hit)
		}
	}
	if len(units) == 0 {
		return "", nil, false
	}
	if len(only) == 1 {
		// one contract asked: its other clauses on penalties say the rest («Пени начисляются до
		// дня фактического исполнения обязательства»)
		for di := range only {
			for _, u := range rds[di].cd.Units {
				if askedPenalty.MatchString(strings.ToLower(u.Text)) && !dailyRate.MatchString(u.Text) && len(units) < 4 {
					units = append(units, library.ClauseHit{Doc: di, Unit: u})
				}
			}
		}
	}
	slices.SortStableFunc(units, func(a, b library.ClauseHit) int { // quoted in reading order, document by document
		if a.Doc != b.Doc {
			return a.Doc - b.Doc
		}
		return a.Unit.Index - b.Unit.Index
	})
	var b strings.Builder
	switch {
	case len(only) > 0 && len(uncapped) == 0:
		b.WriteString("Да, пени ограничены:\n")
	case len(only) > 0 && len(capped) == 0:
		b.WriteString("Нет, предел пеней не установлен:\n")
	case len(capped) > 0:
		b.WriteString("Пени ограничены максимумом:\n")
	default:
		b.WriteString("Ни в одном договоре предел пеней не установлен:\n")
	}
	b.WriteString(strings.Join(capped, "\n"))
	if len(uncapped) > 0 {
		if len(capped) > 0 {
			b.WriteString("\n\nБез предела:\n")
		}
		b.WriteString(strings.Join(uncapped, "\n"))
	}
	return b.String(), units, true
}

// penaltyCause: what a penalty clause charges for, as it opens («За просрочку передачи
// Помещения Арендодатель уплачивает …»: «за просрочку передачи Помещения»).
var penaltyCause = regexp.MustCompile(`^\s*(?:\d+(?:\.\d+)*\.?\s*)?(За\s+[^,;:]{3,70}?)\s+\p{Lu}\p{Ll}+\s+(?:вправе|уплачива|выплачива|обязан)`)
