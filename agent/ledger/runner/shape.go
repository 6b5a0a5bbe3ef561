package runner

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// An answer's shape on a phone: the opening line answers the question as asked — the figure,
// the date, the party — then one short line of scope, the notes that change how a figure
// reads, a table of the first rows (the rest counted, the full list in Excel) and the details
// of the total. Bold is only on the figure asked for.

// ShownTop is how many rows an answer's table shows; the rest are counted, and exported.
const ShownTop = 5

// Shown is how many of the matched rows the answer shows.
func (r Result) Shown() int {
	_, shaped := shapes[r.Intent]
	if r.Report == nil && (shaped || r.Aging != nil || r.isStock()) || r.Report != nil && (r.Intent == recipe.AccountCard || r.Report.Detail != "") {
		return min(len(r.Rows), ShownTop)
	}
	return len(r.Rows)
}

// shape is how one recipe's answer is laid out: the table's columns and a row's cells.
type shape struct {
	// columns are the table's headers: what a row is, and its figure.
	columns [2]string
	// cells are a row's two cells, as written (Markdown-escaped).
	cells func(r Result, row Row) [2]string
}

// shapes are the answer kinds laid out answer-first; a recipe not here keeps the list layout.
var shapes = map[recipe.Name]shape{
	recipe.Receivables:          {columns: [2]string{"Контрагент", "Сумма, ₽"}, cells: partyCells},
	recipe.Payables:             {columns: [2]string{"Контрагент", "Сумма, ₽"}, cells: partyCells},
	recipe.OpenItemsByParty:     {columns: [2]string{"Документ", "Остаток, ₽"}, cells: openCells},
	recipe.OpenItemsByContract:  {columns: [2]string{"Документ", "Остаток, ₽"}, cells: openCells},
	recipe.DocumentsFormBalance: {columns: [2]string{"Документ", "Остаток, ₽"}, cells: openCells},
	recipe.DocumentsByParty:     {columns: [2]string{"Документ", "Сумма, ₽"}, cells: postedCells},
	recipe.DocumentsByContract:  {columns: [2]string{"Документ", "Сумма, ₽"}, cells: postedCells},
	recipe.BankOpsByParty:       {columns: [2]string{"Операция", "Сумма, ₽"}, cells: postedCells},
	recipe.OpenContracts: {columns: [2]string{"Договор", "Сальдо, ₽"},
		cells: func(r Result, row Row) [2]string {
			return [2]string{md.Escape(withCurrency(row.Name+" — "+row.Party, row)), amountCell(row.Amount)}
		}},
	recipe.AccountBalance: {columns: [2]string{"Счёт", "Сальдо, ₽"},
		cells: func(r Result, row Row) [2]string {
			return [2]string{md.Escape(withCurrency(strings.TrimSpace(row.Account+" "+row.Name), row)), amountCell(row.Amount)}
		}},
}

// partyCells are a counterparty and its balance, its balances in foreign currency after its
// name («Global Trade LLC (600,00 USD)»): the column is roubles.
func partyCells(r Result, row Row) [2]string {
	return [2]string{md.Escape(withCurrency(row.Name, row)), amountCell(row.Amount)}
}

// openCells are an open document and what of it is open (in its currency too); postedCells a
// document and its sum.
func openCells(r Result, row Row) [2]string {
	cell := docCell(row)
	if len(row.Currencies) > 0 {
		cell += md.Escape(" (" + currencyText(row.Currencies) + ")")
	}
	return [2]string{cell, amountCell(row.Amount)}
}
func postedCells(r Result, row Row) [2]string { return [2]string{docCell(row), postedCell(row)} }

// writeTable writes a two-column table (Markdown; the bot fits it to a phone): a text column
// and a right-aligned figure.
func writeTable(b *strings.Builder, head [2]string, rows [][2]string) {
	fmt.Fprintf(b, "\n| %s | %s |\n|:--|--:|\n", head[0], head[1])
	for _, c := range rows {
		fmt.Fprintf(b, "| %s | %s |\n", c[0], c[1])
	}
}

