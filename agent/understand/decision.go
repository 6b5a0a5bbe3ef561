// Package understand turns a message into one typed Decision: what the user asks for (a
// scenario or the 1C lane with its recipe) and the slots it names (date or period, currency and
// nominal, account, counterparty, contract, organization), each with where it came from.
//
// A deterministic parser decides first, from a reviewed lexicon of the trade's words
// (lexicon.tsv), the Russian calendar of ru and the ledger's catalogs. Its decision is
// exact about what it found and says when it is unsure; only then may an LLM add to it, and
// whatever the LLM proposes is validated into the same types (see Merge). A slot the parser
// found is never replaced by a guess.
package understand

import (
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// Kind is what the message asks for.
type Kind string

// The kinds of a Decision. The scenarios S1–S5 map onto them: docs is S1 (S3/S4 by the size
// of the selection), rate, key_rate, news, kb and smalltalk are S2, clarify is S5; ledger and
// ledger_write are the 1C lane.
const (
	KindRate          Kind = "rate"
	KindKeyRate       Kind = "key_rate"
	KindNews          Kind = "news"
	KindKB            Kind = "kb"
	KindSmallTalk     Kind = "smalltalk"
	KindDocs          Kind = "docs"
	KindLedger        Kind = "ledger"
	KindLedgerWrite   Kind = "ledger_write"
	KindClarify       Kind = "clarify"
	KindUnknownEntity Kind = "unknown_entity"
	// KindLedgerDeep is a question about 1C outside the recipe catalog («почему вырос долг»),
	// answered by guarded discovery; only the planner proposes it.
	KindLedgerDeep Kind = "ledger_deep"
	// KindGeneral is a question with no structure the planner recognised: its tools' facts are
	// phrased by the answer LLM; only the planner proposes it.
	KindGeneral Kind = "general"
	// KindReconcile is the check of a counterparty's uploaded act against ours («сверь» over
	// it): the comparison claims it (Decision.Reconcile with one act selected); the parser never
	// decides it alone.
	KindReconcile Kind = "reconcile"
	// KindSubscribe asks for digests or alerts on a schedule (agent/digest): /subscribe and
	// its everyday phrasings («присылай курсы каждое утро в 9»).
	KindSubscribe Kind = "subscribe"
)

// Source says where a slot's value came from.
type Source string

// Slot sources.
const (
	FromText    Source = "text"    // written in the message
	FromLexicon Source = "lexicon" // implied by a term («авансы полученные» → 62.02)
	FromCatalog Source = "catalog" // a name or INN found in the ledger's catalogs
)

// Slot is one understood value: where it came from and the words it was read from.
type Slot[T any] struct {
	Value  T
	Source Source
	Text   string // as written, e.g. «на 1.05», «по вектору»
	Set    bool
}

// CatalogSlot is a slot a catalog entry fills, as written (text): what a skill sets when it asks
// one of several entities a message named («по обеим организациям»: each organization).
func CatalogSlot(e recipe.Entity, text string) Slot[recipe.Entity] { return slot(e, FromCatalog, text) }

func slot[T any](v T, src Source, text string) Slot[T] {
	return Slot[T]{Value: v, Source: src, Text: text, Set: true}
}

// ptr is a copy of the slot's value, or nil when the slot is not set.
func (s Slot[T]) ptr() *T {
	if !s.Set {
		return nil
	}
	v := s.Value
	return &v
}

// Decision is how one message is understood.
type Decision struct {
	Kind   Kind
	Recipe recipe.Name // KindLedger only
	// Analysis: the message asks for more than the recipe gives — a comparison, a trend, a
	// reason («сравни», «динамика», «почему»). The recipe's report is what it builds on; without
	// an LLM to plan the rest, the answer says it shows only that report.
	Analysis bool
	// Turnover is the side of an account's turnover the message asks for a period («выручка за
	// март»: "credit" of 90.01; «закупки за квартал»: "credit" of 60.01; «расходы по 26»:
	// "debit"), "" when it asks for balances.
	Turnover string
	// Last: the latest bank operation is asked («последний платёж от вектора»): "in" — received,
	// "out" — sent, "any"; "" for the list.
	Last string
	// Flow is the direction of money a list of a company's bank operations asks («сколько
	// заплатили вектору»: "out", sent to it; «сколько вектор заплатил нам»: "in"), or the side
	// of a company's debt asked («сколько мы должны альфе»: "out", ours; «долг альфы перед
	// нами»: "in"); "" for both.
	Flow string
	// Corr is the corresponding account a bank turnover is asked of («платежи поставщикам»: 60,
	// «налоги»: 68), "" for all.
	Corr string
	// AtLeast is the smallest debt a list asks for, in kopecks («кто нам должен больше
	// миллиона»: 100000000); 0 for every debt.
	AtLeast int64
	// OverdueDays is the days overdue an aging asks past («кто должен нам больше 90 дней»: 90);
	// 0 for the whole aging.
	OverdueDays int
	// Item is an item of the nomenclature a stock question names, as written («бумаги» of
	// «сколько штук бумаги на складе»): the lane finds it in 1C's catalog; "" for the whole stock.
	Item string
	// Top: the message asks for the largest debts only — «самый крупный должник» (1), «топ 5
	// кредиторов» (5), «кому больше всех должны» (1); 0 when it asks for the list.
	Top int

	// Date is the as-of date (balances, debts, rates, the key rate); Period a range of days
	// (documents, payments, rate dynamics). Both are in ru.Moscow at midnight.
	Date   Slot[time.Time]
	Period Slot[ru.Period]
	// ExceptContract is a contract the message leaves out («долг альфы кроме договора
	// П-77/2024»): the company's settlements less that contract's.
	ExceptContract Slot[recipe.Entity]
	// PartOfName: the counterparty was named by a part of its name only («склад» of
	// «Склад-Сервис»): with no word of 1C's in the message it may be no company at all.
	PartOfName bool
	// Parties are the companies a message names each in full («альфе поставке и промпоставке»):
	// each is answered, then their sum.
	Parties []recipe.Entity
	// Organizations are our organizations when the message asks about all of them («дебиторка по
	// обеим организациям», «по всем нашим юрлицам»): each is answered, then their sum.
	Organizations []recipe.Entity
	// Date2 is a second as-of date («долг альфы на 1 марта и на 1 апреля», «сравни дебиторку на
	// 1 января и 1 марта»): a snapshot is answered on both, with the change.
	Date2 Slot[time.Time]
	// DateError is set when the message names a date that does not exist («31.02»): the
	// answer says so instead of guessing. A Russian sentence: «31.02» — такой даты нет: ….
	DateError string
	// DateFuture: DateError's date exists but its period has not begun («с марта 2027»): no 1C
	// figure is of it, a document may speak of it.
	DateFuture bool

	Currencies Slot[[]string] // ISO codes
	Nominal    Slot[int]      // «100 тенге» → 100
	// DocumentType is the one kind of 1C document a documents question asks for (one of
	// recipe.DocumentTypes: «поступления товаров от …» → ПоступлениеТоваровУслуг); "" for all.
	DocumentType string
	// Cross: two currencies asked one against the other («евро к доллару», «EUR/USD»,
	// «кросс-курс»): the answer gives the cross rate from the Bank of Russia's two rates.
	Cross bool
	// Forecast: the message asks what a rate will be («прогноз», «что будет с курсом»): no
	// source gives it, and the answer says so before what the Bank set.
	Forecast bool
	// Reconcile: the message asks to check a counterparty's act against our data («сверь»,
	// «сделай сверку», «сравни с 1С»); over an uploaded act, its comparison answers.
	Reconcile bool
	// UnknownCurrencies are codes the message names that the Bank of Russia does not quote.
	UnknownCurrencies []string

	Account Slot[string] // chart code, «62.01»
	// Detail is the turnover sheet's breakdown: recipe.DetailCounterparty («по контрагентам»),
	// recipe.DetailContract («по договорам»), or "" (by account).
	Detail string
	// UnknownAccount is an account code the message names that the chart does not have.
	UnknownAccount string

	Counterparty Slot[recipe.Entity]
	Contract     Slot[recipe.Entity]
	Organization Slot[recipe.Entity]
	// BankAccount is a settlement account of one of our organizations the message names: by
	// its number, its tail («р/с 8153», «...0187») or «р/с» and an organization that has one.
	// Its organization is the Organization, and account 51 the Account, unless the message
	// names others.
	BankAccount Slot[recipe.BankAccount]
	// UnknownBankAccount is a settlement account the message names (its digits: the number or
	// a tail) that none of our organizations has (KindUnknownEntity).
	UnknownBankAccount string
	// BankAccountCandidates are our accounts that end with the tail the message gives, when
	// several do (KindClarify).
	BankAccountCandidates []recipe.BankAccount
	// Candidates are the counterparties a name matches equally well (KindClarify), or those
	// that have a contract of the number the message names (SharedContract).
	Candidates []recipe.Entity
	// SharedContract is a contract number several counterparties have («ДП-68/2024»): the
	// question back asks whose.
	SharedContract string
	// UnknownContract is a contract number the message names («по договору 999/2024») that no
	// contract of the catalog has (KindUnknownEntity), with the contracts to offer instead: the
	// counterparty's, when it names one, else those whose numbers share its digits.
	UnknownContract  string
	ClosestContracts []recipe.Entity
	// Unknown is a name the message gives that no catalog entry matches (KindUnknownEntity),
	// with the closest names to offer.
	Unknown string
	Closest []recipe.Entity
	// Scope is a word that narrows a question about the bank's movements that nothing read:
	// the payment's purpose or payee («за аренду», «грузэкспрессу»), asked back (payment_scope).
	Scope string

	// Duty: the message asks when, until which date, how or how much («когда», «в какой срок»,
	// «до какого числа», «как», «сколько») something is paid, filed, transferred or withheld —
	// «когда платить аванс по зарплате», «до какого числа сдавать 6-НДФЛ»: a question about
	// what the law requires, not about a figure of our ledger.
	Duty bool
	// NetOfVAT: the message asks for a sum without VAT («долг вектора без ндс»); settlements in
	// 1C are kept with it, and the answer says so.
	NetOfVAT bool
	// Money: the message speaks of payments or money in words — a bank-operations term of the
	// lexicon or a word for money the lexicon leaves to context («что с деньгами»,
	// «наличные»). The cash and settlement accounts (50, 51) are the Account slot's.
	Money bool
	// Settles: the message asks in so many words what only the ledger keeps — a debt, a
	// balance, open items, documents posted, a turnover sheet or an account card («долг перед
	// меридианом»), not what a contract states («сколько платим меридиану в месяц»).
	Settles bool
	// Asks is what the message asks about: a time limit, a deadline, a figure (Asks).
	Asks Asks
	// Continues is the question a follow-up about the user's documents continues («а без
	// ндс» after «абонентка сколько в месяц»): its words tell which clause is meant.
	Continues string
	// ContinuesDocs are the documents the continued answer quoted: the follow-up is about them.
	ContinuesDocs []string

	// Ask is the question back of a clarify decision that knows what is missing (a follow-up
	// the dialog cannot complete), a Russian sentence; "" for the general question back.
	Ask string

	// Sure is false when the parser could not tell what is asked; an LLM may then be asked.
	Sure bool
	// Reasons explain the decision in Russian, for the debug payload.
	Reasons []string
	// Rule names the parser's rule that decided.
	Rule string
}

// Input is one message and what the parser may know around it.
type Input struct {
	Text string
	Now  time.Time
	// Docs are the titles of the user's uploaded documents.
	Docs []string
	// Catalogs are the ledger's catalogs; nil when the user has no access to 1C or the
	// catalogs cannot be loaded (names are then not resolved).
	Catalogs *recipe.Catalogs
}
