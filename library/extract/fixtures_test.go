package extract

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"
	"strings"
	"testing"

	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-pdf/fpdf"
	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
)

// Fixtures are generated here: no binary blobs in the repository.

type zipEntry struct {
	name string
	data []byte
}

func makeZip(t testing.TB, entries []zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	for _, e := range entries {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const (
	docxContentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`
	docxRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`
	// Russian Word gives built-in styles numeric ids; the names stay English.
	docxStylesXML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:default="1" w:styleId="a"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/><w:basedOn w:val="a"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="2"><w:name w:val="Заголовок 2"/><w:basedOn w:val="a"/></w:style>
<w:style w:type="paragraph" w:styleId="my"><w:name w:val="Мой стиль"/><w:basedOn w:val="1"/></w:style>
</w:styles>`
	docxCore = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Договор поставки № П-15/2025</dc:title></cp:coreProperties>`
)

func wPara(style, text string) string {
	ppr := ""
	if style != "" {
		ppr = `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
	}
	return `<w:p>` + ppr + `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
}

func docxDocument(body string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body>` + body + `<w:sectPr/></w:body></w:document>`)
}

func makeDOCXBody(t testing.TB, body string, core bool) []byte {
	entries := []zipEntry{
		{"[Content_Types].xml", []byte(docxContentTypes)},
		{"_rels/.rels", []byte(docxRels)},
		{"word/document.xml", docxDocument(body)},
		{"word/styles.xml", []byte(docxStylesXML)},
	}
	if core {
		entries = append(entries, zipEntry{"docProps/core.xml", []byte(docxCore)})
	}
	return makeZip(t, entries)
}

// fixtureDOCX: Cyrillic headings (by style id "1", by name "Заголовок 2", by inheritance),
// paragraphs, a run split word, a table, a page break and a text box with a fallback copy.
func fixtureDOCX(t testing.TB) []byte {
	body := wPara("1", "1. Предмет договора") +
		wPara("", "Поставщик обязуется передать Покупателю товар на сумму 1 250 000,00 руб.") +
		`<w:p><w:r><w:t>Стои</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>мость</w:t></w:r><w:r><w:tab/><w:t>включает НДС.</w:t></w:r><w:r><w:delText>удалено</w:delText></w:r></w:p>` +
		wPara("2", "1.1. Порядок поставки") +
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Наименование</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Кол-во</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Цена</w:t></w:r></w:p></w:tc></w:tr>` +
		`<w:tr><w:tc><w:p><w:r><w:t>Бумага А4</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>10</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>350,00</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
		`<w:p><w:r><w:br w:type="page"/></w:r></w:p>` +
		wPara("my", "2. Оплата") +
		`<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>` + wPara("", "Текст в рамке") + `</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>` + wPara("", "Текст в рамке") + `</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent><w:t>Оплата по счёту, ИНН 7707083893.</w:t></w:r></w:p>`
	return makeDOCXBody(t, body, true)
}

// fixtureDOCXBomb: document.xml that inflates to more than size bytes. The deflate stream is
// built by repeating one independently compressed, byte-aligned block, so that even a 100 MB
// bomb takes milliseconds to make.
func fixtureDOCXBomb(t testing.TB, size int) []byte {
	para := strings.Repeat(wPara("", strings.Repeat("а", 1000)), 256)
	doc := string(docxDocument("\x00"))
	head, tail, _ := strings.Cut(doc, "\x00")
	n := size/len(para) + 1
	flushed := deflateFlushed
	var comp bytes.Buffer
	comp.Write(flushed(head, false))
	block := flushed(para, false)
	crc := crc32.Update(0, crc32.IEEETable, []byte(head))
	for i := 0; i < n; i++ {
		comp.Write(block)
		crc = crc32.Update(crc, crc32.IEEETable, []byte(para))
	}
	comp.Write(flushed(tail, true))
	crc = crc32.Update(crc, crc32.IEEETable, []byte(tail))
	total := uint64(len(head) + n*len(para) + len(tail))

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range []zipEntry{{"[Content_Types].xml", []byte(docxContentTypes)}, {"_rels/.rels", []byte(docxRels)}} {
		w, _ := zw.Create(e.name)
		w.Write(e.data)
	}
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(comp.Len()), UncompressedSize64: total})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(comp.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func fixtureXLSX(t testing.TB) []byte {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Счета"); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{
		{"Номер", "Контрагент", "ИНН", "Сумма"},
		{"П-15/2025", "ООО «Ромашка»", "7707083893", 1250000.5},
		{"П-16/2025", "ИП Иванов", "500100732259", 350},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Счета", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.NewSheet("Акты"); err != nil {
		t.Fatal(err)
	}
	_ = f.SetCellValue("Акты", "A1", "Акт № 7 от 31.01.2025")
	_ = f.SetCellValue("Акты", "C2", "выполнено")
	if err := f.SetDocProps(&excelize.DocProperties{Title: "Реестр счетов"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type pdfOpts struct {
	userPass, ownerPass string
	scanned             bool
	compress            bool
}

// fixturePDF: two pages of Cyrillic text in an embedded TrueType font (Type0/Identity-H with a
// ToUnicode CMap), a larger bold heading on each page.
func fixturePDF(t testing.TB, o pdfOpts) []byte {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetCompression(o.compress)
	f.AddUTF8FontFromBytes("lib", "", liberationsansregular.TTF)
	f.AddUTF8FontFromBytes("lib", "B", liberationsansbold.TTF)
	if o.userPass != "" || o.ownerPass != "" {
		f.SetProtection(fpdf.CnProtectPrint, o.userPass, o.ownerPass)
	}
	f.SetTitle("Договор поставки", true)
	f.AddPage()
	if o.scanned {
		f.SetFillColor(200, 200, 200)
		f.Rect(20, 20, 170, 250, "F")
		f.AddPage()
		f.Rect(20, 20, 170, 250, "F")
	} else {
		f.SetFont("lib", "B", 16)
		f.Cell(0, 10, "1. Предмет договора")
		f.Ln(14)
		f.SetFont("lib", "", 11)
		f.MultiCell(0, 6, "Поставщик обязуется передать в собственность Покупателя товар на сумму 1 250 000,00 руб., "+
			"а Покупатель обязуется принять и оплатить его. ИНН поставщика 7707083893, договор № П-15/2025. "+
			"Стоимость доставки включена в цену товара.", "", "", false)
		f.AddPage()
		f.SetFont("lib", "B", 16)
		f.Cell(0, 10, "2. Оплата")
		f.Ln(14)
		f.SetFont("lib", "", 11)
		f.MultiCell(0, 6, "Оплата производится в течение десяти банковских дней с даты подписания акта.", "", "", false)
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// minimalPDF writes a PDF by hand: one page per content string, Helvetica, classic xref table.
func minimalPDF(contents ...string) []byte {
	n := len(contents)
	kids := ""
	for i := range contents {
		kids += fmt.Sprintf("%d 0 R ", 4+2*i)
	}
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, n),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	}
	for i, c := range contents {
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(c)+1, c))
	}
	return buildPDF(objs)
}

// buildPDF numbers objs from 1 (object 1 is the catalog) and writes the xref table.
func buildPDF(objs []string) []byte {
	var b bytes.Buffer
	var offs []int
	b.WriteString("%PDF-1.4\n")
	for i, o := range objs {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	return b.Bytes()
}

func cp1251(t testing.TB, s string) []byte {
	b, err := charmap.Windows1251.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func utf16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

const sampleText = "ДОГОВОР ПОСТАВКИ № П-15/2025\n\n1. Предмет договора\n\nПоставщик обязуется передать товар на сумму 1 250 000,00 руб. (один миллион двести пятьдесят тысяч рублей 00 копеек). ИНН 7707083893.\n\n2. Оплата\n\nОплата производится в течение 10 дней."

func newZlibWriter(w io.Writer) (io.WriteCloser, error) {
	return zlib.NewWriterLevel(w, zlib.BestCompression)
}

func itoa(n int) string { return strconv.Itoa(n) }

// patchZipSizes rewrites the declared uncompressed size of an entry.
func patchZipSizes(t testing.TB, data []byte, name string, size uint32) []byte {
	out := append([]byte(nil), data...)
	n := 0
	for i := 0; i+4 < len(out); i++ {
		switch string(out[i : i+4]) {
		case "PK\x03\x04": // local header: size at 22, name length at 26, name at 30
			if i+30+len(name) <= len(out) && string(out[i+30:i+30+len(name)]) == name {
				binary.LittleEndian.PutUint32(out[i+22:], size)
				n++
			}
		case "PK\x01\x02": // central header: size at 24, name at 46
			if i+46+len(name) <= len(out) && string(out[i+46:i+46+len(name)]) == name {
				binary.LittleEndian.PutUint32(out[i+24:], size)
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("entry not found")
	}
	return out
}