// restLine counts the rows an answer does not show, which its export holds.
func restLine(b *strings.Builder, rest int) {
	if rest > 0 {
		fmt.Fprintf(b, "\n…и ещё %d — полный список кнопкой «Выгрузить в Excel».\n", rest)
	}
}

// amountCell is an amount in a table, without the currency its header names.
func amountCell(k onec.Kopecks) string {
	return strings.TrimSuffix(ru.Money(int64(k)), "\u00a0₽")
}

// postedCell is a document's amount, marked when the document is not posted (it moved nothing).
func postedCell(row Row) string {
	if row.Posted != nil && !*row.Posted {
		return amountCell(row.Amount) + " (не пров.)"
	}
	return amountCell(row.Amount)
}

// shortTypeNames are the document types as a narrow table says them: BP's own abbreviations
// for goods and services, the direction of money for bank documents.
var shortTypeNames = map[string]string{
	"ПоступлениеНаРасчетныйСчет": "Вх. оплата",
	"СписаниеСРасчетногоСчета":   "Исх. оплата",
	"РеализацияТоваровУслуг":     "РТиУ",
	"ПоступлениеТоваровУслуг":    "ПТиУ",
	"АктСверкиВзаиморасчетов":    "Акт сверки",
	"ВводНачальныхОстатков":      "Ввод остатков",
	"ПриходныйКассовыйОрдер":     "ПКО",
	"РасходныйКассовыйОрдер":     "РКО",
	"ВозвратТоваровОтПокупателя": "Возврат от пок.",
	"ВозвратТоваровПоставщику":   "Возврат пост.",
	"КорректировкаРеализации":    "Корр. реал.",
	"КорректировкаПоступления":   "Корр. пост.",
	"КорректировкаДолга":         "Корр. долга",
	"СчетФактураВыданный":        "СФ выд.",
	"СчетФактураПолученный":      "СФ получ.",
}

// prefixedNumber is a 1C document number with its prefix and leading zeros («СВ00-000042»).
var prefixedNumber = regexp.MustCompile(`^[\p{L}\d]{0,6}-0*(\d+)$`)

// docCell names a document in a table: its date, kind and number («18.03.26 ПТиУ 42», the
// number without the prefix the whole base shares); a contract when the base keeps no
// settlement documents.
func docCell(row Row) string {
	if row.Type == noDocumentsType {
		if row.Deal == "" {
			return "Без договора"
		}
		return md.Escape(row.Deal)
	}
	kind, ok := shortTypeNames[row.Type]
	if !ok {
		kind = typeName(row.Type)
	}
	number := row.Number
	if m := prefixedNumber.FindStringSubmatch(number); m != nil {
		number = m[1]
	}
	cell := kind + " " + number
	if d := shortDate(row.Date); len(d) == len("02.01.2006") {
		cell = d[:6] + d[8:] + " " + cell
	}
	return md.Escape(cell)
}

