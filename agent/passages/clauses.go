package passages

// The answer from a user's documents read as their clauses (library.Units): the clause, row
// or paragraph that states what the question asks, wherever it stands in the document.

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/retrieval"
	"github.com/finbot/finbot/ru"
)

const (
	// clauseChars bounds the documents read whole for one question: beyond it only the
	// documents the search found passages in are read.
	clauseChars = 2_000_000
	// MinClauseCoverage is the share of the question's weight (library.ClauseHit.Coverage) the
	// best unit must hold, with its section and its document's title, to answer: below it the
	// documents do not say what is asked, and the reply says so.
	MinClauseCoverage = 0.5
	// otherKind: the unit for the second kind of answer a question asks may score this share
	// of the best one.
	otherKind = 0.4
	// acrossQuotes bounds the documents a question about several quotes; acrossWeaker is the
	// share of the best unit's score another document's unit needs.
	acrossQuotes = 6
	acrossWeaker = 0.3
	// sureClauseCoverage: a best unit holding less than this share of the question, when the
	// question has a word no document has at all, does not answer it either.
	sureClauseCoverage = 0.8
	// quoteCoverage is what a clause quoted as the answer, with nothing computed from it, must
	// hold of the question; one that holds less is quoted as the nearest. Measured on the
	// development lines of the document sets (docs/benchmarks.md): quotes holding 50–60 % of a
	// question were right half the time — no answer to state as one.
	quoteCoverage = 0.6
	// weakComputed: a computed line needs its best unit to hold this share of
	// MinClauseCoverage.
	weakComputed = 0.8
	// weakerClause: a unit scoring below this share of the best one is not quoted with it.
	weakerClause = 0.85
	// clauseQuotes is how many units an answer quotes at most; clauseRunes bounds each.
	clauseQuotes = 3
	clauseRunes  = 700
)

// ClauseResult is what a clause answer found, for the debug payload.
type ClauseResult struct {
	Units    int      `json:"units"`
	Quoted   []string `json:"quoted,omitempty"` // «title п. 3.5»
	Coverage float64  `json:"coverage"`
	NotFound bool     `json:"not_found,omitempty"`
	// Named: the question names one of the documents (by its title or file name).
	Named bool `json:"named,omitempty"`
	// Policy: the best unit's document is an internal policy (library.ClauseHit.Policy).
	Policy bool `json:"policy,omitempty"`
	// Mentions: the question refers to one of the documents as such — by its kind («по
	// договору», «в положении») or mostly in words of its title — not only shares a word with
	// a title.
	Mentions bool `json:"mentions,omitempty"`
	// WhatIf: the question gives figures of its own to compute with, and no computation took
	// them: the answer says so before the clauses (whatIf).
	WhatIf bool `json:"what_if,omitempty"`
}

// readDoc is a document read as its units, kept between questions (units): its units' terms
// read once, and the page each unit stands on.
type readDoc struct {
	cd     library.ClauseDoc
	pages  []int // by unit index; 0 when unknown
	header library.Header
	amends []library.Amendment // the clauses it sets anew in another contract
	// parties are the sides its preamble or form names.
	parties []library.Party
}

// readDocs are the documents a clause answer reads — those of ids (the user's selection), else
// all of the owner's while they fit clauseChars, else those the search found — as their metas
// and their read units. A document read before is not loaded again.
func readDocs(ctx context.Context, lib *library.Library, own string, ids []string, found []library.Passage) ([]docstore.Meta, []*readDoc, error) {
	all, err := lib.List(ctx, own)
	if err != nil {
		return nil, nil, err
	}
	total := 0
	for _, m := range all {
		total += m.Chars
	}
	var metas []docstore.Meta
	for _, m := range all {
		switch {
		case len(ids) > 0 && !slices.Contains(ids, m.ID):
		case len(ids) > 0 || total <= clauseChars || slices.ContainsFunc(found, func(p library.Passage) bool { return p.DocID == m.ID }):
			metas = append(metas, m)
		}
	}
	rds := make([]*readDoc, len(metas))
	var missing []string
	for i, m := range metas {
		if rd, ok := units.Get(unitsKey(own, m)); ok {
			rds[i] = rd
		} else {
			missing = append(missing, m.ID)
		}
	}
	if len(missing) > 0 {
		docs, err := lib.Full(ctx, own, missing)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range docs {
			us := library.Units(d.Text)
			rd := &readDoc{cd: library.NewClauseDoc(d.Meta.ID, d.Meta.Title+" "+DocName(d.Meta), us), pages: make([]int, len(us)),
				header: library.ReadHeader(us), amends: library.Amendments(us), parties: library.Parties(us)}
			for j, u := range us {
				rd.pages[j] = unitPage(d, u)
			}
			if len(us) <= maxCachedUnits {
				units.Add(unitsKey(own, d.Meta), rd) // a larger one is read again when asked
			}
			if i := slices.IndexFunc(metas, func(m docstore.Meta) bool { return m.ID == d.Meta.ID }); i >= 0 {
				rds[i] = rd
			}
		}
	}
	// A document the store no longer has (removed meanwhile) is left out.
	for i := len(rds) - 1; i >= 0; i-- {
		if rds[i] == nil {
			rds, metas = slices.Delete(rds, i, i+1), slices.Delete(metas, i, i+1)
		}
	}
	return metas, rds, nil
}

// clauseDocs are the read documents as RankClauses takes them.
func clauseDocs(rds []*readDoc) []library.ClauseDoc {
	cds := make([]library.ClauseDoc, len(rds))
	for i, rd := range rds {
		cds[i] = rd.cd
	}
	return cds
}

func unitsKey(own string, m docstore.Meta) string { return own + "\x00" + m.ID + "\x00" + m.SHA256 }

