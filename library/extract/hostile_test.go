package extract

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"testing"
	"time"
)

// Hostile files: each shape is built in code (no blobs in git), in milliseconds, by repeating an
// independently compressed deflate block — a part of hundreds of megabytes costs a few kilobytes
// to make and to store.

// bigPart is a zip entry head + unit×n + tail whose data is never held uncompressed.
type bigPart struct {
	name       string
	head, unit string
	n          int
	tail       string
	declare    uint64 // declared uncompressed size; 0 = the true one
}

// deflateFlushed compresses s into a byte-aligned deflate block sequence (final: the last one).
func deflateFlushed(s string, final bool) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(s))
	if final {
		w.Close()
	} else {
		w.Flush()
	}
	return b.Bytes()
}

// raw returns the compressed data, its CRC-32 and its uncompressed size.
func (p bigPart) raw() ([]byte, uint32, uint64) {
	var comp bytes.Buffer
	comp.Write(deflateFlushed(p.head, false))
	crc := crc32.Update(0, crc32.IEEETable, []byte(p.head))
	size := uint64(len(p.head))
	// One block of about 256 KB of units, repeated; the rest unit by unit.
	per := max(1, (256<<10)/max(1, len(p.unit)))
	chunk := strings.Repeat(p.unit, per)
	block := deflateFlushed(chunk, false)
	left := p.n
	for left >= per {
		comp.Write(block)
		crc = crc32.Update(crc, crc32.IEEETable, []byte(chunk))
		size += uint64(len(chunk))
		left -= per
	}
	rest := strings.Repeat(p.unit, left) + p.tail
	comp.Write(deflateFlushed(rest, true))
	crc = crc32.Update(crc, crc32.IEEETable, []byte(rest))
	size += uint64(len(rest))
	return comp.Bytes(), crc, size
}

// makeZipBig writes small entries (compressed normally) and big parts (raw).
func makeZipBig(t testing.TB, small []zipEntry, big ...bigPart) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range small {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.data)
	}
	for _, p := range big {
		data, crc, size := p.raw()
		if p.declare > 0 {
			size = p.declare
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: p.name, Method: zip.Deflate, CRC32: crc,
			CompressedSize64: uint64(len(data)), UncompressedSize64: size})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zipEntries reads every entry of a zip (for rebuilding a real XLSX with one part replaced).
func zipEntries(t testing.TB, data []byte) []zipEntry {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []zipEntry
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, zipEntry{f.Name, b})
	}
	return out
}

// hostileDOCX is the fixture DOCX with word/document.xml (or another part) replaced by p.
func hostileDOCX(t testing.TB, p bigPart) []byte {
	small := []zipEntry{{"[Content_Types].xml", []byte(docxContentTypes)}, {"_rels/.rels", []byte(docxRels)}}
	if p.name != "word/document.xml" {
		small = append(small, zipEntry{"word/document.xml", docxDocument(wPara("", "Текст договора."))})
	}
	if p.name != "word/styles.xml" {
		small = append(small, zipEntry{"word/styles.xml", []byte(docxStylesXML)})
	}
	return makeZipBig(t, small, p)
}

// docxBody makes a document.xml part: the body opens, then head, unit×n, tail.
func docxBody(head, unit string, n int, tail string) bigPart {
	h, tl, _ := strings.Cut(string(docxDocument("\x00")), "\x00")
	return bigPart{name: "word/document.xml", head: h + head, unit: unit, n: n, tail: tail + tl}
}

// hostileXLSX is the fixture XLSX with one part replaced by p (or added).
func hostileXLSX(t testing.TB, p bigPart) []byte {
	var small []zipEntry
	for _, e := range zipEntries(t, fixtureXLSX(t)) {
		if e.name != p.name {
			small = append(small, e)
		}
	}
	return makeZipBig(t, small, p)
}

func withoutPart(es []zipEntry, name string) []zipEntry {
	var out []zipEntry
	for _, e := range es {
		if e.name != name {
			out = append(out, e)
		}
	}
	return out
}