// answerFirst lays r out answer-first; ok is false for a recipe without a shape.
func (r Result) answerFirst(mark string) (string, bool) {
	sh, ok := shapes[r.Intent]
	if !ok {
		return "", false
	}
	head, details := r.headline()
	if head == "" {
		return "", false
	}
	if mark != "" {
		head += " " + mark
	}
	var b strings.Builder
	b.WriteString(head + "\n")
	fmt.Fprintf(&b, "_%s_\n", md.Escape(r.shortScope()))
	split := splitNote(r.All, r.Intent == recipe.Payables) // said shortly with the total, after the table
	for _, n := range append(r.Notes, r.Limitations...) {
		if n != split {
			b.WriteString("\n" + md.Escape(n) + "\n")
		}
	}
	rows := r.Rows[:min(len(r.Rows), ShownTop)]
	if len(rows) == 1 && (r.Intent == recipe.AccountBalance || r.asksTop()) {
		rows = nil // the headline is the row
	}
	if subs := r.Summary.Subtotals; len(subs) > 1 && r.byAccount() {
		// Open items on two settlement accounts: a table each, so no row is read as the other
		// side's.
		shown := 0
		for _, sub := range subs {
			var cells [][2]string
			for _, row := range r.All {
				if row.Account == sub.Key && len(cells) < ShownTop {
					cells = append(cells, sh.cells(r, row))
				}
			}
			shown += len(cells)
			writeTable(&b, [2]string{"Счёт " + md.Escape(sub.Key) + ": " + strings.ToLower(sh.columns[0]), sh.columns[1]}, cells)
		}
		restLine(&b, r.Summary.Rows-shown)
		rows = nil
	}
	if len(rows) > 0 {
		// Open items of one side whose saldo is a credit one (our debt on 60): the amounts as the
		// headline says them, an advance against it negative.
		flip := len(r.Summary.Subtotals) <= 1 && r.Summary.TotalAmount < 0 && r.Intent != recipe.AccountBalance && r.Intent != recipe.OpenContracts
		cells := make([][2]string, 0, len(rows))
		for _, row := range rows {
			if flip {
				row.Amount, row.Currencies = -row.Amount, negated(row.Currencies)
			}
			cells = append(cells, sh.cells(r, row))
		}
		writeTable(&b, sh.columns, cells)
		restLine(&b, r.Summary.Rows-len(rows))
	}
	if r.Intent == recipe.AccountBalance {
		r.stockSection(&b) // a quantity account's items: stock_compose.go
	}
	if details != "" {
		b.WriteString("\n" + strings.ReplaceAll(details, "**", "")) // bold is the headline's
	}
	return strings.TrimSpace(b.String()), true
}

// asksTop: the question asks who owes most («самый крупный должник», «топ 5 кредиторов»).
func (r Result) asksTop() bool {
	return len(r.Rows) > 0 && (r.Filters.Sort == "amount_desc" || r.Filters.Limit > 0 && r.Filters.Limit <= ShownTop)
}

// byAccount: the subtotals are settlement accounts (open items), not document kinds.
func (r Result) byAccount() bool {
	switch r.Intent {
	case recipe.OpenItemsByParty, recipe.OpenItemsByContract, recipe.DocumentsFormBalance:
		return true
	}
	return false
}

// shortScope is the figures' scope in one short line: organization, account, source.
func (r Result) shortScope() string {
	parts := []string{r.Organization}
	if r.OrgDefaulted {
		parts[0] += " (основная)"
	}
	if d := r.divisionsNote(); d != "" {
		parts[0] += ", " + d
	}
	if r.BankAccount != "" {
		parts = append(parts, "р/с "+r.BankAccount)
	}
	if r.Account != "" {
		parts = append(parts, "сч. "+r.Account)
	}
	if base := baseName(r.Source); base != "" {
		parts = append(parts, "1С: "+base)
	}
	return strings.Join(parts, " · ")
}

// when is the answer's date or period as its headline says it.
func (r Result) when() string {
	switch {
	case !r.AsOf.IsZero():
		return "на " + ruDay(r.AsOf)
	case !r.From.IsZero() && !r.To.IsZero():
		return fmt.Sprintf("за %s – %s", ruDay(r.From), ruDay(r.To))
	}
	return "за всё время"
}

// debtSides are the words of the two debts lists' headlines: who owes, who owes most, BP's report
// whose split of debt and advances the details follow, and the parties counted.
var debtSides = map[recipe.Name]struct {
	total, most, report string
	parties             [3]string
	from                string // before the count: «от 15 контрагентов»
}{
	recipe.Receivables: {"Нам должны", "Больше всех нам должен", "«Задолженность покупателей»", [3]string{"контрагент", "контрагента", "контрагентов"}, ""},
	recipe.Payables:    {"Мы должны", "Больше всех мы должны", "«Задолженность поставщикам»", [3]string{"контрагенту", "контрагентам", "контрагентам"}, ""},
}

