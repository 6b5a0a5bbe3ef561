package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/xuri/excelize/v2"
)

func mustExtract(t *testing.T, name string, data []byte) Document {
	t.Helper()
	d, err := Extract(context.Background(), name, data, Limits{})
	if err != nil {
		t.Fatalf("Extract(%s): %v", name, err)
	}
	if d.Chars != len([]rune(d.Pages[0].Text))+func() int {
		n := 0
		for _, p := range d.Pages[1:] {
			n += len([]rune(p.Text))
		}
		return n
	}() {
		t.Errorf("Chars = %d does not match the pages", d.Chars)
	}
	for _, h := range d.Headings {
		p := []rune(d.Pages[h.Page-1].Text)
		if h.Offset+len([]rune(h.Text)) > len(p) || string(p[h.Offset:h.Offset+len([]rune(h.Text))]) != h.Text {
			t.Errorf("heading %+v is not at its offset in page %d", h, h.Page)
		}
	}
	return d
}

func headingTexts(d Document) []string {
	var s []string
	for _, h := range d.Headings {
		s = append(s, h.Text)
	}
	return s
}

func TestExtractDOCX(t *testing.T) {
	d := mustExtract(t, "договор.docx", fixtureDOCX(t))
	if d.Format != "docx" || d.Title != "Договор поставки № П-15/2025" {
		t.Errorf("format/title = %q/%q", d.Format, d.Title)
	}
	if len(d.Pages) != 2 {
		t.Fatalf("pages = %d, want 2 (one explicit page break)", len(d.Pages))
	}
	want := []Heading{
		{Page: 1, Offset: 0, Level: 1, Text: "1. Предмет договора"},
		{Page: 1, Level: 2, Text: "1.1. Порядок поставки"},
		{Page: 2, Offset: 0, Level: 1, Text: "2. Оплата"},
	}
	if len(d.Headings) != len(want) {
		t.Fatalf("headings = %+v", d.Headings)
	}
	for i, w := range want {
		h := d.Headings[i]
		if h.Page != w.Page || h.Level != w.Level || h.Text != w.Text || (w.Offset == 0 && i != 1 && h.Offset != 0) {
			t.Errorf("heading %d = %+v, want %+v", i, h, w)
		}
	}
	p1, p2 := d.Pages[0].Text, d.Pages[1].Text
	for _, s := range []string{"1 250 000,00 руб.", "Стоимость\tвключает НДС.", "Наименование\tКол-во\tЦена\nБумага А4\t10\t350,00"} {
		if !strings.Contains(p1, s) {
			t.Errorf("page 1 lacks %q:\n%s", s, p1)
		}
	}
	if strings.Contains(p1, "удалено") {
		t.Error("deleted text (w:delText) was extracted")
	}
	if strings.Count(p2, "Текст в рамке") != 1 || !strings.Contains(p2, "ИНН 7707083893") {
		t.Errorf("page 2 = %q (text box must appear once)", p2)
	}
}

func TestExtractXLSX(t *testing.T) {
	d := mustExtract(t, "реестр.xlsx", fixtureXLSX(t))
	if d.Format != "xlsx" || d.Title != "Реестр счетов" || len(d.Pages) != 2 {
		t.Fatalf("format/title/pages = %q/%q/%d", d.Format, d.Title, len(d.Pages))
	}
	if got := headingTexts(d); strings.Join(got, ",") != "Счета,Акты" {
		t.Errorf("headings = %v", got)
	}
	if !strings.Contains(d.Pages[0].Text, "Счета\nНомер | Контрагент | ИНН | Сумма\nП-15/2025 | ООО «Ромашка» | 7707083893 | 1250000.5") {
		t.Errorf("sheet 1:\n%s", d.Pages[0].Text)
	}
	if !strings.Contains(d.Pages[1].Text, "Акт № 7 от 31.01.2025") || !strings.Contains(d.Pages[1].Text, "выполнено") {
		t.Errorf("sheet 2:\n%s", d.Pages[1].Text)
	}
}

