package reconcile

// A file's table as rows of positioned cells: a workbook's cells by column, a PDF's strings
// gathered into rows by their baselines. Both are read the same way afterwards (parse_table.go):
// by where a cell stands under the header, not by its index.

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/finbot/finbot/library/extract"
)

// cell is a piece of text in a row, spanning x0…x1: a workbook's columns (column c is c-1…c, a
// merged cell spans its columns), a PDF's points.
type cell struct {
	x0, x1 float64
	text   string
	raw    bool    // a workbook's stored value: numbers unformatted (serial dates, amounts)
	size   float64 // a PDF's font size; 0 in a workbook
}

func (c cell) center() float64 { return (c.x0 + c.x1) / 2 }

// gridRow is one row of a page or sheet.
type gridRow struct {
	page  int
	cells []cell
}

// text is the row's cells joined, left to right.
func (r gridRow) text() string {
	parts := make([]string, 0, len(r.cells))
	for _, c := range r.cells {
		parts = append(parts, c.text)
	}
	return strings.Join(parts, " ")
}

// grid is the rows of one sheet, or of every page of a PDF in order (a table goes on from page
// to page).
type grid struct {
	rows []gridRow
	pdf  bool
	scan bool // recognised words of a photo or a scan
}

// grids are a layout's tables: every sheet of a workbook, a Word document's paragraphs and
// tables as one sheet, all the pages of a PDF or a scan as one.
func grids(l extract.Layout) []grid {
	if l.Format == "pdf" || l.Format == formatScan {
		g := grid{pdf: true, scan: l.Format == formatScan}
		for _, p := range l.Pages {
			g.rows = append(g.rows, pdfRows(p)...)
		}
		return []grid{g}
	}
	var out []grid
	for _, p := range l.Pages {
		out = append(out, sheetGrid(p, l.Format == "xlsx"))
	}
	return out
}

// sheetGrid is a sheet's rows; a merged cell spans its columns (a caption over a half). raw: the
// cells are a workbook's stored values (a Word table's are text as written).
func sheetGrid(p extract.LaidPage, raw bool) grid {
	span := map[[2]int]int{} // (row, first column) → last column
	for _, m := range p.Merged {
		span[[2]int{m.Row0, m.Col0}] = m.Col1
	}
	g := grid{}
	for i, r := range p.Rows {
		var row gridRow
		row.page = p.Number
		for _, c := range r {
			last := c.Col
			if l, ok := span[[2]int{i + 1, c.Col}]; ok {
				last = l
			}
			row.cells = append(row.cells, cell{x0: float64(c.Col - 1), x1: float64(last), text: c.Value, raw: raw})
		}
		g.rows = append(g.rows, row)
	}
	return g
}

// pdfRows gathers a page's runs into rows: runs whose baselines are within half a line of each
// other, top to bottom; within a row, runs that touch (a word the writer kerned in pieces) are
// one cell, and the cells go left to right.
func pdfRows(p extract.LaidPage) []gridRow {
	runs := slices.Clone(p.Runs)
	slices.SortStableFunc(runs, func(a, b extract.Run) int { return cmp.Compare(b.Y, a.Y) })
	var rows [][]extract.Run
	for _, r := range runs {
		if strings.TrimSpace(r.Text) == "" {
			continue
		}
		if n := len(rows); n > 0 {
			last := rows[n-1]
			if math.Abs(last[0].Y-r.Y) < 0.5*math.Max(last[0].Size, r.Size) {
				rows[n-1] = append(last, r)
				continue
			}
		}
		rows = append(rows, []extract.Run{r})
	}
	out := make([]gridRow, 0, len(rows))
	for _, rs := range rows {
		slices.SortStableFunc(rs, func(a, b extract.Run) int { return cmp.Compare(a.X0, b.X0) })
		row := gridRow{page: p.Number}
		for _, r := range rs {
			if n := len(row.cells); n > 0 {
				c := &row.cells[n-1]
				gap := r.X0 - c.x1
				if gap < 0.15*r.Size && gap > -0.5*r.Size {
					c.text += r.Text
					c.x1 = math.Max(c.x1, r.X1)
					continue
				}
			}
			row.cells = append(row.cells, cell{x0: r.X0, x1: r.X1, text: r.Text, size: r.Size})
		}
		for i := range row.cells {
			row.cells[i].text = strings.Join(strings.Fields(row.cells[i].text), " ")
		}
		out = append(out, row)
	}
	return out
}

// phrases joins a PDF row's cells that stand a word's space apart («Дата» «документа» drawn as
// two strings): a header's words are one column's name. Cells of neighbouring columns stand
// further apart — a header's names are centred in their columns.
func (r gridRow) phrases() gridRow {
	out := gridRow{page: r.page}
	for _, c := range r.cells {
		if n := len(out.cells); n > 0 && c.size > 0 {
			last := &out.cells[n-1]
			if gap := c.x0 - last.x1; gap >= 0 && gap < 0.6*c.size {
				last.text += " " + c.text
				last.x1 = c.x1
				continue
			}
		}
		out.cells = append(out.cells, c)
	}
	return out
}
