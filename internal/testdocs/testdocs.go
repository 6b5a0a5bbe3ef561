// Package testdocs makes real documents (PDF with a Cyrillic text layer, DOCX, XLSX) for tests
// of the upload pipeline across packages. Only tests and the load driver
// (internal/load) import it.
package testdocs

import (
	"archive/zip"
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-pdf/fpdf"
	"github.com/xuri/excelize/v2"
)

// Section is a heading with its text; in a PDF every section starts a page.
type Section struct {
	Heading string
	Body    string
}

// PDF returns an A4 PDF whose title metadata is title and whose pages are sections, in an
// embedded TrueType font with a ToUnicode map, as office suites write them.
func PDF(title string, sections ...Section) []byte {
	f := fpdf.New("P", "mm", "A4", "")
	f.AddUTF8FontFromBytes("lib", "", liberationsansregular.TTF)
	f.AddUTF8FontFromBytes("lib", "B", liberationsansbold.TTF)
	f.SetTitle(title, true)
	for _, s := range sections {
		f.AddPage()
		f.SetFont("lib", "B", 14)
		f.MultiCell(0, 8, s.Heading, "", "", false)
		f.Ln(4)
		f.SetFont("lib", "", 11)
		f.MultiCell(0, 6, s.Body, "", "", false)
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		panic(fmt.Sprintf("testdocs: pdf: %v", err))
	}
	return buf.Bytes()
}

// DOCX returns a Word document: the title as a Heading1 paragraph, then each section as a
// Heading2 and its body paragraphs (split at blank lines).
func DOCX(title string, sections ...Section) []byte {
	para := func(style, text string) string {
		p := "<w:p>"
		if style != "" {
			p += `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
		}
		return p + `<w:r><w:t xml:space="preserve">` + html.EscapeString(text) + `</w:t></w:r></w:p>`
	}
	var body strings.Builder
	body.WriteString(para("Heading1", title))
	for _, s := range sections {
		body.WriteString(para("Heading2", s.Heading))
		for _, p := range strings.Split(s.Body, "\n\n") {
			body.WriteString(para("", p))
		}
	}
	return docxPackage(body.String())
}

// docxPackage wraps a document body's XML into a DOCX package.
func docxPackage(body string) []byte {
	files := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body + `</w:body></w:document>`,
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"[Content_Types].xml", "_rels/.rels", "word/document.xml"} {
		w, err := zw.Create(name)
		if err != nil {
			panic(err)
		}
		w.Write([]byte(files[name]))
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// XLSX returns a workbook with one sheet of rows.
func XLSX(sheet string, rows [][]any) []byte {
	f := excelize.NewFile()
	defer f.Close()
	f.SetSheetName("Sheet1", sheet)
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sheet, cell, &r); err != nil {
			panic(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// DOCXText returns a Word document written as an office suite writes a contract: every line of
// text its own paragraph (a line in upper case, a heading), and every Markdown table block
// («| a | b |» lines with a «|---|» rule) a real table.
func DOCXText(text string) []byte {
	esc := func(s string) string {
		return `<w:r><w:t xml:space="preserve">` + html.EscapeString(s) + `</w:t></w:r>`
	}
	var body strings.Builder
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "|") {
			body.WriteString("<w:tbl>")
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				cells := tableCells(lines[i])
				if cells == nil {
					continue // the rule under the header
				}
				body.WriteString("<w:tr>")
				for _, c := range cells {
					body.WriteString("<w:tc><w:p>" + esc(c) + "</w:p></w:tc>")
				}
				body.WriteString("</w:tr>")
			}
			i--
			body.WriteString("</w:tbl>")
			continue
		}
		style := ""
		if strings.ToUpper(line) == line && strings.ToLower(line) != line {
			style = `<w:pPr><w:pStyle w:val="Heading2"/></w:pPr>`
		}
		body.WriteString("<w:p>" + style + esc(line) + "</w:p>")
	}
	return docxPackage(body.String())
}

// tableCells returns the cells of a Markdown table line, or nil for its «|---|» rule.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	cells := strings.Split(line, "|")
	rule := true
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
		if strings.Trim(cells[i], "-: ") != "" {
			rule = false
		}
	}
	if rule {
		return nil
	}
	return cells
}

// PDFText returns an A4 PDF of text as a printed document: lines flow over pages, a Markdown
// table's rows printed with their cells spaced apart, as a text layer reads them.
func PDFText(title, text string) []byte {
	f := fpdf.New("P", "mm", "A4", "")
	f.AddUTF8FontFromBytes("lib", "", liberationsansregular.TTF)
	f.SetTitle(title, true)
	f.AddPage()
	f.SetFont("lib", "", 10)
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "|") {
			cells := tableCells(line)
			if cells == nil {
				continue
			}
			line = strings.Join(cells, "   ")
		}
		if strings.TrimSpace(line) == "" {
			f.Ln(3)
			continue
		}
		f.MultiCell(0, 5, strings.TrimSpace(line), "", "", false)
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		panic(fmt.Sprintf("testdocs: pdf: %v", err))
	}
	return buf.Bytes()
}

// SetFile is one document of a question set as the user uploads it.
type SetFile struct {
	Name string // the file name the user gave it
	Data []byte
}

// SetFiles returns the documents of the question set in dir as its manifest.tsv says they are
// uploaded (file, upload_as, title, kind): DOCX with a paragraph per clause and real tables, PDF
// with a text layer, a price list or a tariff as XLSX with numeric cells.
func SetFiles(dir string) ([]SetFile, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		return nil, err
	}
	var files []SetFile
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		r := strings.Split(line, "\t")
		if i == 0 || strings.TrimSpace(line) == "" {
			continue // the header
		}
		for len(r) < 4 {
			r = append(r, "")
		}
		src, as, title := r[0], r[1], r[2]
		text, err := os.ReadFile(filepath.Join(dir, src))
		if err != nil {
			return nil, err
		}
		var data []byte
		switch as {
		case "docx":
			data = DOCXText(string(text))
		case "pdf", "pdf-scan":
			data = PDFText(strings.TrimSuffix(title, ".pdf"), string(text))
		case "xlsx":
			var rows [][]any
			for j, l := range strings.Split(strings.TrimSpace(string(text)), "\n") {
				var row []any
				for _, c := range strings.Split(l, "\t") {
					if n, err := strconv.ParseFloat(c, 64); err == nil && j > 0 {
						row = append(row, n)
					} else {
						row = append(row, c)
					}
				}
				rows = append(rows, row)
			}
			sheet := "Лист1" // as a spreadsheet program names it; the first set's price list was named
			if r[3] == "pricelist" {
				sheet = "Прайс"
			}
			data = XLSX(sheet, rows)
		default:
			return nil, fmt.Errorf("manifest: %s: upload as %q?", src, as)
		}
		files = append(files, SetFile{Name: title, Data: data})
	}
	return files, nil
}

// TSV reads a question set's tab-separated file: its rows, the header line and blank lines
// skipped.
func TSV(path string) ([][]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for i, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimRight(line, "\r")
		if i == 0 || strings.TrimSpace(line) == "" {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows, nil
}
