package passages

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/retrieval"
)

var (
	// invoiceTitle: a primary document whose table ends in its total — an УПД, a счёт, a
	// счёт-фактура, a товарная накладная, an акт.
	invoiceTitle = regexp.MustCompile(`(?i)^\s*(упд|универсальн\p{L}*\s+передаточн|сч[её]т|товарн\p{L}*\s+накладн|торг-?12|акт(\s|$))`)
	// asksInvoiceSum: a sum or its VAT asked («какая сумма по упд», «ндс по счёту», «сколько к
	// оплате»).
	asksInvoiceSum = regexp.MustCompile(`(?i)(^|[^\p{L}])(сумм\p{L}*|сколько|скока|итог\p{L}*|всего|ндс|к\s+оплате|на\s+какую)([^\p{L}]|$)`)
	// netAsked: the sum without VAT is asked («без ндс»), or what is owed or paid of it
	// («сколько должны по акту 1187»): computed elsewhere, or stated by a clause of its own.
	netAsked = regexp.MustCompile(`(?i)без\s+ндс|нетто|чистыми|долж|долг|задолж|остал|остат|аванс|оплачен|оплатил|заплатил`)
	// totalRow: a table's closing row («Всего к оплате (9) …», «Итого …»).
	totalRow = regexp.MustCompile(`(?i)^[\s|]*(всего|итого)`)
	// amountWords say what is asked of a sum, not which line: «сумма», «ндс», «всего», «оплата».
	amountWords = map[string]bool{}
)

func init() {
	for _, w := range []string{"сумма", "сколько", "итого", "всего", "ндс", "оплата", "оплате", "стоимость", "налог", "какая", "какой", "рублей"} {
		for _, t := range retrieval.Tokens(w) {
			amountWords[t] = true
		}
	}
}

// namesNoLine reports whether the question names no line of a document titled title: its
// words are the document's names and what is asked of a sum.
func namesNoLine(q Question, title string) bool {
	own := map[string]bool{}
	for _, t := range retrieval.Tokens(title) {
		own[t] = true
	}
	for _, t := range retrieval.Tokens(q.Text) {
		if !own[t] && !amountWords[t] && !library.QuestionWord(t) && !library.DocumentWord(t) {
			return false
		}
	}
	return true
}

// invoiceTotal answers a sum or VAT asked of a primary document the question names and no line
// of it («какая сумма по упд», «какой ндс в упд»): the document's total row, quoted — not its
// first line, and not another document's clause that mentions such a paper («представляет …
// УПД на сумму вознаграждения»). ok is false for any other question.
func invoiceTotal(q Question, rds []*readDoc, docs []docstore.Doc, hits []library.ClauseHit) (skill.Reply, ClauseResult, bool) {
	var res ClauseResult
	if !asksInvoiceSum.MatchString(q.Text) || q.Continues != "" || netAsked.MatchString(q.Text) {
		return skill.Reply{}, res, false
	}
	doc := -1
	for _, h := range hits {
		if h.Named && h.Titled > 0 {
			doc = h.Doc
			break
		}
	}
	if doc < 0 || !invoiceTitle.MatchString(rds[doc].header.Title) && !invoiceTitle.MatchString(docs[doc].Meta.Title) {
		return skill.Reply{}, res, false
	}
	if !namesNoLine(q, rds[doc].header.Title+" "+docs[doc].Meta.Title) {
		return skill.Reply{}, res, false
	}
	units := rds[doc].cd.Units
	i := slices.IndexFunc(units, func(u library.Unit) bool { return u.Kind == library.UnitRow && totalRow.MatchString(u.Text) })
	if i < 0 {
		return skill.Reply{}, res, false
	}
	u, d := units[i], docs[doc].Meta
	where := unitPlace(u, d)
	res.Coverage, res.Named = 1, true
	res.Quoted = []string{d.Title + " " + where}
	text := fmt.Sprintf("**%s**, %s:\n> %s [1]", md.Escape(d.Title), md.Escape(where), quoteText(u))
	if line, _ := docTotalFor(q, hits, rds, docs); line != "" {
		text = line + "\n\n" + text // the total row's sums read by their columns, the one asked first
	}
	return skill.Reply{Text: strings.TrimSpace(text), Sources: []facts.Source{{Title: d.Title}}, Quoted: []string{d.ID}}, res, true
}
