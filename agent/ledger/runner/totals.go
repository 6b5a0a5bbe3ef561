package runner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// Subtotal is one part of a result's totals, counted over every matched row, not only the
// rows shown: the documents of one type (for bank operations, one direction of money), or the
// open items of one settlement account.
type Subtotal struct {
	// Key is the document type («РеализацияТоваровУслуг») or the account («62»).
	Key string `json:"key"`
	// Name is the account's name in the chart of accounts (accounts only).
	Name string `json:"name,omitempty"`
	// Rows and Amount count and sum the posted documents of the type, or the open items of the
	// account (Amount is then their saldo, debit minus credit).
	Rows   int          `json:"rows"`
	Amount onec.Kopecks `json:"amount"`
	// Unposted and UnpostedAmount are the listed documents of the type that are not posted:
	// they moved nothing in the ledger, so they are not in Amount.
	Unposted       int          `json:"unposted,omitempty"`
	UnpostedAmount onec.Kopecks `json:"unposted_amount,omitempty"`
}

// typeSubtotals splits documents by type, in the order of recipe.DocumentTypes; unposted documents
// are counted apart.
func typeSubtotals(rows []Row) []Subtotal {
	by := map[string]*Subtotal{}
	for _, r := range rows {
		s := by[r.Type]
		if s == nil {
			s = &Subtotal{Key: r.Type}
			by[r.Type] = s
		}
		if r.Posted != nil && !*r.Posted {
			s.Unposted++
			s.UnpostedAmount += r.Amount
			continue
		}
		s.Rows++
		s.Amount += r.Amount
	}
	out := make([]Subtotal, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	order := func(t string) int {
		if i := slices.Index(recipe.DocumentTypes, t); i >= 0 {
			return i
		}
		return len(recipe.DocumentTypes)
	}
	slices.SortFunc(out, func(a, b Subtotal) int {
		return cmp.Or(cmp.Compare(order(a.Key), order(b.Key)), cmp.Compare(a.Key, b.Key))
	})
	return out
}

// accountSubtotals sums open items per settlement account (the row's Account), in account
// order; names are the chart's names by code.
func accountSubtotals(rows []Row, names map[string]string) []Subtotal {
	by := map[string]*Subtotal{}
	for _, r := range rows {
		s := by[r.Account]
		if s == nil {
			s = &Subtotal{Key: r.Account, Name: names[r.Account]}
			by[r.Account] = s
		}
		s.Rows++
		s.Amount += r.Amount
	}
	out := make([]Subtotal, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b Subtotal) int { return cmp.Compare(a.Key, b.Key) })
	return out
}

// owing is who owes whom by a settlement saldo (debit minus credit): on 62 a debit saldo is the
// customer's debt and a credit one an advance received; on 60 a credit saldo is our debt and a
// debit one an advance we paid; any other account has a debit or a credit saldo.
type owing int

const (
	owingNone owing = iota // a zero saldo
	owingToUs
	owingAdvanceIn
	owingByUs
	owingAdvanceOut
	owingDebit
	owingCredit
)

// owingOf reads a saldo of account.
func owingOf(account string, saldo onec.Kopecks) owing {
	root, _, _ := strings.Cut(account, ".")
	switch {
	case saldo == 0:
		return owingNone
	case root == "62" && saldo > 0:
		return owingToUs
	case root == "62":
		return owingAdvanceIn
	case root == "60" && saldo < 0:
		return owingByUs
	case root == "60":
		return owingAdvanceOut
	case saldo > 0:
		return owingDebit
	}
	return owingCredit
}

// saldoWords are how owingOf's readings are said before the amount.
var saldoWords = [...]string{owingNone: "сальдо", owingToUs: "нам должны", owingAdvanceIn: "аванс получен",
	owingByUs: "мы должны", owingAdvanceOut: "аванс выдан", owingDebit: "дебетовое сальдо", owingCredit: "кредитовое сальдо"}

// saldoMeaning says who owes whom for a saldo on a settlement account (owingOf): «мы должны
// 1 234,00 ₽».
func saldoMeaning(account string, saldo onec.Kopecks) string {
	return saldoWords[owingOf(account, saldo)] + " " + max(saldo, -saldo).String()
}

// documentsTotal is the count of a document list and the sum of its posted documents; per
// type when several types are listed, as a sale and a payment added together would be a figure
// of nothing.
func documentsTotal(all int, subs []Subtotal) string {
	posted, unposted := 0, 0
	for _, s := range subs {
		posted += s.Rows
		unposted += s.Unposted
	}
	line := countLine(all, unposted)
	switch {
	case posted == 0:
		return line + "\nПроведённых среди них нет, поэтому суммы нет."
	case len(subs) == 1:
		return line + fmt.Sprintf("\nСумма проведённых: **%s**.", subs[0].Amount)
	}
	var parts []string
	for _, s := range subs {
		if s.Rows > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d на **%s**", typeName(s.Key), s.Rows, s.Amount))
		}
	}
	return line + "\nСумма проведённых по видам — " + strings.Join(parts, "; ") + "."
}

