package extract

import (
	"archive/zip"
	"context"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Layout is a table-shaped file as it is laid out, for readers whose columns carry meaning (an
// act of reconciliation: which column is the debit, which half is whose): a PDF's strings with
// their positions, a workbook's cells by row and column, a Word document's paragraphs and table
// cells as one sheet's rows (layoutDOCX). Extract joins the same text into lines; Layout keeps
// where each piece stands.
type Layout struct {
	Format string // "pdf", "xlsx" or "docx" (cells as text, never raw numbers)
	Title  string // from the file's metadata, "" when it has none
	Pages  []LaidPage
}

// LaidPage is one page of a PDF or a scan (Runs) or one sheet of a workbook or a Word document
// (Rows, Merged).
type LaidPage struct {
	Number int    // 1-based
	Sheet  string // the sheet's name (xlsx)
	// Runs are the strings a PDF page shows, in content order: horizontal text only.
	Runs []Run
	// Rows are a sheet's rows, empty rows included as nil up to the last non-empty one.
	Rows [][]Cell
	// Merged are a sheet's merged ranges.
	Merged []Span
}

// Run is a string a PDF page shows, in points of device space from the page's bottom left: its
// baseline Y, from X0 to X1 along it, in a font of Size. A table cell's text is usually one run;
// a run may also be a piece of a word when the writer kerns (TJ), and the reader of a table
// joins runs that touch.
type Run struct {
	X0, X1, Y, Size float64
	Text            string
}

// Cell is a sheet's cell: Col is 1-based, Value the cell's raw value — a number as stored («46027»
// for a date, «1234.5» for an amount), a string as written.
type Cell struct {
	Col   int
	Value string
}

// Span is a merged range of a sheet, 1-based and inclusive.
type Span struct {
	Row0, Col0, Row1, Col1 int
}

// maxLayoutCells bounds the cells Layout keeps of a workbook: far beyond any act or statement a
// person sends, far below what the limits of Extract let through.
const maxLayoutCells = 2_000_000

// ReadLayout reads a PDF with a text layer, an XLSX workbook or a DOCX as laid out, within the
// same limits and with the same refusals as Extract (ErrScanned, ErrEncrypted, ErrBomb…); another
// format is ErrUnknownType with a message that names the three.
func ReadLayout(ctx context.Context, name string, data []byte, l Limits) (Layout, error) {
	return runJob(ctx, data, l, func(j *job) (Layout, error) {
		format, zr, err := sniff(name, data)
		if err != nil {
			return Layout{}, err
		}
		switch format {
		case "pdf":
			return layoutPDF(j, data)
		case "xlsx":
			return layoutXLSX(j, data, zr)
		case "docx":
			return layoutDOCX(j, zr)
		}
		return Layout{}, newErr(ErrUnknownType, "Таблицу я читаю из PDF с текстовым слоем, XLSX или DOCX: пришлите файл в одном из этих форматов.", format, nil)
	})
}

func layoutPDF(j *job, data []byte) (Layout, error) {
	e, title, err := readPDF(j, data, true)
	if err != nil {
		return Layout{}, err
	}
	out := Layout{Format: "pdf", Title: cleanTitle(title)}
	for i, p := range e.pages {
		out.Pages = append(out.Pages, LaidPage{Number: i + 1, Runs: p.runs})
	}
	return out, nil
}

func layoutXLSX(j *job, data []byte, zr *zip.Reader) (Layout, error) {
	f, err := openXLSX(j, data, zr)
	if err != nil {
		return Layout{}, err
	}
	defer f.Close()
	out := Layout{Format: "xlsx"}
	if props, err := f.GetDocProps(); err == nil && props != nil {
		out.Title = cleanTitle(props.Title)
	}
	cells := 0
	for i, sheet := range f.GetSheetList() {
		if err := j.check(); err != nil {
			return Layout{}, err
		}
		page := LaidPage{Number: i + 1, Sheet: sheet}
		rows, err := f.Rows(sheet)
		if err != nil {
			continue // chart sheets and the like have no rows
		}
		n := 0
		for rows.Next() {
			if n++; n%256 == 0 {
				if err := j.check(); err != nil {
					_ = rows.Close()
					return Layout{}, err
				}
			}
			cols, err := rows.Columns(excelize.Options{RawCellValue: true})
			if err != nil {
				_ = rows.Close()
				return Layout{}, malformed(fmt.Sprintf("sheet %q", sheet), err)
			}
			var row []Cell
			for c, v := range cols {
				if v = strings.TrimSpace(v); v != "" {
					row = append(row, Cell{Col: c + 1, Value: v})
				}
			}
			if cells += len(row); cells > maxLayoutCells {
				_ = rows.Close()
				return Layout{}, newErr(ErrTooLarge, "", fmt.Sprintf("xlsx layout: more than %d cells", maxLayoutCells), nil)
			}
			page.Rows = append(page.Rows, row)
		}
		err = rows.Error()
		_ = rows.Close()
		if err != nil {
			return Layout{}, malformed(fmt.Sprintf("sheet %q", sheet), err)
		}
		for len(page.Rows) > 0 && page.Rows[len(page.Rows)-1] == nil {
			page.Rows = page.Rows[:len(page.Rows)-1]
		}
		if merged, err := f.GetMergeCells(sheet); err == nil {
			for _, m := range merged {
				c0, r0, err0 := excelize.CellNameToCoordinates(m.GetStartAxis())
				c1, r1, err1 := excelize.CellNameToCoordinates(m.GetEndAxis())
				if err0 == nil && err1 == nil {
					page.Merged = append(page.Merged, Span{Row0: r0, Col0: c0, Row1: r1, Col1: c1})
				}
			}
		}
		out.Pages = append(out.Pages, page)
	}
	if len(out.Pages) == 0 {
		return Layout{}, malformed("xlsx without sheets", nil)
	}
	return out, nil
}
