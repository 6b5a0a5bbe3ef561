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
	"github.com/finbot/finbot/ru"
)

// What the contracts cost a month together: «сколько всего в месяц за офис и ит обслуживание»
// adds the monthly payment each named contract states, with its VAT.

var (
	// perMonth: the question asks a monthly amount.
	perMonth = regexp.MustCompile(`(?i)в\s+месяц|ежемесячн|за\s+месяц`)
	// together: the question asks for a total («всего», «вместе», «итого», «по всем»).
	together = regexp.MustCompile(`(?i)(^|\s)(всего|вместе|итого|в\s+сумме|суммарно|по\s+всем|общ\p{L}+\s+сумм)`)
)

// monthlyOf is the monthly payment a document states («Ежемесячная арендная плата … 185 760,00»,
// «Абонентская плата … 97 600,00 … в месяц»): its unit and the amount as written.
func monthlyOf(cd library.ClauseDoc) (library.Unit, string, bool) {
	for _, u := range cd.Units {
		if m := monthlyPrice.FindStringSubmatch(u.Text); m != nil {
			return u, m[1], true
		}
		for _, m := range perUnitPrice.FindAllStringSubmatch(u.Text, -1) {
			if perUnitKind(m[3]) == "month" && strings.Contains(m[1], ",") && !strings.Contains(m[0], "кв.") {
				return u, m[1], true // «2 150,00 рублей за 1 кв. м в месяц» is a rate, not a payment
			}
		}
	}
	return library.Unit{}, "", false
}

// monthlyTotal answers «сколько всего в месяц за X и Y» (or «… по всем договорам»): the monthly
// payments of the documents the question names (or of all that state one), added; ok is false
// when the question asks no such total or fewer than two documents state a monthly payment.
func monthlyTotal(q Question, hits []library.ClauseHit, cds []library.ClauseDoc, docs []docstore.Doc) (skill.Reply, bool) {
	if !perMonth.MatchString(q.Text) || !together.MatchString(q.Text) {
		return skill.Reply{}, false
	}
	var which []int
	all := strings.Contains(strings.ToLower(q.Text), "по всем")
	for _, h := range hits {
		if (all || h.Affinity > 0) && !slices.Contains(which, h.Doc) {
			which = append(which, h.Doc)
		}
	}
	if all {
		for i := range cds {
			if !slices.Contains(which, i) {
				which = append(which, i)
			}
		}
	}
	type payment struct {
		doc       int
		unit      library.Unit
		gross     int64
		vat       int64
		vatStated bool
	}
	var ps []payment
	for _, i := range which {
		u, amount, ok := monthlyOf(cds[i])
		if !ok {
			continue
		}
		p := payment{doc: i, unit: u}
		p.gross, _ = kopecks(amount)
		for _, m := range vatIncluded.FindAllStringSubmatch(u.Text, -1) {
			if m[1] == amount {
				p.vat, p.vatStated = kopecks(m[2])
				break
			}
		}
		ps = append(ps, p)
	}
	if len(ps) < 2 {
		return skill.Reply{}, false
	}
	var total, vat int64
	vatAll := true
	for _, p := range ps {
		total += p.gross
		vat += p.vat
		vatAll = vatAll && p.vatStated
	}
	esc := md.Escape
	var b strings.Builder
	b.WriteString(esc("Всего в месяц: ") + "**" + esc(ru.Money(total)) + "**")
	if vatAll {
		b.WriteString(esc(fmt.Sprintf(", в т.ч. НДС %s", ru.Money(vat))))
	}
	b.WriteString(esc(":") + "\n")
	var r skill.Reply
	for n, p := range ps {
		d := docs[p.doc].Meta
		r.Sources = append(r.Sources, facts.Source{Title: d.Title})
		r.Quoted = append(r.Quoted, d.ID)
		line := fmt.Sprintf("%s, %s: %s", d.Title, unitPlace(p.unit, d), ru.Money(p.gross))
		if p.vatStated {
			line += fmt.Sprintf(" (НДС %s)", ru.Money(p.vat))
		}
		fmt.Fprintf(&b, "- %s [%d]\n", esc(line), n+1)
	}
	r.Text = strings.TrimSpace(b.String())
	return r, true
}
