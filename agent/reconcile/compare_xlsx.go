package reconcile

// The comparison as a workbook: the matched table, ours beside theirs line by line with each
// difference marked, and the differences with their effects adding up to the difference of the
// closing balances.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// diffNames are the differences as the workbook names them.
var diffNames = map[DiffKind]string{
	DiffOpening: "Сальдо начальное", DiffOnlyOurs: "Нет у них", DiffOnlyTheirs: "Нет у нас", DiffSum: "Другая сумма",
	DiffMonth: "Обороты месяца", DiffDate: "Другая дата", DiffTheirTotals: "Их итог не сходится", DiffOurTotals: "Наш итог не сходится",
}

// XLSX is the comparison as a workbook: «Сверка» — our lines beside theirs (their amounts turned
// to our side), the balances and turnovers; «Расхождения» — each difference with its effect and
// their sum, the difference of the closing balances.
func (c Comparison) XLSX() ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	w := &cmpSheet{f: f, name: "Сверка"}
	if err := f.SetSheetName("Sheet1", w.name); err != nil {
		return nil, err
	}
	var err error
	if w.money, err = f.NewStyle(&excelize.Style{CustomNumFmt: ptrTo("#,##0.00")}); err != nil {
		return nil, err
	}
	if w.bold, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}}); err != nil {
		return nil, err
	}
	them := c.theirName()
	title := "Сверка с " + them
	if p := c.period(); p != "" {
		title += " за " + p
	}
	w.row(title)
	w.row("Их суммы — с нашей стороны: их кредит — наш дебет, их дебет — наш кредит." + c.flippedNote())
	w.row()
	w.header("Дата", "Документ (у нас)", "Дебет, ₽", "Кредит, ₽", "Дата", "Документ (у них)", "Дебет, ₽", "Кредит, ₽", "Расхождение", "Влияние на сальдо, ₽")
	byLine := map[*Line]Diff{}
	for _, d := range c.Diffs {
		for _, l := range []*Line{d.Ours, d.Theirs} {
			if l != nil {
				byLine[l] = d
			}
		}
	}
	balanceRow := func(name string, ours, theirs onec.Kopecks, marked bool) {
		cells := append(append([]any{"", name}, sides(ours)...), "", name)
		cells = append(append(cells, sides(theirs)...), diffCells(marked, DiffOpening, ours-theirs)...)
		w.row(cells...)
	}
	balanceRow("Сальдо начальное", c.Ours.Opening, c.Theirs.Opening, c.Ours.Opening != c.Theirs.Opening && !c.NoBalances)
	for _, p := range c.Pairs {
		var cells []any
		for _, l := range []*Line{p.Ours, p.Theirs} {
			if l == nil {
				cells = append(cells, "", "", nil, nil)
				continue
			}
			cells = append(cells, date(l.Date), l.Kind+numberSuffix(*l), blank(l.Debit), blank(l.Credit))
		}
		d, ok := byLine[p.Ours]
		if !ok {
			d, ok = byLine[p.Theirs]
		}
		cells = append(cells, diffCells(ok, d.Kind, d.Effect)...)
		w.row(cells...)
	}
	od, oc := c.Ours.Turnovers()
	td, tc := c.Theirs.Turnovers()
	w.row("", "Обороты за период", od, oc, "", "Обороты за период", td, tc)
	balanceRow("Сальдо конечное", c.Ours.Closing, c.Theirs.Closing, false)
	w.row()
	w.row("", "Разница сальдо (у нас минус у них)", nil, nil, nil, nil, nil, nil, nil, c.Gap)
	_ = f.SetPanes(w.name, &excelize.Panes{Freeze: true, YSplit: 4, TopLeftCell: "A5", ActivePane: "bottomLeft"})
	_ = f.SetColWidth(w.name, "A", "A", 11)
	_ = f.SetColWidth(w.name, "B", "B", 42)
	_ = f.SetColWidth(w.name, "C", "D", 15)
	_ = f.SetColWidth(w.name, "E", "E", 11)
	_ = f.SetColWidth(w.name, "F", "F", 42)
	_ = f.SetColWidth(w.name, "G", "H", 15)
	_ = f.SetColWidth(w.name, "I", "J", 20)

	if _, err := f.NewSheet("Расхождения"); err != nil {
		return nil, err
	}
	w = &cmpSheet{f: f, name: "Расхождения", money: w.money, bold: w.bold}
	w.row(title + ": " + ru.Count(len(c.Diffs), "расхождение", "расхождения", "расхождений"))
	w.row()
	w.header("Расхождение", "Документ или месяц", "У нас, ₽", "У них, ₽", "Влияние на сальдо, ₽")
	for _, d := range c.Diffs {
		what := ""
		switch {
		case d.Kind == DiffMonth:
			what = upperFirst(monthName(d.Month))
		case d.Ours != nil:
			what = date(d.Ours.Date) + " " + d.Ours.Kind + numberSuffix(*d.Ours)
		case d.Theirs != nil:
			what = date(d.Theirs.Date) + " " + d.Theirs.Kind + numberSuffix(*d.Theirs)
		}
		if d.Kind == DiffDate {
			what += ", у них " + date(d.Theirs.Date)
		}
		w.row(diffNames[d.Kind], what, d.OursAmount, d.TheirsAmount, d.Effect)
	}
	w.row()
	w.row("Итого", "Разница сальдо (у нас минус у них)", nil, nil, c.Gap)
	_ = f.SetColWidth(w.name, "A", "A", 22)
	_ = f.SetColWidth(w.name, "B", "B", 56)
	_ = f.SetColWidth(w.name, "C", "E", 20)
	if w.err != nil {
		return nil, fmt.Errorf("reconcile: xlsx: %w", w.err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("reconcile: xlsx: %w", err)
	}
	return buf.Bytes(), nil
}

