package runner

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// Catalog primitives: search_business_entity, resolve_entity_reference, inspect_1c_metadata,
// probe_coverage and explain_evidence_basis.

// searchEntity (search_business_entity) looks Entity up in every catalog: counterparties,
// contracts and our organizations. Several candidates of one kind are all listed.
func (p *prober) searchEntity(ctx context.Context) {
	if !p.entityNeeded("контрагент, договор или организация") || !p.loadCatalogs(ctx) {
		return
	}
	c, raw := p.cats, p.args.Entity
	p.out.RowsReceived = len(c.parties) + len(c.contracts) + len(c.orgs)
	kinds := []struct {
		what     string
		rs       Resolution
		list     []recipe.Entity
		describe func(recipe.Entity) facts.Item
	}{
		{"контрагентов", ResolveCounterparty(raw, "", c.parties), c.parties, p.partyFact},
		{"договоров", ResolveContract(raw, c.contracts, ""), c.contracts, p.contractFact},
		{"организаций", ResolveOrganization(raw, c.orgs), c.orgs, p.orgFact},
	}
	for _, k := range kinds {
		switch {
		case k.rs.Found():
			p.rows = append(p.rows, k.describe(entityByRef(k.list, k.rs.ResolvedRef)))
			if k.rs.Method == "fuzzy" {
				p.inferred = true
				p.note(fmt.Sprintf("«%s» сопоставлено с «%s» по сходству названия.", ru.Truncate(raw, 80), k.rs.Resolved))
			}
		case k.rs.Ambiguous():
			p.inferred = true
			for _, e := range k.rs.Candidates {
				p.rows = append(p.rows, k.describe(e))
			}
			p.note(fmt.Sprintf("Под «%s» подходит несколько %s (%d): уточните, какой нужен.", ru.Truncate(raw, 80), k.what, k.rs.AmbiguityCount))
		}
	}
	p.out.RowsMatched = len(p.rows)
	if len(p.rows) == 0 {
		p.unknown(fmt.Sprintf("«%s» нет в справочниках 1С (контрагенты, договоры, организации)", ru.Truncate(raw, 80)))
	}
}

// resolveReference (resolve_entity_reference) picks the one counterparty, contract or
// organization Entity names, and says how it was matched.
func (p *prober) resolveReference(ctx context.Context) {
	if !p.entityNeeded("контрагент, договор или организация") || !p.loadCatalogs(ctx) {
		return
	}
	c := p.cats
	p.out.RowsReceived = len(c.parties) + len(c.contracts) + len(c.orgs)
	a, ok := p.anchor(true)
	if !ok {
		return
	}
	var it facts.Item
	switch {
	case a.party.Ref != "":
		it = p.partyFact(a.party)
	case a.contract.Ref != "":
		it = p.contractFact(a.contract)
	default:
		it = p.orgFact(a.org)
	}
	how := matchMethods[a.method]
	it.Text = fmt.Sprintf("%s; «%s» сопоставлено %s", it.Text, ru.Truncate(p.args.Entity, 80), how)
	it.Fields = append(it.Fields, field("Сопоставлено", how))
	p.rows = append(p.rows, it)
	p.out.RowsMatched = 1
}

var matchMethods = map[string]string{"ref": "по ссылке", "inn": "по ИНН", "exact": "точно по названию",
	"normalized": "по названию без формы собственности и падежа", "fuzzy": "по сходству названия"}

func (p *prober) partyFact(e recipe.Entity) facts.Item {
	n := 0
	for _, ctr := range p.cats.contracts {
		if ctr.OwnerRef == e.Ref && !ctr.Deleted {
			n++
		}
	}
	text := "контрагент"
	if e.INN != "" {
		text += ", ИНН " + e.INN
	}
	text += fmt.Sprintf(", договоров в 1С: %d", n)
	full := e.FullName
	if full == e.Name {
		full = ""
	}
	return fact(e.Name, text, field("Вид", "контрагент"), field("Полное наименование", full), field("ИНН", e.INN),
		field("Договоров", strconv.Itoa(n)))
}

func (p *prober) contractFact(e recipe.Entity) facts.Item {
	owner, org := entityByRef(p.cats.parties, e.OwnerRef).Name, entityByRef(p.cats.orgs, e.OrgRef).Name
	text := "договор"
	if owner != "" {
		text += ", контрагент " + owner
	}
	if org != "" {
		text += ", организация " + org
	}
	return fact(e.Name, text, field("Вид", "договор"), field("Номер", e.Number), field("Дата", ruDate(e.Date)),
		field("Контрагент", owner), field("Организация", org))
}

func (p *prober) orgFact(e recipe.Entity) facts.Item {
	text := "наша организация"
	if e.INN != "" {
		text += ", ИНН " + e.INN
	}
	return fact(e.Name, text, field("Вид", "наша организация"), field("ИНН", e.INN))
}

