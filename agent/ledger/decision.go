package ledger

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/finbot/finbot/integrations/onec"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

// FromDecision is the lane's request for a question understood as a 1C one: the decision's
// recipe and its slots as filters. Names go by their catalog reference, so the lane's resolver
// cannot pick another.
func FromDecision(d understand.Decision) runner.Decomposition {
	f := recipe.Filters{}
	if d.Date.Set {
		f.AsOfDate = d.Date.Value.Format(time.DateOnly)
	}
	if d.Period.Set {
		f.PeriodFrom, f.PeriodTo = d.Period.Value.From.Format(time.DateOnly), d.Period.Value.To.Format(time.DateOnly)
	}
	if d.Account.Set {
		f.Account = d.Account.Value
	} else if d.UnknownAccount != "" {
		f.Account = d.UnknownAccount // the lane says the chart has no such account
	}
	if d.Counterparty.Set {
		f.Counterparty = d.Counterparty.Value.Ref
	}
	if d.Contract.Set {
		f.Contract = d.Contract.Value.Ref
	}
	f.Detail = d.Detail
	f.DocumentType = d.DocumentType
	f.Item = d.Item
	if d.Top > 0 && (d.Recipe == recipe.Receivables || d.Recipe == recipe.Payables) {
		f.Sort = "amount_desc" // the lists are by amount already; the answer names the largest first
		f.Limit = d.Top
	}
	if (d.Recipe == recipe.TurnoverSheet || aging(d.Recipe) || d.Recipe == recipe.ReconciliationAct) && d.Contract.Set && !d.Counterparty.Set {
		// «осв по 62 по договору П-77/2024»: the sheet of the contract's counterparty by contract;
		// «просрочка по договору П-77/2024»: its counterparty's aging, the contract a row of it;
		// «акт сверки по договору П-77/2024»: the act of its counterparty, by that contract.
		f.Counterparty = d.Contract.Value.OwnerRef
	}
	if d.Organization.Set {
		f.Organization = d.Organization.Value.Ref
	}
	name := d.Recipe
	if name == recipe.DocumentsFormBalance && f.Account == "" {
		// «из чего складывается долг Альфы»: the documents that make up a counterparty's or a
		// contract's balance on 60 and 62 are its open items; the drilldown needs one account.
		switch {
		case d.Contract.Set:
			name = recipe.OpenItemsByContract
		case d.Counterparty.Set:
			name = recipe.OpenItemsByParty
		}
	}
	dec := runner.Decomposition{QuestionMode: runner.ModeLedger, Intent: name, Unsure: !d.Sure, Planned: d.Rule == "planner", Turnover: d.Turnover, Corr: d.Corr, Last: d.Last, Flow: d.Flow, AtLeast: onec.Kopecks(d.AtLeast), OverdueDays: d.OverdueDays,
		Filters: f, FallbackRuleHit: "understand:" + d.Rule, Reasons: d.Reasons, QueryShape: "list"}
	// A settlement account goes as its number: the lane scopes the answer to its organization
	// and names it (no recipe filters by the account itself; see runner.Decomposition).
	if d.BankAccount.Set {
		dec.BankAccount = d.BankAccount.Value.Number
	} else if d.UnknownBankAccount != "" {
		dec.BankAccount = d.UnknownBankAccount // the lane says none of ours has it and lists ours
	}
	dec.Missing = recipe.MissingFilters(dec.Intent, dec.Filters)
	return dec
}

// Commands are the ledger commands and the recipe each asks for (/aging: receivables, or
// payables when its arguments say so — CommandRecipe).
var Commands = map[string]recipe.Name{
	"debts":    recipe.Receivables,
	"payables": recipe.Payables,
	"balance":  recipe.AccountBalance,
	"aging":    recipe.ReceivablesAging,
	"act":      recipe.ReconciliationAct,
	"sverka":   recipe.ReconciliationAct,
	"card":     recipe.CounterpartyCard,
	"offsets":  recipe.OffsetCandidates,
	"stock":    recipe.StockBalance,
}

// payablesWords are /aging's arguments that ask for what we owe: «/aging поставщики», «/aging кз».
var payablesWords = regexp.MustCompile(`(?i)(поставщик|кредитор|(^|[^\p{L}\d])кз($|[^\p{L}])|(^|[^\d.])60($|[^\d])|мы\s+должн)`)

// CommandRecipe is the recipe a ledger command asks for, its arguments (args, as the parser read
// them in parsed) considered: «/aging поставщики» is the payables' aging.
func CommandRecipe(command, args string, parsed understand.Decision) (recipe.Name, bool) {
	name, ok := Commands[command]
	if ok && command == "aging" && (parsed.Recipe == recipe.Payables || parsed.Recipe == recipe.PayablesAging || payablesWords.MatchString(args)) {
		name = recipe.PayablesAging
	}
	return name, ok
}

