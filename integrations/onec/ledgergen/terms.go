package ledgergen

import "github.com/finbot/finbot/integrations/onec"

// term is a contract's payment term as BP 3.0's Справочник.ДоговорыКонтрагентов keeps it: the
// flag УстановленСрокОплаты and the days СрокОплаты after the settlement document.
type term struct {
	set  bool
	days int
}

// The terms the demo company's contracts get, in turn by the contract's place among the
// contracts of its kind. Customers pay in 30, 14, 45 or 60 days, or by the base's default;
// one contract in six has days typed in but the flag off, which BP ignores (the default
// applies), as a real base has them. Suppliers are paid by the default or in 30, 10, 21 days.
var (
	customerTerms = []term{{true, 30}, {true, 14}, {false, 0}, {true, 45}, {false, 20}, {true, 60}}
	supplierTerms = []term{{false, 0}, {true, 30}, {true, 10}, {true, 21}}
)

// PaymentTerms gives contracts their payment terms (onec.Contract.PaymentTermSet and
// PaymentTermDays), by the contract's place among those of its kind. It draws no random
// number, so the rest of the company is what generate.py makes; generate.py itself predates
// the terms, and its output equals Generate's once PaymentTerms is applied to it.
func PaymentTerms(contracts []onec.Contract) {
	seen := map[string]int{}
	for i := range contracts {
		c := &contracts[i]
		terms := supplierTerms
		if c.Kind == "with_customer" {
			terms = customerTerms
		}
		t := terms[seen[c.Kind]%len(terms)]
		seen[c.Kind]++
		c.PaymentTermSet, c.PaymentTermDays = t.set, t.days
	}
}
