package understand

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/ru"
)

// State is what a dialog remembers of its last answered question: the kind, the recipe and the
// slots of its decision. A follow-up («а на начало года?», «а у гранита?», «а в юанях?») replaces
// the slots it names and keeps the rest. It is kept with the dialog's history (as JSON, in Redis
// when configured), per chat and user, so it survives a restart.
type State struct {
	Kind       Kind        `json:"kind"`
	Recipe     recipe.Name `json:"recipe,omitempty"`
	Date       *time.Time  `json:"date,omitempty"`
	DateText   string      `json:"date_text,omitempty"`
	Period     *ru.Period  `json:"period,omitempty"`
	Currencies []string    `json:"currencies,omitempty"`
	Nominal    int         `json:"nominal,omitempty"`
	Account    string      `json:"account,omitempty"`
	Detail     string      `json:"detail,omitempty"`
	// OverdueDays is the days overdue an aging asked past («дебиторка старше 60 дней»): «а на
	// 1 апреля?» keeps them, «а больше 30?» sets others.
	OverdueDays int `json:"overdue_days,omitempty"`
	// AtLeast and Top are a list's conditions («кто нам должен больше миллиона», «топ 3
	// должников»): a follow-up that only moves the date keeps them.
	AtLeast int64 `json:"at_least,omitempty"`
	Top     int   `json:"top,omitempty"`
	// Turnover and Corr are a card's side and corresponding account («списания с 51 за март»,
	// «платежи поставщикам»): «а за апрель?» keeps them.
	Turnover     string              `json:"turnover,omitempty"`
	Corr         string              `json:"corr,omitempty"`
	Counterparty *recipe.Entity      `json:"counterparty,omitempty"`
	Contract     *recipe.Entity      `json:"contract,omitempty"`
	Organization *recipe.Entity      `json:"organization,omitempty"`
	BankAccount  *recipe.BankAccount `json:"bank_account,omitempty"`
	// Candidates are the counterparties a question back offered: the answer may name one by
	// any word of its name («центр»).
	Candidates []recipe.Entity `json:"candidates,omitempty"`
	// Question is the message the state answered, for the planner's summary of a follow-up.
	Question string `json:"question,omitempty"`
	// Docs are the user's documents a document answer quoted (KindDocs).
	Docs []string `json:"docs,omitempty"`
	// Listed are the counterparties a 1C answer listed, in the order of its rows: «карточка 3»
	// or «подробнее» after it (or in reply to it) asks for the card of that one.
	Listed []recipe.Entity `json:"listed,omitempty"`
	// Replied: the message replies to the answer this state is of (a reply to an older answer
	// than the last): a bare row number is then a row of its list. Not kept.
	Replied bool `json:"-"`
}

// StateOf is the state a decision leaves for the next message, or false when it leaves none:
// only questions with slots to continue (1C, rates, the key rate) do. A question back about a
// counterparty (several candidates, an unknown name) leaves the question it was asked about, so
// that the answer to it («а ООО «Гранит»?», a button) continues it.
func StateOf(d Decision, question string) (State, bool) {
	s := State{Kind: d.Kind, Recipe: d.Recipe, Question: question}
	switch {
	case d.Kind == KindLedger && d.Recipe != "", d.Kind == KindRate, d.Kind == KindKeyRate:
	case d.Kind == KindDocs:
		// A document answer that quoted something leaves what it asked (with what it
		// continued) and the documents quoted, for «а без ндс?».
		if len(d.ContinuesDocs) == 0 {
			return State{}, false
		}
		if d.Continues != "" {
			s.Question = d.Continues + "\n" + question // the latest turn last, a line of its own
		}
		s.Docs = d.ContinuesDocs
		return s, true
	case (d.Kind == KindClarify || d.Kind == KindUnknownEntity) && d.Recipe != "":
		s.Kind = KindLedger
	default:
		return State{}, false
	}
	if d.Date.Set {
		s.DateText = d.Date.Text
	}
	s.Date, s.Period = d.Date.ptr(), d.Period.ptr()
	s.Currencies, s.Nominal = d.Currencies.Value, d.Nominal.Value
	s.Account, s.Detail, s.OverdueDays = d.Account.Value, d.Detail, d.OverdueDays
	if isListRecipe(d.Recipe) {
		s.AtLeast, s.Top = d.AtLeast, d.Top
	}
	if d.Recipe == recipe.AccountCard || d.Recipe == recipe.TurnoverSheet {
		s.Turnover, s.Corr = d.Turnover, d.Corr
	}
	s.Counterparty, s.Contract, s.Organization = d.Counterparty.ptr(), d.Contract.ptr(), d.Organization.ptr()
	s.BankAccount = d.BankAccount.ptr()
	if d.Kind == KindClarify {
		s.Candidates = d.Candidates
	}
	return s, true
}

