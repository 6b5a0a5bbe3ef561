package probes

import (
	"math"
	"slices"
)

// BuildPlan is buildAssistantMcpDiscoveryPlan: it turns what the model
// proposed into a guarded plan.
//
// Inputs are normalised first: the semantic data need and every list item are
// trimmed (empty means absent), lists are deduplicated keeping the first
// occurrence, and the turn meaning goes through normalizeTurnMeaning.
//
// Each proposed primitive (after trimming, compared case-sensitively) lands in
// allowed_primitives if whitelisted, otherwise in rejected_primitives.
//
// Reason codes are raised in this order, each at most once:
//
//   - model_proposed_unregistered_mcp_primitive, if anything was rejected;
//   - semantic_data_need_missing;
//   - turn_meaning_ref_missing;
//   - grounding_axis_missing (see hasGroundingAxis);
//   - no_allowed_mcp_primitives_after_runtime_filter, if primitives were
//     proposed but none is whitelisted;
//   - mcp_primitives_not_proposed, if nothing was proposed;
//   - finally one of guarded_mcp_discovery_plan_allowed / _blocked /
//     _needs_clarification for the status.
//
// The status is decided in this order:
//
//  1. proposed something, none whitelisted → blocked;
//  2. no semantic need, no turn meaning, or no grounding axis →
//     needs_clarification;
//  3. nothing proposed → needs_clarification;
//  4. otherwise → allowed.
//
// So rejected primitives alongside at least one whitelisted one do not block
// the plan; they are only reported.
//
// The execution budget is always filled (see clampBudget), and every plan
// requires the evidence gate and forbids raw model claims in the answer.
func BuildPlan(input PlanInput) Plan {
	semanticDataNeed := toNonEmptyString(input.SemanticDataNeed)
	turnMeaning := normalizeTurnMeaning(input.TurnMeaning)
	requiredAxes := toStringList(input.RequiredAxes)
	clarificationGaps := toStringList(input.ClarificationGaps)
	proposed := toStringList(input.ProposedPrimitives)
	reasonCodes := []string{}
	allowedPrimitives := []Primitive{}
	rejectedPrimitives := []string{}

	for _, primitive := range proposed {
		if IsPrimitive(primitive) {
			if !slices.Contains(allowedPrimitives, Primitive(primitive)) {
				allowedPrimitives = append(allowedPrimitives, Primitive(primitive))
			}
		} else {
			rejectedPrimitives = append(rejectedPrimitives, primitive)
		}
	}

	grounded := hasGroundingAxis(turnMeaning, requiredAxes)
	if len(rejectedPrimitives) > 0 {
		reasonCodes = pushReason(reasonCodes, ReasonUnregisteredPrimitive)
	}
	if semanticDataNeed == "" {
		reasonCodes = pushReason(reasonCodes, ReasonSemanticDataNeedMissing)
	}
	if turnMeaning == nil {
		reasonCodes = pushReason(reasonCodes, ReasonTurnMeaningRefMissing)
	}
	if !grounded {
		reasonCodes = pushReason(reasonCodes, ReasonGroundingAxisMissing)
	}
	if len(allowedPrimitives) == 0 && len(proposed) > 0 {
		reasonCodes = pushReason(reasonCodes, ReasonNoAllowedPrimitivesAfterFilter)
	}
	if len(allowedPrimitives) == 0 && len(proposed) == 0 {
		reasonCodes = pushReason(reasonCodes, ReasonPrimitivesNotProposed)
	}

	planStatus := PlanAllowed
	switch {
	case len(allowedPrimitives) == 0 && len(proposed) > 0:
		planStatus = PlanBlocked
	case semanticDataNeed == "" || turnMeaning == nil || !grounded:
		planStatus = PlanNeedsClarification
	case len(allowedPrimitives) == 0:
		planStatus = PlanNeedsClarification
	}

	switch planStatus {
	case PlanAllowed:
		reasonCodes = pushReason(reasonCodes, ReasonPlanAllowed)
	case PlanBlocked:
		reasonCodes = pushReason(reasonCodes, ReasonPlanBlocked)
	default:
		reasonCodes = pushReason(reasonCodes, ReasonPlanNeedsClarification)
	}

	return Plan{
		SchemaVersion:      PlanSchemaVersion,
		PolicyOwner:        PolicyOwner,
		PlanStatus:         planStatus,
		SemanticDataNeed:   nullable(semanticDataNeed),
		TurnMeaningRef:     turnMeaning,
		AllowedPrimitives:  allowedPrimitives,
		RejectedPrimitives: rejectedPrimitives,
		RequiredAxes:       requiredAxes,
		ClarificationGaps:  clarificationGaps,
		ExecutionBudget: ExecutionBudget{
			MaxProbeCount:   clampInteger(input.MaxProbeCount, DefaultMaxProbeCount, 1, MaxProbeCountLimit),
			MaxRowsPerProbe: clampInteger(input.MaxRowsPerProbe, DefaultMaxRowsPerProbe, 1, MaxRowsPerProbeLimit),
		},
		RequiresEvidenceGate:       true,
		AnswerMayUseRawModelClaims: false,
		ReasonCodes:                reasonCodes,
	}
}

