package extract

import (
	"bytes"
	"errors"
	"testing"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-pdf/fpdf"
	"github.com/xuri/excelize/v2"
)

// TestReadLayoutPDF: each string a page shows keeps its position — two cells of one row share a
// baseline, the right one starts where it was put.
func TestReadLayoutPDF(t *testing.T) {
	f := fpdf.New("P", "mm", "A4", "")
	f.AddUTF8FontFromBytes("lib", "", liberationsansregular.TTF)
	f.AddPage()
	f.SetFont("lib", "", 10)
	f.SetXY(20, 30)
	f.CellFormat(40, 6, "Дата", "1", 0, "L", false, 0, "")
	f.CellFormat(40, 6, "Дебет", "1", 1, "R", false, 0, "")
	f.SetX(20)
	f.CellFormat(40, 6, "05.01.2026", "1", 0, "L", false, 0, "")
	f.CellFormat(40, 6, "394 170,36", "1", 1, "R", false, 0, "")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	l, err := ReadLayout(t.Context(), "a.pdf", buf.Bytes(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Format != "pdf" || len(l.Pages) != 1 || len(l.Pages[0].Runs) != 4 {
		t.Fatalf("layout %+v", l)
	}
	r := l.Pages[0].Runs
	const mm = 72 / 25.4
	if r[0].Text != "Дата" || r[1].Text != "Дебет" || r[0].Y != r[1].Y || r[2].Y >= r[0].Y {
		t.Errorf("runs %+v", r)
	}
	if r[0].X0 < 20*mm || r[0].X0 > 22*mm || r[3].X1 > 100*mm || r[3].X1 < 98*mm || r[3].X0 < 60*mm {
		t.Errorf("positions %+v (the left cell at 20 mm, the right one ending at 100 mm)", r)
	}
}

// TestReadLayoutXLSX: cells by column with their raw values (a date's serial number, an
// amount's digits) and the merged ranges.
func TestReadLayoutXLSX(t *testing.T) {
	f := excelize.NewFile()
	f.SetCellValue("Sheet1", "A1", "По данным ООО «Альфа»")
	f.MergeCell("Sheet1", "A1", "C1")
	f.SetCellFloat("Sheet1", "A3", 46027, 0, 64)
	style, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	f.SetCellStyle("Sheet1", "A3", "A3", style)
	f.SetCellFloat("Sheet1", "C3", 394170.36, 2, 64)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	l, err := ReadLayout(t.Context(), "a.xlsx", buf.Bytes(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p := l.Pages[0]
	if len(p.Rows) != 3 || p.Rows[1] != nil || len(p.Rows[2]) != 2 {
		t.Fatalf("rows %+v", p.Rows)
	}
	if c := p.Rows[2]; c[0] != (Cell{Col: 1, Value: "46027"}) || c[1] != (Cell{Col: 3, Value: "394170.36"}) {
		t.Errorf("cells %+v", c)
	}
	if len(p.Merged) != 1 || p.Merged[0] != (Span{Row0: 1, Col0: 1, Row1: 1, Col1: 3}) {
		t.Errorf("merged %+v", p.Merged)
	}
}

func TestReadLayoutRefusesOtherFormats(t *testing.T) {
	_, err := ReadLayout(t.Context(), "a.txt", []byte("Акт сверки"), Limits{})
	if !errors.Is(err, ErrUnknownType) || UserMessage(err) == "" {
		t.Errorf("err = %v (%q)", err, UserMessage(err))
	}
}
