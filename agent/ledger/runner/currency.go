package runner

import (
	"cmp"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// Currency settlements (60.21, 62.21, 52 — the accounts the chart marks «Валютный»): the
// templates give each line's Валюта and its balance in that currency (ВалютнаяСуммаОстатокДт,
// …Кт) beside the roubles, and the answers show them as BP's reports do — per currency, never
// added across currencies (ОСВ по счёту with «Валютная сумма» leaves it out of the grand total).

// CurrencyAmount is a balance in one foreign currency: Debit and Credit as 1C splits it (BP's
// expanded balance per sub-account and contract for a counterparty's, the net by its sign
// otherwise), Amount the balance in the sense of its row's Amount (what a counterparty owes us
// on receivables, what we owe on payables, Дт − Кт elsewhere).
type CurrencyAmount struct {
	Currency string       `json:"currency"`
	Amount   onec.Kopecks `json:"amount"`
	Debit    onec.Kopecks `json:"debit"`
	Credit   onec.Kopecks `json:"credit"`
}

// currencySums add up balances per currency.
type currencySums map[string]*CurrencyAmount

// add takes a row's balance in its currency (nothing for a rouble row).
func (s currencySums) add(r onec.BalanceRow) {
	if r.Currency == "" {
		return
	}
	s.addSplit(r.Currency, r.CurrencyDebit, r.CurrencyCredit)
}

func (s currencySums) addSplit(code string, debit, credit onec.Kopecks) {
	c := s[code]
	if c == nil {
		c = &CurrencyAmount{Currency: code}
		s[code] = c
	}
	c.Debit += debit
	c.Credit += credit
}

// list is the sums by currency name, each Amount Дт − Кт (Кт − Дт when credit, as a payable's
// is told); a currency whose balance and parts are all zero is left out.
func (s currencySums) list(credit bool) []CurrencyAmount {
	var out []CurrencyAmount
	for _, c := range s {
		x := *c
		x.Amount = x.Debit - x.Credit
		if credit {
			x.Amount = -x.Amount
		}
		if x.Amount != 0 || x.Debit != 0 || x.Credit != 0 {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b CurrencyAmount) int { return cmp.Compare(a.Currency, b.Currency) })
	return out
}

// currencyMoney is an amount in a foreign currency: «600,00 USD».
func currencyMoney(k onec.Kopecks, code string) string {
	return strings.TrimSuffix(ru.Money(int64(k)), "\u00a0₽") + "\u00a0" + code
}

// currencyText lists a row's currency balances: «600,00 USD; 250,00 EUR».
func currencyText(list []CurrencyAmount) string {
	parts := make([]string, 0, len(list))
	for _, c := range list {
		parts = append(parts, currencyMoney(c.Amount, c.Currency))
	}
	return strings.Join(parts, "; ")
}

// negated is a copy of list with every amount negated (a row shown from the other side).
func negated(list []CurrencyAmount) []CurrencyAmount {
	out := slices.Clone(list)
	for i := range out {
		out[i].Amount = -out[i].Amount
	}
	return out
}

// withCurrency is a table cell with the row's currency balances after it: «Global Trade LLC
// (600,00 USD)».
func withCurrency(cell string, row Row) string {
	if len(row.Currencies) == 0 {
		return cell
	}
	return cell + " (" + currencyText(row.Currencies) + ")"
}

// currencyTotals are the rows' currency balances added up per currency.
func currencyTotals(rows []Row) []CurrencyAmount {
	sums := currencySums{}
	for _, row := range rows {
		for _, c := range row.Currencies {
			x := sums[c.Currency]
			if x == nil {
				x = &CurrencyAmount{Currency: c.Currency}
				sums[c.Currency] = x
			}
			x.Amount += c.Amount
			x.Debit += c.Debit
			x.Credit += c.Credit
		}
	}
	out := make([]CurrencyAmount, 0, len(sums))
	for _, c := range sums {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b CurrencyAmount) int { return cmp.Compare(a.Currency, b.Currency) })
	return out
}

// currencyLine says the result's balances in foreign currency after its rouble total: «В валюте
// (валютная сумма, как в ОСВ БП; …): 600,00 USD; 250,00 EUR.» — with parts set, each with its
// side: «600,00 USD (дебет 700,00 USD, кредит 100,00 USD)», «200,00 USD (кредит)»; negated when
// the result's amounts are shown negated. "" when the result has none. The currency's
// name comes from 1C, so it is escaped.
func currencyLine(rows []Row, parts, negate bool) string {
	totals := currencyTotals(rows)
	if len(totals) == 0 {
		return ""
	}
	items := make([]string, 0, len(totals))
	for _, c := range totals {
		code := md.Escape(c.Currency)
		amount := c.Amount
		if negate {
			amount = -amount
		}
		item := currencyMoney(amount, code)
		switch {
		case !parts:
		case c.Debit != 0 && c.Credit != 0:
			item += " (дебет " + currencyMoney(c.Debit, code) + ", кредит " + currencyMoney(c.Credit, code) + ")"
		case amount < 0: // all of it a credit balance: its side said, as the roubles' is
			item = currencyMoney(-amount, code) + " (кредит)"
		case amount > 0:
			item += " (дебет)"
		}
		items = append(items, item)
	}
	return "В валюте (валютная сумма, как в ОСВ БП; рубли — по курсам проводок и переоценок): " + strings.Join(items, "; ") + "."
}

// joinDetails puts a line after an answer's details.
func joinDetails(details, line string) string {
	switch {
	case line == "":
		return details
	case details == "":
		return line
	}
	return details + "\n" + line
}
