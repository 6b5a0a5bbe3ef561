package onec

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
)

// The demo engine of the report templates (queries_reports.go). It computes them the way the
// texts read: the virtual table's rows per account and analytics, netted and summed per cell
// (account, counterparty, contract), then grouped and split into debit and credit parts.

// periodSums are the figures of one row of ОстаткиИОбороты: the net opening balance and the
// period's turnovers (the net closing balance is open + dt − kt).
type periodSums struct{ open, dt, kt Kopecks }

func (s periodSums) close() Kopecks { return s.open + s.dt - s.kt }

// present says whether the virtual table has the row: a balance or a turnover.
func (s periodSums) present() bool { return s.open != 0 || s.dt != 0 || s.kt != 0 }

// sheetCell is a cell of the sheet (Ячейки): an account with its counterparty and contract,
// -1 where the record's side has none.
type sheetCell struct {
	acc     int16
	cp, ctr int32
}

// periodRows computes the rows of ОстаткиИОбороты(&НачалоПериода, &КонецПериода) for the
// accounts Код = code ИЛИ Код ПОДОБНО mask of one organization: per account and analytics
// (the settlement document included, as the virtual table does), the records before from
// make the opening balance, those from from to to (inclusive) the turnovers. keep filters the
// records by the analytics of the account's side.
func (d *Demo) periodRows(ctx context.Context, a *args, keep func(analytic) bool) (map[settlementKey]*periodSums, error) {
	rows := make(map[settlementKey]*periodSums)
	c := checker{ctx: ctx}
	end := a.to // records with Период <= КонецПериода
	if end < math.MaxInt64 {
		end++
	}
	for _, acc := range d.matchAccounts(a) {
		for s := dt; s <= kt; s++ {
			list := d.byAcc[acc][s]
			for _, mi := range list[:d.cutoff(list, end)] {
				if err := c.tick(); err != nil {
					return nil, err
				}
				m := &d.movs[mi]
				an := m.side[s]
				if m.org != a.org || !keep(an) {
					continue
				}
				k := settlementKey{acc, m.org, an.cp, an.ctr, an.doc}
				r := rows[k]
				if r == nil {
					r = &periodSums{}
					rows[k] = r
				}
				switch {
				case m.period < a.from && s == dt:
					r.open += m.amount
				case m.period < a.from:
					r.open -= m.amount
				case s == dt:
					r.dt += m.amount
				default:
					r.kt += m.amount
				}
			}
		}
	}
	return rows, nil
}

// sheetCells sums the virtual table's rows per cell (the nested query Ячейки).
func sheetCells(rows map[settlementKey]*periodSums) map[sheetCell]periodSums {
	cells := make(map[sheetCell]periodSums, len(rows))
	for k, r := range rows {
		if !r.present() {
			continue
		}
		c := sheetCell{k.acc, k.cp, k.ctr}
		s := cells[c]
		s.open, s.dt, s.kt = s.open+r.open, s.dt+r.dt, s.kt+r.kt
		cells[c] = s
	}
	return cells
}

// sheetLine is one output row of a sheet template: its key and the six sums.
type sheetLine struct {
	cell                   sheetCell
	openDt, openKt, dt, kt Kopecks
	closeDt, closeKt       Kopecks
}

func (l *sheetLine) add(s periodSums) {
	l.openDt, l.openKt = l.openDt+max(s.open, 0), l.openKt+max(-s.open, 0)
	l.dt, l.kt = l.dt+s.dt, l.kt+s.kt
	l.closeDt, l.closeKt = l.closeDt+max(s.close(), 0), l.closeKt+max(-s.close(), 0)
}

// Groupings of the sheet templates.
const (
	sheetByAccount = iota
	sheetByCounterparty
	sheetByContract
)

