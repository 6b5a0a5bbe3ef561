package runner

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The aging's answer, in Russian: the overdue debt first, then the debt by interval, the most
// overdue counterparties (or contracts) and how the due dates were set. Every figure is the
// template's, exact to the kopeck.

// agingMarkdown renders an aging result.
func (r Result) agingMarkdown(mark string) string {
	ag := r.Aging
	var b strings.Builder
	r.writeLead(&b, r.agingHeadline(), mark)
	names := IntervalNames(ag.Bounds)
	cells := make([][2]string, 0, len(names))
	for i, name := range names {
		cells = append(cells, [2]string{md.Escape(name), amountCell(ag.Totals[i])})
	}
	writeTable(&b, [2]string{"Срок долга", "₽"}, cells)
	if len(r.All) > 1 {
		var top [][2]string
		for _, row := range r.Rows[:min(len(r.Rows), ShownTop)] {
			if row.Ages.asked(ag) == 0 {
				break // sorted by it: the rest is not overdue (so long)
			}
			top = append(top, [2]string{md.Escape(agingLabel(row, r.Party != "")), amountCell(row.Ages.asked(ag))})
		}
		if len(top) > 0 {
			what, figure := "Контрагент", "Просрочено, ₽"
			if ag.ByContract {
				what = "Договор"
			}
			if ag.OverdueDays > 0 {
				figure = fmt.Sprintf("Более %d дн., ₽", ag.OverdueDays)
			}
			writeTable(&b, [2]string{what, md.Escape(figure)}, top)
			restLine(&b, r.Summary.Rows-len(top))
		}
	}
	b.WriteString("\n" + md.Escape(r.agingDetails()))
	return strings.TrimSpace(b.String())
}

// agingHeadline is the answer in one line: the debt at the date and, in bold, what of it is
// overdue; the counterparties and contracts it is spread over.
func (r Result) agingHeadline() string {
	ag := r.Aging
	esc := md.Escape
	debt, overdue := r.Summary.TotalAmount, bold(esc(ag.Overdue.String()))
	var who string
	switch {
	case r.Party != "" && ag.Payables:
		who = "Мы должны " + esc(r.Party)
	case r.Party != "":
		who = esc(r.Party) + " должен нам"
	case ag.Payables:
		who = "Мы должны поставщикам"
	default:
		who = "Покупатели должны нам"
	}
	count := ""
	switch {
	case r.Party == "" && ag.ByContract:
		count = fmt.Sprintf(" — %s, %s", ru.Count(ag.Parties, "контрагент", "контрагента", "контрагентов"),
			ru.Count(r.Summary.Rows, "договор", "договора", "договоров"))
	case r.Party == "":
		count = " — " + ru.Count(ag.Parties, "контрагент", "контрагента", "контрагентов")
	case ag.ByContract:
		count = " — " + ru.Count(r.Summary.Rows, "договор", "договора", "договоров")
	}
	if ag.Overdue == 0 {
		return fmt.Sprintf("%s %s %s, просроченного долга нет%s.", who, esc(debt.String()), esc(r.when()), count)
	}
	if ag.OverdueDays > 0 {
		// «кто должен нам больше 90 дней»: the debt past those days in bold, the whole overdue beside it
		return fmt.Sprintf("%s %s %s; больше %s просрочено %s (всего просрочено %s)%s.", who, esc(debt.String()), esc(r.when()),
			daysWord(ag.OverdueDays), bold(esc(ag.Past.String())), esc(ag.Overdue.String()), count)
	}
	return fmt.Sprintf("%s %s %s, из них просрочено %s%s.", who, esc(debt.String()), esc(r.when()), overdue, count)
}

