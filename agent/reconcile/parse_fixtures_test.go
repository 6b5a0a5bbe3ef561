package reconcile

// The counterparty's acts the tests read (testdata/*.pdf, *.xlsx), written here: `go test -run
// TestFixtures -update` rewrites them. Each is ООО «Альфа»'s act with ООО «Северный ветер» (the
// demo company) for the first quarter of 2026, in a layout of its own, with the differences
// planted that the comparison tests expect (compare_test.go).

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-pdf/fpdf"
	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/golden"
	"github.com/finbot/finbot/ru"
)

// The fixtures.
const (
	fxBP        = "testdata/alfa_bp.pdf"            // BP's printed form, their half on the left: only ours, only theirs, a sum, a date
	fxHandmade  = "testdata/alfa_handmade.xlsx"     // their own columns, renamed and reordered, serial dates: opening, only ours, a sum
	fxMonthly   = "testdata/alfa_monthly.xlsx"      // month totals: two months differ
	fxIdentical = "testdata/alfa_identical.pdf"     // BP's form, their half on the right, short dates: no difference
	fxNoHeader  = "testdata/unreadable_header.xlsx" // an act without a header row
)

// fxRow is a row of a half of BP's form as printed: a label row («Сальдо начальное») has no date.
type fxRow struct {
	date, doc, debit, credit string
}

// money prints kopecks as BP does: «1 930 644,06».
func money(k onec.Kopecks) string {
	if k == 0 {
		return ""
	}
	return strings.TrimSuffix(ru.Money(int64(k)), "\u00a0₽")
}

func kop(s string) onec.Kopecks {
	k, err := onec.ParseKopecks(s)
	if err != nil {
		panic(err)
	}
	return k
}

// alfaLine is a line of Альфа's books: what they bought from us (their credit) or paid us (their
// debit).
type alfaLine struct {
	date   time.Time
	kind   string // «Приход», «Оплата»
	number string
	paid   bool // their debit (a payment to us); else their credit (goods from us)
	sum    onec.Kopecks
}

// alfaQ1 is Альфа's quarter as their books hold it, with the planted differences of the BP form:
// sale № 14 for 414 471,35 (ours 414 417,35), the payment of 16.01 dated 15.01, sale № 50 of
// 18.03 missing, a payment of 50 000,00 on 25.03 that we do not have.
func alfaQ1() []alfaLine {
	return []alfaLine{
		{mskDay(2026, 1, 5), "Приход", "7", false, kop("394170.36")},
		{mskDay(2026, 1, 15), "Оплата", "187", true, kop("566682.67")},
		{mskDay(2026, 1, 19), "Приход", "14", false, kop("414471.35")},
		{mskDay(2026, 1, 23), "Приход", "20", false, kop("590140.13")},
		{mskDay(2026, 2, 6), "Оплата", "241", true, kop("124325.20")},
		{mskDay(2026, 2, 9), "Приход", "28", false, kop("685570.14")},
		{mskDay(2026, 2, 9), "Оплата", "256", true, kop("590140.13")},
		{mskDay(2026, 3, 9), "Оплата", "318", true, kop("118251.11")},
		{mskDay(2026, 3, 25), "Оплата", "633", true, kop("50000.00")},
	}
}

// alfaExact is their quarter as it agrees with ours.
func alfaExact() []alfaLine {
	ls := alfaQ1()
	ls[1].date = mskDay(2026, 1, 16)
	ls[2].sum = kop("414417.35")
	ls = append(ls[:8], alfaLine{mskDay(2026, 3, 18), "Приход", "50", false, kop("461036.40")})
	return ls
}

const alfaOpening = "1930644.06" // their credit: they owe us

// halfRows are a side's rows of BP's form: their debit and credit as they keep them (theirSide),
// or ours.
func halfRows(opening onec.Kopecks, ls []alfaLine, theirSide bool, doc func(alfaLine) string, dateFmt string) []fxRow {
	rows := []fxRow{{doc: "Сальдо начальное"}}
	put := func(r *fxRow, theirDebit bool, k onec.Kopecks) {
		if theirDebit == theirSide {
			r.debit = money(k)
		} else {
			r.credit = money(k)
		}
	}
	put(&rows[0], false, opening)
	var d, c onec.Kopecks
	for _, l := range ls {
		r := fxRow{date: l.date.Format(dateFmt), doc: doc(l)}
		put(&r, l.paid, l.sum)
		rows = append(rows, r)
		if l.paid {
			d += l.sum
		} else {
			c += l.sum
		}
	}
	tot := fxRow{doc: "Обороты за период"}
	put(&tot, true, d)
	put(&tot, false, c)
	closing := fxRow{doc: "Сальдо конечное"}
	put(&closing, false, opening+c-d)
	return append(rows, tot, closing)
}

