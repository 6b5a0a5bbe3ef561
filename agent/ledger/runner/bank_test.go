package runner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// The demo's settlement accounts, one per organization.
const (
	mainAccount  = "40702810927616318153"
	tradeAccount = "40702810414434320187"
	mainOrgName  = "ООО «Северный ветер»"
	tradeOrgName = "ООО «Северный ветер Трейд»"
)

// withBank is a decomposition that names a settlement account.
func withBank(d Decomposition, number string) Decomposition {
	d.BankAccount = number
	return d
}

func TestCatalogsCarryBankAccounts(t *testing.T) {
	lane, _ := newTestLane(t)
	c, err := lane.Catalogs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range c.BankAccounts {
		if b.Ref == "" || b.OrgRef == "" || b.Deleted || b.Currency != "RUB" {
			t.Errorf("account %+v", b)
		}
		got[b.Number] = b.OrgName
	}
	if diff := cmp.Diff(map[string]string{mainAccount: mainOrgName, tradeAccount: tradeOrgName}, got); diff != "" {
		t.Errorf("bank accounts (-want +got):\n%s", diff)
	}
}

// A balance asked for by settlement account is the balance of 51 of its organization, and the
// answer names the account.
func TestBalanceOfBankAccount(t *testing.T) {
	lane, _ := newTestLane(t)
	c, err := lane.Catalogs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var tradeRef string
	for _, o := range c.Organizations {
		if o.Name == tradeOrgName {
			tradeRef = o.Ref
		}
	}
	for _, number := range []string{tradeAccount, "0187"} { // the understanding step passes the number; a unique tail also works
		res := lane.Run(t.Context(), withBank(ask(recipe.AccountBalance, recipe.Filters{Account: "51", AsOfDate: "2026-03-31"}), number))
		if res.ResultMode == Limited {
			t.Fatalf("%s: limited: %s", number, res.Message)
		}
		if res.Organization != tradeOrgName || res.OrgDefaulted || res.BankAccount != tradeAccount {
			t.Errorf("%s: scope %q (defaulted %v), account %q", number, res.Organization, res.OrgDefaulted, res.BankAccount)
		}
		md := res.Markdown()
		if !strings.Contains(md, tradeOrgName+" · р/с "+tradeAccount+" · сч\\. 51") {
			t.Errorf("%s: the scope line does not name the account:\n%s", number, md)
		}
		byOrg := lane.Run(t.Context(), ask(recipe.AccountBalance, recipe.Filters{Account: "51", AsOfDate: "2026-03-31", Organization: tradeRef}))
		if diff := cmp.Diff(byOrg.Rows, res.Rows); diff != "" {
			t.Errorf("%s: the account's balance differs from its organization's 51 (-org +account):\n%s", number, diff)
		}
	}
}

func TestBankAccountNotOurs(t *testing.T) {
	lane, _ := newTestLane(t)
	tests := []struct {
		intent recipe.Name
		number string
		says   string
	}{
		{recipe.AccountBalance, "40702810000000000001", "Не нашёл у наших организаций в 1С расчётный счёт 40702810000000000001."},
		{recipe.AccountBalance, "9999", "Не нашёл у наших организаций в 1С расчётный счёт, оканчивающийся на 9999."},
		// Said before the missing counterparty is asked for.
		{recipe.BankOpsByParty, "40702810000000000001", "Не нашёл у наших организаций в 1С расчётный счёт 40702810000000000001."},
	}
	for _, tt := range tests {
		res := lane.Run(t.Context(), withBank(ask(tt.intent, recipe.Filters{Account: "51", PeriodFrom: "2026-03-01", PeriodTo: "2026-03-31"}), tt.number))
		if res.ResultMode != Limited || res.LimitedReason != ReasonMissingAnchor || !strings.HasPrefix(res.Message, tt.says) {
			t.Errorf("%s %s: %s %s %q", tt.intent, tt.number, res.ResultMode, res.LimitedReason, res.Message)
		}
		// Ours are offered, each a button that asks again with it.
		if res.AnchorType != "bank_account" || len(res.Candidates) != 2 || res.Candidates[0].Ref == "" {
			t.Errorf("%s: candidates %q %+v", tt.number, res.AnchorType, res.Candidates)
		}
		md := res.Markdown()
		for _, n := range []string{mainAccount + " — " + mainOrgName, tradeAccount + " — " + tradeOrgName} {
			if !strings.Contains(md, n) {
				t.Errorf("%s: the answer does not offer %s:\n%s", tt.number, n, md)
			}
		}
	}
}