// agingDetails says how the due dates were set and what the aging leaves out.
func (r Result) agingDetails() string {
	ag := r.Aging
	parts := []string{"Срок оплаты — дата документа расчётов плюс срок по договору («Установлен срок оплаты»)"}
	switch {
	case ag.ByContract && ag.DefaultTerms > 0:
		parts[0] += fmt.Sprintf("; у %s своего срока нет — %s по умолчанию.",
			ru.Count(ag.DefaultTerms, "договора", "договоров", "договоров"), daysWord(ag.DefaultDays))
	default:
		parts[0] += fmt.Sprintf(", без него — %s.", daysWord(ag.DefaultDays))
	}
	if ag.Earliest != "" && ag.Overdue > 0 {
		if days := overdueDays(ag.Earliest, r.AsOf); days > 0 {
			parts = append(parts, fmt.Sprintf("Дольше всех просрочен документ со сроком оплаты %s — %s.", shortDate(ag.Earliest), daysWord(days)))
		}
	}
	if ag.Undocumented {
		parts = append(parts, "Где документов расчётов нет, долг отнесён к последним начислениям, как в отчёте 1С по срокам долга.")
	}
	advances := "Авансы и переплаты покупателей в возраст долга не входят: сальдо расчётов — в «Кто нам должен»."
	if ag.Payables {
		advances = "Выданные авансы и переплаты в возраст долга не входят: сальдо расчётов — в «Кому мы должны»."
	}
	return strings.Join(append(parts, advances), " ")
}

// agingLabel names an aging row in a narrow table: the company, or with its contracts apart
// the company and the contract's number («Альфа · П-77/2024»), the contract alone when the
// answer is about one company.
func agingLabel(row Row, oneParty bool) string {
	switch {
	case row.Deal == "":
		return row.Name
	case oneParty:
		return contractNumber(row.Deal)
	}
	return shortParty(row.Name) + " · " + contractNumber(row.Deal)
}

// agingTable is the Excel export of an aging: every row with its term, its debt by interval,
// its documents and its earliest due date.
func (r Result) agingTable(rows []Row) ([]string, [][]any) {
	ag := r.Aging
	header := []string{"Контрагент", "Договор", "Срок оплаты, дней", "Срок задан", "Долг, ₽"}
	for _, name := range IntervalNames(ag.Bounds) {
		header = append(header, name+", ₽")
	}
	header = append(header, "Просрочено, ₽", "Документов", "Самый ранний срок оплаты", "Дней просрочки")
	var cells [][]any
	for _, x := range rows {
		a := x.Ages
		term, days := "", any("")
		if ag.ByContract {
			term = "по умолчанию"
			if a.OwnTerm {
				term = "по договору"
			}
			days = a.TermDays
		}
		line := []any{x.Name, x.Deal, days, term, x.Amount}
		for _, v := range a.Intervals {
			line = append(line, v)
		}
		overdue := any("")
		if n := overdueDays(a.Earliest, r.AsOf); n > 0 {
			overdue = n
		}
		line = append(line, a.Overdue(), x.Count, shortDate(a.Earliest), overdue)
		cells = append(cells, line)
	}
	return header, cells
}

// agingExportTotal is the export's last line: the debt, what of it is overdue, by interval.
func (r Result) agingExportTotal(rows string) string {
	ag := r.Aging
	parts := []string{fmt.Sprintf("Итого: %s; долг %s, просрочено %s", rows, r.Summary.TotalAmount, ag.Overdue)}
	for i, name := range IntervalNames(ag.Bounds) {
		parts = append(parts, fmt.Sprintf("%s — %s", lowerFirst(name), ag.Totals[i]))
	}
	return strings.Join(parts, "; ")
}

// agingColumnTotals are the sums under an aging export's money columns, by column (1-based).
func agingColumnTotals(cells [][]any) map[int]onec.Kopecks {
	out := map[int]onec.Kopecks{}
	for _, row := range cells {
		for j, v := range row {
			if k, ok := v.(onec.Kopecks); ok {
				out[j+1] += k
			}
		}
	}
	return out
}

// lowerFirst is s with its first letter in lower case («Не наступил срок» — «не наступил срок»).
func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	return strings.ToLower(string(r[:1])) + string(r[1:])
}
