package reconcile

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/internal/golden"
	"github.com/finbot/finbot/ru"
)

// ourOrgs are the demo's organizations, as the catalogs name them.
var ourOrgs = []Party{
	{Name: "ООО «Северный ветер»", INN: "1031699119", KPP: "776601001"},
	{Name: "ООО «Северный ветер Трейд»", INN: "6079411793", KPP: "771501001"},
}

var (
	q1From = mskDay(2026, 1, 1)
	q1To   = mskDay(2026, 3, 31)
)

// testNow is the day the tests read the acts on.
func testNow() time.Time { return time.Date(2026, 4, 10, 12, 0, 0, 0, ru.Moscow) }

// ourAlfa is our act with ООО «Альфа» for the first quarter of 2026, from the demo's raw data.
func ourAlfa(t *testing.T) Act {
	t.Helper()
	a := demoAct(t, "1031699119", "ООО «Альфа»", q1From, q1To)
	// What the fixtures were written against: 1 930 644,06 at the start, nine documents,
	// 3 076 579,33 at the end.
	if a.Opening != kop("1930644.06") || a.Closing != kop("3076579.33") || len(a.Lines) != 9 {
		t.Fatalf("demo act with ООО «Альфа»: opening %s, closing %s, %d lines; the fixtures expect 1930644.06, 3076579.33, 9",
			a.Opening.Decimal(), a.Closing.Decimal(), len(a.Lines))
	}
	return a
}

func parseFixture(t *testing.T, path string) Theirs {
	t.Helper()
	th, err := Parse(t.Context(), path, readFixture(t, path), ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatalf("Parse(%s): %v (%s)", path, err, UserMessage(err))
	}
	return th
}

// found is a difference as the tests state it: its kind, the document's number (ours, else
// theirs) or the month, and its amounts and effect in roubles.
type found struct {
	Kind                 DiffKind
	What                 string
	Ours, Theirs, Effect string
}

func foundOf(d Diff) found {
	f := found{Kind: d.Kind, Ours: d.OursAmount.Decimal(), Theirs: d.TheirsAmount.Decimal(), Effect: d.Effect.Decimal()}
	switch {
	case d.Kind == DiffMonth:
		f.What = d.Month.Format("01.2006")
	case d.Ours != nil:
		f.What = d.Ours.Number
	case d.Theirs != nil:
		f.What = numberKey(d.Theirs.Number)
	}
	return f
}

// TestCompareFixtures compares three acts of ООО «Альфа» with planted differences and one
// identical act against ours computed from the demo ledger: every planted difference is found
// with its amount, nothing else is, and the differences add up to the difference of the closing
// balances.
func TestCompareFixtures(t *testing.T) {
	ours := ourAlfa(t)
	tests := []struct {
		file    string
		layout  string
		grouped bool
		want    []found
		gap     string
	}{
		{
			// BP's printed form, their half «По данным ООО «Альфа»» on the left.
			file: fxBP, layout: LayoutHalves,
			want: []found{
				{DiffOnlyOurs, "СВ00-000050", "461036.40", "0.00", "461036.40"},
				{DiffOnlyTheirs, "633", "0.00", "-50000.00", "50000.00"},
				{DiffSum, "СВ00-000014", "414417.35", "414471.35", "-54.00"},
				{DiffDate, "СВ00-000003", "-566682.67", "-566682.67", "0.00"},
			},
			gap: "510982.40",
		},
		{
			// Their own columns: «№ док.» | «Сумма расхода» | «Дата операции» | «Содержание
			// операции» | «Сумма прихода», serial dates.
			file: fxHandmade, layout: LayoutTable,
			want: []found{
				{DiffOpening, "", "1930644.06", "1903644.06", "27000.00"},
				{DiffOnlyOurs, "СВ00-000021", "-118251.11", "0.00", "-118251.11"},
				{DiffSum, "СВ00-000028", "685570.14", "685750.14", "-180.00"},
			},
			gap: "-91431.11",
		},
		{
			// Month totals under «По данным ООО «Альфа»».
			file: fxMonthly, layout: LayoutTable, grouped: true,
			want: []found{
				{DiffMonth, "02.2026", "-28895.19", "95430.01", "-124325.20"},
				{DiffMonth, "03.2026", "342785.29", "297785.29", "45000.00"},
			},
			gap: "-79325.20",
		},
		{
			// BP's form with their half on the right, dates «05.01.26»: nothing differs.
			file: fxIdentical, layout: LayoutHalves,
			gap: "0.00",
		},
		{
			// A table in Word: «Содержание операции» | «Дата док.» | «№» | «Расход, руб.» |
			// «Приход, руб.», amounts as text, the balances' labels spanning three columns.
			file: fxDOCX, layout: LayoutTable,
			want: []found{
				{DiffSum, "СВ00-000020", "590140.13", "591140.13", "-1000.00"},
			},
			gap: "-1000.00",
		},
		{
			// The same Word table agreeing with ours: nothing differs.
			file: fxDOCXIdentical, layout: LayoutTable,
			gap: "0.00",
		},
	}
	for _, tt := range tests {
		t.Run(strings.TrimPrefix(tt.file, "testdata/"), func(t *testing.T) {
			th := parseFixture(t, tt.file)
			if th.Layout != tt.layout || th.Grouped != tt.grouped {
				t.Errorf("layout %q, grouped %v; want %q, %v", th.Layout, th.Grouped, tt.layout, tt.grouped)
			}
			if !th.From.Equal(q1From) || !th.To.Equal(q1To) {
				t.Errorf("period %s – %s, want 01.01.2026 – 31.03.2026", date(th.From), date(th.To))
			}
			if th.Theirs.Name != "ООО «Альфа»" {
				t.Errorf("their name %q, want ООО «Альфа»", th.Theirs.Name)
			}
			c, err := Compare(ours, th)
			if err != nil {
				t.Fatal(err)
			}
			var got []found
			for _, d := range c.Diffs {
				got = append(got, foundOf(d))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("differences (-want +got):\n%s", diff)
			}
			if c.Gap.Decimal() != tt.gap {
				t.Errorf("gap %s, want %s", c.Gap.Decimal(), tt.gap)
			}
			if c.Equal() != (len(tt.want) == 0) {
				t.Errorf("Equal() = %v with %d differences", c.Equal(), len(tt.want))
			}
			golden.Check(t, strings.TrimSuffix(tt.file, filepath.Ext(tt.file))+".md.golden", c.Markdown("[1]"))
		})
	}
}

