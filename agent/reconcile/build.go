package reconcile

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The act «по данным организации» made from the rows of the whitelisted templates
// address.reconciliation.balances and address.reconciliation.lines (integrations/onec,
// queries_reconcile.go): 1C computes every figure; here they are only laid out as BP 3.0's act
// lays them out — each line one registrar with its date, its kind and its number as BP prints
// it, the balances net.

// Heading is what an act is about: both sides, the contract (if one), the period.
type Heading struct {
	Ours, Theirs Party
	Contract     string
	From, To     time.Time
}

// Build is the act of the heading from the templates' rows: totals is the balances template's
// one row (its Opening and Closing; its turnovers count the offsets inside the act and are not
// the act's), rows the lines template's, in its order.
func Build(h Heading, totals onec.CardTotalsRow, rows []onec.ReconciliationRow) Act {
	a := Act{Ours: h.Ours, Theirs: h.Theirs, Contract: h.Contract, From: day(h.From), To: day(h.To),
		Opening: totals.Opening, Closing: totals.Closing}
	for _, r := range rows {
		a.Lines = append(a.Lines, lineOf(r))
	}
	return a
}

// lineOf is a row as BP's act prints it (РеквизитыДокумента): a document with an incoming number
// (a supplier's invoice, a payment order) under that number and, when it has one, its incoming
// date — the counterparty's own, as their act shows the document; else our number as BP prints
// it and the record's date. Own keeps our number where the incoming one is printed.
func lineOf(r onec.ReconciliationRow) Line {
	l := Line{Date: day(r.Date), Kind: kindOf(r), Number: PrintNumber(r.Number), Debit: r.Debit, Credit: r.Credit}
	if r.IncomingNumber != "" {
		l.Own, l.Number = l.Number, r.IncomingNumber
	}
	if !r.IncomingDate.IsZero() {
		l.Date = day(r.IncomingDate)
	}
	return l
}

// day is t's calendar day in Moscow time: 1C's dates are Moscow's wall clock, which the toolkit
// writes with a Z.
func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, ru.Moscow)
}

// Kinds of the lines, as the act names a registrar (BP's printed act says «Продажа», «Оплата»,
// «Приход»; these are the words of its newer form and of the counterparties' acts alike).
const (
	KindSale            = "Реализация (акт, накладная)"
	KindPurchase        = "Поступление (акт, накладная)"
	KindPayment         = "Оплата"
	KindRefund          = "Возврат оплаты"
	KindReturnFromBuyer = "Возврат от покупателя"
	KindReturnToVendor  = "Возврат поставщику"
	KindSaleCorrection  = "Корректировка реализации"
	KindBuyCorrection   = "Корректировка поступления"
	KindDebtCorrection  = "Корректировка долга"
	KindOpening         = "Ввод остатков"
	KindOperation       = "Операция"
	KindLoan            = "Займ"          // BP: a loan given (58.03) or received (66, 67), its interest
	KindLoanReturn      = "Возврат займа" // BP: a loan returned either way
)

// loanAccount: 58, 66, 67 and their sub-accounts, BP's loan accounts of the act.
func loanAccount(acc string) bool {
	for _, root := range []string{"58", "66", "67"} {
		if acc == root || strings.HasPrefix(acc, root+".") {
			return true
		}
	}
	return false
}

// kindOf names a line by its registrar's type and, for a payment, by which way it went: money in
// on a customer's account is their payment, on a supplier's a refund to us; money out the other
// way round.
//
// A line on a loan account is named by the account and the side, whatever its registrar, as BP's
// ПредставлениеХозяйственнойОперации names it: our debit on 58.03 is a loan given («Займ»), on 66
// or 67 a loan returned to the lender («Возврат займа»); our credit the other way round (an
// accrued interest on 66.04 is «Займ» too).
func kindOf(r onec.ReconciliationRow) string {
	if loanAccount(r.Account) {
		given := strings.HasPrefix(r.Account, "58")
		if (r.Debit > 0) == given {
			return KindLoan
		}
		return KindLoanReturn
	}
	supplier := strings.HasPrefix(r.Account, "60")
	switch r.Registrar.Kind() {
	case "РеализацияТоваровУслуг":
		return KindSale
	case "ПоступлениеТоваровУслуг":
		return KindPurchase
	case "ПоступлениеНаРасчетныйСчет", "ПриходныйКассовыйОрдер":
		if supplier {
			return KindRefund
		}
		return KindPayment
	case "СписаниеСРасчетногоСчета", "РасходныйКассовыйОрдер":
		if strings.HasPrefix(r.Account, "62") {
			return KindRefund
		}
		return KindPayment
	case "ВозвратТоваровОтПокупателя":
		return KindReturnFromBuyer
	case "ВозвратТоваровПоставщику":
		return KindReturnToVendor
	case "КорректировкаРеализации":
		return KindSaleCorrection
	case "КорректировкаПоступления":
		return KindBuyCorrection
	case "КорректировкаДолга":
		return KindDebtCorrection
	case "ВводНачальныхОстатков", "ВводОстатков":
		return KindOpening
	}
	return KindOperation
}

