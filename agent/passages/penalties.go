package passages

// «задолжали 240 000 на 12 дней сколько пени» names the amount and the days but no contract:
// with several of the user's contracts charging a daily penalty on an unpaid sum, the best
// scoring clause is one of them by chance. Each is computed, contract by contract, and the
// user picks — never one stated as the answer.

import (
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
)

// aboutPaying: the question is about a payment made late, not a delivery or a service
// («просрочили оплату», «задолжали», «не заплатим»).
var aboutPaying = regexp.MustCompile(`(?i)оплат|платеж|платёж|задолж|заплат|долг|недоимк|аренд|абонент`)

// penaltiesAcross computes the penalty for the amount and days the question names under every
// document (of prefer, when the dialog is about some) with a clause that charges a daily
// penalty on an unpaid sum; ok is false unless the question asks such a penalty with both
// figures, names no document, and two documents or more have such a clause.
func penaltiesAcross(q Question, rds []*readDoc, hits []library.ClauseHit, place func(library.ClauseHit) string, title func(doc int) string) (lead string, units []library.ClauseHit, ok bool) {
	text := strings.ToLower(q.Text)
	if len(hits) == 0 || hits[0].Named || !askedPenalty.MatchString(text) || !askedDays.MatchString(text) ||
		!(weDelayPaying.MatchString(text) || aboutPaying.MatchString(text)) {
		return "", nil, false
	}
	var lines []string
	for di, rd := range rds {
		if len(q.Prefer) > 0 && !slices.Contains(q.Prefer, rd.cd.ID) || len(rd.amends) > 0 {
			continue // a supplementary agreement's penalty is its contract's, in its new wording
		}
		for _, u := range rd.cd.Units {
			h := library.ClauseHit{Doc: di, Unit: u}
			if am, _, ok := amendmentOf(rds, h); ok && am.Text != "" {
				h.Unit.Text = am.Text
			}
			if !dailyRate.MatchString(h.Unit.Text) || !paymentBase.MatchString(h.Unit.Text) {
				continue
			}
			line, _ := penaltyFor(Question{Text: q.Text}, []library.ClauseHit{h}, place, nil)
			if line == "" {
				return "", nil, false // no amount named: the monthly payment of which contract?
			}
			lines = append(lines, "\\- **"+md.Escape(title(di))+"**: "+line)
			units = append(units, library.ClauseHit{Doc: di, Unit: u})
			break // one penalty clause a document
		}
	}
	if len(lines) < 2 {
		return "", nil, false
	}
	return "Пени за просрочку оплаты по каждому договору, где они начисляются за каждый день — какой из них имеется в виду, уточните:\n" +
		strings.Join(lines, "\n"), units, true
}