// bold is a figure the question asked for.
func bold(s string) string { return "**" + s + "**" }

// headline is the opening line that answers the question, and the details of the total said
// after the table; head is "" when the recipe has no headline.
func (r Result) headline() (head, details string) {
	n := r.Summary.Rows
	switch r.Intent {
	case recipe.Receivables, recipe.Payables:
		side := debtSides[r.Intent]
		switch {
		case strings.HasPrefix(r.Account, "60.02"), strings.HasPrefix(r.Account, "76.АВ"):
			// the suppliers owe us what the advances paid for: said as advances, not as a debt
			side.total, side.most = "Выдано авансов", "Больше всего аванса выдано"
			side.parties = [3]string{"контрагенту", "контрагентам", "контрагентам"}
		case strings.HasPrefix(r.Account, "62.02"), strings.HasPrefix(r.Account, "76.ВА"):
			side.total, side.most = "Получено авансов", "Больше всего аванса получено от"
			side.parties = [3]string{"контрагента", "контрагентов", "контрагентов"}
			side.from = "от "
		}
		parties := ru.Plural(n, side.parties[0], side.parties[1], side.parties[2])
		head = fmt.Sprintf("%s %s %s — %s%d %s.", side.total, bold(r.Summary.TotalAmount.String()), r.when(), side.from, n, parties)
		if r.AtLeast > 0 && r.Everyone != nil {
			// «кто нам должен больше миллиона»: those, their total, and the whole list's
			all := r.Everyone.Rows
			head = fmt.Sprintf("%s от %s — %s%d %s: %s %s; весь список — %s%d %s на %s.", side.total, r.AtLeast, side.from, n, parties,
				bold(r.Summary.TotalAmount.String()), r.when(), side.from, all, ru.Plural(all, side.parties[0], side.parties[1], side.parties[2]),
				r.Everyone.TotalAmount)
		}
		if r.asksTop() && r.AtLeast == 0 {
			top := r.Rows[0]
			head = fmt.Sprintf("%s %s: %s %s; всего %s%d %s — %s.", side.most, md.Escape(top.Name), bold(top.Amount.String()), r.when(),
				side.from, n, parties, r.Summary.TotalAmount)
		}
		if s := strings.Trim(r.splitTotal(), " ()"); s != "" {
			details = "Суммы — сальдо по всем договорам контрагента; как в отчёте БП " + side.report + ": " + s + "."
		}
		details = joinDetails(details, currencyLine(r.All, false, false))
	case recipe.OpenItemsByParty, recipe.OpenItemsByContract:
		who := md.Escape(r.Party)
		if r.Intent == recipe.OpenItemsByContract && r.Contract != "" {
			who = md.Escape(r.contractLabel())
			if r.ContractParty != "" {
				// «долг ООО «Альфа» перед нами по договору поставки № П-77/2024 от 06.02.2024 …»
				c := r.ContractParty
				r.ContractParty = ""
				who = md.Escape(c) + " по " + md.Escape(contractDative(r.contractLabel()))
			}
		}
		head = r.openItemsHead(who)
		// one side's credit saldo is told as a debt (answerFirst flips its rows): its currency too
		details = currencyLine(r.All, false, len(r.Summary.Subtotals) <= 1 && r.Summary.TotalAmount < 0)
	case recipe.DocumentsFormBalance:
		head = fmt.Sprintf("Остаток %s %s складывается из %d %s.", bold(r.Summary.TotalAmount.String()), r.when(), n,
			ru.Plural(n, "документа", "документов", "документов"))
		details = currencyLine(r.All, false, false)
	case recipe.OpenContracts:
		var dr, cr onec.Kopecks
		for _, row := range r.All {
			if row.Amount > 0 {
				dr += row.Amount
			} else {
				cr -= row.Amount
			}
		}
		head = fmt.Sprintf("Незакрытых договоров %s: %d — дебетовое сальдо %s, кредитовое %s.", r.when(), n, bold(dr.String()), bold(cr.String()))
		details = currencyLine(r.All, true, false)
	case recipe.AccountBalance:
		if len(r.Rows) != 1 {
			// several accounts' balances: the table is the answer
			head = fmt.Sprintf("Остатки по счетам %s — %d %s.", r.when(), len(r.Rows), ru.Plural(len(r.Rows), "счёт", "счёта", "счетов"))
			return head, ""
		}
		row := r.Rows[0]
		head = fmt.Sprintf("Остаток по счёту %s %s: %s.", md.Escape(row.Account), r.when(), saldoSide(row.Amount))
		if row.Debit != 0 && row.Credit != 0 {
			// a settlement account's saldo expanded by counterparty: its debts and advances apart
			head = fmt.Sprintf("Остаток по счёту %s %s: дебет %s, кредит %s (по контрагентам); свёрнуто — %s.", md.Escape(row.Account), r.when(),
				bold(row.Debit.String()), bold(row.Credit.String()), SideAmount(row.Amount))
		}
		if row.Debt != 0 || row.Advance != 0 {
			details = fmt.Sprintf("По субсчетам и договорам, как в ОСВ: дебет %s, кредит %s.", row.Debt, row.Advance)
		}
		if row.Count > 0 {
			// counted in 1C with the balance, per counterparty: the documents behind it, as
			// «расшифруй остаток» would list them
			details = strings.TrimSpace(details + " " + fmt.Sprintf("Открытых документов расчётов: %d.", row.Count))
		}
		details = joinDetails(details, currencyLine(r.Rows, true, false))
	case recipe.DocumentsByParty, recipe.DocumentsByContract:
		what := "Документы"
		if k, ok := documentKindTitles[r.Filters.DocumentType]; ok {
			what = k
		}
		of := md.Escape(r.Party)
		if r.Intent == recipe.DocumentsByContract && r.Contract != "" {
			of = md.Escape(r.contractLabel())
		}
		head = fmt.Sprintf("%s %s %s: %d", what, of, r.when(), n)
		var kinds []string
		for _, sub := range r.Summary.Subtotals {
			if sub.Rows > 0 {
				kinds = append(kinds, fmt.Sprintf("%s: %d на %s", strings.ToLower(typeName(sub.Key)), sub.Rows, bold(sub.Amount.String())))
			}
		}
		details = withoutCount(documentsTotal(n, r.Summary.Subtotals), n)
		switch {
		case len(kinds) == 1:
			head += " на " + bold(r.Summary.Subtotals[slices.IndexFunc(r.Summary.Subtotals, func(s Subtotal) bool { return s.Rows > 0 })].Amount.String())
		case len(kinds) > 1 && len(kinds) <= 3:
			head += " — " + strings.Join(kinds, ", ") // a sale and a payment added would be a figure of nothing
			if !slices.ContainsFunc(r.Summary.Subtotals, func(s Subtotal) bool { return s.Unposted > 0 }) {
				details = "" // the headline said the sums by kind
			}
		}
		head += "."
	case recipe.BankOpsByParty:
		head = fmt.Sprintf("Банковские операции %s %s: %s.", md.Escape(r.Party), r.when(), bankMoved(r.Summary.Subtotals))
		if flow, ok := r.flowFirst(); ok {
			head = flow
		}
		if last, ok := r.lastOperation(); ok {
			head = last + " " + head
		}
		details = withoutCount(bankOpsTotal(n, r.Summary.Subtotals), n)
	}
	return head, details
}