// Clauses answers q from the units of the owner's documents (ids: the selected ones; found:
// the passages the search found, which name the documents to read when all are too many).
// ok is false when the documents could not be read or hold no unit with the question's terms:
// the caller quotes passages then. A best unit that holds too little of the question
// (MinClauseCoverage) gives the reply that the documents do not say it, with the closest clause.
func Clauses(ctx context.Context, lib *library.Library, own string, ids []string, found []library.Passage, q Question) (skill.Reply, ClauseResult, bool) {
	var res ClauseResult
	metas, rds, err := readDocs(ctx, lib, own, ids, found)
	if err != nil || len(rds) == 0 {
		return skill.Reply{}, res, false
	}
	cds := clauseDocs(rds)
	for _, cd := range cds {
		res.Units += len(cd.Units)
	}
	docs := make([]docstore.Doc, len(metas)) // what the answer names and cites of each
	for i, m := range metas {
		docs[i] = docstore.Doc{Meta: m}
	}
	hits := library.RankClauses(cds, library.ClauseQuestion{Text: q.Text, Asking: q.Asking, Context: q.Continues, Prefer: q.Prefer})
	if len(hits) == 0 {
		return skill.Reply{}, res, false
	}
	hits = namedFirst(q.Text, countFirst(q, regularFirst(q, hits)), func(doc int) string { return cds[doc].Names + " " + rds[doc].header.Title })
	res.Coverage, res.Named = hits[0].Coverage, hits[0].AnyNamed || library.MentionsKind(q.Text, cds)
	res.Policy = isPolicy(rds[hits[0].Doc], cds[hits[0].Doc])
	res.Mentions = library.MentionsKind(q.Text, cds) || hits[0].Named && hits[0].Titled >= 0.5
	if byDate.MatchString(q.Text) {
		return datedDocs(rds, docs, res)
	}
	if headerCue.MatchString(q.Text) && !fromDate.MatchString(q.Text) {
		return headerOf(q, rds, docs, hits, res)
	}
	if r, ok := ourSigners(q, rds, docs, hits); ok {
		return r, res, true // «кто подписывал договоры с нашей стороны»
	}
	if r, ok := formSigners(q, rds, docs, hits); ok {
		return r, res, true // «кто подписал упд 1452»: the form's signature lines
	}
	if r, ok := monthlyTotal(q, hits, rds, docs); ok {
		return r, res, true
	}
	if r, ok := register(q, rds, docs, hits); ok {
		return r, res, true
	}
	if r, ir, ok := invoiceTotal(q, rds, docs, hits); ok {
		ir.Units = res.Units
		return r, ir, true
	}
	if r, ok := tableAnswer(q, rds, docs, hits); ok {
		return r, res, true
	}
	// «потолок неустойки за просрочку по полам»: a cap by a share of a base the documents state,
	// in roubles — before the caps of every contract are listed
	capLine, capUnits := capAmountFor(q, hits, rds, func(h library.ClauseHit) string { return unitPlace(h.Unit, docs[h.Doc].Meta) })
	// «где пени выше — у экспедитора или по складу»: the daily rates compared, quoted below
	cmpLead, cmpUnits, compared := penaltiesCompared(q, rds, hits, func(h library.ClauseHit) string { return unitPlace(h.Unit, docs[h.Doc].Meta) },
		func(di int) string { return docs[di].Meta.Title })
	if capLine != "" {
		compared = false
	} else if !compared {
		// «пени по займу ограничены максимумом?», «в каких договорах пени ограничены»
		cmpLead, cmpUnits, compared = penaltyCaps(q, rds, hits, func(h library.ClauseHit) string { return unitPlace(h.Unit, docs[h.Doc].Meta) },
			func(di int) string { return docs[di].Meta.Title })
	}
	if across(q) && !oneContract(rds, docs, q.Prefer) && !compared {
		return acrossDocs(q, rds, docs, hits, res)
	}
	var kept []library.ClauseHit
	for _, h := range hits {
		if len(kept) == clauseQuotes || h.Score < hits[0].Score*weakerClause {
			break
		}
		if slices.ContainsFunc(kept, func(k library.ClauseHit) bool {
			return k.Doc == h.Doc && (k.Unit.Index == h.Unit.Index || k.Unit.Lead == h.Unit.Text)
		}) || hits[0].Named && !h.Named {
			continue // …nor a document the question does not name, when it names the best one's
		}
		kept = append(kept, h)
	}
	// A supplementary agreement's clause that sets a contract's clause anew is quoted as that
	// clause, in both wordings («а до допника сколько было»: the original is asked).
	for i, h := range kept {
		if c, ok := amendedClause(rds, cds, h); ok && !slices.ContainsFunc(kept, func(k library.ClauseHit) bool {
			return k.Doc == c.Doc && k.Unit.Index == c.Unit.Index
		}) {
			kept[i] = c
		}
	}
	kept = withQualifier(kept, hits)
	// A question that asks for two kinds of answer («сколько и до какого числа») gets a unit
	// for each, when one states it well enough.
	for bit := library.Facets(1); bit != 0 && bit <= hits[0].Asked; bit <<= 1 {
		if hits[0].Asked&bit == 0 || slices.ContainsFunc(kept, func(k library.ClauseHit) bool { return k.States&bit != 0 }) {
			continue
		}
		if bit == library.MoneyBit && hits[0].Asked.Penalty() && kept[0].States.Penalty() {
			continue // «сколько пени»: the penalty clause's rate is how much; no other sum is asked
		}
		for _, h := range hits[1:] {
			if h.Score < hits[0].Score*otherKind {
				break
			}
			if h.States&bit != 0 && h.Doc == hits[0].Doc {
				kept = append(kept, h)
				break
			}
		}
	}
	// Quoted in reading order, document by document (in the order of their best unit).
	first := map[int]int{}
	for i, h := range kept {
		if _, ok := first[h.Doc]; !ok {
			first[h.Doc] = i
		}
	}
	slices.SortStableFunc(kept, func(x, y library.ClauseHit) int {
		if first[x.Doc] != first[y.Doc] {
			return first[x.Doc] - first[y.Doc]
		}
		return x.Unit.Index - y.Unit.Index
	})
	var b strings.Builder
	rowBy := map[[2]int]string{} // a row whose price an agreement set anew (asNow): by which
	placeOf := func(h library.ClauseHit) string {
		if p := unitPlace(h.Unit, docs[h.Doc].Meta); p != "" {
			if by, ok := rowBy[[2]int{h.Doc, h.Unit.Index}]; ok {
				p += " в редакции " + by
			}
			return p
		}
		return "документу «" + docs[h.Doc].Meta.Title + "»"
	}
	monthly := func(doc int) (int64, string, string, bool) {
		u, amount, ok := monthlyOf(cds[doc])
		if !ok {
			return 0, "", "", false
		}
		k, ok := kopecks(amount)
		return k, unitPlace(u, docs[doc].Meta), u.Text, ok
	}
	signed := func(h library.ClauseHit) (time.Time, bool) {
		d := rds[h.Doc].header.Date
		if d.IsZero() || !namesOneOff(q.Text, h.Unit.Text, rds[h.Doc].header.Title+" "+docs[h.Doc].Meta.Title) {
			return time.Time{}, false
		}
		return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, ru.Moscow), true
	}
	// What is computed is computed by the clauses as they read now: a clause a supplementary
	// agreement set anew in its new wording («до 25 числа месяца, предшествующего
	// оплачиваемому», not the original «до 10 числа оплачиваемого месяца») — unless the question
	// asks what it was before.
	asNow := func(hs []library.ClauseHit) []library.ClauseHit {
		if asksBefore.MatchString(q.Text) {
			return hs
		}
		now := slices.Clone(hs)
		asked, monthAsked := termMonth(q.Text, q.Now)
		before := func(am library.Amendment) bool {
			return monthAsked && !am.From.IsZero() && !q.Now.IsZero() && asked.From.Before(time.Date(am.From.Year(), am.From.Month(), 1, 0, 0, 0, 0, ru.Moscow))
		}
		for i, h := range now {
			for _, am := range rds[h.Doc].amends {
				if am.Unit.Index == h.Unit.Index && before(am) {
					// «постоянку за октябрь до какого числа» and the agreement's unit that sets the
					// term anew from November: October is paid as the contract's clause read before
					if c, ok := amendedClause(rds, cds, h); ok {
						now[i] = c
					}
				}
			}
			if h.Unit.Kind == library.UnitRow {
				// «дезинфекция камеры 200 кв м»: the row's price as an agreement set it anew
				if am, ai, ok := rowAmendmentOf(rds, h); ok && !before(am) && (monthAsked || q.Now.IsZero() || !q.Now.Before(am.From)) {
					text, ok := withPrice(h.Unit.Text, am.Price)
					if am.Price == "" {
						text, ok = withRow(h.Unit, am.Unit) // the agreement's table sets the whole row anew
					}
					if ok {
						now[i].Unit.Text = text
						rowBy[[2]int{h.Doc, h.Unit.Index}] = "«" + amendedBy(rds[ai], docs[ai]) + "», " + unitPlace(am.Unit, docs[ai].Meta)
					}
				}
				continue
			}
			if am, _, ok := amendmentOf(rds, h); ok && am.Text != "" {
				if before(am) {
					// «аренду за ноябрь до какого»: the agreement's new term applies «начиная с
					// платы за декабрь» — November is paid as the clause read before
					continue
				}
				now[i].Unit.Text = am.Text
			}
		}
		return now
	}
	current := asNow(kept)
	ends := func(h library.ClauseHit) (time.Time, string, bool) {
		t, ok := library.TermOf(cds[h.Doc].Units)
		if !ok || t.End.IsZero() || t.Performance {
			return time.Time{}, "", false
		}
		return time.Date(t.End.Year(), t.End.Month(), t.End.Day(), 0, 0, 0, 0, ru.Moscow), unitPlace(t.Unit, docs[h.Doc].Meta), true
	}
	// A penalty is computed by the clause that states a daily rate, among those scoring near the
	// kept ones, of the documents quoted («пени если просрочим абонентку на 15 дней»: the
	// customer's payment penalty, though the contractor's fine shares more words).
	penOf := slices.Clone(current)
	for _, h := range hits {
		if h.Score < hits[0].Score*weakPenalty {
			break
		}
		if !slices.ContainsFunc(current, func(k library.ClauseHit) bool { return k.Doc == h.Doc }) {
			continue // a document the answer does not quote: another contract's penalty
		}
		if !slices.ContainsFunc(penOf, sameUnit(h)) {
			if am, _, ok := amendmentOf(rds, h); ok && am.Text != "" && !asksBefore.MatchString(q.Text) {
				h.Unit.Text = am.Text
			}
			penOf = append(penOf, h)
		}
	}
	pen, penHit := penaltyFor(q, penOf, placeOf, monthly)
	if pen == "" && len(penOf) > 0 && askedPenalty.MatchString(strings.ToLower(q.Text)) && askedAmount(strings.ToLower(q.Text), -1) == nil {
		// «сдал кровлю на 9 дней позже, какую неустойку»: a penalty «от стоимости этапа» of the
		// stage the question names, its cost from the table's row
		if dm := askedDays.FindStringSubmatch(strings.ToLower(q.Text)); dm != nil {
			days, _ := strconv.Atoi(dm[1])
			for _, h := range penOf {
				if !rowCostBase.MatchString(h.Unit.Text) || !dailyRate.MatchString(h.Unit.Text) {
					continue
				}
				if k, row, ok := rowCost(q, hits, h.Doc); ok && days > 0 {
					line := penaltyLine(h, big.NewRat(k, 100), days, "", placeOf)
					pen, penHit = md.Escape("Стоимость «"+rowLabel(row.Unit)+"» — "+ru.Money(k)+" ("+placeOf(row)+"). ")+line, h
				}
				break
			}
		}
	}

	// computed by a rule that found its own units (a month's term, its payment and the day paid;
	// a cap and its base; a rate per thousand): whatever the coverage of the best clause
	byOwnRule := false
	if pen == "" && capLine != "" {
		pen, kept, byOwnRule = capLine, capUnits, true
	}
	if pen == "" {
		// «а максимум сколько могут насчитать» after a penalty: the clause's cap on the same sum
		if pen, penHit = penaltyCapOf(q, rds, placeOf); pen != "" {
			kept = kept[:0:0]
			byOwnRule = true
		}
	}
	if pen == "" {
		// «заплатили аренду за декабрь 04.12, пени сколько»: the days late from the month's term
		if pen, penHit = latePaidPenalty(q, hits, rds, placeOf); pen != "" {
			kept = kept[:0:0] // the penalty clause alone, quoted below
			byOwnRule = true
		}
	}
	unitsOf := func(doc int) []library.Unit { return cds[doc].Units }
	due, dueHit := deadlineFor(q, current, placeOf, signed, ends, unitsOf)
	if due == "" && asksPaying.MatchString(q.Text) {
		// «крайний срок оплаты агенту»: the payment's term among the clauses scoring near the
		// kept ones, when none of these is a payment's
		due, dueHit = deadlineFor(q, penOf, placeOf, signed, ends, unitsOf)
	}
	if due != "" && !slices.ContainsFunc(kept, sameUnit(dueHit)) {
		kept = quotedAlone(hits, dueHit) // the clause computed by is the one quoted
	}
	titleOf := func(di int) string { return docs[di].Meta.Title }
	across, acrossUnits, penAcross := penaltiesAcross(q, rds, hits, placeOf, titleOf)
	if compared {
		across, acrossUnits, penAcross = cmpLead, cmpUnits, true
	}
	if penAcross {
		pen, kept = across, acrossUnits // «задолжали 240 000 на 12 дней сколько пени»: under which contract?
	} else if pen != "" && !slices.ContainsFunc(kept, sameUnit(penHit)) {
		kept = quotedAlone(hits, penHit) // the clause computed by is the one quoted
	}
	if due == "" {
		// «когда следующий платёж по субаренде»: the monthly term's next date from today
		var next library.ClauseHit
		if due, next = nextPaymentDue(q, hits, rds, placeOf); due != "" {
			kept = quotedAlone(hits, next)
		}
	}
	if due == "" {
		// «допник 2 с какого числа новая ставка»: the day the new wording applies from
		var eh library.ClauseHit
		if due, eh = effectiveFor(q, hits, rds, docs); due != "" {
			kept = quotedAlone(hits, eh)
		}
	}
	if due == "" {
		due = dueDayFor(q, current, placeOf, unitsOf)
	}
	if due == "" && askedDeadline.MatchString(q.Text) && len(kept) > 0 {
		// «аренду за ноябрь до какого надо было»: the month's word draws the agreement's clause
		// on what it hands over from November; the payment's monthly term is among the clauses
		// of the quoted documents and of the contracts they amend
		var docsOf []int
		for _, k := range kept {
			docsOf = append(docsOf, k.Doc)
			if c := contractOf(rds, k.Doc); c >= 0 {
				docsOf = append(docsOf, c)
			}
		}
		var terms []library.ClauseHit
		for _, h := range asNow(hits) {
			if slices.Contains(docsOf, h.Doc) && h.Unit.Kind == library.UnitClause && paysByDay(h.Unit.Text) {
				terms = append(terms, h)
				if len(terms) == 3 {
					break
				}
			}
		}
		if len(terms) > 0 {
			if due = dueDayFor(q, terms, placeOf, unitsOf); due != "" {
				kept = quotedAlone(hits, terms[0])
			}
		}
	}
	if due == "" {
		// «инвентаризация когда»: «ежегодно по состоянию на 31 декабря», that clause alone quoted
		var yh library.ClauseHit
		if due, yh = yearlyFor(q, current, placeOf); due != "" {
			if i := slices.IndexFunc(kept, func(k library.ClauseHit) bool { return k.Doc == yh.Doc && k.Unit.Index == yh.Unit.Index }); i >= 0 {
				kept = kept[i : i+1]
			}
		}
	}
	net := ""
	if pen == "" && due == "" {
		// «сколько в месяц за склад вместе с тко»: the monthly payment and the fee named with it
		var with []library.ClauseHit
		if net, with = monthlyWith(q, kept, rds, docs, placeOf); net != "" {
			kept = with
		}
	}
	if net == "" && pen == "" && due == "" {
		net = perUnitFor(q, current, placeOf) // «аренда за год без ндс»: twelve months of the net amount
	}
	if net == "" {
		net = netOfVAT(q, current, placeOf)
	}
	if net == "" && pen == "" && due == "" {
		net = invoiceLineFor(q, current, placeOf) // «плёнка по чём за рулон с ндс»: a УПД's line printed as text
	}
	if net == "" && pen == "" && due == "" {
		net = grossOfVAT(q, current, cds, placeOf) // «газель час с ндс»: a net tariff plus the VAT charged on top
	}
	if net == "" && pen == "" && due == "" {
		net = monthsOfPaymentFor(q, current, placeOf, monthly) // «ограничена суммой абонентской платы за 3 месяца»
	}
	if net == "" && pen == "" && due == "" {
		// «а максимум какая тогда будет плата в месяц»: the payment grown by the most its cap allows
		var capHit library.ClauseHit
		if net, capHit = mostAfterIncrease(q, hits, rds, placeOf); net != "" {
			kept = quotedAlone(hits, capHit)
		}
	}
	if net == "" && pen == "" && due == "" {
		// «страховка груза на 2 млн сколько будет»: a share of the sum the question names
		var shareHit library.ClauseHit
		if net, shareHit = shareFor(q, hits, cds, placeOf); net != "" {
			// the clause computed by, and what else was kept of its document
			same := []library.ClauseHit{shareHit}
			for _, k := range kept {
				if k.Doc == shareHit.Doc && k.Unit.Index != shareHit.Unit.Index && len(same) < clauseQuotes {
					same = append(same, k)
				}
			}
			kept = same
		}
	}
	if net == "" && pen == "" && due == "" {
		// «страхование товара на 8 млн в мес»: a rate per thousand roubles of the sum (a share
		// of it a clause sets answered first)
		var th library.ClauseHit
		if net, th = perThousandFor(q, hits, cds, placeOf); net != "" {
			kept, byOwnRule = []library.ClauseHit{th}, true
		}
	}
	if net == "" && pen == "" && due == "" {
		// «аванс аудиторам по 3 этапу сколько»: a clause's share of the cost of the row named
		var rs []library.ClauseHit
		if net, rs = rowShareFor(q, hits, rds, placeOf); net != "" {
			kept, byOwnRule = rs, true
		}
	}
	if net == "" && pen == "" && due == "" {
		// «сэкономил 60 л, средняя цена 66,40, премия какая»: a share of the cost the question gives
		var ph library.ClauseHit
		if net, ph = productShareFor(q, hits, placeOf); net != "" {
			kept = quotedAlone(hits, ph)
		}
	}
	placeUnit := func(u library.Unit, doc int) string { return unitPlace(u, docs[doc].Meta) }
	whole, interest := wholeTermFor(q, hits, cds, func(u library.Unit) bool {
		_, _, ok := amendmentOf(rds, library.ClauseHit{Doc: hits[0].Doc, Unit: u})
		return ok
	}, placeUnit), interestFor(q, hits, cds, placeUnit)
	if whole == "" && net == "" && pen == "" && due == "" {
		// «сколько за 2026 год постоянки»: month by month, each in its wording then
		var used []library.ClauseHit
		if whole, used = periodTotalFor(q, hits, rds, docs); whole != "" {
			kept = used
		}
	}
	sum, summed := rowsTotalFor(q, hits, placeOf)
	if sum != "" {
		kept = summed // every row of the sum, whatever clauseQuotes keeps
	} else {
		sum = areaTotalFor(q, kept, placeOf) // «площадь по субаренде»: the warehouse and the office together
	}
	who, named := partiesFor(q, kept, rds)
	sched, scheduled := scheduleFor(q, hits, cds)
	if !scheduled && asksRest.MatchString(q.Text) {
		// «остаток займа на 01.01.2027»: the schedule of the document the question names, though
		// another's clause (a date of the lease) scored best
		if i := slices.IndexFunc(hits, func(h library.ClauseHit) bool { return h.Named }); i > 0 && hits[i].Doc != hits[0].Doc {
			var own []library.ClauseHit
			for _, h := range hits {
				if h.Doc == hits[i].Doc {
					own = append(own, h)
				}
			}
			if sched, scheduled = scheduleFor(q, own, cds); scheduled {
				kept = own[:1]
			}
		}
	}
	if scheduled && sched.appendix {
		// an appendix's schedule: the rows the period selects, each quoted with the header
		kept = kept[:0:0]
		for _, r := range sched.all {
			if sched.rows[r.Index] && len(kept) < tableRows {
				kept = append(kept, library.ClauseHit{Doc: sched.doc, Unit: r})
			}
		}
		sched.rows = nil
	} else if scheduled {
		h := kept[0]
		h.Doc, h.Unit = sched.doc, sched.of
		kept = []library.ClauseHit{h} // the schedule's clause, with the rows the period selects
	}
	chg := "" // «на сколько изменилась сумма договора»: an amended clause's new amount less its old
	for _, h := range kept {
		if am, ai, ok := amendmentOf(rds, h); ok {
			if chg = changeOf(q, h.Unit.Text, am.Text, amendedBy(rds[ai], docs[ai])); chg != "" {
				break
			}
			if asksBefore.MatchString(q.Text) {
				// «а до допника сколько было»: the original wording's amount
				if m := firstAmount.FindString(h.Unit.Text); m != "" {
					if k, ok := kopecks(m); ok {
						chg = md.Escape(fmt.Sprintf("До «%s» (п. %s в первоначальной редакции): ", amendedBy(rds[ai], docs[ai]), h.Unit.Number)) +
							"**" + md.Escape(ru.Money(k)) + "**"
						break
					}
				}
			}
		}
	}
	// The first line computed from the units answers, in this order; with none, a best unit
	// that holds too little of the question does not answer it either.
	if askedPenalty.MatchString(strings.ToLower(q.Text)) {
		interest = "" // «проценты за 3 кв заплатил на 5 дней позже, пеня скока»: the penalty is asked, not the interest
	}
	// «на какую сумму упд», «ндс по акту»: the total the form states; «предоплата по счёту»:
	// the parts of it the form pays by days of their own
	formSum, formUnits := docTotalFor(q, hits, rds, docs)
	if share, sh := formSharesFor(q, rds, docs); share != "" {
		formSum, formUnits = share, []library.ClauseHit{sh}
	}
	if formSum == "" {
		// «цена договора аудита»: the contract's own price, not a row of its stages
		var th library.ClauseHit
		if formSum, th = contractTotalFor(q, hits, rds, placeOf); formSum != "" {
			formUnits = quotedAlone(hits, th)
		}
	}
	if formSum != "" {
		kept = formUnits
	}
	if due == "" && pen == "" && formSum == "" && interest == "" {
		// «акт 1187 до какого оплатить»: a form that states no term is paid by its contract's
		if line, units := formTermFor(q, rds, docs, hits, placeOf); line != "" {
			due, kept = line, units
		}
	}
	alsoHowMuch := asksHowMuch.MatchString(q.Text) || len(strings.Fields(q.Text)) <= 3 && asksHowMuch.MatchString(q.Continues)
	lower := strings.ToLower(q.Text)
	if due != "" && whole == "" && net == "" && pen == "" && interest == "" && alsoHowMuch &&
		!askedPenalty.MatchString(lower) && !asksInterest.MatchString(q.Text) && !countsOther.MatchString(lower) && !asksChange.MatchString(q.Text) {
		// «за ноябрь клининг сколько и до какого платим» (or «а декабрь» after it): the month's
		// payment and its term
		if total, _ := periodTotalOf(q, hits, rds, docs, false); total != "" {
			due = total + "\n" + due
		}
	}
	lead := cmp.Or(chg, formSum, interest, whole, net, pen, due, sum)
	if lead != "" && lead == capLine {
		kept = capUnits // the cap's clause and its base, whatever else was found on the way
	}
	if interest != "" && due != "" && lead == interest {
		lead = interest + "\n" + due // «сколько и до какого числа»: both
	}
	if lead != "" && res.Coverage < MinClauseCoverage*weakComputed && !named && !hits[0].Named && !scheduled && q.Continues == "" && !penAcross && !byOwnRule {
		// a figure computed from a clause that holds little of the question («тко за весь срок»
		// and the rent's monthly payment) is no answer to it
		lead = ""
	}
	switch {
	case lead == "" && !named && !scheduled && (res.Coverage < quoteCoverage || len(hits[0].Unknown) > 0 && res.Coverage < sureClauseCoverage):
		res.NotFound = true
		kept = kept[:1]
		b.WriteString("Прямого ответа в ваших документах не нашёл. Ближе всего по смыслу:\n\n")
	case lead == "" && !named && !scheduled && asksTermOf.MatchString(q.Text) && !slices.ContainsFunc(kept, func(h library.ClauseHit) bool { return h.Limit }):
		// «срок оплаты по накладной»: no unit states a period or a deadline — a form's dates
		// are no term of payment
		res.NotFound = true
		kept = kept[:1]
		b.WriteString("Прямого ответа в ваших документах не нашёл: срока в них нет. Ближе всего по смыслу:\n\n")
	case lead == "" && !named && !scheduled && hits[0].Asked != 0 && (res.Coverage < sureClauseCoverage || hits[0].Asked&library.FigureBits != 0) && interrogative.MatchString(q.Text) &&
		!slices.ContainsFunc(kept, func(h library.ClauseHit) bool { return h.States.Answers(hits[0].Asked) }):
		// «кто от нас подписывал допник» and a clause that names nobody: what it holds is not
		// what was asked
		res.NotFound = true
		kept = kept[:1]
		b.WriteString("Прямого ответа в ваших документах не нашёл. Ближе всего по смыслу:\n\n")
	case lead == "" && !named && !scheduled && hits[0].Unit.Kind == library.UnitRow && hits[0].Partial:
		// «принтер hp»: one row has the printer, another HP — no row is what was asked
		res.NotFound = true
		kept = kept[:min(len(kept), 2)]
		b.WriteString("Строки, в которой было бы всё, о чём вы спросили, не нашёл. Ближе всего:\n\n")
	case lead == "" && !scheduled && whatIf(q.Text):
		// «грузчики 2 чел на 2 часа почем»: figures of the user's own that no computation here
		// takes — the clause's own figures are no answer to them
		res.WhatIf = true
		b.WriteString("Посчитать это по вашим цифрам не берусь: готового расчёта в документах не нашёл. Условие, по которому считают:\n\n")
	case lead != "":
		b.WriteString(lead + "\n\n")
	case !named && !scheduled && res.Coverage >= sureClauseCoverage:
		// A clause that holds the question and states one amount of what is asked: the
		// amount opens the answer, the clause follows («185 760,00 ₽ — п. 3.2»).
		if l := amountLead(q, hits, kept, rds, placeOf); l != "" {
			b.WriteString(l + "\n\n")
		}
	}
	if who != "" && !res.NotFound {
		b.WriteString(who + "\n\n")
	}
	var only map[int]bool
	if scheduled {
		b.WriteString(sched.line + "\n\n")
		only = sched.rows
	}
	var srcs []facts.Source
	var amended []string
	footnote := map[string]int{}
	for _, h := range kept {
		d := docs[h.Doc]
		title := d.Meta.Title
		if p := rds[h.Doc].pages[h.Unit.Index]; p > 0 && (d.Meta.Format == "pdf" || d.Meta.Pages > 1) {
			title = fmt.Sprintf("%s, стр. %d", title, p) // as Sources cites a passage's page
		}
		n, ok := footnote[title]
		if !ok {
			srcs = append(srcs, facts.Source{Title: title})
			n = len(srcs)
			footnote[title] = n
		}
		where := unitPlace(h.Unit, d.Meta)
		res.Quoted = append(res.Quoted, d.Meta.Title+" "+where)
		if where != "" {
			where = ", " + where
		}
		if am, ai, ok := amendmentOf(rds, h); ok {
			// The clause was set anew: its new wording is the answer, the original follows.
			ad := docs[ai]
			an, ok := footnote[ad.Meta.Title]
			if !ok {
				srcs = append(srcs, facts.Source{Title: ad.Meta.Title})
				an = len(srcs)
				footnote[ad.Meta.Title] = an
			}
			by := amendedBy(rds[ai], ad)
			res.Quoted = append(res.Quoted, ad.Meta.Title+" п. "+am.Unit.Number)
			amended = append(amended, ad.Meta.ID)

			fmt.Fprintf(&b, "**%s**%s — в редакции «%s»:\n", md.Escape(d.Meta.Title), md.Escape(where), md.Escape(by))
			fmt.Fprintf(&b, "> %s [%d]\n\n_Первоначальная редакция:_\n> %s [%d]\n\n", md.Escape(am.Text), an, quoteText(h.Unit), n)
			continue
		}
		fmt.Fprintf(&b, "**%s**%s:\n", md.Escape(d.Meta.Title), md.Escape(where))
		fmt.Fprintf(&b, "> %s [%d]\n\n", quoteText(h.Unit)+tableOf(cds[h.Doc].Units, h.Unit, only), n)
	}
	var quoted []string
	for _, h := range kept {
		if !slices.Contains(quoted, docs[h.Doc].Meta.ID) {
			quoted = append(quoted, docs[h.Doc].Meta.ID)
		}
	}
	for _, id := range amended {
		if !slices.Contains(quoted, id) {
			quoted = append(quoted, id)
		}
	}
	return skill.Reply{Text: strings.TrimSpace(b.String()), Sources: srcs, Quoted: quoted}, res, true
}