// bpPDF writes BP's printed form of an act: the heading, two halves side by side under «По
// данным …», each Дата | Документ | Дебет | Кредит, and each side's closing words under its half.
func bpPDF(heading []string, left, right string, l, r []fxRow, lfoot, rfoot []string) []byte {
	f := fpdf.New("P", "mm", "A4", "")
	f.AddUTF8FontFromBytes("lib", "", liberationsansregular.TTF)
	f.AddUTF8FontFromBytes("lib", "B", liberationsansbold.TTF)
	f.SetCreationDate(time.Date(2026, 4, 3, 10, 0, 0, 0, time.UTC))
	f.SetModificationDate(time.Date(2026, 4, 3, 10, 0, 0, 0, time.UTC))
	f.SetCatalogSort(true) // the same bytes on every run
	f.SetMargins(12, 12, 12)
	f.AddPage()
	f.SetFont("lib", "B", 12)
	f.CellFormat(0, 6, heading[0], "", 1, "C", false, 0, "")
	f.SetFont("lib", "", 9)
	for _, h := range heading[1:] {
		f.MultiCell(0, 4.5, h, "", "C", false)
	}
	f.Ln(3)
	widths := []float64{17, 38, 16.5, 16.5}
	halfW := 88.0
	header := func() {
		f.SetFont("lib", "B", 7.5)
		f.CellFormat(halfW, 5, "По данным "+left+", руб.", "1", 0, "C", false, 0, "")
		f.CellFormat(halfW, 5, "По данным "+right+", руб.", "1", 1, "C", false, 0, "")
		for range 2 {
			for i, h := range []string{"Дата", "Документ", "Дебет", "Кредит"} {
				f.CellFormat(widths[i], 5, h, "1", 0, "C", false, 0, "")
			}
		}
		f.Ln(-1)
		f.SetFont("lib", "", 7)
	}
	f.SetAutoPageBreak(false, 0)
	header()
	n := max(len(l), len(r))
	for i := range n {
		if f.GetY() > 280 {
			// The table goes on on the next page under its header again, as BP prints it.
			f.AddPage()
			header()
		}
		for _, side := range [][]fxRow{l, r} {
			var row fxRow
			if i < len(side) {
				row = side[i]
			}
			if row.date == "" && row.doc != "" && !strings.HasPrefix(row.doc, " ") {
				// A balance's label spans the date and the document, as BP merges them.
				f.CellFormat(widths[0]+widths[1], 4.5, row.doc, "1", 0, "L", false, 0, "")
			} else {
				f.CellFormat(widths[0], 4.5, row.date, "1", 0, "C", false, 0, "")
				f.CellFormat(widths[1], 4.5, strings.TrimSpace(row.doc), "1", 0, "L", false, 0, "")
			}
			f.CellFormat(widths[2], 4.5, row.debit, "1", 0, "R", false, 0, "")
			f.CellFormat(widths[3], 4.5, row.credit, "1", 0, "R", false, 0, "")
		}
		f.Ln(-1)
	}
	f.Ln(4)
	f.SetFont("lib", "", 8)
	if f.GetY() > 270 {
		f.AddPage()
	}
	for i := range max(len(lfoot), len(rfoot)) {
		for _, side := range [][]string{lfoot, rfoot} {
			s := ""
			if i < len(side) {
				s = side[i]
			}
			f.CellFormat(halfW, 4, s, "", 0, "L", false, 0, "")
		}
		f.Ln(-1)
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// bpDoc is BP's name of a line: «Приход (05.01.2026 № 7)».
func bpDoc(l alfaLine) string {
	return fmt.Sprintf("%s (%s № %s)", l.kind, l.date.Format("02.01.2006"), l.number)
}

func fixtureBP() []byte {
	opening := kop(alfaOpening)
	theirs := halfRows(opening, alfaQ1(), true, bpDoc, "02.01.2006")
	// The payment of 25.03 wraps onto a second row, as a long name does in BP's form.
	for i, r := range theirs {
		if strings.Contains(r.doc, "№ 633") {
			theirs = append(theirs[:i+1], append([]fxRow{{doc: " аванс по счёту 112"}}, theirs[i+1:]...)...)
			break
		}
	}
	ours := []fxRow{{doc: "Сальдо начальное"}, {doc: "Обороты за период"}, {doc: "Сальдо конечное"}}
	return bpPDF([]string{"Акт сверки", "взаимных расчетов за период: 01.01.2026 - 31.03.2026", "между ООО «Альфа»", "и ООО «Северный ветер»",
		"Мы, нижеподписавшиеся, генеральный директор ООО «Альфа» Тихонов В. С., с одной стороны, и генеральный директор ООО «Северный ветер», с другой стороны, составили настоящий акт сверки в том, что состояние взаимных расчетов по данным учета следующее:"},
		"ООО «Альфа»", "ООО «Северный ветер»", theirs, ours,
		[]string{"По данным ООО «Альфа» на 31.03.2026", "задолженность в пользу ООО «Северный ветер»", "2 565 596,93 руб. (Два миллиона пятьсот шестьдесят", "пять тысяч пятьсот девяносто шесть рублей 93 копейки)"},
		[]string{"По данным ООО «Северный ветер» на 31.03.2026", "задолженность ____________________"})
}

func fixtureIdentical() []byte {
	opening := kop(alfaOpening)
	doc := func(l alfaLine) string {
		return fmt.Sprintf("%s (%s от %s)", l.kind, l.number, l.date.Format("02.01.06"))
	}
	ours := halfRows(opening, alfaExact(), false, func(l alfaLine) string {
		if l.paid {
			return fmt.Sprintf("Оплата (%s)", l.date.Format("02.01.2006"))
		}
		return fmt.Sprintf("Продажа (%s № %s)", l.date.Format("02.01.2006"), l.number)
	}, "02.01.2006")
	theirs := halfRows(opening, alfaExact(), true, doc, "02.01.06")
	return bpPDF([]string{"Акт сверки", "взаимных расчетов за период: 01.01.2026 - 31.03.2026", "между ООО «Северный ветер»", "и ООО «Альфа»"},
		"ООО «Северный ветер»", "ООО «Альфа»", ours, theirs,
		[]string{"По данным ООО «Северный ветер» на 31.03.2026", "задолженность в пользу ООО «Северный ветер»", "3 076 579,33 руб."},
		[]string{"По данным ООО «Альфа» на 31.03.2026", "задолженность в пользу ООО «Северный ветер»", "3 076 579,33 руб."})
}

// excelSerial is a date as Excel stores it.
func excelSerial(t time.Time) float64 {
	return float64(t.Sub(time.Date(1899, 12, 30, 0, 0, 0, 0, ru.Moscow)).Hours() / 24)
}

type xcell struct {
	col int
	v   any
}

// workbook writes rows of cells (amounts as onec.Kopecks become numbers, times serial dates);
// merged spans cells A..D of a row given as "A3:C3".
func workbook(sheet string, rows [][]xcell, merged ...string) []byte {
	f := excelize.NewFile()
	defer f.Close()
	f.SetSheetName("Sheet1", sheet)
	dateStyle, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	moneyStyle, _ := f.NewStyle(&excelize.Style{CustomNumFmt: ptr("#,##0.00")})
	for i, r := range rows {
		for _, c := range r {
			name, _ := excelize.CoordinatesToCellName(c.col, i+1)
			switch v := c.v.(type) {
			case onec.Kopecks:
				f.SetCellFloat(sheet, name, float64(v)/100, 2, 64)
				f.SetCellStyle(sheet, name, name, moneyStyle)
			case time.Time:
				f.SetCellFloat(sheet, name, excelSerial(v), 0, 64)
				f.SetCellStyle(sheet, name, name, dateStyle)
			default:
				f.SetCellValue(sheet, name, v)
			}
		}
	}
	for _, m := range merged {
		a, b, _ := strings.Cut(m, ":")
		f.MergeCell(sheet, a, b)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func ptr[T any](v T) *T { return &v }

// fixtureHandmade is their own table: «№ док.» | «Сумма расхода» | «Дата операции» | «Содержание
// операции» | «Сумма прихода», dates as Excel serials, «приход» what came to them. Planted: the
// opening 1 903 644,06 (ours 1 930 644,06), sale № 28 for 685 750,14 (ours 685 570,14), our
// receipt of 118 251,11 on 09.03 missing.
func fixtureHandmade() []byte {
	ls := alfaExact()
	ls = append(ls[:7], ls[8:]...) // the payment of 09.03
	for i := range ls {
		if ls[i].number == "28" && !ls[i].paid {
			ls[i].sum = kop("685750.14")
		}
	}
	opening := kop("1903644.06")
	rows := [][]xcell{
		{{1, "Акт сверки взаиморасчетов"}},
		{{1, "между ООО «Альфа» (ИНН 9366414049) и ООО «Северный ветер» (ИНН 1031699119)"}},
		{{1, "за период с 01.01.2026 по 31.03.2026"}},
		{},
		{{1, "№ док."}, {2, "Сумма расхода"}, {3, "Дата операции"}, {4, "Содержание операции"}, {5, "Сумма прихода"}},
		{{4, "Сальдо на 01.01.2026"}, {5, opening}},
	}
	var in, out onec.Kopecks
	for _, l := range ls {
		if l.paid {
			out += l.sum
			rows = append(rows, []xcell{{1, "ПП-" + l.number}, {2, l.sum}, {3, l.date}, {4, "Оплата поставщику"}})
		} else {
			in += l.sum
			rows = append(rows, []xcell{{1, l.number}, {3, l.date}, {4, "Поступление товаров"}, {5, l.sum}})
		}
	}
	rows = append(rows, []xcell{{2, out}, {4, "Итого обороты"}, {5, in}},
		[]xcell{{4, "Сальдо на 31.03.2026"}, {5, opening + in - out}})
	return workbook("Акт", rows)
}

// fixtureMonthly is their act by month: «Период» | «Дебет» | «Кредит» under «По данным ООО
// «Альфа»». Planted: February without the payment of 124 325,20, March's sales 45 000,00 short.
func fixtureMonthly() []byte {
	type month struct {
		name          string
		debit, credit onec.Kopecks
	}
	ms := []month{
		{"Январь 2026", kop("566682.67"), kop("1398727.84")},
		{"Февраль 2026", kop("590140.13"), kop("685570.14")},
		{"Март 2026", kop("118251.11"), kop("416036.40")},
	}
	opening := kop(alfaOpening)
	rows := [][]xcell{
		{{1, "Акт сверки взаимных расчетов за 1 квартал 2026 г."}},
		{{1, "между ООО «Северный ветер» и ООО «Альфа»"}},
		{{1, "По данным ООО «Альфа», руб."}},
		{{1, "Период"}, {2, "Дебет"}, {3, "Кредит"}},
		{{1, "Сальдо начальное"}, {3, opening}},
	}
	var d, c onec.Kopecks
	for _, m := range ms {
		rows = append(rows, []xcell{{1, m.name}, {2, m.debit}, {3, m.credit}})
		d, c = d+m.debit, c+m.credit
	}
	rows = append(rows, []xcell{{1, "Обороты за период"}, {2, d}, {3, c}},
		[]xcell{{1, "Сальдо конечное"}, {3, opening + c - d}})
	return workbook("Сверка", rows, "A3:C3")
}

func fixtureNoHeader() []byte {
	return workbook("Лист1", [][]xcell{
		{{1, "Акт сверки взаимных расчетов за 1 квартал 2026"}},
		{{1, "05.01.2026"}, {2, "Приход 7"}, {3, kop("394170.36")}},
	})
}

var fixtures = map[string]func() []byte{
	fxBP: fixtureBP, fxHandmade: fixtureHandmade, fxMonthly: fixtureMonthly, fxIdentical: fixtureIdentical, fxNoHeader: fixtureNoHeader,
}

// TestFixtures writes the fixtures under -update, and otherwise checks that they are what the
// generators write (byte for byte: the generators are deterministic), so a change to a generator
// shows as a changed file in review.
func TestFixtures(t *testing.T) {
	for path, gen := range fixtures {
		b := gen()
		if golden.Updating() {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		kept, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (go test -run TestFixtures -update writes it)", path, err)
			continue
		}
		if !bytes.Equal(kept, b) {
			t.Errorf("%s is not what its generator writes now (go test -run TestFixtures -update rewrites it)", path)
		}
	}
}

// readFixture is a fixture's bytes.
func readFixture(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestFixtures -update writes it)", err)
	}
	return b
}
