package reconcile_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"
	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/ru"
)

// demoAct is the act of the demo's main organization with the counterparty named, over the
// period, run through the whitelisted templates on the demo base.
func demoAct(t *testing.T, name string, from, to time.Time) reconcile.Act {
	t.Helper()
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	d := onec.NewDemo(l)
	org := l.DefaultOrganization()
	var cp onec.Counterparty
	for _, c := range l.Counterparties {
		if c.Name == name {
			cp = c
		}
	}
	p := onec.Params{"НачалоПериода": onec.PeriodStartParam(from), "КонецПериода": onec.PeriodEndParam(to),
		"Организация": onec.Ref{UUID: org.Ref, Type: onec.TypeOrganization}.Param(),
		"Контрагент":  onec.Ref{UUID: cp.Ref, Type: onec.TypeCounterparty}.Param(), "Договор": nil}
	bal, err := d.Query(context.Background(), "address.reconciliation.balances", p, 1000)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := d.Query(context.Background(), "address.reconciliation.lines", p, 1000)
	if err != nil {
		t.Fatal(err)
	}
	a := reconcile.Build(reconcile.Heading{Ours: reconcile.Party{Name: org.Name, INN: org.INN, KPP: org.KPP},
		Theirs: reconcile.Party{Name: cp.Name, INN: cp.INN, KPP: cp.KPP}, From: from, To: to}, bal.CardTotals[0], lines.Reconciliation)
	a.Source = "1С: Акт сверки, " + org.Name + ", демо-база (встроенная)"
	if !a.Balanced() {
		t.Fatalf("the demo's act of %s is not balanced", name)
	}
	return a
}

// abs is a balance as its side's column shows it.
func abs(k onec.Kopecks) onec.Kopecks { return max(k, -k) }

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// TestXLSXReadsBack: the workbook holds the act — the heading with both sides' details, a row
// per line with its amounts as numbers, the balances and turnovers, the verdict — and the
// figures read back are the act's, to the kopeck.
func TestXLSXReadsBack(t *testing.T) {
	a := demoAct(t, "ООО «Альфа»", date(2026, 1, 1), date(2026, 3, 31))
	data, err := a.XLSX()
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Акт сверки", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	byLabel := map[string][]string{}
	lines := 0
	for _, r := range rows {
		text.WriteString(strings.Join(r, " | ") + "\n")
		if len(r) > 0 && r[0] != "" {
			byLabel[r[0]] = r
		}
		if len(r) >= 4 && strings.Count(r[0], ".") == 2 && len(r[0]) == 10 {
			lines++
		}
	}
	for _, want := range []string{"Акт сверки", "взаимных расчётов за период: 01.01.2026 – 31.03.2026",
		"между ООО «Северный ветер» (ИНН 1031699119, КПП 776601001)", "и ООО «Альфа» (ИНН 9366414049, КПП 917301001)",
		"По данным ООО «Северный ветер», руб.", "По данным ООО «Альфа», руб.", a.Verdict(),
		a.PrintedVerdict(), "руб. (Три миллиона семьдесят шесть тысяч пятьсот семьдесят девять рублей 33 копейки).",
		"Руководитель ______________ (________________)", "Главный бухгалтер ______________ (________________)",
		"Реализация (акт, накладная) (7 от 05.01.2026)", "Оплата (3 от 16.01.2026)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the workbook lacks %q:\n%s", want, text.String())
		}
	}
	if lines != len(a.Lines) {
		t.Errorf("%d dated rows, the act has %d lines", lines, len(a.Lines))
	}
	d, c := a.Turnovers()
	for label, want := range map[string][2]onec.Kopecks{
		"Сальдо начальное": {a.Opening, 0}, "Обороты за период": {d, c}, "Сальдо конечное": {a.Closing, 0},
	} {
		r := byLabel[label]
		if len(r) < 4 {
			t.Errorf("no row %q", label)
			continue
		}
		if got := [2]onec.Kopecks{cell(t, r[2]), cell(t, r[3])}; got != want {
			t.Errorf("%s = %v, want %v", label, got, want)
		}
	}
}

