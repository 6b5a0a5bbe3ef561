package understand

import (
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// FromPlanner marks a slot the planner LLM proposed and FromPlan validated.
const FromPlanner Source = "planner"

// FromPlan reads the planner's plan for a message into a Decision, with the same types and the
// same checks as the parser's own: the plan may only add to what the parser read.
//
//   - A slot the parser read from the message (a date, a period, an account, a name, a date it
//     refused as impossible) stays as read, whatever the plan says.
//   - A date of the plan is taken only when the message speaks of time at all and the parser
//     could not read it; it must be a real day, not in the future for an as-of date.
//   - An account must be in the chart and be written in the message or be the recipe's own.
//   - A name must be in the catalogs and be written in the message (or in the question it
//     continues): a company the message does not name is never answered for. Where the parser
//     found several equal candidates or no such company, its finding stands.
//   - A recipe must be in the whitelist; currencies must be ones the Bank of Russia quotes.
//
// ok is false when the plan is not one skill a Decision carries — a single 1C recipe or a single
// Bank of Russia rates or key-rate call; documents, the knowledge base, news, discovery and
// composite plans are run by the caller. context is the text of the questions a follow-up
// continues ("" for a question of its own): names may come from there.
func (p *Parser) FromPlan(pl Planned, parsed Decision, in Input, context string) (Decision, bool) {
	switch {
	case pl.Ledger != nil:
		return p.ledgerFromPlan(*pl.Ledger, parsed, in, context), true
	case pl.Rate != nil:
		return p.cbrFromPlan(*pl.Rate, parsed, in)
	}
	return Decision{}, false
}

// planned starts the decision of a plan from the parser's: what the parser read stays.
func planned(parsed Decision, k Kind, why string) Decision {
	d := parsed
	d.Kind, d.Sure, d.Rule = k, true, "planner"
	d.Reasons = append(slices.Clone(parsed.Reasons), why)
	return d
}

// ledgerFromPlan is the decision of a plan's 1C recipe.
func (p *Parser) ledgerFromPlan(args LedgerArgs, parsed Decision, in Input, context string) Decision {
	if _, ok := recipe.For(args.Recipe); !ok {
		// A plan for 1C without a (known) recipe: the parser's reading, or a question back.
		if parsed.Kind == KindLedger {
			return parsed
		}
		d := planned(parsed, KindClarify, "план для 1С без рецепта из белого списка")
		d.Sure = false
		return d
	}
	if parsed.Kind == KindLedgerWrite {
		return parsed // a request to change data is refused, whatever the plan reads
	}
	d := planned(parsed, KindLedger, "рецепт 1С выбрал планировщик: "+string(args.Recipe))
	d.Recipe = args.Recipe
	f := args.Filters
	if !dated(parsed) && timeWords(in.Text+" "+context) {
		if t, ok := planDay(f.AsOfDate, in.Now); ok {
			d.Date = slot(t, FromPlanner, f.AsOfDate)
		}
		from, ok1 := planDay(f.PeriodFrom, time.Time{})
		to, ok2 := planDay(f.PeriodTo, time.Time{})
		if ok1 && ok2 && !to.Before(from) {
			d.Period = slot(ru.Period{From: from, To: to, Kind: ru.KindRange}, FromPlanner, f.PeriodFrom+"…"+f.PeriodTo)
		}
	}
	if !d.Account.Set && d.UnknownAccount == "" && f.Account != "" {
		p.planAccount(&d, f.Account, in)
	}
	if d.Recipe == recipe.TurnoverSheet && d.Detail == "" && (f.Detail == recipe.DetailCounterparty || f.Detail == recipe.DetailContract) {
		d.Detail = f.Detail
	}
	c := in.Catalogs
	written := in.Text + " " + context
	if c != nil && !named(parsed) {
		if e, ok := planEntity(f.Counterparty, f.INN, c.Counterparties, written); ok {
			d.Counterparty = slot(e, FromPlanner, f.Counterparty)
			d.Kind = KindLedger
		}
	}
	if c != nil && !d.Organization.Set && f.Organization != "" {
		if e, ok := planEntity(f.Organization, "", c.Organizations, written); ok {
			d.Organization = slot(e, FromPlanner, f.Organization)
		}
	}
	if c != nil && !d.Contract.Set && f.Contract != "" {
		owner := ""
		if d.Counterparty.Set {
			owner = d.Counterparty.Value.Ref
		}
		if e, ok := planContract(f.Contract, c.Contracts, owner, written); ok {
			d.Contract = slot(e, FromPlanner, f.Contract)
		}
	}
	switch {
	case len(parsed.Candidates) > 1 && !d.Counterparty.Set:
		d.Kind, d.Sure = KindClarify, true // several equal names: ask, whatever the plan picked
	case parsed.Unknown != "" && !d.Counterparty.Set && takesParty(d.Recipe):
		d.Kind = KindUnknownEntity // no such company: say so (the lane tries the name as written)
	}
	p.settleDates(&d)
	if parsed.Kind == KindLedger && d.Kind == KindLedger && lacks(d) && !lacks(parsed) {
		// The plan's recipe needs what the message does not give (a company, a contract, an
		// account, a period) while the parser's runs as it is: the parser's stands.
		return parsed
	}
	return d
}

// lacks reports whether a ledger decision misses a slot its recipe requires.
func lacks(d Decision) bool {
	rc, ok := recipe.For(d.Recipe)
	if !ok {
		return true
	}
	for _, f := range rc.Required {
		switch f {
		case recipe.FilterCounterparty:
			if !d.Counterparty.Set {
				return true
			}
		case recipe.FilterContract:
			if !d.Contract.Set {
				return true
			}
		case recipe.FilterAccount:
			if !d.Account.Set && d.UnknownAccount == "" {
				return true
			}
		case recipe.FilterPeriodFrom, recipe.FilterPeriodTo:
			if !d.Period.Set {
				return true
			}
		}
	}
	return false
}

// cbrFromPlan is the decision of a plan's Bank of Russia call: rates on a day or over a
// period, or the key rate. News is left to the caller.
func (p *Parser) cbrFromPlan(args RateArgs, parsed Decision, in Input) (Decision, bool) {
	var d Decision
	switch args.Mode {
	case RateCurrency, RateDynamic:
		d = planned(parsed, KindRate, "курс валют по плану планировщика")
		if !d.Currencies.Set && len(parsed.UnknownCurrencies) == 0 {
			var codes []string
			for _, c := range args.Codes {
				if cur, ok := ru.LookupCurrency(c); ok && !slices.Contains(codes, cur.Code) {
					codes = append(codes, cur.Code)
				}
			}
			if len(codes) > 0 {
				d.Currencies = slot(codes, FromPlanner, strings.Join(args.Codes, ","))
			}
		}
	case RateKeyRate:
		d = planned(parsed, KindKeyRate, "ключевая ставка по плану планировщика")
	default:
		return Decision{}, false
	}
	if !dated(parsed) && timeWords(in.Text) {
		from, okFrom := planDay(args.From, in.Now)
		to, okTo := planDay(args.To, in.Now)
		switch {
		case okFrom && okTo && !to.Before(from):
			d.Period = slot(ru.Period{From: from, To: to, Kind: ru.KindRange}, FromPlanner, args.From+"…"+args.To)
		default:
			if t, ok := planDay(args.Date, in.Now); ok {
				d.Date = slot(t, FromPlanner, args.Date)
			}
		}
	}
	return d, true
}

// takesParty reports whether a recipe filters by a counterparty.
func takesParty(r recipe.Name) bool {
	rc, ok := recipe.For(r)
	return ok && (slices.Contains(rc.Required, recipe.FilterCounterparty) || slices.Contains(rc.Optional, recipe.FilterCounterparty))
}

// dated reports whether the parser read a date or period from the message, or refused one.
func dated(d Decision) bool { return d.Date.Set || d.Period.Set || d.DateError != "" }

// named reports whether the parser found a name of a company in the message: resolved, several
// candidates, or none in the catalogs.
func named(d Decision) bool {
	return d.Counterparty.Set || len(d.Candidates) > 0 || d.Unknown != ""
}

// planDay parses a plan's date: a real day in Moscow, not after notAfter (when given).
func planDay(s string, notAfter time.Time) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(time.DateOnly, s, ru.Moscow)
	if err != nil || t.Year() < 2000 {
		return time.Time{}, false
	}
	if !notAfter.IsZero() && t.After(notAfter.In(ru.Moscow)) {
		return time.Time{}, false
	}
	return t, true
}