// nameWritten is a command's arguments without its period or date and the words around a
// name («с», «за»): what is left names the company; "" when nothing is.
func nameWritten(args string, d understand.Decision) string {
	for _, t := range []string{d.Period.Text, d.Date.Text} {
		if t != "" {
			args = strings.Replace(args, t, " ", 1)
		}
	}
	var words []string
	for _, w := range strings.Fields(args) {
		switch strings.ToLower(w) {
		case "с", "со", "за", "по", "на", "акт", "сверка", "сверки":
			continue
		}
		words = append(words, w)
	}
	name := strings.Trim(strings.Join(words, " "), " ,.;:!?")
	if !strings.ContainsFunc(name, unicode.IsLetter) {
		return ""
	}
	return name
}

// aging reports whether r is an aging recipe.
func aging(r recipe.Name) bool { return r == recipe.ReceivablesAging || r == recipe.PayablesAging }

// accountToken is an account code argument: 51, 62.01.
var accountToken = regexp.MustCompile(`^\d{2,3}(\.\d{1,2}){0,2}$`)

// StockArgs is how /stock's arguments are read: as a stock question («/stock бумага 31.03.2026»
// is «остатки на складе бумага 31.03.2026»), so that a name in them is an item of the
// nomenclature, not a counterparty («Бумага и Ко»).
func StockArgs(args string) string { return "остатки на складе " + args }

// FromCommand is the lane's request for a ledger command (/debts, /payables, /balance, /aging, /stock) whose
// arguments the parser read into d: the command fixes the recipe, the arguments give the date
// (a period's end), the account («/balance 51 31.03.2026»: the first argument) and the names; a
// name the catalogs lack goes as written, for the lane's resolver to try. ok is false for a
// command that is not a ledger one.
func FromCommand(command, args string, d understand.Decision) (dec runner.Decomposition, ok bool) {
	name, ok := CommandRecipe(command, args, d)
	if !ok {
		return runner.Decomposition{}, false
	}
	d.Kind, d.Recipe = understand.KindLedger, name
	if d.Period.Set && !d.Date.Set && name != recipe.ReconciliationAct { // an act is of a period
		d.Date = understand.Slot[time.Time]{Value: d.Period.Value.To, Source: d.Period.Source, Text: d.Period.Text, Set: true}
		d.Period = understand.Slot[ru.Period]{}
	}
	dec = FromDecision(d)
	dec.FallbackRuleHit = "command_" + command
	switch {
	case d.Unknown != "" && !d.Counterparty.Set:
		dec.Filters.Counterparty = d.Unknown
	case name == recipe.ReconciliationAct && !d.Counterparty.Set && d.Contract.Set:
		dec.Filters.Counterparty = d.Contract.Value.OwnerRef // «/act П-77/2024»: the contract's company
	case name == recipe.ReconciliationAct && !d.Counterparty.Set:
		// «/act Гамма», «/act Гранит»: the words besides the period are the company as written —
		// the lane's resolver says it found none, or offers the companies it fits as buttons
		dec.Filters.Counterparty = nameWritten(args, d)
	}
	if command == "balance" || command == "stock" {
		if first, _, _ := strings.Cut(strings.TrimSpace(args), " "); accountToken.MatchString(first) {
			dec.Filters.Account = first
		}
	}
	if command == "stock" {
		dec.Filters.Counterparty, dec.Filters.Contract = "", "" // a name is an item here (StockArgs)
	}
	dec.Missing = recipe.MissingFilters(dec.Intent, dec.Filters)
	return dec, true
}

// digitsOnly is an argument of digits alone: «/card 7701234567» names an INN or nothing.
var digitsOnly = regexp.MustCompile(`^\d{5,15}$`)

// notINN says why the argument of /card is no INN (its length, its check digits); "" when it is
// one, or is not digits alone.
func notINN(command, args string) string {
	arg := strings.TrimSpace(args)
	if command != "card" || !digitsOnly.MatchString(arg) {
		return ""
	}
	switch {
	case len(arg) != 10 && len(arg) != 12:
		return fmt.Sprintf("«%s» — не ИНН: у организации в ИНН 10 цифр, у ИП — 12. Проверьте номер или назовите контрагента.", arg)
	case !recipe.ValidINN(arg):
		return fmt.Sprintf("«%s» — не ИНН: не сходятся контрольные цифры. Проверьте номер или назовите контрагента.", arg)
	}
	return ""
}