// subjectConcepts name what a message asks about: a message with none of them («а на 1.03?»,
// «а гранит?», «в юанях») only gives slots.
var subjectConcepts = []Concept{CReceivables, CPayables, CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CDocuments,
	CBankOps, CContracts, CForming, CWrite, CRate, CKeyRate, CNews, CSmallTalk, CKBQuestion, CKBTopic, CMyDocs, CDocTerms,
	CAnalysis, CTurnoverSheet, CAccountCard, CAging, CReconcile, COffsets}

// ledgerSubjects are the subject concepts of a 1C question.
var ledgerSubjects = []Concept{CReceivables, CPayables, CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CDocuments,
	CBankOps, CContracts, CForming, CTurnoverSheet, CAccountCard, CAging, CReconcile, COffsets}

// isLedgerSubject reports whether the message names a subject of a 1C question.
func (s *scan) isLedgerSubject() bool {
	return s.is(ledgerSubjects...) || s.hasValue(CPartyCard, "strong")
}

// FollowUp reads a message in the light of the previous question's state. It returns the
// decision for the message and true when the message continues that question; a message that
// asks something of its own, or a previous question with no slots, gives false and the caller
// keeps the message's own decision.
//
// A continuation replaces the slots it names and keeps the rest: a date or period, a
// currency and nominal, an account, a counterparty (after a list, the list becomes that
// company's debt), a contract, our organization. It may name its own subject within the same
// source («дебиторка на 1.03» → «а кредиторка?»). What it cannot continue is a question back:
// a currency after a 1C figure («а в евро?»), «по другому контрагенту» with no name.
func (p *Parser) FollowUp(in Input, cur Decision, prev State) (Decision, bool) {
	if prev.Kind == "" {
		return Decision{}, false
	}
	return p.followUp(p.scan(in), cur, prev)
}