// flowFirst is the headline of a company's bank operations when the question asked one
// direction («сколько заплатили вектору в марте»): that direction's posted sum first — zero said
// as zero — then the other's, so «поступило 1 056 147,99» never stands for what we paid.
func (r Result) flowFirst() (string, bool) {
	if r.Flow != "in" && r.Flow != "out" || r.Last != "" {
		return "", false
	}
	sum := func(typ string) (string, bool) {
		for _, s := range r.Summary.Subtotals {
			if s.Key == typ && s.Rows > 0 {
				return s.Amount.String(), true
			}
		}
		return "", false
	}
	// each direction as the asked one (its sum, or none) and as the other (said after)
	dirs := map[string]struct{ key, moved, none, after string }{
		"out": {"СписаниеСРасчетногоСчета", "Списано %s %s: %s.", "Платежей %s %s нет: проведённых списаний ему не было.", " Списано ему — "},
		"in":  {"ПоступлениеНаРасчетныйСчет", "Поступило от %s %s: %s.", "Поступлений от %s %s нет: проведённых не было.", " Поступило от него — "},
	}
	asked, other := dirs[r.Flow], dirs[map[string]string{"in": "out", "out": "in"}[r.Flow]]
	party := md.Escape(r.Party)
	head := fmt.Sprintf(asked.none, party, r.when())
	if v, ok := sum(asked.key); ok {
		head = fmt.Sprintf(asked.moved, party, r.when(), bold(v))
	}
	if v, ok := sum(other.key); ok {
		head += other.after + bold(v) + "."
	}
	return head, true
}

