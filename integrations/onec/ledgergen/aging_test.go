package ledgergen_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// Aging of receivables and payables (address.aging.*) against an independent calculation, on
// the default demo base and on the realistic one. The calculation is written from BP 3.0's
// definitions (Reports/ЗадолженностьПокупателейПоСрокамДолга, CommonModules/
// СрокиОплатыДокументов in kassya20/buh), with plain loops over the ledger's records and the
// contracts' terms: no query language, no code of the template.
//
//   - A debt is the balance at the end of the as-of day of one account, counterparty, contract
//     and settlement document, on the side of the debt (debit on 62, credit on 60); records
//     after the day do not count, whatever they pay.
//   - A document's due date is its date plus the contract's СрокОплаты when УстановленСрокОплаты
//     is set, else plus the default; it is overdue by the calendar days from that day to the
//     as-of day, not overdue when that is 0 or less.
//   - A line without a settlement document is overdue by more than N days by what its debt
//     exceeds the increases of the line due within N days (BP: the debt less its increase over
//     the period of delay), floored at zero. An increase is a record raising the debt (a debit
//     of 62, a credit of 60, of a positive amount); a storno lowers it, as a payment does.

// agingCase is one aging asked of a base.
type agingCase struct {
	id, token   string // the template, the account
	day         time.Time
	bounds      []int // days overdue, ascending
	defaultDays int
}

// agingCell is the calculation's figures of one row: the debt, its intervals (not due, each
// bound, past the last), the open documents and the earliest due day.
type agingCell struct {
	debt      onec.Kopecks
	intervals [onec.AgingColumns]onec.Kopecks
	docs      int
	earliest  time.Time
}