func (p *Parser) followUp(s *scan, cur Decision, prev State) (Decision, bool) {
	in := s.in
	same := s.startsWith("то же", "тоже самое", "то же самое") || s.hasPhrase("ту же", "тот же", "то же", "эту дату", "эту же",
		"этот же", "этому счету", "этому счёту", "по нему", "по ним", "тогда")
	cue := s.first(CFollowUp) == 0 || same || s.startsWith("теперь", "ну а", "а для", "и для")
	// A card asked by its own words («досье», «карточка контрагента») is a subject; «что по …»
	// after a list only names the company the list continues with.
	subject := s.is(subjectConcepts...) || s.hasValue(CPartyCard, "strong")
	ledgerPrev := prev.Kind == KindLedger
	// own is the message read without its opening «а»: the parser takes «а кредиторка?» for a
	// bare continuation, and «а что ты умеешь?» for one too.
	own := cur
	if cur.Rule == "follow_up_without_context" {
		own = p.Parse(Input{Text: strings.Join(s.rawAfterCue(), " "), Now: in.Now, Catalogs: in.Catalogs, Docs: in.Docs})
	}
	fresh := func() (Decision, bool) {
		if own.Rule != cur.Rule {
			return own, true // a question of its own, read without its «а»
		}
		return Decision{}, false
	}
	cbr := func(k Kind) bool { return k == KindRate || k == KindKeyRate }
	if prev.Kind == KindDocs {
		// «сколько они нам перечислят и когда» after the commission's fee: «они» are the
		// document's side the last answer was about
		return docsFollowUp(s, cur, own, prev, cue || refersBack.MatchString(ru.Fold(in.Text)), subject)
	}
	if cur.Rule == "tax_amount" {
		// «сколько налога на прибыль заплатим за год» after a company's debt: a question of its
		// own, which no previous company or period answers
		return Decision{}, false
	}
	if d, ok := cardFollowUp(s, cur, prev); ok {
		return d, true // «карточка 3», «подробнее» after a list or a company's answer
	}
	switch {
	case len(s.toks) > 12:
		return Decision{}, false // a question of its own
	case len(prev.Candidates) > 1 && !subject:
		if e, ok := pickCandidate(s, prev.Candidates); ok {
			// «центр» after «Логистик Центр или Северсталь-Логистик?»: the answer to the question back.
			cur.Counterparty = slot(e, FromCatalog, e.Name)
			cur.Candidates, cur.Unknown, cur.Kind = nil, "", KindLedger
		}
	case actContract(s, cur, prev):
		// «а по договору П-77/2024?» after an act: its «по договору» is no uploaded document's
	case subject && s.is(CNews, CSmallTalk, CKBQuestion, CMyDocs, CDocTerms, CWrite):
		return fresh()
	case subject && s.is(CKBTopic) && !s.isLedgerSubject() && !s.is(CRate, CKeyRate):
		return fresh()
	case subject && !cue && !(ledgerPrev && lacks(own) && s.isLedgerSubject()):
		return Decision{}, false // a complete question of its own
	case subject && ledgerPrev && !s.isLedgerSubject() && !s.is(CAccount, CAccountWord):
		return fresh() // «а курс евро?» after a 1C figure: a new topic
	case subject && !ledgerPrev && s.isLedgerSubject():
		return fresh() // «а кто нам должен?» after a rate: a new topic
	case !subject && !cue && !slotsOnly(s, cur):
		return Decision{}, false
	}
	d := prev.decision()
	d.Rule, d.Sure = "follow_up", true
	if d.Recipe == recipe.ReceivablesAging || d.Recipe == recipe.PayablesAging {
		// «а больше 30 дней?», «а больше 90?» after «дебиторка старше 60 дней»: an aging's
		// figure with no unit is its days
		n := overdueDays(s.folded)
		if m := bareOlder.FindStringSubmatch(s.folded); n == 0 && m != nil {
			n, _ = strconv.Atoi(m[2])
		}
		if n > 0 && n <= 3650 {
			d.OverdueDays = n
		}
	}
	d.Reasons = []string{"продолжение вопроса «" + ru.Truncate(prev.Question, 80) + "»"}
	switch {
	case prev.Recipe == recipe.AccountCard && strings.HasPrefix(prev.Account, "51") && s.is(CBankOps) && !own.Counterparty.Set:
		// «а поступления?», «а списания?» after the card of 51: one side of the same card, not a
		// company's bank operations (whose?)
		switch in, out := moneyIn.MatchString(s.folded), moneyOut.MatchString(s.folded); {
		case in && !out:
			d.Turnover = "debit"
		case out && !in:
			d.Turnover = "credit"
		}
	case actContract(s, own, prev):
		// «а по договору П-77/2024?» after an act: the act of that contract
	case subject && ledgerPrev && own.Recipe != "":
		d.Recipe = own.Recipe // «дебиторка на 1.03» → «а кредиторка?»; «а отгрузки?»
		if !takesParty(d.Recipe) {
			d.Counterparty, d.Contract = Slot[recipe.Entity]{}, Slot[recipe.Entity]{}
		}
		if isListRecipe(prev.Recipe) && !own.Account.Set && d.Account.Source == FromDialog && own.Recipe != prev.Recipe {
			d.Account = Slot[string]{} // «дебиторка по 62» → «а кредиторка?»: its own default account
		}
	case subject && ledgerPrev && (s.is(CAging) || overdueDays(s.folded) > 0):
		// «кто нам должен на 31.03» → «а просроченная?»; «долги старше 90 дней» after a
		// company's payments: that company's aging, never its payments again
		d.Recipe = agingOf(d.Recipe)
		if n := overdueDays(s.folded); n > 0 {
			d.OverdueDays = n
		}
	case subject && ledgerPrev && s.is(CBankOps):
		d.Recipe = recipe.BankOpsByParty // «а платежи?»
	case subject && ledgerPrev && s.is(CDocuments) && !s.is(CForming):
		d.Recipe = recipe.DocumentsByParty // «а отгрузки?», «а документы по нему?»
	case subject && ledgerPrev && s.is(CAccountCard):
		d.Recipe = recipe.AccountCard // «а карточку?» after the sheet of an account
	case subject && ledgerPrev && s.is(CBalance):
		d.Recipe = recipe.AccountBalance // «а остаток по этому счёту?»
	case subject && ledgerPrev && s.is(CForming):
		d.Recipe = recipe.DocumentsFormBalance
	case !ledgerPrev && cbr(own.Kind) && own.Kind != prev.Kind:
		d.Kind = own.Kind // «курс евро на 1.03» → «а ключевая?»; «ключевая на 31.03» → «а евро тогда?»
		if d.Kind == KindKeyRate {
			d.Currencies, d.Nominal = Slot[[]string]{}, Slot[int]{}
		}
	}
	if !ledgerPrev && !cbr(d.Kind) {
		return fresh()
	}
	if !subject && ledgerPrev && isListRecipe(d.Recipe) {
		switch {
		case s.hasToken("кому"):
			d.Recipe = sideOf(d.Recipe, true) // «кто нам должен» → «а мы кому?»
		case s.hasToken("нам") && (s.hasToken("кто") || s.hasToken("сколько")):
			d.Recipe = sideOf(d.Recipe, false)
		case s.is(CSuppliers) && !s.is(CCustomers):
			d.Recipe = sideOf(d.Recipe, true) // «кто нам должен» → «а поставщикам?»: what we owe them
		case s.is(CCustomers) && !s.is(CSuppliers):
			d.Recipe = sideOf(d.Recipe, false) // «кому мы должны» → «а покупатели?»: what they owe us
		}
		if d.Recipe != prev.Recipe && !cur.Account.Set && d.Account.Source == FromDialog {
			d.Account = Slot[string]{} // «дебиторка по 62» → «а мы кому?»: 60, not 62
		}
	}
	other := s.hasStemPrefix("друг")
	switch shift, ok := s.dateShift(); {
	case ok:
		d.Date, d.Period = shiftSlots(d, shift, in.Now)
	case cur.DateError != "":
		d.DateError, d.DateFuture = cur.DateError, cur.DateFuture
	case cur.Period.Set && d.Kind == KindLedger && asOfRecipe(d.Recipe):
		d.Date, d.Period = slot(cur.Period.Value.To, FromText, cur.Period.Text), Slot[ru.Period]{}
	case cur.Period.Set:
		d.Period, d.Date = cur.Period, Slot[time.Time]{}
	case cur.Date.Set && d.Kind == KindLedger && !asOfRecipe(d.Recipe):
		day := cur.Date.Value
		d.Period = slot(ru.Period{From: day, To: day, Kind: ru.KindDay, Text: cur.Date.Text}, FromText, cur.Date.Text)
		d.Date = Slot[time.Time]{}
	case cur.Date.Set:
		d.Date, d.Period = cur.Date, Slot[ru.Period]{}
	case s.hasToken("сейчас") || s.hasToken("сегодня") || s.hasPhrase("на текущий момент", "на сегодня"):
		d.Date, d.Period = Slot[time.Time]{}, Slot[ru.Period]{} // «а сейчас?»: today
	}
	if cur.Currencies.Set || len(cur.UnknownCurrencies) > 0 {
		if d.Kind != KindRate {
			return clarifyFollowUp(d, "Пересчитывать суммы из 1С в другую валюту я не умею. Курс можно спросить отдельно, например «курс евро на 31.03»."), true
		}
		codes := cur.Currencies.Value
		if s.hasToken("тоже") || s.hasToken("также") || s.hasPhrase("и еще", "и ещё") {
			codes = append(slices.Clone(d.Currencies.Value), codes...) // «и евро тоже»
		}
		d.Currencies, d.UnknownCurrencies = slot(slices.Compact(codes), FromText, cur.Currencies.Text), cur.UnknownCurrencies
	}
	switch {
	case cur.Nominal.Set:
		d.Nominal = cur.Nominal
	case d.Kind == KindRate && !cur.Date.Set && !cur.Period.Set:
		if n, ok := s.bareAmount(); ok {
			d.Nominal = slot(n, FromText, strconv.Itoa(n)) // «сколько стоят 100 евро» → «а 500?»
		}
	}
	if d.Kind != KindLedger {
		if cur.Counterparty.Set || cur.Account.Set || len(cur.Candidates) > 0 || other {
			return clarifyFollowUp(d, "Не понял, к чему относится уточнение. Спросите, пожалуйста, целиком."), true
		}
		return d, true
	}
	if cur.Organization.Set {
		d.Organization = cur.Organization
		d.BankAccount = Slot[recipe.BankAccount]{} // another organization's answer is not the account's
	}
	switch {
	case cur.BankAccount.Set:
		d.BankAccount, d.Organization, d.UnknownBankAccount = cur.BankAccount, cur.Organization, ""
		if !d.Account.Set {
			d.Account = cur.Account
		}
	case cur.UnknownBankAccount != "":
		d.Kind, d.UnknownBankAccount, d.BankAccount = KindUnknownEntity, cur.UnknownBankAccount, Slot[recipe.BankAccount]{}
	case len(cur.BankAccountCandidates) > 1:
		d.Kind, d.BankAccountCandidates = KindClarify, cur.BankAccountCandidates
	}
	if cur.Counterparty.Set && in.Catalogs != nil && prev.Organization != nil {
		// «дебиторка трейда» → «а у северного ветра?»: our other organization, not the customer
		// that has its name.
		for _, o := range in.Catalogs.Organizations {
			if sameCore(o.Name, cur.Counterparty.Value.Name) && o.Ref != prev.Organization.Ref {
				d.Organization, cur.Counterparty = slot(o, FromCatalog, cur.Counterparty.Text), Slot[recipe.Entity]{}
			}
		}
	}
	account, accountOK := cur.Account, cur.Account.Set
	if !accountOK && cur.UnknownAccount == "" {
		account, accountOK = s.bareAccount(in.Catalogs, cur) // «а 62?», «теперь по 60»
	}
	if accountOK || cur.UnknownAccount != "" {
		d.Account, d.UnknownAccount = account, cur.UnknownAccount
		if !cur.Counterparty.Set && (d.Recipe == recipe.OpenItemsByParty || d.Recipe == recipe.OpenItemsByContract) {
			// «остаток 51 на 1.04» after a company's debt: the account's balance.
			d.Recipe = recipe.AccountBalance
		}
	}
	switch {
	case len(cur.Candidates) > 1:
		d.Kind, d.Candidates, d.Counterparty, d.Contract = KindClarify, cur.Candidates, Slot[recipe.Entity]{}, Slot[recipe.Entity]{}
		d.Recipe = partyRecipe(d.Recipe)
	case cur.Unknown != "" && !cur.Counterparty.Set:
		d.Kind, d.Unknown, d.Closest = KindUnknownEntity, cur.Unknown, cur.Closest
		d.Counterparty, d.Contract = Slot[recipe.Entity]{}, Slot[recipe.Entity]{}
		d.Recipe = partyRecipe(d.Recipe)
	case cur.Contract.Set:
		d.Contract, d.Counterparty = cur.Contract, cur.Counterparty
	case cur.Counterparty.Set:
		d.Counterparty, d.Contract = cur.Counterparty, Slot[recipe.Entity]{}
		d.Recipe = partyRecipe(d.Recipe)
	case other && s.hasStemPrefix("контрагент"), other && s.hasStemPrefix("компани"), other && s.hasStemPrefix("фирм"):
		return clarifyFollowUp(d, "Уточните, по какому контрагенту: назовите его или укажите ИНН."), true
	case other && s.hasStemPrefix("организац"):
		return clarifyFollowUp(d, "Уточните, по какой из наших организаций."), true
	}
	if d.Contract.Set {
		// A contract's documents and debt are read by the contract.
		switch d.Recipe {
		case recipe.DocumentsByParty, recipe.BankOpsByParty:
			d.Recipe = recipe.DocumentsByContract
		case recipe.OpenItemsByParty, recipe.Receivables, recipe.Payables, recipe.AccountBalance:
			d.Recipe = recipe.OpenItemsByContract
		}
	}
	p.settleDates(&d)
	return d, true
}

