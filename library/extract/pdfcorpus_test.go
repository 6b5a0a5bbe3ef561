package extract

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-pdf/fpdf"
)

// The text-PDF corpus of the extractor comparison (pdftotext_test.go): every text PDF of the
// repository's test corpora and PDFs generated here from known text, each with the text it holds
// and the table rows a reader must keep whole.

type pdfCase struct {
	name string
	data []byte
	want string   // the text, in reading order; "" = no known text (speed only)
	rows []string // table rows: their cells, in order, separated by single spaces
	fail bool     // neither extractor can read it (a user password): only the refusal is checked
}

// pdfCorpus returns the comparison corpus. The docset documents are read from the agent's test
// data and printed as testdocs.PDFText prints them (a copy: this package imports nothing of the
// project).
func pdfCorpus(t testing.TB) []pdfCase {
	t.Helper()
	var cs []pdfCase
	for _, dir := range []string{"docset", "docset3"} {
		files, err := filepath.Glob(filepath.Join("..", "..", "agent", "documents", "testdata", dir, "0*.md"))
		if err != nil || len(files) == 0 {
			t.Fatalf("docset %s: %v", dir, err)
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			data, want, rows := printedPDF(t, string(raw))
			cs = append(cs, pdfCase{name: dir + "/" + strings.TrimSuffix(filepath.Base(f), ".md"), data: data, want: want, rows: rows})
		}
	}
	cs = append(cs,
		pdfCase{name: "fixture/a.pdf", data: fixturePDF(t, pdfOpts{}), want: "1. Предмет договора\n" + fixturePDFBody},
		pdfCase{name: "fixture/c.pdf", data: fixturePDF(t, pdfOpts{compress: true}), want: "1. Предмет договора\n" + fixturePDFBody},
		pdfCase{name: "fixture/min.pdf (Helvetica)", data: minimalPDF("BT /F1 12 Tf 72 700 Td (Hello, world: this is the first page.) Tj 0 -14 Td [(Second) -300 (line.)] TJ ET",
			"BT /F1 12 Tf 72 700 Td (The second page text, long enough to count.) Tj ET"),
			want: "Hello, world: this is the first page.\nSecond line.\nThe second page text, long enough to count."},
	)
	const encText = "1. ПРЕДМЕТ ДОГОВОРА\nПоставщик обязуется передать товар на сумму 1 250 000,00 руб. ИНН 7707083893, договор № П-15/2025.\nСтраница вторая: оплата."
	for _, f := range []string{"aes128_owner.pdf", "rc4_128_owner.pdf", "aes256_owner.pdf", "aes128_user.pdf"} {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, pdfCase{name: "encrypted/" + f, data: data, want: encText, fail: strings.Contains(f, "_user")})
	}
	for _, f := range []string{"alfa_bp.pdf", "alfa_identical.pdf"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "agent", "reconcile", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, pdfCase{name: "reconcile/" + f, data: data})
	}
	return append(cs, generatedPDFs(t)...)
}

const fixturePDFBody = "Поставщик обязуется передать в собственность Покупателя товар на сумму 1 250 000,00 руб., " +
	"а Покупатель обязуется принять и оплатить его. ИНН поставщика 7707083893, договор № П-15/2025. " +
	"Стоимость доставки включена в цену товара.\n2. Оплата\nОплата производится в течение десяти банковских дней с даты подписания акта."

// printedPDF prints Markdown-ish text as testdocs.PDFText does (lines flowing over pages, a
// table's cells spaced apart) and returns the PDF, its text and its table rows.
func printedPDF(t testing.TB, text string) (data []byte, want string, rows []string) {
	f := newFPDF("P")
	f.AddPage()
	f.SetFont("lib", "", 10)
	var w strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "|") {
			cells := mdCells(line)
			if cells == nil {
				continue
			}
			rows = append(rows, strings.Join(cells, " "))
			line = strings.Join(cells, "   ")
		}
		if strings.TrimSpace(line) == "" {
			f.Ln(3)
			continue
		}
		f.MultiCell(0, 5, strings.TrimSpace(line), "", "", false)
		w.WriteString(strings.TrimSpace(line) + "\n")
	}
	return fpdfBytes(t, f), w.String(), rows
}

