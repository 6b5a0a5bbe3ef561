package ledgergen_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// The act of reconciliation (address.reconciliation.balances and .lines) against an independent
// calculation, on the default demo base and on the realistic one. The calculation is written
// from BP 3.0's act (Documents/АктСверкиВзаиморасчетов, ПодготовитьДанныеДляЗаполнения;
// CommonModules/УчетВзаиморасчетов, ТекстЗапросаРасчетыСКонтрагентами in kassya20/buh), with
// plain loops over the ledger's posted records: no query language, no code of the templates.
//
//   - A side of a record is on the act when its account is 58, 60, 62, 66, 67, 76 or one of
//     their sub-accounts (not 76.НА, 76.07.1, 76.07.9: ПолучитьТаблицуСчетовУчетаВзаиморасчетов's
//     list and its exclusions), its Контрагенты subconto is the counterparty and it carries a
//     contract (the one asked, when one is).
//   - The opening balance is the sides on the act before the first day, debit less credit; the
//     closing one those up to the end of the last day.
//   - A record of the period with exactly one side on the act is a movement of its registrar's
//     line: the debit side adds to the line's debit, the credit side to its credit, but a
//     return to the supplier or a correction of a purchase on the debit side is a negative
//     credit. A record with both sides on the act moves nothing between the two companies and
//     is left out. A line whose debit and credit are both zero is no line.

// actCase is one act asked of a base: a counterparty (a contract, "" for all) and a period.
type actCase struct {
	cp, ctr  string
	from, to time.Time
}

// actLine is a registrar's line of the calculation.
type actLine struct {
	date          time.Time
	number        string
	debit, credit onec.Kopecks
	// incoming and inDate: the document's НомерВходящегоДокумента and ДатаВходящегоДокумента
	// where its type has both (a purchase and its correction, a bank document), "" and zero else.
	incoming string
	inDate   time.Time
}

// actCalc is the act as the calculation makes it.
type actCalc struct {
	opening, closing onec.Kopecks
	lines            map[string]actLine // by registrar
	internal         int                // records left out with both sides on the act
}

// actAccount: acc is one of BP's accounts of the act.
func actAccount(acc string) bool {
	switch acc {
	case "76.НА", "76.07.1", "76.07.9":
		return false
	}
	for _, root := range []string{"58", "60", "62", "66", "67", "76"} {
		if under(acc, root) {
			return true
		}
	}
	return false
}

// onAct reports whether a side of a record is on the act of cp (and ctr).
func onAct(acc string, subs []onec.Subconto, cp, ctr string) bool {
	if !actAccount(acc) {
		return false
	}
	k := sideKey(acc, subs)
	return k.cp == cp && k.ctr != "" && (ctr == "" || k.ctr == ctr)
}

func (c *calc) act(org string, tc actCase) actCalc {
	number := map[string]string{}
	docs := map[string]onec.Document{}
	for _, d := range c.l.Documents {
		number[d.Ref] = d.Number
		docs[d.Ref] = d
	}
	start, end := tc.from, tc.to.AddDate(0, 0, 1)
	out := actCalc{lines: map[string]actLine{}}
	for _, m := range c.l.Movements {
		if p, known := c.posted[m.RecorderRef]; (known && !p) || !c.in(m.OrganizationRef, org) || !m.Period.Before(end) {
			continue
		}
		dt, kt := onAct(m.AccountDr, m.SubcontoDr, tc.cp, tc.ctr), onAct(m.AccountCr, m.SubcontoCr, tc.cp, tc.ctr)
		var net onec.Kopecks
		if dt {
			net += m.Amount
		}
		if kt {
			net -= m.Amount
		}
		out.closing += net
		if m.Period.Before(start) {
			out.opening += net
			continue
		}
		if dt == kt {
			if dt {
				out.internal++
			}
			continue
		}
		line, seen := out.lines[m.RecorderRef]
		if !seen || m.Period.Before(line.date) {
			line.date = m.Period.Time
		}
		line.number = number[m.RecorderRef]
		switch d := docs[m.RecorderRef]; d.Type {
		case "ПоступлениеТоваровУслуг", "КорректировкаПоступления", "ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета":
			line.incoming = d.IncomingNumber
			if d.IncomingDate != nil {
				line.inDate = d.IncomingDate.Time
			}
		}
		switch {
		case kt:
			line.credit += m.Amount
		case m.RecorderType == "ВозвратТоваровПоставщику" || m.RecorderType == "КорректировкаПоступления":
			line.credit -= m.Amount
		default:
			line.debit += m.Amount
		}
		out.lines[m.RecorderRef] = line
	}
	for reg, line := range out.lines {
		if line.debit == 0 && line.credit == 0 {
			delete(out.lines, reg)
		}
	}
	return out
}

