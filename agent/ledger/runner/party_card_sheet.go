package runner

import (
	"bytes"
	"fmt"

	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The Excel exports of the counterparty card and of the offsets: a sheet per part, each with the
// title, the scope, a header, the rows and its total line, amounts as numbers exact to the
// kopeck.

// sheetPart is one worksheet of an export.
type sheetPart struct {
	name   string // the sheet's tab, at most 31 characters
	title  string
	header []string
	cells  [][]any
	total  string // the last line; "" for none
	sums   map[int]onec.Kopecks
}

// workbook writes parts as the sheets of one workbook.
func (r Result) workbook(parts []sheetPart) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	money, err := f.NewStyle(&excelize.Style{CustomNumFmt: ptr("#,##0.00")})
	if err != nil {
		return nil, err
	}
	boldStyle, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	for i, p := range parts {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", p.name); err != nil {
				return nil, err
			}
		} else if _, err := f.NewSheet(p.name); err != nil {
			return nil, err
		}
		put := func(col, row int, v any) error {
			cell, err := excelize.CoordinatesToCellName(col, row)
			if err != nil {
				return err
			}
			if k, ok := v.(onec.Kopecks); ok {
				// Excel stores numbers as doubles; amounts up to 10^13 kopecks stay exact.
				if err := f.SetCellFloat(p.name, cell, float64(k)/100, 2, 64); err != nil {
					return err
				}
				return f.SetCellStyle(p.name, cell, cell, money)
			}
			return f.SetCellValue(p.name, cell, v)
		}
		if err := put(1, 1, p.title); err != nil {
			return nil, err
		}
		if err := put(1, 2, r.scopeLine()); err != nil {
			return nil, err
		}
		for j, h := range p.header {
			if err := put(j+1, 4, h); err != nil {
				return nil, err
			}
		}
		if len(p.header) > 0 {
			last, _ := excelize.CoordinatesToCellName(len(p.header), 4)
			f.SetCellStyle(p.name, "A4", last, boldStyle)
		}
		for j, row := range p.cells {
			for k, v := range row {
				if err := put(k+1, 5+j, v); err != nil {
					return nil, err
				}
			}
		}
		totalRow := 5 + len(p.cells) + 1
		if p.total != "" {
			if err := put(1, totalRow, p.total); err != nil {
				return nil, err
			}
		}
		for col, sum := range p.sums {
			if err := put(col, totalRow, sum); err != nil {
				return nil, err
			}
		}
		f.SetColWidth(p.name, "A", "A", 40)
		f.SetColWidth(p.name, "B", "J", 18)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("address: xlsx: %w", err)
	}
	return buf.Bytes(), nil
}

