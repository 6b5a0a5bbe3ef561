// Package recipe is the vocabulary of what can be asked of 1C: the whitelist's recipes by name,
// the filters they take, and the catalog entries (organizations, counterparties, contracts,
// bank accounts) their parameters name. It is a leaf: understanding, the planner and the 1C
// skill all speak it, and it imports nothing of theirs. The query runner
// (agent/ledger/runner) runs a recipe; integrations/onec holds its query text.
package recipe

import "strconv"

// Name is an address intent; each maps to exactly one recipe.
type Name string

// The intents of the catalog plus unknown.
const (
	OpenContracts        Name = "list_open_contracts"
	Payables             Name = "list_payables_counterparties"
	Receivables          Name = "list_receivables_counterparties"
	AccountBalance       Name = "account_balance_snapshot"
	OpenItemsByParty     Name = "open_items_by_counterparty"
	OpenItemsByContract  Name = "open_items_by_contract"
	DocumentsByParty     Name = "documents_by_counterparty"
	BankOpsByParty       Name = "bank_ops_by_counterparty"
	DocumentsByContract  Name = "documents_by_contract"
	DocumentsFormBalance Name = "documents_forming_balance"
	TurnoverSheet        Name = "turnover_sheet"     // оборотно-сальдовая ведомость за период (report.go)
	AccountCard          Name = "account_card"       // карточка счёта за период (report.go)
	ReceivablesAging     Name = "receivables_aging"  // дебиторка по срокам долга на дату (aging.go)
	PayablesAging        Name = "payables_aging"     // кредиторка по срокам долга на дату
	ReconciliationAct    Name = "reconciliation_act" // акт сверки взаиморасчётов с контрагентом за период (runner/act.go)
	CounterpartyCard     Name = "counterparty_card"  // карточка контрагента на дату (card.go)
	OffsetCandidates     Name = "offset_candidates"  // встречные долги, кандидаты на взаимозачёт (offsets.go)
	StockBalance         Name = "stock_balance"      // остатки номенклатуры (количество и сумма) на дату (stock.go)
	Unknown              Name = "unknown"
)

// Names lists every catalog intent (not unknown), in catalog order.
func Names() []Name {
	return []Name{OpenContracts, Payables, Receivables, AccountBalance,
		OpenItemsByParty, OpenItemsByContract, DocumentsByParty, BankOpsByParty,
		DocumentsByContract, DocumentsFormBalance, TurnoverSheet, AccountCard, ReceivablesAging, PayablesAging, ReconciliationAct,
		CounterpartyCard, OffsetCandidates, StockBalance}
}

// Filter keys of the filter catalog.
const (
	FilterPeriodFrom   = "period_from"
	FilterPeriodTo     = "period_to"
	FilterAsOfDate     = "as_of_date"
	FilterOrganization = "organization"
	FilterCounterparty = "counterparty"
	FilterContract     = "contract"
	FilterAccount      = "account"
	FilterDocumentType = "document_type"
	FilterDocumentRef  = "document_ref"
	FilterStatus       = "status"
	FilterLimit        = "limit"
	FilterSort         = "sort"
	FilterDetail       = "detail" // the turnover sheet's breakdown: DetailCounterparty or DetailContract
	FilterItem         = "item"   // an item of the nomenclature (Справочник.Номенклатура), by name
)

// Filters are the extracted filters. Dates are "YYYY-MM-DD"; anchors are raw text until the
// resolver turns them into references.
type Filters struct {
	PeriodFrom   string `json:"period_from,omitempty"`
	PeriodTo     string `json:"period_to,omitempty"`
	AsOfDate     string `json:"as_of_date,omitempty"`
	Organization string `json:"organization,omitempty"`
	Counterparty string `json:"counterparty,omitempty"`
	Contract     string `json:"contract,omitempty"`
	Account      string `json:"account,omitempty"`
	DocumentType string `json:"document_type,omitempty"`
	DocumentRef  string `json:"document_ref,omitempty"`
	Status       string `json:"status,omitempty"` // open, closed, all
	Limit        int    `json:"limit,omitempty"`  // 1..200
	Sort         string `json:"sort,omitempty"`   // date_desc, amount_desc, name_asc
	// INN is set when the counterparty was named by its INN (10 or 12 digits, check digits valid).
	INN string `json:"inn,omitempty"`
	// Detail breaks the turnover sheet down by counterparty or by contract (DetailCounterparty,
	// DetailContract); empty: by account.
	Detail string `json:"detail,omitempty"`
	// Item is an item of the nomenclature as the user named it («бумага», «картридж HP»): the
	// stock of the quantity accounts narrowed to the items of that name.
	Item string `json:"item,omitempty"`
}