// cell reads a money cell back as kopecks ("" is zero).
func cell(t *testing.T, s string) onec.Kopecks {
	t.Helper()
	if s == "" {
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("cell %q: %v", s, err)
	}
	k, err := onec.ParseKopecks(strconv.FormatFloat(v, 'f', 2, 64))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestPDFReadsBack: the PDF is a PDF ledongthuc/pdf opens, landscape, and its text — read as the
// bot reads an uploaded PDF — holds the heading, both sides' details, every line's document,
// the balances, the turnovers and the verdict with the act's figures. A long act runs over
// several pages, each with the table's header.
func TestPDFReadsBack(t *testing.T) {
	for _, tt := range []struct {
		name     string
		from, to time.Time
		pages    int
	}{
		{"quarter", date(2026, 1, 1), date(2026, 3, 31), 1},
		{"whole history", date(2024, 12, 1), date(2026, 4, 30), 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := demoAct(t, "ООО «Альфа»", tt.from, tt.to)
			data, err := a.PDF()
			if err != nil {
				t.Fatal(err)
			}
			r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatalf("ledongthuc/pdf: %v", err)
			}
			if r.NumPage() < tt.pages {
				t.Errorf("%d pages for %d lines, want at least %d", r.NumPage(), len(a.Lines), tt.pages)
			}
			box := r.Page(1).V.Key("MediaBox")
			if box.IsNull() {
				box = r.Page(1).V.Key("Parent").Key("MediaBox") // inherited from the page tree
			}
			if box.Index(2).Float64() <= box.Index(3).Float64() {
				t.Errorf("MediaBox %v: not landscape", box)
			}
			doc, err := extract.Extract(context.Background(), a.FileName("pdf"), data, extract.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var all strings.Builder
			for i, p := range doc.Pages {
				text := strings.ReplaceAll(p.Text, "\u00a0", " ")
				all.WriteString(text + "\n")
				if !strings.Contains(text, "По данным ООО «Альфа», руб.") {
					t.Errorf("page %d lacks the table's header", i+1)
				}
			}
			text := strings.Join(strings.Fields(all.String()), " ")
			sp := func(s string) string { return strings.ReplaceAll(s, "\u00a0", " ") }
			figures := func(label string, sums ...onec.Kopecks) string { // a zero is an empty cell, as BP prints it
				for _, k := range sums {
					if k != 0 {
						label += " " + sp(reconcile.Roubles(k))
					}
				}
				return label
			}
			d, c := a.Turnovers()
			want := []string{"Акт сверки", "взаимных расчётов за период: " + a.From.Format("02.01.2006") + " – " + a.To.Format("02.01.2006"),
				"ИНН 1031699119, КПП 776601001", "ИНН 9366414049, КПП 917301001",
				figures("Сальдо начальное", abs(a.Opening)), figures("Обороты за период", d, c),
				figures("Сальдо конечное", abs(a.Closing)), sp(a.Verdict()), "Руководитель", "Главный бухгалтер"}
			if _, sum, ok := a.Creditor(); ok {
				words := []rune(ru.RoublesInWords(int64(sum)))
				want = append(want, string(words[:min(len(words), 30)])) // the words wrap; their start is on the line
			}
			for _, l := range a.Lines {
				want = append(want, strings.TrimSuffix(l.Kind, ")")) // the document is cut to its column where long
			}
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("the PDF's text lacks %q:\n%s", w, text)
				}
			}
			if doc.Title != a.Title() {
				t.Errorf("title %q, want %q", doc.Title, a.Title())
			}
		})
	}
}

// TestEmptyPeriodRenders: a period with no movements is an act of balances alone, in both files.
func TestEmptyPeriodRenders(t *testing.T) {
	a := demoAct(t, "ООО «Альфа»", date(2026, 4, 26), date(2026, 4, 30))
	if len(a.Lines) != 0 {
		t.Fatalf("%d lines in a quiet week; pick another", len(a.Lines))
	}
	if _, err := a.XLSX(); err != nil {
		t.Error(err)
	}
	data, err := a.PDF()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := extract.Extract(context.Background(), "act.pdf", data, extract.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.ReplaceAll(doc.Pages[0].Text, "\u00a0", " "); !strings.Contains(text, "Сальдо конечное") || !strings.Contains(text, strings.ReplaceAll(a.Verdict(), "\u00a0", " ")[:40]) {
		t.Errorf("the empty act's PDF:\n%s", text)
	}
}
