package reconcile

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/testdocs"
	"github.com/finbot/finbot/library/extract"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in     string
		serial bool
		want   string // "" = no date
	}{
		{"05.03.2026", false, "05.03.2026"},
		{"5.3.2026", false, "05.03.2026"},
		{"05.03.26", false, "05.03.2026"},
		{"2026-03-05", false, "05.03.2026"},
		{"2026-03-05T00:00:00Z", false, "05.03.2026"},
		{"05/03/2026", false, "05.03.2026"},
		{"5 марта 2026 г.", false, "05.03.2026"},
		{"05.03.2026 0:00:00", false, "05.03.2026"},
		{"46086", true, "05.03.2026"},
		{"46086", false, ""},
		{"31.02.2026", false, ""},
		{"1 234,56", false, ""},
		{"Сальдо начальное", false, ""},
	}
	for _, tt := range tests {
		got := ""
		if d, ok := parseDate(tt.in, tt.serial); ok {
			got = date(d)
		}
		if got != tt.want {
			t.Errorf("parseDate(%q, %v) = %q, want %q", tt.in, tt.serial, got, tt.want)
		}
	}
}

func TestParseAmount(t *testing.T) {
	tests := []struct {
		in   string
		raw  bool
		want string // "" = no amount
	}{
		{"1 234,56", false, "1234.56"},
		{"1\u00a0234,56", false, "1234.56"},
		{"1\u202f234,56", false, "1234.56"},
		{"1234.56", false, "1234.56"},
		{"1234,5", false, "1234.50"},
		{"1 234,56 руб.", false, "1234.56"},
		{"1 234,56 ₽", false, "1234.56"},
		{"(1 234,56)", false, "-1234.56"},
		{"−1 234,56", false, "-1234.56"},
		{"-1234.56", false, "-1234.56"},
		{"1,234.56", false, "1234.56"},
		{"1.234,56", false, "1234.56"},
		{"1 930 644,06", false, "1930644.06"},
		{"394170.35999999999", true, "394170.36"},
		{"1.5E3", true, "1500.00"},
		{"12,345", false, ""}, // three decimals: no amount of money
		{"05.03.2026", false, ""},
		{"—", false, ""},
		{"", false, ""},
		{"Оплата", false, ""},
	}
	for _, tt := range tests {
		got := ""
		if k, ok := parseAmount(tt.in, tt.raw); ok {
			got = k.Decimal()
		}
		if got != tt.want {
			t.Errorf("parseAmount(%q, %v) = %q, want %q", tt.in, tt.raw, got, tt.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	for in, want := range map[string]string{
		"Продажа (05.03.2026 № 7)":       "7",
		"Приход (7 от 05.01.26)":         "7",
		"УПД №18 от 31.01.2026":          "18",
		"Оплата, п/п N 112":              "112",
		"Основной договор от 01.02.2025": "",
		"Оплата":                         "",
	} {
		if got := numberIn(in); got != want {
			t.Errorf("numberIn(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"СВ00-000007": "7", "7": "7", "000007": "7", "ПП-187": "187", "А-Б": "А-Б", "": ""} {
		if got := numberKey(in); got != want {
			t.Errorf("numberKey(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"Январь 2026": "01.01.2026", "Обороты за февраль 2026 г.": "01.02.2026", "03.2026": "01.03.2026", "май 2026": "01.05.2026", "Сальдо начальное": ""} {
		got := ""
		if m, ok := monthIn(in); ok {
			got = date(m)
		}
		if got != want {
			t.Errorf("monthIn(%q) = %q, want %q", in, got, want)
		}
	}
}

func lineStrings(ls []Line) []string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s|%s|%s|%s|%s", date(l.Date), l.Number, l.Kind, l.Debit.Decimal(), l.Credit.Decimal()))
	}
	return out
}

// TestParseHandmade reads a table whose columns are named and ordered their own way, with
// serial dates: «приход» is our debit, «расход» our credit.
func TestParseHandmade(t *testing.T) {
	th := parseFixture(t, fxHandmade)
	want := []string{
		"05.01.2026|7|Поступление товаров|394170.36|0.00",
		"16.01.2026|ПП-187|Оплата поставщику|0.00|566682.67",
		"19.01.2026|14|Поступление товаров|414417.35|0.00",
		"23.01.2026|20|Поступление товаров|590140.13|0.00",
		"06.02.2026|ПП-241|Оплата поставщику|0.00|124325.20",
		"09.02.2026|28|Поступление товаров|685750.14|0.00",
		"09.02.2026|ПП-256|Оплата поставщику|0.00|590140.13",
		"18.03.2026|50|Поступление товаров|461036.40|0.00",
	}
	if diff := cmp.Diff(want, lineStrings(th.Lines)); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if th.Opening != kop("1903644.06") || th.Closing != kop("3168010.44") || th.Stated {
		t.Errorf("opening %s, closing %s, stated %v", th.Opening.Decimal(), th.Closing.Decimal(), th.Stated)
	}
	if th.Theirs.INN != "9366414049" || th.Ours.INN != "1031699119" {
		t.Errorf("parties %+v / %+v", th.Theirs, th.Ours)
	}
	wantCols := []string{"«№ док.» — номер документа", "«Сумма расхода» — расход у них — наш кредит", "«Дата операции» — дата",
		"«Содержание операции» — документ", "«Сумма прихода» — приход у них — наш дебет"}
	if diff := cmp.Diff(wantCols, th.Columns); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
}

func TestParseMonthly(t *testing.T) {
	th := parseFixture(t, fxMonthly)
	want := []string{
		"01.01.2026||Январь 2026|1398727.84|566682.67",
		"01.02.2026||Февраль 2026|685570.14|590140.13",
		"01.03.2026||Март 2026|416036.40|118251.11",
	}
	if diff := cmp.Diff(want, lineStrings(th.Lines)); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if !th.Grouped || !th.Stated || th.Opening != kop("1930644.06") {
		t.Errorf("grouped %v, stated %v, opening %s", th.Grouped, th.Stated, th.Opening.Decimal())
	}
}

// TestParseIdenticalRightHalf reads their half when it is on the right and ours is filled too.
func TestParseIdenticalRightHalf(t *testing.T) {
	th := parseFixture(t, fxIdentical)
	if len(th.Lines) != 9 || th.Lines[0].Number != "7" || th.Lines[0].Kind != "Приход (7 от 05.01.26)" || th.Lines[0].Debit != kop("394170.36") {
		t.Errorf("lines %q", lineStrings(th.Lines))
	}
	if th.Closing != kop("3076579.33") || len(th.Notes) > 0 {
		t.Errorf("closing %s, notes %q", th.Closing.Decimal(), th.Notes)
	}
}

// sheet is a workbook of text rows for the refusals below: "" cells are empty, the rest written
// as text.
func sheet(rows ...[]string) []byte {
	var out [][]any
	for _, r := range rows {
		var row []any
		for _, c := range r {
			if c == "" {
				row = append(row, nil)
			} else {
				row = append(row, c)
			}
		}
		out = append(out, row)
	}
	return testdocs.XLSX("Акт", out)
}

// TestParseRefusals: an act that cannot be read whole is refused with what is missing, never
// read by a guess.
func TestParseRefusals(t *testing.T) {
	head := []string{"Акт сверки взаимных расчетов за период 01.01.2026 - 31.03.2026"}
	tests := []struct {
		name string
		file string
		data []byte
		ours []Party
		kind error
		says string
	}{
		{"no header", "a.xlsx", readFixture(t, fxNoHeader), ourOrgs, ErrUnreadable, "Не нашёл в акте строку заголовка"},
		{"whose half", "a.pdf", readFixture(t, fxBP), nil, ErrUnreadable, "какая из них — данные контрагента"},
		{"only ours", "a.xlsx", sheet(head, []string{"По данным ООО «Северный ветер»"}, []string{"Дата", "Документ", "Дебет", "Кредит"},
			[]string{"05.01.2026", "Продажа 7", "100,00", ""}), ourOrgs, ErrUnreadable, "только данные ООО «Северный ветер»"},
		{"turnovers", "a.xlsx", sheet(head, []string{"Дата", "Документ", "Дебет", "Кредит"},
			[]string{"05.01.2026", "Приход 7", "", "100,00"}, []string{"06.01.2026", "Оплата 8", "50,00", ""},
			[]string{"", "Обороты за период", "50,00", "150,00"}), ourOrgs, ErrUnreadable, "часть строк я не разобрал"},
		{"no date", "a.xlsx", sheet(head, []string{"Дата", "Документ", "Дебет", "Кредит"},
			[]string{"", "Приход без даты", "", "100,00"}), ourOrgs, ErrUnreadable, "не нашёл даты документа"},
		{"direction", "a.xlsx", sheet(head, []string{"Дата", "Документ", "Сумма", "Направление"},
			[]string{"05.01.2026", "Приход 7", "100,00", "туда"}), ourOrgs, ErrUnreadable, "Не понял направление суммы «туда»"},
		{"their half empty", "a.xlsx", sheet(head, []string{"По данным ООО «Северный ветер»", "", "", "", "По данным ООО «Альфа»"},
			[]string{"Дата", "Документ", "Дебет", "Кредит", "Дата", "Документ", "Дебет", "Кредит"},
			[]string{"", "Сальдо начальное", "100,00", "", "", "Сальдо начальное"},
			[]string{"05.01.2026", "Продажа (05.01.2026 № 7)", "50,00", ""}), ourOrgs, ErrUnreadable, "не заполнена половина «По данным ООО «Альфа»»"},
		{"not an act", "a.xlsx", sheet([]string{"Счёт на оплату № 5"}, []string{"Дата", "Документ", "Дебет", "Кредит"}), ourOrgs, ErrNotAct, "не похоже на акт сверки"},
		{"docx without a table", "a.docx", testdocs.DOCX("Акт сверки", testdocs.Section{Heading: "Акт сверки", Body: "текст"}), ourOrgs, ErrUnreadable, "Не нашёл в акте строку заголовка"},
		{"text file", "a.txt", []byte("Акт сверки"), ourOrgs, extract.ErrUnknownType, "PDF с текстовым слоем, XLSX или DOCX"},
		{"scan", "a.pdf", testdocs.PDFText("", " "), ourOrgs, extract.ErrScanned, "скан без текстового слоя"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(t.Context(), tt.file, tt.data, ParseOptions{Ours: tt.ours, Now: testNow})
			if !errors.Is(err, tt.kind) {
				t.Fatalf("err = %v, want %v", err, tt.kind)
			}
			if msg := UserMessage(err); !strings.Contains(msg, tt.says) {
				t.Errorf("UserMessage = %q, want it to say %q", msg, tt.says)
			}
		})
	}
}

// TestParseSignedSum reads one «Сумма» with a direction column, and a signed one without.
func TestParseSignedSum(t *testing.T) {
	head := []string{"Акт сверки взаимных расчетов за период 01.01.2026 - 31.03.2026"}
	data := sheet(head, []string{"Дата", "Документ", "Сумма", "Д/К"},
		[]string{"05.01.2026", "Приход 7", "100,00", "К"}, []string{"06.01.2026", "Оплата 8", "(40,00)", "Д"},
		[]string{"07.01.2026", "Оплата 9", "30,00", "дебет"})
	th, err := Parse(t.Context(), "a.xlsx", data, ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatal(err, UserMessage(err))
	}
	want := []string{"05.01.2026||Приход 7|100.00|0.00", "06.01.2026||Оплата 8|0.00|-40.00", "07.01.2026||Оплата 9|0.00|30.00"}
	if diff := cmp.Diff(want, lineStrings(th.Lines)); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	data = sheet(head, []string{"Дата", "Документ", "Сумма"}, []string{"05.01.2026", "Оплата 7", "100,00"}, []string{"06.01.2026", "Приход 8", "-40,00"})
	th, err = Parse(t.Context(), "a.xlsx", data, ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatal(err, UserMessage(err))
	}
	want = []string{"05.01.2026||Оплата 7|0.00|100.00", "06.01.2026||Приход 8|40.00|0.00"}
	if diff := cmp.Diff(want, lineStrings(th.Lines)); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if th.Stated || th.HasOpening || th.HasClosing {
		t.Errorf("stated %v, balances %v %v", th.Stated, th.HasOpening, th.HasClosing)
	}
}

// TestParseTheirArithmetic: a closing balance that does not follow from their own lines, and
// closing words that contradict the table, are said, not smoothed over.
func TestParseTheirArithmetic(t *testing.T) {
	data := sheet([]string{"Акт сверки взаимных расчетов за период 01.01.2026 - 31.03.2026"},
		[]string{"между ООО «Альфа» и ООО «Северный ветер»"},
		[]string{"По данным ООО «Альфа»"}, []string{"Дата", "Документ", "Дебет", "Кредит"},
		[]string{"", "Сальдо начальное", "", "1 000,00"},
		[]string{"05.01.2026", "Приход (05.01.2026 № 7)", "", "100,00"},
		[]string{"", "Сальдо конечное", "", "1 200,00"},
		[]string{"По данным ООО «Альфа» на 31.03.2026 задолженность в пользу ООО «Северный ветер» 1 250,00 руб."})
	th, err := Parse(t.Context(), "a.xlsx", data, ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatal(err, UserMessage(err))
	}
	want := []string{
		"В тексте их акта задолженность 1\u00a0250,00\u00a0₽ в нашу пользу, а в таблице сальдо конечное 1\u00a0200,00\u00a0₽ в нашу пользу.",
		"В их акте сальдо конечное не следует из их же строк: начальное 1\u00a0000,00\u00a0₽ плюс обороты дают 1\u00a0100,00\u00a0₽, а в акте 1\u00a0200,00\u00a0₽.",
	}
	if diff := cmp.Diff(want, th.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	ours := Act{Opening: 100000, Closing: 110000, Lines: []Line{{Date: mskDay(2026, 1, 5), Number: "СВ00-000007", Debit: 10000}}}
	c, err := Compare(ours, th)
	if err != nil {
		t.Fatal(err)
	}
	var got []found
	for _, d := range c.Diffs {
		got = append(got, foundOf(d))
	}
	wantDiffs := []found{{DiffTheirTotals, "", "1100.00", "1200.00", "-100.00"}}
	if diff := cmp.Diff(wantDiffs, got); diff != "" {
		t.Errorf("differences (-want +got):\n%s", diff)
	}
	_ = onec.Kopecks(0)
}

// TestPartiesExactBeforeContained: the act's «ООО «Северный ветер»» is that organization, not
// «ООО «Северный ветер Трейд»», whose name contains it, whichever the catalog lists first.
func TestPartiesExactBeforeContained(t *testing.T) {
	reversed := []Party{ourOrgs[1], ourOrgs[0]}
	th, err := Parse(t.Context(), fxBP, readFixture(t, fxBP), ParseOptions{Ours: reversed, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if th.Ours.INN != "1031699119" {
		t.Errorf("ours %+v, want ООО «Северный ветер» (1031699119)", th.Ours)
	}
}

// TestHeaderWordsDrawnApart: a PDF that draws a header's words as separate strings («Дата»
// «документа») still names one column with them; «№ п/п» counts rows and is no number.
func TestHeaderWordsDrawnApart(t *testing.T) {
	run := func(x0, x1, y float64, s string) extract.Run {
		return extract.Run{X0: x0, X1: x1, Y: y, Size: 8, Text: s}
	}
	page := extract.LaidPage{Number: 1, Runs: []extract.Run{
		run(40, 140, 800, "Акт сверки взаимных расчетов за период 01.01.2026 - 31.03.2026"),
		run(10, 22, 760, "№ п/п"),
		run(30, 47, 760, "Дата"), run(49, 87, 760, "документа"),
		run(120, 160, 760, "Документ"), run(220, 242, 760, "Дебет"), run(280, 305, 760, "Кредит"),
		run(12, 16, 748, "1"), run(30, 70, 748, "05.01.2026"), run(110, 200, 748, "Приход (05.01.2026 № 7)"), run(282, 320, 748, "394 170,36"),
	}}
	h, ok := findHeader(grids(extract.Layout{Format: "pdf", Pages: []extract.LaidPage{page}})[0])
	if !ok {
		t.Fatal("no header")
	}
	var names []string
	for _, c := range h.cols {
		names = append(names, c.name+"="+roleNames[c.role])
	}
	want := []string{"№ п/п=не учитывается", "Дата документа=дата", "Документ=документ", "Дебет=их дебет — наш кредит", "Кредит=их кредит — наш дебет"}
	if diff := cmp.Diff(want, names); diff != "" || len(h.halves) != 1 {
		t.Errorf("columns (-want +got):\n%s\nhalves %d", diff, len(h.halves))
	}
	th, err := parseLayout(extract.Layout{Format: "pdf", Pages: []extract.LaidPage{page}}, ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatal(err, UserMessage(err))
	}
	if got := lineStrings(th.Lines); len(got) != 1 || got[0] != "05.01.2026|7|Приход (05.01.2026 № 7)|394170.36|0.00" {
		t.Errorf("lines %q", got)
	}
}

// TestRunningBalanceLeftOut: a running balance («Сальдо») beside the debit and credit is read as
// no document's sum.
func TestRunningBalanceLeftOut(t *testing.T) {
	data := sheet([]string{"Акт сверки взаимных расчетов за период 01.01.2026 - 31.03.2026"},
		[]string{"№ п/п", "Дата", "Документ", "Дебет", "Кредит", "Сальдо"},
		[]string{"1", "05.01.2026", "Приход № 7", "", "100,00", "100,00"},
		[]string{"2", "06.01.2026", "Оплата № 8", "40,00", "", "60,00"},
		[]string{"", "", "Обороты за период", "40,00", "100,00", ""})
	th, err := Parse(t.Context(), "a.xlsx", data, ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatal(err, UserMessage(err))
	}
	want := []string{"05.01.2026|7|Приход № 7|100.00|0.00", "06.01.2026|8|Оплата № 8|0.00|40.00"}
	if diff := cmp.Diff(want, lineStrings(th.Lines)); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}
