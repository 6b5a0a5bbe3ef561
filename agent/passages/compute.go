package passages

// Figures a clause implies, computed exactly (kopecks) and shown with their computation: the
// amount without VAT of a clause that states an amount «в том числе НДС».

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var (
	// withoutVAT: the question asks for an amount without VAT.
	withoutVAT = regexp.MustCompile(`(?i)без\s+ндс`)
	// vatIncluded: «185 760,00 (…) рублей …, в том числе НДС 22 % — 33 497,70 рубля»; a dot
	// before a lower-case letter or a comma («руб., в т.ч.») ends no sentence.
	vatIncluded = regexp.MustCompile(`(\d{1,3}(?:[  ]\d{3})*,\d{2})(?:[^.;]|\.\s*[а-яё,]){0,160}?в\s+(?:том\s+числе|т\.\s?ч\.)\s+НДС(?:\s+\d{1,2}(?:,\d+)?\s?%)?\s*[—–-]?\s*(\d{1,3}(?:[  ]\d{3})*,\d{2})`)
)

// netOfVAT is the line (Markdown) that computes the amount without VAT from the first unit of hits that
// states an amount with the VAT it includes, when q asks for one (or continues a question that
// did); "" otherwise.
func netOfVAT(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string) string {
	if !withoutVAT.MatchString(q.Text) {
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
	return ""
}

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
	askedBase = regexp.MustCompile(`(?i)(\d+(?:[  ]\d{3})*(?:[.,]\d{1,2})?)\s*(млн|миллион\p{L}*|тыс\p{L}*|т\.\s?р\.?|руб\p{L}*|р\.|₽)?`)
	// askedDays: the days of delay the question names («на 10 дней», «15 календарных дней»).
	askedDays = regexp.MustCompile(`(?i)(\d{1,4})\s*((?:календарн|рабоч)\p{L}*\s+)?(?:дн(?:я|ей|и)|день)`)
	// dailyRate: «пени в размере 0,03 % от просроченной суммы за каждый день просрочки».
	dailyRate = regexp.MustCompile(`(\d+(?:,\d+)?)\s?%[^.;]{0,160}?за\s+каждый\s+(?:календарный\s+)?день`)
	// rateCap: «но не более 5 % от …».
	rateCap = regexp.MustCompile(`не\s+более\s+(\d+(?:,\d+)?)\s?%`)
)

// penaltyFor is the line (Markdown) that computes a penalty for the amount and the days of
// delay the question names, at the daily rate of the first unit of hits that states one, with
// the unit's cap; "" when the question names no amount and days, or no unit states a rate.
func penaltyFor(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string) string {
	text := strings.ToLower(q.Text)
	if !askedPenalty.MatchString(text) {
		return ""
	}
	dm := askedDays.FindStringSubmatchIndex(text)
	if dm == nil {
		return ""
	}
	days, _ := strconv.Atoi(text[dm[2]:dm[3]])
	var base *big.Rat
	for _, m := range askedBase.FindAllStringSubmatchIndex(text, -1) {
		if m[0] == dm[0] {
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
		}
		base = v
		break
	}
	if base == nil || days <= 0 {
		return ""
	}
	for _, h := range hits {
		m := dailyRate.FindStringSubmatch(h.Unit.Text)
		if m == nil {
			continue
		}
		rate, ok := new(big.Rat).SetString(strings.ReplaceAll(m[1], ",", "."))
		if !ok {
			continue
		}
		pct := new(big.Rat).Quo(rate, big.NewRat(100, 1))
		sum := new(big.Rat).Mul(base, pct)
		sum.Mul(sum, big.NewRat(int64(days), 1))
		esc := md.Escape
		head := esc(fmt.Sprintf("Пени: %s × %s %% × %d дн. = ", ru.Money(toKopecks(base)), m[1], days))
		line := head + "**" + esc(ru.Money(toKopecks(sum))) + "**"
		if c := rateCap.FindStringSubmatch(h.Unit.Text); c != nil {
			if cr, ok := new(big.Rat).SetString(strings.ReplaceAll(c[1], ",", ".")); ok {
				limit := new(big.Rat).Mul(base, new(big.Rat).Quo(cr, big.NewRat(100, 1)))
				if sum.Cmp(limit) > 0 {
					line = head + esc(fmt.Sprintf("%s, но не более %s %% — ", ru.Money(toKopecks(sum)), c[1])) +
						"**" + esc(ru.Money(toKopecks(limit))) + "**"
				}
			}
		}
		return line + " " + esc("(расчёт по "+place(h)+").")
	}
	return ""
}

// toKopecks rounds an amount of roubles to kopecks, half away from zero.
func toKopecks(r *big.Rat) int64 {
	k := new(big.Rat).Mul(r, big.NewRat(100, 1))
	n, d := k.Num(), k.Denom()
	q, m := new(big.Int).QuoRem(n, d, new(big.Int))
	if new(big.Int).Mul(m, big.NewInt(2)).CmpAbs(d) >= 0 {
		if n.Sign() >= 0 {
			q.Add(q, big.NewInt(1))
		} else {
			q.Sub(q, big.NewInt(1))
		}
	}
	return q.Int64()
}