// lastOperation is the opening of an answer to «когда вектор последний раз платил»: the latest
// posted operation of the direction asked (received for "in", sent for "out", either for "any")
// — its amount, date and document; ok is false when the question did not ask or none is there.
func (r Result) lastOperation() (string, bool) {
	if r.Last == "" {
		return "", false
	}
	want := map[string]string{"in": "ПоступлениеНаРасчетныйСчет", "out": "СписаниеСРасчетногоСчета"}[r.Last]
	var latest *Row
	for i := range r.All {
		row := &r.All[i]
		if row.Posted != nil && !*row.Posted || want != "" && row.Type != want {
			continue
		}
		if latest == nil || row.Date > latest.Date {
			latest = row
		}
	}
	if latest == nil {
		return "", false
	}
	what := "Последняя операция"
	switch latest.Type {
	case "ПоступлениеНаРасчетныйСчет":
		what = "Последний платёж от " + r.Party
	case "СписаниеСРасчетногоСчета":
		what = "Последний платёж " + r.Party + " от нас"
	}
	return fmt.Sprintf("%s: %s — %s (%s).", md.Escape(what), bold(latest.Amount.String()), shortDate(latest.Date),
		md.Escape(strings.TrimSpace(typeName(latest.Type)+" № "+latest.Number))), true
}

// openItemsHead says who owes whom on the open items of a counterparty or a contract: by
// settlement account when there are several.
func (r Result) openItemsHead(who string) string {
	subs := r.Summary.Subtotals
	n := r.Summary.Rows
	docs := fmt.Sprintf("%d %s", n, ru.Plural(n, "документ", "документа", "документов"))
	if len(subs) <= 1 {
		account := r.Account
		if len(subs) == 1 {
			account = subs[0].Key
		}
		head := fmt.Sprintf("%s %s — %s.", upperFirst(owes(account, r.Summary.TotalAmount, who)), r.when(), docs)
		if other := otherSide(r.Flow, owingOf(account, r.Summary.TotalAmount)); other != "" && r.Intent == recipe.OpenItemsByParty {
			// «сколько мы должны альфе» and Альфа owes us: the side asked is zero, said first
			first, size := utf8.DecodeRuneInString(head)
			return fmt.Sprintf(other, who, r.when()) + " " + string(unicode.ToLower(first)) + head[size:]
		}
		return head
	}
	parts := make([]string, 0, len(subs))
	for _, s := range subs {
		parts = append(parts, fmt.Sprintf("%s (сч. %s)", owes(s.Key, s.Amount, ""), md.Escape(s.Key)))
	}
	return fmt.Sprintf("%s %s: %s — %s.", who, r.when(), strings.Join(parts, "; "), docs)
}

