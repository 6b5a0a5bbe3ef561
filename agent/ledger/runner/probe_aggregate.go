package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// aggregate_by_axis: documents or register records grouped in Go, with exact sums.

// probeAxes are the axes of aggregate_by_axis.
var probeAxes = []string{"counterparty", "contract", "account", "document_type", "month"}

// aggregateByAxis (aggregate_by_axis) groups rows in Go with exact sums: the documents of the
// counterparty or contract when one is named and no account is (no account axis), else the
// register records of the account (default: the settlement accounts).
func (p *prober) aggregateByAxis(ctx context.Context) {
	axis := p.args.Axis
	if !slices.Contains(probeAxes, axis) {
		p.unsupported("Для свода нужна ось: контрагент, договор, счёт, вид документа или месяц.")
		return
	}
	if p.args.Entity != "" && p.args.Account == "" && axis != "account" {
		if !p.loadCatalogs(ctx) {
			return
		}
		hits, _, _, ok := p.entityDocuments(ctx)
		if !ok {
			return
		}
		p.rows = documentGroups(hits, axis)
		p.summary = append(p.summary, fact("Всего", fmt.Sprintf("%d %s, групп: %d", len(hits),
			ru.Plural(len(hits), "документ", "документа", "документов"), len(p.rows))))
		return
	}
	hits, tokens, ok := p.scopedMovements(ctx)
	if !ok {
		return
	}
	groups, debit, credit := movementGroups(hits, axis)
	p.rows = groups
	p.summary = append(p.summary, fact("Итого", fmt.Sprintf("по счетам %s: оборот по дебету %s, по кредиту %s (записей: %d, групп: %d)",
		strings.Join(tokens, ", "), debit, credit, len(hits), len(groups)),
		field("Оборот по дебету", debit.String()), field("Оборот по кредиту", credit.String())))
}

// group is one group of an aggregation.
type group struct {
	key, label    string
	n             int
	debit, credit onec.Kopecks
	byType        map[string]*typeSum
	last          int // the last hit counted in n
}

type typeSum struct {
	n   int
	sum onec.Kopecks
}

// groups keeps groups in order of first appearance.
type groups struct {
	by    map[string]*group
	order []string
}

func (g *groups) get(key, label string) *group {
	if g.by == nil {
		g.by = map[string]*group{}
	}
	x := g.by[key]
	if x == nil {
		x = &group{key: key, label: label, byType: map[string]*typeSum{}, last: -1}
		g.by[key] = x
		g.order = append(g.order, key)
	}
	return x
}

func (g *groups) list() []*group {
	out := make([]*group, len(g.order))
	for i, k := range g.order {
		out[i] = g.by[k]
	}
	return out
}

// movementGroups are register records grouped by axis on the side that matched: the debit and
// credit turnover and the number of records of each group, and the totals.
func movementGroups(hits []movHit, axis string) ([]facts.Item, onec.Kopecks, onec.Kopecks) {
	var g groups
	var debit, credit onec.Kopecks
	for i, h := range hits {
		m := h.m
		for _, side := range []struct {
			on            bool
			account       string
			party, deal   Ref
			debit, credit onec.Kopecks
		}{
			{h.dr, m.AccountDr, m.PartyDr, m.ContractDr, m.Amount, 0},
			{h.cr, m.AccountCr, m.PartyCr, m.ContractCr, 0, m.Amount},
		} {
			if !side.on {
				continue
			}
			var key, label string
			switch axis {
			case "counterparty":
				key, label = side.party.UUID, orDefault(side.party.Presentation, "без контрагента")
			case "contract":
				key, label = side.deal.UUID, orDefault(side.deal.Presentation, "без договора")
			case "account":
				key, label = side.account, "Счёт "+side.account
			case "document_type":
				kind := m.Registrar.Kind()
				key, label = kind, orDefault(documentTypeNames[kind], kind)
			case "month":
				key, label = monthKey(day(m.Period)), monthLabel(day(m.Period))
			}
			x := g.get(key, label)
			x.debit += side.debit
			x.credit += side.credit
			debit += side.debit
			credit += side.credit
			if x.last != i {
				x.n++
				x.last = i
			}
		}
	}
	list := g.list()
	slices.SortStableFunc(list, func(x, y *group) int {
		switch axis {
		case "month", "account":
			return cmp.Compare(x.key, y.key)
		}
		return cmp.Or(cmp.Compare(y.debit+y.credit, x.debit+x.credit), cmp.Compare(x.label, y.label))
	})
	out := make([]facts.Item, 0, len(list))
	for _, x := range list {
		text := fmt.Sprintf("оборот по дебету %s, по кредиту %s (записей: %d)", x.debit, x.credit, x.n)
		out = append(out, fact(x.label, text, field("Оборот по дебету", x.debit.String()), field("Оборот по кредиту", x.credit.String()),
			field("Записей", strconv.Itoa(x.n))))
	}
	return out, debit, credit
}

// documentGroups are documents grouped by axis: per group the count and, per document type,
// the count and exact sum (sales, payments and acts are never added together).
func documentGroups(hits []docHit, axis string) []facts.Item {
	var g groups
	for _, h := range hits {
		r := h.row
		var key, label string
		switch axis {
		case "counterparty":
			key, label = r.PartyID, orDefault(r.Party, "без контрагента")
		case "contract":
			key, label = r.DealID, orDefault(r.Deal, "без договора")
		case "document_type":
			key, label = r.Type, orDefault(documentTypeNames[r.Type], r.Type)
		case "month":
			key, label = monthKey(r.Date), monthLabel(r.Date)
		}
		x := g.get(key, label)
		x.n++
		t := x.byType[r.Type]
		if t == nil {
			t = &typeSum{}
			x.byType[r.Type] = t
		}
		t.n++
		t.sum += r.Amount
	}
	list := g.list()
	slices.SortStableFunc(list, func(x, y *group) int {
		switch axis {
		case "month":
			return cmp.Compare(x.key, y.key)
		case "document_type":
			return cmp.Compare(slices.Index(recipe.DocumentTypes, x.key), slices.Index(recipe.DocumentTypes, y.key))
		}
		return cmp.Or(cmp.Compare(y.n, x.n), cmp.Compare(x.label, y.label))
	})
	var out []facts.Item
	for _, x := range list {
		var parts []string
		var fs []facts.Field
		for _, t := range recipe.DocumentTypes {
			s := x.byType[t]
			if s == nil {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s — %d на %s", documentTypeNames[t], s.n, s.sum))
			fs = append(fs, field(documentTypeNames[t], fmt.Sprintf("%d на %s", s.n, s.sum)))
		}
		text := fmt.Sprintf("%d %s", x.n, ru.Plural(x.n, "документ", "документа", "документов"))
		if axis == "document_type" {
			s := x.byType[x.key]
			text += " на " + s.sum.String()
		} else {
			text += ": " + strings.Join(parts, "; ")
		}
		out = append(out, fact(x.label, text, append([]facts.Field{field("Документов", strconv.Itoa(x.n))}, fs...)...))
	}
	return out
}

func monthKey(date string) string {
	if len(date) < 7 {
		return ""
	}
	return date[:7]
}

// monthLabel is «январь 2026» for "2026-01-15".
func monthLabel(date string) string {
	k := monthKey(date)
	m, err := strconv.Atoi(strings.TrimPrefix(k[min(len(k), 5):], "0"))
	if err != nil || m < 1 || m > 12 {
		return "без даты"
	}
	return ru.MonthName(time.Month(m)) + " " + k[:4]
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
