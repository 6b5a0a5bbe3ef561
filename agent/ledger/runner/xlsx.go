package runner

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// XLSX renders every matched row of a factual result as an Excel workbook: a title, the scope,
// one row per result row and the exact total.
func (r Result) XLSX() ([]byte, error) {
	if r.ResultMode == Limited {
		return nil, fmt.Errorf("address: nothing to export")
	}
	if r.Act != nil {
		return r.Act.XLSX() // the act's own two-sided form (agent/reconcile)
	}
	switch {
	case r.PartyCard != nil:
		return r.workbook(r.cardParts()) // party_card_sheet.go
	case r.Offsets != nil:
		return r.workbook(r.offsetsParts())
	}
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "Sheet1"
	if err := f.SetSheetName(sheet, "Результат"); err != nil {
		return nil, err
	}
	s := "Результат"
	header, cells := r.table()
	set := func(col, row int, v any) error {
		name, err := excelize.CoordinatesToCellName(col, row)
		if err != nil {
			return err
		}
		return f.SetCellValue(s, name, v)
	}
	if err := set(1, 1, r.title()); err != nil {
		return nil, err
	}
	if err := set(1, 2, r.scopeLine()); err != nil {
		return nil, err
	}
	money, err := f.NewStyle(&excelize.Style{CustomNumFmt: ptr("#,##0.00")})
	if err != nil {
		return nil, err
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	for i, h := range header {
		if err := set(i+1, 4, h); err != nil {
			return nil, err
		}
	}
	last, _ := excelize.CoordinatesToCellName(len(header), 4)
	f.SetCellStyle(s, "A4", last, bold)
	quantity, err := f.NewStyle(&excelize.Style{CustomNumFmt: ptr("#,##0.###")})
	if err != nil {
		return nil, err
	}
	for i, row := range cells {
		for j, v := range row {
			if q, ok := v.(onec.Quantity); ok {
				name, _ := excelize.CoordinatesToCellName(j+1, 5+i)
				if err := f.SetCellFloat(s, name, quantityCell(q), 3, 64); err != nil {
					return nil, err
				}
				f.SetCellStyle(s, name, name, quantity)
				continue
			}
			if k, ok := v.(onec.Kopecks); ok {
				// Excel stores numbers as doubles; amounts up to 10^13 kopecks stay exact.
				name, _ := excelize.CoordinatesToCellName(j+1, 5+i)
				if err := f.SetCellFloat(s, name, float64(k)/100, 2, 64); err != nil {
					return nil, err
				}
				f.SetCellStyle(s, name, name, money)
				continue
			}
			if err := set(j+1, 5+i, v); err != nil {
				return nil, err
			}
		}
	}
	totalRow := 5 + len(cells) + 1
	if err := set(1, totalRow, r.exportTotal(len(cells))); err != nil {
		return nil, err
	}
	// The total as a number under the amounts it adds, where adding them means something: an
	// aging's under each of its money columns.
	if r.Aging != nil {
		for col, sum := range agingColumnTotals(cells) {
			name, _ := excelize.CoordinatesToCellName(col, totalRow)
			if err := f.SetCellFloat(s, name, float64(sum)/100, 2, 64); err != nil {
				return nil, err
			}
			f.SetCellStyle(s, name, name, money)
		}
	} else if col := totalColumn(header); col > 0 && r.Report == nil && r.Intent != recipe.DocumentsByParty &&
		r.Intent != recipe.DocumentsByContract && r.Intent != recipe.BankOpsByParty {
		name, _ := excelize.CoordinatesToCellName(col, totalRow)
		total := r.Summary.TotalAmount
		if r.Stock != nil && len(r.Stock.Lines) > 0 {
			total = r.Stock.Total // the items' lines: on the quantity accounts only
		}
		if err := f.SetCellFloat(s, name, float64(total)/100, 2, 64); err != nil {
			return nil, err
		}
		f.SetCellStyle(s, name, name, money)
	}
	// the header stays in view while the rows scroll
	if err := f.SetPanes(s, &excelize.Panes{Freeze: true, YSplit: 4, TopLeftCell: "A5", ActivePane: "bottomLeft"}); err != nil {
		return nil, err
	}
	f.SetColWidth(s, "A", "A", 48)
	f.SetColWidth(s, "B", "H", 20)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("address: xlsx: %w", err)
	}
	return buf.Bytes(), nil
}

