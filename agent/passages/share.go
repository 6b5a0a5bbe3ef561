package passages

// «страховка груза на 2 млн сколько будет», «пришло 3 840 000 — сколько агенту»: a clause
// that sets a fee as a share of some sum («0,12 % от объявленной стоимости груза», «6 % от
// суммы … поступивших»), and the question names that sum. The fee is computed exactly, with
// what the same contract adds to it: a higher share past a threshold («если поступления
// превышают 5 000 000,00 — 7 % от всей суммы»), a minimum («но не менее 500,00 рублей»), VAT
// charged on top («сверх него начисляется НДС по ставке 22 %»).

import (
	"math/big"
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var (
	// shareRate: «составляет 6 % (шесть процентов) от суммы», «0,12 % от объявленной стоимости»,
	// «2 (два) процента от суммы».
	shareRate = regexp.MustCompile(`(?i)(\d{1,2}(?:,\d{1,3})?)\s*(?:\([^)]{1,60}\)\s*)?(?:%|процент\p{L}*)\s*(?:\([^)]{1,60}\)\s*)?от\s+(?:всей\s+|общей\s+)?(суммы|стоимости|объявленной|цены|выручки|поступлен|оборота|размера)`)
	// shareAbove: «Если такие поступления … превышают 5 000 000,00 (пять миллионов) рублей».
	shareAbove = regexp.MustCompile(`(?i)(?:превыша\p{L}*|более|свыше)\s+(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})`)
	// shareAtLeast: «но не менее 500,00 рублей».
	shareAtLeast = regexp.MustCompile(`(?i)не\s+менее\s+(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})`)
	// feeVATOnTop: «сверх него начисляется НДС по ставке 22 %», «НДС 22 % начисляется сверх».
	feeVATOnTop = regexp.MustCompile(`(?i)сверх[^.;]{0,60}?НДС[^.;]{0,30}?(\d{1,2})\s?%|НДС[^.;]{0,30}?(\d{1,2})\s?%[^.;]{0,40}?сверх`)
	// shareNoVAT: «возмещается Клиентом без НДС».
	shareNoVAT = regexp.MustCompile(`(?i)без\s+НДС|НДС\s+не\s+облага`)
	// perDay: a share per day is a penalty's (penaltyFor), not a fee's.
	perDay = regexp.MustCompile(`(?i)за\s+кажды\p{L}*\s+(?:календарн\p{L}*\s+)?(?:день|сутки)`)
)

// shareFor is the line (Markdown) that computes the fee a share clause sets for the sum the
// question names, and the clause computed by; "" when the question names none or asks no amount, or no clause among hits
// (those scoring near the best) sets a share of a sum.
func shareFor(q Question, hits []library.ClauseHit, cds []library.ClauseDoc, place func(library.ClauseHit) string) (string, library.ClauseHit) {
	text := strings.ToLower(q.Text)
	base := askedAmount(text, -1)
	// «а ровно 5 млн» after «… пришло 3 840 000 — сколько агенту»: the sum is new, the question
	// the one continued
	again := q.Continues != "" && asksAmountOf.MatchString(strings.ToLower(q.Continues)) && !askedPenalty.MatchString(strings.ToLower(q.Continues))
	if len(hits) == 0 || base == nil || askedPenalty.MatchString(text) || !whatIf(q.Text) && !again {
		return "", library.ClauseHit{}
	}
	var rule library.ClauseHit
	found := false
	for _, h := range hits {
		if h.Score < hits[0].Score*weakPenalty {
			break
		}
		if hits[0].Named && h.Doc != hits[0].Doc {
			continue // the question names the contract: another's share is no answer
		}
		if (shareOf(h.Unit.Text) || tierOf(h.Unit) != nil || leadsTiers(h.Unit, cds[h.Doc].Units)) && !perDay.MatchString(h.Unit.Text) && (h.Named || sameSubject(q.Text, h.Unit.Text+" "+h.Unit.Lead)) {
			// …of what the question is about: a share of some other sum is no answer to it
			rule, found = h, true
			break
		}
	}
	if !found && again {
		// the share rule of the document the dialog is about, whatever the new message's words hold
		for di, cd := range cds {
			if !slices.Contains(q.Prefer, cd.ID) {
				continue
			}
			for _, u := range cd.Units {
				if (shareOf(u.Text) && !shareAbove.MatchString(u.Text) || leadsTiers(u, cd.Units)) && !perDay.MatchString(u.Text) {
					if found {
						return "", library.ClauseHit{} // two documents share: which one is meant?
					}
					rule, found = library.ClauseHit{Doc: di, Unit: u}, true
					break
				}
			}
		}
	}
	if !found {
		return "", library.ClauseHit{}
	}
	units := cds[rule.Doc].Units
	if line, use, ok := tieredShare(q, base, rule, units, place); ok {
		return line, use
	}
	// The contract's rules of the share: the plain one, the one past a threshold, VAT on top.
	plain, above := rule, library.ClauseHit{}
	var limit *big.Rat
	for _, u := range units {
		if !shareOf(u.Text) || perDay.MatchString(u.Text) {
			continue
		}
		h := library.ClauseHit{Doc: rule.Doc, Unit: u}
		if m := shareAbove.FindStringSubmatch(u.Text); m != nil && limit == nil {
			if k, ok := kopecks(m[1]); ok {
				limit, above = big.NewRat(k, 100), h
				continue
			}
		}
		if shareAbove.MatchString(rule.Unit.Text) && plain.Unit.Index == rule.Unit.Index && sameSubject(u.Text, rule.Unit.Text) {
			plain = h // «а если было бы 5,2 млн» quoted the threshold clause: the plain share is its pair
		}
	}
	if limit != nil && plain.Unit.Index == above.Unit.Index {
		return "", library.ClauseHit{} // only a share past a threshold: below it the contract says nothing here
	}
	use := plain
	note := ""
	esc := md.Escape
	if limit != nil {
		if base.Cmp(limit) > 0 {
			use = above
			note = esc(" — сумма больше " + ru.Money(ru.Kopecks(limit)))
		} else {
			note = esc(" — сумма не больше " + ru.Money(ru.Kopecks(limit)) + "; " + shareOfMatch(above.Unit.Text)[1] +
				" % по " + place(above) + " — только если больше")
		}
	}
	m := shareOfMatch(use.Unit.Text)
	pct, ok := new(big.Rat).SetString(strings.ReplaceAll(m[1], ",", "."))
	if !ok {
		return "", library.ClauseHit{}
	}
	fee := new(big.Rat).Mul(base, new(big.Rat).Quo(pct, big.NewRat(100, 1)))
	line := esc(ru.Money(ru.Kopecks(base)) + " × " + m[1] + " %")
	if mm := shareAtLeast.FindStringSubmatch(use.Unit.Text); mm != nil {
		if k, ok := kopecks(mm[1]); ok && fee.Cmp(big.NewRat(k, 100)) < 0 {
			line += esc(" = " + ru.Money(ru.Kopecks(fee)) + ", но не менее " + ru.Money(k))
			fee = big.NewRat(k, 100)
		}
	}
	total, vatNote := fee, ""
	switch {
	case shareNoVAT.MatchString(use.Unit.Text):
		vatNote = esc(", без НДС")
	default:
		if t, vat, ok := feeWithVAT(fee, rule.Doc, units, place); ok {
			total = t
			line += esc(" = "+ru.Money(ru.Kopecks(fee))) + vat
		}
	}
	return "По вашей сумме: " + line + " = **" + esc(ru.Money(ru.Kopecks(total))) + "**" + vatNote + esc(" (расчёт по "+place(use)+")") + note + esc("."), use
}

// capBefore: «не более 10 % от суммы задолженности» caps a penalty; it sets no fee.
var capBefore = regexp.MustCompile(`(?i)(не\s+более|не\s+менее|не\s+свыше|не\s+выше|до|превышающ\p{L}*|максимум)\s*$`)

// shareOfMatch is the first share of a sum text sets (shareRate's submatches), not a cap.
func shareOfMatch(text string) []string {
	for _, m := range shareRate.FindAllStringSubmatchIndex(text, -1) {
		if capBefore.MatchString(text[max(0, m[0]-40):m[0]]) {
			continue
		}
		out := make([]string, len(m)/2)
		for i := range out {
			if m[2*i] >= 0 {
				out[i] = text[m[2*i]:m[2*i+1]]
			}
		}
		return out
	}
	return nil
}

// shareOf reports whether text sets a share of a sum (not a cap).
func shareOf(text string) bool { return shareOfMatch(text) != nil }

// A share set by tiers of the sum under a clause that says what it is a share of: «4.1.
// Вознаграждение … определяется в процентах от выручки …: 4.1.1. при выручке за месяц до
// 2 500 000,00 рублей включительно — 6 процентов; 4.1.2. при выручке за месяц свыше
// 2 500 000,00 рублей — 7 процентов от всей суммы выручки».
var (
	// tierRate: a tier's bound (group 1: до / свыше …, group 2: the amount) and its share (3).
	tierRate = regexp.MustCompile(`(?i)^(?:\d{1,2}(?:\.\d{1,3}){1,3}\.?\s*)?при\s+[^—–;]{0,80}?(до|не\s+более|свыше|более|сверх|от)\s+(\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2})[^—–;]{0,80}?[—–-]\s*(\d{1,2}(?:,\d{1,3})?)\s*(?:\([^)]{1,60}\)\s*)?(?:%|процент)`)
	// tierLead: the clause the tiers complete says the share is of a sum.
	tierLead = regexp.MustCompile(`(?i)(процент\p{L}*|%)\s+от\s+`)
	// extraShare: a fee added to it — «дополнительное вознаграждение в размере 1,5 (одной целой
	// пяти десятых) процента от суммы …».
	extraShare = regexp.MustCompile(`(?i)дополнительн\p{L}*\s+вознагражден\p{L}*[^.;]{0,60}?(\d{1,2}(?:,\d{1,3})?)\s*(?:\([^)]{1,80}\)\s*)?(?:%|процент)`)
)

// tier is one tier of a share: the share above (or up to) a bound of the sum.
type tier struct {
	above bool
	bound *big.Rat
	pct   string
	unit  library.Unit
}

// tierOf reads u as a tier of a share (tierRate, under a lead of a share of a sum); nil when
// it is none.
func tierOf(u library.Unit) *tier {
	m := tierRate.FindStringSubmatch(u.Text)
	if m == nil || !tierLead.MatchString(u.Lead) {
		return nil
	}
	k, ok := kopecks(m[2])
	if !ok {
		return nil
	}
	w := strings.ToLower(m[1])
	return &tier{above: w == "свыше" || w == "более" || w == "сверх" || w == "от", bound: big.NewRat(k, 100), pct: m[3], unit: u}
}

// leadsTiers reports whether u is the clause tiers of a share complete (tierOf).
func leadsTiers(u library.Unit, units []library.Unit) bool {
	n := 0
	for _, o := range units {
		if o.Lead == u.Text && tierOf(o) != nil {
			n++
		}
	}
	return n >= 2
}

// tieredShare is shareFor's line for a share set by tiers (tierOf) of the units under rule's
// lead: the tier the sum falls in, an additional fee of the same contract added (extraShare,
// when the question asks the whole fee), VAT charged on top; ok is false when rule is no tier.
func tieredShare(q Question, base *big.Rat, rule library.ClauseHit, units []library.Unit, place func(library.ClauseHit) string) (string, library.ClauseHit, bool) {
	lead := rule.Unit.Lead
	if tierOf(rule.Unit) == nil {
		lead = rule.Unit.Text // the clause the tiers complete
	}
	var tiers []*tier
	for _, u := range units {
		if t := tierOf(u); t != nil && u.Lead == lead {
			tiers = append(tiers, t)
		}
	}
	if len(tiers) < 2 {
		return "", library.ClauseHit{}, false
	}
	var use *tier
	for _, t := range tiers {
		c := base.Cmp(t.bound)
		if t.above && c > 0 || !t.above && c <= 0 {
			if use != nil {
				return "", library.ClauseHit{}, false // tiers that overlap: which one is not known
			}
			use = t
		}
	}
	if use == nil {
		return "", library.ClauseHit{}, false
	}
	esc := md.Escape
	hit := library.ClauseHit{Doc: rule.Doc, Unit: use.unit}
	pct, ok := new(big.Rat).SetString(strings.ReplaceAll(use.pct, ",", "."))
	if !ok {
		return "", library.ClauseHit{}, false
	}
	shares := use.pct + " % (" + place(hit) + ")"
	fee := new(big.Rat).Mul(base, new(big.Rat).Quo(pct, big.NewRat(100, 1)))
	for _, u := range units {
		m := extraShare.FindStringSubmatch(u.Text)
		if m == nil || u.Index == use.unit.Index || perDay.MatchString(u.Text) {
			continue
		}
		x, ok := new(big.Rat).SetString(strings.ReplaceAll(m[1], ",", "."))
		if !ok {
			continue
		}
		// «комиссионные сколько»: the whole fee the contract pays, the additional one too
		fee.Add(fee, new(big.Rat).Mul(base, new(big.Rat).Quo(x, big.NewRat(100, 1))))
		shares = "(" + shares + " + " + m[1] + " % (" + place(library.ClauseHit{Doc: rule.Doc, Unit: u}) + "))"
		break
	}
	line := esc(ru.Money(ru.Kopecks(base)) + " × " + shares + " = " + ru.Money(ru.Kopecks(fee)))
	total := fee
	if t, vat, ok := feeWithVAT(fee, rule.Doc, units, place); ok {
		total, line = t, line+vat
	}
	return "По вашей сумме: " + line + " = **" + esc(ru.Money(ru.Kopecks(total))) + "**" + esc("."), hit, true
}

// feeWithVAT is a fee with the VAT the contract charges on top of it («НДС по ставке 22 %
// начисляется … сверх»: a unit of doc's units), and the words (Markdown) that add it: « + НДС
// 22 % 52 928,48 ₽ (п. 4.3)»; ok is false when the contract charges none on top.
func feeWithVAT(fee *big.Rat, doc int, units []library.Unit, place func(library.ClauseHit) string) (*big.Rat, string, bool) {
	for _, u := range units {
		if v := feeVATOnTop.FindStringSubmatch(u.Text); v != nil {
			rate := v[1] + v[2]
			r, _ := new(big.Rat).SetString(rate)
			vat := new(big.Rat).Mul(fee, new(big.Rat).Quo(r, big.NewRat(100, 1)))
			return new(big.Rat).Add(fee, vat), md.Escape(" + НДС " + rate + " % " + ru.Money(ru.Kopecks(vat)) + " (" + place(library.ClauseHit{Doc: doc, Unit: u}) + ")"), true
		}
	}
	return fee, "", false
}
