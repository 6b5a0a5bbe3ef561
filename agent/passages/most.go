package passages

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

// A question that compares the documents by a figure («в каком договоре пени больше», «где
// самая высокая ставка») is answered first with the order of their figures: each document's
// clause states one rate in per cent, and the answer ranks them, the clauses quoted below.

var (
	// asksMost: the question asks which is larger or smaller.
	asksMost = regexp.MustCompile(`(?i)(^|[^\p{L}])(больше|выше|меньше|ниже|сам(ый|ая|ое|ые)|максимальн\p{L}*|минимальн\p{L}*|наибольш\p{L}*|наименьш\p{L}*)([^\p{L}]|$)`)
	// asksLeast: …and that it is the smaller.
	asksLeast = regexp.MustCompile(`(?i)меньше|ниже|минимальн|наименьш|(сам(ый|ая|ое|ые))\s+(низк|маленьк|дешев)`)
	// asksRate: what is compared is a rate (a penalty's, an interest rate): not a sum, whose
	// clause's first per cent is its VAT.
	asksRate = regexp.MustCompile(`(?i)пен[иья]|неустойк|процент|ставк|%`)
	// firstPercent: the first rate in per cent a clause states («0,1 % (ноль целых …)»).
	firstPercent = regexp.MustCompile(`(\d+(?:,\d+)?)\s*(?:\([^()]{1,60}\)\s*)?(?:%|процент)`)
)

// mostOf is the line (Markdown) that ranks the kept units' documents by the first rate in per
// cent each states, when the question asks which is larger or smaller and every one states a
// rate; "" otherwise.
func mostOf(q Question, kept []library.ClauseHit, docs []docstore.Doc) string {
	if len(kept) < 2 || !asksMost.MatchString(q.Text) || !asksRate.MatchString(q.Text) {
		return ""
	}
	type rate struct {
		v    *big.Rat
		text string
		h    library.ClauseHit
	}
	var rs []rate
	for _, h := range kept {
		m := firstPercent.FindStringSubmatch(h.Unit.Text)
		if m == nil {
			return ""
		}
		v, ok := new(big.Rat).SetString(strings.ReplaceAll(m[1], ",", "."))
		if !ok {
			return ""
		}
		rs = append(rs, rate{v, m[1] + " %", h})
	}
	least := asksLeast.MatchString(q.Text)
	slices.SortStableFunc(rs, func(x, y rate) int {
		if least {
			return x.v.Cmp(y.v)
		}
		return y.v.Cmp(x.v)
	})
	if rs[0].v.Cmp(rs[1].v) == 0 {
		return "" // a tie names no one document
	}
	word := "Больше всего"
	if least {
		word = "Меньше всего"
	}
	var rest []string
	for _, r := range rs[1:] {
		rest = append(rest, fmt.Sprintf("«%s» — %s (%s)", docs[r.h.Doc].Meta.Title, r.text, unitPlace(r.h.Unit, docs[r.h.Doc].Meta)))
	}
	others := "у остальных меньше"
	if least {
		others = "у остальных больше"
	}
	first := rs[0]
	return md.Escape(fmt.Sprintf("%s — в «%s»: ", word, docs[first.h.Doc].Meta.Title)) + "**" + md.Escape(first.text) + "**" +
		md.Escape(fmt.Sprintf(" (%s); %s: %s.", unitPlace(first.h.Unit, docs[first.h.Doc].Meta), others, strings.Join(rest, "; ")))
}