// TestExtractXLSXGenericSheet: a workbook with no title whose one sheet is named as the program
// names a new one («Лист1») is titled by its file's name, not «Лист1».
func TestExtractXLSXGenericSheet(t *testing.T) {
	for _, sheet := range []string{"Лист1", "Sheet1", "Лист 2"} {
		f := excelize.NewFile()
		if err := f.SetSheetName("Sheet1", sheet); err != nil {
			t.Fatal(err)
		}
		_ = f.SetSheetRow(sheet, "A1", &[]any{"Услуга", "Тариф, руб."})
		_ = f.SetSheetRow(sheet, "A2", &[]any{"Хранение паллеты", 450})
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if d := mustExtract(t, "Тарифы склад 2026.xlsx", buf.Bytes()); d.Title != "Тарифы склад 2026" {
			t.Errorf("sheet %q: title %q, want the file's name", sheet, d.Title)
		}
	}
}

func TestExtractPDF(t *testing.T) {
	for _, compress := range []bool{false, true} {
		d := mustExtract(t, "scan_name.pdf", fixturePDF(t, pdfOpts{compress: compress}))
		if d.Format != "pdf" || d.Title != "Договор поставки" || len(d.Pages) != 2 {
			t.Fatalf("format/title/pages = %q/%q/%d", d.Format, d.Title, len(d.Pages))
		}
		p1 := d.Pages[0].Text
		for _, s := range []string{"Поставщик обязуется передать в собственность Покупателя товар на сумму 1 250 000,00 руб.",
			"ИНН поставщика 7707083893, договор № П-15/2025."} {
			if !strings.Contains(strings.ReplaceAll(p1, "\n", " "), s) {
				t.Errorf("page 1 lacks %q:\n%s", s, p1)
			}
		}
		if !strings.Contains(d.Pages[1].Text, "Оплата производится в течение десяти банковских дней") {
			t.Errorf("page 2:\n%s", d.Pages[1].Text)
		}
		if len(d.Headings) != 2 || d.Headings[0] != (Heading{1, 0, 1, "1. Предмет договора"}) || d.Headings[1] != (Heading{2, 0, 1, "2. Оплата"}) {
			t.Errorf("headings = %+v", d.Headings)
		}
	}
	d := mustExtract(t, "min.pdf", minimalPDF(
		"BT /F1 12 Tf 72 700 Td (Hello, world: this is the first page.) Tj 0 -14 Td [(Second) -300 (line.)] TJ ET",
		"BT /F1 12 Tf 72 700 Td (The second page text, long enough to count.) Tj ET"))
	if len(d.Pages) != 2 || d.Pages[0].Text != "Hello, world: this is the first page.\nSecond line." || d.Title != "min" {
		t.Errorf("minimal pdf = %+v", d)
	}
}

func TestExtractText(t *testing.T) {
	cases := []struct {
		name string
		data []byte
	}{
		{"a.txt", []byte(sampleText)},
		{"bom.txt", append([]byte("\xEF\xBB\xBF"), sampleText...)},
		{"cp1251.txt", cp1251(t, sampleText)},
		{"utf16.txt", utf16LE(sampleText, true)},
		{"utf16nobom.txt", utf16LE(sampleText, false)},
		{"noext", []byte(sampleText)},
	}
	for _, c := range cases {
		d := mustExtract(t, c.name, c.data)
		if !strings.Contains(d.Pages[0].Text, "1 250 000,00 руб.") || d.Title != "ДОГОВОР ПОСТАВКИ № П-15/2025" {
			t.Errorf("%s: %+v", c.name, d)
		}
		if got := headingTexts(d); len(got) != 3 || got[1] != "1. Предмет договора" {
			t.Errorf("%s: headings %v", c.name, got)
		}
	}
	d := mustExtract(t, "notes.md", []byte("# Акт сверки\n\nТекст.\n\n```\n# не заголовок\n```\n\n## Итоги ##\nСальдо 0.\fВторая страница."))
	if got := headingTexts(d); strings.Join(got, "|") != "Акт сверки|Итоги" || d.Headings[1].Level != 2 || len(d.Pages) != 2 || d.Format != "md" {
		t.Errorf("md: %+v", d)
	}
	d = mustExtract(t, "выписка.csv", []byte("Дата;Сумма;Назначение\n01.02.2025;\"1 250 000,00\";Оплата по счёту № 5\n"))
	if d.Pages[0].Text != "Дата | Сумма | Назначение\n01.02.2025 | 1 250 000,00 | Оплата по счёту № 5" || d.Title != "выписка" {
		t.Errorf("csv: %q", d.Pages[0].Text)
	}
}

