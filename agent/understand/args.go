package understand

import "github.com/finbot/finbot/agent/recipe"

// The slots of a decision as the planner writes them: the arguments of its ledger_query and
// fetch_cbr_data tools. The planner's schema is generated from these types (agent/plan), and
// Parser.FromPlan reads them with the parser's own checks.

// LedgerArgs are the arguments of ledger_query: one whitelisted 1C recipe and its filters.
// Recipe may be left out when the plan's Ledger names it.
type LedgerArgs struct {
	Recipe  recipe.Name    `json:"recipe,omitempty"`
	Filters recipe.Filters `json:"filters,omitzero"`
}

// RateArgs are the arguments of fetch_cbr_data: the Bank of Russia's rates, key rate and
// news. Dates are "YYYY-MM-DD".
type RateArgs struct {
	Mode  string   `json:"mode" jsonschema:"required,enum=currency,enum=dynamic,enum=key_rate,enum=news"`
	Date  string   `json:"date,omitempty" jsonschema:"format=date" jsonschema_description:"Дата (currency, key_rate); пусто — сегодня."`
	From  string   `json:"from,omitempty" jsonschema:"format=date" jsonschema_description:"Начало периода (dynamic, key_rate, news)."`
	To    string   `json:"to,omitempty" jsonschema:"format=date" jsonschema_description:"Конец периода (dynamic, key_rate, news)."`
	Codes []string `json:"codes,omitempty" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"Коды валют ISO 4217: USD, EUR, CNY (currency, dynamic)."`
}

// Modes of RateArgs.
const (
	RateCurrency = "currency"
	RateDynamic  = "dynamic"
	RateKeyRate  = "key_rate"
	RateNews     = "news"
)

// Planned is a plan that is one call a Decision carries: a 1C recipe or a Bank of Russia call
// (agent/plan's QueryPlan.Planned reads it from a plan).
type Planned struct {
	Ledger *LedgerArgs
	Rate   *RateArgs
}
