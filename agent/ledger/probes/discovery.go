// Package probes is the guarded MCP discovery policy: the runtime rules
// that decide what a model-proposed 1C discovery may run, and what an answer
// built from that discovery may claim. The flow has two gates:
//
//  1. [BuildPlan] takes what the model proposed (a semantic data need, the
//     turn's meaning, the MCP primitives it wants to call, the axes it needs)
//     and produces a [Plan]: only whitelisted primitives survive, the plan is
//     "allowed", "needs_clarification" or "blocked", and it always carries a
//     clamped [ExecutionBudget]. A plan never lets the answer use raw model
//     claims and always requires the evidence gate.
//  2. [ResolveEvidence] takes the plan plus what the probes returned and the
//     facts the model extracted, and produces an [Evidence] contract that says
//     how strongly the answer may speak: "confirmed_answer",
//     "bounded_inference" or "checked_sources_only". [Evidence.Wording] gives
//     the Russian phrase the product uses for each of those.
//
// Both contracts have a fixed JSON shape: fixed keys in a fixed order, null
// for an absent value, [] for an empty list, whatever the input. Strings are
// written as JSON.stringify writes them, except that json.Marshal escapes <,
// > and & (an Encoder with SetEscapeHTML(false) does not) and encoding/json
// always escapes U+2028 and U+2029. Numbers print as JavaScript prints them:
// the budget is integral, and encoding/json formats floats as JavaScript
// does. Text is trimmed, lower-cased and cut as JavaScript strings are (see
// text.go); where the 120-unit cut of a reason code would split a non-BMP
// character, the whole character is dropped (normalizeReasonCode).
//
// An absent input is the Go zero value: "" for strings (an empty or
// whitespace-only string means the same), nil for lists, pointers and
// numbers (*float64, so that NaN and ±Inf can also be passed).
//
// The package depends on the standard library only.
package probes

import "slices"

// Schema versions and the policy owner stamped on every contract.
const (
	// PlanSchemaVersion is the schema_version of a [Plan].
	PlanSchemaVersion = "assistant_mcp_discovery_plan_v1"
	// EvidenceSchemaVersion is the schema_version of an [Evidence].
	EvidenceSchemaVersion = "assistant_mcp_discovery_evidence_v1"
	// PolicyOwner is the policy_owner of both contracts.
	PolicyOwner = "assistantMcpDiscoveryPolicy"
)

// Primitive is one MCP discovery primitive a plan may run against 1C.
type Primitive string

// The primitive whitelist. Anything a model proposes outside this list is
// rejected by [BuildPlan].
const (
	PrimitiveSearchBusinessEntity    Primitive = "search_business_entity"
	PrimitiveInspect1CMetadata       Primitive = "inspect_1c_metadata"
	PrimitiveResolveEntityReference  Primitive = "resolve_entity_reference"
	PrimitiveQueryMovements          Primitive = "query_movements"
	PrimitiveQueryDocuments          Primitive = "query_documents"
	PrimitiveAggregateByAxis         Primitive = "aggregate_by_axis"
	PrimitiveDrilldownRelatedObjects Primitive = "drilldown_related_objects"
	PrimitiveProbeCoverage           Primitive = "probe_coverage"
	PrimitiveExplainEvidenceBasis    Primitive = "explain_evidence_basis"
)

// primitives is the whitelist in its declaration order.
var primitives = [...]Primitive{
	PrimitiveSearchBusinessEntity,
	PrimitiveInspect1CMetadata,
	PrimitiveResolveEntityReference,
	PrimitiveQueryMovements,
	PrimitiveQueryDocuments,
	PrimitiveAggregateByAxis,
	PrimitiveDrilldownRelatedObjects,
	PrimitiveProbeCoverage,
	PrimitiveExplainEvidenceBasis,
}

// Primitives returns the whitelist in declaration order. The slice is a
// fresh copy; changing it does not change the policy.
func Primitives() []Primitive { return slices.Clone(primitives[:]) }