// sheetPart makes xl/worksheets/sheet1.xml from rows.
func sheetPart(head, unit string, n int, tail string) bigPart {
	return bigPart{name: "xl/worksheets/sheet1.xml",
		head: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + head,
		unit: unit, n: n, tail: tail + `</sheetData></worksheet>`}
}

// hostilePDF writes a PDF with a catalog and one page (extra entries in its dictionary, its
// content stream object), then extra objects.
func hostilePDF(pageExtra, content string, extra ...string) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R " + pageExtra + ">>",
		content,
	}
	return buildPDF(append(objs, extra...))
}

// pdfContent is a plain content stream object.
func pdfContent(ops string) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(ops)+1, ops)
}

const pdfText1 = "BT /F1 12 Tf 72 700 Td (A line of text long enough to count as a text layer.) Tj ET"

// flatePDFStream is a Flate content stream object of head + unit×n.
func flatePDFStream(head, unit string, n int) string {
	var z bytes.Buffer
	zw, _ := newZlibWriter(&z)
	zw.Write([]byte(head))
	chunk := strings.Repeat(unit, max(1, (256<<10)/len(unit)))
	for left := n; left > 0; {
		k := min(left, max(1, (256<<10)/len(unit)))
		zw.Write([]byte(chunk[:k*len(unit)]))
		left -= k
	}
	zw.Close()
	return fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes())
}

// pdfObjStm is a PDF 1.5 whose page's /Contents is obj, an array (the content stream, then
// body) kept in a compressed object stream, with a cross-reference stream.
func pdfObjStm(t testing.TB, obj, body string) []byte {
	var b bytes.Buffer
	var offs []int
	b.WriteString("%PDF-1.5\n")
	add := func(s string) {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offs), s)
	}
	add("<< /Type /Catalog /Pages 2 0 R >>")
	add("<< /Type /Pages /Kids [4 0 R] /Count 1 >>")
	add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	add("<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents " + strings.Fields(obj)[0] + " 0 R >>")
	add(pdfContent(pdfText1))
	offs = append(offs, 0) // object 6: in the object stream
	head := strings.Fields(obj)[0] + " 0 "
	var z bytes.Buffer
	zw, _ := newZlibWriter(&z)
	zw.Write([]byte(head + "[5 0 R "))
	for left := body; len(left) > 0; {
		k := min(len(left), 1<<20)
		zw.Write([]byte(left[:k]))
		left = left[k:]
	}
	zw.Write([]byte("]"))
	zw.Close()
	add(fmt.Sprintf("<< /Type /ObjStm /N 1 /First %d /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(head), z.Len(), z.Bytes()))
	// The cross-reference stream (object 8): type 1 entries, object 6 as type 2 in object 7.
	var x bytes.Buffer
	x.Write([]byte{0, 0, 0, 0, 0})
	for i, o := range offs {
		if i == 5 {
			x.Write([]byte{2, 0, 0, 7, 0})
			continue
		}
		x.Write([]byte{1, byte(o >> 16), byte(o >> 8), byte(o), 0})
	}
	xrefAt := b.Len()
	o := xrefAt
	x.Write([]byte{1, byte(o >> 16), byte(o >> 8), byte(o), 0})
	fmt.Fprintf(&b, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 3 1] /Root 1 0 R /Length %d >>\nstream\n", len(offs)+1, len(offs)+2, x.Len())
	b.Write(x.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xrefAt)
	return b.Bytes()
}

// pdfPages is a PDF of n pages sharing one content stream.
func pdfPages(n int) []byte {
	var kids strings.Builder
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Length 60 >>\nstream\nBT /F1 12 Tf 72 700 Td (A page of a very long report.) Tj ET\nendstream"}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&kids, "%d 0 R ", 5+i)
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>")
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), n)
	return buildPDF(objs)
}

// hostile is one shape: its file, what Extract must answer, and a note for the table.
type hostile struct {
	name string
	file string
	make func(testing.TB) []byte
	want error // nil: extracted
	note string
}