// otherSide is the sentence (a format of who and when) that says the side of a debt asked
// (Decision.Flow) is nil because the saldo w is the other's: "" when it is the one asked, or
// none was.
func otherSide(flow string, w owing) string {
	switch {
	case flow == "out" && (w == owingToUs || w == owingAdvanceOut):
		return "Нашего долга перед %s %s нет — наоборот,"
	case flow == "in" && (w == owingByUs || w == owingAdvanceIn):
		return "Долга %s перед нами %s нет — наоборот,"
	}
	return ""
}

// owes says a settlement saldo as who owes whom (owingOf), with the figure in bold and the
// counterparty who where the phrase has it («мы должны ООО «ПромПоставка» **…**»; who may be "").
func owes(account string, saldo onec.Kopecks, who string) string {
	abs := bold(max(saldo, -saldo).String())
	w := owingOf(account, saldo)
	switch {
	case w == owingNone && who == "":
		return "расчёты закрыты: сальдо " + abs
	case w == owingNone:
		return "расчёты " + who + " закрыты: сальдо " + abs
	case who == "":
		return saldoWords[w] + " " + abs
	case w == owingToUs:
		return "долг " + who + " перед нами " + abs
	case w == owingAdvanceIn:
		return "аванс получен от " + who + " " + abs
	}
	return saldoWords[w] + " " + who + " " + abs
}

// saldoSide is a saldo with its side: «1 234,00 ₽ (дебет)».
func saldoSide(k onec.Kopecks) string {
	switch {
	case k > 0:
		return bold(k.String()) + " (дебет)"
	case k < 0:
		return bold((-k).String()) + " (кредит)"
	}
	return bold(k.String())
}

// bankMoved is what the posted bank operations moved, by direction, the figures in bold.
func bankMoved(subs []Subtotal) string {
	var parts []string
	for _, d := range []struct{ typ, moved string }{
		{"ПоступлениеНаРасчетныйСчет", "поступило"}, {"СписаниеСРасчетногоСчета", "списано"},
	} {
		for _, s := range subs {
			if s.Key == d.typ && s.Rows > 0 {
				parts = append(parts, d.moved+" "+bold(s.Amount.String()))
			}
		}
	}
	if len(parts) == 0 {
		return "проведённых нет"
	}
	return strings.Join(parts, ", ")
}

// withoutCount is a total's details without its first line when that line only counts the
// documents the headline has counted.
func withoutCount(details string, n int) string {
	first, rest, _ := strings.Cut(details, "\n")
	if first == countLine(n, 0) {
		return rest
	}
	return details
}

// contractDative is a contract's label after «по»: «Договор поставки № 5» — «договору поставки
// № 5»; a label that does not open with «Договор» is «договору «…»».
func contractDative(label string) string {
	for _, w := range []string{"Договор ", "договор "} {
		if rest, ok := strings.CutPrefix(label, w); ok {
			return "договору " + rest
		}
	}
	return "договору «" + label + "»"
}

// When is the answer's date or period as its headline says it («на 31.03.2026»).
func (r Result) When() string { return r.when() }

// writeLead writes an answer's first lines: the headline (with its footnote mark), the scope in
// italics, then the result's notes and limitations, each a paragraph.
func (r Result) writeLead(b *strings.Builder, head, mark string) {
	if mark != "" {
		head += " " + mark
	}
	b.WriteString(head + "\n")
	fmt.Fprintf(b, "_%s_\n", md.Escape(r.shortScope()))
	for _, n := range append(r.Notes, r.Limitations...) {
		b.WriteString("\n" + md.Escape(n) + "\n")
	}
}
