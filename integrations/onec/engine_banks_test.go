package onec_test

import (
	"context"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
)

// bankAccountsOracle reads the settlement accounts of our organizations straight from the bank
// documents: organization ref → its account numbers.
func bankAccountsOracle(l *onec.Ledger) map[string][]string {
	out := map[string][]string{}
	for _, doc := range l.Documents {
		if doc.Type != "ПоступлениеНаРасчетныйСчет" && doc.Type != "СписаниеСРасчетногоСчета" || doc.BankAccount == nil {
			continue
		}
		if !slices.Contains(out[doc.OrganizationRef], *doc.BankAccount) {
			out[doc.OrganizationRef] = append(out[doc.OrganizationRef], *doc.BankAccount)
		}
	}
	return out
}

func TestCatalogBankAccounts(t *testing.T) {
	l, d, _ := fixture(t)
	rows := run(t, d, "catalog.bank_accounts", nil)
	got := map[string][]string{}
	refs := map[string]string{}
	for i, row := range rows {
		owner := uuidOf(t, row["Владелец"], onec.TypeOrganization)
		number, _ := row["НомерСчета"].(string)
		got[owner] = append(got[owner], number)
		r, _ := onec.RefOf(row["Ссылка"])
		if r.Type != onec.TypeBankAccount || r.Presentation != number {
			t.Errorf("account %s: Ссылка = %+v", number, r)
		}
		if other, dup := refs[r.UUID]; dup {
			t.Errorf("accounts %s and %s share the reference %s", number, other, r.UUID)
		}
		refs[r.UUID] = number
		if row["Банк"] != "" || row["ВалютаДенежныхСредств"] != "RUB" || row["ПометкаУдаления"] != false {
			t.Errorf("account %s: %v", number, row)
		}
		if i > 0 {
			prev, _ := onec.RefOf(rows[i-1]["Владелец"])
			if o, _ := onec.RefOf(row["Владелец"]); prev.Presentation > o.Presentation {
				t.Error("accounts not ordered by their organization's name")
			}
		}
	}
	if diff := gocmp.Diff(bankAccountsOracle(l), got); diff != "" {
		t.Errorf("accounts by organization (-documents +catalog):\n%s", diff)
	}
	// The two accounts of the demo, one per organization (the corpus and the bot's tests rely on them).
	want := map[string]string{"40702810927616318153": "ООО «Северный ветер»", "40702810414434320187": "ООО «Северный ветер Трейд»"}
	if len(rows) != len(want) {
		t.Fatalf("%d accounts, want %d", len(rows), len(want))
	}
	for _, row := range rows {
		owner, _ := onec.RefOf(row["Владелец"])
		if n := row["НомерСчета"].(string); want[n] != owner.Presentation {
			t.Errorf("account %s belongs to %s, want %s", n, owner.Presentation, want[n])
		}
	}

	// References depend on nothing but the organization and the number: a second engine over
	// the same ledger answers the same rows.
	if diff := gocmp.Diff(rows, run(t, onec.NewDemo(l), "catalog.bank_accounts", nil)); diff != "" {
		t.Errorf("a second Demo answers other rows (-first +second):\n%s", diff)
	}
	q, _ := onec.Query("catalog.bank_accounts")
	one, err := d.Execute(context.Background(), q, nil, 1)
	if err != nil || len(one) != 1 || !gocmp.Equal(one[0], rows[0]) {
		t.Errorf("limit 1: %v, %v", one, err)
	}
}

// A ledger without bank documents has no accounts: an empty answer, not an error, both from
// the Demo and through the proxy.
func TestCatalogBankAccountsEmpty(t *testing.T) {
	d := onec.NewDemo(edgeLedger(t)) // its documents are sales: their bank_account is no settlement account
	q, _ := onec.Query("catalog.bank_accounts")
	rows, err := d.Execute(context.Background(), q, nil, 10)
	if err != nil || rows == nil || len(rows) != 0 {
		t.Fatalf("Demo: %v, %v; want an empty list", rows, err)
	}
	srv := onectest.NewServer(t, d)
	p := newProxy(t, onec.ProxyOptions{URL: srv.URL})
	rows, err = p.Execute(context.Background(), q, nil, 10)
	if err != nil || len(rows) != 0 {
		t.Fatalf("proxy: %v, %v; want no rows", rows, err)
	}
}

// Through the proxy the accounts arrive as the Demo gives them, references included.
func TestCatalogBankAccountsProxy(t *testing.T) {
	_, d, _ := fixture(t)
	srv := onectest.NewServer(t, d, onectest.WithToken(testToken))
	p := newProxy(t, onec.ProxyOptions{URL: srv.URL, Token: testToken})
	q, _ := onec.Query("catalog.bank_accounts")
	got, err := p.Execute(context.Background(), q, nil, onec.MaxProxyRows)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(run(t, d, "catalog.bank_accounts", nil), got); diff != "" {
		t.Errorf("proxy vs demo (-demo +proxy):\n%s", diff)
	}
	for _, row := range got {
		if r, ok := onec.RefOf(row["Ссылка"]); !ok || r.Type != onec.TypeBankAccount {
			t.Errorf("Ссылка %v is no bank account reference", row["Ссылка"])
		}
	}
}
