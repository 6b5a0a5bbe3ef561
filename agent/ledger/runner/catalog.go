package runner

import "strconv"

// ScopeMode is the account-scope strategy of a recipe (seed 000 §8).
type ScopeMode string

// Account scope strategies.
const (
	ScopeStrict    ScopeMode = "strict"    // the account scope is a hard filter
	ScopePreferred ScopeMode = "preferred" // first pass; falls back to raw rows when it leaves none
)

// Recipe is one whitelisted read-only query of the catalog (seed 000 §4). Its 1C query text
// lives in integrations/onec under the same ID; parameters are always bound, never interpolated.
type Recipe struct {
	ID           string
	Intent       Intent
	Purpose      string // Russian, as the seed names it
	Required     []string
	Optional     []string
	Output       []string // expected output schema
	DefaultSort  string
	DefaultLimit int
	Drilldowns   []string // recipe IDs offered as next steps
	Scope        ScopeMode
}

// Catalog is the recipe catalog V1, in seed order.
var Catalog = []Recipe{
	{ID: "address.open_contracts.by_asof", Intent: IntentOpenContracts, Purpose: "Незакрытые договоры на дату",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterCounterparty, FilterLimit, FilterSort},
		Output:      []string{"contract_ref", "contract_name", "counterparty_ref", "debit", "credit", "saldo", "as_of_date"},
		DefaultSort: "saldo_desc", DefaultLimit: 50, Drilldowns: []string{"address.open_items.by_contract"}, Scope: ScopePreferred},
	{ID: "address.payables.counterparty_totals", Intent: IntentPayables, Purpose: "Кому должны мы",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterAccount, FilterLimit},
		Output:      []string{"counterparty_ref", "counterparty_name", "payable_amount", "doc_count", "as_of_date"},
		DefaultSort: "payable_amount_desc", DefaultLimit: 50, Drilldowns: []string{"address.open_items.by_counterparty"}, Scope: ScopePreferred},
	{ID: "address.receivables.counterparty_totals", Intent: IntentReceivables, Purpose: "Кто должен нам",
		Required: []string{FilterAsOfDate}, Optional: []string{FilterOrganization, FilterAccount, FilterLimit},
		Output:      []string{"counterparty_ref", "counterparty_name", "receivable_amount", "doc_count", "as_of_date"},
		DefaultSort: "receivable_amount_desc", DefaultLimit: 50, Drilldowns: []string{"address.open_items.by_counterparty"}, Scope: ScopePreferred},
	{ID: "address.account.balance_snapshot", Intent: IntentAccountBalance, Purpose: "Остаток по счету на дату",
		Required: []string{FilterAccount, FilterAsOfDate}, Optional: []string{FilterOrganization, FilterLimit},
		Output:      []string{"account", "debit_balance", "credit_balance", "net_balance", "as_of_date"},
		DefaultSort: "account_asc", DefaultLimit: 20, Drilldowns: []string{"address.balance.drilldown_documents"}, Scope: ScopeStrict},
	{ID: "address.open_items.by_counterparty", Intent: IntentOpenItemsByParty, Purpose: "Открытые позиции по контрагенту",
		Required: []string{FilterCounterparty, FilterAsOfDate}, Optional: []string{FilterOrganization, FilterContract, FilterAccount, FilterLimit},
		Output:      []string{"document_ref", "document_type", "document_date", "contract_ref", "debit", "credit", "open_amount"},
		DefaultSort: "document_date_desc", DefaultLimit: 100, Drilldowns: []string{"address.documents.by_contract"}, Scope: ScopePreferred},
	{ID: "address.open_items.by_contract", Intent: IntentOpenItemsByContract, Purpose: "Открытые позиции по договору",
		Required: []string{FilterContract, FilterAsOfDate}, Optional: []string{FilterOrganization, FilterCounterparty, FilterAccount, FilterLimit},
		Output:      []string{"document_ref", "document_type", "document_date", "counterparty_ref", "debit", "credit", "open_amount"},
		DefaultSort: "document_date_desc", DefaultLimit: 100, Drilldowns: []string{"address.documents.by_contract"}, Scope: ScopePreferred},
	{ID: "address.documents.by_counterparty", Intent: IntentDocumentsByParty, Purpose: "Документы контрагента за период",
		Required: []string{FilterCounterparty, FilterPeriodFrom, FilterPeriodTo}, Optional: []string{FilterOrganization, FilterDocumentType, FilterLimit, FilterSort},
		Output:      []string{"document_ref", "document_type", "number", "date", "amount", "posted"},
		DefaultSort: "date_desc", DefaultLimit: 100, Drilldowns: []string{"address.documents.by_contract"}, Scope: ScopePreferred},
	{ID: "address.bank_ops.by_counterparty", Intent: IntentBankOpsByParty, Purpose: "Банковские операции по контрагенту",
		Required: []string{FilterCounterparty}, Optional: []string{FilterPeriodFrom, FilterPeriodTo, FilterOrganization, FilterLimit, FilterSort},
		Output:      []string{"document_ref", "document_type", "number", "date", "amount", "posted", "bank_account_hint"},
		DefaultSort: "date_desc", DefaultLimit: 100, Drilldowns: []string{"address.documents.by_counterparty"}, Scope: ScopePreferred},
	{ID: "address.documents.by_contract", Intent: IntentDocumentsByContract, Purpose: "Документы договора за период",
		Required: []string{FilterContract, FilterPeriodFrom, FilterPeriodTo}, Optional: []string{FilterOrganization, FilterDocumentType, FilterLimit, FilterSort},
		Output:      []string{"document_ref", "document_type", "number", "date", "amount", "posted"},
		DefaultSort: "date_desc", DefaultLimit: 100, Drilldowns: []string{"address.balance.drilldown_documents"}, Scope: ScopePreferred},
	{ID: "address.balance.drilldown_documents", Intent: IntentDocumentsFormBalance, Purpose: "Расшифровка остатка до документов",
		Required: []string{FilterAccount, FilterAsOfDate}, Optional: []string{FilterOrganization, FilterCounterparty, FilterContract, FilterLimit},
		Output:      []string{"document_ref", "document_type", "number", "date", "debit", "credit", "delta"},
		DefaultSort: "date_desc", DefaultLimit: 150, Drilldowns: []string{"address.documents.by_counterparty"}, Scope: ScopeStrict},
	// The reports (report.go): each runs several templates of integrations/onec/queries_reports.go.
	{ID: "address.turnover_sheet.by_account", Intent: IntentTurnoverSheet, Purpose: "Оборотно-сальдовая ведомость за период",
		Required: []string{FilterPeriodFrom, FilterPeriodTo}, Optional: []string{FilterOrganization, FilterAccount, FilterCounterparty, FilterContract, FilterDetail, FilterLimit},
		Output:      []string{"account", "counterparty_name", "contract_name", "opening_debit", "opening_credit", "debit", "credit", "closing_debit", "closing_credit"},
		DefaultSort: "account_asc", DefaultLimit: MaxLimit, Drilldowns: []string{"address.account_card.movements"}, Scope: ScopeStrict},
	{ID: "address.account_card.movements", Intent: IntentAccountCard, Purpose: "Карточка счёта за период",
		Required: []string{FilterAccount, FilterPeriodFrom, FilterPeriodTo}, Optional: []string{FilterOrganization, FilterCounterparty, FilterLimit},
		Output:      []string{"date", "document_ref", "document_type", "number", "corr_account", "counterparty_name", "debit", "credit", "balance"},
		DefaultSort: "date_asc", DefaultLimit: MaxLimit, Scope: ScopeStrict},
}

// RecipeFor returns the recipe of an intent.
func RecipeFor(i Intent) (Recipe, bool) {
	for _, r := range Catalog {
		if r.Intent == i {
			return r, true
		}
	}
	return Recipe{}, false
}

// MissingFilters lists the recipe's required filters absent from f (as_of_date included — the
// lane defaults it to today and says so).
//
// The list is never nil, so it encodes as [] in JSON; it is empty for IntentUnknown. An INN
// counts as a counterparty.
func MissingFilters(i Intent, f Filters) []string {
	missing := []string{}
	r, ok := RecipeFor(i)
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
	}
	return ""
}

// RecipeByID returns a recipe by its ID.
func RecipeByID(id string) (Recipe, bool) {
	for _, r := range Catalog {
		if r.ID == id {
			return r, true
		}
	}
	return Recipe{}, false
}

// DocumentTypes is the whitelist of document_type values (BP 3.0 metadata names).
var DocumentTypes = []string{
	"ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета", "РеализацияТоваровУслуг",
	"ПоступлениеТоваровУслуг", "АктСверкиВзаиморасчетов", "ВводНачальныхОстатков",
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
