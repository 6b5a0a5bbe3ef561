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
		if amount, ok := monthlyIn(u); ok && !deposit.MatchString(u.Text) {
			return u, amount, true
		}
	}
	return library.Unit{}, "", false
}

// monthlyIn is the monthly payment unit u states, as written.
func monthlyIn(u library.Unit) (string, bool) {
	if m := monthlyPrice.FindStringSubmatch(u.Text); m != nil {
		return m[1], true
	}
	for _, m := range perUnitPrice.FindAllStringSubmatch(u.Text, -1) {
		if perUnitKind(m[3]) == "month" && strings.Contains(m[1], ",") && !strings.Contains(m[0], "кв.") {
			return m[1], true // «2 150,00 рублей за 1 кв. м в месяц» is a rate, not a payment
		}
	}
	return "", false
}

// monthlyTotal answers «сколько всего в месяц за X и Y» (or «… по всем договорам»): the monthly
// payments of the documents the question names (or of all that state one), added; ok is false
// when the question asks no such total or fewer than two documents state a monthly payment.
//
// A supplementary agreement is no contract of its own: its payment is the contract's, set anew.
// A contract whose monthly payment an agreement set anew gives no total here (which payment, from
// when, is the agreement's to say): the clauses answer instead — never the two payments added.
func monthlyTotal(q Question, hits []library.ClauseHit, rds []*readDoc, docs []docstore.Doc) (skill.Reply, bool) {
	cds := clauseDocs(rds)
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
		if len(rds[i].amends) > 0 {
			continue // «ДС № 2»: the contract's payment, set anew
		}
		u, amount, ok := monthlyOf(cds[i])
		if !ok {
			continue
		}
		if _, _, amended := amendmentOf(rds, library.ClauseHit{Doc: i, Unit: u}); amended {
			return skill.Reply{}, false
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

// deposit: a clause about a security deposit, paid once however it is measured.
var deposit = regexp.MustCompile(`(?i)обеспечительн|залог|гарантийн\p{L}*\s+взнос`)

// asksWholeTerm: the question asks an amount over the whole term of the contract («за весь срок
// договора», «за всё время аренды»).
var asksWholeTerm = regexp.MustCompile(`(?i)за\s+(весь|вес)\s+(срок|период)|за\s+вс[её]\s+время|за\s+весь\s+договор`)

// wholeTermFor is the line (Markdown) that multiplies the monthly payment of the best unit's
// document by the whole months of its term («с 01 февраля 2026 г. по 31 декабря 2026 г.»: 11),
// when the question asks for the whole term; "" when the contract states no such term or no
// monthly payment, or the term is no whole months.
//
// amended reports whether another of the documents sets a unit of the best unit's document anew:
// a price or a term changed from some month on makes the product wrong, so none is given.
func wholeTermFor(q Question, hits []library.ClauseHit, cds []library.ClauseDoc, amended func(library.Unit) bool, place func(library.Unit, int) string) string {
	if len(hits) == 0 || !asksWholeTerm.MatchString(q.Text) {
		return ""
	}
	doc := hits[0].Doc
	t, ok := library.TermOf(cds[doc].Units)
	if !ok || t.End.IsZero() || t.Performance || t.Indefinite {
		return ""
	}
	p, ok, err := ru.ParsePeriod(t.Unit.Text, q.Now)
	if err != nil || !ok || p.Kind != ru.KindRange || p.From.Day() != 1 || p.To.AddDate(0, 0, 1).Day() != 1 {
		return ""
	}
	months := (p.To.Year()-p.From.Year())*12 + int(p.To.Month()) - int(p.From.Month()) + 1
	// The payment the question is about: the best unit's own monthly amount («тко за весь срок»:
	// the waste removal fee, not the rent); the document's monthly payment only when the best
	// unit states no amount at all («аренда за весь срок» answered by the term's clause).
	u := hits[0].Unit
	amount, ok := monthlyIn(u)
	// «обеспечительный платёж … равный плате за один месяц» is paid once: the payment is the
	// document's monthly one
	held := deposit.MatchString(u.Text)
	if held {
		ok = false
	}
	if !ok && (held || !firstAmount.MatchString(u.Text)) {
		u, amount, ok = monthlyOf(cds[doc])
	}
	if !ok || months <= 0 || amended(u) || amended(t.Unit) {
		return ""
	}
	k, ok := kopecks(amount)
	if !ok {
		return ""
	}
	esc := md.Escape
	return esc(fmt.Sprintf("%s × %d мес. = ", ru.Money(k), months)) + "**" + esc(ru.Money(k*int64(months))) + "**" +
		esc(fmt.Sprintf(" (срок с %s по %s — %s; платёж — %s).", p.From.Format("02.01.2006"), p.To.Format("02.01.2006"),
			place(t.Unit, doc), place(u, doc)))
}

// monthlyWith is the line (Markdown) that adds a contract's monthly payment and another monthly
// sum of the same contract the question names with it («сколько в месяц за склад вместе с
// тко»: the fixed part, in the wording a supplementary agreement set, and the waste removal
// fee), and the two units; "" when the question asks no such total, the best unit states no
// monthly sum apart from the payment, or one sum includes VAT and the other not.
func monthlyWith(q Question, kept []library.ClauseHit, rds []*readDoc, docs []docstore.Doc, place func(library.ClauseHit) string) (string, []library.ClauseHit) {
	if len(kept) == 0 || !perMonth.MatchString(q.Text) || !together.MatchString(q.Text) {
		return "", nil
	}
	h := kept[0]
	cd := rds[h.Doc].cd
	u, amount, ok := monthlyOf(cd)
	if !ok || u.Index == h.Unit.Index {
		return "", nil
	}
	extraText := h.Unit.Text
	if am, _, ok := amendmentOf(rds, h); ok && am.Text != "" {
		extraText = am.Text
	}
	extra, ok := monthlyIn(library.Unit{Text: extraText})
	if !ok {
		return "", nil
	}
	main := library.ClauseHit{Doc: h.Doc, Unit: u}
	mainText, by := u.Text, ""
	if am, ai, ok := amendmentOf(rds, main); ok && am.Text != "" {
		if a, ok := monthlyIn(library.Unit{Text: am.Text}); ok {
			amount, mainText, by = a, am.Text, " в редакции «"+amendedBy(rds[ai], docs[ai])+"»"
		}
	}
	if statesNet.MatchString(mainText) != statesNet.MatchString(extraText) {
		return "", nil // one with VAT, one without: no sum of the two
	}
	a, ok1 := kopecks(amount)
	b, ok2 := kopecks(extra)
	if !ok1 || !ok2 {
		return "", nil
	}
	esc := md.Escape
	return esc(fmt.Sprintf("В месяц: %s (%s%s) + %s (%s) = ", ru.Money(a), place(main), by, ru.Money(b), place(h))) +
		"**" + esc(ru.Money(a+b)) + "**" + esc("."), []library.ClauseHit{main, h}
}

// currentText is the text of document doc's unit u as it reads now: in the wording a
// supplementary agreement set, when one set it anew.
func currentText(rds []*readDoc, doc int, u library.Unit) string {
	if am, _, ok := amendmentOf(rds, library.ClauseHit{Doc: doc, Unit: u}); ok && am.Text != "" {
		return am.Text
	}
	return u.Text
}

// monthlyNow is document doc's monthly payment as it reads now (currentText), exactly, and the
// unit that states it; ok is false when the document states none.
func monthlyNow(rds []*readDoc, doc int) (library.Unit, int64, bool) {
	u, amount, ok := monthlyOf(rds[doc].cd)
	if !ok {
		return library.Unit{}, 0, false
	}
	if a, ok := monthlyIn(library.Unit{Text: currentText(rds, doc, u)}); ok {
		amount = a
	}
	k, ok := kopecks(amount)
	return u, k, ok
}