// IsPrimitive reports whether value is exactly (case-sensitively, without
// trimming) one of the whitelisted primitives.
func IsPrimitive(value string) bool {
	return slices.Contains(primitives[:], Primitive(value))
}

// PlanStatus says whether a plan may run.
type PlanStatus string

const (
	// PlanAllowed: at least one whitelisted primitive, a semantic data need,
	// a turn meaning and a grounding axis are all present.
	PlanAllowed PlanStatus = "allowed"
	// PlanNeedsClarification: something needed to ground the discovery is
	// missing, or nothing was proposed at all.
	PlanNeedsClarification PlanStatus = "needs_clarification"
	// PlanBlocked: the model proposed primitives but none is whitelisted.
	PlanBlocked PlanStatus = "blocked"
)

// CoverageStatus says how much of the question the evidence covers.
type CoverageStatus string

const (
	CoverageFull    CoverageStatus = "full"
	CoveragePartial CoverageStatus = "partial"
	CoverageBlocked CoverageStatus = "blocked"
)

// EvidenceStatus is the verdict of the evidence gate.
type EvidenceStatus string

const (
	EvidenceConfirmed    EvidenceStatus = "confirmed"
	EvidenceInferredOnly EvidenceStatus = "inferred_only"
	EvidenceInsufficient EvidenceStatus = "insufficient"
	EvidenceBlocked      EvidenceStatus = "blocked"
)

// AnswerPermission is what the answer may claim.
type AnswerPermission string

const (
	// AnswerConfirmed: the answer may state facts as confirmed by 1C data.
	AnswerConfirmed AnswerPermission = "confirmed_answer"
	// AnswerBoundedInference: the answer may only give a hedged inference.
	AnswerBoundedInference AnswerPermission = "bounded_inference"
	// AnswerCheckedSourcesOnly: the answer may only say which sources were
	// checked and that they do not hold the answer.
	AnswerCheckedSourcesOnly AnswerPermission = "checked_sources_only"
)

// ProbeStatus is the outcome a probe reports. The policy records it but does
// not use it in any decision: an "error" probe's rows and limitation count
// the same as an "ok" one's.
type ProbeStatus string

const (
	ProbeOK      ProbeStatus = "ok"
	ProbeError   ProbeStatus = "error"
	ProbeSkipped ProbeStatus = "skipped"
)

// Reason codes. Plans and evidence contracts list them in reason_codes in
// the order they were raised.
const (
	ReasonUnregisteredPrimitive           = "model_proposed_unregistered_mcp_primitive"
	ReasonSemanticDataNeedMissing         = "semantic_data_need_missing"
	ReasonTurnMeaningRefMissing           = "turn_meaning_ref_missing"
	ReasonGroundingAxisMissing            = "grounding_axis_missing"
	ReasonNoAllowedPrimitivesAfterFilter  = "no_allowed_mcp_primitives_after_runtime_filter"
	ReasonPrimitivesNotProposed           = "mcp_primitives_not_proposed"
	ReasonPlanAllowed                     = "guarded_mcp_discovery_plan_allowed"
	ReasonPlanBlocked                     = "guarded_mcp_discovery_plan_blocked"
	ReasonPlanNeedsClarification          = "guarded_mcp_discovery_plan_needs_clarification"
	ReasonProbeBypass                     = "probe_result_used_primitive_outside_runtime_plan"
	ReasonPlanNotAllowed                  = "plan_not_allowed_by_runtime"
	ReasonConfirmedFactsWithoutMatchedRow = "confirmed_facts_without_matched_probe_rows"
	ReasonSourceRowsSummaryMissing        = "source_rows_summary_missing"
	ReasonConfirmedWithAllowedEvidence    = "confirmed_facts_with_allowed_mcp_evidence"
	ReasonInferredFactsRequireBounded     = "inferred_facts_require_bounded_answer"
	ReasonEvidenceInsufficient            = "mcp_discovery_evidence_insufficient"
)