// clampInteger bounds the execution budget: nil, NaN and ±Inf give the
// fallback (so +Inf gives the default, not the maximum); any finite value is
// truncated toward zero (2.7 → 2, -0.5 → 0) and then clamped to min..max.
func clampInteger(value *float64, fallback, min, max int) int {
	if value == nil || math.IsNaN(*value) || math.IsInf(*value, 0) {
		return fallback
	}
	v := math.Trunc(*value)
	if v < float64(min) {
		return min
	}
	if v > float64(max) {
		return max
	}
	return int(v)
}

// normalizeTurnMeaning returns nil for a nil input and for an input in which
// nothing survives. Otherwise it returns a fresh TurnMeaningRef holding only
// what survived:
//
//   - the string fields asked_domain_family, asked_action_family,
//     asked_aggregation_axis, seeded_ranking_need,
//     explicit_organization_scope, explicit_date_scope and
//     unsupported_but_understood_family, trimmed, kept when non-empty;
//   - explicit_entity_candidates and metadata_ambiguity_entity_sets through
//     toStringList, kept when non-empty;
//   - meaning_confidence, kept when finite, clamped to 0..1;
//   - stale_replay_forbidden, kept whenever set (false included).
//
// metadata_scope_hint and subject_resolution_optional are dropped.
func normalizeTurnMeaning(value *TurnMeaningRef) *TurnMeaningRef {
	if value == nil {
		return nil
	}
	result := TurnMeaningRef{
		AskedDomainFamily:              toNonEmptyString(value.AskedDomainFamily),
		AskedActionFamily:              toNonEmptyString(value.AskedActionFamily),
		AskedAggregationAxis:           toNonEmptyString(value.AskedAggregationAxis),
		SeededRankingNeed:              toNonEmptyString(value.SeededRankingNeed),
		ExplicitOrganizationScope:      toNonEmptyString(value.ExplicitOrganizationScope),
		ExplicitDateScope:              toNonEmptyString(value.ExplicitDateScope),
		UnsupportedButUnderstoodFamily: toNonEmptyString(value.UnsupportedButUnderstoodFamily),
	}
	if entities := toStringList(value.ExplicitEntityCandidates); len(entities) > 0 {
		result.ExplicitEntityCandidates = entities
	}
	if sets := toStringList(value.MetadataAmbiguityEntitySets); len(sets) > 0 {
		result.MetadataAmbiguityEntitySets = sets
	}
	if c := value.MeaningConfidence; c != nil && !math.IsNaN(*c) && !math.IsInf(*c, 0) {
		clamped := math.Max(0, math.Min(1, *c))
		result.MeaningConfidence = &clamped
	}
	if value.StaleReplayForbidden != nil {
		forbidden := *value.StaleReplayForbidden
		result.StaleReplayForbidden = &forbidden
	}
	if isEmptyTurnMeaning(&result) {
		return nil
	}
	return &result
}

// isEmptyTurnMeaning reports whether a normalised TurnMeaningRef has no key
// set (it would serialise as {}).
func isEmptyTurnMeaning(m *TurnMeaningRef) bool {
	return m.AskedDomainFamily == "" &&
		m.AskedActionFamily == "" &&
		m.AskedAggregationAxis == "" &&
		m.SeededRankingNeed == "" &&
		len(m.ExplicitEntityCandidates) == 0 &&
		len(m.MetadataAmbiguityEntitySets) == 0 &&
		m.ExplicitOrganizationScope == "" &&
		m.ExplicitDateScope == "" &&
		m.MeaningConfidence == nil &&
		m.UnsupportedButUnderstoodFamily == "" &&
		m.StaleReplayForbidden == nil
}

// hasGroundingAxis reports whether the discovery is grounded: the caller
// named required axes, or the (normalised) turn meaning names a domain
// family, an action family, an organisation scope, a date scope or at least
// one entity candidate. An aggregation axis, a seeded ranking need, metadata
// ambiguity sets or a confidence alone do not ground it.
func hasGroundingAxis(turnMeaning *TurnMeaningRef, requiredAxes []string) bool {
	if len(requiredAxes) > 0 {
		return true
	}
	if turnMeaning == nil {
		return false
	}
	return turnMeaning.AskedDomainFamily != "" ||
		turnMeaning.AskedActionFamily != "" ||
		turnMeaning.ExplicitOrganizationScope != "" ||
		turnMeaning.ExplicitDateScope != "" ||
		len(turnMeaning.ExplicitEntityCandidates) > 0
}
