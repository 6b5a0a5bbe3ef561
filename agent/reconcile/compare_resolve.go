package reconcile

// Who their act is with, in our 1C: the organization, the counterparty and the contract it names
// found in the catalogs — what our act is built for. Names are as people print them; nothing is
// picked when two entries fit.

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// Resolve finds in the catalogs the organization, counterparty and contract an act query names:
// by ИНН first (the head organization, not a division, for ours), then by the name as the act
// prints it (its legal form long or short, quotes or none). A zero organization is the base's
// main one. A counterparty or contract 1C does not have, or several that fit, is a *Refusal that
// says so.
func Resolve(cats recipe.Catalogs, q ActQuery) (org, party, contract recipe.Entity, err error) {
	if q.Organization.Name != "" || q.Organization.INN != "" {
		orgs := pick(cats.Organizations, q.Organization, func(e recipe.Entity) bool { return e.HeadRef == "" })
		if len(orgs) == 1 {
			org = orgs[0]
		}
	}
	them := pick(cats.Counterparties, q.Counterparty, nil)
	switch len(them) {
	case 0:
		return org, party, contract, &Refusal{Text: fmt.Sprintf("В 1С нет контрагента %s.", printed(q.Counterparty))}
	case 1:
		party = them[0]
	default:
		return org, party, contract, &Refusal{Text: fmt.Sprintf("Под %s в 1С подходят %s: %s — уточните, с каким сверять.",
			printed(q.Counterparty), ru.Count(len(them), "контрагент", "контрагента", "контрагентов"), names(them))}
	}
	if q.Contract == "" {
		return org, party, contract, nil
	}
	var deals []recipe.Entity
	for _, c := range cats.Contracts {
		if c.Deleted || c.OwnerRef != party.Ref || org.Ref != "" && c.OrgRef != "" && c.OrgRef != org.Ref {
			continue
		}
		if c.Number != "" && holdsNumber(q.Contract, c.Number) || nameKey(c.Name) == nameKey(q.Contract) {
			deals = append(deals, c)
		}
	}
	switch len(deals) {
	case 1:
		return org, party, deals[0], nil
	case 0:
		return org, party, contract, &Refusal{Text: fmt.Sprintf("В 1С у %s нет договора «%s», по которому составлен их акт.", party.Name, q.Contract)}
	}
	return org, party, contract, &Refusal{Text: fmt.Sprintf("Под договор «%s» в 1С подходят %s с %s: %s — уточните, по какому сверять.",
		q.Contract, ru.Count(len(deals), "договор", "договора", "договоров"), party.Name, names(deals))}
}

// pick are the entries a printed party names: by its ИНН when printed and held, else by name —
// exactly, then as a part of a longer name when only one entry has it so.
func pick(es []recipe.Entity, p Party, keep func(recipe.Entity) bool) []recipe.Entity {
	ok := func(e recipe.Entity) bool { return !e.Deleted && (keep == nil || keep(e)) }
	var out []recipe.Entity
	if p.INN != "" {
		for _, e := range es {
			if ok(e) && e.INN == p.INN {
				out = append(out, e)
			}
		}
		if len(out) > 1 && p.Name != "" {
			// One ИНН, several entries (a company's branches kept apart): the one of that name.
			var named []recipe.Entity
			for _, e := range out {
				if nameKey(e.Name) == nameKey(p.Name) || nameKey(e.FullName) == nameKey(p.Name) {
					named = append(named, e)
				}
			}
			if len(named) > 0 {
				out = named
			}
		}
		if len(out) > 0 || p.Name == "" {
			return out
		}
	}
	key := nameKey(p.Name)
	for _, e := range es {
		if ok(e) && (nameKey(e.Name) == key || e.FullName != "" && nameKey(e.FullName) == key) {
			out = append(out, e)
		}
	}
	if len(out) > 0 || key == "" || legalForm(key) != "" {
		// A name printed with its legal form is that company only: «ООО «Вектор»» is neither
		// «АО «Вектор»» nor «ООО «Вектор Плюс»».
		return out
	}
	for _, e := range es {
		if ok(e) && (bareName(e.Name) == key || e.FullName != "" && bareName(e.FullName) == key) {
			out = append(out, e) // «Альфа» printed bare: ООО «Альфа»
		}
	}
	return out
}

// shortForms are the legal forms a name key starts with.
var shortForms = []string{"ооо", "ао", "пао", "зао", "оао", "ип"}

// legalForm is the legal form a name key starts with, "" for none.
func legalForm(key string) string {
	for _, f := range shortForms {
		if strings.HasPrefix(key, f+" ") {
			return f
		}
	}
	return ""
}

// bareName is a name's key without its legal form.
func bareName(s string) string {
	k := nameKey(s)
	if f := legalForm(k); f != "" {
		return strings.TrimPrefix(k, f+" ")
	}
	return k
}

// printed is a party as their act prints it: «ООО «Альфа» (ИНН 9366414049)».
func printed(p Party) string {
	switch {
	case p.Name != "" && p.INN != "":
		return fmt.Sprintf("%s (ИНН %s)", p.Name, p.INN)
	case p.INN != "":
		return "с ИНН " + p.INN
	}
	return p.Name
}

func names(es []recipe.Entity) string {
	var out []string
	for i, e := range es {
		if i == 5 {
			out = append(out, fmt.Sprintf("и ещё %d", len(es)-5))
			break
		}
		s := e.Name
		if e.INN != "" {
			s += " (ИНН " + e.INN + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// holdsNumber reports whether a contract's words hold its number as a whole: «№ П-112/2024 от
// 04.02.2024» holds «П-112/2024», not «12/2024».
func holdsNumber(words, number string) bool {
	w, n := []rune(strings.ToUpper(words)), []rune(strings.ToUpper(number))
	alnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; i+len(n) <= len(w); i++ {
		if string(w[i:i+len(n)]) != string(n) {
			continue
		}
		if (i == 0 || !alnum(w[i-1])) && (i+len(n) == len(w) || !alnum(w[i+len(n)])) {
			return true
		}
	}
	return false
}