// ExportName is the workbook's file name: «Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026.xlsx».
func (c Comparison) ExportName() string {
	name := "Сверка с " + c.theirName()
	if p := c.period(); p != "" {
		name += " за " + p
	}
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) {
			return '-'
		}
		return r
	}, name)
	return ru.Truncate(name, 120) + ".xlsx"
}

func (c Comparison) flippedNote() string {
	if c.Flipped {
		return " Их столбцы прочитаны наоборот: так они сходятся с нашими документами."
	}
	return ""
}

// numberSuffix is « № 7» when the line's words do not hold its number.
func numberSuffix(l Line) string {
	if l.Number == "" || strings.Contains(l.Kind, l.Number) {
		return ""
	}
	return " № " + l.Number
}

// sides puts a balance in its column: positive in the debit, negative in the credit.
func sides(k onec.Kopecks) []any {
	switch {
	case k > 0:
		return []any{k, nil}
	case k < 0:
		return []any{nil, -k}
	}
	return []any{nil, nil}
}

// blank leaves a zero amount's cell empty, as an act prints it.
func blank(k onec.Kopecks) any {
	if k == 0 {
		return nil
	}
	return k
}

func diffCells(ok bool, k DiffKind, effect onec.Kopecks) []any {
	if !ok {
		return []any{nil, nil}
	}
	return []any{diffNames[k], effect}
}

func ptrTo[T any](v T) *T { return &v }

// cmpSheet writes rows one after another; the first error stops it.
type cmpSheet struct {
	f           *excelize.File
	name        string
	n           int
	money, bold int
	err         error
}

func (w *cmpSheet) row(cells ...any) {
	w.n++
	for i, v := range cells {
		if v == nil || w.err != nil {
			continue
		}
		name, err := excelize.CoordinatesToCellName(i+1, w.n)
		if err != nil {
			w.err = err
			return
		}
		switch v := v.(type) {
		case onec.Kopecks:
			// Excel keeps numbers as doubles: amounts up to 10^13 kopecks stay exact.
			w.err = w.f.SetCellFloat(w.name, name, float64(v)/100, 2, 64)
			if w.err == nil {
				w.err = w.f.SetCellStyle(w.name, name, name, w.money)
			}
		default:
			w.err = w.f.SetCellValue(w.name, name, v)
		}
	}
}

func (w *cmpSheet) header(names ...string) {
	cells := make([]any, len(names))
	for i, n := range names {
		cells[i] = n
	}
	w.row(cells...)
	if w.err == nil {
		last, _ := excelize.CoordinatesToCellName(len(names), w.n)
		first, _ := excelize.CoordinatesToCellName(1, w.n)
		w.err = w.f.SetCellStyle(w.name, first, last, w.bold)
	}
}
