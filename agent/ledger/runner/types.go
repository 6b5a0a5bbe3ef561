// Package lane is the 1C lane (the seeds' «address query» lane): factual answers from 1C through a whitelist of
// read-only query recipes. It does not read text: a question is understood before it gets here
// (agent/understand, or the planner), and the lane is handed a Decomposition — an intent and
// filters, names as written or catalog references. Nothing upstream writes or alters a query.
// Stages of Lane.Run: validate filters → Resolve → Execute → Compose (seeds 000 and 001).
package runner

// Mode is the question mode of the input contract.
type Mode string

// Question modes.
const (
	ModeLedger      Mode = "ledger_query"
	ModeDeep        Mode = "deep_analysis"
	ModeUnsupported Mode = "unsupported"
)

// Intent is an address intent; each maps to exactly one recipe.
type Intent string

// The intents of the catalog (seed 000 §4) plus unknown.
const (
	IntentOpenContracts        Intent = "list_open_contracts"
	IntentPayables             Intent = "list_payables_counterparties"
	IntentReceivables          Intent = "list_receivables_counterparties"
	IntentAccountBalance       Intent = "account_balance_snapshot"
	IntentOpenItemsByParty     Intent = "open_items_by_counterparty"
	IntentOpenItemsByContract  Intent = "open_items_by_contract"
	IntentDocumentsByParty     Intent = "documents_by_counterparty"
	IntentBankOpsByParty       Intent = "bank_ops_by_counterparty"
	IntentDocumentsByContract  Intent = "documents_by_contract"
	IntentDocumentsFormBalance Intent = "documents_forming_balance"
	IntentTurnoverSheet        Intent = "turnover_sheet" // оборотно-сальдовая ведомость за период (report.go)
	IntentAccountCard          Intent = "account_card"   // карточка счёта за период (report.go)
	IntentUnknown              Intent = "unknown"
)

// Intents lists every catalog intent (not unknown), in catalog order.
func Intents() []Intent {
	return []Intent{IntentOpenContracts, IntentPayables, IntentReceivables, IntentAccountBalance,
		IntentOpenItemsByParty, IntentOpenItemsByContract, IntentDocumentsByParty, IntentBankOpsByParty,
		IntentDocumentsByContract, IntentDocumentsFormBalance, IntentTurnoverSheet, IntentAccountCard}
}

// Filter keys of the filter catalog (seed 000 §3).
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
}

// Decomposition is the input contract of seed 001 plus how it was obtained.
type Decomposition struct {
	QuestionMode         Mode     `json:"question_mode"`
	ModeConfidence       float64  `json:"detected_mode_confidence"`
	QueryShape           string   `json:"query_shape"` // "list", "aggregate", "single_value", "compound"
	QueryShapeConfidence float64  `json:"query_shape_confidence"`
	Intent               Intent   `json:"address_intent"`
	IntentConfidence     float64  `json:"detected_intent_confidence"`
	Filters              Filters  `json:"extracted_filters"`
	Missing              []string `json:"missing_required_filters"`
	// BankAccount is a settlement account of ours the question names (its number, or a tail of
	// it): its organization is the scope, and the answer names it. It is no filter of the
	// recipes (no template filters by the account; see bankAnchor), so it is not in Filters.
	BankAccount string `json:"bank_account,omitempty"`
	// FallbackRuleHit names the deterministic rule that decided (empty when the LLM did).
	FallbackRuleHit string `json:"fallback_rule_hit,omitempty"`
	// Reasons explain the decision in Russian, for the debug payload.
	Reasons []string `json:"reasons,omitempty"`
	// Sanitized is the message after control characters, zero-width and bidi marks were removed.
	Sanitized string `json:"sanitized_user_message"`

	LLMAttempted bool   `json:"llm_decomposition_attempted"`
	LLMApplied   bool   `json:"llm_decomposition_applied"`
	LLMReason    string `json:"llm_decomposition_reason,omitempty"`
}