// Confidence reasons, one per evidence status, written to confidence_reason.
const (
	ConfidenceReasonConfirmed    = "confirmed_facts_backed_by_allowed_mcp_probe_rows"
	ConfidenceReasonInferredOnly = "only_inferred_facts_available_from_allowed_mcp_probe_rows"
	ConfidenceReasonBlocked      = "runtime_evidence_gate_blocked_discovery_answer"
	ConfidenceReasonInsufficient = "allowed_mcp_probes_did_not_produce_sufficient_evidence"
)

// Execution budget defaults and limits.
const (
	// DefaultMaxProbeCount is used when max probe count is absent or not finite.
	DefaultMaxProbeCount = 3
	// DefaultMaxRowsPerProbe is used when max rows per probe is absent or not finite.
	DefaultMaxRowsPerProbe = 100
	// MaxProbeCountLimit is the largest probe count a plan may grant.
	MaxProbeCountLimit = 36
	// MaxRowsPerProbeLimit is the largest row count per probe a plan may grant.
	MaxRowsPerProbeLimit = 500
)

// TurnMeaningRef is the structured meaning of the user's turn that grounds a
// discovery. It is both an input (what the caller knows) and an output (the
// normalised copy a [Plan] carries in turn_meaning_ref).
//
// An empty string stands for an absent value. In a plan only the keys that
// survived normalisation are set, and omitempty leaves the others out of the
// JSON object. The field order is the JSON key order.
type TurnMeaningRef struct {
	AskedDomainFamily           string   `json:"asked_domain_family,omitempty"`
	AskedActionFamily           string   `json:"asked_action_family,omitempty"`
	AskedAggregationAxis        string   `json:"asked_aggregation_axis,omitempty"`
	SeededRankingNeed           string   `json:"seeded_ranking_need,omitempty"`
	ExplicitEntityCandidates    []string `json:"explicit_entity_candidates,omitempty"`
	MetadataAmbiguityEntitySets []string `json:"metadata_ambiguity_entity_sets,omitempty"`
	// MetadataScopeHint is accepted as input but normalisation drops it: a
	// plan's turn_meaning_ref never has it.
	MetadataScopeHint         string `json:"metadata_scope_hint,omitempty"`
	ExplicitOrganizationScope string `json:"explicit_organization_scope,omitempty"`
	ExplicitDateScope         string `json:"explicit_date_scope,omitempty"`
	// SubjectResolutionOptional is accepted as input but normalisation drops
	// it.
	SubjectResolutionOptional *bool `json:"subject_resolution_optional,omitempty"`
	// MeaningConfidence is kept only when finite, clamped to 0..1. A pointer
	// so that a confidence of 0 is still emitted.
	MeaningConfidence              *float64 `json:"meaning_confidence,omitempty"`
	UnsupportedButUnderstoodFamily string   `json:"unsupported_but_understood_family,omitempty"`
	// StaleReplayForbidden is kept whenever it is set, false included.
	StaleReplayForbidden *bool `json:"stale_replay_forbidden,omitempty"`
}

// ExecutionBudget bounds what an allowed plan may run.
type ExecutionBudget struct {
	MaxProbeCount   int `json:"max_probe_count"`
	MaxRowsPerProbe int `json:"max_rows_per_probe"`
}

// Plan is the plan contract (AssistantMcpDiscoveryPlanContract).
//
// SemanticDataNeed and TurnMeaningRef are null in JSON when absent. The list
// fields always serialise as arrays, [] when empty, even if a hand-built Plan
// leaves them nil.
type Plan struct {
	SchemaVersion      string          `json:"schema_version"`
	PolicyOwner        string          `json:"policy_owner"`
	PlanStatus         PlanStatus      `json:"plan_status"`
	SemanticDataNeed   *string         `json:"semantic_data_need"`
	TurnMeaningRef     *TurnMeaningRef `json:"turn_meaning_ref"`
	AllowedPrimitives  []Primitive     `json:"allowed_primitives"`
	RejectedPrimitives []string        `json:"rejected_primitives"`
	RequiredAxes       []string        `json:"required_axes"`
	ClarificationGaps  []string        `json:"clarification_gaps"`
	ExecutionBudget    ExecutionBudget `json:"execution_budget"`
	// RequiresEvidenceGate is always true in a plan built by [BuildPlan].
	RequiresEvidenceGate bool `json:"requires_evidence_gate"`
	// AnswerMayUseRawModelClaims is always false in a plan built by [BuildPlan].
	AnswerMayUseRawModelClaims bool     `json:"answer_may_use_raw_model_claims"`
	ReasonCodes                []string `json:"reason_codes"`
}