func hostileShapes() []hostile {
	const mb = 1 << 20
	return []hostile{
		// DOCX
		{"docx/nested-p", "nested.docx", func(t testing.TB) []byte {
			return hostileDOCX(t, docxBody("", "<w:p>", 12_000_000, "")) // the file: 60 MB of <w:p>
		}, ErrTooComplex, "12 M nested <w:p> (60 MB XML)"},
		{"docx/nested-sdt-p-r", "sdt.docx", func(t testing.TB) []byte {
			return hostileDOCX(t, docxBody("", "<w:sdt><w:sdtContent><w:p><w:r>", 1_000_000, strings.Repeat("</w:r></w:p></w:sdtContent></w:sdt>", 1000)))
		}, ErrTooComplex, "1 M × sdt/sdtContent/p/r nested"},
		{"docx/nested-tables", "tbl.docx", func(t testing.TB) []byte {
			return hostileDOCX(t, docxBody("", "<w:tbl><w:tr><w:tc>", 1_000_000, ""))
		}, ErrTooComplex, "1 M nested tables"},
		{"docx/many-elements", "many.docx", func(t testing.TB) []byte {
			return hostileDOCX(t, docxBody("<w:p><w:r>", "<w:tab/>", 12_000_000, "</w:r></w:p>"))
		}, ErrTooComplex, "12 M <w:tab/> in one run (96 MB XML)"},
		{"docx/huge-text-run", "text.docx", func(t testing.TB) []byte {
			return hostileDOCX(t, docxBody("<w:p><w:r><w:t>", "текст ", 8_000_000, "</w:t></w:r></w:p>"))
		}, ErrTooComplex, "one <w:t> of 88 MB"},
		{"docx/huge-paragraph", "para.docx", func(t testing.TB) []byte {
			return hostileDOCX(t, docxBody("<w:p><w:r>", "<w:t>"+strings.Repeat("текст ", 1000)+"</w:t>", 8_000, "</w:r></w:p>"))
		}, ErrTooLarge, "one paragraph of 8,000 runs, 88 MB of text"},
		{"docx/largest-accepted", "big.docx", func(t testing.TB) []byte {
			para := wPara("", strings.Repeat("Поставщик обязуется передать товар на сумму 1 250 000,00 руб. ", 20))
			return hostileDOCX(t, docxBody("", para, 3_900, ""))
		}, nil, "4.9 M characters of text (the limit is 5 M): extracted"},
		{"docx/ratio-bomb", "bomb.docx", func(t testing.TB) []byte {
			return hostileDOCX(t, docxBody("", wPara("", strings.Repeat("а", 1000)), 500_000, ""))
		}, ErrBomb, "document.xml inflating to 1 GB"},
		{"docx/lying-size", "lie.docx", func(t testing.TB) []byte {
			p := docxBody("", wPara("", strings.Repeat("а", 1000)), 500_000, "")
			p.declare = 1000
			return hostileDOCX(t, p)
		}, ErrMalformed, "1 GB declared as 1,000 bytes"},
		{"docx/nested-styles", "styles.docx", func(t testing.TB) []byte {
			return hostileDOCX(t, bigPart{name: "word/styles.xml", head: "<w:styles>", unit: "<w:style>", n: 1_500_000})
		}, ErrTooComplex, "styles.xml of 1.5 M nested elements"},
		{"docx/doctype", "dtd.docx", func(t testing.TB) []byte {
			return hostileDOCX(t, bigPart{name: "word/document.xml", head: `<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa">]><w:document><w:body><w:p><w:r><w:t>&a;</w:t></w:r></w:p></w:body></w:document>`})
		}, ErrTooComplex, "a DOCTYPE with entities"},
		// XLSX
		{"xlsx/huge-shared-strings", "sst.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, bigPart{name: "xl/sharedStrings.xml", head: `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`, unit: "<si><t>x</t></si>", n: 4_000_000, tail: "</sst>"})
		}, ErrTooLarge, "4 M shared strings (68 MB XML): refused by size"},
		{"xlsx/many-shared-strings", "sst2.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, bigPart{name: "xl/sharedStrings.xml", head: `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`, unit: "<si><t>x</t></si>", n: 450_000, tail: "</sst>"})
		}, ErrTooComplex, "450 K shared strings (7.6 MB XML, 900 K elements)"},
		{"xlsx/huge-sheet", "sheet.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, sheetPart(``, `<row><c t="inlineStr"><is><t>Сумма 1 250 000,00</t></is></c></row>`, 1_200_000, ``))
		}, ErrTooLarge, "a sheet of 90 MB XML: refused by its declared size"},
		{"xlsx/wide-row", "cells.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, sheetPart(`<row r="1">`, `<c><v>1</v></c>`, 1_500_000, `</row>`))
		}, ErrTooComplex, "1.5 M cells in one row (22 MB XML)"},
		{"xlsx/many-cells", "grid.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, sheetPart(``, `<row>`+strings.Repeat(`<c><v>1</v></c>`, 16384)+`</row>`, 96, ``))
		}, ErrTooLarge, "96 rows × 16,384 cells (24 MB XML): too much text, found at the end"},
		{"xlsx/huge-cell", "cell.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, sheetPart(`<row><c t="inlineStr"><is><t>`, "текст ", 2_000_000, `</t></is></c></row>`))
		}, ErrTooComplex, "one cell of 22 MB"},
		{"xlsx/nested-sheet", "deep.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, sheetPart(`<row><c>`, "<x>", 7_000_000, ""))
		}, ErrTooComplex, "7 M nested elements in a sheet"},
		{"xlsx/nested-styles", "styles.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, bigPart{name: "xl/styles.xml", head: `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`, unit: "<a>", n: 2_500_000})
		}, ErrTooComplex, "styles.xml of 2.5 M nested elements"},
		{"xlsx/many-styles", "xfs.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, bigPart{name: "xl/styles.xml", head: `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs>`, unit: `<xf/>`, n: 1_500_000, tail: "</cellXfs></styleSheet>"})
		}, ErrTooComplex, "1.5 M cell formats in styles.xml"},
		{"xlsx/ratio-bomb", "bomb.xlsx", func(t testing.TB) []byte {
			return hostileXLSX(t, sheetPart(``, `<row><c><v>1</v></c></row>`, 40_000_000, ``))
		}, ErrBomb, "a sheet inflating to 1 GB"},
		{"xlsx/largest-accepted-parts", "max.xlsx", func(t testing.TB) []byte {
			var b strings.Builder
			b.WriteString(`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
			for i := range 190_000 {
				fmt.Fprintf(&b, "<si><t>Контрагент %06d</t></si>", i)
			}
			b.WriteString("</sst>")
			row := "<row>"
			for i := range 10 {
				row += fmt.Sprintf(`<c t="s"><v>%d</v></c>`, 1000+i*15_000)
			}
			row += "</row>"
			return makeZipBig(t, withoutPart(zipEntries(t, hostileXLSX(t, sheetPart(``, row, 90_000, ``))), "xl/sharedStrings.xml"),
				bigPart{name: "xl/sharedStrings.xml", head: b.String()})
		}, ErrTooLarge, "190 K shared strings (7.6 MB), a 23 MB sheet: too much text"},
		{"xlsx/large-workbook", "large.xlsx", func(t testing.TB) []byte {
			row := "<row>"
			for i := range 10 {
				row += fmt.Sprintf(`<c t="inlineStr"><is><t>Контрагент %d</t></is></c><c><v>%d.5</v></c>`, i, 1250000+i)
			}
			row += "</row>"
			return hostileXLSX(t, sheetPart(``, row, 15_000, ``))
		}, nil, "15,000 rows × 20 cells (4 M characters): extracted"},
		// PDF
		{"pdf/nested-arrays", "arr.pdf", func(t testing.TB) []byte {
			return hostilePDF("/Junk "+strings.Repeat("[", 8*mb), pdfContent(pdfText1))
		}, ErrTooComplex, "8 M nested arrays in the page"},
		{"pdf/nested-dicts", "dict.pdf", func(t testing.TB) []byte {
			return hostilePDF("/Junk "+strings.Repeat("<< /A ", 2*mb), pdfContent(pdfText1))
		}, ErrTooComplex, "2 M nested dictionaries in the page"},
		{"pdf/huge-array", "wide.pdf", func(t testing.TB) []byte {
			return hostilePDF("/Junk ["+strings.Repeat("0 ", 9*mb)+"]", pdfContent(pdfText1))
		}, ErrTooComplex, "a page with a 9 M-element array"},
		{"pdf/huge-string", "str.pdf", func(t testing.TB) []byte {
			return hostilePDF("/Junk ("+strings.Repeat("x", 18*mb)+")", pdfContent(pdfText1))
		}, ErrTooComplex, "a page with an 18 MB string"},
		{"pdf/objstm-huge-array", "objstm.pdf", func(t testing.TB) []byte {
			// Object 6, the page's /Contents, lives in a compressed object stream (object 7) of
			// 100 KB that inflates to a 40 M-element array; a cross-reference stream finds it.
			return pdfObjStm(t, "6 0", strings.Repeat("0 ", 40_000_000))
		}, ErrTooComplex, "an object stream holding a 40 M-element array"},
		{"pdf/huge-content", "content.pdf", func(t testing.TB) []byte {
			return hostilePDF("", flatePDFStream("BT /F1 12 Tf 72 700 Td ", "(Some text on the page) Tj ", 3_500_000))
		}, ErrTooComplex, "a content stream inflating to 95 MB"},
		{"pdf/dense-content", "dense.pdf", func(t testing.TB) []byte {
			return hostilePDF("", flatePDFStream(pdfText1+" ", "0 0 m 1 1 l S ", 2_200_000))
		}, nil, "a content stream of 31 MB, 6.6 M drawing operators: extracted"},
		{"pdf/many-pages", "pages.pdf", func(t testing.TB) []byte { return pdfPages(100_000) }, ErrTooLarge, "100,000 pages"},
		{"pdf/many-objects", "objs.pdf", func(t testing.TB) []byte {
			extra := make([]string, 450_000)
			for i := range extra {
				extra[i] = "0"
			}
			return hostilePDF("", pdfContent(pdfText1), extra...)
		}, nil, "450,000 objects: extracted"},
		{"pdf/huge-object-count", "size.pdf", func(t testing.TB) []byte {
			return bytes.Replace(hostilePDF("", pdfContent(pdfText1)), []byte("/Size 6"), []byte("/Size 1500000"), 1)
		}, ErrMalformed, "a trailer declaring 1.5 M objects"},
	}
}

// Every hostile shape is refused with its reason, and the refusal has a Russian message.
func TestHostileShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds files of up to 20 MB that inflate to hundreds")
	}
	for _, h := range hostileShapes() {
		t.Run(h.name, func(t *testing.T) {
			data := h.make(t)
			if len(data) > DefaultMaxBytes {
				t.Fatalf("the fixture is %d bytes, over the upload limit", len(data))
			}
			// The timeout is a defence of its own (TestContext): here a slow run under -race
			// must still meet the structural bound.
			_, err := Extract(context.Background(), h.file, data, Limits{Timeout: 10 * time.Minute})
			if h.want == nil {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if !errors.Is(err, h.want) {
				t.Fatalf("err = %v, want %v", err, h.want)
			}
			for _, k := range Kinds {
				if k != h.want && errors.Is(err, k) {
					t.Errorf("err %v also matches %v", err, k)
				}
			}
			if msg := UserMessage(err); !strings.ContainsAny(msg, "абвгдеёжзийклмнопрстуфхцчшщъыьэюя") {
				t.Errorf("UserMessage = %q", msg)
			}
		})
	}
}
