package onec

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// documents answers the document templates: each ОБЪЕДИНИТЬ branch reads one document type with
// its own filters (plan.branches); deletion-marked documents are left out, newest first. An
// anchor with no filter reads every document of the base.
func (d *Demo) documents(ctx context.Context, p *plan, limit int) ([]map[string]any, error) {
	var hits []int32
	c := checker{ctx: ctx}
	seen := map[int32]bool{}
	for typ, a := range p.branches {
		if a == nil || a.org == refNothing || a.cp == refNothing || a.ctr == refNothing {
			continue
		}
		var list []int32
		switch {
		case a.cp >= 0:
			list = d.docsByCp[a.cp]
		case a.ctr >= 0:
			list = d.docsByCtr[a.ctr]
		default:
			list = d.allDocuments()
		}
		for _, i := range list {
			if err := c.tick(); err != nil {
				return nil, err
			}
			doc := d.docSrc[i]
			switch {
			case d.docType[i] != typ, doc.DeletionMark, !matchRef(d.docOrg[i], a.org),
				!matchRef(d.docCp[i], a.cp), !matchRef(d.docCtr[i], a.ctr),
				d.docDate[i] < a.from, d.docDate[i] > a.to, seen[i]:
				continue
			}
			seen[i] = true
			hits = append(hits, i)
		}
	}
	slices.SortFunc(hits, func(x, y int32) int {
		return cmp.Or(
			cmp.Compare(d.docDate[y], d.docDate[x]),
			strings.Compare(d.docNumber[y], d.docNumber[x]),
			strings.Compare(d.docType[x], d.docType[y]),
			strings.Compare(d.docs.uuids[x], d.docs.uuids[y]),
		)
	})
	hits = hits[:min(len(hits), limit)]
	out := make([]map[string]any, len(hits))
	for n, i := range hits {
		doc := d.docSrc[i]
		// NULL for the other types (the template's NULL КАК БанковскийСчет), and for a bank
		// document without our account (СчетОрганизации.НомерСчета of an empty reference).
		account := WireNull
		if isBankDocument(doc.Type) && doc.BankAccount != nil {
			account = *doc.BankAccount
		}
		row := map[string]any{
			"Ссылка":            d.docs.value(i),
			"Номер":             doc.Number,
			"Дата":              WireDate(d.docDate[i]),
			"Проведен":          doc.Posted,
			"ПометкаУдаления":   doc.DeletionMark,
			"Организация":       d.orgs.value(d.docOrg[i]),
			"Контрагент":        d.cps.value(d.docCp[i]),
			"Договор":           d.ctrs.value(d.docCtr[i]),
			"СуммаДокумента":    money(doc.Amount),
			"БанковскийСчет":    account,
			"НазначениеПлатежа": doc.Purpose,
		}
		for k, v := range p.literals[d.docType[i]] { // the branch's constant columns
			row[k] = v
		}
		out[n] = row
	}
	return out, nil
}

