package reconcile

import (
	"bytes"
	"fmt"

	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-pdf/fpdf"

	"github.com/finbot/finbot/integrations/onec"
)

// PDF is the act as BP prints it, on landscape A4 (ПечатьАктаСверки: ОриентацияСтраницы.Ландшафт):
// the heading, our columns beside the counterparty's (left empty for them), the balances and
// turnovers, both verdicts and the signatures, in Liberation Sans — an embedded TrueType font
// with a ToUnicode map, so the text is Cyrillic text, not pictures of it. The table's header
// is repeated on each page.
func (a Act) PDF() ([]byte, error) {
	f := fpdf.New("L", "mm", "A4", "")
	f.AddUTF8FontFromBytes(font, "", liberationsansregular.TTF)
	f.AddUTF8FontFromBytes(font, "B", liberationsansbold.TTF)
	f.SetTitle(a.Title(), true)
	f.SetCreator("finbot", true)
	f.SetMargins(10, 10, 10)
	f.SetAutoPageBreak(true, 12)
	f.AddPage()

	f.SetFont(font, "B", 13)
	f.CellFormat(0, 7, "Акт сверки", "", 1, "C", false, 0, "")
	f.SetFont(font, "", 9)
	for _, line := range a.heading() {
		f.MultiCell(0, 4.5, line, "", "C", false)
	}
	f.Ln(3)

	header := func() {
		f.SetFont(font, "B", 8)
		f.CellFormat(side, 5, sideHeader(a.Ours), "1", 0, "C", false, 0, "")
		f.CellFormat(side, 5, sideHeader(a.Theirs), "1", 1, "C", false, 0, "")
		for range 2 {
			for i, h := range []string{"Дата", "Документ", "Дебет", "Кредит"} {
				f.CellFormat(widths[i], 5, h, "1", 0, "C", false, 0, "")
			}
		}
		f.Ln(-1)
	}
	header()
	_, pageHeight := f.GetPageSize()
	_, _, _, bottom := f.GetMargins()
	for _, r := range a.rows() {
		if f.GetY()+rowHeight > pageHeight-bottom {
			f.AddPage()
			header()
		}
		style := ""
		if r.total {
			style = "B"
		}
		f.SetFont(font, style, 8)
		if r.total {
			f.CellFormat(widths[0]+widths[1], rowHeight, r.document, "1", 0, "L", false, 0, "")
		} else {
			f.CellFormat(widths[0], rowHeight, r.date, "1", 0, "C", false, 0, "")
			f.CellFormat(widths[1], rowHeight, fit(f, r.document, widths[1]-2), "1", 0, "L", false, 0, "")
		}
		f.CellFormat(widths[2], rowHeight, amount(r.debit), "1", 0, "R", false, 0, "")
		f.CellFormat(widths[3], rowHeight, amount(r.credit), "1", 0, "R", false, 0, "")
		if r.total {
			f.CellFormat(widths[0]+widths[1], rowHeight, r.document, "1", 0, "L", false, 0, "")
		} else {
			f.CellFormat(widths[0], rowHeight, "", "1", 0, "C", false, 0, "")
			f.CellFormat(widths[1], rowHeight, "", "1", 0, "L", false, 0, "")
		}
		f.CellFormat(widths[2], rowHeight, "", "1", 0, "R", false, 0, "")
		f.CellFormat(widths[3], rowHeight, "", "1", 1, "R", false, 0, "")
	}

	f.Ln(4)
	f.SetFont(font, "B", 9)
	f.MultiCell(0, 4.5, a.PrintedVerdict(), "", "L", false)
	f.SetFont(font, "", 9)
	f.MultiCell(0, 4.5, a.theirVerdict(), "", "L", false)
	f.Ln(5)
	if f.GetY()+float64(len(signed(a.Ours)))*5+2 > pageHeight-bottom {
		f.AddPage()
	}
	y := f.GetY()
	for i, p := range []Party{a.Ours, a.Theirs} {
		f.SetXY(10+float64(i)*side, y)
		for _, line := range signed(p) {
			f.SetX(10 + float64(i)*side)
			f.CellFormat(side, 5, line, "", 2, "L", false, 0, "")
		}
	}
	if a.Source != "" {
		f.Ln(4)
		f.SetFont(font, "", 7)
		f.MultiCell(0, 3.5, "Источник: "+a.Source, "", "L", false)
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		return nil, fmt.Errorf("reconcile: pdf: %w", err)
	}
	return buf.Bytes(), nil
}

// The table's geometry: each side 138.5 mm of the 277 between the margins.
const (
	font      = "liberation"
	side      = 138.5
	rowHeight = 5.0
)

// widths are a side's columns: date, document, debit, credit.
var widths = [4]float64{19, 75.5, 22, 22}

// amount is a table's amount: empty for zero, as BP's form leaves it.
func amount(k onec.Kopecks) string {
	if k == 0 {
		return ""
	}
	return Roubles(k)
}

// fit cuts s to width (mm) in the current font, with an ellipsis where it was cut.
func fit(f *fpdf.Fpdf, s string, width float64) string {
	if f.GetStringWidth(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && f.GetStringWidth(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
