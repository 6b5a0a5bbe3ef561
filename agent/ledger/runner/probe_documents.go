package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// Document primitives: query_documents and the documents behind aggregate_by_axis and
// probe_coverage.

// queryDocuments (query_documents) lists the documents of a counterparty or a contract for the
// period, with a count and an exact sum per document type.
func (p *prober) queryDocuments(ctx context.Context) {
	if !p.entityNeeded("контрагент или договор") || !p.loadCatalogs(ctx) {
		return
	}
	hits, _, _, ok := p.entityDocuments(ctx)
	if !ok {
		return
	}
	p.summary = append(p.summary, docTypeTotals(hits)...)
	for _, h := range hits {
		p.rows = append(p.rows, docFact(h))
	}
}

// docHit is a matched document and our organization it belongs to.
type docHit struct {
	row Row
	org string
}

// collectDocuments runs the documents template of the anchor for each organization.
// entityDocuments resolves the probe's entity, scopes the probe to the organizations it
// belongs to and collects its documents for the period. ok is false when the probe already has
// its outcome: nothing resolved, an error, or no documents (reported as unknown).
func (p *prober) entityDocuments(ctx context.Context) (hits []docHit, a probeAnchor, orgs []recipe.Entity, ok bool) {
	if a, ok = p.anchor(false); !ok {
		return nil, a, nil, false
	}
	if orgs, ok = p.organizations(a); !ok {
		return nil, a, nil, false
	}
	p.setScope(false, orgs, nil)
	if hits, ok = p.collectDocuments(ctx, a, orgs); !ok {
		return nil, a, orgs, false
	}
	p.out.RowsMatched = len(hits)
	if len(hits) == 0 {
		p.unknown(fmt.Sprintf("документов %s за период нет", a.name()))
		return nil, a, orgs, false
	}
	return hits, a, orgs, true
}

func (p *prober) collectDocuments(ctx context.Context, a probeAnchor, orgs []recipe.Entity) ([]docHit, bool) {
	intent, key, ref := recipe.DocumentsByParty, "Контрагент", refParam(a.party, refParty)
	if a.contract.Ref != "" {
		intent, key, ref = recipe.DocumentsByContract, "Договор", refParam(a.contract, refContract)
	}
	r, _ := recipe.For(intent)
	var hits []docHit
	for _, org := range orgs {
		res, ok := p.exec(ctx, r.ID, onec.Params{"НачалоПериода": p.fromParam(), "КонецПериода": p.toParam(),
			"Организация": refParam(org, refOrg), key: ref, "ТипДокумента": p.args.DocumentType})
		if !ok {
			return nil, false
		}
		p.dropped(res.Dropped)
		docs := res.Documents
		rows, _ := documents(docs, intent, anchors{org: org, party: a.party, contract: a.contract}, p.args.DocumentType)
		for _, row := range rows {
			hits = append(hits, docHit{row, org.Name})
		}
	}
	slices.SortStableFunc(hits, func(x, y docHit) int {
		return cmp.Or(cmp.Compare(y.row.Date, x.row.Date), cmp.Compare(y.row.Number, x.row.Number), cmp.Compare(x.row.Type, y.row.Type))
	})
	return hits, true
}

// docTypeTotals count and sum the documents per type, in the order of recipe.DocumentTypes.
func docTypeTotals(hits []docHit) []facts.Item {
	type acc struct {
		n, unposted int
		sum         onec.Kopecks
	}
	by := map[string]*acc{}
	for _, h := range hits {
		x := by[h.row.Type]
		if x == nil {
			x = &acc{}
			by[h.row.Type] = x
		}
		x.n++
		x.sum += h.row.Amount
		if h.row.Posted != nil && !*h.row.Posted {
			x.unposted++
		}
	}
	var out []facts.Item
	for _, t := range recipe.DocumentTypes {
		x := by[t]
		if x == nil {
			continue
		}
		name := documentTypeNames[t]
		text := fmt.Sprintf("%d %s на %s", x.n, ru.Plural(x.n, "документ", "документа", "документов"), x.sum)
		if x.unposted > 0 {
			text += fmt.Sprintf(" (не проведено: %d)", x.unposted)
		}
		out = append(out, fact(name, text, field("Документов", strconv.Itoa(x.n)), field("Сумма", x.sum.String())))
	}
	return out
}

func docFact(h docHit) facts.Item {
	r := h.row
	title := docTitle(r.Type, r.Number, r.Date)
	text := r.Amount.String()
	for _, s := range []string{r.Party, r.Deal} {
		if s != "" {
			text += ", " + s
		}
	}
	posted := "да"
	if r.Posted != nil && !*r.Posted {
		text += " (не проведён)"
		posted = "нет"
	}
	return fact(title, text, field("Дата", ruDate(r.Date)), field("Сумма", r.Amount.String()), field("Контрагент", r.Party),
		field("Договор", r.Deal), field("Организация", h.org), field("Проведён", posted))
}

// docTitle names a document: «Реализация товаров и услуг № СВ00-000015 от 10.01.2026».
func docTitle(kind, number, date string) string {
	s := documentTypeNames[kind]
	if s == "" {
		s = kind
	}
	if number != "" {
		s += " № " + number
	}
	if date != "" {
		s += " от " + ruDate(date)
	}
	return strings.TrimSpace(s)
}