// asksRest: the question asks what is left of a sum («остаток займа», «сколько осталось
// вернуть», «какой долг останется», «сколько ещё платить»).
var asksRest = regexp.MustCompile(`(?i)остат\p{L}*|осталось|останется|оставш\p{L}*|ещ[её]\s+(?:\p{L}+\s+)?(?:плат|заплат|внест|вернуть|гасить|погасить)\p{L}*`)

// interrogative: the question asks by a question word what kind of answer it wants («кто», «когда»,
// «сколько», «какой срок»), not whether something holds («можно ли …?»).
var interrogative = regexp.MustCompile(`(?i)(^|[^\p{L}])(кто|кого|кому|когда|сколько|скока|скоко|какой|какая|какое|какие|каков\p{L}*|до\s+какого|какого\s+числа|за\s+сколько)([^\p{L}]|$)`)

// asksMeasure: the question asks an amount of something else than money — an area, days, a
// count («сколько метров», «скока лицензий»); asksShare: a share. Neither is a clause's sum, nor
// is a rate (asksRate).
var (
	asksMeasure = regexp.MustCompile(`(?i)метр|кв\.?\s?м|площад|(сколько|скока|скоко|скольк\p{L}*)\s+(\p{L}+\s+)?` +
		`(дн|дней|суток|недел|месяцев|лет|год|час|минут|штук|шт|раз|человек|мест|лиценз|паллет|короб|км|километр|тонн|процент)`)
	asksShare = regexp.MustCompile(`(?i)(^|[^\p{L}])дол[яюи]([^\p{L}]|$)`)
)