// actParams are the templates' parameters of a case.
func actParams(org string, tc actCase) onec.Params {
	p := onec.Params{"НачалоПериода": onec.PeriodStartParam(tc.from), "КонецПериода": onec.PeriodEndParam(tc.to),
		"Организация": ref(org, onec.TypeOrganization), "Контрагент": ref(tc.cp, onec.TypeCounterparty), "Договор": nil}
	if tc.ctr != "" {
		p["Договор"] = ref(tc.ctr, onec.TypeContract)
	}
	return p
}

// checkAct compares the templates' act with the calculation's, and returns the calculation's.
func checkAct(t *testing.T, c *calc, d *onec.Demo, org string, tc actCase) actCalc {
	t.Helper()
	want := c.act(org, tc)
	var dr, cr onec.Kopecks
	for _, l := range want.lines {
		dr, cr = dr+l.debit, cr+l.credit
	}
	if want.opening+dr-cr != want.closing {
		t.Fatalf("the calculation's closing %s is not its opening %s + %s − %s", want.closing.Decimal(), want.opening.Decimal(), dr.Decimal(), cr.Decimal())
	}
	bal := ask(t, d, "address.reconciliation.balances", actParams(org, tc), 0)
	if len(bal.CardTotals) != 1 {
		t.Fatalf("balances: %d rows, want 1", len(bal.CardTotals))
	}
	if g := bal.CardTotals[0]; g.Opening != want.opening || g.Closing != want.closing {
		t.Errorf("balances: opening %s, closing %s; the calculation %s, %s", g.Opening.Decimal(), g.Closing.Decimal(),
			want.opening.Decimal(), want.closing.Decimal())
	}
	res := ask(t, d, "address.reconciliation.lines", actParams(org, tc), 0)
	if len(res.Dropped) > 0 {
		t.Errorf("lines dropped: %v", res.Dropped)
	}
	got := map[string]actLine{}
	var prev time.Time
	for _, r := range res.Reconciliation {
		if _, dup := got[r.Registrar.UUID]; dup {
			t.Errorf("%s in two lines", r.Registrar.Presentation)
		}
		if r.Date.Before(prev) {
			t.Errorf("%s dated %s after a line of %s", r.Registrar.Presentation, r.Date.Format(time.DateTime), prev.Format(time.DateTime))
		}
		prev = r.Date
		got[r.Registrar.UUID] = actLine{date: r.Date, number: r.Number, debit: r.Debit, credit: r.Credit, incoming: r.IncomingNumber, inDate: r.IncomingDate}
	}
	if len(got) != len(want.lines) {
		t.Errorf("%d lines, the calculation %d", len(got), len(want.lines))
	}
	bad := 0
	regs := slices.Sorted(func(yield func(string) bool) {
		for k := range want.lines {
			if !yield(k) {
				return
			}
		}
	})
	for _, reg := range regs {
		w, g := want.lines[reg], got[reg]
		w.date = w.date.Truncate(time.Second)
		if g != w {
			if bad++; bad <= 5 {
				t.Errorf("%s:\n got %s\nwant %s", reg, lineString(g), lineString(w))
			}
		}
	}
	return want
}

