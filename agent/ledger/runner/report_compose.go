package runner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// The reports' answers, in Russian: every figure from the rows and the report's totals, exact
// to the kopeck (onec.Kopecks writes them).

// reportTitle is «Оборотно-сальдовая ведомость за 01.03.2026 – 31.03.2026 по контрагентам:
// ООО «Гранит»», «Карточка счёта 60 за …».
func (r Result) reportTitle() string {
	title := "Оборотно-сальдовая ведомость"
	if r.Intent == recipe.AccountCard {
		title = "Карточка счёта " + r.Account
	}
	title += " " + periodWords(r.From, r.To)
	if r.Report != nil && r.Party == "" {
		switch r.Report.Detail {
		case recipe.DetailCounterparty:
			title += " по контрагентам"
		case recipe.DetailContract:
			title += " по договорам"
		}
	}
	if r.Party != "" {
		title += ": " + r.Party
	}
	return title
}

// reportMarkdown renders a turnover sheet or an account card.
func (r Result) reportMarkdown(mark string) string {
	cite := func(line string) string {
		if mark == "" {
			return line
		}
		return line + " " + mark
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**\n", md.Escape(r.reportTitle()))
	fmt.Fprintf(&b, "_%s_\n\n", md.Escape(r.scopeLine()))
	for _, n := range append(r.Notes, r.Limitations...) {
		b.WriteString(md.Escape(n) + "\n\n")
	}
	if r.Intent == recipe.AccountCard {
		r.cardMarkdown(&b, cite)
	} else {
		r.sheetMarkdown(&b, cite)
	}
	return strings.TrimSpace(b.String())
}

// pair is a balance or a turnover as its debit and credit parts: «Дт 1 234,56 ₽, Кт 78,00 ₽»;
// a zero part is left out unless both are zero.
func pair(debit, credit onec.Kopecks) string {
	switch {
	case debit == 0 && credit == 0:
		return onec.Kopecks(0).String()
	case credit == 0:
		return "Дт " + debit.String()
	case debit == 0:
		return "Кт " + credit.String()
	}
	return fmt.Sprintf("Дт %s, Кт %s", debit, credit)
}

// turnoverWords is a sheet line's figures: «сальдо на начало Дт …; обороты Дт …, Кт …; сальдо
// на конец Кт …».
func turnoverWords(t Turnover) string {
	return fmt.Sprintf("сальдо на начало %s; обороты %s; сальдо на конец %s",
		pair(t.OpenDebit, t.OpenCredit), pair(t.Debit, t.Credit), pair(t.CloseDebit, t.CloseCredit))
}

// sheetMarkdown writes the sheet's lines, its total and what its figures mean.
func (r Result) sheetMarkdown(b *strings.Builder, cite func(string) string) {
	rep := r.Report
	rows := r.Rows
	if rep.Detail != "" && len(rows) > listMax { // a long breakdown: its largest lines, the rest in the export
		rows = rows[:shownInSummary]
	}
	n := 0
	for _, row := range rows {
		label := row.Name
		if rep.Detail == "" || r.Party != "" && r.Account == "" {
			label = strings.TrimSpace(row.Account + " " + row.Name)
		}
		line := fmt.Sprintf("**%s**: %s", md.Escape(label), md.Escape(turnoverWords(*row.Sheet)))
		if row.Level > 0 { // a nested item of the account's item
			fmt.Fprintf(b, "%s- %s\n", strings.Repeat(" ", len(strconv.Itoa(max(n, 1)))+2), line)
			continue
		}
		n++
		fmt.Fprintf(b, "%d. %s\n", n, line)
	}
	if rest := r.Summary.Rows - len(rows); rest > 0 {
		if r.Account == "" && r.Party == "" {
			b.WriteString("\nСубсчета — в выгрузке в Excel.\n")
		} else {
			fmt.Fprintf(b, "\n…и ещё %d — полностью в выгрузке в Excel.\n", rest)
		}
	}
	t := rep.Total
	what := "Итого"
	if r.Account != "" {
		what = "Итого по счёту " + r.Account
	}
	switch {
	case r.Contract != "" && r.Intent == recipe.TurnoverSheet:
		what += ", " + r.Contract
	case r.Party != "":
		what += " по " + r.Party
	}
	total := fmt.Sprintf("%s: сальдо на начало Дт %s, Кт %s; обороты Дт %s, Кт %s; сальдо на конец Дт %s, Кт %s.",
		what, t.OpenDebit, t.OpenCredit, t.Debit, t.Credit, t.CloseDebit, t.CloseCredit)
	b.WriteString("\n" + cite("**"+md.Escape(total)+"**") + "\n")
	if len(rep.OffBalance) > 0 {
		b.WriteString("\nЗабалансовые счета (в итог не входят):\n")
		for _, row := range rep.OffBalance {
			fmt.Fprintf(b, "- **%s**: %s\n", md.Escape(strings.TrimSpace(row.Account+" "+row.Name)), md.Escape(turnoverWords(*row.Sheet)))
		}
	}
	var notes []string
	if rep.Expanded {
		note := "Сальдо счетов 60, 62, 76 развёрнуто, как в ОСВ 1С с развёрнутым сальдо: дебет — сумма дебетовых остатков, " +
			"кредит — сумма кредитовых по каждому контрагенту и договору на каждом субсчёте, так что долги и авансы видны отдельно."
		if r.Account != "" && expandedAccount(r.Account) {
			note += fmt.Sprintf(" Свёрнутое сальдо (дебет − кредит) на начало — %s, на конец — %s.", SideAmount(t.OpenNet()), SideAmount(t.CloseNet()))
		}
		notes = append(notes, note)
	}
	if len(rep.Red) > 0 {
		notes = append(notes, "Красное сальдо — проверьте учёт: "+strings.Join(rep.Red, "; ")+".")
	}
	for _, n := range notes {
		fmt.Fprintf(b, "\n_%s_\n", md.Escape(n))
	}
}

// cardMarkdown writes the card: the opening balance, the postings with the running balance,
// the turnovers and the closing balance.
func (r Result) cardMarkdown(b *strings.Builder, cite func(string) string) {
	rep := r.Report
	t := rep.Total
	fmt.Fprintf(b, "Сальдо на начало: %s\n", md.Escape(SideAmount(t.OpenNet())))
	rows := r.Rows
	if len(rows) > listMax {
		rows = rows[:shownInSummary]
	}
	if len(rows) > 0 {
		b.WriteString("\n")
	}
	for i, row := range rows {
		fmt.Fprintf(b, "%d. %s\n", i+1, r.postingLine(row))
	}
	switch rest := r.Summary.Rows - len(rows); {
	case rest > 0:
		fmt.Fprintf(b, "\n…и ещё %s — полностью в выгрузке в Excel.\n", postingsWord(rest))
	case r.Summary.Rows == 0:
		b.WriteString("Проводок за период нет.\n")
		fmt.Fprintf(b, "%s\n", cite(fmt.Sprintf("**Сальдо на конец: %s**", md.Escape(SideAmount(t.CloseNet())))))
		return
	}
	count := postingsWord(rep.Postings)
	if rep.Cut {
		count = "в ответе 1С первые " + count
	}
	fmt.Fprintf(b, "\nОбороты за период \\(%s\\): дебет %s, кредит %s.\n", md.Escape(count), md.Escape(t.Debit.String()), md.Escape(t.Credit.String()))
	b.WriteString(cite(fmt.Sprintf("**Сальдо на конец: %s**", md.Escape(SideAmount(t.CloseNet())))) + "\n")
}

// postingLine is one posting of the card: «05.03.2026 · Поступление товаров и услуг № 12 ·
// корр. 41.01 · ООО «Гранит» — кредит **50 000,00 ₽**, сальдо Кт 170 000,00 ₽».
func (r Result) postingLine(row Row) string {
	parts := []string{shortDate(row.Date), typeName(row.Type)}
	if row.Number != "" {
		parts[1] += " № " + md.Escape(row.Number)
	}
	corr := "корр. " + row.Corr
	if row.Debit != 0 && row.Credit != 0 {
		corr = fmt.Sprintf("Дт %s — Кт %s", row.Account, row.Corr)
	}
	parts = append(parts, md.Escape(corr))
	if row.Party != "" && r.Party == "" {
		parts = append(parts, md.Escape(row.Party))
	}
	var amounts []string
	if row.Debit != 0 {
		amounts = append(amounts, "дебет **"+md.Escape(row.Debit.String())+"**")
	}
	if row.Credit != 0 {
		amounts = append(amounts, "кредит **"+md.Escape(row.Credit.String())+"**")
	}
	return fmt.Sprintf("%s — %s, сальдо %s", strings.Join(parts, " · "), strings.Join(amounts, ", "), md.Escape(SideAmount(row.Amount)))
}

// reportTable is the Excel export of a report: every line of the sheet (sub-accounts
// included), every posting of the card.
func (r Result) reportTable(rows []Row) ([]string, [][]any) {
	var cells [][]any
	if r.Intent == recipe.AccountCard {
		header := []string{"Дата", "Документ", "Счёт", "Корр. счёт", "Контрагент", "Дебет, ₽", "Кредит, ₽", "Сальдо, ₽"}
		for _, x := range rows {
			cells = append(cells, []any{shortDate(x.Date), x.Name, x.Account, x.Corr, x.Party, x.Debit, x.Credit, x.Amount})
		}
		return header, cells
	}
	header := []string{"Счёт", "Наименование", "Сальдо на начало Дт, ₽", "Сальдо на начало Кт, ₽", "Оборот Дт, ₽", "Оборот Кт, ₽",
		"Сальдо на конец Дт, ₽", "Сальдо на конец Кт, ₽"}
	if r.Report != nil && r.Report.Detail != "" {
		header[1] = "Контрагент"
		if r.Report.Detail == recipe.DetailContract {
			header[1] = "Контрагент, договор"
		}
	}
	for _, x := range rows {
		t := *x.Sheet
		cells = append(cells, []any{x.Account, strings.Repeat("  ", x.Level) + x.Name, t.OpenDebit, t.OpenCredit, t.Debit, t.Credit,
			t.CloseDebit, t.CloseCredit})
	}
	return header, cells
}

// reportExportTotal is the export's last line: the sheet's total, or the card's turnovers and
// closing balance.
func (r Result) reportExportTotal(rows string) string {
	if r.Report == nil {
		return "Итого: " + rows
	}
	t := r.Report.Total
	if r.Intent == recipe.AccountCard {
		return fmt.Sprintf("Итого: %s; сальдо на начало %s; обороты Дт %s, Кт %s; сальдо на конец %s", rows, SideAmount(t.OpenNet()),
			t.Debit, t.Credit, SideAmount(t.CloseNet()))
	}
	return fmt.Sprintf("Итого: %s; сальдо на начало Дт %s, Кт %s; обороты Дт %s, Кт %s; сальдо на конец Дт %s, Кт %s", rows,
		t.OpenDebit, t.OpenCredit, t.Debit, t.Credit, t.CloseDebit, t.CloseCredit)
}