// bankOpsTotal is the count of a bank-operations list and, per direction of money, how many
// posted operations moved how much. Unposted ones moved nothing: they are said apart.
func bankOpsTotal(all int, subs []Subtotal) string {
	unposted := 0
	for _, s := range subs {
		unposted += s.Unposted
	}
	line := countLine(all, unposted)
	directions := []struct{ typ, moved, unposted string }{
		{"ПоступлениеНаРасчетныйСчет", "поступило от контрагента", "поступления"},
		{"СписаниеСРасчетногоСчета", "списано контрагенту", "списания"},
	}
	var moved, pending []string
	for _, d := range directions {
		i := slices.IndexFunc(subs, func(s Subtotal) bool { return s.Key == d.typ })
		if i < 0 {
			continue
		}
		s := subs[i]
		if s.Rows > 0 {
			n := fmt.Sprint(s.Rows)
			if len(moved) == 0 {
				n += " " + ru.Plural(s.Rows, "проведённая операция", "проведённые операции", "проведённых операций")
			}
			moved = append(moved, fmt.Sprintf("%s: %s на %s", d.moved, n, s.Amount))
		}
		if s.Unposted > 0 {
			pending = append(pending, fmt.Sprintf("%s — %d на %s", d.unposted, s.Unposted, s.UnpostedAmount))
		}
	}
	if len(moved) == 0 {
		line += "\nПроведённых операций нет."
	} else {
		line += "\n**" + upperFirst(strings.Join(moved, "; ")) + ".**"
	}
	if len(pending) > 0 {
		line += "\nНе проведены и в суммы не вошли: " + strings.Join(pending, "; ") + "."
	}
	return line
}

// countLine counts the listed documents and, when some are not posted, how many.
func countLine(all, unposted int) string {
	line := fmt.Sprintf("**Всего: %d %s.**", all, ru.Plural(all, "документ", "документа", "документов"))
	if unposted > 0 {
		line += fmt.Sprintf(" Проведено: %d, не проведено: %d.", all-unposted, unposted)
	}
	return line
}

func upperFirst(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}

// contractLabel names a contract as the header of an answer says it: its name, with the number
// and date when the name lacks them, and the counterparty it is with.
func (r Result) contractLabel() string {
	label := r.Contract
	if r.ContractNumber != "" && !strings.Contains(label, r.ContractNumber) {
		label += " № " + r.ContractNumber
	}
	if d := r.ContractDate; d != "" && !strings.HasPrefix(d, "0001-") {
		if day := shortDate(d); !strings.Contains(label, day) {
			label += " от " + day
		}
	}
	if r.ContractParty != "" {
		label += " с " + r.ContractParty
	}
	return label
}

// bpSplit is a counterparty's netted balance as BP's reports split it, per account and contract.
func bpSplit(row Row, payables bool) string {
	if payables {
		return fmt.Sprintf("наш долг %s, выданные авансы %s", row.Debt, row.Advance)
	}
	return fmt.Sprintf("долг %s, полученные авансы %s", row.Debt, row.Advance)
}

// splitNote says what the figures in brackets are, once, when a row carries BP's split.
func splitNote(rows []Row, payables bool) string {
	for _, r := range rows {
		if r.Advance != 0 {
			report, adv := "«Задолженность покупателей»", "полученные"
			if payables {
				report, adv = "«Задолженность поставщикам»", "выданные"
			}
			return fmt.Sprintf("Сумма — сальдо расчётов с контрагентом по всем его договорам; долг и авансы — как в отчёте БП %s: долг и %s авансы по счетам и договорам раздельно.", report, adv)
		}
	}
	return ""
}

// maxHiddenNamed bounds the counterparties a hidden-debt note names.
const maxHiddenNamed = 5

// hiddenDebtNote names the counterparties left out of a netted list whose advances on some
// contracts cover their debt on others: BP's report shows that debt, so the answer says so.
func hiddenDebtNote(hidden []Row, payables bool) string {
	if len(hidden) == 0 {
		return ""
	}
	var parts []string
	for _, h := range hidden[:min(len(hidden), maxHiddenNamed)] {
		parts = append(parts, h.Name+" — "+bpSplit(h, payables)) // a note is plain text, escaped where it is rendered
	}
	more := ""
	if n := len(hidden) - maxHiddenNamed; n > 0 {
		more = fmt.Sprintf(" и ещё %d", n)
	}
	what := "долг по одним договорам покрыт полученными авансами по другим"
	if payables {
		what = "наш долг по одним договорам покрыт выданными авансами по другим"
	}
	return fmt.Sprintf("Не в списке, потому что %s (в отчёте БП долг виден отдельно): %s%s.", what, strings.Join(parts, "; "), more)
}

// splitTotal is the list's total as BP's report splits it, « (долг …, авансы …)», when some
// row carries the split; "" otherwise.
func (r Result) splitTotal() string {
	var debt, advance onec.Kopecks
	for _, row := range r.All {
		if row.Advance == 0 {
			debt += row.Amount
			continue
		}
		debt += row.Debt
		advance += row.Advance
	}
	if advance == 0 {
		return ""
	}
	return fmt.Sprintf(" (долг %s, авансы %s)", debt, advance)
}

// noDocumentsType marks an open item that is a contract, on an account whose settlements the
// base does not keep per document.
const noDocumentsType = "БезДокументовРасчетов"

// noDocumentsNote says that some open items are contracts, not documents, and why.
func noDocumentsNote(rows []Row) string {
	var accounts []string
	for _, r := range rows {
		if r.Type == noDocumentsType && !slices.Contains(accounts, r.Account) {
			accounts = append(accounts, r.Account)
		}
	}
	if len(accounts) == 0 {
		return ""
	}
	return fmt.Sprintf("На счёте %s в базе не ведётся учёт по документам расчётов: открытые позиции показаны по договорам.", strings.Join(accounts, ", "))
}
