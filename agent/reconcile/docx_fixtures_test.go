package reconcile

// The counterparty's acts in Word (testdata/*.docx), written here like the other fixtures
// (parse_fixtures_test.go): a table of their own, its columns named and ordered their way, its
// amounts and dates as text, the heading in paragraphs above it.

import (
	"archive/zip"
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/finbot/finbot/integrations/onec"
)

const (
	fxDOCX          = "testdata/alfa_word.docx"           // a Word table of theirs: sale № 20 for 591 140,13 (ours 590 140,13)
	fxDOCXIdentical = "testdata/alfa_word_identical.docx" // the same table agreeing with ours
)

func init() {
	fixtures[fxDOCX] = fixtureDOCX
	fixtures[fxDOCXIdentical] = fixtureDOCXIdentical
}

// dcell is a cell of a Word table: its text, and the grid columns it spans (0 or 1: one).
type dcell struct {
	text string
	span int
}

// docxFile writes a minimal Word document: paragraphs, then one table of rows, then paragraphs.
// Zip entries carry no time, so the bytes are the same on every run.
func docxFile(before []string, rows [][]dcell, after []string) []byte {
	para := func(s string) string {
		return `<w:p><w:r><w:t xml:space="preserve">` + html.EscapeString(s) + `</w:t></w:r></w:p>`
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	for _, s := range before {
		b.WriteString(para(s))
	}
	b.WriteString(`<w:tbl><w:tblPr><w:tblBorders><w:insideH w:val="single"/></w:tblBorders></w:tblPr>`)
	for _, r := range rows {
		b.WriteString(`<w:tr>`)
		for _, c := range r {
			b.WriteString(`<w:tc>`)
			if c.span > 1 {
				fmt.Fprintf(&b, `<w:tcPr><w:gridSpan w:val="%d"/></w:tcPr>`, c.span)
			}
			b.WriteString(para(c.text) + `</w:tc>`)
		}
		b.WriteString(`</w:tr>`)
	}
	b.WriteString(`</w:tbl>`)
	for _, s := range after {
		b.WriteString(para(s))
	}
	b.WriteString(`<w:sectPr/></w:body></w:document>`)
	parts := []struct{ name, data string }{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`},
		{"word/document.xml", b.String()},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			panic(err)
		}
		if _, err := w.Write([]byte(p.data)); err != nil {
			panic(err)
		}
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// wordAct is Альфа's act as a Word table: «Содержание операции» | «Дата док.» | «№» | «Расход,
// руб.» | «Приход, руб.», «приход» what came to them (our debit); the balances' labels span the
// first three columns.
func wordAct(ls []alfaLine) []byte {
	opening := kop(alfaOpening)
	rows := [][]dcell{
		{{"Содержание операции", 0}, {"Дата док.", 0}, {"№", 0}, {"Расход, руб.", 0}, {"Приход, руб.", 0}},
		{{"Сальдо на 01.01.2026", 3}, {"", 0}, {money(opening), 0}},
	}
	var in, out onec.Kopecks
	for _, l := range ls {
		d := l.date.Format("02.01.2006")
		if l.paid {
			out += l.sum
			rows = append(rows, []dcell{{"Оплата поставщику", 0}, {d, 0}, {"ПП-" + l.number, 0}, {money(l.sum), 0}, {"", 0}})
		} else {
			in += l.sum
			rows = append(rows, []dcell{{"Поступление товаров", 0}, {d, 0}, {l.number, 0}, {"", 0}, {money(l.sum), 0}})
		}
	}
	rows = append(rows, []dcell{{"Итого обороты", 3}, {money(out), 0}, {money(in), 0}},
		[]dcell{{"Сальдо на 31.03.2026", 3}, {"", 0}, {money(opening + in - out), 0}})
	return docxFile([]string{"Акт сверки взаиморасчетов",
		"между ООО «Альфа» (ИНН 9366414049) и ООО «Северный ветер» (ИНН 1031699119)",
		"за период с 01.01.2026 по 31.03.2026"}, rows,
		[]string{"Главный бухгалтер ООО «Альфа» ____________ Тихонова Е. П."})
}

// fixtureDOCX plants one difference: sale № 20 of 23.01 for 591 140,13 (ours 590 140,13).
func fixtureDOCX() []byte {
	ls := alfaExact()
	for i := range ls {
		if ls[i].number == "20" && !ls[i].paid {
			ls[i].sum = kop("591140.13")
		}
	}
	return wordAct(ls)
}

func fixtureDOCXIdentical() []byte { return wordAct(alfaExact()) }