// agingCalc is the calculation's aging of org, per (counterparty, contract) — contract "" when
// byContract is false.
func (c *calc) agingCalc(org string, tc agingCase, byContract bool) map[[2]string]agingCell {
	payables := tc.token == "60"
	docDate := map[string]time.Time{}
	for _, d := range c.l.Documents {
		docDate[d.Ref] = d.Date.Time
	}
	termOf := map[string]int{}
	for _, k := range c.l.Contracts {
		termOf[k.Ref] = tc.defaultDays
		if k.PaymentTermSet {
			termOf[k.Ref] = k.PaymentTermDays
		}
	}
	end := tc.day.AddDate(0, 0, 1)
	// The lines' balances, on the debt's side, and each line's increases (debits of 62,
	// credits of 60) with the day they were posted.
	type increase struct {
		day    time.Time
		amount onec.Kopecks
	}
	debt := map[key]onec.Kopecks{}
	increases := map[key][]increase{}
	c.each(org, time.Time{}, end, func(m onec.Movement, k key, signed onec.Kopecks, debit bool) {
		if !under(k.acc, tc.token) || k.cp == "" || k.ctr == "" {
			return
		}
		if payables {
			signed = -signed
		}
		debt[k] += signed
		if debit != payables && m.Amount > 0 { // a storno lowers the debt, as a payment does
			increases[k] = append(increases[k], increase{m.Period.Time, m.Amount})
		}
	})
	// daysOverdue counts calendar days from the due moment's day to the as-of day.
	daysOverdue := func(due time.Time) int {
		y, mo, d := due.Date()
		return int(tc.day.Sub(time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	}
	interval := func(days int) int {
		if days <= 0 {
			return 0
		}
		for i, b := range tc.bounds {
			if days <= b {
				return i + 1
			}
		}
		return onec.AgingColumns - 1
	}
	out := map[[2]string]agingCell{}
	for k, v := range debt {
		if v <= 0 {
			continue // an advance or an overpaid document is no debt
		}
		row := [2]string{k.cp, ""}
		if byContract {
			row[1] = k.ctr
		}
		cell := out[row]
		cell.debt += v
		term := termOf[k.ctr]
		if dated, ok := docDate[k.doc]; ok && k.doc != "" {
			due := dated.AddDate(0, 0, term)
			cell.intervals[interval(daysOverdue(due))] += v
			cell.docs++
			if cell.earliest.IsZero() || due.Before(cell.earliest) {
				cell.earliest = due
			}
			out[row] = cell
			continue
		}
		// No settlement document: overdue by more than n days = max(0, debt − increases due
		// within n days), for n = 0 and each bound.
		over := func(n int) onec.Kopecks {
			var recent onec.Kopecks
			for _, in := range increases[k] {
				if daysOverdue(in.day.AddDate(0, 0, term)) <= n {
					recent += in.amount
				}
			}
			return max(0, v-recent)
		}
		prev := over(0)
		cell.intervals[0] += v - prev
		for i, b := range tc.bounds {
			next := over(b)
			cell.intervals[i+1] += prev - next
			prev = next
		}
		cell.intervals[onec.AgingColumns-1] += prev
		out[row] = cell
	}
	return out
}

// agingParams are the template's parameters for the case: the bounds past those asked repeat
// the last one, as the lane passes them.
func agingParams(org onec.Organization, tc agingCase, byContract bool) onec.Params {
	p := onec.Params{"НаДату": onec.AsOfParam(tc.day), "Организация": ref(org.Ref, onec.TypeOrganization),
		"СчетКод": tc.token, "СчетМаска": tc.token + ".%", "Контрагент": nil, "СрокОплатыПоУмолчанию": tc.defaultDays, "Разрез": ""}
	if byContract {
		p["Разрез"] = onec.AgingByContract
	}
	p[onec.AgingBoundParam(0)] = onec.PeriodStartParam(tc.day)
	for i := 1; i <= onec.AgingBounds; i++ {
		b := tc.bounds[min(i, len(tc.bounds))-1]
		p[onec.AgingBoundParam(i)] = onec.PeriodStartParam(tc.day.AddDate(0, 0, -b))
	}
	return p
}

// checkAging compares the template's rows with the calculation; it returns the total debt.
func checkAging(t *testing.T, c *calc, d *onec.Demo, org onec.Organization, tc agingCase, byContract bool) onec.Kopecks {
	t.Helper()
	want := c.agingCalc(org.Ref, tc, byContract)
	res := ask(t, d, tc.id, agingParams(org, tc, byContract), 0)
	if len(res.Dropped) > 0 {
		t.Errorf("rows dropped: %v", res.Dropped)
	}
	got := map[[2]string]agingCell{}
	for _, r := range res.Aging {
		row := [2]string{refID(r.Counterparty), refID(r.Contract)}
		if _, dup := got[row]; dup {
			t.Errorf("%v in two rows", row)
		}
		var sum onec.Kopecks
		for i, v := range r.Intervals {
			sum += v
			if v < 0 {
				t.Errorf("%v: interval %d is negative: %s", row, i, v.Decimal())
			}
		}
		if sum != r.Debt {
			t.Errorf("%v: intervals add up to %s, the debt is %s", row, sum.Decimal(), r.Debt.Decimal())
		}
		got[row] = agingCell{debt: r.Debt, intervals: r.Intervals, docs: r.Documents, earliest: r.EarliestDue}
	}
	if len(got) != len(want) {
		t.Errorf("%d rows, the calculation %d", len(got), len(want))
	}
	var total onec.Kopecks
	bad := 0
	rows := slices.Collect(maps.Keys(want))
	slices.SortFunc(rows, func(a, b [2]string) int { return strings.Compare(a[0]+a[1], b[0]+b[1]) })
	for _, row := range rows {
		w, g := want[row], got[row]
		total += w.debt
		if !w.earliest.IsZero() { // the template's date is to the second, as 1C's
			w.earliest = w.earliest.Truncate(time.Second)
		}
		if g != w {
			if bad++; bad <= 5 {
				t.Errorf("%v:\n got %s\nwant %s", row, agingString(g), agingString(w))
			}
		}
	}
	return total
}

func agingString(a agingCell) string {
	parts := make([]string, len(a.intervals))
	for i, v := range a.intervals {
		parts[i] = v.Decimal()
	}
	return fmt.Sprintf("debt %s [%s] docs %d earliest %s", a.debt.Decimal(), strings.Join(parts, " "), a.docs, a.earliest.Format(time.DateTime))
}

// agingCases are the ages asked of a base: both sides, several days, BP's usual intervals,
// others and as many bounds as the template takes, with and without a default term.
func agingCases() []agingCase {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	return []agingCase{
		{"address.aging.receivables", "62", day(2026, 3, 31), []int{30, 60, 90}, 0},
		{"address.aging.payables", "60", day(2026, 3, 31), []int{30, 60, 90}, 0},
		{"address.aging.receivables", "62", day(2026, 1, 31), []int{30, 60, 90}, 10},
		{"address.aging.payables", "60", day(2025, 12, 31), []int{15, 45}, 20},
		{"address.aging.receivables", "62", day(2025, 6, 30), []int{10, 20, 30, 60, 90, 180}, 5},
	}
}

// TestAgingAgainstCalculation: the default demo base, by contract and by counterparty.
func TestAgingAgainstCalculation(t *testing.T) {
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	d := onec.NewDemo(l)
	c := newCalc(l)
	for _, org := range l.Organizations {
		for _, tc := range agingCases() {
			for _, byContract := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/%s/%v/contracts=%v", org.Name, tc.token, tc.day.Format(time.DateOnly), tc.bounds, byContract), func(t *testing.T) {
					total := checkAging(t, c, d, org, tc, byContract)
					if total == 0 && org.Default {
						t.Error("no debt at all: the case proves nothing")
					}
				})
			}
		}
	}
}

