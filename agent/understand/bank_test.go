package understand_test

import (
	"slices"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
)

// The demo's settlement accounts (integrations/onec derives them from the bank documents).
const (
	mainAccount  = "40702810927616318153" // ООО «Северный ветер»
	tradeAccount = "40702810414434320187" // ООО «Северный ветер Трейд»
	mainOrg      = "ООО «Северный ветер»"
	tradeOrg     = "ООО «Северный ветер Трейд»"
)

func TestParseBankAccounts(t *testing.T) {
	cats := demoCatalogs(t)
	if len(cats.BankAccounts) != 2 {
		t.Fatalf("demo catalogs have %d bank accounts, want 2", len(cats.BankAccounts))
	}
	p := understand.NewParser()
	tests := []struct {
		text string
		kind understand.Kind
		// bank is the account resolved, unknown the digits reported as none of ours.
		bank, unknown, org, account, counterparty, contract string
	}{
		{text: "остаток на р/с 40702810927616318153", kind: understand.KindLedger, bank: mainAccount, org: mainOrg, account: "51"},
		{text: "сколько на счёте ...8153", kind: understand.KindLedger, bank: mainAccount, org: mainOrg, account: "51"},
		{text: "остаток по р/с 8153 на 1.03", kind: understand.KindLedger, bank: mainAccount, org: mainOrg, account: "51"},
		{text: "по счету 0187", kind: understand.KindLedger, bank: tradeAccount, org: tradeOrg, account: "51"},
		{text: "р / с 0187 остаток", kind: understand.KindLedger, bank: tradeAccount, org: tradeOrg, account: "51"},
		{text: "остаток на р/с № 0187", kind: understand.KindLedger, bank: tradeAccount, org: tradeOrg, account: "51"},
		{text: "остаток на счёте, оканчивающемся на 0187", kind: understand.KindLedger, bank: tradeAccount, org: tradeOrg, account: "51"},
		{text: "40702810414434320187", kind: understand.KindLedger, bank: tradeAccount, org: tradeOrg, account: "51"},
		{text: "выписка по р/с трейда", kind: understand.KindLedger, bank: tradeAccount, org: tradeOrg, account: "51"},
		// Our organization right after «р/с», not the customer named like it.
		{text: "какой р/с у северного ветра", kind: understand.KindLedger, bank: mainAccount, org: mainOrg, account: "51"},
		// A customer paying to our account stays the counterparty.
		{text: "оплаты от северного ветра на р/с за март", kind: understand.KindLedger, account: "51", counterparty: mainOrg},
		// The account and another organization both named: both kept, the 1C lane says they differ.
		{text: "остаток на р/с 8153 северного ветра трейд", kind: understand.KindLedger, bank: mainAccount, org: tradeOrg, account: "51"},
		// Not ours: reported, never read as something else.
		{text: "остаток на р/с 40702810000000000001", kind: understand.KindUnknownEntity, unknown: "40702810000000000001", account: "51"},
		{text: "выписка по счету ...9999 за март", kind: understand.KindUnknownEntity, unknown: "9999", account: "51"},
		{text: "остаток по р/с 9999", kind: understand.KindUnknownEntity, unknown: "9999", account: "51"},
		// Chart accounts, INNs, contract numbers, amounts, years and invoices are no settlement accounts.
		{text: "счёт 62 на 1.03", kind: understand.KindLedger, account: "62"},
		{text: "сч 60.01", kind: understand.KindLedger, account: "60.01"},
		{text: "51 счет на конец марта", kind: understand.KindLedger, account: "51"},
		{text: "остаток 51 по инн 6079411793", kind: understand.KindLedger, account: "51", org: tradeOrg},
		{text: "сколько нам должен инн 9366414049", kind: understand.KindLedger, counterparty: "ООО «Альфа»"},
		{text: "долг по дог 77/2024", kind: understand.KindLedger, contract: "П-77/2024"},
		{text: "поступления на р/с 15000 руб", kind: understand.KindLedger},
		{text: "списания с р/с больше 8153", kind: understand.KindLedger},
		{text: "остаток на р/с за 2025", kind: understand.KindLedger, account: "51"},
		{text: "оплачен ли счет 1234", kind: ""},
		// A number of something else that happens to end one of our accounts.
		{text: "остаток по договору 8153", kind: ""},
		{text: "сальдо по накладной № 0187", kind: ""},
	}
	for _, tt := range tests {
		d := p.ParseLazy(understand.Input{Text: tt.text, Now: corpusToday}, func() *recipe.Catalogs { return cats })
		got := []string{string(d.Kind), d.BankAccount.Value.Number, d.UnknownBankAccount, d.Organization.Value.Name, d.Account.Value,
			d.Counterparty.Value.Name, d.Contract.Value.Number}
		want := []string{string(tt.kind), tt.bank, tt.unknown, tt.org, tt.account, tt.counterparty, tt.contract}
		if tt.kind == "" {
			want[0] = got[0] // any kind, as long as nothing reads as a settlement account
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q:\n got kind, bank, unknown, org, account, party, contract %q\nwant %q", tt.text, got, want)
		}
		if d.BankAccount.Set && (d.BankAccount.Source != understand.FromCatalog || d.BankAccount.Text == "") {
			t.Errorf("%q: bank account slot %+v lacks its source or text", tt.text, d.BankAccount)
		}
	}
}

