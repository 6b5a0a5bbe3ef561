package passages

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// Interest on a loan for a period: a contract that sets its rate as the key rate plus a margin
// («по ставке, равной ключевой ставке Банка России, увеличенной на 1,5 процентного пункта»)
// is computed when the question gives the key rate («если ключевая 16 %») and names a period
// («за ноябрь 2026»): the balance the schedule leaves before the period × the rate × its days
// over the days of its year (actual/365 or 366, as such contracts count).

var (
	// keyPlusMargin: the rate clause, its margin in percentage points.
	keyPlusMargin = regexp.MustCompile(`(?i)ключев\p{L}*\s+ставк\p{L}*[^.;]{0,60}?увеличенн\p{L}*\s+на\s+(\d+(?:,\d+)?)`)
	// givenKeyRate: the key rate the question gives («ключевая 16 %», «при ключевой 21»).
	givenKeyRate = regexp.MustCompile(`(?i)ключев\p{L}*(?:\s+ставк\p{L}*)?\s+(?:будет\s+|равна\s+|—\s*|-\s*)?(\d{1,2}(?:[.,]\d{1,2})?)\s*%?`)
	// asksInterest: the question asks the interest itself («сколько процентов», «проценты за»).
	asksInterest = regexp.MustCompile(`(?i)процент\p{L}*\s+(по\s+займу\s+)?(\p{L}+\s+)?за\s|сколько\s+процент|сумм\p{L}*\s+процент`)
	// asksHowMuch: an amount asked («сколько», «скока», «какая сумма»).
	asksHowMuch = regexp.MustCompile(`(?i)(^|[^\p{L}])(сколько|скока|скоко|скольк\p{L}*|какая\s+сумма|на\s+какую\s+сумму)([^\p{L}]|$)`)
	// fixedRate: a loan's fixed yearly rate («проценты по ставке 12,5 % (…) годовых»).
	fixedRate = regexp.MustCompile(`(?i)ставк\p{L}*\s+(\d{1,2}(?:,\d{1,3})?)\s*(?:%|процент\p{L}*)\s*(?:\([^()]{1,80}\)\s*)?годовых`)
	// firstPeriod: the first interest period's first day («первый процентный период — с 06 марта по 31 марта 2026 г.»).
	firstPeriod = regexp.MustCompile(`(?i)перв\p{L}*\s+процентн\p{L}*\s+период\p{L}*\s*[—–-]?\s*с\s+(\d{1,2}\s+\p{L}+)(?:\s+(\d{4}))?\s*(?:г\.\s*)?по\s+\d{1,2}\s+\p{L}+\s+(\d{4})`)
)

// interestFor is the line (Markdown) that computes the interest, or "" when the question gives no
// key rate or period, or the documents set no such rate or balance.
func interestFor(q Question, hits []library.ClauseHit, cds []library.ClauseDoc, place func(library.Unit, int) string) string {
	// «а за 3 кв скока» after «проценты по займу …»: the follow-up asks how much of the same
	asked := asksInterest.MatchString(q.Text) || q.Continues != "" && asksHowMuch.MatchString(q.Text) && strings.Contains(strings.ToLower(q.Continues), "процент")
	if len(hits) == 0 || !asked || q.Now.IsZero() {
		return ""
	}
	km := givenKeyRate.FindStringSubmatch(q.Text)
	if km == nil {
		return fixedInterestFor(q, hits, cds, place)
	}
	p, ok := periodOf(q.Text, q.Now)
	if !ok || p.Single() {
		return ""
	}
	// the document of the best hit that sets such a rate (the loan the question names)
	doc, rateUnit, margin := -1, library.Unit{}, ""
	for _, h := range hits {
		if hits[0].Affinity > 0 && h.Affinity == 0 {
			break // not the document the question names
		}
		if u, m, ok := rateClause(cds[h.Doc]); ok {
			doc, rateUnit, margin = h.Doc, u, m
			break
		}
	}
	if doc < 0 || p.From.Year() != p.To.Year() { // a period across two years counts each year's days apart: not done here
		return ""
	}
	key, ok1 := new(big.Rat).SetString(strings.ReplaceAll(km[1], ",", "."))
	add, ok2 := new(big.Rat).SetString(strings.ReplaceAll(margin, ",", "."))
	if !ok1 || !ok2 {
		return ""
	}
	balance, from, ok := balanceBefore(cds[doc].Units, p.From)
	if !ok {
		return ""
	}
	rate := new(big.Rat).Add(key, add)
	days := p.To.YearDay() - p.From.YearDay() + 1
	yearDays := time.Date(p.From.Year(), 12, 31, 0, 0, 0, 0, ru.Moscow).YearDay()
	// balance (kopecks) × rate % × days / days of the year, in roubles
	roubles := new(big.Rat).SetInt64(balance)
	roubles.Mul(roubles, rate)
	roubles.Mul(roubles, big.NewRat(int64(days), int64(100*100*yearDays)))
	interest := ru.Kopecks(roubles)
	rateText := strings.ReplaceAll(strings.TrimRight(strings.TrimRight(rate.FloatString(2), "0"), "."), ".", ",")
	esc := md.Escape
	return esc(fmt.Sprintf("%s × %s %% × %d/%d = ", ru.Money(balance), rateText, days, yearDays)) + "**" + esc(ru.Money(interest)) + "**" +
		esc(fmt.Sprintf(" (за %s–%s; ставка — ключевая %s %% + %s п. п., %s; остаток займа %s; если ставка на первый день периода была иной, пересчитайте).",
			p.From.Format("02.01.2006"), p.To.Format("02.01.2006"), km[1], margin, place(rateUnit, doc), from))
}