// allDocuments lists every document of the catalog.
func (d *Demo) allDocuments() []int32 {
	out := make([]int32, d.docs.known)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// organizations answers catalog.organizations, by name.
func (d *Demo) organizations(limit int) []map[string]any {
	orgs := slices.Clone(d.l.Organizations)
	slices.SortStableFunc(orgs, func(x, y Organization) int { return strings.Compare(x.Name, y.Name) })
	out := make([]map[string]any, 0, min(len(orgs), limit))
	for _, o := range orgs[:min(len(orgs), limit)] {
		out = append(out, map[string]any{
			"Ссылка":       d.orgs.value(lookup(d.orgs, o.Ref)),
			"Наименование": o.Name,
			"ИНН":          o.INN,
			"КПП":          o.KPP,
		})
	}
	return out
}

// legalForms maps the ledger's kinds onto the ЮрФизЛицо column.
var legalForms = map[string]string{"legal": "ЮрЛицо", "individual_entrepreneur": "ИндивидуальныйПредприниматель"}

// catalogCode is the Код of the i-th entry of a catalog of the demo ledger, which has none: BP
// numbers new entries, unique over the whole catalog; the demo numbers them in the ledger's
// order.
func catalogCode(i int) string { return fmt.Sprintf("%09d", i+1) }

// counterparties answers catalog.counterparties: by Код after a.after, deletion-marked ones
// included.
func (d *Demo) counterparties(a *args, limit int) []map[string]any {
	out := make([]map[string]any, 0, min(len(d.l.Counterparties), limit))
	for i, c := range d.l.Counterparties {
		code := catalogCode(i)
		if code <= a.after {
			continue
		}
		if len(out) == limit {
			break
		}
		form, ok := legalForms[c.Kind]
		if !ok {
			form = "ЮрЛицо" // the query's ИНАЧЕ branch
		}
		out = append(out, map[string]any{
			"Ссылка":             d.cps.value(lookup(d.cps, c.Ref)),
			"Код":                code,
			"Наименование":       c.Name,
			"НаименованиеПолное": c.FullName,
			"ИНН":                c.INN,
			"КПП":                c.KPP,
			"ЮрФизЛицо":          form,
			"ПометкаУдаления":    c.DeletionMark,
		})
	}
	return out
}

// contractKinds maps the ledger's kinds onto the ВидДоговора column.
var contractKinds = map[string]string{"with_customer": "СПокупателем", "with_supplier": "СПоставщиком"}

// contracts answers catalog.contracts: by Код after a.after.
func (d *Demo) contracts(a *args, limit int) []map[string]any {
	out := make([]map[string]any, 0, min(len(d.l.Contracts), limit))
	for i, c := range d.l.Contracts {
		code := catalogCode(i)
		if code <= a.after {
			continue
		}
		if len(out) == limit {
			break
		}
		kind, ok := contractKinds[c.Kind]
		if !ok {
			kind = "Прочее"
		}
		out = append(out, map[string]any{
			"Ссылка":       d.ctrs.value(lookup(d.ctrs, c.Ref)),
			"Код":          code,
			"Владелец":     d.cps.value(lookup(d.cps, c.OwnerRef)),
			"Организация":  d.orgs.value(lookup(d.orgs, c.OrganizationRef)),
			"Номер":        c.Number,
			"Дата":         contractDate(c.Date),
			"Наименование": c.Name,
			"ВидДоговора":  kind,
			"ВалютаВзаиморасчетов": c.Currency,
			"ПометкаУдаления":      c.DeletionMark,
		})
	}
	return out
}

// contractDate renders a contract's date ("2024-02-06") as the toolkit writes a Дата; a
// contract without one has the empty date, "Z".
func contractDate(s string) string {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return WireDate(EmptyDateSec)
	}
	return WireDate(t.Unix())
}

// accountKinds maps the ledger's types onto the Вид column.
var accountKinds = map[string]string{"active": "Активный", "passive": "Пассивный", "active_passive": "АктивноПассивный"}

// chart answers catalog.accounts, by code.
func (d *Demo) chart(limit int) []map[string]any {
	accs := slices.Clone(d.l.Accounts)
	slices.SortStableFunc(accs, func(x, y Account) int { return strings.Compare(x.Code, y.Code) })
	out := make([]map[string]any, 0, min(len(accs), limit))
	for _, a := range accs[:min(len(accs), limit)] {
		kind, ok := accountKinds[a.Type]
		if !ok {
			kind = "АктивноПассивный"
		}
		out = append(out, map[string]any{
			"Код":          a.Code,
			"Наименование": a.Name,
			"Вид":          kind,
			"ВидыСубконто": strings.Join(a.Subconto, ","),
			"УчетПоДокументамРасчетов": slices.Contains(a.Subconto, "ДокументыРасчетовСКонтрагентами"),
		})
	}
	return out
}