// actContract reports whether the message only names a contract after an act of
// reconciliation («а по договору П-77/2024?»): the act of that contract.
func actContract(s *scan, cur Decision, prev State) bool {
	return prev.Kind == KindLedger && prev.Recipe == recipe.ReconciliationAct && cur.Contract.Set && !s.is(CReceivables, CPayables,
		CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CDocuments, CBankOps, CForming, CTurnoverSheet, CAccountCard, CAging)
}

// isListRecipe reports whether r lists counterparties by a debt's direction (their debts, or
// their debts by days overdue).
func isListRecipe(r recipe.Name) bool {
	switch r {
	case recipe.Receivables, recipe.Payables, recipe.ReceivablesAging, recipe.PayablesAging:
		return true
	}
	return false
}

// sideOf is the list recipe r on the side asked: what we owe (payables) or what is owed to us,
// by days overdue when r is.
func sideOf(r recipe.Name, payables bool) recipe.Name {
	aging := r == recipe.ReceivablesAging || r == recipe.PayablesAging
	switch {
	case aging && payables:
		return recipe.PayablesAging
	case aging:
		return recipe.ReceivablesAging
	case payables:
		return recipe.Payables
	}
	return recipe.Receivables
}

// agingOf is the aging on the side of r: what we owe by days overdue after the payables, what
// is owed to us otherwise («долг альфы» → «а просрочка?»: Альфа's).
func agingOf(r recipe.Name) recipe.Name {
	if r == recipe.Payables || r == recipe.PayablesAging {
		return recipe.PayablesAging
	}
	return recipe.ReceivablesAging
}