func mdCells(line string) []string {
	line = strings.TrimSpace(line)
	cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|"), "|")
	rule := true
	var out []string
	for _, c := range cells {
		c = strings.TrimSpace(c)
		if strings.Trim(c, "-: ") != "" {
			rule = false
		}
		if c != "" {
			out = append(out, c)
		}
	}
	if rule {
		return nil
	}
	return out
}

func newFPDF(orientation string) *fpdf.Fpdf {
	f := fpdf.New(orientation, "mm", "A4", "")
	f.SetCompression(true)
	f.AddUTF8FontFromBytes("lib", "", liberationsansregular.TTF)
	f.AddUTF8FontFromBytes("lib", "B", liberationsansbold.TTF)
	return f
}

func fpdfBytes(t testing.TB, f *fpdf.Fpdf) []byte {
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var clauseTexts = []string{
	"1. ПРЕДМЕТ ДОГОВОРА",
	"1.1. Поставщик обязуется передать в собственность Покупателя товар, а Покупатель обязуется принять и оплатить его на условиях настоящего Договора.",
	"1.2. Общая стоимость товара составляет 1 250 000,00 руб. (один миллион двести пятьдесят тысяч рублей 00 копеек), в том числе НДС 22 % — 225 409,84 руб.",
	"2. ПОРЯДОК РАСЧЁТОВ",
	"2.1. Покупатель перечисляет аванс 30 % — 375 000,00 руб. в течение 5 (пяти) банковских дней с даты подписания Договора.",
	"2.2. Оставшуюся сумму 875 000,00 руб. Покупатель оплачивает в течение 10 рабочих дней после подписания товарной накладной.",
	"3. ОТВЕТСТВЕННОСТЬ СТОРОН",
	"3.1. За просрочку оплаты Поставщик вправе потребовать неустойку 0,1 % от неоплаченной суммы за каждый день просрочки, но не более 10 % от стоимости товара.",
	"3.2. Споры рассматриваются в Арбитражном суде г. Москвы.",
}

var invoiceRows = [][]string{
	{"№", "Наименование", "Кол-во", "Ед.", "Цена", "Сумма"},
	{"1", "Бумага офисная А4", "120", "пач.", "350,00", "42 000,00"},
	{"2", "Картридж лазерный", "15", "шт.", "7 480,00", "112 200,00"},
	{"3", "Кресло офисное", "40", "шт.", "18 900,00", "756 000,00"},
	{"4", "Монтаж сети", "1", "усл.", "339 800,00", "339 800,00"},
	{"", "Итого", "", "", "", "1 250 000,00"},
}

// generatedPDFs are made from known text: numbered clauses, a ruled table, two columns, a
// landscape page and a rotated stamp (fpdf, Liberation Sans with ToUnicode), and hand-written
// files with a standard-14 font with Cyrillic glyph names, a ToUnicode CMap with ranges and
// arrays, a Type3 font and words placed one by one without spaces.
func generatedPDFs(t testing.TB) []pdfCase {
	var cs []pdfCase

	f := newFPDF("P")
	f.AddPage()
	for _, c := range clauseTexts {
		if strings.ToUpper(c) == c {
			f.SetFont("lib", "B", 13)
			f.Ln(3)
		} else {
			f.SetFont("lib", "", 11)
		}
		f.MultiCell(0, 6, c, "", "J", false)
	}
	cs = append(cs, pdfCase{name: "gen/clauses (justified)", data: fpdfBytes(t, f), want: strings.Join(clauseTexts, "\n")})

	f = newFPDF("P")
	f.AddPage()
	f.SetFont("lib", "B", 12)
	f.CellFormat(0, 8, "Счёт на оплату № 318 от 05.02.2026", "", 1, "L", false, 0, "")
	widths := []float64{10, 60, 20, 15, 35, 40}
	var rows []string
	want := "Счёт на оплату № 318 от 05.02.2026\n"
	for i, r := range invoiceRows {
		f.SetFont("lib", map[bool]string{true: "B", false: ""}[i == 0], 10)
		for k, c := range r {
			align := "L"
			if k >= 2 {
				align = "R"
			}
			f.CellFormat(widths[k], 7, c, "1", 0, align, false, 0, "")
		}
		f.Ln(-1)
		row := strings.Join(strings.Fields(strings.Join(r, " ")), " ")
		rows = append(rows, row)
		want += row + "\n"
	}
	f.Ln(4)
	f.SetFont("lib", "", 10)
	f.MultiCell(0, 5, "Всего наименований 4, на сумму 1 250 000,00 руб.", "", "", false)
	want += "Всего наименований 4, на сумму 1 250 000,00 руб."
	cs = append(cs, pdfCase{name: "gen/invoice table (ruled)", data: fpdfBytes(t, f), want: want, rows: rows})

	f = newFPDF("P")
	f.AddPage()
	f.SetFont("lib", "", 10)
	left := strings.Join(clauseTexts[:3], "\n")
	right := strings.Join(clauseTexts[3:], "\n")
	f.SetXY(15, 20)
	for _, c := range clauseTexts[:3] {
		f.SetX(15)
		f.MultiCell(85, 5, c, "", "L", false)
	}
	f.SetXY(110, 20)
	for _, c := range clauseTexts[3:] {
		f.SetX(110)
		f.MultiCell(85, 5, c, "", "L", false)
	}
	cs = append(cs, pdfCase{name: "gen/two columns", data: fpdfBytes(t, f), want: left + "\n" + right})

	f = newFPDF("L")
	f.AddPage()
	f.SetFont("lib", "", 11)
	for _, c := range clauseTexts[:5] {
		f.MultiCell(0, 6, c, "", "", false)
	}
	f.TransformBegin()
	f.TransformRotate(90, 285, 190)
	f.Text(285, 190, "КОПИЯ ВЕРНА")
	f.TransformEnd()
	cs = append(cs, pdfCase{name: "gen/landscape, rotated stamp", data: fpdfBytes(t, f), want: strings.Join(clauseTexts[:5], "\n") + "\nКОПИЯ ВЕРНА"})

	cs = append(cs, handPDFs()...)
	return cs
}

// handPDFs are written object by object.
func handPDFs() []pdfCase {
	var cs []pdfCase
	// A page turned by /Rotate 90, Helvetica.
	lines := []string{"Invoice 318 dated 05.02.2026", "Total due: 1 250 000,00 RUB", "Payment within 10 banking days."}
	var ops strings.Builder
	ops.WriteString("BT /F1 12 Tf 14 TL 72 760 Td")
	for _, l := range lines {
		fmt.Fprintf(&ops, " (%s) Tj T*", l)
	}
	ops.WriteString(" ET")
	data := pdfWithFont("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>", ops.String())
	rotated := hostilePDF("/Rotate 90 ", pdfContent(ops.String()))
	cs = append(cs, pdfCase{name: "hand/page /Rotate 90", data: rotated, want: strings.Join(lines, "\n")})
	// The same file with every cross-reference offset off by 7 bytes (a file edited by hand or
	// re-saved by a careless tool).
	broken := bytes.Replace(data, []byte("%PDF-1.4\n"), []byte("%PDF-1.4\n%junk!\n"), 1)
	cs = append(cs, pdfCase{name: "hand/xref offsets wrong", data: broken, want: strings.Join(lines, "\n")})

	// Times-Roman (standard 14, not embedded) with windows-1251 codes named by Differences.
	ru := []string{"ДОГОВОР ПОСТАВКИ № 318-П", "Сумма договора 1 250 000,00 руб., в том числе НДС 22 %.", "Ёлки и ежи: съёмка объёмов."}
	ops.Reset()
	ops.WriteString("BT /F1 12 Tf 14 TL 72 760 Td")
	for _, l := range ru {
		fmt.Fprintf(&ops, " (%s) Tj T*", psEscape(win1251(l)))
	}
	ops.WriteString(" ET")
	data = pdfWithFont("<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences "+afiiDifferences()+" >> >>", ops.String())
	cs = append(cs, pdfCase{name: "hand/Times-Roman, Cyrillic glyph names", data: data, want: strings.Join(ru, "\n")})

	// Helvetica whose codes mean Cyrillic through a ToUnicode CMap (bfrange, bfrange array, bfchar).
	tu := []string{"договор поставки 1250", "покупатели оплатили 375 рублей"}
	ops.Reset()
	ops.WriteString("BT /F1 12 Tf 14 TL 72 760 Td")
	for _, l := range tu {
		fmt.Fprintf(&ops, " <%X> Tj T*", toUniCodes(l))
	}
	ops.WriteString(" ET")
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def 1 begincodespacerange <00> <FF> endcodespacerange\n" +
		"2 beginbfchar <20> <0020> <7B> <0020> endbfchar\n" +
		"4 beginbfrange <30> <39> <0030> <41> <5A> <0410> <61> <63> [<0430> <0431> <0432>] <64> <7A> <0433> endbfrange\nendcmap CMapName currentdict /CMap defineresource pop end end"
	data = pdfWithFont("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>", ops.String(), fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(cmap)+1, cmap))
	cs = append(cs, pdfCase{name: "hand/ToUnicode ranges", data: data, want: strings.Join(tu, "\n")})

	// A Type3 font: glyphs drawn as boxes, codes named by standard glyph names, no ToUnicode.
	t3 := []string{"type three fonts draw glyphs", "invoice total due in ten days"}
	ops.Reset()
	ops.WriteString("BT /F1 12 Tf 14 TL 72 760 Td")
	for _, l := range t3 {
		fmt.Fprintf(&ops, " (%s) Tj T*", l)
	}
	ops.WriteString(" ET")
	var diffs, procs, widths strings.Builder
	diffs.WriteString("[32 /space 97")
	procs.WriteString("/space 6 0 R")
	widths.WriteString("[250")
	for c := 'a'; c <= 'z'; c++ {
		fmt.Fprintf(&diffs, " /%c", c)
		fmt.Fprintf(&procs, " /%c 6 0 R", c)
	}
	diffs.WriteString("]")
	for c := 33; c <= 122; c++ {
		widths.WriteString(" 500")
	}
	widths.WriteString("]")
	diff := diffs.String()
	glyph := "500 0 0 0 450 700 d1 0 0 450 700 re f"
	data = pdfWithFont("<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << "+procs.String()+
		" >> /Encoding << /Type /Encoding /Differences "+diff+" >> /FirstChar 32 /LastChar 122 /Widths "+widths.String()+" /Resources << >> >>",
		ops.String(), fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(glyph)+1, glyph))
	cs = append(cs, pdfCase{name: "hand/Type3 font", data: data, want: strings.Join(t3, "\n")})

	// Every word placed by its own Td, no space characters (as some report generators write).
	words := strings.Fields("Payment of 1 250 000,00 RUB is due within ten banking days after the act is signed by both parties")
	ops.Reset()
	ops.WriteString("BT /F1 11 Tf 72 760 Td")
	x := 0.0
	helv := fpdf.New("P", "pt", "A4", "")
	helv.SetFont("Helvetica", "", 11)
	for _, w := range words {
		adv := helv.GetStringWidth(w) + 3.5
		fmt.Fprintf(&ops, " (%s) Tj %.2f 0 Td", w, adv)
		x += adv
		if x > 380 {
			fmt.Fprintf(&ops, " %.2f -14 Td", -x)
			x = 0
		}
	}
	ops.WriteString(" ET")
	cs = append(cs, pdfCase{name: "hand/words placed one by one", data: minimalPDF(ops.String()), want: strings.Join(words, " ")})
	return cs
}