// The account names one organization and the question another: neither is guessed.
func TestBankAccountOfAnotherOrganization(t *testing.T) {
	lane, _ := newTestLane(t)
	res := lane.Run(t.Context(), withBank(ask(recipe.AccountBalance, recipe.Filters{Account: "51", Organization: mainOrgName}), tradeAccount))
	want := "Расчётный счёт " + tradeAccount + " — счёт " + tradeOrgName + ", а не " + mainOrgName + "."
	if res.ResultMode != Limited || !strings.HasPrefix(res.Message, want) {
		t.Errorf("%s: %q, want %q", res.ResultMode, res.Message, want)
	}
}

// Bank operations named by account are those of the account: when an organization has two,
// the other's are left out.
func TestBankOperationsOfOneAccount(t *testing.T) {
	party := Ref{UUID: "p", Presentation: "ООО «Альфа»"}
	doc := func(n, account string) onec.DocumentRow {
		return onec.DocumentRow{Ref: Ref{UUID: n, Type: "ДокументСсылка.ПоступлениеНаРасчетныйСчет"}, Number: n, Counterparty: party, BankAccount: account}
	}
	rows := []onec.DocumentRow{doc("1", mainAccount), doc("2", "40702810500000000002"), doc("3", mainAccount)}
	a := anchors{party: recipe.Entity{Ref: "p"}, bank: recipe.BankAccount{Number: mainAccount}}
	out, _ := documents(rows, recipe.BankOpsByParty, a, "")
	var got []string
	for _, r := range out {
		got = append(got, r.Number)
	}
	if diff := cmp.Diff([]string{"1", "3"}, got); diff != "" {
		t.Errorf("bank operations of %s (-want +got):\n%s", mainAccount, diff)
	}
	a.bank = recipe.BankAccount{}
	if out, _ := documents(rows, recipe.BankOpsByParty, a, ""); len(out) != 3 {
		t.Errorf("without an account: %d operations, want 3", len(out))
	}
}

// With several accounts, a balance of 51 is the organization's over all of them, and the answer
// says so.
func TestBalanceOfOneOfSeveralAccounts(t *testing.T) {
	org := recipe.Entity{Ref: "o", Name: mainOrgName}
	cats := &catalogs{orgs: []recipe.Entity{org}, banks: []recipe.BankAccount{
		{Ref: "b1", Number: mainAccount, OrgRef: "o", OrgName: mainOrgName},
		{Ref: "b2", Number: "40702810500000000002", OrgRef: "o", OrgName: mainOrgName},
		{Ref: "b3", Number: "40702810500000000003", OrgRef: "o", OrgName: mainOrgName, Deleted: true},
	}}
	r, _ := recipe.For(recipe.AccountBalance)
	res := Result{OrgDefaulted: true}
	a := anchors{org: org}
	if stop := bankAnchor(&res, cats, r, mainAccount, &a); stop {
		t.Fatalf("stopped: %s", res.Message)
	}
	want := []string{"У ООО «Северный ветер» 2 расчётных счёта: остаток по счёту 51 — по всем вместе; по одному счёту утверждённые запросы к 1С его не считают."}
	if diff := cmp.Diff(want, res.Notes); diff != "" || a.bank.Ref != "b1" {
		t.Errorf("notes (-want +got):\n%s\nbank %+v", diff, a.bank)
	}
	// A deletion-marked account is never chosen.
	res = Result{OrgDefaulted: true}
	if stop := bankAnchor(&res, cats, r, "40702810500000000003", &a); !stop {
		t.Error("a deletion-marked account was chosen")
	}
}