func lineString(l actLine) string {
	return fmt.Sprintf("%s № %s (вх. %s от %s) Дт %s Кт %s", l.date.Format(time.DateTime), l.number, l.incoming, l.inDate.Format(time.DateOnly),
		l.debit.Decimal(), l.credit.Decimal())
}

// actCasesOf are the acts asked of org: every counterparty it has settlement records with, over
// a quarter, over a year that starts with the opening balances and from the middle of the
// history (so the opening balance matters), and each of the counterparty's contracts over the
// year of 2025.
func actCasesOf(l *onec.Ledger, org string, c *calc, limit int) []actCase {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	moves := map[string]int{}
	contracts := map[string]map[string]bool{}
	for _, m := range l.Movements {
		if !c.in(m.OrganizationRef, org) {
			continue
		}
		for _, k := range []key{sideKey(m.AccountDr, m.SubcontoDr), sideKey(m.AccountCr, m.SubcontoCr)} {
			if k.cp != "" && k.ctr != "" && actAccount(k.acc) {
				moves[k.cp]++
				if contracts[k.cp] == nil {
					contracts[k.cp] = map[string]bool{}
				}
				contracts[k.cp][k.ctr] = true
			}
		}
	}
	parties := make([]string, 0, len(moves))
	for cp := range moves {
		parties = append(parties, cp)
	}
	slices.SortFunc(parties, func(a, b string) int { return cmp.Or(cmp.Compare(moves[b], moves[a]), strings.Compare(a, b)) })
	if limit > 0 && len(parties) > limit {
		parties = parties[:limit]
	}
	var out []actCase
	for _, cp := range parties {
		out = append(out,
			actCase{cp: cp, from: day(2026, 1, 1), to: day(2026, 3, 31)},
			actCase{cp: cp, from: day(2024, 12, 1), to: day(2025, 12, 31)},
			actCase{cp: cp, from: day(2025, 7, 15), to: day(2026, 2, 10)})
		for _, ctr := range slices.Sorted(func(yield func(string) bool) {
			for k := range contracts[cp] {
				if !yield(k) {
					return
				}
			}
		}) {
			out = append(out, actCase{cp: cp, ctr: ctr, from: day(2025, 1, 1), to: day(2025, 12, 31)})
		}
	}
	return out
}

// TestActAgainstCalculation: the default demo base, both organizations, every counterparty.
func TestActAgainstCalculation(t *testing.T) {
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	d := onec.NewDemo(l)
	c := newCalc(l)
	var lines, internal, opened, both int
	for _, org := range l.Organizations {
		for _, tc := range actCasesOf(l, org.Ref, c, 0) {
			t.Run(fmt.Sprintf("%s/%s/%s/%s–%s", org.Name, tc.cp[:8], tc.ctr, tc.from.Format(time.DateOnly), tc.to.Format(time.DateOnly)), func(t *testing.T) {
				a := checkAct(t, c, d, org.Ref, tc)
				lines += len(a.lines)
				internal += a.internal
				if a.opening != 0 && tc.from.Year() == 2025 {
					opened++
				}
				var dr, cr bool
				for _, line := range a.lines {
					dr, cr = dr || line.debit != 0, cr || line.credit != 0
				}
				if dr && cr {
					both++
				}
			})
		}
	}
	// The cases prove something: lines, advance offsets left out, opening balances from the
	// middle of the history, acts with movements on both sides.
	if lines == 0 || internal == 0 || opened == 0 || both == 0 {
		t.Errorf("the cases prove too little: %d lines, %d internal records left out, %d mid-history openings, %d acts with both sides",
			lines, internal, opened, both)
	}
	t.Logf("%d lines, %d internal records left out, %d mid-history openings, %d acts with both sides", lines, internal, opened, both)
}