func TestRefusals(t *testing.T) {
	big := bytes.Repeat([]byte("текст "), 100)
	pdfBomb := func() []byte {
		var z bytes.Buffer
		w, _ := newZlibWriter(&z)
		w.Write([]byte("BT /F1 12 Tf 72 700 Td (a) Tj ET\n"))
		w.Write(make([]byte, 3<<20))
		w.Close()
		p := minimalPDF("X")
		return bytes.Replace(p, []byte("<< /Length 2 >>\nstream\nX\n"), append([]byte("<< /Length "+itoa(z.Len())+" /Filter /FlateDecode >>\nstream\n"), z.Bytes()...), 1)
	}()
	docx := fixtureDOCX(t)
	xlsx := fixtureXLSX(t)
	pdf := fixturePDF(t, pdfOpts{})
	cfb := append(append([]byte{}, sigOLE...), make([]byte, 512)...)
	cases := []struct {
		name string
		file string
		data []byte
		l    Limits
		want error
	}{
		{"too large", "a.txt", big, Limits{MaxBytes: 100}, ErrTooLarge},
		{"too much text", "a.txt", big, Limits{MaxChars: 100}, ErrTooLarge},
		{"image", "photo.jpg", []byte("\xFF\xD8\xFF\xE0\x00\x10JFIF\x00"), Limits{}, ErrUnknownType},
		{"zip archive", "docs.zip", makeZip(t, []zipEntry{{"a.txt", []byte("hi")}}), Limits{}, ErrUnknownType},
		{"old doc", "old.doc", cfb, Limits{}, ErrUnknownType},
		{"binary without extension", "blob", []byte("\x00\x01\x02\x03binary\x00\x00\xff"), Limits{}, ErrUnknownType},
		{"encrypted pdf", "enc.pdf", fixturePDF(t, pdfOpts{userPass: "секрет", ownerPass: "owner"}), Limits{}, ErrEncrypted},
		{"encrypted pdf, 40-bit RC4, owner password only", "own.pdf", fixturePDF(t, pdfOpts{ownerPass: "owner"}), Limits{}, ErrEncrypted},
		{"encrypted office", "enc.docx", append(append([]byte{}, cfb...), encInfo...), Limits{}, ErrEncrypted},
		{"scanned pdf", "scan.pdf", fixturePDF(t, pdfOpts{scanned: true}), Limits{}, ErrScanned},
		{"pdf with a page number only", "scan2.pdf", minimalPDF("q 500 0 0 800 0 0 cm /Im1 Do Q BT /F1 9 Tf 300 20 Td (1) Tj ET"), Limits{}, ErrScanned},
		{"empty txt", "empty.txt", nil, Limits{}, ErrEmpty},
		{"blank txt", "blank.txt", []byte(" \n\t\r\n\u00a0 \n"), Limits{}, ErrEmpty},
		{"empty docx", "e.docx", makeDOCXBody(t, wPara("", "  "), false), Limits{}, ErrEmpty},
		{"truncated pdf", "t.pdf", pdf[:len(pdf)/2], Limits{}, ErrMalformed},
		{"garbage pdf", "g.pdf", append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("garbage ("), 100)...), Limits{}, ErrMalformed},
		{"not a pdf", "n.pdf", []byte("hello, I am not a PDF"), Limits{}, ErrMalformed},
		{"truncated docx", "t.docx", docx[:len(docx)/2], Limits{}, ErrMalformed},
		{"garbage docx", "g.docx", []byte("PK\x03\x04garbage garbage garbage"), Limits{}, ErrMalformed},
		{"broken xml docx", "x.docx", makeDOCXBody(t, "<w:p><w:r><w:t>текст</w:r></w:p>", false), Limits{}, ErrMalformed},
		{"truncated xlsx", "t.xlsx", xlsx[:len(xlsx)/2], Limits{}, ErrMalformed},
		{"garbage xlsx", "g.xlsx", bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, 64), Limits{}, ErrMalformed},
		{"xlsx with a broken sheet", "s.xlsx", makeZip(t, []zipEntry{{"[Content_Types].xml", []byte(docxContentTypes)}, {"xl/workbook.xml", []byte("<workbook><sheets><sheet name=\"a\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>")}, {"xl/worksheets/sheet1.xml", []byte("<worksheet><sheetData><row><c><v>1</v></c></row>")}}), Limits{}, ErrMalformed},
		{"binary txt", "b.txt", []byte("\x00\x01\x02\x03\x04\x05\x06\x07"), Limits{}, ErrMalformed},
		{"docx bomb", "bomb.docx", fixtureDOCXBomb(t, 2<<20), Limits{MaxUncompressed: 1 << 20}, ErrBomb},
		{"pdf stream bomb", "bomb.pdf", pdfBomb, Limits{MaxUncompressed: 1 << 20}, ErrBomb},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := Extract(context.Background(), c.file, c.data, c.l)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			for _, other := range Kinds {
				if other != c.want && errors.Is(err, other) {
					t.Errorf("err %v also matches %v", err, other)
				}
			}
			msg := UserMessage(err)
			if msg == "" || !strings.ContainsFunc(msg, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) {
				t.Errorf("UserMessage = %q", msg)
			}
			if d := time.Since(start); d > 30*time.Second { // a hang detector; speed is benchmarked
				t.Errorf("took %v", d)
			}
		})
	}
}