func ptr[T any](v T) *T { return &v }

// totalColumn is the 1-based column of the amount a result's total adds («Сумма, ₽», «Остаток,
// ₽», «Сальдо, ₽»); 0 when there is none.
func totalColumn(header []string) int {
	for i, h := range header {
		if h == "Сумма, ₽" || h == "Остаток, ₽" || h == "Сальдо, ₽" {
			return i + 1
		}
	}
	return 0
}

// ExportName is the export's file name as a person would save it: «Дебиторка на 31.03.2026.xlsx»,
// «Документы ООО «Альфа» за 01.03.2026 – 31.03.2026.xlsx».
func (r Result) ExportName() string {
	if r.Act != nil {
		return r.Act.FileName("xlsx")
	}
	var name string
	switch r.Intent {
	case recipe.Receivables:
		name = "Дебиторка " + r.when()
	case recipe.Payables:
		name = "Кредиторка " + r.when()
	case recipe.TurnoverSheet, recipe.AccountCard:
		name = r.reportTitle()
	case recipe.ReceivablesAging, recipe.PayablesAging:
		name = map[recipe.Name]string{recipe.ReceivablesAging: "Дебиторка по срокам ", recipe.PayablesAging: "Кредиторка по срокам "}[r.Intent] + r.when()
		if r.Party != "" {
			name += " — " + r.Party
		}
	case recipe.CounterpartyCard:
		name = "Карточка " + r.Party + " " + r.when()
	case recipe.OffsetCandidates:
		name = "Взаимозачёт " + r.when()
		if r.Party != "" {
			name += " — " + r.Party
		}
	default:
		name = r.title()
	}
	name = strings.ReplaceAll(name, ": ", " — ") // «Документы контрагента за … — ООО «Гранит»»
	name = strings.Map(func(c rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, c) {
			return '-' // no file system takes these in a name
		}
		return c
	}, name)
	return ru.Truncate(name, 120) + ".xlsx"
}

