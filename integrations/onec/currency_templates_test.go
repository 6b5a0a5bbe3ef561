package onec

import (
	"context"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// The settlement templates on currency settlements: a counterparty's balance is a row per
// currency (its roubles in Дт/Кт beside its balance in the currency), as are the balance of 52
// and the open items and contracts; a rouble account's rows carry no currency.
func TestCurrencyInTheSettlementTemplates(t *testing.T) {
	d := NewDemo(currencyLedger())
	org := Ref{UUID: cuOrg, Type: TypeOrganization}.Param()
	party := Ref{UUID: cuParty, Type: TypeCounterparty}.Param()
	asOf := "2025-04-01T00:00:00"
	type line struct {
		Account, Contract, Document, Currency string
		Debit, Credit, CurDebit, CurCredit    Kopecks
		Documents                             int
	}
	tests := []struct {
		id     string
		params Params
		want   []line
	}{
		{"address.receivables.counterparty_totals", Params{"НаДату": asOf, "Организация": org, "СчетКод": "62", "СчетМаска": "62.%"},
			[]line{
				{Account: "62", Debit: 1_000_000, Documents: 1},
				{Account: "62", Currency: "EUR", Credit: 100_000, CurDebit: 25_000, Documents: 1},
				{Account: "62", Currency: "USD", Debit: 5_400_000, CurDebit: 60_000, Documents: 1},
			}},
		{"address.account.balance_snapshot", Params{"НаДату": asOf, "Организация": org, "СчетКод": "52", "СчетМаска": "52.%"},
			[]line{
				{Account: "52", Currency: "EUR", Debit: 5_000_000, CurDebit: 25_000},
				{Account: "52", Currency: "USD", Debit: 3_680_000, CurDebit: 40_000},
			}},
		{"address.open_items.by_counterparty", Params{"НаДату": asOf, "Организация": org, "Контрагент": party, "Договор": nil},
			[]line{
				{Account: "62.01", Contract: "Договор Р-1", Document: "В-b3", Debit: 1_000_000},
				{Account: "62.21", Contract: "Контракт ВЭД-1 (USD)", Document: "В-b1", Currency: "USD", Debit: 5_400_000, CurDebit: 60_000},
				{Account: "62.21", Contract: "Контракт ВЭД-2 (EUR)", Document: "В-b2", Currency: "EUR", Credit: 100_000, CurDebit: 25_000},
			}},
		{"address.open_contracts.by_asof", Params{"НаДату": asOf, "Организация": org, "Контрагент": nil},
			[]line{
				{Account: "62.01", Contract: "Договор Р-1", Debit: 1_000_000},
				{Account: "62.21", Contract: "Контракт ВЭД-1 (USD)", Currency: "USD", Debit: 5_400_000, CurDebit: 60_000},
				{Account: "62.21", Contract: "Контракт ВЭД-2 (EUR)", Currency: "EUR", Credit: 100_000, CurDebit: 25_000},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			res, err := d.Query(context.Background(), tt.id, tt.params, MaxDemoRows)
			if err != nil {
				t.Fatal(err)
			}
			var got []line
			for _, r := range res.Balances {
				got = append(got, line{Account: r.Account, Contract: r.Contract.Presentation, Document: r.DocumentNumber, Currency: r.Currency,
					Debit: r.Debit, Credit: r.Credit, CurDebit: r.CurrencyDebit, CurCredit: r.CurrencyCredit, Documents: r.Documents})
			}
			if diff := gocmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}
