package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// A small base with currency settlements (the chart marks 52, 60.21 and 62.21 «Валютный»): an
// export contract in USD and one in EUR with Global Trade LLC, a rouble contract with it too,
// and an import contract in USD with Acme Supply Inc.
const (
	fxOrg      = "00000000-0000-0000-0000-0000000f0a01"
	fxCustomer = "00000000-0000-0000-0000-0000000f0c01"
	fxSupplier = "00000000-0000-0000-0000-0000000f0c02"
	fxUSD      = "00000000-0000-0000-0000-0000000f0d01"
	fxEUR      = "00000000-0000-0000-0000-0000000f0d02"
	fxRUB      = "00000000-0000-0000-0000-0000000f0d03"
	fxImport   = "00000000-0000-0000-0000-0000000f0d04"
)

func currencyBase(t *testing.T) *onec.Demo {
	t.Helper()
	at := func(s string) onec.LocalTime {
		v, err := time.Parse("2006-01-02T15:04:05", s)
		if err != nil {
			t.Fatal(err)
		}
		return onec.LocalTime{Time: v}
	}
	kinds := []string{"Контрагенты", "ДоговорыКонтрагентов", "ДокументыРасчетовСКонтрагентами"}
	settle := func(cp, ctr, doc string) []onec.Subconto {
		return []onec.Subconto{{Kind: "Контрагенты", Ref: cp}, {Kind: "ДоговорыКонтрагентов", Ref: ctr}, {Kind: "ДокументыРасчетовСКонтрагентами", Ref: doc}}
	}
	l := &onec.Ledger{
		Organizations:  []onec.Organization{{Ref: fxOrg, Name: "ООО «Экспорт»", INN: "7700000002", Default: true}},
		Counterparties: []onec.Counterparty{{Ref: fxCustomer, Name: "Global Trade LLC", Kind: "legal"}, {Ref: fxSupplier, Name: "Acme Supply Inc", Kind: "legal"}},
		Contracts: []onec.Contract{
			{Ref: fxUSD, OwnerRef: fxCustomer, OrganizationRef: fxOrg, Number: "ВЭД-1", Name: "Контракт ВЭД-1 (USD)", Kind: "with_customer", Currency: "USD"},
			{Ref: fxEUR, OwnerRef: fxCustomer, OrganizationRef: fxOrg, Number: "ВЭД-2", Name: "Контракт ВЭД-2 (EUR)", Kind: "with_customer", Currency: "EUR"},
			{Ref: fxRUB, OwnerRef: fxCustomer, OrganizationRef: fxOrg, Number: "Р-1", Name: "Договор Р-1", Kind: "with_customer", Currency: "RUB"},
			{Ref: fxImport, OwnerRef: fxSupplier, OrganizationRef: fxOrg, Number: "ИМП-1", Name: "Контракт ИМП-1 (USD)", Kind: "with_supplier", Currency: "USD"},
		},
		Accounts: []onec.Account{
			{Code: "41.01", Name: "Товары на складах", Type: "active"},
			{Code: "52", Name: "Валютные счета", Type: "active", Currency: true},
			{Code: "60.21", Name: "Расчеты с поставщиками и подрядчиками (в валюте)", Type: "active_passive", Subconto: kinds, Currency: true},
			{Code: "62.01", Name: "Расчеты с покупателями и заказчиками", Type: "active_passive", Subconto: kinds},
			{Code: "62.21", Name: "Расчеты с покупателями и заказчиками (в валюте)", Type: "active_passive", Subconto: kinds, Currency: true},
			{Code: "90.01.1", Name: "Выручка", Type: "passive"},
			{Code: "91.01", Name: "Прочие доходы", Type: "passive"},
		},
	}
	doc := func(n int, typ, date, cp, ctr string, amount onec.Kopecks) string {
		ref := "00000000-0000-0000-0000-0000000f0b" + string(rune('0'+n/10)) + string(rune('0'+n%10))
		l.Documents = append(l.Documents, onec.Document{Ref: ref, Type: typ, Number: "ВЭ-0000" + string(rune('0'+n)), Date: at(date), Posted: true,
			OrganizationRef: fxOrg, CounterpartyRef: cp, ContractRef: ctr, Amount: amount})
		return ref
	}
	move := func(rec, typ, date string, m onec.Movement) {
		m.Period, m.RecorderRef, m.RecorderType, m.OrganizationRef, m.Line = at(date), rec, typ, fxOrg, 1
		l.Movements = append(l.Movements, m)
	}
	const sale, receipt, purchase = "РеализацияТоваровУслуг", "ПоступлениеНаРасчетныйСчет", "ПоступлениеТоваровУслуг"
	// 1 000,00 USD sold at 90; 400,00 USD received at 92 after a revaluation of 800,00 ₽.
	usd := doc(1, sale, "2025-02-10T10:00:00", fxCustomer, fxUSD, 9_000_000)
	move(usd, sale, "2025-02-10T10:00:00", onec.Movement{AccountDr: "62.21", SubcontoDr: settle(fxCustomer, fxUSD, usd), AccountCr: "90.01.1",
		Amount: 9_000_000, CurrencyDr: "USD", CurrencyAmountDr: 100_000})
	pay := doc(2, receipt, "2025-03-03T10:00:00", fxCustomer, fxUSD, 3_680_000)
	move(pay, receipt, "2025-03-03T10:00:00", onec.Movement{AccountDr: "62.21", SubcontoDr: settle(fxCustomer, fxUSD, usd), AccountCr: "91.01",
		Amount: 80_000, CurrencyDr: "USD"})
	move(pay, receipt, "2025-03-03T10:00:00", onec.Movement{AccountDr: "52", AccountCr: "62.21", SubcontoCr: settle(fxCustomer, fxUSD, usd),
		Amount: 3_680_000, CurrencyDr: "USD", CurrencyAmountDr: 40_000, CurrencyCr: "USD", CurrencyAmountCr: 40_000})
	// 500,00 EUR sold at 98; 250,00 EUR received for 50 000,00 ₽.
	eur := doc(3, sale, "2025-02-11T10:00:00", fxCustomer, fxEUR, 4_900_000)
	move(eur, sale, "2025-02-11T10:00:00", onec.Movement{AccountDr: "62.21", SubcontoDr: settle(fxCustomer, fxEUR, eur), AccountCr: "90.01.1",
		Amount: 4_900_000, CurrencyDr: "EUR", CurrencyAmountDr: 50_000})
	payEUR := doc(4, receipt, "2025-03-04T10:00:00", fxCustomer, fxEUR, 5_000_000)
	move(payEUR, receipt, "2025-03-04T10:00:00", onec.Movement{AccountDr: "52", AccountCr: "62.21", SubcontoCr: settle(fxCustomer, fxEUR, eur),
		Amount: 5_000_000, CurrencyDr: "EUR", CurrencyAmountDr: 25_000, CurrencyCr: "EUR", CurrencyAmountCr: 25_000})
	// A rouble sale of 10 000,00 ₽ to the same customer.
	rub := doc(5, sale, "2025-02-12T10:00:00", fxCustomer, fxRUB, 1_000_000)
	move(rub, sale, "2025-02-12T10:00:00", onec.Movement{AccountDr: "62.01", SubcontoDr: settle(fxCustomer, fxRUB, rub), AccountCr: "90.01.1", Amount: 1_000_000})
	// 200,00 USD of goods bought at 91, unpaid.
	imp := doc(6, purchase, "2025-03-10T10:00:00", fxSupplier, fxImport, 1_820_000)
	move(imp, purchase, "2025-03-10T10:00:00", onec.Movement{AccountDr: "41.01", AccountCr: "60.21", SubcontoCr: settle(fxSupplier, fxImport, imp),
		Amount: 1_820_000, CurrencyCr: "USD", CurrencyAmountCr: 20_000})
	return onec.NewDemo(l)
}