// pickCandidate is the one candidate of a question back that the answer names by a word of
// its name that the other candidates do not have («центр» of «Логистик Центр»).
func pickCandidate(s *scan, cands []recipe.Entity) (recipe.Entity, bool) {
	var found []recipe.Entity
	for i, c := range cands {
		keys := keysOf(c)
		if len(keys) == 0 {
			continue
		}
		own := slices.Clone(keys[0].words)
		for j, o := range cands {
			if j != i {
				if ok := keysOf(o); len(ok) > 0 {
					own = slices.DeleteFunc(own, func(w string) bool { return slices.Contains(ok[0].words, w) })
				}
			}
		}
		for _, t := range s.toks {
			if slices.Contains(own, t.Stem) || slices.ContainsFunc(own, func(w string) bool { return declined(t.Text, w) }) {
				found = append(found, c)
				break
			}
		}
	}
	if len(found) != 1 {
		return recipe.Entity{}, false
	}
	return found[0], true
}

// dateShift reads a shift of the previous question's date: «месяцем раньше», «за месяц до
// этого», «годом раньше», «в прошлом году на ту же дату», «неделей раньше», «днём раньше».
func (s *scan) dateShift() (shift [3]int, ok bool) {
	before := s.hasToken("раньше") || s.hasPhrase("до этого", "до того", "назад")
	switch {
	case s.hasPhrase("в прошлом году на ту же дату", "год назад на ту же дату", "на ту же дату прошлого года",
		"на ту же дату в прошлом году"):
		return [3]int{-1, 0, 0}, true
	case !before:
		return shift, false
	case s.hasToken("месяцем") || s.hasPhrase("за месяц", "месяц до"):
		return [3]int{0, -1, 0}, true
	case s.hasToken("годом") || s.hasPhrase("за год", "год до"):
		return [3]int{-1, 0, 0}, true
	case s.hasToken("неделей") || s.hasPhrase("за неделю", "неделю до"):
		return [3]int{0, 0, -7}, true
	case s.hasToken("днем") || s.hasToken("днём") || s.hasPhrase("за день", "день до"):
		return [3]int{0, 0, -1}, true
	}
	return shift, false
}