// The default limits refuse a DOCX that inflates past 100 MB, while reading it.
func TestDOCXBombDefaultLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 100 MB document")
	}
	bomb := fixtureDOCXBomb(t, DefaultMaxUncompressed+1)
	t.Logf("bomb: %d bytes compressed", len(bomb))
	_, err := Extract(context.Background(), "bomb.docx", bomb, Limits{})
	if !errors.Is(err, ErrBomb) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(UserMessage(err), "100 МБ") {
		t.Errorf("message = %q", UserMessage(err))
	}
}

// A zip entry whose declared size is small but whose data inflates further is refused by
// archive/zip while reading.
func TestZipLyingSize(t *testing.T) {
	doc := fixtureDOCXBomb(t, 4<<20)
	// Patch the declared uncompressed size of word/document.xml (local and central headers).
	i := bytes.Index(doc, []byte("word/document.xml"))
	if i < 0 {
		t.Fatal("no entry")
	}
	data := patchZipSizes(t, doc, "word/document.xml", 1000)
	_, err := Extract(context.Background(), "lie.docx", data, Limits{})
	if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrBomb) {
		t.Fatalf("err = %v", err)
	}
}

func TestContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Extract(ctx, "a.txt", []byte(sampleText), Limits{})
	if !errors.Is(err, context.Canceled) || UserMessage(err) == "" {
		t.Errorf("canceled: %v", err)
	}
	bomb := fixtureDOCXBomb(t, 50<<20)
	start := time.Now()
	_, err = Extract(context.Background(), "slow.docx", bomb, Limits{Timeout: 20 * time.Millisecond})
	if !errors.Is(err, ErrTooLarge) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timeout: %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("timeout honoured late: %v", time.Since(start))
	}
	if !strings.Contains(UserMessage(err), "не успел") {
		t.Errorf("message = %q", UserMessage(err))
	}
}