// Several accounts of ours end with the tail: the user is asked which; a deletion-marked account
// is never chosen.
func TestParseBankAccountCatalogCases(t *testing.T) {
	base := demoCatalogs(t)
	p := understand.NewParser()
	parse := func(c *recipe.Catalogs, text string) understand.Decision {
		return p.Parse(understand.Input{Text: text, Now: corpusToday, Catalogs: c})
	}

	twin := *base
	twin.BankAccounts = append(slices.Clone(base.BankAccounts), recipe.BankAccount{Ref: "twin", Number: "40702810500000008153",
		OrgRef: base.BankAccounts[0].OrgRef, OrgName: base.BankAccounts[0].OrgName})
	d := parse(&twin, "остаток по р/с 8153")
	if d.Kind != understand.KindClarify || d.Rule != "ambiguous_bank_account" || len(d.BankAccountCandidates) != 2 || d.BankAccount.Set {
		t.Errorf("two accounts end with 8153: %s %s, %d candidates, slot %v", d.Kind, d.Rule, len(d.BankAccountCandidates), d.BankAccount.Set)
	}
	if d := parse(&twin, "остаток по р/с 40702810500000008153"); d.BankAccount.Value.Ref != "twin" {
		t.Errorf("the whole number picks its account, got %+v", d.BankAccount.Value)
	}

	deleted := *base
	deleted.BankAccounts = slices.Clone(base.BankAccounts)
	for i := range deleted.BankAccounts {
		deleted.BankAccounts[i].Deleted = deleted.BankAccounts[i].Number == tradeAccount
	}
	if d := parse(&deleted, "остаток по р/с 0187"); d.BankAccount.Set || d.UnknownBankAccount != "0187" {
		t.Errorf("a deletion-marked account was chosen: %+v, unknown %q", d.BankAccount.Value, d.UnknownBankAccount)
	}
	if d := parse(&deleted, "остаток на р/с трейда"); d.BankAccount.Set || d.Organization.Value.Name != tradeOrg {
		t.Errorf("an organization whose only account is deletion-marked: bank %+v, org %q", d.BankAccount.Value, d.Organization.Value.Name)
	}

	// Without the catalogs nothing is resolved, but the message is for 1C: it is read again with them.
	for _, text := range []string{"остаток на р/с 40702810927616318153", "по счету 8153", "40702810927616318153"} {
		d := parse(nil, text)
		if d.BankAccount.Set || d.UnknownBankAccount != "" || !understand.NeedsCatalogs(d) {
			t.Errorf("%q without catalogs: slot %v, unknown %q, needs catalogs %v", text, d.BankAccount.Set, d.UnknownBankAccount, understand.NeedsCatalogs(d))
		}
	}
}