// shiftSlots moves the decision's date or period by shift (years, months, days): a month
// moves to the same day of the other month, a whole month's period to the whole other month.
func shiftSlots(d Decision, shift [3]int, now time.Time) (Slot[time.Time], Slot[ru.Period]) {
	move := func(t time.Time) time.Time {
		y, m, day := t.Date()
		first := time.Date(y+shift[0], m+time.Month(shift[1]), 1, 0, 0, 0, 0, ru.Moscow)
		last := first.AddDate(0, 1, -1).Day()
		return time.Date(first.Year(), first.Month(), min(day, last), 0, 0, 0, 0, ru.Moscow).AddDate(0, 0, shift[2])
	}
	if d.Period.Set {
		per := d.Period.Value
		from, to := move(per.From), move(per.To)
		if per.Kind == ru.KindMonth || per.From.Day() == 1 && per.To.AddDate(0, 0, 1).Day() == 1 {
			to = time.Date(from.Year(), from.Month()+time.Month(monthsIn(per)), 1, 0, 0, 0, 0, ru.Moscow).AddDate(0, 0, -1)
		}
		per.From, per.To, per.Text = from, to, ""
		return Slot[time.Time]{}, slot(per, FromText, "")
	}
	day := now.In(ru.Moscow)
	if d.Date.Set {
		day = d.Date.Value
	}
	day = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, ru.Moscow)
	return slot(move(day), FromText, ""), Slot[ru.Period]{}
}

// monthsIn is the number of whole months a period spans.
func monthsIn(p ru.Period) int {
	return (p.To.Year()-p.From.Year())*12 + int(p.To.Month()-p.From.Month()) + 1
}

// bareAccount reads an account code written alone in a follow-up («а 62?», «теперь по 60»):
// a code of the chart that is not part of a date the message names.
func (s *scan) bareAccount(c *recipe.Catalogs, cur Decision) (Slot[string], bool) {
	for _, t := range s.toks {
		if !accountRe.MatchString(t.Text) || cur.Date.Set && strings.Contains(cur.Date.Text, t.Text) ||
			cur.Period.Set && strings.Contains(cur.Period.Text, t.Text) {
			continue
		}
		if c != nil && len(c.Accounts) > 0 && !knownAccount(t.Text, c.Accounts) {
			continue
		}
		return slot(t.Text, FromText, t.Text), true
	}
	return Slot[string]{}, false
}

// bareAmount reads a nominal written alone («а 500?»).
func (s *scan) bareAmount() (int, bool) {
	for _, t := range s.toks {
		if n, err := strconv.Atoi(t.Text); err == nil && n > 0 && n <= 1_000_000 {
			return n, true
		}
	}
	return 0, false
}

// hasToken reports whether the message has the word w (folded).
func (s *scan) hasToken(w string) bool {
	return slices.ContainsFunc(s.toks, func(t Token) bool { return t.Text == w })
}

// hasPhrase reports whether the folded message contains one of the phrases as whole words.
func (s *scan) hasPhrase(phrases ...string) bool {
	text := " " + s.folded + " "
	for _, p := range phrases {
		if strings.Contains(text, " "+p+" ") {
			return true
		}
	}
	return false
}

// slotsOnly reports whether a message without a cue word gives only slots the previous
// question can take: a date, a currency, a name, an account — «на 1.03?», «в юанях», «гранит».
func slotsOnly(s *scan, cur Decision) bool {
	if len(s.toks) > 5 {
		return false
	}
	return cur.Date.Set || cur.Period.Set || cur.DateError != "" || cur.Currencies.Set || cur.Counterparty.Set ||
		cur.Contract.Set || cur.Organization.Set || cur.Account.Set || len(cur.Candidates) > 1
}

// clarifyFollowUp is a question back about a follow-up the previous question cannot take.
func clarifyFollowUp(d Decision, ask string) Decision {
	d.Kind, d.Rule, d.Sure, d.Ask = KindClarify, "follow_up_unclear", true, ask
	d.Reasons = append(d.Reasons, ask)
	return d
}

// partyRecipe is the recipe of a question about one counterparty that continues recipe r: a
// list or a balance becomes that company's debt; documents and payments stay what they are.
func partyRecipe(r recipe.Name) recipe.Name {
	switch r {
	case recipe.DocumentsByContract:
		return recipe.DocumentsByParty
	case recipe.OpenItemsByContract:
		return recipe.OpenItemsByParty
	}
	if takesParty(r) {
		return r // documents, payments, open items, open contracts, a balance's documents
	}
	return recipe.OpenItemsByParty
}

// asOfRecipe reports whether a recipe reads a balance at a date (not documents over a period).
func asOfRecipe(r recipe.Name) bool {
	return !slices.Contains([]recipe.Name{recipe.DocumentsByParty, recipe.BankOpsByParty,
		recipe.DocumentsByContract, recipe.TurnoverSheet, recipe.AccountCard, recipe.ReconciliationAct}, r)
}