// Currency settlements are answered as BP shows them: the roubles as before, and beside them
// each balance in its currency — a counterparty's per currency, never added across currencies
// — in the table, the details and the export.
func TestCurrencyBalancesAreShown(t *testing.T) {
	lane := NewLane(currencyBase(t), Options{Now: fixedNow, Organization: "7700000002"})
	asOf := "2025-03-31"
	tests := []struct {
		name     string
		d        Decomposition
		rows     [][]CurrencyAmount // each row's currencies
		total    onec.Kopecks
		contains []string
	}{
		{"receivables of 62: the roubles netted, the currencies apart", ask(recipe.Receivables, recipe.Filters{AsOfDate: asOf}),
			[][]CurrencyAmount{{{Currency: "EUR", Amount: 25_000, Debit: 25_000}, {Currency: "USD", Amount: 60_000, Debit: 60_000}}},
			6_300_000, []string{
				"Global Trade LLC \\(250,00\u00a0EUR; 600,00\u00a0USD\\) | 63\u00a0000,00",
				"В валюте (валютная сумма, как в ОСВ БП; рубли — по курсам проводок и переоценок): 250,00\u00a0EUR; 600,00\u00a0USD.",
			}},
		{"payables of 60: what we owe, in roubles and dollars", ask(recipe.Payables, recipe.Filters{AsOfDate: asOf}),
			[][]CurrencyAmount{{{Currency: "USD", Amount: 20_000, Credit: 20_000}}},
			1_820_000, []string{"Acme Supply Inc \\(200,00\u00a0USD\\)", "В валюте (валютная сумма, как в ОСВ БП; рубли — по курсам проводок и переоценок): 200,00\u00a0USD."}},
		{"the currency account 52", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: asOf, Account: "52"}),
			[][]CurrencyAmount{{{Currency: "EUR", Amount: 25_000, Debit: 25_000}, {Currency: "USD", Amount: 40_000, Debit: 40_000}}},
			8_680_000, []string{"Остаток по счёту 52 на 31.03.2025: **86\u00a0800,00\u00a0₽** (дебет)",
				"В валюте (валютная сумма, как в ОСВ БП; рубли — по курсам проводок и переоценок): 250,00\u00a0EUR (дебет); 400,00\u00a0USD (дебет)."}},
		{"62.21: the roubles overpaid on the euro contract, the euros owed", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: asOf, Account: "62.21"}),
			[][]CurrencyAmount{{{Currency: "EUR", Amount: 25_000, Debit: 25_000}, {Currency: "USD", Amount: 60_000, Debit: 60_000}}},
			5_300_000, []string{"По субсчетам и договорам, как в ОСВ: дебет 54\u00a0000,00\u00a0₽, кредит 1\u00a0000,00\u00a0₽.",
				"250,00\u00a0EUR (дебет); 600,00\u00a0USD (дебет)."}},
		{"open items of the customer: each document in its currency", ask(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: asOf, Counterparty: "Global Trade", Status: "open"}),
			[][]CurrencyAmount{nil, {{Currency: "EUR", Amount: 25_000, Debit: 25_000}}, {{Currency: "USD", Amount: 60_000, Debit: 60_000}}},
			6_300_000, []string{"РТиУ 1 \\(600,00\u00a0USD\\)", "РТиУ 3 \\(250,00\u00a0EUR\\)", "250,00\u00a0EUR; 600,00\u00a0USD."}},
		{"open items of the supplier: our debt, its dollars told as owed", ask(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: asOf, Counterparty: "Acme", Status: "open"}),
			[][]CurrencyAmount{{{Currency: "USD", Amount: -20_000, Credit: 20_000}}},
			-1_820_000, []string{"РТиУ", "ПТиУ 6 \\(200,00\u00a0USD\\) | 18\u00a0200,00", "В валюте (валютная сумма, как в ОСВ БП; рубли — по курсам проводок и переоценок): 200,00\u00a0USD."}},
		{"60.21: our debt in dollars, on its side", ask(recipe.AccountBalance, recipe.Filters{AsOfDate: asOf, Account: "60.21"}),
			[][]CurrencyAmount{{{Currency: "USD", Amount: -20_000, Credit: 20_000}}},
			-1_820_000, []string{"Остаток по счёту 60\\.21 на 31.03.2025: **18\u00a0200,00\u00a0₽** (кредит)", "200,00\u00a0USD (кредит)."}},
		{"open contracts: each in its currency", ask(recipe.OpenContracts, recipe.Filters{AsOfDate: asOf}),
			nil, 4_480_000, []string{"400,00\u00a0USD (дебет 600,00\u00a0USD, кредит 200,00\u00a0USD)", "Контракт ВЭД\\-1 \\(USD\\) — Global Trade LLC \\(600,00\u00a0USD\\)", "Контракт ИМП\\-1 \\(USD\\) — Acme Supply Inc \\(−200,00\u00a0USD\\)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := lane.Run(t.Context(), tt.d)
			if res.ResultMode == Limited {
				t.Fatalf("%s %q", res.LimitedReason, res.Message)
			}
			md := res.Markdown()
			if tt.rows != nil {
				var got [][]CurrencyAmount
				for _, row := range res.All {
					got = append(got, row.Currencies)
				}
				if diff := cmp.Diff(tt.rows, got); diff != "" {
					t.Errorf("rows' currencies (-want +got):\n%s\n%s", diff, md)
				}
			}
			if res.Summary.TotalAmount != tt.total {
				t.Errorf("total %s, want %s (the roubles as before)", res.Summary.TotalAmount, tt.total)
			}
			for _, s := range tt.contains {
				if s == "РТиУ" { // the supplier's open items hold no sale
					if strings.Contains(md, s) {
						t.Errorf("a sale among the supplier's open items:\n%s", md)
					}
					continue
				}
				if !strings.Contains(md, s) {
					t.Errorf("no %q in:\n%s", s, md)
				}
			}
			header, cells := res.table()
			if header[len(header)-1] != "В валюте" || len(cells) == 0 {
				t.Errorf("export columns %q: no currency column", header)
			}
		})
	}
}
