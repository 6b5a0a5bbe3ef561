package runner

import (
	"cmp"
	"fmt"
	"slices"
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
	b.WriteString(cite(r.reportHeadline()) + "\n")
	fmt.Fprintf(&b, "_%s_\n\n", md.Escape(r.shortScope()))
	for _, n := range append(r.Notes, r.Limitations...) {
		b.WriteString(md.Escape(n) + "\n\n")
	}
	if r.Intent == recipe.AccountCard {
		r.cardMarkdown(&b)
	} else {
		r.sheetMarkdown(&b)
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
func (r Result) sheetMarkdown(b *strings.Builder) {
	rep := r.Report
	if rep.Detail != "" && r.Turnover != "" {
		r.turnoverTable(b) // «продажи за март по контрагентам»: who bought most, the turnover asked
		return
	}
	r.linesTable(b)
	if len(rep.OffBalance) > 0 {
		b.WriteString("\nЗабалансовые счета (в итог не входят):\n")
		for _, row := range rep.OffBalance {
			fmt.Fprintf(b, "- %s: %s\n", md.Escape(strings.TrimSpace(row.Account+" "+row.Name)), md.Escape(turnoverWords(*row.Sheet)))
		}
	}
	var notes []string
	if rep.Expanded {
		note := "Сальдо 60, 62, 76 развёрнуто по контрагентам и договорам, как в ОСВ 1С: долги и авансы отдельно."
		if t := rep.Total; r.Account != "" && expandedAccount(r.Account) {
			note += fmt.Sprintf(" Свёрнутое сальдо на начало — %s, на конец — %s.", SideAmount(t.OpenNet()), SideAmount(t.CloseNet()))
		}
		notes = append(notes, note)
	}
	if rep.ExpandedSubconto {
		notes = append(notes, "Сальдо 68, 69, 70, 71 и 73.03 развёрнуто по субконто (работникам, видам платежей), как в ОСВ 1С: дебетовые и кредитовые остатки отдельно.")
	}
	if len(rep.Red) > 0 {
		notes = append(notes, "Красное сальдо — проверьте учёт: "+strings.Join(rep.Red, "; ")+".")
	}
	for _, n := range notes {
		fmt.Fprintf(b, "\n_%s_\n", md.Escape(n))
	}
}

// linesTable writes the sheet's lines as one aligned table, a block of rows per line: its name,
// then its opening balance, its debit and credit turnovers and its closing balance, each on its
// side (an expanded balance of 60, 62, 76 has both), zero figures left out. An account's
// sub-accounts follow its headline (which holds the account's own figures); a whole sheet lists
// every account, a breakdown its counterparties or contracts (the largest ShownTop, the rest in
// the export).
func (r Result) linesTable(b *strings.Builder) {
	rep := r.Report
	var lines []Row
	for _, row := range r.Rows {
		switch {
		case row.Sheet == nil:
		case rep.Detail != "" && row.Level == 0,
			rep.Detail == "" && r.Account == "" && row.Level == 0,
			rep.Detail == "" && r.Account != "" && (row.Level > 0 || len(r.Rows) == 1 && row.Account != r.Account):
			lines = append(lines, row)
		}
	}
	shown := lines
	if rep.Detail != "" && len(shown) > ShownTop {
		shown = shown[:ShownTop]
	}
	var cells [][2]string
	side := func(what string, debit, credit onec.Kopecks) {
		switch {
		case debit != 0 && credit != 0:
			cells = append(cells, [2]string{what + " Дт", amountCell(debit)}, [2]string{what + " Кт", amountCell(credit)})
		case credit != 0:
			cells = append(cells, [2]string{what + " Кт", amountCell(credit)})
		case debit != 0:
			cells = append(cells, [2]string{what + " Дт", amountCell(debit)})
		}
	}
	for _, row := range shown {
		label := strings.TrimSpace(row.Account + " " + row.Name)
		if rep.Detail != "" {
			label = row.Name
		}
		t := *row.Sheet
		cells = append(cells, [2]string{"**" + md.Escape(label) + "**", ""})
		side("· нач.", t.OpenDebit, t.OpenCredit)
		if t.Debit != 0 {
			cells = append(cells, [2]string{"· обороты Дт", amountCell(t.Debit)})
		}
		if t.Credit != 0 {
			cells = append(cells, [2]string{"· обороты Кт", amountCell(t.Credit)})
		}
		side("· кон.", t.CloseDebit, t.CloseCredit)
	}
	if len(cells) > 0 {
		head := "Счёт"
		switch rep.Detail {
		case recipe.DetailCounterparty:
			head = "Контрагент"
		case recipe.DetailContract:
			head = "Договор"
		}
		var t strings.Builder
		writeTable(&t, [2]string{head, "₽"}, cells)
		b.WriteString(strings.TrimPrefix(t.String(), "\n"))
	}
	if rest := len(lines) - len(shown); rest > 0 {
		fmt.Fprintf(b, "\n…и ещё %d — полностью в выгрузке в Excel.\n", rest)
	}
}

// turnoverTable writes a breakdown by the turnover the question asked, the largest first, as a
// table of its first ShownTop lines with the rest counted; lines with none of it are left out.
func (r Result) turnoverTable(b *strings.Builder) {
	side := func(row Row) onec.Kopecks {
		if r.Turnover == "debit" {
			return row.Sheet.Debit
		}
		return row.Sheet.Credit
	}
	var rows []Row
	for _, row := range r.Rows {
		if row.Sheet != nil && row.Level == 0 && side(row) != 0 {
			rows = append(rows, row)
		}
	}
	slices.SortStableFunc(rows, func(x, y Row) int { return cmp.Or(cmp.Compare(side(y), side(x)), cmp.Compare(x.Name, y.Name)) })
	head := "Оборот Кт, ₽"
	if r.Turnover == "debit" {
		head = "Оборот Дт, ₽"
	}
	cells := make([][2]string, 0, ShownTop)
	for _, row := range rows[:min(len(rows), ShownTop)] {
		cells = append(cells, [2]string{md.Escape(row.Name), amountCell(side(row))})
	}
	var t strings.Builder
	writeTable(&t, [2]string{"Контрагент", head}, cells)
	restLine(&t, len(rows)-len(cells))
	b.WriteString(strings.TrimPrefix(t.String(), "\n")) // the scope line ends with an empty one
}

// cardMarkdown writes the card: the opening balance, the postings with the running balance,
// the turnovers and the closing balance.
func (r Result) cardMarkdown(b *strings.Builder) {
	rep := r.Report
	rows := r.Rows[:min(len(r.Rows), ShownTop)] // the headline has the balances; the postings are in Excel
	if len(rows) > 0 {
		cells := make([][2]string, 0, len(rows))
		for _, row := range rows {
			cells = append(cells, r.postingCells(row))
		}
		writeTable(b, [2]string{"Проводка", "Дт+ Кт−, ₽"}, cells)
	}
	switch rest := r.Summary.Rows - len(rows); {
	case rest > 0:
		fmt.Fprintf(b, "\n…и ещё %s — полностью в выгрузке в Excel.\n", postingsWord(rest))
	case r.Summary.Rows == 0:
		b.WriteString("Проводок за период нет.\n")
		return
	}
	if rep.Quantities > 0 {
		// the items of a quantity account come and go in their own units: never added up here
		b.WriteString(md.Escape("\nКоличество — по каждой проводке, в единицах номенклатуры; остаток в количестве по позициям — «остаток по "+
			r.Account+" на дату».") + "\n")
	}
	if rep.Cut {
		fmt.Fprintf(b, "\nВ ответе 1С только первые %s: обороты и сальдо на конец — по ним.\n", md.Escape(postingsWord(rep.Postings)))
	}
}

// reportHeadline is a report's answer in one line: the card's or the sheet's balances and
// turnovers, the closing balance in bold.
func (r Result) reportHeadline() string {
	t := r.Report.Total
	esc := md.Escape
	if r.Intent == recipe.AccountCard && r.Turnover != "" && r.Party == "" {
		if head, ok := r.cardTurnoverHead(); ok {
			return head
		}
	}
	if r.Intent == recipe.AccountCard {
		what := "Счёт " + r.Account
		if r.Party != "" {
			what += " по " + r.Party
		}
		return fmt.Sprintf("%s %s: на начало %s; обороты Дт %s, Кт %s; на конец %s — %s.", esc(what), periodWords(r.From, r.To),
			esc(SideAmount(t.OpenNet())), esc(t.Debit.String()), esc(t.Credit.String()), bold(esc(SideAmount(t.CloseNet()))),
			esc(postingsWord(r.Report.Postings)))
	}
	if r.Turnover != "" && r.Account != "" && r.Party == "" && r.Contract == "" {
		// «выручка за март», «закупки за квартал»: the turnover asked, then the closing balance
		amount, side := t.Credit, "Кт"
		if r.Turnover == "debit" {
			amount, side = t.Debit, "Дт"
		}
		return fmt.Sprintf("%s %s: %s — оборот %s %s; на конец %s.", esc(turnoverName(r.Account, r.Turnover)), periodWords(r.From, r.To),
			bold(esc(amount.String())), side, esc(r.Account), esc(SideAmount(t.CloseNet())))
	}
	what := "ОСВ"
	switch {
	case r.Account != "":
		what = "Счёт " + r.Account
	case r.Party != "":
		what = "ОСВ по " + r.Party
	}
	if r.Account != "" && r.Party != "" {
		what += " по " + r.Party
	}
	if r.Contract != "" {
		what += ", " + r.Contract
	}
	switch r.Report.Detail {
	case recipe.DetailCounterparty:
		what += " по контрагентам"
	case recipe.DetailContract:
		what += " по договорам"
	}
	return fmt.Sprintf("%s %s: на начало Дт %s, Кт %s; обороты Дт %s, Кт %s; на конец %s.", esc(what), periodWords(r.From, r.To),
		esc(t.OpenDebit.String()), esc(t.OpenCredit.String()), esc(t.Debit.String()), esc(t.Credit.String()),
		bold(esc(fmt.Sprintf("Дт %s, Кт %s", t.CloseDebit, t.CloseCredit))))
}

// cardTurnoverHead is a card's opening line when the question asked one side of its turnover
// («сколько поступило на счёт с начала года»: the debit of 51; «платежи поставщикам за март»: its
// credit against 60): that sum in bold, the postings it counts, the other side and the closing
// balance. ok is false when the card was cut before the period's end (its postings do not hold
// the whole turnover against an account).
func (r Result) cardTurnoverHead() (string, bool) {
	t := r.Report.Total
	esc := md.Escape
	amount, n := t.Debit, 0
	if r.Turnover == "credit" {
		amount = t.Credit
	}
	if r.Corr != "" {
		if r.Report.Cut {
			return "", false
		}
		amount = 0
		for _, row := range r.All {
			if !strings.HasPrefix(row.Corr, r.Corr) {
				continue
			}
			if r.Turnover == "debit" && row.Debit != 0 {
				amount += row.Debit
				n++
			} else if r.Turnover == "credit" && row.Credit != 0 {
				amount += row.Credit
				n++
			}
		}
	} else {
		for _, row := range r.All {
			if r.Turnover == "debit" && row.Debit != 0 || r.Turnover == "credit" && row.Credit != 0 {
				n++
			}
		}
	}
	what := map[string]string{"debit": "Поступило на счёт ", "credit": "Списано со счёта "}[r.Turnover] + r.Account
	if name, ok := corrNames[r.Corr]; ok {
		what = map[string]string{"debit": "Поступило от ", "credit": "Перечислено "}[r.Turnover] + name + " (сч. " + r.Account + " — " + r.Corr + ")"
	}
	other := "списано " + t.Credit.String()
	if r.Turnover == "credit" {
		other = "поступило " + t.Debit.String()
	}
	return fmt.Sprintf("%s %s: %s — %s; всего за период %s; на конец %s.", esc(what), periodWords(r.From, r.To), bold(esc(amount.String())),
		esc(postingsWord(n)), esc(other), esc(SideAmount(t.CloseNet()))), true
}

// corrNames name the other side of a bank posting by its account.
var corrNames = map[string]string{"60": "поставщикам", "62": "покупателей", "68": "в бюджет", "70": "на зарплату", "71": "подотчётным лицам"}

// turnoverName names what an account's turnover of a period is: «Выручка с НДС» of 90.01,
// «Поставлено поставщиками (с НДС)» of 60.01's credit, «Расходы» of a cost account's debit.
func turnoverName(account, side string) string {
	switch {
	case strings.HasPrefix(account, "90.01"):
		return "Выручка с НДС"
	case strings.HasPrefix(account, "90.02"):
		return "Себестоимость продаж"
	case strings.HasPrefix(account, "90.03"):
		return "НДС с продаж"
	case strings.HasPrefix(account, "91.01"):
		return "Прочие доходы"
	case strings.HasPrefix(account, "91.02"):
		return "Прочие расходы"
	case strings.HasPrefix(account, "60") && side == "credit":
		return "Поставлено поставщиками (с НДС)"
	case strings.HasPrefix(account, "62") && side == "debit":
		return "Отгружено покупателям (с НДС)"
	case side == "debit":
		return "Расходы по счёту " + account
	}
	return "Оборот по счёту " + account
}

// postingCells are a posting of the card in a narrow table: its date, document and
// corresponding account («02.03.26 Вх. оплата 33 · 62.01»), and its amount, a debit plus and a
// credit minus.
func (r Result) postingCells(row Row) [2]string {
	doc := Row{Type: row.Type, Number: row.Number, Date: row.Date}
	what := docCell(doc) + md.Escape(" · "+row.Corr)
	if row.Qty != nil { // a quantity account: the item and what of it came or went
		what += md.Escape(" · " + strings.TrimSpace(row.Item+" "+signedQty(*row.Qty)))
	}
	var amounts []string
	if row.Debit != 0 {
		amounts = append(amounts, "+"+amountCell(row.Debit))
	}
	if row.Credit != 0 {
		amounts = append(amounts, "−"+amountCell(row.Credit))
	}
	return [2]string{what, strings.Join(amounts, " ")}
}

// reportTable is the Excel export of a report: every line of the sheet (sub-accounts
// included), every posting of the card.
func (r Result) reportTable(rows []Row) ([]string, [][]any) {
	var cells [][]any
	if r.Intent == recipe.AccountCard {
		header := []string{"Дата", "Документ", "Счёт", "Корр. счёт", "Контрагент", "Дебет, ₽", "Кредит, ₽", "Сальдо, ₽"}
		quantity := r.Report != nil && r.Report.Quantities > 0
		if quantity {
			header = append(header, "Номенклатура", "Количество", "Ед. изм.")
		}
		for _, x := range rows {
			line := []any{shortDate(x.Date), x.Name, x.Account, x.Corr, x.Party, x.Debit, x.Credit, x.Amount}
			if quantity {
				var q any = ""
				unit := ""
				if x.Qty != nil {
					q, unit = x.Qty.Value, x.Qty.Unit
				}
				line = append(line, x.Item, q, unit)
			}
			cells = append(cells, line)
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

// signedQty is a posting's quantity with its direction: «+100 пачк» in, «−20 пачк» out.
func signedQty(q Qty) string {
	if q.Value > 0 {
		return "+" + q.String()
	}
	return q.String() // «−» is the Russian form's own
}