// decision is the state as a decision, its slots marked as coming from the dialog.
func (st State) decision() Decision {
	d := Decision{Kind: st.Kind, Recipe: st.Recipe, Detail: st.Detail, OverdueDays: st.OverdueDays, AtLeast: st.AtLeast, Top: st.Top,
		Turnover: st.Turnover, Corr: st.Corr}
	if st.Date != nil {
		d.Date = slot(st.Date.In(ru.Moscow), FromDialog, st.DateText)
	}
	if st.Period != nil {
		per := *st.Period
		per.From, per.To = per.From.In(ru.Moscow), per.To.In(ru.Moscow)
		d.Period = slot(per, FromDialog, per.Text)
	}
	if len(st.Currencies) > 0 {
		d.Currencies = slot(slices.Clone(st.Currencies), FromDialog, strings.Join(st.Currencies, ","))
	}
	if st.Nominal > 0 {
		d.Nominal = slot(st.Nominal, FromDialog, "")
	}
	if st.Account != "" {
		d.Account = slot(st.Account, FromDialog, st.Account)
	}
	if st.Counterparty != nil {
		d.Counterparty = slot(*st.Counterparty, FromDialog, st.Counterparty.Name)
	}
	if st.Contract != nil {
		d.Contract = slot(*st.Contract, FromDialog, st.Contract.Number)
	}
	if st.Organization != nil {
		d.Organization = slot(*st.Organization, FromDialog, st.Organization.Name)
	}
	if st.BankAccount != nil {
		d.BankAccount = slot(*st.BankAccount, FromDialog, st.BankAccount.Number)
	}
	return d
}

// FromDialog marks a slot kept from the previous question of the dialog.
const FromDialog Source = "dialog"

// startsWith reports whether the message begins with one of the phrases (folded).
func (s *scan) startsWith(phrases ...string) bool {
	text := s.folded
	for _, p := range phrases {
		if text == p || strings.HasPrefix(text, p+" ") {
			return true
		}
	}
	return false
}

// rawAfterCue is the message without its opening cue word («а», «и», «а если»).
func (s *scan) rawAfterCue() []string {
	raw := strings.Fields(s.in.Text)
	for _, h := range s.hits {
		if h.Concept == CFollowUp && h.Start == 0 && h.End <= len(raw) {
			return raw[h.End:]
		}
	}
	return raw
}

// followUpCue starts an explicit follow-up: «а по Альфе?», «а в евро?», «и на конец февраля».
var followUpCue = regexp.MustCompile(`^(а|и|ну а|а если|а что|а теперь|а еще|и еще|тоже|то же самое|также)( |$)`)

// refersBack: a personal pronoun that stands for what the last answer named («они», «ему», «с
// ними»): the message continues it, whatever subject it asks.
var refersBack = regexp.MustCompile(`(^|[^\p{L}])(он|она|они|оно|ему|ей|им|их|него|нему|неё|нее|ней|ним|ними)([^\p{L}]|$)`)

// maxFollowUpWords bounds a follow-up: a longer message is a question of its own.
const maxFollowUpWords = 8

// docsFollowUp reads a message after an answer from the user's documents: one that starts as
// a follow-up («а без ндс?», «а если не подпишем», «а беларусь») or names nothing of its own
// continues the document question, unless it names a 1C object, a rate, the news or small talk
// — then it is a question of its own.
func docsFollowUp(s *scan, cur, own Decision, prev State, cue, subject bool) (Decision, bool) {
	named := own.Counterparty.Set && own.Counterparty.Source == FromCatalog || own.Account.Set && own.Account.Source == FromText ||
		own.BankAccount.Set || own.Kind == KindLedgerWrite
	switch {
	case len(s.toks) > 12 || named || s.is(CRate, CKeyRate, CNews, CSmallTalk):
		if own.Rule != cur.Rule {
			return own, true // «а кто нам должен?»: a question of its own, read without its «а»
		}
		return Decision{}, false
	case !cue && (subject || len(s.toks) > 2) && !(periodFirst(s, cur) && !subject):
		// a complete question of its own: «какая премия главбуху?» — not one that opens with the
		// period it asks the last answer of, and names nothing else («за ноябрь значит когда»)
		return Decision{}, false
	}
	return Decision{Kind: KindDocs, Sure: true, Rule: "follow_up_docs", Asks: cur.Asks, Continues: prev.Question, ContinuesDocs: prev.Docs,
		Reasons: []string{"продолжение вопроса по документам «" + ru.Truncate(strings.ReplaceAll(prev.Question, "\n", " "), 80) + "»"}}, true
}

// IsFollowUp reports whether text explicitly continues the previous turn: a short message
// that starts as a follow-up does («а на конец февраля?»). The planner is then told what the
// previous turn asked.
func IsFollowUp(text string) bool {
	norm := ru.Fold(text)
	return followUpCue.MatchString(norm) && len(strings.Fields(norm)) <= maxFollowUpWords
}

// LastState is the dialog state the last answer of hist left: the understanding of the question
// it answered. A last answer without one (knowledge base, documents, small talk) leaves none,
// so a follow-up after it is a question of its own.
func LastState(hist []history.Turn) (State, bool) {
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role != "assistant" {
			continue
		}
		var st State
		if len(hist[i].State) == 0 || json.Unmarshal(hist[i].State, &st) != nil || st.Kind == "" {
			return State{}, false
		}
		return st, true
	}
	return State{}, false
}