// Hostile PDF structures: cyclic page trees, absurd sizes, deep nesting, inline images.
func TestHostilePDF(t *testing.T) {
	page := "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>"
	ops := "BT /F1 12 Tf 72 700 Td (Text on a page in a cyclic tree.) Tj ET"
	content := fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(ops), ops)
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
	cyclic := buildPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [4 0 R 2 0 R 2 0 R 6 0 R] /Count 3 >>", font, page, content,
		"<< /Type /Pages /Kids [6 0 R 6 0 R 2 0 R] /Count 1 >>"})
	parentLoop := buildPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [4 0 R] /Count 1 >>", font,
		"<< /Type /Page /Parent 4 0 R /Contents 5 0 R >>", content})
	hugeSize := bytes.Replace(minimalPDF("BT ET"), []byte("/Size 6"), []byte("/Size 900000000000"), 1)
	hugeXref := bytes.Replace(minimalPDF("BT ET"), []byte("xref\n0 6"), []byte("xref\n0 9000000000"), 1)
	deep := minimalPDF(strings.Repeat("[", 100000) + " BT /F1 12 Tf (deep) Tj ET")
	inline := minimalPDF("BI /W 4 /H 4 /BPC 8 /CS /G ID \x00\x01(Tj)\xff EI BT /F1 12 Tf 72 700 Td (Text after an inline image, long enough.) Tj ET")
	for name, data := range map[string][]byte{"cyclic": cyclic, "parentLoop": parentLoop, "hugeSize": hugeSize,
		"hugeXref": hugeXref, "deep": deep, "inline": inline} {
		start := time.Now()
		d, err := Extract(context.Background(), name+".pdf", data, Limits{Timeout: 5 * time.Second})
		t.Logf("%s: %v %q", name, err, d.Text())
		if time.Since(start) > 30*time.Second { // a hang detector: the 5 s Timeout must stop it
			t.Errorf("%s took %v", name, time.Since(start))
		}
		if name == "cyclic" && (err != nil || len(d.Pages) != 1) {
			t.Errorf("cyclic page tree: %v, %d pages", err, len(d.Pages))
		}
		if name == "parentLoop" && (err != nil || d.Text() != "Text on a page in a cyclic tree.") {
			t.Errorf("parent loop: %v %q", err, d.Text())
		}
		if name == "inline" && (err != nil || d.Text() != "Text after an inline image, long enough.") {
			t.Errorf("inline image: %v %q", err, d.Text())
		}
		if (name == "hugeSize" || name == "hugeXref") && !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestUserMessage(t *testing.T) {
	if UserMessage(nil) != "" {
		t.Error("nil")
	}
	if UserMessage(ErrScanned) != "Это скан без текстового слоя: распознавание текста я не выполняю. Пришлите PDF с текстом или DOCX." {
		t.Error(UserMessage(ErrScanned))
	}
	_, err := Extract(context.Background(), "big.pdf", make([]byte, 30), Limits{MaxBytes: 20})
	if !strings.Contains(UserMessage(err), "до 20 Б") && !strings.Contains(UserMessage(err), "МБ") {
		t.Error(UserMessage(err))
	}
	if UserMessage(errors.New("boom")) == "" {
		t.Error("generic")
	}
}

// The budget is enforced while reading, not after: reading stops at the limit.
func TestBudgetReader(t *testing.T) {
	j := &job{ctx: context.Background(), l: Limits{MaxUncompressed: 1000}.withDefaults()}
	n, err := io.Copy(io.Discard, &budgetReader{j: j, r: bytes.NewReader(make([]byte, 1<<20)), limit: -1})
	if !errors.Is(err, ErrBomb) || n > 1001 {
		t.Fatalf("read %d bytes, err %v", n, err)
	}
	j = &job{ctx: context.Background(), l: Limits{}.withDefaults()}
	_, err = io.Copy(io.Discard, &budgetReader{j: j, r: bytes.NewReader(make([]byte, 5000)), limit: 100})
	if !errors.Is(err, errStreamTooBig) {
		t.Fatalf("per-stream limit: %v", err)
	}
}

// Encrypted PDFs made by qpdf (testdata/README.md). An empty user password opens RC4-128 and
// AES-128 files; AES-256 (V5) is not supported by the PDF library and is refused as encrypted,
// as are files that need a user password.
func TestEncryptedPDF(t *testing.T) {
	for file, want := range map[string]error{
		"aes128_owner.pdf": nil, "rc4_128_owner.pdf": nil,
		"aes128_user.pdf": ErrEncrypted, "aes256_user.pdf": ErrEncrypted, "aes256_owner.pdf": ErrEncrypted,
	} {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		d, err := Extract(context.Background(), file, data, Limits{})
		if !errors.Is(err, want) || want != nil && err == nil {
			t.Errorf("%s: err = %v, want %v", file, err, want)
			continue
		}
		if want == nil && (!strings.Contains(d.Text(), "1 250 000,00 руб. ИНН 7707083893, договор №") || len(d.Pages) != 2 || d.Title != "Договор поставки") {
			t.Errorf("%s: %+v", file, d)
		}
	}
}

// The text limit stops PDF extraction while the content is interpreted.
func TestPDFTextLimit(t *testing.T) {
	ops := "BT /F1 12 Tf 72 700 Td " + strings.Repeat("(Some text to show on the page again and again.) Tj ", 20000) + "ET"
	_, err := Extract(context.Background(), "long.pdf", minimalPDF(ops), Limits{MaxChars: 1000})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

// An approval stamp above a policy («УТВЕРЖДЕНО») is not its title: the first real heading is.
func TestTitleSkipsApprovalStamp(t *testing.T) {
	doc := "# УТВЕРЖДЕНО\n\nприказом от 12.01.2026 № 3-ОД\n\n# ПОЛОЖЕНИЕ О СЛУЖЕБНЫХ КОМАНДИРОВКАХ\n\n1. Общие положения."
	d, err := Extract(context.Background(), "polozhenie.md", []byte(doc), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Title != "ПОЛОЖЕНИЕ О СЛУЖЕБНЫХ КОМАНДИРОВКАХ" {
		t.Errorf("title = %q", d.Title)
	}
}
