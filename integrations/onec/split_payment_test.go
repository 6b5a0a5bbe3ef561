package onec_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// TestPaymentSplitOverContracts: a payment whose header names contract A and whose register
// records pay 100,00 under A and 50,00 under B (BP's РасшифровкаПлатежа) is found by the
// documents of either contract, each with the amount paid under it — not only by the header's
// contract. Bank documents and cash orders alike: BP's ПриходныйКассовыйОрдер and
// РасходныйКассовыйОрдер have the same tabular section.
func TestPaymentSplitOverContracts(t *testing.T) {
	for _, tc := range []struct {
		typ                  string
		money, settlement    string // the money account and the settlement account
		settlementOnCredit   bool   // a receipt credits the customer's 62; a payment debits 60
		purpose              string // what stands in НазначениеПлатежа
		bankAccountInHeading bool
	}{
		{"ПоступлениеНаРасчетныйСчет", "51", "62.01", true, "Оплата по счетам", true},
		{"СписаниеСРасчетногоСчета", "51", "60.01", false, "Оплата по счетам", true},
		{"ПриходныйКассовыйОрдер", "50.01", "62.01", true, "Приход в кассу", false},
		{"РасходныйКассовыйОрдер", "50.01", "60.01", false, "Выдача из кассы", false},
	} {
		t.Run(tc.typ, func(t *testing.T) {
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
			settle := func(ctr string) []onec.Subconto {
				return []onec.Subconto{{Kind: "Контрагенты", Ref: cust}, {Kind: "ДоговорыКонтрагентов", Ref: ctr}, {Kind: "ДокументыРасчетовСКонтрагентами", Ref: pay}}
			}
			move := func(line int, ctr string, amount onec.Kopecks) onec.Movement {
				m := onec.Movement{Period: at, RecorderRef: pay, RecorderType: tc.typ, Line: line, OrganizationRef: org, Amount: amount}
				if tc.settlementOnCredit {
					m.AccountDr, m.AccountCr, m.SubcontoCr = tc.money, tc.settlement, settle(ctr)
				} else {
					m.AccountDr, m.AccountCr, m.SubcontoDr = tc.settlement, tc.money, settle(ctr)
				}
				return m
			}
			doc := onec.Document{Ref: pay, Type: tc.typ, Number: "12", Date: at, Posted: true, OrganizationRef: org,
				CounterpartyRef: cust, ContractRef: ctrA, Amount: 15000, Purpose: tc.purpose} // the comment of a cash order
			if tc.bankAccountInHeading {
				account := "40702810900000000001"
				doc.BankAccount = &account
			}
			l := &onec.Ledger{
				Organizations:  []onec.Organization{{Ref: org, Name: "ООО «Тест»", Default: true}},
				Counterparties: []onec.Counterparty{{Ref: cust, Name: "ООО «Контрагент»", Kind: "legal"}},
				Contracts: []onec.Contract{
					{Ref: ctrA, OwnerRef: cust, OrganizationRef: org, Number: "A", Date: "2025-01-01", Name: "Договор A"},
					{Ref: ctrB, OwnerRef: cust, OrganizationRef: org, Number: "B", Date: "2025-01-01", Name: "Договор B"},
				},
				Documents: []onec.Document{doc},
				Movements: []onec.Movement{move(1, ctrA, 10000), move(2, ctrB, 5000)},
				Accounts: []onec.Account{{Code: "50", Type: "active"}, {Code: "50.01", Type: "active"}, {Code: "51", Type: "active"},
					{Code: "60", Type: "active_passive"}, {Code: "60.01", Type: "active_passive"},
					{Code: "62", Type: "active_passive"}, {Code: "62.01", Type: "active_passive"}},
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
				if n, ok := rows[0]["СуммаДокумента"].(json.Number); ok {
					amount = n.String()
				}
				if amount != tt.amount {
					t.Errorf("contract %s: the payment's amount %q, want %s (under this contract): %v", tt.ctr, amount, tt.amount, rows[0])
				}
				if got := rows[0]["НазначениеПлатежа"]; got != tc.purpose {
					t.Errorf("contract %s: НазначениеПлатежа %v, want %q", tt.ctr, got, tc.purpose)
				}
			}
		})
	}
}
