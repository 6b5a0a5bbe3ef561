// Package runner is the 1C lane: factual answers from 1C through a whitelist of read-only query
// recipes. It does not read text: a question is understood before it gets here (agent/understand,
// or the planner), and the lane is handed a Decomposition — an intent and filters, names as
// written or catalog references. Nothing upstream writes or alters a query. Stages of Lane.Run:
// validate filters → Resolve → Execute → Compose.
package runner

import (
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// Mode is the question mode of the input contract.
type Mode string

// Question modes.
const (
	ModeLedger      Mode = "ledger_query"
	ModeDeep        Mode = "deep_analysis"
	ModeUnsupported Mode = "unsupported"
)

// Decomposition is the lane's input contract plus how it was obtained.
type Decomposition struct {
	QuestionMode Mode           `json:"question_mode"`
	QueryShape   string         `json:"query_shape"` // "list", "aggregate", "single_value", "compound"
	Intent       recipe.Name    `json:"address_intent"`
	Filters      recipe.Filters `json:"extracted_filters"`
	Missing      []string       `json:"missing_required_filters"`
	// Unsure: the parser was not sure of the recipe, and no planner settled it (the debug
	// payload's confidences are then 0.5, else 1: the parser is rules, not a score).
	Unsure bool `json:"unsure,omitempty"`
	// Planned: the planner LLM proposed the recipe and filters, validated as the parser's own.
	Planned bool `json:"planned,omitempty"`
	// BankAccount is a settlement account of ours the question names (its number, or a tail of
	// it): its organization is the scope, and the answer names it. It is no filter of the
	// recipes (no template filters by the account; see bankAnchor), so it is not in Filters.
	BankAccount string `json:"bank_account,omitempty"`
	// Turnover is the side of a turnover sheet's turnover the question asks («выручка за март»:
	// "credit"): the answer opens with it. "" when it asks for balances.
	Turnover string `json:"turnover,omitempty"`
	// Last asks the latest bank operation first: "in", "out" or "any" (Decision.Last).
	Last string `json:"last,omitempty"`
	// Flow asks one direction of a company's bank operations first, or one side of its debt:
	// "in" or "out" (Decision.Flow).
	Flow string `json:"flow,omitempty"`
	// Corr narrows a card's turnover to postings against the accounts it opens («60»: paid to
	// suppliers); "" for all.
	Corr string `json:"corr,omitempty"`
	// AtLeast is the smallest debt a debts list asks for («больше миллиона»); 0 for all.
	AtLeast onec.Kopecks `json:"at_least,omitempty"`
	// OverdueDays is the days overdue an aging asks past («больше 90 дней»); 0 for all.
	OverdueDays int `json:"overdue_days,omitempty"`
	// FallbackRuleHit names the deterministic rule that decided (empty when the LLM did).
	FallbackRuleHit string `json:"fallback_rule_hit,omitempty"`
	// Reasons explain the decision in Russian, for the debug payload.
	Reasons []string `json:"reasons,omitempty"`
	// Sanitized is the message after control characters, zero-width and bidi marks were removed.
	Sanitized string `json:"sanitized_user_message"`
}