// table is the header and cells of the export, per recipe.
func (r Result) table() ([]string, [][]any) {
	rows := r.All
	if rows == nil {
		rows = r.Rows
	}
	var header []string
	var cells [][]any
	switch r.Intent {
	case recipe.TurnoverSheet, recipe.AccountCard:
		return r.reportTable(rows) // report_compose.go
	case recipe.ReceivablesAging, recipe.PayablesAging:
		if r.Aging != nil {
			return r.agingTable(rows) // aging_compose.go
		}
	case recipe.Receivables, recipe.Payables:
		// the columns of the message, and BP's split of each balance into debt and advances
		debt, advance := "Долг, ₽", "Авансы полученные, ₽"
		if r.Intent == recipe.Payables {
			debt, advance = "Наш долг, ₽", "Авансы выданные, ₽"
		}
		header = []string{"Контрагент", "Сумма, ₽", debt, advance, "Документов"}
		for _, x := range rows {
			d, a := x.Debt, x.Advance
			if a == 0 {
				d = x.Amount
			}
			cells = append(cells, []any{x.Name, x.Amount, d, a, x.Count})
		}
	case recipe.StockBalance:
		return stockExport(rows) // stock_compose.go
	case recipe.AccountBalance:
		if r.Stock != nil && len(r.Stock.Lines) > 0 {
			return stockExport(r.Stock.Lines) // a quantity account: its items with their quantities
		}
		header = []string{"Счёт", "Дебет, ₽", "Кредит, ₽", "Сальдо, ₽"}
		for _, x := range rows {
			cells = append(cells, []any{x.Account, x.Debit, x.Credit, x.Amount})
		}
	case recipe.OpenContracts:
		header = []string{"Договор", "Контрагент", "Дебет, ₽", "Кредит, ₽", "Сальдо, ₽"}
		for _, x := range rows {
			cells = append(cells, []any{x.Name, x.Party, x.Debit, x.Credit, x.Amount})
		}
	case recipe.OpenItemsByParty, recipe.OpenItemsByContract, recipe.DocumentsFormBalance:
		header = []string{"Документ", "Вид", "Номер", "Дата", "Дебет, ₽", "Кредит, ₽", "Остаток, ₽"}
		for _, x := range rows {
			cells = append(cells, []any{x.Name, typeName(x.Type), x.Number, shortDate(x.Date), x.Debit, x.Credit, x.Amount})
		}
	default:
		header = []string{"Документ", "Вид", "Номер", "Дата", "Сумма, ₽", "Проведён", "Расчётный счёт"}
		for _, x := range rows {
			posted := "да"
			if x.Posted != nil && !*x.Posted {
				posted = "нет"
			}
			cells = append(cells, []any{x.Name, typeName(x.Type), x.Number, shortDate(x.Date), x.Amount, posted, x.Hint})
		}
	}
	if slices.ContainsFunc(rows, func(x Row) bool { return len(x.Currencies) > 0 }) {
		// balances in foreign currency beside the roubles, as text: they never add up
		header = append(header, "В валюте")
		for i, x := range rows {
			cells[i] = append(cells[i], currencyText(x.Currencies))
		}
	}
	return header, cells
}

// ExportCaption says what XLSX holds, as its total line states it: the rows, and the total
// where adding them means something; for the lists of documents and bank operations, which mix
// sales and payments, the rows only.
func (r Result) ExportCaption() string {
	if r.Act != nil {
		return r.actCaption("Excel")
	}
	switch {
	case r.PartyCard != nil:
		return fmt.Sprintf("Выгрузка в Excel: листы «Расчёты», «Просрочка», «Оплаты», «Документы»; сальдо %s.", r.PartyCard.Net)
	case r.Offsets != nil:
		return fmt.Sprintf("Выгрузка в Excel: %s на листе «Пары договоров», %s на листе «Контрагенты»; к зачёту до %s.",
			ru.Count(len(r.All), "пара", "пары", "пар"), ru.Count(len(r.Offsets.Parties), "контрагент", "контрагента", "контрагентов"), r.Offsets.Total)
	}
	_, cells := r.table()
	total := strings.TrimPrefix(r.exportTotal(len(cells)), "Итого: ")
	switch r.Intent {
	case recipe.DocumentsByParty, recipe.DocumentsByContract, recipe.BankOpsByParty:
		return "Выгрузка в Excel: " + total + "; общей суммы нет — в списке документы разных видов."
	}
	return "Выгрузка в Excel: " + total + "."
}

// exportTotal is the last line of an export: a total only where adding the rows means something.
func (r Result) exportTotal(n int) string {
	rows := fmt.Sprintf("%d %s", n, ru.Plural(n, "строка", "строки", "строк"))
	switch r.Intent {
	case recipe.DocumentsByParty, recipe.DocumentsByContract, recipe.BankOpsByParty:
		return "Итого: " + rows
	case recipe.TurnoverSheet, recipe.AccountCard:
		return r.reportExportTotal(rows)
	case recipe.ReceivablesAging, recipe.PayablesAging:
		if r.Aging != nil {
			return r.agingExportTotal(rows)
		}
	case recipe.StockBalance, recipe.AccountBalance:
		if r.Stock != nil && len(r.Stock.Lines) > 0 {
			return r.stockExportTotal(rows)
		}
	}
	return fmt.Sprintf("Итого: %s, %s", rows, r.Summary.TotalAmount)
}