// inspectMetadata (inspect_1c_metadata) reads the chart of accounts (the account and its
// sub-accounts when Account is set) and names the document types the lane reads.
func (p *prober) inspectMetadata(ctx context.Context) {
	res, ok := p.exec(ctx, idChart, onec.Params{})
	if !ok {
		return
	}
	token := p.args.Account
	for _, r := range res.Accounts {
		code, name := r.Code, r.Name
		if code == "" || token != "" && !accountMatches(code, token) {
			continue
		}
		p.out.RowsMatched++
		kind := accountKinds[r.Kind]
		subs := r.Subconto
		text := "«" + name + "»"
		if kind != "" {
			text += ": " + kind
		}
		if len(subs) > 0 {
			text += "; аналитика: " + strings.Join(subs, ", ")
		} else {
			text += "; без аналитики по субконто"
		}
		p.rows = append(p.rows, fact("Счёт "+code, text, field("Счёт", code), field("Наименование", name), field("Вид", kind),
			field("Аналитика", strings.Join(subs, ", "))))
	}
	if token != "" && p.out.RowsMatched == 0 {
		p.unknown(fmt.Sprintf("счёта %s нет в плане счетов 1С", token))
	}
	if token == "" || p.args.DocumentType != "" {
		types := recipe.DocumentTypes
		if p.args.DocumentType != "" {
			types = []string{p.args.DocumentType}
		}
		var names []string
		for _, t := range types {
			names = append(names, documentTypeNames[t])
		}
		p.summary = append(p.summary, fact("Виды документов", "Виды документов, которые я читаю в 1С: "+strings.Join(names, ", ")+"."))
	}
}

var accountKinds = map[string]string{"Активный": "активный", "Пассивный": "пассивный", "АктивноПассивный": "активно-пассивный"}

// probeCoverage (probe_coverage) counts what 1C holds: for a counterparty or contract, its
// documents in the period by type with the first and last date (and a counterparty's
// contracts); without one, the sizes of the catalogs.
func (p *prober) probeCoverage(ctx context.Context) {
	if !p.loadCatalogs(ctx) {
		return
	}
	c := p.cats
	if p.args.Entity == "" {
		live, deleted := 0, 0
		for _, e := range c.parties {
			if e.Deleted {
				deleted++
			} else {
				live++
			}
		}
		contracts := 0
		for _, e := range c.contracts {
			if !e.Deleted {
				contracts++
			}
		}
		n := len(c.orgs) + len(c.parties) + len(c.contracts) + len(c.accounts)
		p.out.RowsReceived, p.out.RowsMatched = n, n
		text := fmt.Sprintf("организаций — %d, контрагентов — %d", len(c.orgs), live)
		if deleted > 0 {
			text += fmt.Sprintf(" (и ещё %d %s на удаление)", deleted, ru.Plural(deleted, "помечен", "помечены", "помечены"))
		}
		text += fmt.Sprintf(", договоров — %d, счетов в плане счетов — %d", contracts, len(c.accounts))
		p.summary = append(p.summary, fact("Справочники 1С", text, field("Организаций", strconv.Itoa(len(c.orgs))),
			field("Контрагентов", strconv.Itoa(live)), field("Договоров", strconv.Itoa(contracts)), field("Счетов", strconv.Itoa(len(c.accounts)))))
		p.note("Без контрагента или договора документы за период не пересчитываются: такого запроса в утверждённом списке нет.")
		return
	}
	a, ok := p.anchor(false)
	if !ok {
		return
	}
	orgs, ok := p.organizations(a)
	if !ok {
		return
	}
	p.setScope(false, orgs, nil)
	hits, ok := p.collectDocuments(ctx, a, orgs)
	if !ok {
		return
	}
	name := a.name()
	if len(hits) == 0 {
		p.unknown(fmt.Sprintf("документов %s за период нет", name))
	} else {
		first, last := hits[len(hits)-1].row.Date, hits[0].row.Date
		p.summary = append(p.summary, fact(name, fmt.Sprintf("документов за период — %d, первый от %s, последний от %s", len(hits), ruDate(first), ruDate(last)),
			field("Документов", strconv.Itoa(len(hits))), field("Первый", ruDate(first)), field("Последний", ruDate(last))))
		counts := map[string]int{}
		perOrg := map[string]int{}
		for _, h := range hits {
			counts[h.row.Type]++
			perOrg[h.org]++
		}
		for _, t := range recipe.DocumentTypes {
			if n := counts[t]; n > 0 {
				p.rows = append(p.rows, fact(documentTypeNames[t], fmt.Sprintf("%d %s", n, ru.Plural(n, "документ", "документа", "документов")), field("Документов", strconv.Itoa(n))))
			}
		}
		if len(orgs) > 1 {
			for _, o := range orgs {
				p.rows = append(p.rows, fact(o.Name, fmt.Sprintf("наша организация: документов — %d", perOrg[o.Name]), field("Документов", strconv.Itoa(perOrg[o.Name]))))
			}
		}
	}
	p.out.RowsMatched = len(hits)
	if a.party.Ref != "" {
		n := 0
		for _, ctr := range c.contracts {
			if ctr.OwnerRef == a.party.Ref && !ctr.Deleted {
				n++
			}
		}
		p.summary = append(p.summary, fact("Договоры", fmt.Sprintf("с %s в 1С: %d", name, n), field("Договоров", strconv.Itoa(n))))
		p.out.RowsReceived += n
		p.out.RowsMatched += n
	}
}

// explainBasis (explain_evidence_basis) runs no query: it states where the figures come from
// and how 1C is read. The caller adds the probes it ran.
func (p *prober) explainBasis(context.Context) {
	p.summary = append(p.summary, fact("Основание ответа", fmt.Sprintf(
		"данные — %s; 1С читается только утверждёнными запросами на чтение (%s), свои запросы модель не составляет",
		p.l.src.Name(), ru.Count(len(onec.QueryIDs()), "шаблон", "шаблона", "шаблонов"))))
	p.out.Status = ProbeOK
}