// cardParts are the card's sheets: its settlements by contract, its overdue by contract on
// each side, its payments and its documents.
func (r Result) cardParts() []sheetPart {
	pc := r.PartyCard
	var out []sheetPart
	lines := sheetPart{name: "Расчёты", title: r.title(), header: []string{"Договор", "Счёт", "Дебет, ₽", "Кредит, ₽", "Сальдо, ₽", "Срок оплаты, дней", "Срок задан"}}
	terms := map[string]CardContract{}
	for _, c := range pc.Contracts {
		terms[c.Ref] = c
	}
	for _, x := range r.All {
		c := terms[x.DealID]
		set, days := "нет", any("")
		if c.TermSet {
			set, days = "по договору", c.TermDays
		}
		lines.cells = append(lines.cells, []any{x.Deal, x.Account, x.Debit, x.Credit, x.Amount, days, set})
	}
	lines.total = fmt.Sprintf("Итого: %s; сальдо %s (плюс — в нашу пользу); должен нам %s, мы должны %s, выданные авансы %s, полученные авансы %s",
		ru.Count(len(r.All), "строка", "строки", "строк"), pc.Net, pc.TheyOwe, pc.WeOwe, pc.Advanced, pc.Prepaid)
	lines.sums = map[int]onec.Kopecks{5: pc.Net}
	out = append(out, lines)

	names := IntervalNames(pc.Bounds)
	aging := sheetPart{name: "Просрочка", title: "Просрочка по договорам " + r.when() + ": " + r.Party,
		header: append([]string{"Сторона", "Договор", "Долг, ₽"}, withRub(names)...)}
	aging.header = append(aging.header, "Просрочено, ₽")
	aging.sums = map[int]onec.Kopecks{}
	for _, s := range []struct {
		label string
		a     *CardAging
	}{{"Их долг", pc.Receivable}, {"Наш долг", pc.Payable}} {
		if s.a == nil {
			continue
		}
		for _, x := range s.a.Rows {
			line := []any{s.label, x.Deal, x.Amount}
			for _, v := range x.Ages.Intervals {
				line = append(line, v)
			}
			aging.cells = append(aging.cells, append(line, x.Ages.Overdue()))
		}
	}
	aging.total = fmt.Sprintf("Итого: их долг %s, из него просрочено %s; наш долг %s, из него просрочено %s",
		agingDebt(pc.Receivable), agingOverdue(pc.Receivable), agingDebt(pc.Payable), agingOverdue(pc.Payable))
	out = append(out, aging)

	pays := sheetPart{name: "Оплаты", title: "Оплаты по банку до " + ruDay(r.AsOf) + ": " + r.Party,
		header: []string{"Направление", "Документ", "Номер", "Дата", "Сумма, ₽"}}
	for _, s := range []struct {
		label string
		rows  []Row
	}{{"От них", pc.In}, {"Мы им", pc.Out}} {
		for _, x := range s.rows {
			pays.cells = append(pays.cells, []any{s.label, typeName(x.Type), x.Number, shortDate(x.Date), x.Amount})
		}
	}
	pays.total = fmt.Sprintf("Последние оплаты, до %d каждого направления; всего от них %d, мы им %d", CardPayments, pc.InCount, pc.OutCount)
	out = append(out, pays)

	docs := sheetPart{name: "Документы", title: "Последние документы до " + ruDay(r.AsOf) + ": " + r.Party,
		header: []string{"Документ", "Вид", "Номер", "Дата", "Сумма, ₽", "Проведён"}}
	for _, x := range pc.Documents {
		posted := "да"
		if x.Posted != nil && !*x.Posted {
			posted = "нет"
		}
		docs.cells = append(docs.cells, []any{x.Name, typeName(x.Type), x.Number, shortDate(x.Date), x.Amount, posted})
	}
	docs.total = fmt.Sprintf("Последние %d из %s", len(pc.Documents), ru.Count(pc.DocCount, "документа", "документов", "документов"))
	out = append(out, docs)
	return out
}

func withRub(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + ", ₽"
	}
	return out
}

func agingDebt(a *CardAging) onec.Kopecks {
	if a == nil {
		return 0
	}
	return a.Debt
}

func agingOverdue(a *CardAging) onec.Kopecks {
	if a == nil {
		return 0
	}
	return a.Overdue
}

// offsetsParts are the offsets' sheets: the pairs of contracts, and the counterparties with
// their sides, what each could net and what is not netted.
func (r Result) offsetsParts() []sheetPart {
	of := r.Offsets
	pairs := sheetPart{name: "Пары договоров", title: r.title(),
		header: []string{"Контрагент", "Договор: долг нам", "Счета", "Долг нам, ₽", "Договор: наш долг", "Счета", "Наш долг, ₽", "Пара, ₽"}}
	for _, x := range r.All {
		o := x.Offset
		pairs.cells = append(pairs.cells, []any{x.Party, o.Receivable.Name, joinAccounts(o.Receivable.Accounts), o.Receivable.Amount,
			o.Payable.Name, joinAccounts(o.Payable.Accounts), o.Payable.Amount, o.Netted})
	}
	pairs.total = fmt.Sprintf("Итого: %s; пары одного контрагента не складываются — его итог на листе «Контрагенты»",
		ru.Count(len(r.All), "пара", "пары", "пар"))
	parties := sheetPart{name: "Контрагенты", title: r.title(),
		header: []string{"Контрагент", "Должен нам, ₽", "Мы должны, ₽", "К зачёту, ₽", "Выданные авансы, ₽", "Полученные авансы, ₽", "Валютных строк"}}
	for _, p := range of.Parties {
		parties.cells = append(parties.cells, []any{p.Name, p.Receivable, p.Payable, p.Netted, p.Advanced, p.Prepaid, p.Currency})
	}
	parties.total = fmt.Sprintf("Итого: %s, к зачёту до %s", ru.Count(len(of.Parties), "контрагент", "контрагента", "контрагентов"), of.Total)
	parties.sums = map[int]onec.Kopecks{2: of.Receivable, 3: of.Payable, 4: of.Total}
	return []sheetPart{pairs, parties}
}

func joinAccounts(a []string) string {
	s := ""
	for i, x := range a {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}