// Breakdowns of the turnover sheet (Filters.Detail).
const (
	DetailCounterparty = "counterparty"
	DetailContract     = "contract"
)

// ScopeMode is the account-scope strategy of a recipe.
type ScopeMode string

// Account scope strategies.
const (
	ScopeStrict    ScopeMode = "strict"    // the account scope is a hard filter
	ScopePreferred ScopeMode = "preferred" // first pass; falls back to raw rows when it leaves none
)

// Spec is one whitelisted read-only query of the catalog. Its 1C query text
// lives in integrations/onec under the same ID; parameters are always bound, never interpolated.
type Spec struct {
	ID           string
	Name         Name
	Purpose      string // what it answers, in Russian
	Required     []string
	Optional     []string
	Output       []string // expected output schema
	DefaultSort  string
	DefaultLimit int
	Drilldowns   []string // recipe IDs offered as next steps
	Scope        ScopeMode
}

// Specs is the recipe catalog V1, in catalog order.
var Specs = []Spec{
	{ID: "address.open_contracts.by_asof", Name: OpenContracts, Purpose: "Незакрытые договоры на дату",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterCounterparty, FilterLimit, FilterSort},
		Output:      []string{"contract_ref", "contract_name", "counterparty_ref", "debit", "credit", "saldo", "as_of_date"},
		DefaultSort: "saldo_desc", DefaultLimit: 50, Drilldowns: []string{"address.open_items.by_contract"}, Scope: ScopePreferred},
	{ID: "address.payables.counterparty_totals", Name: Payables, Purpose: "Кому должны мы",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterAccount, FilterLimit},
		Output:      []string{"counterparty_ref", "counterparty_name", "payable_amount", "doc_count", "as_of_date"},
		DefaultSort: "payable_amount_desc", DefaultLimit: 50, Drilldowns: []string{"address.open_items.by_counterparty"}, Scope: ScopePreferred},
	{ID: "address.receivables.counterparty_totals", Name: Receivables, Purpose: "Кто должен нам",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterAccount, FilterLimit},
		Output:      []string{"counterparty_ref", "counterparty_name", "receivable_amount", "doc_count", "as_of_date"},
		DefaultSort: "receivable_amount_desc", DefaultLimit: 50, Drilldowns: []string{"address.open_items.by_counterparty"}, Scope: ScopePreferred},
	{ID: "address.account.balance_snapshot", Name: AccountBalance, Purpose: "Остаток по счету на дату",
		Required: []string{FilterAccount, FilterAsOfDate}, Optional: []string{FilterOrganization, FilterLimit},
		Output:      []string{"account", "debit_balance", "credit_balance", "net_balance", "as_of_date"},
		DefaultSort: "account_asc", DefaultLimit: 20, Drilldowns: []string{"address.balance.drilldown_documents"}, Scope: ScopeStrict},
	{ID: "address.open_items.by_counterparty", Name: OpenItemsByParty, Purpose: "Открытые позиции по контрагенту",
		Required: []string{FilterCounterparty, FilterAsOfDate}, Optional: []string{FilterOrganization, FilterContract, FilterAccount, FilterLimit},
		Output:      []string{"document_ref", "document_type", "document_date", "contract_ref", "debit", "credit", "open_amount"},
		DefaultSort: "document_date_desc", DefaultLimit: 100, Drilldowns: []string{"address.documents.by_contract"}, Scope: ScopePreferred},
	{ID: "address.open_items.by_contract", Name: OpenItemsByContract, Purpose: "Открытые позиции по договору",
		Required: []string{FilterContract, FilterAsOfDate}, Optional: []string{FilterOrganization, FilterCounterparty, FilterAccount, FilterLimit},
		Output:      []string{"document_ref", "document_type", "document_date", "counterparty_ref", "debit", "credit", "open_amount"},
		DefaultSort: "document_date_desc", DefaultLimit: 100, Drilldowns: []string{"address.documents.by_contract"}, Scope: ScopePreferred},
	{ID: "address.documents.by_counterparty", Name: DocumentsByParty, Purpose: "Документы контрагента за период",
		Required: []string{FilterCounterparty, FilterPeriodFrom, FilterPeriodTo}, Optional: []string{FilterOrganization, FilterDocumentType, FilterLimit, FilterSort},
		Output:      []string{"document_ref", "document_type", "number", "date", "amount", "posted"},
		DefaultSort: "date_desc", DefaultLimit: 100, Drilldowns: []string{"address.documents.by_contract"}, Scope: ScopePreferred},
	{ID: "address.bank_ops.by_counterparty", Name: BankOpsByParty, Purpose: "Банковские операции по контрагенту",
		Required: []string{FilterCounterparty}, Optional: []string{FilterPeriodFrom, FilterPeriodTo, FilterOrganization, FilterLimit, FilterSort},
		Output:      []string{"document_ref", "document_type", "number", "date", "amount", "posted", "bank_account_hint"},
		DefaultSort: "date_desc", DefaultLimit: 100, Drilldowns: []string{"address.documents.by_counterparty"}, Scope: ScopePreferred},
	{ID: "address.documents.by_contract", Name: DocumentsByContract, Purpose: "Документы договора за период",
		Required: []string{FilterContract, FilterPeriodFrom, FilterPeriodTo}, Optional: []string{FilterOrganization, FilterDocumentType, FilterLimit, FilterSort},
		Output:      []string{"document_ref", "document_type", "number", "date", "amount", "posted"},
		DefaultSort: "date_desc", DefaultLimit: 100, Drilldowns: []string{"address.balance.drilldown_documents"}, Scope: ScopePreferred},
	{ID: "address.balance.drilldown_documents", Name: DocumentsFormBalance, Purpose: "Расшифровка остатка до документов",
		Required: []string{FilterAccount, FilterAsOfDate}, Optional: []string{FilterOrganization, FilterCounterparty, FilterContract, FilterLimit},
		Output:      []string{"document_ref", "document_type", "number", "date", "debit", "credit", "delta"},
		DefaultSort: "date_desc", DefaultLimit: 150, Drilldowns: []string{"address.documents.by_counterparty"}, Scope: ScopeStrict},
	// The reports (report.go): each runs several templates of integrations/onec/queries_reports.go.
	{ID: "address.turnover_sheet.by_account", Name: TurnoverSheet, Purpose: "Оборотно-сальдовая ведомость за период",
		Required: []string{FilterPeriodFrom, FilterPeriodTo}, Optional: []string{FilterOrganization, FilterAccount, FilterCounterparty, FilterContract, FilterDetail, FilterLimit},
		Output:      []string{"account", "counterparty_name", "contract_name", "opening_debit", "opening_credit", "debit", "credit", "closing_debit", "closing_credit"},
		DefaultSort: "account_asc", DefaultLimit: MaxLimit, Drilldowns: []string{"address.account_card.movements"}, Scope: ScopeStrict},
	{ID: "address.account_card.movements", Name: AccountCard, Purpose: "Карточка счёта за период",
		Required: []string{FilterAccount, FilterPeriodFrom, FilterPeriodTo}, Optional: []string{FilterOrganization, FilterCounterparty, FilterLimit},
		Output:      []string{"date", "document_ref", "document_type", "number", "corr_account", "counterparty_name", "debit", "credit", "balance"},
		DefaultSort: "date_asc", DefaultLimit: MaxLimit, Scope: ScopeStrict},
	// Aging (runner/aging.go): the debt at a date by days overdue, per counterparty and contract.
	{ID: "address.aging.receivables", Name: ReceivablesAging, Purpose: "Дебиторская задолженность по срокам долга",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterCounterparty, FilterLimit},
		Output:      []string{"counterparty_ref", "counterparty_name", "contract_name", "debt", "not_due", "overdue_by_interval", "doc_count", "earliest_due"},
		DefaultSort: "overdue_desc", DefaultLimit: DefaultLimit, Drilldowns: []string{"address.open_items.by_counterparty"}, Scope: ScopeStrict},
	{ID: "address.aging.payables", Name: PayablesAging, Purpose: "Кредиторская задолженность по срокам долга",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterCounterparty, FilterLimit},
		Output:      []string{"counterparty_ref", "counterparty_name", "contract_name", "debt", "not_due", "overdue_by_interval", "doc_count", "earliest_due"},
		DefaultSort: "overdue_desc", DefaultLimit: DefaultLimit, Drilldowns: []string{"address.open_items.by_counterparty"}, Scope: ScopeStrict},
	// The act of reconciliation (runner/act.go): its balances and its lines, two templates of
	// integrations/onec/queries_reconcile.go. No period: the current quarter so far (a date alone:
	// from the start of its quarter), said in the answer.
	{ID: "address.reconciliation.lines", Name: ReconciliationAct, Purpose: "Акт сверки взаиморасчётов",
		Required: []string{FilterCounterparty}, Optional: []string{FilterPeriodFrom, FilterPeriodTo, FilterAsOfDate, FilterOrganization, FilterContract, FilterLimit},
		Output:      []string{"date", "document_type", "number", "debit", "credit", "opening_balance", "closing_balance"},
		DefaultSort: "date_asc", DefaultLimit: MaxLimit, Scope: ScopeStrict},
	// The counterparty card (runner/card.go): one counterparty at a date through the templates of
	// the recipes above — its settlements by contract (open contracts), its overdue on both sides
	// (the aging), its latest bank operations and documents. Its ID names no single template.
	{ID: "card.counterparty", Name: CounterpartyCard, Purpose: "Карточка контрагента",
		Required: []string{FilterCounterparty, FilterAsOfDate}, Optional: []string{FilterOrganization},
		Output:      []string{"counterparty_name", "inn", "receivable", "payable", "net", "overdue_by_interval", "payments", "contracts", "documents"},
		DefaultSort: "account_asc", DefaultLimit: MaxLimit, Drilldowns: []string{"address.aging.receivables", "address.aging.payables"}, Scope: ScopeStrict},
	// Offset candidates (runner/offsets.go): counterparties both our debtor and our creditor at a
	// date, per pair of contracts.
	{ID: "address.offsets.candidates", Name: OffsetCandidates, Purpose: "Встречные долги: кандидаты на взаимозачёт",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterCounterparty, FilterLimit},
		Output:      []string{"counterparty_name", "receivable_contract", "receivable", "payable_contract", "payable", "nettable"},
		DefaultSort: "amount_desc", DefaultLimit: DefaultLimit, Drilldowns: []string{"card.counterparty"}, Scope: ScopeStrict},
	// Quantities (runner/stock.go): the balance of the quantity accounts (10, 41, 43) per item,
	// its quantity in the item's unit beside the sum.
	{ID: "address.stock.balance", Name: StockBalance, Purpose: "Остатки товаров и материалов",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterAccount, FilterItem, FilterLimit},
		Output:      []string{"account", "item_ref", "item_name", "quantity", "unit", "amount", "as_of_date"},
		DefaultSort: "amount_desc", DefaultLimit: MaxLimit, Scope: ScopeStrict},
}

