package onec_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// TestPaymentSplitOverContracts: a bank receipt whose header names contract A and whose
// register records pay 100,00 under A and 50,00 under B (BP's РасшифровкаПлатежа) is found by
// the documents of either contract, each with the amount paid under it — not only by the
// header's contract.
func TestPaymentSplitOverContracts(t *testing.T) {
	const (
		org, cust = "a1111111-1111-4111-8111-111111111111", "a2222222-2222-4222-8222-222222222222"
		ctrA      = "a3333333-3333-4333-8333-333333333333"
		ctrB      = "a4444444-4444-4444-8444-444444444444"
		pay       = "a5555555-5555-4555-8555-555555555555"
	)
	var at onec.LocalTime
	if err := json.Unmarshal([]byte(`"2025-03-10T12:00:00"`), &at); err != nil {
		t.Fatal(err)
	}
	account := "40702810900000000001"
	settle := func(ctr string) []onec.Subconto {
		return []onec.Subconto{{Kind: "Контрагенты", Ref: cust}, {Kind: "ДоговорыКонтрагентов", Ref: ctr}, {Kind: "ДокументыРасчетовСКонтрагентами", Ref: pay}}
	}
	move := func(line int, ctr string, amount onec.Kopecks) onec.Movement {
		return onec.Movement{Period: at, RecorderRef: pay, RecorderType: "ПоступлениеНаРасчетныйСчет", Line: line, OrganizationRef: org,
			AccountDr: "51", AccountCr: "62.01", SubcontoCr: settle(ctr), Amount: amount}
	}
	l := &onec.Ledger{
		Organizations:  []onec.Organization{{Ref: org, Name: "ООО «Тест»", Default: true}},
		Counterparties: []onec.Counterparty{{Ref: cust, Name: "ООО «Покупатель»", Kind: "legal"}},
		Contracts: []onec.Contract{
			{Ref: ctrA, OwnerRef: cust, OrganizationRef: org, Number: "A", Date: "2025-01-01", Name: "Договор A"},
			{Ref: ctrB, OwnerRef: cust, OrganizationRef: org, Number: "B", Date: "2025-01-01", Name: "Договор B"},
		},
		Documents: []onec.Document{{Ref: pay, Type: "ПоступлениеНаРасчетныйСчет", Number: "12", Date: at, Posted: true,
			OrganizationRef: org, CounterpartyRef: cust, ContractRef: ctrA, Amount: 15000, BankAccount: &account}},
		Movements: []onec.Movement{move(1, ctrA, 10000), move(2, ctrB, 5000)},
		Accounts:  []onec.Account{{Code: "51", Type: "active"}, {Code: "62", Type: "active_passive"}, {Code: "62.01", Type: "active_passive"}},
	}
	d := onec.NewDemo(l)
	q, ok := onec.Query("address.documents.by_contract")
	if !ok {
		t.Fatal("no documents-by-contract template")
	}
	from, to := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 3, 31, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		ctr, amount string
	}{{ctrA, "100"}, {ctrB, "50"}} {
		rows, err := d.Execute(context.Background(), q, map[string]any{
			"НачалоПериода": onec.PeriodStartParam(from), "КонецПериода": onec.PeriodEndParam(to),
			"Организация": onec.Ref{UUID: org, Type: onec.TypeOrganization}.Param(), "Договор": onec.Ref{UUID: tt.ctr, Type: onec.TypeContract}.Param(),
			"ТипДокумента": "",
		}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 {
			t.Fatalf("contract %s: %d rows, want the payment once: %v", tt.ctr, len(rows), rows)
		}
		var amount string
		for k, v := range rows[0] {
			if n, ok := v.(json.Number); ok && (k == "Сумма" || k == "СуммаДокумента") {
				amount = n.String()
			}
		}
		if amount != tt.amount {
			t.Errorf("contract %s: the payment's amount %q, want %s (under this contract): %v", tt.ctr, amount, tt.amount, rows[0])
		}
	}
}