// TestActOfBothSides: a counterparty that is both our customer and our supplier (ООО «Универсал»)
// has movements on 60 and 62 in one act, netted into one balance.
func TestActOfBothSides(t *testing.T) {
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	d := onec.NewDemo(l)
	c := newCalc(l)
	var both string
	for _, cp := range l.Counterparties {
		if cp.Name == "ООО «Универсал»" {
			both = cp.Ref
		}
	}
	tc := actCase{cp: both, from: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), to: time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)}
	checkAct(t, c, d, l.DefaultOrganization().Ref, tc)
	res := ask(t, d, "address.reconciliation.lines", actParams(l.DefaultOrganization().Ref, tc), 0)
	accounts := map[string]bool{}
	for _, r := range res.Reconciliation {
		accounts[r.Account[:2]] = true
	}
	if !accounts["60"] || !accounts["62"] {
		t.Errorf("the act of ООО «Универсал» moves %v, want both 60 and 62", accounts)
	}
}

// TestRealisticActAgainstCalculation: the three organizations of the realistic base — the head
// with its обособленное подразделение, the one without settlement documents, the branch — for
// the counterparties with the most settlement records and one with a currency contract (62.21,
// 60.21: the act is in roubles); corrections of purchases and 76.АВ/ВА are among them.
func TestRealisticActAgainstCalculation(t *testing.T) {
	l, d := realisticBase(t)
	c := newCalc(l)
	returns, currency, loans, incoming := 0, 0, 0, 0
	for _, org := range organizations(l) {
		cases := actCasesOf(l, org.Ref, c, 5)
		loanCases := map[actCase]bool{}
		for _, cp := range loanParties(l, c, org.Ref) {
			tc := actCase{cp: cp, from: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), to: time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)}
			cases = append(cases, tc)
			loanCases[tc] = true
		}
		if cp := currencyParty(l, c, org.Ref); cp != "" {
			cases = append(cases, actCase{cp: cp, from: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), to: time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)})
			currency++
		}
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s/%s/%s/%s–%s", org.Name, tc.cp[:8], tc.ctr, tc.from.Format(time.DateOnly), tc.to.Format(time.DateOnly)), func(t *testing.T) {
				a := checkAct(t, c, d, org.Ref, tc)
				for _, line := range a.lines {
					if line.credit < 0 {
						returns++
					}
				}
				if loanCases[tc] {
					loans += len(a.lines)
				}
				for _, line := range a.lines {
					if line.incoming != "" {
						incoming++
					}
				}
			})
		}
	}
	if incoming == 0 {
		t.Error("no line with an incoming number")
	}
	t.Logf("%d lines with an incoming number", incoming)
	if returns == 0 || currency == 0 || loans == 0 {
		t.Errorf("the cases prove too little: %d lines with a negative credit, %d currency counterparties, %d lines of loan counterparties",
			returns, currency, loans)
	}
	t.Logf("%d lines with a negative credit (returns, corrections of purchases), %d currency counterparties, %d lines of loan counterparties",
		returns, currency, loans)
}

// loanParties are the counterparties of org with records on a loan account (58.03, 66, 67): the
// accounts BP's act reads besides 60, 62 and 76.
func loanParties(l *onec.Ledger, c *calc, org string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range l.Movements {
		if !c.in(m.OrganizationRef, org) {
			continue
		}
		for _, k := range []key{sideKey(m.AccountDr, m.SubcontoDr), sideKey(m.AccountCr, m.SubcontoCr)} {
			if (under(k.acc, "58") || under(k.acc, "66") || under(k.acc, "67")) && k.cp != "" && !seen[k.cp] {
				seen[k.cp] = true
				out = append(out, k.cp)
			}
		}
	}
	return out
}

// currencyParty is a counterparty of org with records on a currency settlement account (60.21,
// 62.21), "" when there is none.
func currencyParty(l *onec.Ledger, c *calc, org string) string {
	for _, m := range l.Movements {
		if !c.in(m.OrganizationRef, org) {
			continue
		}
		for _, k := range []key{sideKey(m.AccountDr, m.SubcontoDr), sideKey(m.AccountCr, m.SubcontoCr)} {
			if (k.acc == "62.21" || k.acc == "60.21") && k.cp != "" {
				return k.cp
			}
		}
	}
	return ""
}
