package reconcile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
)

// TestCompareRealistic compares a year of a busy counterparty of the realistic base — a name with
// brackets, storno (negative) amounts, documents on both sides of one day, a form of several
// pages with the header printed again on each — against their act printed from the same data
// with five planted differences: every one is found with its amount, and nothing else.
func TestCompareRealistic(t *testing.T) {
	if testing.Short() {
		t.Skip("draws the realistic base (a few seconds)")
	}
	from, to := mskDay(2025, 1, 1), mskDay(2025, 12, 31)
	l := ledgergen.Realistic(ledgergen.DefaultSeed)
	ours := actFrom(t, l, "1031699119", "2878735476", from, to) // ООО «Склад-Сервис» (38)
	if len(ours.Lines) < 80 {
		t.Fatalf("%d lines: the test wants an act of several pages", len(ours.Lines))
	}
	storno := 0
	for _, ln := range ours.Lines {
		if ln.Debit < 0 || ln.Credit < 0 {
			storno++
		}
	}

	// Their books: our debit their credit, our numbers as BP prints them (the digits), their own
	// numbers on payments. Planted: the opening 500,00 off, line 10 missing, line 20 1 000,00
	// more, a payment dated two days later, a payment of theirs we do not have.
	type theirLine struct {
		date           string
		doc            string
		debit, credit  onec.Kopecks // theirs
		ours           *Line
		sumOff, dayOff bool
	}
	var rows []theirLine
	var moved, changed, dropped *Line
	for i := range ours.Lines {
		ln := &ours.Lines[i]
		tl := theirLine{date: ln.Date.Format("02.01.2006"), debit: ln.Credit, credit: ln.Debit, ours: ln}
		payment := ln.Credit != 0 && ln.Debit == 0
		if payment {
			tl.doc = fmt.Sprintf("Оплата (%s № %d)", ln.Date.Format("02.01.2006"), 700+i)
		} else {
			tl.doc = fmt.Sprintf("Приход (%s № %s)", ln.Date.Format("02.01.2006"), numberKey(ln.Number))
		}
		switch {
		case i == 10:
			dropped = ln
			continue
		case i == 20:
			tl.credit += 1000_00
			changed = ln
		case payment && moved == nil && i > 30 && ln.Date.Month() < 12:
			tl.date = ln.Date.AddDate(0, 0, 2).Format("02.01.2006")
			tl.doc = fmt.Sprintf("Оплата (%s № %d)", tl.date, 700+i)
			moved = ln
		}
		rows = append(rows, tl)
	}
	rows = append(rows, theirLine{date: "30.12.2025", doc: "Оплата (30.12.2025 № 999)", debit: 12345_67})
	if changed.Debit == 0 || moved == nil {
		t.Fatalf("line 20 is no sale (%+v) or no payment to move", changed)
	}
	opening := ours.Opening - 500_00
	half := []fxRow{{doc: "Сальдо начальное"}}
	if opening >= 0 {
		half[0].credit = money(opening)
	} else {
		half[0].debit = money(-opening)
	}
	var d, c onec.Kopecks
	for _, r := range rows {
		half = append(half, fxRow{date: r.date, doc: r.doc, debit: money(r.debit), credit: money(r.credit)})
		d, c = d+r.debit, c+r.credit
	}
	closing := opening + c - d
	half = append(half, fxRow{doc: "Обороты за период", debit: money(d), credit: money(c)}, fxRow{doc: "Сальдо конечное"})
	if closing >= 0 {
		half[len(half)-1].credit = money(closing)
	} else {
		half[len(half)-1].debit = money(-closing)
	}
	pdf := bpPDF([]string{"Акт сверки", "взаимных расчетов за период: 01.01.2025 - 31.12.2025", "между ООО «Склад-Сервис» (38)", "и ООО «Северный ветер»"},
		"ООО «Склад-Сервис» (38)", "ООО «Северный ветер»", half, []fxRow{{doc: "Сальдо начальное"}}, nil, nil)

	th, err := Parse(t.Context(), "sklad.pdf", pdf, ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatal(err, UserMessage(err))
	}
	if len(th.Lines) != len(rows) || th.Theirs.Name != "ООО «Склад-Сервис» (38)" || !th.From.Equal(from) || !th.To.Equal(to) {
		t.Fatalf("read %d lines of %d, %q, %s – %s", len(th.Lines), len(rows), th.Theirs.Name, date(th.From), date(th.To))
	}
	cmpr, err := Compare(ours, th)
	if err != nil {
		t.Fatal(err)
	}
	var got []found
	for _, x := range cmpr.Diffs {
		got = append(got, foundOf(x))
	}
	dec := func(k onec.Kopecks) string { return k.Decimal() }
	want := []found{
		{DiffOpening, "", dec(ours.Opening), dec(opening), "500.00"},
		{DiffOnlyOurs, dropped.Number, dec(net(*dropped)), "0.00", dec(net(*dropped))},
		{DiffOnlyTheirs, "999", "0.00", "-12345.67", "12345.67"},
		{DiffSum, changed.Number, dec(net(*changed)), dec(net(*changed) + 1000_00), "-1000.00"},
		{DiffDate, moved.Number, dec(net(*moved)), dec(net(*moved)), "0.00"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("differences (-want +got):\n%s", diff)
	}
	if wantGap := ours.Closing - closing; cmpr.Gap != wantGap {
		t.Errorf("gap %s, want %s", cmpr.Gap.Decimal(), wantGap.Decimal())
	}
	if md := cmpr.Markdown(""); !strings.Contains(md, "— сходится.") {
		t.Errorf("markdown:\n%s", md)
	}
	t.Logf("%d lines (%d storno), %d matched, gap %s", len(ours.Lines), storno, matched(cmpr.Pairs), cmpr.Gap.Decimal())
}
