package extract

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	maxZipEntries = 10000
	maxSidePart   = 16 << 20 // styles, relationships, metadata
)

// zipFile finds an entry by name (exactly, then case-insensitively).
func zipFile(zr *zip.Reader, name string) *zip.File {
	for _, f := range zr.File {
		if f.Name == name {
			return f
		}
	}
	for _, f := range zr.File {
		if strings.EqualFold(f.Name, name) {
			return f
		}
	}
	return nil
}

// openZip opens an entry through the job budget and a per-entry limit.
func openZip(j *job, f *zip.File, limit int64) (io.ReadCloser, error) {
	if f.UncompressedSize64 > uint64(j.remaining()) || f.UncompressedSize64 > uint64(limit) {
		if j.failure == nil {
			j.failure = j.bombErr()
		}
		return nil, j.failure
	}
	rc, err := f.Open()
	if err != nil {
		return nil, malformed("zip entry "+f.Name, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{&budgetReader{j: j, r: rc, limit: limit}, rc}, nil
}

// zipErr classifies an error met while reading a zip entry.
func zipErr(j *job, what string, err error) error {
	if f := j.failure; f != nil {
		return f
	}
	if errors.Is(err, errStreamTooBig) {
		return j.bombErr()
	}
	for _, k := range []error{ErrBomb, ErrTooLarge, ErrTooComplex, ErrMalformed, ErrEncrypted} {
		if errors.Is(err, k) {
			return err
		}
	}
	return malformed(what, err)
}

// mainPart finds the officeDocument part from _rels/.rels ("" if there is none).
func mainPart(zr *zip.Reader) string {
	f := zipFile(zr, "_rels/.rels")
	if f == nil || f.UncompressedSize64 > 1<<20 {
		return ""
	}
	rc, err := f.Open()
	if err != nil {
		return ""
	}
	defer rc.Close()
	d := xml.NewDecoder(guardXML(io.LimitReader(rc, 1<<20), "_rels/.rels", sideXMLLimits))
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "Relationship" {
			if strings.HasSuffix(attr(se, "Type"), "/officeDocument") {
				return strings.TrimPrefix(path.Clean("/"+attr(se, "Target")), "/")
			}
		}
	}
}

func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// extractDOCX streams word/document.xml: paragraphs, headings (by style or outline level),
// tables as tab-separated rows, explicit page breaks as pages.
func extractDOCX(j *job, zr *zip.Reader, b *docBuilder) error {
	name := mainPart(zr)
	var doc *zip.File
	if name != "" {
		doc = zipFile(zr, name)
	}
	if doc == nil {
		doc = zipFile(zr, "word/document.xml")
	}
	if doc == nil {
		return malformed("docx without document part", nil)
	}
	dir := path.Dir(doc.Name)
	levels, err := docxStyles(j, zipFile(zr, path.Join(dir, "styles.xml")))
	if err != nil {
		return err
	}
	b.title, err = coreTitle(j, zipFile(zr, "docProps/core.xml"))
	if err != nil {
		return err
	}
	rc, err := openZip(j, doc, j.l.MaxUncompressed)
	if err != nil {
		return err
	}
	defer rc.Close()
	p := docxParser{j: j, b: b, levels: levels, maxRunes: 2*j.l.MaxChars + 65536}
	b.newPage()
	if err := p.parse(xml.NewDecoder(guardXML(rc, doc.Name, docxXMLLimits))); err != nil {
		return zipErr(j, "document.xml", err)
	}
	return nil
}

// headingLevel maps a style name or id to a heading level (0 = not a heading).
func headingLevel(name string) int {
	n := strings.ToLower(strings.Join(strings.Fields(name), ""))
	for _, p := range []string{"heading", "заголовок"} {
		if rest, ok := strings.CutPrefix(n, p); ok {
			if rest == "" && p == "заголовок" {
				return 1
			}
			if v, err := strconv.Atoi(rest); err == nil && v >= 1 && v <= 9 {
				return v
			}
		}
	}
	switch n {
	case "title", "название":
		return 1
	}
	return 0
}

// docxStyles reads heading levels of paragraph styles from styles.xml: by name
// ("heading 1", "Заголовок 1", "Title"), else by outline level, following basedOn.
func docxStyles(j *job, f *zip.File) (map[string]int, error) {
	levels := map[string]int{}
	if f == nil {
		return levels, nil
	}
	rc, err := openZip(j, f, maxSidePart)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	type style struct {
		name, basedOn string
		outline       int // 0 = none, else outlineLvl+1
	}
	styles := map[string]*style{}
	var cur *style
	d := xml.NewDecoder(guardXML(rc, f.Name, sideXMLLimits))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if j.failure != nil {
				return nil, j.failure
			}
			if errors.Is(err, ErrTooComplex) {
				return nil, err
			}
			break // styles are optional: keep what was read
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "style":
				cur = nil
				if attr(t, "type") == "paragraph" || attr(t, "type") == "" {
					cur = &style{}
					styles[attr(t, "styleId")] = cur
				}
			case "name":
				if cur != nil {
					cur.name = attr(t, "val")
				}
			case "basedOn":
				if cur != nil {
					cur.basedOn = attr(t, "val")
				}
			case "outlineLvl":
				if cur != nil {
					if v, err := strconv.Atoi(attr(t, "val")); err == nil && v >= 0 && v < 9 {
						cur.outline = v + 1
					}
				}
			}
		case xml.EndElement:
			if t.Name.Local == "style" {
				cur = nil
			}
		}
	}
	for id, s := range styles {
		lvl := 0
		for k, cur := 0, s; cur != nil && k < 10 && lvl == 0; k++ {
			lvl = headingLevel(cur.name)
			if lvl == 0 {
				lvl = cur.outline
			}
			cur = styles[cur.basedOn]
		}
		if lvl == 0 {
			lvl = headingLevel(id)
		}
		if lvl > 0 {
			levels[id] = lvl
		}
	}
	return levels, nil
}

