package onec

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// settlementKey is one row of Остатки or Обороты: the account, the organization and the
// settlement analytics of the account's side (-1 where absent).
type settlementKey struct {
	acc               int16
	org, cp, ctr, doc int32
}

// settlementRow is a key with its two sums (balance Дт/Кт or turnover Дт/Кт).
type settlementRow struct {
	settlementKey
	dt, kt Kopecks
}

// cutoff is the number of records of list (ordered by Период) with Период < asOf.
func (d *Demo) cutoff(list []int32, asOf int64) int {
	return sort.Search(len(list), func(i int) bool { return d.movs[list[i]].period >= asOf })
}

// matchAccounts lists the accounts of the filter: all, or those whose Код is one of the codes
// or ПОДОБНО one of the masks.
func (d *Demo) matchAccounts(a *args) []int16 {
	var out []int16
	for i, c := range d.accounts {
		if a.accAll || slices.Contains(a.accCodes, c) || slices.ContainsFunc(a.accMasks, func(m string) bool { return like(c, m) }) {
			out = append(out, int16(i))
		}
	}
	return out
}

// balances answers the Остатки templates: per account, organization and analytics, the net of
// the records before НаДату, as Дт when positive and Кт when negative; zero rows are left out.
// counterpartyOnly keeps the rows whose analytics carry a counterparty.
func (d *Demo) balances(ctx context.Context, a *args, limit int, counterpartyOnly bool) ([]map[string]any, error) {
	if a.none || a.org == refNothing || a.cp == refNothing || a.ctr == refNothing {
		return []map[string]any{}, nil
	}
	sums := make(map[settlementKey]Kopecks)
	c := checker{ctx: ctx}
	for _, acc := range d.matchAccounts(a) {
		for s := dt; s <= kt; s++ {
			list := d.byAcc[acc][s]
			for _, mi := range list[:d.cutoff(list, a.asOf)] {
				if err := c.tick(); err != nil {
					return nil, err
				}
				m := &d.movs[mi]
				an := m.side[s]
				if !matchRef(m.org, a.org) || !matchRef(an.cp, a.cp) || !matchRef(an.ctr, a.ctr) || (counterpartyOnly && an.cp < 0) {
					continue
				}
				k := settlementKey{acc, m.org, an.cp, an.ctr, an.doc}
				if s == dt {
					sums[k] += m.amount
				} else {
					sums[k] -= m.amount
				}
			}
		}
	}
	rows := make([]settlementRow, 0, len(sums))
	for k, net := range sums {
		switch {
		case net > 0:
			rows = append(rows, settlementRow{k, net, 0})
		case net < 0:
			rows = append(rows, settlementRow{k, 0, -net})
		}
	}
	return d.settlementRows(rows, limit, "СуммаОстатокДт", "СуммаОстатокКт"), nil
}

// openItems answers the Обороты templates of one counterparty or one contract: turnovers
// before НаДату per account and settlement document, on every account whose side carries the
// anchor.
func (d *Demo) openItems(ctx context.Context, a *args, limit int, byContract bool) ([]map[string]any, error) {
	anchor, index := a.cp, d.byCp
	if byContract {
		anchor, index = a.ctr, d.byCtr
	}
	if a.none || a.org == refNothing || anchor == refNothing || a.cp == refNothing || a.ctr == refNothing {
		return []map[string]any{}, nil
	}
	var list []int32
	if anchor == refAny { // no filter on the anchor: every record
		list = d.allMovements()
	} else {
		list = index[anchor]
	}
	sums := make(map[settlementKey]*settlementRow)
	c := checker{ctx: ctx}
	for _, mi := range list[:d.cutoff(list, a.asOf)] {
		if err := c.tick(); err != nil {
			return nil, err
		}
		m := &d.movs[mi]
		if !matchRef(m.org, a.org) {
			continue
		}
		for s := dt; s <= kt; s++ {
			an := m.side[s]
			if !matchRef(an.cp, a.cp) || !matchRef(an.ctr, a.ctr) {
				continue
			}
			addTurnover(sums, settlementKey{m.acc[s], m.org, an.cp, an.ctr, an.doc}, s, m.amount)
		}
	}
	return d.settlementRows(collect(sums), limit, "СуммаОборотДт", "СуммаОборотКт"), nil
}