// TestAgingCountsOnlyPaymentsUpToTheDate is the mistake users of other tools report most: an
// aging as of a past day must not subtract a payment made after it. On the default demo, every
// customer's contract paid after the as-of day (its debt documents of that day paid in part or
// whole) is aged as the calculation ages it as of that day, and its debt is not what the
// payments made since would leave.
func TestAgingCountsOnlyPaymentsUpToTheDate(t *testing.T) {
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	d := onec.NewDemo(l)
	checkLaterPayments(t, newCalc(l), d, l.DefaultOrganization(), time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC))
}

// checkLaterPayments ages org's receivables as of day and checks each contract paid after it.
func checkLaterPayments(t *testing.T, c *calc, d *onec.Demo, org onec.Organization, day time.Time) {
	t.Helper()
	tc := agingCase{"address.aging.receivables", "62", day, []int{30, 60, 90}, 0}
	end := tc.day.AddDate(0, 0, 1)
	// The payments after the day (bank receipts crediting 62) of the lines in debt on it.
	onDay := c.balances(org.Ref, "62", end)
	later := map[[2]string]onec.Kopecks{}
	c.each(org.Ref, end, time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), func(m onec.Movement, k key, signed onec.Kopecks, debit bool) {
		if !debit && under(k.acc, "62") && onDay[k] > 0 && m.RecorderType == "ПоступлениеНаРасчетныйСчет" {
			later[[2]string{k.cp, k.ctr}] += -signed
		}
	})
	if len(later) == 0 {
		t.Fatal("no payment after the day of a line in debt on it: pick another day")
	}
	want := c.agingCalc(org.Ref, tc, true)
	res := ask(t, d, tc.id, agingParams(org, tc, true), 0)
	checked := 0
	for _, r := range res.Aging {
		row := [2]string{refID(r.Counterparty), refID(r.Contract)}
		paid, ok := later[row]
		if !ok {
			continue
		}
		checked++
		if g, w := (agingCell{debt: r.Debt, intervals: r.Intervals}), (agingCell{debt: want[row].debt, intervals: want[row].intervals}); g != w {
			t.Errorf("%s, %s as of %s:\n got %s\nwant %s", r.Counterparty.Presentation, r.Contract.Presentation,
				tc.day.Format(time.DateOnly), agingString(g), agingString(w))
		}
		if naive := want[row].debt - paid; r.Debt == naive {
			t.Errorf("%s, %s: the debt %s is what the %s paid later would leave", r.Counterparty.Presentation,
				r.Contract.Presentation, r.Debt.Decimal(), paid.Decimal())
		}
	}
	if checked == 0 {
		t.Fatal("no row with a later payment")
	}
	t.Logf("%s: %d contracts paid after %s, each aged as of that day", org.Name, checked, tc.day.Format(time.DateOnly))
}

// TestRealisticAgingAgainstCalculation: the three organizations of the realistic base — the
// head, the one without settlement documents (aged by its increases, as BP ages a debt
// without documents) and the branch — by counterparty, and by contract where it fits.
func TestRealisticAgingAgainstCalculation(t *testing.T) {
	l, d := realisticBase(t)
	c := newCalc(l)
	for _, org := range organizations(l) {
		for _, tc := range agingCases()[:3] {
			for _, byContract := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/%s/contracts=%v", org.Name, tc.token, tc.day.Format(time.DateOnly), byContract), func(t *testing.T) {
					if total := checkAging(t, c, d, org, tc, byContract); total == 0 {
						t.Error("no debt at all: the case proves nothing")
					}
				})
			}
		}
		// A past day, with payments after it that must not count: by settlement document in
		// the head organization and the branch, by the increases where no document is kept.
		t.Run(org.Name+"/later payments", func(t *testing.T) {
			checkLaterPayments(t, c, d, org, time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC))
		})
	}
}
