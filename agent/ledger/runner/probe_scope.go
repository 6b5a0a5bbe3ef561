package runner

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// What a probe reads: its anchor, organizations, accounts and period.

// probeAnchor is the entity a probe is about: a counterparty, a contract or (for the catalog
// primitives) one of our organizations.
type probeAnchor struct {
	party, contract, org recipe.Entity
	method               string
}

// entityNeeded reports whether Entity is set, and says so when it is not.
func (p *prober) entityNeeded(what string) bool {
	if p.args.Entity == "" {
		return p.unsupported("Для этой проверки нужен " + what + ".")
	}
	return true
}

// anchor resolves Entity: a counterparty first, then a contract, then (withOrgs) one of our
// organizations. ok is false when nothing or several fit; the outcome then says so.
func (p *prober) anchor(withOrgs bool) (probeAnchor, bool) {
	raw, c := p.args.Entity, p.cats
	var a probeAnchor
	steps := []struct {
		what    string
		resolve func() Resolution
		set     func(recipe.Entity)
		list    []recipe.Entity
	}{
		{"контрагентов", func() Resolution { return ResolveCounterparty(raw, "", c.parties) }, func(e recipe.Entity) { a.party = e }, c.parties},
		{"договоров", func() Resolution { return ResolveContract(raw, c.contracts, "") }, func(e recipe.Entity) { a.contract = e }, c.contracts},
		{"организаций", func() Resolution { return ResolveOrganization(raw, c.orgs) }, func(e recipe.Entity) { a.org = e }, c.orgs},
	}
	if !withOrgs {
		steps = steps[:2]
	}
	for _, s := range steps {
		rs := s.resolve()
		switch {
		case rs.Found():
			s.set(entityByRef(s.list, rs.ResolvedRef))
			a.method = rs.Method
			if rs.Method == "fuzzy" {
				p.inferred = true
				p.note(fmt.Sprintf("«%s» сопоставлено с «%s» по сходству названия.", ru.Truncate(raw, 80), rs.Resolved))
			}
			return a, true
		case rs.Ambiguous():
			p.inferred = true
			p.note(fmt.Sprintf("Под «%s» подходит несколько %s: %s.", ru.Truncate(raw, 80), s.what, candidateNames(rs)))
			p.unknown(fmt.Sprintf("какой именно из %s «%s» имеется в виду", s.what, ru.Truncate(raw, 80)))
			return a, false
		}
	}
	p.unknown(fmt.Sprintf("«%s» нет в справочниках 1С", ru.Truncate(raw, 80)))
	return a, false
}

// candidateNames lists an ambiguous resolution's candidates.
func candidateNames(rs Resolution) string {
	var names []string
	for _, c := range rs.Candidates {
		names = append(names, candidateLabel(c))
	}
	if rs.AmbiguityCount > len(rs.Candidates) {
		names = append(names, fmt.Sprintf("и ещё %d", rs.AmbiguityCount-len(rs.Candidates)))
	}
	return strings.Join(names, "; ")
}

// organizations are the organizations a probe reads: the one named, else a contract's own,
// else every one (at most maxProbeOrgs).
func (p *prober) organizations(a probeAnchor) ([]recipe.Entity, bool) {
	c := p.cats
	if name := p.args.Organization; name != "" {
		rs := ResolveOrganization(name, c.orgs)
		if !rs.Found() {
			if rs.Ambiguous() {
				p.note(fmt.Sprintf("Под «%s» подходит несколько наших организаций: %s.", ru.Truncate(name, 80), candidateNames(rs)))
			}
			p.unknown(fmt.Sprintf("организации «%s» нет среди наших организаций в 1С", ru.Truncate(name, 80)))
			return nil, false
		}
		return []recipe.Entity{entityByRef(c.orgs, rs.ResolvedRef)}, true
	}
	if a.contract.OrgRef != "" {
		return []recipe.Entity{entityByRef(c.orgs, a.contract.OrgRef)}, true
	}
	orgs := c.orgs
	if len(orgs) > maxProbeOrgs {
		p.inferred = true
		p.note(fmt.Sprintf("Прочитано организаций: %d из %d; укажите организацию в вопросе.", maxProbeOrgs, len(orgs)))
		orgs = orgs[:maxProbeOrgs]
	}
	return orgs, true
}

// accounts are the account tokens of a probe: the one named (which the chart must know), else
// the settlement accounts.
func (p *prober) accounts() ([]string, bool) {
	token := p.args.Account
	if token == "" {
		return settlementAccounts, true
	}
	for code := range p.cats.accounts {
		if accountMatches(code, token) {
			return []string{token}, true
		}
	}
	p.unknown(fmt.Sprintf("счёта %s нет в плане счетов 1С", token))
	return nil, false
}

// Parameter forms of the period.
const noLowerBound = "0001-01-01T00:00:00" // 1C's empty date

func (p *prober) fromParam() string {
	if p.from == "" {
		return noLowerBound
	}
	return p.from + "T00:00:00"
}

func (p *prober) toParam() string { return p.to + "T23:59:59" }

// setScope states the period (or, asOf, the date), the organizations and the accounts read.
func (p *prober) setScope(asOf bool, orgs []recipe.Entity, accounts []string) {
	var b strings.Builder
	b.WriteString("Данные 1С")
	switch {
	case asOf:
		b.WriteString(" на " + ruDate(p.to))
	case p.from != "":
		fmt.Fprintf(&b, " за %s – %s", ruDate(p.from), ruDate(p.to))
	default:
		b.WriteString(" за всё время по " + ruDate(p.to))
	}
	var names []string
	for _, o := range orgs {
		names = append(names, o.Name)
	}
	switch len(names) {
	case 0:
	case 1:
		b.WriteString(", организация " + names[0])
	default:
		b.WriteString(", организации: " + strings.Join(names, ", "))
	}
	switch {
	case len(accounts) == 0:
	case p.args.Account == "":
		b.WriteString(", счета расчётов " + strings.Join(accounts, ", ") + " (счёт не указан)")
	default:
		b.WriteString(", счёт " + strings.Join(accounts, ", "))
	}
	b.WriteString(".")
	p.out.Scope = b.String()
}

// name is the anchor as the answer names it.
func (a probeAnchor) name() string {
	switch {
	case a.contract.Ref != "":
		return a.contract.Name
	case a.party.Ref != "":
		return a.party.Name
	}
	return a.org.Name
}

// suffix is « по <anchor>» or "".
func (a probeAnchor) suffix() string {
	if n := a.name(); n != "" {
		return " по " + n
	}
	return ""
}

// fits reports whether a side's analytics fit the anchor.
func (a probeAnchor) fits(party, contract Ref) bool {
	return (a.party.Ref == "" || party.UUID == a.party.Ref) && (a.contract.Ref == "" || contract.UUID == a.contract.Ref)
}
