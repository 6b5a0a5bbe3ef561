package reconcile

import (
	"bytes"
	"fmt"

	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/integrations/onec"
)

// XLSX is the act as an Excel workbook in BP's two-sided form: the heading, our columns (date,
// document, debit, credit) beside the counterparty's, left empty for them, the balances and
// turnovers, both verdicts and the signatures. Amounts are numbers with two decimals, exact:
// an amount under 10^13 kopecks is exact as Excel's double.
func (a Act) XLSX() ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "Акт сверки"
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, fmt.Errorf("reconcile: xlsx: %w", err)
	}
	w := &sheetWriter{f: f, sheet: sheet}
	w.styles()
	w.text(1, 1, "Акт сверки", w.bold)
	row := 2
	for _, line := range a.heading() {
		w.text(1, row, line, 0)
		w.merge(1, row, 8, row)
		row++
	}
	row++
	w.text(1, row, sideHeader(a.Ours), w.head)
	w.merge(1, row, 4, row)
	w.text(5, row, sideHeader(a.Theirs), w.head)
	w.merge(5, row, 8, row)
	row++
	for i, h := range []string{"Дата", "Документ", "Дебет", "Кредит", "Дата", "Документ", "Дебет", "Кредит"} {
		w.text(i+1, row, h, w.head)
	}
	row++
	for _, r := range a.rows() {
		if r.total {
			w.text(1, row, r.document, w.boldCell)
			w.merge(1, row, 2, row)
			w.text(5, row, r.document, w.boldCell)
			w.merge(5, row, 6, row)
			w.money(3, row, r.debit, w.boldMoney)
			w.money(4, row, r.credit, w.boldMoney)
			w.text(7, row, "", w.cell)
			w.text(8, row, "", w.cell)
		} else {
			w.text(1, row, r.date, w.cell)
			w.text(2, row, r.document, w.cell)
			w.money(3, row, r.debit, w.moneyCell)
			w.money(4, row, r.credit, w.moneyCell)
			for c := 5; c <= 8; c++ {
				w.text(c, row, "", w.cell)
			}
		}
		row++
	}
	row++
	w.text(1, row, a.PrintedVerdict(), w.bold)
	w.merge(1, row, 8, row)
	row++
	w.text(1, row, a.theirVerdict(), 0)
	w.merge(1, row, 8, row)
	row += 2
	for i, line := range signed(a.Ours) {
		w.text(1, row+i, line, 0)
	}
	for i, line := range signed(a.Theirs) {
		w.text(5, row+i, line, 0)
	}
	if a.Source != "" {
		w.text(1, row+len(signed(a.Ours))+1, "Источник: "+a.Source, 0)
	}
	if w.err != nil {
		return nil, fmt.Errorf("reconcile: xlsx: %w", w.err)
	}
	f.SetColWidth(sheet, "A", "A", 12)
	f.SetColWidth(sheet, "B", "B", 46)
	f.SetColWidth(sheet, "C", "D", 16)
	f.SetColWidth(sheet, "E", "E", 12)
	f.SetColWidth(sheet, "F", "F", 46)
	f.SetColWidth(sheet, "G", "H", 16)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("reconcile: xlsx: %w", err)
	}
	return buf.Bytes(), nil
}

// sheetWriter writes cells and keeps the first error.
type sheetWriter struct {
	f     *excelize.File
	sheet string
	err   error
	// the styles: bold text, a header cell, a bordered cell, money, bold money
	bold, head, cell, boldCell, moneyCell, boldMoney int
}

func (w *sheetWriter) styles() {
	border := []excelize.Border{{Type: "left", Color: "000000", Style: 1}, {Type: "top", Color: "000000", Style: 1},
		{Type: "right", Color: "000000", Style: 1}, {Type: "bottom", Color: "000000", Style: 1}}
	style := func(s *excelize.Style) int {
		id, err := w.f.NewStyle(s)
		if err != nil && w.err == nil {
			w.err = err
		}
		return id
	}
	moneyFormat := "#,##0.00;-#,##0.00;\"\""
	w.bold = style(&excelize.Style{Font: &excelize.Font{Bold: true}})
	w.head = style(&excelize.Style{Font: &excelize.Font{Bold: true}, Border: border,
		Alignment: &excelize.Alignment{Horizontal: "center", WrapText: true}})
	w.cell = style(&excelize.Style{Border: border, Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	w.boldCell = style(&excelize.Style{Border: border, Font: &excelize.Font{Bold: true}})
	w.moneyCell = style(&excelize.Style{Border: border, CustomNumFmt: &moneyFormat, Alignment: &excelize.Alignment{Vertical: "top"}})
	w.boldMoney = style(&excelize.Style{Border: border, CustomNumFmt: &moneyFormat, Font: &excelize.Font{Bold: true}})
}

func (w *sheetWriter) name(col, row int) string {
	n, err := excelize.CoordinatesToCellName(col, row)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n
}

func (w *sheetWriter) text(col, row int, v string, style int) {
	n := w.name(col, row)
	if err := w.f.SetCellStr(w.sheet, n, v); err != nil && w.err == nil {
		w.err = err
	}
	if style != 0 {
		w.f.SetCellStyle(w.sheet, n, n, style)
	}
}

// money writes an amount as a number (zero shows empty, as BP's form leaves it).
func (w *sheetWriter) money(col, row int, k onec.Kopecks, style int) {
	n := w.name(col, row)
	if err := w.f.SetCellFloat(w.sheet, n, float64(k)/100, 2, 64); err != nil && w.err == nil {
		w.err = err
	}
	w.f.SetCellStyle(w.sheet, n, n, style)
}

func (w *sheetWriter) merge(c1, r1, c2, r2 int) {
	if err := w.f.MergeCell(w.sheet, w.name(c1, r1), w.name(c2, r2)); err != nil && w.err == nil {
		w.err = err
	}
}