// turnoverSheet answers the turnover sheet templates: the cells grouped by account, by
// counterparty, or by counterparty and contract, each cell's net split into debit and credit.
func (d *Demo) turnoverSheet(ctx context.Context, a *args, limit, grouping int) ([]map[string]any, error) {
	if a.org == refNothing || a.cp == refNothing {
		return []map[string]any{}, nil
	}
	rows, err := d.periodRows(ctx, a, func(an analytic) bool { return matchRef(an.cp, a.cp) })
	if err != nil {
		return nil, err
	}
	groups := map[sheetCell]*sheetLine{}
	for c, s := range sheetCells(rows) {
		key := c
		switch grouping {
		case sheetByAccount:
			key = sheetCell{acc: c.acc, cp: -1, ctr: -1}
		case sheetByCounterparty:
			key = sheetCell{acc: -1, cp: c.cp, ctr: -1}
		case sheetByContract:
			key = sheetCell{acc: -1, cp: c.cp, ctr: c.ctr}
		}
		g := groups[key]
		if g == nil {
			g = &sheetLine{cell: key}
			groups[key] = g
		}
		g.add(s)
	}
	lines := make([]*sheetLine, 0, len(groups))
	for _, g := range groups {
		lines = append(lines, g)
	}
	slices.SortFunc(lines, func(x, y *sheetLine) int {
		if grouping == sheetByAccount {
			return strings.Compare(d.accounts[x.cell.acc], d.accounts[y.cell.acc])
		}
		return cmp.Or(
			cmp.Compare(d.cps.rankOf(x.cell.cp), d.cps.rankOf(y.cell.cp)),
			cmp.Compare(d.ctrs.rankOf(x.cell.ctr), d.ctrs.rankOf(y.cell.ctr)),
		)
	})
	lines = lines[:min(len(lines), limit)]
	out := make([]map[string]any, len(lines))
	for i, l := range lines {
		row := map[string]any{
			"НачальныйОстатокДт": money(l.openDt),
			"НачальныйОстатокКт": money(l.openKt),
			"ОборотДт":           money(l.dt),
			"ОборотКт":           money(l.kt),
			"КонечныйОстатокДт":  money(l.closeDt),
			"КонечныйОстатокКт":  money(l.closeKt),
		}
		switch grouping {
		case sheetByAccount:
			row["Счет"], row["Забалансовый"] = d.accounts[l.cell.acc], false // the demo chart has no off-balance accounts
		default:
			row["Контрагент"], row["КонтрагентНаименование"] = d.cps.valueOrNull(l.cell.cp), d.cps.nameOrNull(l.cell.cp)
			if grouping == sheetByContract {
				row["Договор"], row["ДоговорНаименование"] = d.ctrs.valueOrNull(l.cell.ctr), d.ctrs.nameOrNull(l.cell.ctr)
			}
		}
		out[i] = row
	}
	return out, nil
}

// cardBalances answers address.account_card.balances: one row, the collapsed opening balance,
// turnovers and closing balance of the accounts (of the counterparty's records, when given).
func (d *Demo) cardBalances(ctx context.Context, a *args) ([]map[string]any, error) {
	var total periodSums
	if a.org != refNothing && a.cp != refNothing {
		rows, err := d.periodRows(ctx, a, func(an analytic) bool { return matchRef(an.cp, a.cp) })
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			total.open, total.dt, total.kt = total.open+r.open, total.dt+r.dt, total.kt+r.kt
		}
	}
	return []map[string]any{{
		"НачальноеСальдо": money(total.open),
		"ОборотДт":        money(total.dt),
		"ОборотКт":        money(total.kt),
		"КонечноеСальдо":  money(total.close()),
	}}, nil
}

// cardMovements answers address.account_card.movements: the records of the period with the
// account on a side (whose counterparty is the given one, when given), oldest first.
func (d *Demo) cardMovements(ctx context.Context, a *args, limit int) ([]map[string]any, error) {
	if a.org == refNothing || a.cp == refNothing {
		return []map[string]any{}, nil
	}
	return d.movements(ctx, a, limit, movementQuery{
		sides: [2]bool{true, true}, from: a.from, to: min(a.to, math.MaxInt64-1) + 1,
		keep: func(m *mov, s int) bool { return m.org == a.org && matchRef(m.side[s].cp, a.cp) },
	})
}