// PrintNumber is a document's number as BP prints it on the act
// (ПрефиксацияОбъектовКлиентСервер.НомерНаПечать(Номер, Истина, Ложь)): without the
// organization's and the base's prefix («СВ00-» of «СВ00-000015») and without leading zeros,
// a user's own prefix kept («Р000123» → «Р123»).
func PrintNumber(n string) string {
	r := []rune(strings.TrimSpace(n))
	if dash := slices.Index(r, '-'); dash == 2 || dash == 4 {
		r = r[dash+1:] // BP's standard prefix: the base's two characters, or the organization's two before them
	}
	digit := slices.IndexFunc(r, unicode.IsDigit)
	if digit < 0 {
		return string(r)
	}
	return string(r[:digit]) + strings.TrimLeft(string(r[digit:]), "0")
}

// Balanced reports whether the closing balance is the opening one plus the lines' debit less
// their credit: it is, unless the lines are cut or 1C's two answers disagree.
func (a Act) Balanced() bool {
	d, c := a.Turnovers()
	return a.Opening+d-c == a.Closing
}

// Creditor is the side the closing balance is in favour of and how much: ours when the
// counterparty owes us, theirs when we owe them; ok is false when nobody owes anybody.
func (a Act) Creditor() (p Party, sum onec.Kopecks, ok bool) {
	switch {
	case a.Closing > 0:
		return a.Ours, a.Closing, true
	case a.Closing < 0:
		return a.Theirs, -a.Closing, true
	}
	return Party{}, 0, false
}

// Verdict is the act's conclusion as BP's printed form words it: «По данным ООО «Северный
// ветер» на 31.03.2026 задолженность в пользу ООО «Северный ветер» составляет 3 076 579,33
// руб.», or «… взаимная задолженность отсутствует.»
func (a Act) Verdict() string {
	head := "По данным " + a.Ours.Name + " на " + a.To.Format("02.01.2006")
	p, sum, ok := a.Creditor()
	if !ok {
		return head + " взаимная задолженность отсутствует."
	}
	return head + " задолженность в пользу " + p.Name + " составляет " + Roubles(sum) + " руб."
}

// PrintedVerdict is the verdict as BP's printed form writes it, the sum in words after the
// figures (ЧислоПрописью, as ФорматироватьСуммуПрописьюПлатежногоДокумента writes it): «… составляет
// 3 076 579,33 руб. (Три миллиона семьдесят шесть тысяч пятьсот семьдесят девять рублей 33
// копейки).»
func (a Act) PrintedVerdict() string {
	_, sum, ok := a.Creditor()
	if !ok {
		return a.Verdict()
	}
	return strings.TrimSuffix(a.Verdict(), ".") + ". (" + ru.RoublesInWords(int64(sum)) + ")."
}

// Roubles writes an amount as the act prints it: «3 076 579,33», «−1 200,00», with no-break
// spaces between thousands, without the currency sign (the act says «руб.»).
func Roubles(k onec.Kopecks) string {
	return strings.TrimSuffix(k.String(), "\u00a0₽")
}

// Title is the act's title with its period: «Акт сверки взаимных расчётов за период
// 01.01.2026 – 31.03.2026».
func (a Act) Title() string {
	return "Акт сверки взаимных расчётов за период " + a.From.Format("02.01.2006") + " – " + a.To.Format("02.01.2006")
}

// Between names both sides with their details: «между ООО «Северный ветер» (ИНН 1031699119,
// КПП 776601001) и ООО «Альфа» (ИНН 9366414049, КПП 917301001)».
func (a Act) Between() string {
	return "между " + a.Ours.Label() + " и " + a.Theirs.Label()
}

// Label is a party with its ИНН and КПП, as far as the catalog holds them: «ООО «Альфа» (ИНН
// 9366414049, КПП 917301001)»; an individual entrepreneur has no КПП.
func (p Party) Label() string {
	var details []string
	if p.INN != "" {
		details = append(details, "ИНН "+p.INN)
	}
	if p.KPP != "" {
		details = append(details, "КПП "+p.KPP)
	}
	if len(details) == 0 {
		return p.Name
	}
	return p.Name + " (" + strings.Join(details, ", ") + ")"
}

// ByContract is «по договору поставки № П-77/2024 от 06.02.2024» of an act for one contract
// (its name as the catalog has it, «Договор поставки № …», made the phrase's), "" for an act of
// all of them.
func (a Act) ByContract() string {
	switch {
	case a.Contract == "":
		return ""
	case strings.HasPrefix(a.Contract, "Договор"):
		return "по договору" + strings.TrimPrefix(a.Contract, "Договор")
	}
	return "по договору «" + a.Contract + "»"
}

// Document names a line as the act prints it: «Реализация (акт, накладная) № 7 от 05.01.2026».
func (l Line) Document() string {
	s := l.Kind
	if l.Number != "" {
		s += " № " + l.Number
	}
	return s + " от " + l.Date.Format("02.01.2006")
}