// bareOlder: «больше 90» with no unit after it — days, in a follow-up of an aging.
var bareOlder = regexp.MustCompile(`(^|\s)(?:больше|более|свыше|старше|дольше)\s+(\d{1,4})\s*\??$`)

// periodFirst: a short message that opens with the period or day it asks («за ноябрь значит
// когда», «на 1 апреля сколько»).
func periodFirst(s *scan, cur Decision) bool {
	return (cur.Period.Set || cur.Date.Set) && len(s.toks) <= 6 && s.startsWith("за", "на", "в", "во", "к", "с", "по")
}

// cardFollowUp reads a message that asks for the card of a company the previous 1C answer
// named: a row of its list («карточка 3», «подробнее по второй», a bare «3» in reply to the list),
// the only company it listed, or the company it was about («а карточку?», «подробнее» after a
// company's debt). A list of several with no row named is asked back, its first rows offered.
func cardFollowUp(s *scan, cur Decision, prev State) (Decision, bool) {
	if prev.Kind != KindLedger || len(s.toks) > 6 || cur.Counterparty.Set || len(cur.Candidates) > 0 || cur.Unknown != "" ||
		cur.Contract.Set || len(cur.Parties) > 0 || s.is(CDocuments, CBankOps, CAging, CTurnoverSheet, CForming, COffsets) {
		return Decision{}, false
	}
	row, numbered := s.rowNumber(cur)
	if cur.Account.Set && !(numbered && cur.Account.Value == strconv.Itoa(row) && !s.is(CAccountWord) && row <= len(prev.Listed)) {
		return Decision{}, false // «карточка 60», «карточка 51 за март» after a list of 15: the account's card
	}
	word := s.hasStemPrefix("карточк") || s.hasStemPrefix("подробн") || s.hasStemPrefix("досье") || s.hasStemPrefix("детальн") ||
		s.hasValue(CPartyCard, "strong")
	bare := numbered && prev.Replied && len(s.toks) <= 2
	if !word && !bare {
		return Decision{}, false
	}
	d := prev.decision()
	d.Rule, d.Sure = "card_of_row", true
	d.Reasons = []string{"карточка контрагента из ответа «" + ru.Truncate(prev.Question, 80) + "»"}
	switch {
	case numbered && len(prev.Listed) > 0:
		if row > len(prev.Listed) {
			return clarifyFollowUp(d, fmt.Sprintf("В том списке %s: назовите номер строки от 1 до %d или контрагента.",
				ru.Count(len(prev.Listed), "строка", "строки", "строк"), len(prev.Listed))), true
		}
		e := prev.Listed[row-1]
		d.Counterparty = slot(e, FromDialog, e.Name)
	case numbered:
		return Decision{}, false // no list to number: «карточка 3» is something else
	case len(prev.Listed) == 1:
		d.Counterparty = slot(prev.Listed[0], FromDialog, prev.Listed[0].Name)
	case len(prev.Listed) > 1:
		d.Kind, d.Rule, d.Recipe = KindClarify, "card_which_row", recipe.CounterpartyCard
		d.Candidates = slices.Clone(prev.Listed[:min(len(prev.Listed), maxCardChoices)])
		d.Counterparty, d.Contract, d.Account = Slot[recipe.Entity]{}, Slot[recipe.Entity]{}, Slot[string]{}
		d.Reasons = append(d.Reasons, "в списке несколько контрагентов, строка не названа")
		return d, true
	case prev.Counterparty != nil && prev.Account == "" || prev.Counterparty != nil && prev.Recipe == recipe.CounterpartyCard:
		// the company the answer was about
	default:
		return Decision{}, false
	}
	d.Kind, d.Recipe = KindLedger, recipe.CounterpartyCard
	d.Contract, d.Account, d.Detail, d.Candidates = Slot[recipe.Entity]{}, Slot[string]{}, "", nil
	if cur.Date.Set {
		d.Date, d.Period = cur.Date, Slot[ru.Period]{}
	}
	asOfPeriodEnd(&d)
	return d, true
}

// maxCardChoices bounds the companies «подробнее» after a list offers.
const maxCardChoices = 5

// ordinals are the stems of the ordinal words a row is named by («по второй», «третьего»).
var ordinals = []string{"перв", "втор", "трет", "четверт", "пят", "шест", "седьм", "восьм", "девят", "десят"}

// rowNumber reads the row a message names: a number 1…99 that is not part of its date or
// period («карточка 3», «№ 2», «строка 4»), or an ordinal word («по второй»).
func (s *scan) rowNumber(cur Decision) (int, bool) {
	for _, t := range s.toks {
		if cur.Date.Set && strings.Contains(cur.Date.Text, t.Text) || cur.Period.Set && strings.Contains(cur.Period.Text, t.Text) {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(t.Text, "№")); err == nil && n >= 1 && n <= 99 && len(t.Text) <= 3 {
			return n, true
		}
		for i, o := range ordinals {
			if strings.HasPrefix(t.Text, o) && len([]rune(t.Text)) <= len([]rune(o))+4 {
				return i + 1, true
			}
		}
	}
	return 0, false
}
