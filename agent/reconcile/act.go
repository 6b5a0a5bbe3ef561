// Package reconcile is the act of reconciliation («акт сверки взаиморасчётов»): the model of an
// act as both sides print it, and the comparison of our act with the counterparty's own.
//
// An act is always held from OUR side: a line's Debit is what increases the counterparty's debt
// to us (a sale, our payment to them), its Credit what decreases it (their payment, a purchase
// from them). The counterparty's act, read in their layout, is turned to our side before it is
// compared (their debit is our credit).
package reconcile

import (
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// Party is one side of an act with the details its heading prints.
type Party struct {
	Name string // «ООО "Альфа"» as the catalog names it
	INN  string
	KPP  string // "" for an individual entrepreneur, or where the catalog has none
	// Director and Accountant are the signatories the printed form names (BP's
	// ОтветственныеЛицаОрганизаций: the head and the chief accountant, «Фамилия И.О.»); "" where
	// the base keeps none — the form then prints blank lines for them, as BP does.
	Director   string `json:",omitempty"`
	Accountant string `json:",omitempty"`
}

// Line is one document or payment of the period.
type Line struct {
	Date   time.Time // the document's date (Moscow), day precision
	Kind   string    // «Реализация (акт, накладная)», «Оплата», «Поступление (акт, накладная)» …
	Number string    // the document's number as printed, may be empty
	// Own is our document's number as BP prints it where Number is the counterparty's incoming
	// one (НомерВходящегоДокумента), "" otherwise.
	Own    string       `json:",omitempty"`
	Debit  onec.Kopecks // increases the counterparty's debt to us
	Credit onec.Kopecks // decreases it
}

// Act is an act of reconciliation for one counterparty (optionally one contract) over a period.
type Act struct {
	Ours, Theirs Party
	Contract     string    // the contract's name when the act is for one contract
	From, To     time.Time // the period, both days inclusive
	// Opening and Closing are the balances at the start of From and at the end of To: positive —
	// the counterparty owes us, negative — we owe them.
	Opening, Closing onec.Kopecks
	Lines            []Line
	// Source names where our side's figures come from («1С: Акт сверки, ООО «Северный ветер»,
	// демо-база (встроенная)»), printed under the act; "" for none.
	Source string
}

// Turnovers returns the sums of the lines' debit and credit.
func (a Act) Turnovers() (debit, credit onec.Kopecks) {
	for _, l := range a.Lines {
		debit += l.Debit
		credit += l.Credit
	}
	return debit, credit
}
