package runner

import (
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// Result modes of the answer contract.
const (
	FactualList    = "FACTUAL_LIST"
	FactualSummary = "FACTUAL_SUMMARY"
	Limited        = "LIMITED_WITH_REASON"
)

// Reasons of a LIMITED_WITH_REASON result.
const (
	ReasonEmptyMatch     = "empty_match"
	ReasonMissingAnchor  = "missing_anchor"
	ReasonVisibilityGap  = "recipe_visibility_gap"
	ReasonExecutionError = "execution_error"
	ReasonUnsupported    = "unsupported"
	ReasonMissingFilters = "missing_required_filters" // a required filter is absent or unusable
)

// Runtime readiness statuses.
const (
	ReadyLive          = "LIVE_QUERYABLE"
	ReadyLiveLimited   = "LIVE_QUERYABLE_WITH_LIMITS"
	ReadySpecialRecipe = "REQUIRES_SPECIALIZED_RECIPE"
	ReadyDeepOnly      = "DEEP_ONLY"
	ReadyUnknown       = "UNKNOWN"
)

// MCP stage statuses.
const (
	StageSkipped             = "skipped"
	StageError               = "error"
	StageNoRawRows           = "no_raw_rows"
	StageNotMaterialized     = "raw_rows_received_but_not_materialized"
	StageNotAnchorMatched    = "materialized_but_not_anchor_matched"
	StageFilteredOutByRecipe = "materialized_but_filtered_out_by_recipe"
	StageMatched             = "matched_non_empty"
	stageLegacyNotMatched    = "materialized_but_not_matched"
)

// Materialization drop reasons.
const (
	DropNone              = "none"
	DropByAccountScope    = "dropped_by_account_scope_filter"
	DropNoPeriodRegistrar = onec.DropNoPeriodRegistrar // rows onec could not decode (onec.Result.Dropped)
	DropNoPeriod          = onec.DropNoPeriod
	DropNoRegistrar       = onec.DropNoRegistrar
	DropUnknownShape      = onec.DropUnknownShape
)

// Debug is the lane's debug payload.
type Debug struct {
	// Core detection.
	DetectedMode             Mode        `json:"detected_mode"`
	DetectedModeConfidence   float64     `json:"detected_mode_confidence"`
	QueryShape               string      `json:"query_shape"`
	QueryShapeConfidence     float64     `json:"query_shape_confidence"`
	DetectedIntent           recipe.Name `json:"detected_intent"`
	DetectedIntentConfidence float64     `json:"detected_intent_confidence"`

	// Filter + recipe.
	ExtractedFilters       recipe.Filters `json:"extracted_filters"`
	MissingRequiredFilters []string       `json:"missing_required_filters"`
	SelectedRecipe         string         `json:"selected_recipe"`

	// Resolver block.
	AnchorType          string  `json:"anchor_type"`
	AnchorValueRaw      string  `json:"anchor_value_raw"`
	AnchorValueResolved string  `json:"anchor_value_resolved"`
	ResolverConfidence  float64 `json:"resolver_confidence"`
	AmbiguityCount      int     `json:"ambiguity_count"`

	// MCP / evidence flow.
	MCPCallStatus             string   `json:"mcp_call_status"`
	MCPCallStatusLegacy       string   `json:"mcp_call_status_legacy"`
	MatchFailureStage         string   `json:"match_failure_stage"`
	MatchFailureReason        string   `json:"match_failure_reason"`
	RowsFetched               int      `json:"rows_fetched"`
	RawRowsReceived           int      `json:"raw_rows_received"`
	RowsAfterAccountScope     int      `json:"rows_after_account_scope"`
	RowsMaterialized          int      `json:"rows_materialized"`
	RowsAfterRecipeFilter     int      `json:"rows_after_recipe_filter"`
	RowsMatched               int      `json:"rows_matched"`
	RawRowKeysSample          []string `json:"raw_row_keys_sample"`
	MaterializationDropReason string   `json:"materialization_drop_reason"`

	// Account-scope audit.
	AccountScopeMode            recipe.ScopeMode `json:"account_scope_mode"`
	AccountScopeFallbackApplied bool             `json:"account_scope_fallback_applied"`
	AccountTokenRaw             string           `json:"account_token_raw"`
	AccountTokenNormalized      []string         `json:"account_token_normalized"`
	AccountScopeFieldsChecked   []string         `json:"account_scope_fields_checked"`
	AccountScopeMatchStrategy   string           `json:"account_scope_match_strategy"`
	AccountScopeDropReason      string           `json:"account_scope_drop_reason"`

	// Result block.
	RuntimeReadiness      string   `json:"runtime_readiness"`
	LimitedReasonCategory string   `json:"limited_reason_category"`
	ResponseType          string   `json:"response_type"`
	Limitations           []string `json:"limitations"`
	Reasons               []string `json:"reasons"`

	// Assistant-level metadata.
	LLMDecompositionAttempted bool   `json:"llm_decomposition_attempted"`
	LLMDecompositionApplied   bool   `json:"llm_decomposition_applied"`
	LLMProviderUsed           string `json:"llm_provider_used"`
	LLMDecompositionTraceID   string `json:"llm_decomposition_trace_id"`
	LLMEffectiveMessage       string `json:"llm_decomposition_effective_message"`
	LLMDecompositionReason    string `json:"llm_decomposition_reason"`
	FallbackRuleHit           string `json:"fallback_rule_hit"`
	SanitizedUserMessage      string `json:"sanitized_user_message"`
	ToolGateDecision          string `json:"tool_gate_decision"`
	ToolGateReason            string `json:"tool_gate_reason"`
	ExecutionLane             string `json:"execution_lane"`

	// Source names where the figures come from (no silent substitution).
	Source string `json:"source"`
	// QueriesSent are the whitelisted template IDs executed, in order.
	QueriesSent []string `json:"queries_sent"`
}

// legacyStatus maps a stage status onto the backward-compatible taxonomy.
func legacyStatus(s string) string {
	if s == StageNotAnchorMatched || s == StageFilteredOutByRecipe {
		return stageLegacyNotMatched
	}
	return s
}