// openContracts answers address.open_contracts.by_asof: turnovers before НаДату per account
// (60, 62, 76 and sub-accounts), organization, counterparty and contract.
func (d *Demo) openContracts(ctx context.Context, a *args, limit int) ([]map[string]any, error) {
	if a.none || a.org == refNothing || a.cp == refNothing || a.ctr == refNothing {
		return []map[string]any{}, nil
	}
	settlement := make([]bool, len(d.accounts))
	for i, code := range d.accounts {
		for _, root := range []string{"60", "62", "76"} {
			if code == root || strings.HasPrefix(code, root+".") {
				settlement[i] = true
			}
		}
	}
	sums := make(map[settlementKey]*settlementRow)
	c := checker{ctx: ctx}
	visit := func(mi int32, s int) error {
		if err := c.tick(); err != nil {
			return err
		}
		m := &d.movs[mi]
		an := m.side[s]
		if !matchRef(m.org, a.org) || !settlement[m.acc[s]] || an.ctr < 0 || !matchRef(an.cp, a.cp) || !matchRef(an.ctr, a.ctr) {
			return nil
		}
		addTurnover(sums, settlementKey{m.acc[s], m.org, an.cp, an.ctr, -1}, s, m.amount)
		return nil
	}
	if a.cp >= 0 { // one counterparty: its own records
		list := d.byCp[a.cp]
		for _, mi := range list[:d.cutoff(list, a.asOf)] {
			for s := dt; s <= kt; s++ {
				if err := visit(mi, s); err != nil {
					return nil, err
				}
			}
		}
	} else {
		for acc, ok := range settlement {
			for s := dt; ok && s <= kt; s++ {
				list := d.byAcc[acc][s]
				for _, mi := range list[:d.cutoff(list, a.asOf)] {
					if err := visit(mi, s); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return d.settlementRows(collect(sums), limit, "СуммаОборотДт", "СуммаОборотКт"), nil
}

// allMovements lists every record, by Период.
func (d *Demo) allMovements() []int32 {
	out := make([]int32, len(d.movs))
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// matchRef applies an anchor: refAny matches everything, an index only itself.
func matchRef(have, want int32) bool { return want == refAny || have == want }

func addTurnover(sums map[settlementKey]*settlementRow, k settlementKey, side int, amount Kopecks) {
	r := sums[k]
	if r == nil {
		r = &settlementRow{settlementKey: k}
		sums[k] = r
	}
	if side == dt {
		r.dt += amount
	} else {
		r.kt += amount
	}
}

func collect(sums map[settlementKey]*settlementRow) []settlementRow {
	rows := make([]settlementRow, 0, len(sums))
	for _, r := range sums {
		rows = append(rows, *r)
	}
	return rows
}

// settlementRows orders rows by account, organization, counterparty and contract names, then
// the settlement document's date and number, keeps the first limit and renders them with the
// columns of settlementColumns.
func (d *Demo) settlementRows(rows []settlementRow, limit int, dtKey, ktKey string) []map[string]any {
	slices.SortFunc(rows, func(x, y settlementRow) int {
		return cmp.Or(
			strings.Compare(d.accounts[x.acc], d.accounts[y.acc]),
			cmp.Compare(d.orgs.rankOf(x.org), d.orgs.rankOf(y.org)),
			cmp.Compare(d.cps.rankOf(x.cp), d.cps.rankOf(y.cp)),
			cmp.Compare(d.ctrs.rankOf(x.ctr), d.ctrs.rankOf(y.ctr)),
			cmp.Compare(d.docs.rankOf(x.doc), d.docs.rankOf(y.doc)),
		)
	})
	rows = rows[:min(len(rows), limit)]
	out := make([]map[string]any, len(rows))
	for i, r := range rows {
		// An analytic the record lacks is the NULL of the templates' ВЫБОР … ИНАЧЕ NULL (or of
		// a subconto the account does not have); a field of a NULL, or of an object this base
		// lacks, is NULL too.
		row := map[string]any{
			"Счет":        d.accounts[r.acc],
			"Организация": d.orgs.value(r.org),
			"ОрганизацияНаименование": d.orgs.nameOrNull(r.org),
			"Контрагент":              d.cps.valueOrNull(r.cp),
			"КонтрагентНаименование":  d.cps.nameOrNull(r.cp),
			"Договор":                 d.ctrs.valueOrNull(r.ctr),
			"ДоговорНаименование":     d.ctrs.nameOrNull(r.ctr),
			"ДокументРасчетов":        d.docs.valueOrNull(r.doc),
			"ДокументРасчетовДата":    WireNull,
			"ДокументРасчетовНомер":   WireNull,
			dtKey: money(r.dt),
			ktKey: money(r.kt),
		}
		if r.doc >= 0 && r.doc < d.docs.known {
			row["ДокументРасчетовДата"] = WireDate(d.docDate[r.doc])
			row["ДокументРасчетовНомер"] = d.docNumber[r.doc]
		}
		out[i] = row
	}
	return out
}

// drilldown answers address.balance.drilldown_documents: the records before НаДату with the
// account on a side whose analytics fit the anchors; newest first.
func (d *Demo) drilldown(ctx context.Context, a *args, limit int) ([]map[string]any, error) {
	if a.none || a.org == refNothing || a.cp == refNothing || a.ctr == refNothing {
		return []map[string]any{}, nil
	}
	return d.movements(ctx, a, limit, movementQuery{
		sides: a.sides, from: math.MinInt64, to: a.asOf, newestFirst: true, contracts: true,
		keep: func(m *mov, s int) bool {
			return matchRef(m.org, a.org) && matchRef(m.side[s].cp, a.cp) && matchRef(m.side[s].ctr, a.ctr)
		},
	})
}

// movementQuery is what a ДвиженияССубконто template (the drilldown, the account card) reads
// of the register besides the accounts of its args.
type movementQuery struct {
	sides       [2]bool                     // the sides (Дт, Кт) the account condition tests
	from, to    int64                       // the records with from <= Период < to
	keep        func(m *mov, side int) bool // the rest of the condition, on the account's side
	newestFirst bool                        // Период and Регистратор.Номер descending
	contracts   bool                        // the columns ДоговорДт and ДоговорКт
}

// movements lists the records with an account of a on a side q tests that q keeps, each once,
// in the template's order (Период, Регистратор.Номер, then НомерСтроки and the recorder's
// UUID), at most limit, as wire rows.
func (d *Demo) movements(ctx context.Context, a *args, limit int, q movementQuery) ([]map[string]any, error) {
	var hits []int32
	c := checker{ctx: ctx}
	for _, acc := range d.matchAccounts(a) {
		for s := dt; s <= kt; s++ {
			if !q.sides[s] {
				continue
			}
			list := d.byAcc[acc][s]
			for _, mi := range list[d.cutoff(list, q.from):d.cutoff(list, q.to)] {
				if err := c.tick(); err != nil {
					return nil, err
				}
				if q.keep(&d.movs[mi], s) {
					hits = append(hits, mi)
				}
			}
		}
	}
	slices.Sort(hits)
	hits = slices.Compact(hits) // a record may match on both sides
	slices.SortFunc(hits, func(x, y int32) int {
		mx, my := &d.movs[x], &d.movs[y]
		first, second := mx, my
		if q.newestFirst {
			first, second = my, mx
		}
		return cmp.Or(
			cmp.Compare(first.period, second.period),
			strings.Compare(d.docNumberOf(first.rec), d.docNumberOf(second.rec)),
			cmp.Compare(mx.line, my.line),
			strings.Compare(d.docs.uuids[mx.rec], d.docs.uuids[my.rec]),
		)
	})
	hits = hits[:min(len(hits), limit)]
	out := make([]map[string]any, len(hits))
	for i, mi := range hits {
		m := &d.movs[mi]
		number := WireNull // Регистратор.Номер of a document this base lacks
		if m.rec < d.docs.known {
			number = d.docNumber[m.rec]
		}
		row := map[string]any{
			"Период":           WireDate(m.period),
			"Регистратор":      d.docs.value(m.rec),
			"РегистраторНомер": number,
			"НомерСтроки":      json.Number(strconv.Itoa(int(m.line))),
			"СчетДт":           d.accounts[m.acc[dt]],
			"СчетКт":           d.accounts[m.acc[kt]],
			"Сумма":            money(m.amount),
			"КонтрагентДт":     d.cps.valueOrNull(m.side[dt].cp),
			"КонтрагентКт":     d.cps.valueOrNull(m.side[kt].cp),
		}
		if q.contracts {
			row["ДоговорДт"] = d.ctrs.valueOrNull(m.side[dt].ctr)
			row["ДоговорКт"] = d.ctrs.valueOrNull(m.side[kt].ctr)
		}
		out[i] = row
	}
	return out, nil
}

// docDateOf and docNumberOf are sort keys of a settlement document (zero for none or unknown).
func (d *Demo) docDateOf(i int32) int64 {
	if i < 0 || i >= d.docs.known {
		return 0
	}
	return d.docDate[i]
}

func (d *Demo) docNumberOf(i int32) string {
	if i < 0 || i >= d.docs.known {
		return ""
	}
	return d.docNumber[i]
}

// money renders an amount as the toolkit does (WireNumber).
func money(k Kopecks) json.Number { return WireNumber(k) }