// sameUnit matches a hit of h's unit.
func sameUnit(h library.ClauseHit) func(library.ClauseHit) bool {
	return func(k library.ClauseHit) bool { return k.Doc == h.Doc && k.Unit.Index == h.Unit.Index }
}

// quotedAlone is the unit of h as the answer quotes it alone: as ranked, when it was (in its own
// wording, an amended one following), else as h has it.
func quotedAlone(hits []library.ClauseHit, h library.ClauseHit) []library.ClauseHit {
	if i := slices.IndexFunc(hits, sameUnit(h)); i >= 0 {
		return []library.ClauseHit{hits[i]}
	}
	return []library.ClauseHit{h}
}

// weakPenalty: a clause scoring this share of the best one's may still be the penalty a
// question's days and amount are computed by.
const weakPenalty = 0.5

// rivalClause: a clause scoring this share of the best one's is as likely the answer.
const rivalClause = 0.7

// sumsOf are the distinct sums a clause states, without their VAT («в том числе НДС 22 % —
// 33 497,70» is the VAT of the sum before it).
func sumsOf(text string) []string {
	var out []string
	for _, at := range firstAmount.FindAllStringIndex(text, -1) {
		if vatBefore.MatchString(text[max(0, at[0]-40):at[0]]) {
			continue
		}
		if a := text[at[0]:at[1]]; !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// bound reports whether an amount of text bounds something — a threshold or a limit, «при
// выручке свыше 2 500 000,00 рублей», «не более 300 000,00 рублей» — rather than states it.
func bound(text string) bool {
	for _, at := range firstAmount.FindAllStringIndex(text, -1) {
		if boundBefore.MatchString(text[max(0, at[0]-30):at[0]]) {
			return true
		}
	}
	return false
}

// boundBefore: the words right before a bounding amount.
var boundBefore = regexp.MustCompile(`(?i)(свыше|превыша\p{L}*|сверх|более|менее|(^|[^\p{L}])(до|от))\s*$`)

// vatBefore: the text before an amount names VAT («в том числе НДС 22 % — »).
var vatBefore = regexp.MustCompile(`НДС[^.;,]{0,15}$|НДС\s*\d{1,2}\s*%\s*[—–-]?\s*$`)

// amountLead is an answer's opening line when the question asks an amount and the clause that
// answers best, quoted below — as set anew, where an agreement did — states exactly one besides
// its VAT: «**185 760,00 ₽** — п. 3.2.»; "" otherwise (a question of time, a row, several
// amounts).
//
// A clause nearly as good that states another sum makes it no answer: «сколько платим за склад в
// месяц» is the rent or the waste removal fee, and the quotes say which.
func amountLead(q Question, hits, kept []library.ClauseHit, rds []*readDoc, placeOf func(library.ClauseHit) string) string {
	best := hits[0]
	if !q.Asking.Amount || q.Asking.Term || q.Asking.When || best.Unit.Kind != library.UnitClause ||
		asksMeasure.MatchString(q.Text) || asksRate.MatchString(q.Text) || asksShare.MatchString(q.Text) ||
		!slices.ContainsFunc(kept, func(h library.ClauseHit) bool { return h.Doc == best.Doc && h.Unit.Index == best.Unit.Index }) {
		return ""
	}
	text := best.Unit.Text
	if am, _, ok := amendmentOf(rds, best); ok {
		text = am.Text
	}
	amounts := sumsOf(text)
	if len(amounts) != 1 || bound(text) {
		return "" // (an amount that bounds something — «при выручке свыше 2 500 000,00 рублей» — is no sum of it)
	}
	for _, h := range hits[1:] {
		if h.Score < best.Score*rivalClause {
			break
		}
		other := h.Unit.Text
		if am, _, ok := amendmentOf(rds, h); ok {
			other = am.Text
		}
		if slices.ContainsFunc(sumsOf(other), func(a string) bool { return a != amounts[0] }) {
			return "" // a rival clause states another sum
		}
	}
	k, ok := kopecks(amounts[0])
	if !ok {
		return ""
	}
	return "**" + md.Escape(ru.Money(k)) + "**" + md.Escape(" — "+placeOf(best)+".")
}

// amendedBy names the document that set a clause anew: «ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1 от
// 21.01.2026», whatever its file is called.
func amendedBy(rd *readDoc, d docstore.Doc) string {
	by := d.Meta.Title
	if rd.header.Title != "" {
		by = rd.header.Title
	}
	if !rd.header.Date.IsZero() {
		by += " от " + rd.header.Date.Format("02.01.2006")
	}
	return by
}

// tableOf is the table a clause introduces («… по следующему графику:»), as quote lines: its
// header and up to tableRows rows (those of only, when it is not nil); "" for a clause with none.
func tableOf(us []library.Unit, u library.Unit, only map[int]bool) string {
	if u.Kind != library.UnitClause || !strings.HasSuffix(u.Text, ":") {
		return ""
	}
	var b strings.Builder
	rows := 0
	for _, r := range us[min(u.Index+1, len(us)):] {
		if r.Kind != library.UnitRow || r.Clause != u.Number {
			break
		}
		if only != nil && !only[r.Index] {
			continue // a schedule's rows outside the period asked
		}
		if rows == 0 {
			b.WriteString("\n> " + md.Escape(r.Lead[strings.LastIndexByte(r.Lead, '\n')+1:]))
		}
		if rows++; rows > tableRows {
			b.WriteString("\n> …")
			break
		}
		b.WriteString("\n> " + md.Escape(r.Text))
	}
	if rows > 0 {
		return b.String()
	}
	// «4.3. Вознаграждение уплачивается в два этапа:» says nothing without its subclauses.
	n := 0
	for _, r := range us[min(u.Index+1, len(us)):] {
		if r.Kind != library.UnitClause || !strings.HasPrefix(r.Number, u.Number+".") {
			break
		}
		if n++; n > tableRows {
			b.WriteString("\n> …")
			break
		}
		b.WriteString("\n> " + md.Escape(r.Text))
	}
	return b.String()
}

// tableRows bounds the rows of a table quoted with its clause.
const tableRows = 12

// paysByDay: a clause sets a monthly payment's term by a day of a month («не позднее 5-го
// числа текущего месяца», «до 5-го рабочего дня месяца, следующего за …») — not the day an
// invoice is issued by («выставляет счёт … до 10-го числа месяца, следующего за расчётным»).
func paysByDay(text string) bool {
	for _, re := range []*regexp.Regexp{nextMonthDay, nthWorkingDay} {
		for _, m := range re.FindAllString(text, -1) {
			if !issuedBy(text, m) {
				return true
			}
		}
	}
	return false
}

// amendmentOf is the new wording another of the documents gives the clause of h (a
// supplementary agreement to h's contract, by the contract's number), with that document's
// index; the last such document wins.
func amendmentOf(rds []*readDoc, h library.ClauseHit) (library.Amendment, int, bool) {
	number := rds[h.Doc].header.Number
	if h.Unit.Kind != library.UnitClause || number == "" {
		return library.Amendment{}, 0, false
	}
	var found library.Amendment
	at, ok := 0, false
	for i, rd := range rds {
		for _, am := range rd.amends {
			if i != h.Doc && am.Clause == h.Unit.Number && library.SameNumber(am.Contract, number) {
				if am.Old != "" {
					// words of the clause replaced: its new wording is its text so changed
					text, replaced := am.Reworded(h.Unit.Text)
					if !replaced {
						continue
					}
					am.Text = text
				}
				found, at, ok = am, i, true
			}
		}
	}
	return found, at, ok
}

// namedFirst: a unit of the document the question names («аванс по подряду когда
// зачитывается») that scores nearly as well as the best, another document's, and holds as much
// of the question answers first — the other document's is then no answer (Clauses keeps only
// the named one's).
//
// A document named by a figure of its title only («за 2026 год» and «Акт … ноябрь 2026») is not
// named so.
func namedFirst(q string, hits []library.ClauseHit, title func(doc int) string) []library.ClauseHit {
	if len(hits) < 2 || hits[0].Named || !hits[0].AnyNamed {
		return hits
	}
	for i, h := range hits[1:] {
		if h.Score < hits[0].Score*namedOverOther {
			break
		}
		if h.Named && h.Coverage >= hits[0].Coverage && sharesWord(q, title(h.Doc)) {
			out := make([]library.ClauseHit, 0, len(hits))
			out = append(out, h)
			out = append(out, hits[:i+1]...)
			return append(out, hits[i+2:]...)
		}
	}
	return hits
}

// namedOverOther is how much lower the named document's unit may score than another's and
// still answer first (namedFirst).
const namedOverOther = 0.7

// sharesWord reports whether a and b have a word of four letters or more in common, in any
// form (their first five letters: «подряду» and «ПОДРЯДА»).
func sharesWord(a, b string) bool {
	stems := func(s string) map[string]bool {
		out := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if r := []rune(w); len(r) >= 4 {
				out[string(r[:min(5, len(r))])] = true
			}
		}
		return out
	}
	sb := stems(b)
	for st := range stems(a) {
		if sb[st] {
			return true
		}
	}
	return false
}

// rowAmendmentOf is the agreement's new price of h, a row of a contract's table (by the
// row's number and, when the agreement quotes it, its name), and the agreement's document.
func rowAmendmentOf(rds []*readDoc, h library.ClauseHit) (library.Amendment, int, bool) {
	number := rds[h.Doc].header.Number
	if h.Unit.Kind != library.UnitRow || number == "" {
		return library.Amendment{}, 0, false
	}
	for i, rd := range rds {
		for _, am := range rd.amends {
			if i == h.Doc || am.Row == "" || am.Row != h.Unit.Number || !library.SameNumber(am.Contract, number) {
				continue
			}
			if am.Name != "" && !strings.Contains(strings.ToLower(h.Unit.Text), strings.ToLower(firstWords(am.Name, 2))) {
				continue // another table's row of that number
			}
			return am, i, true
		}
	}
	return library.Amendment{}, 0, false
}

// firstWords are the first n words of s, as written.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// withPrice is a row's text with its one amount set to price; ok is false when the row has
// no amount or several (which one the agreement sets is then not known).
func withPrice(row, price string) (string, bool) {
	cells := strings.Split(row, " | ")
	at := -1
	for i, c := range cells {
		if moneyCellText.MatchString(strings.TrimSpace(c)) {
			if at >= 0 {
				return "", false
			}
			at = i
		}
	}
	if at < 0 {
		return "", false
	}
	cells[at] = price
	return strings.Join(cells, " | "), true
}

// asksBefore: the question asks what a clause said before it was amended («до допника»,
// «первоначально», «сколько было раньше»).
var asksBefore = regexp.MustCompile(`(?i)(^|[^\p{L}])до\s+(допник\p{L}*|дс|доп\p{L}*\s+соглашени\p{L}*|изменени\p{L}*)|первоначальн|изначальн|было\s+раньше|раньше\s+было`)

// oneContract: the documents ids are one contract and the agreements that amend it — a dialog
// about them is about one contract («а до допника сколько было»), not several documents.
func oneContract(rds []*readDoc, docs []docstore.Doc, ids []string) bool {
	if len(ids) < 2 {
		return false
	}
	contract := ""
	for i, d := range docs {
		if slices.Contains(ids, d.Meta.ID) && len(rds[i].amends) == 0 {
			if contract != "" {
				return false
			}
			contract = rds[i].header.Number
		}
	}
	for i, d := range docs {
		if slices.Contains(ids, d.Meta.ID) && len(rds[i].amends) > 0 && !library.SameNumber(rds[i].amends[0].Contract, contract) {
			return false
		}
	}
	return contract != ""
}

// amendedClause is the contract's clause that h, a unit of a supplementary agreement, sets anew
// (as a hit of the contract); ok is false for any other unit.
func amendedClause(rds []*readDoc, cds []library.ClauseDoc, h library.ClauseHit) (library.ClauseHit, bool) {
	for _, am := range rds[h.Doc].amends {
		if am.Unit.Index != h.Unit.Index {
			continue
		}
		for i, rd := range rds {
			if i == h.Doc || !library.SameNumber(am.Contract, rd.header.Number) {
				continue
			}
			for _, u := range cds[i].Units {
				if u.Kind == library.UnitClause && u.Number == am.Clause {
					c := h
					c.Doc, c.Unit = i, u
					return c, true
				}
			}
		}
	}
	return library.ClauseHit{}, false
}

var (
	// headerCue: a question about a document's number or date («номер и дата договора аренды»,
	// «когда допник подписан», «от какого числа акт»).
	// «дата агентского договора», «дата допсоглашения», «когда подписали сублицензию» (done:
	// «когда подписать» asks a deadline, not a date).
	headerCue = regexp.MustCompile(`(?i)номер\s+и\s+дат|дат[аеуы]\s+(\p{L}+(ого|его|ой|ей|ых|их)\s+)?(договор|подписан|заключен|акт|соглашен|допсоглашен|доп\.?\s*соглашен|допник|дс\b|спецификац|доверенност|положени|приказ)|от\s+какого\s+числа|` +
		`когда\s+(\p{L}+\s+){0,3}(подписан|подписали|подписал[аи]?|заключ[её]н|заключили|заключал)|какой\s+номер|номер\s+(\p{L}+(ого|его|ой|ей|ых|их)\s+)?(договор|акт|соглашен|допсоглашен|допник)`)
	// fromDate: «через сколько дней с даты счёта» counts a term from a document's date — it
	// asks the term, not the date.
	fromDate = regexp.MustCompile(`(?i)(^|[^\p{L}])(с|со|от|после)\s+дат[ыи]`)
	// byDate: a question that orders documents by their dates («какой договор подписан раньше
	// всех», «самый новый договор»).
	byDate = regexp.MustCompile(`(?i)раньше\s+всех|позже\s+всех|самы[йме]\s+(ранн|поздн|стар|нов|перв|последн)`)
)

// headerOf answers a question about a document's number or date from its header: the document
// the question names, else the one whose unit answers best.
func headerOf(q Question, rds []*readDoc, docs []docstore.Doc, hits []library.ClauseHit, res ClauseResult) (skill.Reply, ClauseResult, bool) {
	di := namedDoc(hits)
	h := rds[di].header
	d := docs[di]
	res.Quoted = []string{d.Meta.Title + " (заголовок)"}
	line := "**" + md.Escape(h.Title) + "**"
	switch {
	case h.Number != "" && !h.Date.IsZero():
		line += md.Escape(fmt.Sprintf(": № %s от %s", h.Number, h.Date.Format("02.01.2006")))
	case !h.Date.IsZero():
		line += md.Escape(": от " + h.Date.Format("02.01.2006") + ", номера в заголовке нет")
	case h.Number != "":
		line += md.Escape(": № " + h.Number + ", даты в начале документа нет")
	default:
		line += md.Escape(": ни номера, ни даты в начале документа нет")
	}
	line += " [1]"
	if signedWhen.MatchString(q.Text) {
		// «когда наш гендир подписал акт»: the day each side signed it, by its e-signature
		// stamps — the form's own date is the day it was drawn up
		if ss := signaturesOf(rds[di]); len(ss) > 0 {
			own := fold(ownCompany(rds, docs))
			askedOurs := ourSide.MatchString(q.Text)
			var lines []string
			for _, sg := range ss {
				mine := ours(sg.company, own)
				day := md.Escape(sg.day.Format("02.01.2006"))
				if askedOurs && mine || !askedOurs && !mine && sharesWord(q.Text, sg.company) {
					day = "**" + day + "**" // the side asked
				}
				who := sg.company
				if sg.signer != "" {
					who += ", " + sg.signer
				}
				if mine {
					who += " (наша сторона)"
				}
				lines = append(lines, "\\- "+md.Escape(who)+" — "+day)
			}
			line = md.Escape("Подписан электронными подписями:") + "\n" + strings.Join(lines, "\n") + "\n" + line
		}
	}
	return skill.Reply{Text: line, Sources: []facts.Source{{Title: d.Meta.Title}}, Quoted: []string{d.Meta.ID}}, res, true
}

// datedDocs lists the documents by the dates of their headers, the earliest first; those
// without a date last, said so.
func datedDocs(rds []*readDoc, docs []docstore.Doc, res ClauseResult) (skill.Reply, ClauseResult, bool) {
	type dated struct {
		i int
		h library.Header
	}
	var ds []dated
	for i := range docs {
		ds = append(ds, dated{i, rds[i].header})
	}
	slices.SortStableFunc(ds, func(a, b dated) int { return undatedLast(a.h.Date, b.h.Date) })
	var b strings.Builder
	b.WriteString("Документы по датам, с самого раннего:\n\n")
	var srcs []facts.Source
	var quoted []string
	for k, x := range ds {
		d := docs[x.i]
		srcs = append(srcs, facts.Source{Title: d.Meta.Title})
		quoted = append(quoted, d.Meta.ID)
		when := "дата в начале документа не указана"
		if !x.h.Date.IsZero() {
			when = "от " + x.h.Date.Format("02.01.2006")
		}
		fmt.Fprintf(&b, "%d\\. **%s** — %s [%d]\n", k+1, md.Escape(x.h.Title), md.Escape(when), len(srcs))
	}
	res.Quoted = append(res.Quoted, "заголовки документов")
	return skill.Reply{Text: strings.TrimSpace(b.String()), Sources: srcs, Quoted: quoted}, res, true
}

// undatedLast orders dates, the zero one (none stated) after all others.
func undatedLast(a, b time.Time) int {
	if a.IsZero() != b.IsZero() {
		if a.IsZero() {
			return 1
		}
		return -1
	}
	return a.Compare(b)
}

// acrossCue: a question about every document or about which one («по всем договорам», «в
// каком договоре», «где у нас есть», «сравни аренду и заём», «с кем у нас договоры»).
var acrossCue = regexp.MustCompile(`(?i)по\s+всем|во\s+всех|по\s+каждому|в\s+как(ом|их)\s+(договор|документ)|как(ой|ие)\s+(договор|документ)|` +
	`(^|\s)где(\s|$)|сравни|с\s+кем\s+у\s+нас`)

// asksHas: the question asks which documents have something («в каких договорах есть штраф»).
var asksHas = regexp.MustCompile(`(?i)(^|[^\p{L}])(есть|предусмотрен\p{L}*|имеется|установлен\p{L}*)([^\p{L}]|$)`)

// across reports whether q asks about each of several documents: in so many words, or as the
// follow-up of an answer that quoted several.
func across(q Question) bool {
	return acrossCue.MatchString(q.Text) || len(q.Prefer) > 1 || q.Continues != "" && acrossCue.MatchString(q.Continues)
}

// acrossDocs answers a question about several documents: each document's best unit, when it
// holds the question's words and states what is asked; the documents the question names, when
// it names some.
//
// A question about the contracts («по всем договорам», «в каких договорах») is answered from the
// contracts alone, and names each contract that says nothing of it: «по всем» is every one.
func acrossDocs(q Question, rds []*readDoc, docs []docstore.Doc, hits []library.ClauseHit, res ClauseResult) (skill.Reply, ClauseResult, bool) {
	named := slices.ContainsFunc(hits, func(h library.ClauseHit) bool { return h.Affinity > 0 })
	contracts := asksContracts.MatchString(q.Text) && !named
	contract := func(i int) bool { return isContract(rds[i], docs[i]) }
	// «В каких договорах есть …»: a contract that has it holds most of what any unit holds of the
	// question — «штраф за разглашение» is neither a penalty clause nor the duty not to disclose.
	has := contracts && asksHas.MatchString(q.Text)
	// …counting only the words it asks about, not «договор» that frames it: each contract
	// unit's count, read once
	var content []string
	held := make([]int, len(hits))
	most := 0
	if has {
		for _, t := range retrieval.Tokens(q.Text) {
			if !library.DocumentWord(t) && !library.QuestionWord(t) && !slices.Contains(content, t) {
				content = append(content, t)
			}
		}
		for i, h := range hits {
			if !contract(h.Doc) {
				continue
			}
			in := retrieval.Tokens(h.Unit.Text + " " + h.Unit.Lead)
			for _, t := range content {
				if slices.Contains(in, t) {
					held[i]++
				}
			}
			most = max(most, held[i])
		}
	}
	// A document named by its party only («сравни грузчиков векторТранс и складлогистик» and the
	// sublease with ООО «СкладЛогистик Подольск»): its unit must hold something the question
	// asks about besides the names, or it is no answer.
	namesOf := func(di int) []string {
		n := docs[di].Meta.Title + " " + DocName(docs[di].Meta) + " " + rds[di].header.Title
		for _, p := range rds[di].parties {
			n += " " + p.Name
		}
		return retrieval.Tokens(n)
	}
	var asked []string
	for _, t := range retrieval.Tokens(q.Text) {
		if !library.DocumentWord(t) && !library.QuestionWord(t) {
			asked = append(asked, t)
		}
	}
	aboutSomething := func(h library.ClauseHit) bool {
		names, in := namesOf(h.Doc), retrieval.Tokens(h.Unit.Text+" "+h.Unit.Lead)
		rest := 0
		for _, t := range asked {
			if slices.Contains(names, t) || slices.ContainsFunc(hits, func(o library.ClauseHit) bool { return slices.Contains(namesOf(o.Doc), t) }) {
				continue
			}
			rest++
			if slices.Contains(in, t) {
				return true
			}
		}
		return rest == 0 // the question asks nothing but names
	}
	seen := map[int]bool{}
	var kept []library.ClauseHit
	for i, h := range hits {
		switch {
		case seen[h.Doc] || h.Matched == 0 || named && h.Affinity == 0 || contracts && !contract(h.Doc):
			continue
		case named && !has && q.Continues == "" && !aboutSomething(h):
			continue
		case has && held[i] < most:
			continue
		case h.Asked != 0 && h.States&h.Asked == 0, h.Score < hits[0].Score*acrossWeaker:
			continue
		}
		seen[h.Doc] = true
		kept = append(kept, h)
		if len(kept) == acrossQuotes {
			break
		}
	}
	if len(kept) == 0 {
		res.NotFound = true
		return skill.Reply{Text: "В ваших документах об этом ничего не нашёл."}, res, true
	}
	if has && most < len(content) {
		// «в каких договорах есть штраф за разглашение»: no contract's clause says all of it —
		// the late-payment penalties are no answer, and no list is stated as one.
		res.NotFound = true
		h := kept[0]
		d := docs[h.Doc]
		where := unitPlace(h.Unit, d.Meta)
		if where != "" {
			where = ", " + where
		}
		text := "Ни в одном договоре не нашёл пункта, где было бы всё, о чём вы спросили. Ближе всего по смыслу:\n\n" +
			fmt.Sprintf("**%s**%s:\n> %s [1]", md.Escape(d.Meta.Title), md.Escape(where), quoteText(h.Unit))
		res.Quoted = []string{d.Meta.Title + " " + unitPlace(h.Unit, d.Meta)}
		return skill.Reply{Text: text, Sources: []facts.Source{{Title: d.Meta.Title}}, Quoted: []string{d.Meta.ID}}, res, true
	}
	var b strings.Builder
	if line := mostOf(q, kept, docs); line != "" {
		b.WriteString(line + "\n\n")
	}
	var srcs []facts.Source
	var quoted []string
	for _, h := range kept {
		d := docs[h.Doc]
		srcs = append(srcs, facts.Source{Title: d.Meta.Title})
		quoted = append(quoted, d.Meta.ID)
		where := unitPlace(h.Unit, d.Meta)
		res.Quoted = append(res.Quoted, d.Meta.Title+" "+where)
		if where != "" {
			where = ", " + where
		}
		if am, ai, ok := amendmentOf(rds, h); ok && am.Text != "" {
			// a clause set anew answers in its new wording, as a single contract's answer does
			// (the sublease's penalty 0,05 % of its supplementary agreement, not the original 0,1 %)
			ad := docs[ai]
			srcs = append(srcs, facts.Source{Title: ad.Meta.Title})
			quoted = append(quoted, ad.Meta.ID)
			res.Quoted = append(res.Quoted, ad.Meta.Title+" п. "+am.Unit.Number)
			fmt.Fprintf(&b, "**%s**%s — в редакции «%s»:\n> %s [%d] [%d]\n\n", md.Escape(d.Meta.Title), md.Escape(where),
				md.Escape(amendedBy(rds[ai], ad)), md.Escape(am.Text), len(srcs)-1, len(srcs))
			continue
		}
		fmt.Fprintf(&b, "**%s**%s:\n> %s [%d]\n\n", md.Escape(d.Meta.Title), md.Escape(where), quoteText(h.Unit), len(srcs))
	}
	if contracts {
		var silent []string
		for i := range docs {
			if contract(i) && !seen[i] {
				silent = append(silent, "«"+rds[i].header.Title+"»")
			}
		}
		switch len(silent) {
		case 0:
		case 1:
			b.WriteString(md.Escape("В договоре " + silent[0] + " об этом ничего не сказано."))
		default:
			b.WriteString(md.Escape("В договорах " + strings.Join(silent, ", ") + " об этом ничего не сказано."))
		}
	}
	return skill.Reply{Text: strings.TrimSpace(b.String()), Sources: srcs, Quoted: quoted}, res, true
}

// quoteText is a unit as quoted: bounded, escaped, each line a quote's line.
func quoteText(u library.Unit) string {
	text := u.Quote()
	if r := []rune(text); len(r) > clauseRunes {
		text = string(r[:clauseRunes]) + "…"
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = md.Escape(l)
	}
	return strings.Join(lines, "\n> ")
}

// units caches documents read as their units, by owner and document id: a document does not
// change once stored (a new upload is a new id). A document of more than maxCachedUnits units
// (about 150 pages) is not kept: its terms would cost tens of megabytes; the cache holds at most
// 256 documents — about 300 KB each at that size, so under 100 MB in all.
var units, _ = lru.New[string, *readDoc](256)

const maxCachedUnits = 2000

// Evidence is how strongly the owner's documents answer text: the best unit for it, when
// some unit holds its terms (ok). The agent weighs it against the other sources before
// routing a message.
func Evidence(ctx context.Context, lib *library.Library, own, text string, a library.Asking) (library.ClauseHit, bool) {
	_, rds, err := readDocs(ctx, lib, own, nil, nil)
	if err != nil || len(rds) == 0 {
		return library.ClauseHit{}, false
	}
	cds := clauseDocs(rds)
	hits := library.RankClauses(cds, library.ClauseQuestion{Text: text, Asking: a})
	if len(hits) == 0 {
		return library.ClauseHit{}, false
	}
	h := hits[0]
	// A unit scoring nearly as well that holds more of the question says how strongly the
	// documents hold it («подотчёт директору макс сколько»: a row of the limits table, whose
	// «подотчёт» is its header's, under a clause that has the word itself).
	for _, o := range hits[1:] {
		if o.Score < hits[0].Score*weakerClause {
			break
		}
		if o.Coverage > h.Coverage {
			h = o
		}
	}
	// «по нашему положению», «в договоре»: the kind of a document the user has names it too.
	h.AnyNamed = h.AnyNamed || library.MentionsKind(text, cds)
	h.Policy = isPolicy(rds[h.Doc], cds[h.Doc])
	return h, true
}

// policyTitle: a document that is an internal policy by its title («ПОЛОЖЕНИЕ О СЛУЖЕБНЫХ
// КОМАНДИРОВКАХ», «Регламент закрытия месяца»).
var policyTitle = regexp.MustCompile(`(?i)^\s*(положени|регламент|инструкци|порядок|политик|стандарт\s+организации|учётн\p{L}*\s+политик|учетн\p{L}*\s+политик)`)

// asksTermOf: the question asks the time limit of an action («срок оплаты по накладной», «в
// какой срок вернуть»), not a date.
var asksTermOf = regexp.MustCompile(`(?i)(^|[^\p{L}])(срок\p{L}*\s+(оплат|уплат|плат|возврат|поставк|перечислен|представлен|сдач|подписан|рассмотрен|ответ)|в\s+какой\s+срок|` +
	`до\s+какого(\s+числа|\s+дня)?\s+(\p{L}+\s+)?(плат|оплат|заплат|уплат|перечисл|вернуть|возвра|сдать|подпис))`)

// isPolicy: the document is an internal policy by its header's title or its own («ПОЛОЖЕНИЕ»
// under a company's name and «УТВЕРЖДЕНО»).
func isPolicy(rd *readDoc, cd library.ClauseDoc) bool {
	return policyTitle.MatchString(rd.header.Title) || policyTitle.MatchString(cd.Names)
}

// unitPage is the page a unit stands on: that of the first chunk holding its opening words
// (0 when none does).
func unitPage(d docstore.Doc, u library.Unit) int {
	words := strings.Fields(u.Text)
	probe := strings.Join(words[:min(len(words), 6)], " ")
	for _, c := range d.Chunks {
		if strings.Contains(strings.Join(strings.Fields(c.Text), " "), probe) {
			return c.Page
		}
	}
	return 0
}

// unitPlace names where a unit stands: «п. 3.5», «строка 4» of a sheet (its header is row 1),
// «таблица, строка 2», or the section's heading.
func unitPlace(u library.Unit, m docstore.Meta) string {
	switch {
	case u.Kind == library.UnitClause:
		return "п. " + u.Number
	case u.Kind == library.UnitRow && u.Number == "":
		// a table's totals or balance row: «Итого», «Сальдо конечное»
		first := strings.Fields(u.Text)
		what := "итоговая строка"
		for _, w := range first {
			if w != "|" && !unicode.IsDigit([]rune(w)[0]) {
				what = "строка «" + strings.Trim(w, ",.:") + "…»"
				break
			}
		}
		if u.Clause != "" {
			return "п. " + u.Clause + ", " + what
		}
		return "таблица, " + what
	case u.Kind == library.UnitRow && u.Clause != "":
		return "п. " + u.Clause + ", строка " + u.Number
	case u.Kind == library.UnitRow && m.Format == "xlsx":
		n := 0
		fmt.Sscan(u.Number, &n)
		return fmt.Sprintf("строка %d", n+1)
	case u.Kind == library.UnitRow:
		return "таблица, строка " + u.Number
	}
	return ""
}

// DocName is what the user calls a document: the name they gave its file, without the
// extension («Договор 47У Сетевые Решения ИТ обслуживание»); its title when it has no file name.
func DocName(m docstore.Meta) string {
	name := strings.TrimSpace(m.FileName)
	if i := strings.LastIndexByte(name, '.'); i > 0 && len(name)-i <= 5 {
		name = name[:i]
	}
	if name == "" {
		return m.Title
	}
	return name
}

// namesOneOff reports whether a question names what a clause counted from the contract's signing
// is about, beyond the contract's own subject and paying: such a clause sets a one-off term (the
// deposit's «в течение 5 банковских дней с даты подписания», February's rent), which «сколько и
// до какого числа платим за аренду» does not ask — «когда вносить обеспечительный платёж» does.
func namesOneOff(question, clause, title string) bool {
	own := map[string]bool{"оплат": true}
	for _, t := range retrieval.Tokens(title) {
		own[t] = true
	}
	in := retrieval.Tokens(clause)
	for _, t := range retrieval.Tokens(question) {
		if !own[t] && !library.QuestionWord(t) && !library.DocumentWord(t) && slices.Contains(in, t) {
			return true
		}
	}
	return false
}

// qualifies: a clause that opens by qualifying the one before it — a condition («Если такие
// поступления превышают…», «При превышении…», «В случае…») or a word that points back at it
// («Указанная ставка…», «Такое вознаграждение…»).
var qualifies = regexp.MustCompile(`^\s*(\d+(\.\d+)*\.?\s*)?(Если|При\s|В\s+случае|Указанн|Так(ой|ая|ое|ие)\s|Дан(ный|ная|ное|ные)\s|Эт(от|а|о|и)\s)`)

// withQualifier adds to the units kept the clause right after each when it qualifies it and
// states what the question asks: «агентское вознаграждение какой %» is 6 % (п. 4.1) and 7 %
// past 5 000 000,00 a month (п. 4.2) — the first alone is a confident half-answer.
func withQualifier(kept, hits []library.ClauseHit) []library.ClauseHit {
	if len(kept) == 0 || kept[0].Asked == 0 {
		return kept
	}
	parent := func(n string) string {
		if i := strings.LastIndex(n, "."); i > 0 {
			return n[:i]
		}
		return ""
	}
	qualifier := func(of library.ClauseHit) (library.ClauseHit, bool) {
		for _, h := range hits {
			if h.Doc == of.Doc && h.Unit.Index == of.Unit.Index+1 && h.Unit.Kind == library.UnitClause &&
				of.Unit.Number != "" && parent(h.Unit.Number) == parent(of.Unit.Number) &&
				qualifies.MatchString(h.Unit.Text) && h.States&kept[0].Asked != 0 {
				return h, true
			}
		}
		return library.ClauseHit{}, false
	}
	out := make([]library.ClauseHit, 0, len(kept)+1)
	for _, k := range kept {
		if slices.ContainsFunc(out, sameUnit(k)) {
			continue
		}
		out = append(out, k)
		if q, ok := qualifier(k); ok && !slices.ContainsFunc(out, sameUnit(q)) {
			out = append(out, q)
		}
	}
	return out[:min(len(out), clauseQuotes)]
}