// PlanInput is what [BuildPlan] reads (BuildAssistantMcpDiscoveryPlanInput).
// JSON tags are the input field names of the contract.
//
// An empty or whitespace-only string means the value is absent. The two
// budget numbers are pointers: nil, NaN and ±Inf all
// fall back to the default.
type PlanInput struct {
	SemanticDataNeed   string          `json:"semanticDataNeed,omitempty"`
	TurnMeaning        *TurnMeaningRef `json:"turnMeaning,omitempty"`
	ProposedPrimitives []string        `json:"proposedPrimitives,omitempty"`
	RequiredAxes       []string        `json:"requiredAxes,omitempty"`
	ClarificationGaps  []string        `json:"clarificationGaps,omitempty"`
	MaxProbeCount      *float64        `json:"maxProbeCount,omitempty"`
	MaxRowsPerProbe    *float64        `json:"maxRowsPerProbe,omitempty"`
}

// ProbeResult is what one executed probe reported
// (AssistantMcpDiscoveryProbeResult). Row counts are pointers because the
// contract allows null; nil, NaN, ±Inf, zero and negative counts all count
// as no rows.
type ProbeResult struct {
	PrimitiveID  string      `json:"primitive_id"`
	Status       ProbeStatus `json:"status"`
	RowsReceived *float64    `json:"rows_received,omitempty"`
	RowsMatched  *float64    `json:"rows_matched,omitempty"`
	Limitation   string      `json:"limitation,omitempty"`
}

// EvidenceInput is what [ResolveEvidence] reads
// (ResolveAssistantMcpDiscoveryEvidenceInput). JSON tags are the input
// field names of the contract; empty strings mean null.
type EvidenceInput struct {
	Plan                 Plan          `json:"plan"`
	ProbeResults         []ProbeResult `json:"probeResults,omitempty"`
	ConfirmedFacts       []string      `json:"confirmedFacts,omitempty"`
	InferredFacts        []string      `json:"inferredFacts,omitempty"`
	UnknownFacts         []string      `json:"unknownFacts,omitempty"`
	SourceRowsSummary    string        `json:"sourceRowsSummary,omitempty"`
	QueryLimitations     []string      `json:"queryLimitations,omitempty"`
	RecommendedNextProbe string        `json:"recommendedNextProbe,omitempty"`
}

// Evidence is the evidence contract (AssistantMcpDiscoveryEvidenceContract).
//
// SourceRowsSummary and RecommendedNextProbe are null in JSON when absent.
// The list fields always serialise as arrays.
type Evidence struct {
	SchemaVersion        string           `json:"schema_version"`
	PolicyOwner          string           `json:"policy_owner"`
	EvidenceStatus       EvidenceStatus   `json:"evidence_status"`
	CoverageStatus       CoverageStatus   `json:"coverage_status"`
	AnswerPermission     AnswerPermission `json:"answer_permission"`
	ConfirmedFacts       []string         `json:"confirmed_facts"`
	InferredFacts        []string         `json:"inferred_facts"`
	UnknownFacts         []string         `json:"unknown_facts"`
	SourceRowsSummary    *string          `json:"source_rows_summary"`
	QueryPlan            Plan             `json:"query_plan"`
	QueryLimitations     []string         `json:"query_limitations"`
	ConfidenceReason     string           `json:"confidence_reason"`
	RecommendedNextProbe *string          `json:"recommended_next_probe"`
	ReasonCodes          []string         `json:"reason_codes"`
}
