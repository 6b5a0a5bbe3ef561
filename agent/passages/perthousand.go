package passages

// «страхование товара на складе на 8 млн в мес» over a tariff row «Страхование грузов на складе
// (страховая премия) | 1 000 руб. стоимости груза в месяц | 0.35»: a rate per thousand roubles
// of a sum, times the thousands of the sum the question gives.

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var (
	// perThousandCell: a tariff's unit cell «1 000 руб. стоимости груза в месяц».
	perThousandCell = regexp.MustCompile(`(?i)^(?:за\s+)?(?:каждую\s+|каждые\s+)?1[ \x{00a0}\x{202f}]?000\s*(?:руб\p{L}*\.?|₽)`)
	// perThousandText: «0,35 руб. за каждую 1 000 руб. стоимости».
	perThousandText = regexp.MustCompile(`(?i)(\d{1,3}(?:[.,]\d{1,4})?)\s*(?:руб\p{L}*\.?|₽)?\s*за\s+(?:каждую\s+|каждые\s+)?1[ \x{00a0}\x{202f}]?000\s*(?:руб\p{L}*\.?|₽)`)
	// rateCell: a rate as a sheet's cell writes it («0.35», «1,20»).
	rateCell = regexp.MustCompile(`^\d{1,3}(?:[.,]\d{1,4})?$`)
)

// perThousandRate is the rate per thousand roubles unit u states, as written, and the words of
// what it is for (a row's cells before the unit, a clause's text); ok is false when it states
// none.
func perThousandRate(u library.Unit) (rate, unit, what string, ok bool) {
	if u.Kind == library.UnitRow {
		cells := strings.Split(u.Text, " | ")
		for i, c := range cells {
			if !perThousandCell.MatchString(strings.TrimSpace(c)) {
				continue
			}
			for _, p := range cells[i+1:] {
				if p = strings.TrimSpace(p); rateCell.MatchString(p) {
					return strings.ReplaceAll(p, ".", ","), strings.TrimSpace(c), strings.Join(cells[:i], " "), true
				}
			}
			return "", "", "", false
		}
		return "", "", "", false
	}
	if m := perThousandText.FindStringSubmatch(u.Text); m != nil {
		return strings.ReplaceAll(m[1], ".", ","), "1 000 руб.", u.Text, true
	}
	return "", "", "", false
}

// perThousandFor is the line (Markdown) that computes a rate per thousand roubles on the sum the
// question gives, and the unit computed by; "" when the question gives no sum, or not one unit of
// the documents states such a rate for what the question names.
func perThousandFor(q Question, hits []library.ClauseHit, cds []library.ClauseDoc, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	text := strings.ToLower(q.Text)
	base := askedAmount(text, -1)
	if len(hits) == 0 || base == nil || base.Cmp(big.NewRat(1000, 1)) < 0 || askedPenalty.MatchString(text) || askedDays.MatchString(text) {
		return "", library.ClauseHit{}
	}
	// Every unit that states such a rate for something the question names by a word; a rate
	// is rare, so the ranking need not have found it (the question's words are as much a
	// clause's on insuring goods).
	// The document the question names, when it states one, is the one asked («складе» names
	// the sublease too, which states none).
	var found []library.ClauseHit
	for di, cd := range cds {
		for _, u := range cd.Units {
			if _, _, what, ok := perThousandRate(u); ok && sharedWords(q.Text, what) > 0 {
				found = append(found, library.ClauseHit{Doc: di, Unit: u})
			}
		}
	}
	if hits[0].Named && slices.ContainsFunc(found, func(h library.ClauseHit) bool { return h.Doc == hits[0].Doc }) {
		found = slices.DeleteFunc(found, func(h library.ClauseHit) bool { return h.Doc != hits[0].Doc })
	}
	if len(found) != 1 {
		return "", library.ClauseHit{} // none, or which of several is meant?
	}
	h := found[0]
	rate, unit, what, _ := perThousandRate(h.Unit)
	// A share of a sum another clause sets for the same thing («страхует груз … 0,12 % от
	// объявленной стоимости»), named by the question as much: which one is meant?
	mine := sharedWords(q.Text, what)
	for _, cd := range cds {
		for _, u := range cd.Units {
			if shareOf(u.Text) && !perDay.MatchString(u.Text) && sharedWords(what, u.Text) > 0 && sharedWords(q.Text, u.Text) >= mine {
				return "", library.ClauseHit{}
			}
		}
	}
	r, ok := new(big.Rat).SetString(strings.ReplaceAll(rate, ",", "."))
	if !ok {
		return "", library.ClauseHit{}
	}
	fee := new(big.Rat).Quo(new(big.Rat).Mul(base, r), big.NewRat(1000, 1))
	esc := md.Escape
	span := ""
	if monthlyUnit.MatchString(unit) {
		// a rate a month, over the months the question names («за квартал», «за 3 месяца»)
		if n, ok := monthsAsked(text); ok {
			fee.Mul(fee, big.NewRat(int64(n), 1))
			span = fmt.Sprintf(" × %d мес.", n)
		} else if spanAsked.MatchString(text) {
			return "", library.ClauseHit{} // a span in days or weeks: not counted here
		}
	}
	note := ""
	if shareNoVAT.MatchString(h.Unit.Text) {
		note = ", без НДС"
	}
	return esc("По вашей сумме: "+ru.Money(ru.Kopecks(base))+" / 1 000 × "+rate+span+" = ") + "**" + esc(ru.Money(ru.Kopecks(fee))) + "**" +
		esc(note+" (тариф "+rate+" за "+unit+" — "+place(h)+")."), h
}

var (
	// monthlyUnit: a tariff's unit of a month («… стоимости груза в месяц»).
	monthlyUnit = regexp.MustCompile(`(?i)в\s+месяц|/\s*мес|ежемесячн`)
	// monthsSpan: «за 3 месяца», «на 6 мес.».
	monthsSpan = regexp.MustCompile(`(?i)(?:за|на)\s+(\d{1,2})\s*(?:мес\p{L}*\.?)`)
	// spanAsked: a span the question names otherwise («за неделю», «на 10 дней», «за 2 недели»).
	spanAsked = regexp.MustCompile(`(?i)недел\p{L}*|\d+\s*(?:дн\p{L}*|день|сут\p{L}*)|(?:за|на)\s+(?:год|квартал|полгода|полугодие)`)
)

// monthsAsked is the months the question counts over («за квартал»: 3; «за 3 месяца»: 3);
// ok is false when it names none («в мес», «в месяц»: one month, as the rate is).
func monthsAsked(text string) (int, bool) {
	if m := askedMonths.FindStringSubmatch(text); m != nil {
		return monthsIn[m[1]], true
	}
	if m := monthsSpan.FindStringSubmatch(text); m != nil {
		n, err := strconv.Atoi(m[1])
		return n, err == nil && n > 0
	}
	return 0, false
}
