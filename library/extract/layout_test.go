package extract

import (
	"bytes"
	"errors"
	"testing"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-pdf/fpdf"
	"github.com/google/go-cmp/cmp"
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

func TestReadLayoutDOCX(t *testing.T) {
	cell := func(pr, s string) string {
		return `<w:tc>` + pr + wPara("", s) + `</w:tc>`
	}
	body := wPara("", "Акт сверки") + wPara("", "") +
		`<w:tbl><w:tr>` + cell("", "Дата") + cell("", "Документ") + cell("", "Сумма") + `</w:tr>` +
		`<w:tr>` + cell(`<w:tcPr><w:gridSpan w:val="2"/></w:tcPr>`, "Сальдо начальное") + cell("", "1 000,00") + `</w:tr>` +
		`<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>` + cell(`<w:tcPr><w:vMerge w:val="restart"/></w:tcPr>`, "Продажа") +
		`<w:tc><w:tbl><w:tr>` + cell("", "вложенная") + `</w:tr></w:tbl></w:tc></w:tr>` +
		`<w:tr>` + cell("", "05.01.2026") + cell(`<w:tcPr><w:vMerge/></w:tcPr>`, "") + cell("", "2 000,00") + `</w:tr></w:tbl>` +
		wPara("", "Подписи")
	l, err := ReadLayout(t.Context(), "act.docx", makeDOCXBody(t, body, true), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Format != "docx" || l.Title != "Договор поставки № П-15/2025" || len(l.Pages) != 1 {
		t.Fatalf("layout %q %q, %d pages", l.Format, l.Title, len(l.Pages))
	}
	want := [][]Cell{
		{{Col: 1, Value: "Акт сверки"}},
		{{Col: 1, Value: "Дата"}, {Col: 2, Value: "Документ"}, {Col: 3, Value: "Сумма"}},
		{{Col: 1, Value: "Сальдо начальное"}, {Col: 3, Value: "1 000,00"}},
		{{Col: 2, Value: "Продажа"}, {Col: 3, Value: "вложенная"}},
		{{Col: 1, Value: "05.01.2026"}, {Col: 3, Value: "2 000,00"}},
		nil,
		{{Col: 1, Value: "Подписи"}},
	}
	if diff := cmp.Diff(want, l.Pages[0].Rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if m := l.Pages[0].Merged; len(m) != 1 || m[0] != (Span{Row0: 3, Col0: 1, Row1: 3, Col1: 2}) {
		t.Errorf("merged %+v", m)
	}
}