// pdfWithFont is one page using font F1 = fontDict, with extra objects numbered from 6.
func pdfWithFont(fontDict, content string, extra ...string) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
		fontDict,
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
		pdfContent(content),
	}
	return buildPDF(append(objs, extra...))
}

const cyrUpper = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"

// afiiDifferences names windows-1251's Cyrillic codes by the Adobe glyph list (afii100xx).
func afiiDifferences() string {
	var b strings.Builder
	b.WriteString("[168 /afii10023 184 /afii10071 185 /afii61352 192")
	for k := range []rune(cyrUpper) {
		n := 10017 + k
		if k >= 6 {
			n++ // Ё (afii10023) sits between Е and Ж
		}
		fmt.Fprintf(&b, " /afii%d", n)
	}
	for k := range []rune(cyrUpper) {
		n := 10065 + k
		if k >= 6 {
			n++
		}
		fmt.Fprintf(&b, " /afii%d", n)
	}
	b.WriteString("]")
	return b.String()
}

func win1251(s string) string {
	var b strings.Builder
	up := []rune(cyrUpper)
	for _, r := range s {
		switch {
		case r == 'Ё':
			b.WriteByte(168)
		case r == 'ё':
			b.WriteByte(184)
		case r == '№':
			b.WriteByte(185)
		case r >= 'А' && r <= 'Я':
			b.WriteByte(byte(192 + (r - up[0])))
		case r >= 'а' && r <= 'я':
			b.WriteByte(byte(224 + (r - 'а')))
		default:
			b.WriteByte(byte(r))
		}
	}
	return b.String()
}

func psEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return r.Replace(s)
}

// toUniCodes encodes text for the ToUnicode font of handPDFs: А..Щ → 41..5A, а..щ → 61..7A.
func toUniCodes(s string) []byte {
	var b []byte
	for _, r := range s {
		switch {
		case r >= 'А' && r <= 'Щ':
			b = append(b, byte(0x41+r-'А'))
		case r >= 'а' && r <= 'щ':
			b = append(b, byte(0x61+r-'а'))
		case r == ' ':
			b = append(b, 0x7B) // the second code for a space: no font space, only the CMap says so
		default:
			b = append(b, byte(r))
		}
	}
	return b
}

// ---- scoring ----

// pdfScore is what a reader of the extracted text needs, measured against the known text.
type pdfScore struct {
	recall, precision float64 // words (a multiset)
	order             float64 // 1 − word-level edit distance / the longer length
	clauses, clausesN int     // numbered clauses («1.», «2.1.») kept at a line start with their first word
	rows, rowsN       int     // table rows kept whole and in order on one line
	amounts, amountsN int     // amounts with thousands groups («1 250 000,00») kept whole
}

var (
	reClauseLine = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,2})*\.?)\s+(\S+)`)
	reAmount     = regexp.MustCompile(`\d{1,3}(?: \d{3})+(?:,\d{2})?`)
)

func scorePDF(want, got string, rows []string) pdfScore {
	want, got = Normalize(want), Normalize(got)
	ww, gw := strings.Fields(want), strings.Fields(got)
	var s pdfScore
	count := map[string]int{}
	for _, w := range gw {
		count[w]++
	}
	common := 0
	for _, w := range ww {
		if count[w] > 0 {
			count[w]--
			common++
		}
	}
	if len(ww) > 0 {
		s.recall = float64(common) / float64(len(ww))
	}
	if len(gw) > 0 {
		s.precision = float64(common) / float64(len(gw))
	}
	if n := max(len(ww), len(gw)); n > 0 {
		s.order = 1 - float64(wordDistance(ww, gw))/float64(n)
	}
	starts := map[string]int{}
	for _, l := range strings.Split(got, "\n") {
		if m := reClauseLine.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			starts[m[1]+" "+m[2]]++
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if m := reClauseLine.FindStringSubmatch(strings.TrimSpace(l)); m != nil && strings.Contains(m[1], ".") {
			s.clausesN++
			if starts[m[1]+" "+m[2]] > 0 {
				starts[m[1]+" "+m[2]]--
				s.clauses++
			}
		}
	}
	for _, r := range rows {
		s.rowsN++
		if rowKept(got, r) {
			s.rows++
		}
	}
	for _, loc := range reAmount.FindAllStringIndex(want, -1) {
		a := want[loc[0]:loc[1]]
		if !wholeAt(want, loc[0], len(a)) {
			continue // «стр. 2 127018»: no amount
		}
		s.amountsN++
		if amountIn(got, a) {
			s.amounts++
		}
	}
	return s
}

// rowKept: the row's cells in order on one line, any spacing between them.
func rowKept(got, row string) bool {
	re := regexp.MustCompile(`(?m)(^|\s)` + strings.Join(strings.Fields(regexp.QuoteMeta(row)), `[ \t]+`) + `($|\s)`)
	return re.MatchString(got)
}

// amountIn: a whole at some place — not split over lines, no digit glued on either side.
// (Table cells printed apart collapse to one space in the stored text of either reader, so
// «10 93 900,00» holds «93 900,00» whole.)
func amountIn(got, a string) bool {
	for i := 0; ; {
		k := strings.Index(got[i:], a)
		if k < 0 {
			return false
		}
		k += i
		if wholeAt(got, k, len(a)) {
			return true
		}
		i = k + 1
	}
}

// wholeAt: s[k:k+n] has no digit (or decimal comma and digit) glued on either side.
func wholeAt(s string, k, n int) bool {
	pre, post := s[:k], s[k+n:]
	return !(len(pre) > 0 && isDigit(pre[len(pre)-1])) &&
		!(len(post) > 0 && isDigit(post[0])) && !(len(post) > 1 && post[0] == ',' && isDigit(post[1]))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// wordDistance is the Levenshtein distance over words.
func wordDistance(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(prev[j-1], prev[j], cur[j-1])
			} else {
				c = min(c, 1+prev[j], 1+cur[j-1])
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// pdfTotals sums scores over a corpus: word figures weighted by the known words.
type pdfTotals struct {
	docs, failed                   int
	words                          int
	recall, precision, order       float64
	clauses, clausesN, rows, rowsN int
	amounts, amountsN              int
	perfectDocs                    int
	names                          []string // documents it failed on
}

func (t *pdfTotals) add(name, want string, s pdfScore, err error) {
	t.docs++
	if err != nil {
		t.failed++
		t.names = append(t.names, name)
		s = pdfScore{clausesN: s.clausesN, rowsN: s.rowsN, amountsN: s.amountsN}
	}
	n := len(strings.Fields(want))
	t.words += n
	t.recall += s.recall * float64(n)
	t.precision += s.precision * float64(n)
	t.order += s.order * float64(n)
	t.clauses += s.clauses
	t.clausesN += s.clausesN
	t.rows += s.rows
	t.rowsN += s.rowsN
	t.amounts += s.amounts
	t.amountsN += s.amountsN
	sort.Strings(t.names)
}

func (t *pdfTotals) String() string {
	w := float64(max(t.words, 1))
	return fmt.Sprintf("recall %.4f precision %.4f order %.4f clauses %d/%d rows %d/%d amounts %d/%d failed %d/%d",
		t.recall/w, t.precision/w, t.order/w, t.clauses, t.clausesN, t.rows, t.rowsN, t.amounts, t.amountsN, t.failed, t.docs)
}
