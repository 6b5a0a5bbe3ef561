package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"

	"github.com/finbot/finbot/ru"
)

// bankAccountsFrom reads the rows of catalog.bank_accounts; orgs (already loaded) name the
// owners.
func bankAccountsFrom(rows []onec.BankAccountRow, orgs []recipe.Entity) []recipe.BankAccount {
	out := make([]recipe.BankAccount, 0, len(rows))
	for _, r := range rows {
		name := entityByRef(orgs, r.Owner.UUID).Name
		if name == "" {
			name = r.Owner.Presentation
		}
		out = append(out, recipe.BankAccount{Ref: r.Ref.UUID, Number: r.Number, OrgRef: r.Owner.UUID, OrgName: name,
			Bank: r.Bank, Currency: r.Currency, Deleted: r.Deleted})
	}
	return out
}

// bankAccountByNumber returns the live account with the number.
func bankAccountByNumber(list []recipe.BankAccount, number string) (recipe.BankAccount, bool) {
	for _, b := range list {
		if !b.Deleted && b.Number == number {
			return b, true
		}
	}
	return recipe.BankAccount{}, false
}

// liveAccountsOf counts the live accounts of an organization.
func liveAccountsOf(list []recipe.BankAccount, orgRef string) int {
	n := 0
	for _, b := range list {
		if !b.Deleted && b.OrgRef == orgRef {
			n++
		}
	}
	return n
}

// bankAnchor scopes a run to the settlement account the question names (number, the number
// as written, or a tail of it): its organization is the scope. No template filters by the
// account itself (the subconto БанковскиеСчета of 51 is no parameter of any), so a balance of 51
// is the organization's over all its accounts — the same figure while it has one, and said when
// it has several — and bank operations are narrowed to the account by the number each bank
// document carries. stop is true when the result is decided: no account of ours has the number,
// or it belongs to another organization than the question's (named, or a contract's).
func bankAnchor(res *Result, cats *catalogs, r recipe.Spec, number string, a *anchors) (stop bool) {
	b, ok := bankAccountByNumber(cats.banks, number)
	if !ok && len(number) < 20 {
		b, ok = bankAccountByTail(cats.banks, number)
	}
	if !ok {
		res.Debug.AnchorType, res.Debug.AnchorValueRaw = "bank_account", number
		what := "расчётный счёт " + number
		if len(number) < 20 {
			what = "расчётный счёт, оканчивающийся на " + number
		}
		for _, b := range cats.banks {
			if !b.Deleted {
				res.Candidates = append(res.Candidates, recipe.Entity{Ref: b.Number, Name: b.Number + " — " + b.OrgName})
			}
		}
		msg := fmt.Sprintf("Не нашёл у наших организаций в 1С %s.", what)
		if len(res.Candidates) == 0 {
			msg += " В справочнике банковских счетов 1С нет счетов наших организаций."
		} else {
			res.AnchorType = "bank_account"
			msg += " Счета наших организаций в 1С:"
		}
		*res = res.limited(ReasonMissingAnchor, msg)
		return true
	}
	if !res.OrgDefaulted && b.OrgRef != a.org.Ref {
		*res = res.limited(ReasonMissingAnchor, fmt.Sprintf("Расчётный счёт %s — счёт %s, а не %s. Уточните счёт или организацию.",
			b.Number, b.OrgName, a.org.Name))
		return true
	}
	a.org, a.bank = entityByRef(cats.orgs, b.OrgRef), b
	res.Organization, res.OrgDefaulted, res.BankAccount = b.OrgName, false, b.Label()
	if slices.ContainsFunc(cats.orgs, func(e recipe.Entity) bool { return e.Ref == b.OrgRef }) {
		res.OrgRef = b.OrgRef
	}
	if n := liveAccountsOf(cats.banks, b.OrgRef); n > 1 && (r.Name == recipe.AccountBalance || r.Name == recipe.DocumentsFormBalance) {
		res.Notes = append(res.Notes, fmt.Sprintf("У %s %d %s: остаток по счёту 51 — по всем вместе; по одному счёту утверждённые запросы к 1С его не считают.",
			b.OrgName, n, ru.Plural(n, "расчётный счёт", "расчётных счёта", "расчётных счетов")))
	}
	return false
}

// bankAccountByTail returns the one live account whose number ends with the digits.
func bankAccountByTail(list []recipe.BankAccount, tail string) (recipe.BankAccount, bool) {
	var found []recipe.BankAccount
	for _, b := range list {
		if !b.Deleted && tail != "" && strings.HasSuffix(b.Number, tail) {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		return recipe.BankAccount{}, false
	}
	return found[0], true
}