// timeStems are word stems that speak of time: a message without one (and without a digit)
// names no date, so a date of the plan would be invented.
var timeStems = []string{"январ", "феврал", "март", "апрел", "май", "мая", "мае", "июн", "июл", "август", "сентябр",
	"октябр", "ноябр", "декабр", "квартал", "кв", "полугод", "пол", "год", "месяц", "мес", "недел", "дн", "ден",
	"вчер", "позавчер", "сегодн", "завтр", "начал", "конец", "конц", "прошл", "позапрошл", "текущ", "числ", "нач"}

// timeWords reports whether text speaks of a date or a period.
func timeWords(text string) bool {
	for _, t := range Tokenize(text) {
		if strings.IndexFunc(t.Text, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 {
			return true
		}
		for _, s := range timeStems {
			if t.Stem == s || len(s) >= 4 && strings.HasPrefix(t.Text, s) {
				return true
			}
		}
	}
	return false
}

// planAccount takes the plan's account when the chart has it and the message writes it (its
// first two digits as a number), or it is the recipe's own default account.
func (p *Parser) planAccount(d *Decision, code string, in Input) {
	code = strings.TrimSpace(code)
	if !accountRe.MatchString(code) {
		return
	}
	if def := defaultAccount(d.Recipe); def != code {
		top := code[:2]
		written := false
		for _, t := range Tokenize(in.Text) {
			if t.Text == top || strings.HasPrefix(t.Text, top+".") {
				written = true
			}
		}
		if !written {
			return
		}
	}
	if in.Catalogs != nil && len(in.Catalogs.Accounts) > 0 && !knownAccount(code, in.Catalogs.Accounts) {
		d.UnknownAccount = code
		return
	}
	d.Account = slot(code, FromPlanner, code)
}

// defaultAccount is the account a recipe reads when none is named.
func defaultAccount(r recipe.Name) string {
	switch r {
	case recipe.Receivables:
		return "62"
	case recipe.Payables:
		return "60"
	}
	return ""
}

// planEntity resolves a name (or an INN) of the plan against the catalog: one live entity, by
// reference, INN or name, that the written text names too.
func planEntity(name, inn string, es []recipe.Entity, written string) (recipe.Entity, bool) {
	name = strings.TrimSpace(name)
	var found []recipe.Entity
	for _, e := range es {
		if e.Deleted {
			continue
		}
		if name != "" && (e.Ref == name || strings.EqualFold(e.Name, name)) || inn != "" && e.INN == inn || name != "" && e.INN == name {
			found = append(found, e)
		}
	}
	if len(found) == 0 && name != "" {
		r := resolveParty(matchNames(Tokenize(name), es, nil))
		if r.match != nil {
			found = append(found, r.match.e)
		}
	}
	if len(found) != 1 {
		return recipe.Entity{}, false
	}
	e := found[0]
	if e.INN != "" && strings.Contains(written, e.INN) {
		return e, true
	}
	for _, m := range matchNames(Tokenize(written), []recipe.Entity{e}, nil) {
		if m.e.Ref == e.Ref {
			return e, true
		}
	}
	return recipe.Entity{}, false
}

// planContract resolves a contract of the plan (a reference or a number) that the written text
// names too.
func planContract(ref string, es []recipe.Entity, owner, written string) (recipe.Entity, bool) {
	for _, e := range es {
		if !e.Deleted && (e.Ref == ref || e.Number == ref) {
			if got, _, ok := findContract(written, es, owner); ok && got.Ref == e.Ref {
				return e, true
			}
		}
	}
	return recipe.Entity{}, false
}

// TakesParty reports whether recipe r reads a counterparty: without one, its answer asks which.
func TakesParty(r recipe.Name) bool { return takesParty(r) }