// TestParseBP reads their half of BP's form line by line, turned to our side.
func TestParseBP(t *testing.T) {
	th := parseFixture(t, fxBP)
	var got []string
	for _, l := range th.Lines {
		got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s", date(l.Date), l.Number, l.Kind, l.Debit.Decimal(), l.Credit.Decimal()))
	}
	want := []string{
		"05.01.2026|7|Приход (05.01.2026 № 7)|394170.36|0.00",
		"15.01.2026|187|Оплата (15.01.2026 № 187)|0.00|566682.67",
		"19.01.2026|14|Приход (19.01.2026 № 14)|414471.35|0.00",
		"23.01.2026|20|Приход (23.01.2026 № 20)|590140.13|0.00",
		"06.02.2026|241|Оплата (06.02.2026 № 241)|0.00|124325.20",
		"09.02.2026|28|Приход (09.02.2026 № 28)|685570.14|0.00",
		"09.02.2026|256|Оплата (09.02.2026 № 256)|0.00|590140.13",
		"09.03.2026|318|Оплата (09.03.2026 № 318)|0.00|118251.11",
		"25.03.2026|633|Оплата (25.03.2026 № 633) аванс по счёту 112|0.00|50000.00",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if th.Opening != kop("1930644.06") || th.Closing != kop("2565596.93") || !th.HasOpening || !th.HasClosing || !th.Stated {
		t.Errorf("opening %s, closing %s, stated %v", th.Opening.Decimal(), th.Closing.Decimal(), th.Stated)
	}
	if len(th.Notes) > 0 {
		t.Errorf("notes %q, want none", th.Notes)
	}
	if th.Turnover == nil || th.Turnover[0] != kop("2084351.98") || th.Turnover[1] != kop("1449399.11") {
		t.Errorf("turnover %v", th.Turnover)
	}
}

// TestMatchPasses: a number with another date is one document dated differently; a payment is
// found by its sum within a few days, not beyond; a number on the other side is another
// document; two equal payments pair one to one.
func TestMatchPasses(t *testing.T) {
	ours := Act{Opening: 0, Lines: []Line{
		{Date: mskDay(2026, 1, 10), Kind: "Реализация", Number: "СВ00-000028", Debit: 1000_00},
		{Date: mskDay(2026, 1, 12), Kind: "Поступление на расчётный счёт", Number: "СВ00-000028", Credit: 300_00},
		{Date: mskDay(2026, 1, 20), Kind: "Поступление на расчётный счёт", Number: "СВ00-000040", Credit: 200_00},
		{Date: mskDay(2026, 1, 20), Kind: "Поступление на расчётный счёт", Number: "СВ00-000041", Credit: 200_00},
		{Date: mskDay(2026, 2, 1), Kind: "Поступление на расчётный счёт", Number: "СВ00-000050", Credit: 500_00},
	}}
	d, c := ours.Turnovers()
	ours.Closing = d - c
	theirs := Theirs{Stated: true, HasOpening: true, HasClosing: true, Act: Act{Lines: []Line{
		{Date: mskDay(2026, 1, 21), Kind: "Приход", Number: "28", Debit: 1000_00}, // our sale, received 11 days later
		{Date: mskDay(2026, 1, 13), Kind: "Оплата", Number: "77", Credit: 300_00}, // our receipt, the bank's next day
		{Date: mskDay(2026, 1, 19), Kind: "Оплата", Number: "80", Credit: 200_00},
		{Date: mskDay(2026, 1, 20), Kind: "Оплата", Number: "81", Credit: 200_00},
		{Date: mskDay(2026, 2, 9), Kind: "Оплата", Number: "90", Credit: 500_00}, // 8 days: not the same payment
	}}}
	theirs.Closing = theirs.Opening + 1000_00 - 1200_00
	cmpr, err := Compare(ours, theirs)
	if err != nil {
		t.Fatal(err)
	}
	var got []found
	for _, d := range cmpr.Diffs {
		got = append(got, foundOf(d))
	}
	want := []found{
		{DiffOnlyOurs, "СВ00-000050", "-500.00", "0.00", "-500.00"},
		{DiffOnlyTheirs, "90", "0.00", "-500.00", "500.00"},
		{DiffDate, "СВ00-000028", "1000.00", "1000.00", "0.00"},
		{DiffDate, "СВ00-000028", "-300.00", "-300.00", "0.00"},
		{DiffDate, "СВ00-000041", "-200.00", "-200.00", "0.00"}, // 040 took the payment of its own day
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("differences (-want +got):\n%s", diff)
	}
	if cmpr.Gap != 0 {
		t.Errorf("gap %s", cmpr.Gap.Decimal())
	}
}

// TestCompareFlipped: an act whose columns do not say whose debit they are, written from our
// side, matches our documents only read the other way round — and is compared so, saying it.
func TestCompareFlipped(t *testing.T) {
	ours := ourAlfa(t)
	rows := [][]string{{"Акт сверки за период 01.01.2026 - 31.03.2026"}, {"между ООО «Альфа» и ООО «Северный ветер»"},
		{"Дата", "Документ", "Дебет", "Кредит"}, {"", "Сальдо начальное", "1 930 644,06", ""}}
	for _, l := range ours.Lines {
		rows = append(rows, []string{date(l.Date), l.Kind + " № " + l.Number, money(l.Debit), money(l.Credit)})
	}
	rows = append(rows, []string{"", "Сальдо конечное", "3 076 579,33", ""})
	th, err := Parse(t.Context(), "a.xlsx", sheet(rows...), ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatal(err, UserMessage(err))
	}
	c, err := Compare(ours, th)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Flipped || !c.Equal() {
		t.Fatalf("flipped %v, differences %+v", c.Flipped, c.Diffs)
	}
	if md := c.Markdown(""); !strings.Contains(md, "если читать их наоборот") || !strings.Contains(md, "расхождений нет") {
		t.Errorf("markdown:\n%s", md)
	}
}

// TestCompareNoBalances: an act without balances is compared by its documents only.
func TestCompareNoBalances(t *testing.T) {
	ours := ourAlfa(t)
	rows := [][]string{{"Акт сверки за период 01.01.2026 - 31.03.2026"}, {"Дата", "Документ", "Дебет", "Кредит"}}
	for _, l := range ours.Lines[:8] {
		rows = append(rows, []string{date(l.Date), l.Kind + " № " + l.Number, money(l.Credit), money(l.Debit)})
	}
	th, err := Parse(t.Context(), "a.xlsx", sheet(rows...), ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatal(err, UserMessage(err))
	}
	c, err := Compare(ours, th)
	if err != nil {
		t.Fatal(err)
	}
	if !c.NoBalances || len(c.Diffs) != 1 || c.Diffs[0].Kind != DiffOnlyOurs || c.Gap != kop("461036.40") {
		t.Fatalf("no balances %v, gap %s, differences %+v", c.NoBalances, c.Gap.Decimal(), c.Diffs)
	}
	if md := c.Markdown(""); !strings.Contains(md, "Сальдо в их акте не указано") || !strings.Contains(md, "Разница оборотов") {
		t.Errorf("markdown:\n%s", md)
	}
}

// TestComparisonXLSX: the workbook lists every pair beside each other and every difference with
// its effect; the effects add up to the difference of the closing balances it states.
func TestComparisonXLSX(t *testing.T) {
	c, err := Compare(ourAlfa(t), parseFixture(t, fxBP))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.XLSX()
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Сверка")
	if err != nil {
		t.Fatal(err)
	}
	// title, note, blank, header, opening, 10 pairs, turnovers, closing, blank, gap
	if len(rows) != 4+1+10+2+2 {
		t.Fatalf("%d rows: %q", len(rows), rows)
	}
	if got := strings.Join(rows[5], "|"); got != "05.01.2026|Реализация (акт, накладная) № СВ00-000007|394,170.36||05.01.2026|Приход (05.01.2026 № 7)|394,170.36" {
		t.Errorf("first pair %q", got)
	}
	var only []string
	for _, r := range rows[5:15] {
		if len(r) > 8 {
			only = append(only, r[8]+" "+r[9])
		}
	}
	want := []string{"Другая дата 0.00", "Другая сумма -54.00", "Нет у них 461,036.40", "Нет у нас 50,000.00"}
	if diff := cmp.Diff(want, only); diff != "" {
		t.Errorf("marked differences (-want +got):\n%s", diff)
	}
	diffs, _ := f.GetRows("Расхождения")
	last := diffs[len(diffs)-1]
	if last[0] != "Итого" || last[4] != "510,982.40" || len(diffs) != 3+4+2 {
		t.Errorf("differences sheet %q", diffs)
	}
	if name := c.ExportName(); name != "Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026.xlsx" {
		t.Errorf("ExportName %q", name)
	}
}
