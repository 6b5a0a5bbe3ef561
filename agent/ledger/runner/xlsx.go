package runner

import (
	"bytes"
	"fmt"
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
	for i, row := range cells {
		for j, v := range row {
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
	f.SetColWidth(s, "A", "A", 48)
	f.SetColWidth(s, "B", "H", 18)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("address: xlsx: %w", err)
	}
	return buf.Bytes(), nil
}

func ptr[T any](v T) *T { return &v }

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
	case recipe.Receivables, recipe.Payables:
		header = []string{"Контрагент", "Сумма, ₽", "Документов"}
		for _, x := range rows {
			cells = append(cells, []any{x.Name, x.Amount, x.Count})
		}
	case recipe.AccountBalance:
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
	return header, cells
}

// ExportCaption says what XLSX holds, as its total line states it: the rows, and the total
// where adding them means something; for the lists of documents and bank operations, which mix
// sales and payments, the rows only.
func (r Result) ExportCaption() string {
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
	}
	return fmt.Sprintf("Итого: %s, %s", rows, r.Summary.TotalAmount)
}