// coreTitle reads dc:title from docProps/core.xml.
func coreTitle(j *job, f *zip.File) (string, error) {
	if f == nil {
		return "", nil
	}
	rc, err := openZip(j, f, maxSidePart)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	d := xml.NewDecoder(guardXML(rc, f.Name, sideXMLLimits))
	in := false
	var sb strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			if j.failure != nil {
				return "", j.failure
			}
			if errors.Is(err, ErrTooComplex) {
				return "", err
			}
			return sb.String(), nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			in = t.Name.Local == "title"
		case xml.EndElement:
			if in {
				return sb.String(), nil
			}
		case xml.CharData:
			if in && sb.Len() < 4096 {
				sb.Write(t)
			}
		}
	}
}

type docxPara struct {
	text      strings.Builder
	style     string
	outline   int
	pageBreak bool // pageBreakBefore
}

type docxTable struct {
	row  []string
	cell strings.Builder
}

type docxParser struct {
	j      *job
	b      *docBuilder
	levels map[string]int
	paras  []*docxPara
	tables []*docxTable
	inT    bool
	pPr    int  // depth inside w:pPr
	para   bool // next body block starts a paragraph (after a table)
	// Runes of text taken from the part so far, and their bound: open paragraphs and table
	// cells hold text until they end, so the text limit is enforced as the text is read.
	runes, maxRunes int
}

func (p *docxParser) parse(d *xml.Decoder) error { return walkXML(p.j, d, p) }

// chars takes a run's text (w:t) into the open paragraph or cell.
func (p *docxParser) chars(t xml.CharData) error {
	if p.inT && len(p.paras) > 0 {
		if err := p.take(t); err != nil {
			return err
		}
		p.write(string(t))
	}
	return nil
}

// xmlPart is what walkXML drives: a reader of a part's elements and text.
type xmlPart interface {
	start(d *xml.Decoder, t xml.StartElement) error
	end(t xml.EndElement) error
	chars(t xml.CharData) error
}

// walkXML reads a part's tokens into h to the end, checking the job's limits every 1024 tokens.
func walkXML(j *job, d *xml.Decoder, h xmlPart) error {
	n := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if n++; n%1024 == 0 {
			if err := j.check(); err != nil {
				return err
			}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			err = h.start(d, t)
		case xml.EndElement:
			err = h.end(t)
		case xml.CharData:
			err = h.chars(t)
		}
		if err != nil {
			return err
		}
	}
}

// take charges text read from the part to the text limit.
func (p *docxParser) take(b []byte) error {
	if p.runes += utf8.RuneCount(b); p.runes > p.maxRunes {
		return p.j.tooManyChars()
	}
	return nil
}

func (p *docxParser) write(s string) {
	if len(p.paras) == 0 {
		return
	}
	p.paras[len(p.paras)-1].text.WriteString(s)
}