// rateClause is the document's clause that sets its rate as the key rate plus a margin, and
// the margin as written.
func rateClause(cd library.ClauseDoc) (library.Unit, string, bool) {
	for _, u := range cd.Units {
		if m := keyPlusMargin.FindStringSubmatch(u.Text); m != nil {
			return u, m[1], true
		}
	}
	return library.Unit{}, "", false
}

// balanceBefore is the loan's balance on day: the «остаток» column of the last schedule row due
// before it, or the loan's whole amount (the first amount of the first clause) before any row;
// from says which. ok is false when the document has no such schedule.
func balanceBefore(us []library.Unit, day time.Time) (int64, string, bool) {
	col := -1
	var last *library.Unit
	var lastDue time.Time
	for i, u := range us {
		if u.Kind != library.UnitRow || u.Number == "" {
			continue
		}
		header := headerCells(u)
		for j, h := range header {
			if strings.Contains(strings.ToLower(h), "остат") {
				col = j
			}
		}
		m := rowDate.FindString(u.Text)
		d, err := time.ParseInLocation("02.01.2006", m, ru.Moscow)
		if col < 0 || m == "" || err != nil {
			continue
		}
		if d.Before(day) {
			last, lastDue = &us[i], d
		}
	}
	if col < 0 {
		return 0, "", false
	}
	if last == nil {
		for _, u := range us {
			if u.Kind == library.UnitClause {
				if m := firstAmount.FindString(u.Text); m != "" {
					k, ok := kopecks(m)
					return k, "вся сумма займа, п. " + u.Number, ok
				}
			}
		}
		return 0, "", false
	}
	cells := strings.Split(last.Text, " | ")
	if col >= len(cells) {
		return 0, "", false
	}
	k, ok := kopecks(strings.TrimSpace(cells[col]))
	return k, fmt.Sprintf("по графику после платежа %s (строка %s)", lastDue.Format("02.01.2006"), last.Number), ok
}

// fixedInterestFor computes the interest for the period the question names of a loan with a
// fixed yearly rate («проценты по займу за 3 кв скока»): the balance the schedule leaves before
// the period × the rate × its days over the days of its year, from the first interest period's
// first day when the period starts before it. "" when the question names no period within one
// year, or the documents the question names set no such rate.
func fixedInterestFor(q Question, hits []library.ClauseHit, cds []library.ClauseDoc, place func(library.Unit, int) string) string {
	p, ok := periodOf(q.Text, q.Now)
	if !ok || p.Single() || p.From.Year() != p.To.Year() {
		return ""
	}
	doc, rateUnit, rate := -1, library.Unit{}, ""
	for _, h := range hits {
		if hits[0].Affinity > 0 && h.Affinity == 0 {
			break // not the document the question names
		}
		for _, u := range cds[h.Doc].Units {
			if m := fixedRate.FindStringSubmatch(u.Text); m != nil && u.Kind == library.UnitClause {
				doc, rateUnit, rate = h.Doc, u, m[1]
				break
			}
		}
		if doc >= 0 {
			break
		}
	}
	if doc < 0 {
		return ""
	}
	r, ok := new(big.Rat).SetString(strings.ReplaceAll(rate, ",", "."))
	if !ok {
		return ""
	}
	from := p.From
	for _, u := range cds[doc].Units {
		if m := firstPeriod.FindStringSubmatch(u.Text); m != nil {
			year := m[2]
			if year == "" {
				year = m[3]
			}
			if d, ok := library.FirstDate(m[1] + " " + year); ok {
				if start := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, ru.Moscow); start.After(from) {
					from = start
				}
			}
			break
		}
	}
	if from.After(p.To) {
		return "" // the loan had not been given in the period
	}
	balance, where, ok := balanceBefore(cds[doc].Units, from)
	if !ok {
		return ""
	}
	days := p.To.YearDay() - from.YearDay() + 1
	yearDays := time.Date(from.Year(), 12, 31, 0, 0, 0, 0, ru.Moscow).YearDay()
	roubles := new(big.Rat).SetInt64(balance)
	roubles.Mul(roubles, r)
	roubles.Mul(roubles, big.NewRat(int64(days), int64(100*100*yearDays)))
	esc := md.Escape
	return esc(fmt.Sprintf("%s × %s %% × %d/%d = ", ru.Money(balance), rate, days, yearDays)) + "**" + esc(ru.Money(ru.Kopecks(roubles))) + "**" +
		esc(fmt.Sprintf(" (проценты за %s–%s по ставке %s; остаток займа — %s; при возврате по графику).",
			from.Format("02.01.2006"), p.To.Format("02.01.2006"), place(rateUnit, doc), where))
}
