package extract

import (
	"archive/zip"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// layoutDOCX reads a Word document as one sheet: each paragraph outside a table is a row of one
// cell in column 1, each row of a top-level table a row of its cells — a cell's column counts the
// grid columns before it (w:gridBefore, w:gridSpan), a cell spanning several is a merged range, a
// vertically merged continuation is empty. A nested table's text stays in its cell. So a table in
// Word (an act of reconciliation in the counterparty's columns) is read as a workbook's would be,
// its cells' text as written («1 930 644,06», «05.01.2026»).
func layoutDOCX(j *job, zr *zip.Reader) (Layout, error) {
	name := mainPart(zr)
	var doc *zip.File
	if name != "" {
		doc = zipFile(zr, name)
	}
	if doc == nil {
		doc = zipFile(zr, "word/document.xml")
	}
	if doc == nil {
		return Layout{}, malformed("docx without document part", nil)
	}
	title, err := coreTitle(j, zipFile(zr, "docProps/core.xml"))
	if err != nil {
		return Layout{}, err
	}
	rc, err := openZip(j, doc, j.l.MaxUncompressed)
	if err != nil {
		return Layout{}, err
	}
	defer rc.Close()
	p := docxLayout{j: j, maxRunes: 2*j.l.MaxChars + 65536}
	if err := p.parse(xml.NewDecoder(guardXML(rc, doc.Name, docxXMLLimits))); err != nil {
		return Layout{}, zipErr(j, "document.xml", err)
	}
	for len(p.page.Rows) > 0 && p.page.Rows[len(p.page.Rows)-1] == nil {
		p.page.Rows = p.page.Rows[:len(p.page.Rows)-1]
	}
	p.page.Number = 1
	return Layout{Format: "docx", Title: cleanTitle(title), Pages: []LaidPage{p.page}}, nil
}

// docxLayout is the state of reading document.xml as rows.
type docxLayout struct {
	j    *job
	page LaidPage
	// tables is the depth of tables the reader is in; cells of the top-level one are the row's.
	tables int
	inT    bool
	text   strings.Builder // the current paragraph outside a table, or the current top-level cell
	row    []Cell
	col    int  // the next cell's grid column, 1-based
	span   int  // the current cell's w:gridSpan
	cont   bool // the current cell continues a vertical merge
	inRow  bool
	cells  int
	// runes of text taken so far, and their bound (as the text reader's).
	runes, maxRunes int
}

func (p *docxLayout) parse(d *xml.Decoder) error { return walkXML(p.j, d, p) }

// chars takes a run's text (w:t) into the current paragraph or cell, within the text bound.
func (p *docxLayout) chars(t xml.CharData) error {
	if p.inT {
		if p.runes += utf8.RuneCount(t); p.runes > p.maxRunes {
			return p.j.tooManyChars()
		}
		p.text.Write(t)
	}
	return nil
}

func (p *docxLayout) space() {
	if p.text.Len() > 0 {
		p.text.WriteByte(' ')
	}
}

func (p *docxLayout) start(d *xml.Decoder, t xml.StartElement) error {
	switch t.Name.Local {
	case "Fallback", "delText", "instrText", "footnoteReference", "endnoteReference":
		return d.Skip()
	case "t":
		p.inT = true
	case "tab", "br", "cr":
		p.space()
	case "noBreakHyphen":
		p.text.WriteByte('-')
	case "tbl":
		p.tables++
		if p.tables > 1 {
			p.space()
		}
	case "tr":
		if p.tables == 1 {
			p.row, p.col, p.inRow = nil, 1, true
		}
	case "gridBefore":
		if p.tables == 1 && p.inRow {
			if v, err := strconv.Atoi(attr(t, "val")); err == nil && v > 0 && v < 4096 {
				p.col += v
			}
		}
	case "tc":
		if p.tables == 1 {
			p.text.Reset()
			p.span, p.cont = 1, false
		}
	case "gridSpan":
		if p.tables == 1 {
			if v, err := strconv.Atoi(attr(t, "val")); err == nil && v > 1 && v < 4096 {
				p.span = v
			}
		}
	case "vMerge":
		if p.tables == 1 {
			p.cont = attr(t, "val") != "restart"
		}
	}
	return nil
}

func (p *docxLayout) end(t xml.EndElement) error {
	switch t.Name.Local {
	case "t":
		p.inT = false
	case "p":
		if p.tables == 0 {
			s := strings.TrimSpace(oneLine(p.text.String()))
			p.text.Reset()
			if s != "" {
				return p.add([]Cell{{Col: 1, Value: s}})
			}
			return nil
		}
		p.space()
	case "tc":
		if p.tables != 1 || !p.inRow {
			return nil
		}
		s := strings.TrimSpace(oneLine(p.text.String()))
		p.text.Reset()
		if s != "" && !p.cont {
			p.row = append(p.row, Cell{Col: p.col, Value: s})
			if p.span > 1 {
				r := len(p.page.Rows) + 1
				p.page.Merged = append(p.page.Merged, Span{Row0: r, Col0: p.col, Row1: r, Col1: p.col + p.span - 1})
			}
		}
		p.col += p.span
		if p.col > 4096 {
			return malformed(fmt.Sprintf("table row with %d columns", p.col), nil)
		}
	case "tr":
		if p.tables == 1 && p.inRow {
			p.inRow = false
			return p.add(p.row)
		}
	case "tbl":
		if p.tables > 0 {
			p.tables--
		}
		if p.tables == 0 {
			p.page.Rows = append(p.page.Rows, nil) // a table ends: an empty row, as a sheet would leave
		}
	}
	return nil
}

// add appends a row (nil when empty), within the cells a layout keeps.
func (p *docxLayout) add(row []Cell) error {
	if p.cells += len(row); p.cells > maxLayoutCells {
		return newErr(ErrTooLarge, "", fmt.Sprintf("docx layout: more than %d cells", maxLayoutCells), nil)
	}
	if len(row) == 0 {
		row = nil
	}
	p.page.Rows = append(p.page.Rows, row)
	return nil
}