func (p *docxParser) start(d *xml.Decoder, t xml.StartElement) error {
	switch t.Name.Local {
	case "Fallback": // mc:Fallback repeats mc:Choice (text boxes, shapes)
		return d.Skip()
	case "delText", "instrText", "footnoteReference", "endnoteReference":
		return d.Skip()
	case "p":
		p.paras = append(p.paras, &docxPara{})
	case "pPr":
		p.pPr++
	case "pStyle":
		if len(p.paras) > 0 && p.pPr > 0 {
			p.paras[len(p.paras)-1].style = attr(t, "val")
		}
	case "outlineLvl":
		if len(p.paras) > 0 && p.pPr > 0 {
			if v, err := strconv.Atoi(attr(t, "val")); err == nil && v >= 0 && v < 9 {
				p.paras[len(p.paras)-1].outline = v + 1
			}
		}
	case "pageBreakBefore":
		if len(p.paras) > 0 && p.pPr > 0 {
			v := attr(t, "val")
			p.paras[len(p.paras)-1].pageBreak = v == "" || v == "1" || v == "true" || v == "on"
		}
	case "t":
		p.inT = true
	case "tab":
		if p.pPr == 0 {
			p.write("\t")
		}
	case "br":
		if attr(t, "type") == "page" {
			return p.pageBreak()
		}
		if attr(t, "type") != "column" {
			p.write("\n")
		}
	case "cr":
		p.write("\n")
	case "noBreakHyphen":
		p.write("-")
	case "tbl":
		if len(p.tables) == 0 {
			p.para = true
		}
		p.tables = append(p.tables, &docxTable{})
	case "tc":
		if len(p.tables) > 0 {
			p.tables[len(p.tables)-1].cell.Reset()
		}
	case "tr":
		if len(p.tables) > 0 {
			p.tables[len(p.tables)-1].row = p.tables[len(p.tables)-1].row[:0]
		}
	}
	return nil
}

// pageBreak ends the page inside the current paragraph: the text so far stays on this page.
func (p *docxParser) pageBreak() error {
	if len(p.tables) > 0 || len(p.paras) == 0 {
		return nil // page breaks inside tables are ignored
	}
	cur := p.paras[len(p.paras)-1]
	if err := p.emit(cur.text.String(), cur); err != nil {
		return err
	}
	cur.text.Reset()
	p.b.newPage()
	return nil
}

func (p *docxParser) level(pr *docxPara) int {
	if l := p.levels[pr.style]; l > 0 {
		return l
	}
	if pr.style != "" {
		if l := headingLevel(pr.style); l > 0 {
			return l
		}
	}
	return pr.outline
}

func (p *docxParser) emit(text string, pr *docxPara) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	para := p.para
	p.para = false
	return p.b.add(text, p.level(pr), para)
}

func (p *docxParser) end(t xml.EndElement) error {
	switch t.Name.Local {
	case "t":
		p.inT = false
	case "pPr":
		if p.pPr > 0 {
			p.pPr--
		}
		// A page break before this paragraph.
		if p.pPr == 0 && len(p.paras) > 0 && len(p.tables) == 0 {
			if pr := p.paras[len(p.paras)-1]; pr.pageBreak && pr.text.Len() == 0 {
				pr.pageBreak = false
				if len(p.b.pages) > 0 && len(p.b.pages[len(p.b.pages)-1]) > 0 {
					p.b.newPage()
				}
			}
		}
	case "p":
		if len(p.paras) == 0 {
			return nil
		}
		pr := p.paras[len(p.paras)-1]
		p.paras = p.paras[:len(p.paras)-1]
		text := pr.text.String()
		if len(p.tables) > 0 && len(p.paras) == 0 {
			c := &p.tables[len(p.tables)-1].cell
			if strings.TrimSpace(text) != "" {
				if c.Len() > 0 {
					c.WriteByte(' ')
				}
				c.WriteString(oneLine(text))
				if c.Len() > 1<<20 {
					return p.j.tooManyChars()
				}
			}
			return nil
		}
		return p.emit(text, pr)
	case "tc":
		if len(p.tables) > 0 {
			tb := p.tables[len(p.tables)-1]
			tb.row = append(tb.row, strings.TrimSpace(tb.cell.String()))
			tb.cell.Reset()
			if len(tb.row) > 4096 {
				return malformed(fmt.Sprintf("table row with %d cells", len(tb.row)), nil)
			}
		}
	case "tr":
		if len(p.tables) == 0 {
			return nil
		}
		tb := p.tables[len(p.tables)-1]
		row := tb.row
		for len(row) > 0 && row[len(row)-1] == "" {
			row = row[:len(row)-1]
		}
		line := strings.Join(row, "\t")
		tb.row = tb.row[:0]
		if strings.TrimSpace(line) == "" {
			return nil
		}
		if len(p.tables) == 1 {
			para := p.para
			p.para = false
			return p.b.add(line, 0, para)
		}
		parent := &p.tables[len(p.tables)-2].cell
		if parent.Len() > 0 {
			parent.WriteString("; ")
		}
		parent.WriteString(strings.ReplaceAll(line, "\t", " | "))
	case "tbl":
		if len(p.tables) > 0 {
			p.tables = p.tables[:len(p.tables)-1]
		}
		p.para = len(p.tables) == 0
	}
	return nil
}