// For returns the recipe of an intent.
func For(i Name) (Spec, bool) {
	for _, r := range Specs {
		if r.Name == i {
			return r, true
		}
	}
	return Spec{}, false
}

// MissingFilters lists the recipe's required filters absent from f (as_of_date included — the
// lane defaults it to today and says so).
//
// The list is never nil, so it encodes as [] in JSON; it is empty for Unknown. An INN
// counts as a counterparty.
func MissingFilters(i Name, f Filters) []string {
	missing := []string{}
	r, ok := For(i)
	if !ok {
		return missing
	}
	for _, key := range r.Required {
		if filterKeyValue(f, key) == "" {
			missing = append(missing, key)
		}
	}
	return missing
}

// filterKeyValue returns the value of a filter-catalog key as text, "" when it is unset.
func filterKeyValue(f Filters, key string) string {
	switch key {
	case FilterPeriodFrom:
		return f.PeriodFrom
	case FilterPeriodTo:
		return f.PeriodTo
	case FilterAsOfDate:
		return f.AsOfDate
	case FilterOrganization:
		return f.Organization
	case FilterCounterparty:
		if f.Counterparty == "" {
			return f.INN
		}
		return f.Counterparty
	case FilterContract:
		return f.Contract
	case FilterAccount:
		return f.Account
	case FilterDocumentType:
		return f.DocumentType
	case FilterDocumentRef:
		return f.DocumentRef
	case FilterStatus:
		return f.Status
	case FilterLimit:
		if f.Limit == 0 {
			return ""
		}
		return strconv.Itoa(f.Limit)
	case FilterSort:
		return f.Sort
	case FilterDetail:
		return f.Detail
	case FilterItem:
		return f.Item
	}
	return ""
}

// ByID returns a recipe by its ID.
func ByID(id string) (Spec, bool) {
	for _, r := range Specs {
		if r.ID == id {
			return r, true
		}
	}
	return Spec{}, false
}

// DocumentTypes is the whitelist of document_type values (BP 3.0 metadata names).
var DocumentTypes = []string{
	"ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета", "РеализацияТоваровУслуг",
	"ПоступлениеТоваровУслуг", "АктСверкиВзаиморасчетов", "ВводНачальныхОстатков",
	"ПриходныйКассовыйОрдер", "РасходныйКассовыйОрдер", "ВозвратТоваровОтПокупателя", "ВозвратТоваровПоставщику",
	"КорректировкаРеализации", "КорректировкаПоступления", "КорректировкаДолга", "СчетФактураВыданный",
	"СчетФактураПолученный",
}

// BankDocumentTypes are the document types of bank operations.
var BankDocumentTypes = []string{"ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета"}

// Sorts is the sort enum of the filter catalog.
var Sorts = []string{"date_desc", "amount_desc", "name_asc"}

// Limits of the filter catalog.
const (
	MinLimit     = 1
	MaxLimit     = 200
	DefaultLimit = 50
)
