package probes

import "math"

// ResolveEvidence is resolveAssistantMcpDiscoveryEvidence: the evidence gate
// that decides what an answer built from a discovery may claim.
//
// Inputs are normalised first: the fact lists through toStringList, the
// source rows summary and the recommended next probe trimmed (empty means
// null). query_limitations are the input limitations followed by the probes'
// limitations (each trimmed, empty ones dropped), duplicates removed keeping
// the first occurrence.
//
// Rows matched and rows received are summed over all probes, whatever their
// status, counting only finite positive values (nil, NaN, ±Inf, zero and
// negatives add nothing).
//
// reason_codes start as a copy of the plan's reason codes (as given, not
// re-normalised), then these are raised in order, each at most once:
//
//   - probe_result_used_primitive_outside_runtime_plan, if any probe's
//     primitive_id is not exactly (untrimmed, case-sensitive) in the plan's
//     allowed_primitives (a "bypass");
//   - plan_not_allowed_by_runtime, if the plan status is not "allowed";
//   - confirmed_facts_without_matched_probe_rows, if there are confirmed
//     facts but no matched rows;
//   - source_rows_summary_missing, if rows were received but there is no
//     summary of them.
//
// The status is then decided in this order:
//
//  1. bypass, or plan not allowed → blocked / blocked / checked_sources_only;
//  2. confirmed facts, matched rows and a source rows summary →
//     confirmed / full / confirmed_answer, reason
//     confirmed_facts_with_allowed_mcp_evidence;
//  3. inferred facts and received rows → inferred_only / partial /
//     bounded_inference, reason inferred_facts_require_bounded_answer;
//  4. otherwise → insufficient / blocked / checked_sources_only, reason
//     mcp_discovery_evidence_insufficient.
//
// Confirmed facts that fail step 2 are not promoted: they fall through to
// step 3 or 4. confidence_reason names the status (see confidenceReasonFor).
// The plan is carried unchanged in query_plan.
func ResolveEvidence(input EvidenceInput) Evidence {
	probeResults := input.ProbeResults
	confirmedFacts := toStringList(input.ConfirmedFacts)
	inferredFacts := toStringList(input.InferredFacts)
	unknownFacts := toStringList(input.UnknownFacts)
	sourceRowsSummary := toNonEmptyString(input.SourceRowsSummary)
	queryLimitations := mergeUnique(toStringList(input.QueryLimitations), collectProbeLimitations(probeResults))

	reasonCodes := make([]string, 0, len(input.Plan.ReasonCodes)+4)
	reasonCodes = append(reasonCodes, input.Plan.ReasonCodes...)
	rowsMatched := sumPositiveRows(probeResults, func(p ProbeResult) *float64 { return p.RowsMatched })
	rowsReceived := sumPositiveRows(probeResults, func(p ProbeResult) *float64 { return p.RowsReceived })
	bypassDetected := hasProbeBypass(input.Plan, probeResults)
	planAllowed := input.Plan.PlanStatus == PlanAllowed

	if bypassDetected {
		reasonCodes = pushReason(reasonCodes, ReasonProbeBypass)
	}
	if !planAllowed {
		reasonCodes = pushReason(reasonCodes, ReasonPlanNotAllowed)
	}
	if len(confirmedFacts) > 0 && rowsMatched <= 0 {
		reasonCodes = pushReason(reasonCodes, ReasonConfirmedFactsWithoutMatchedRow)
	}
	if sourceRowsSummary == "" && rowsReceived > 0 {
		reasonCodes = pushReason(reasonCodes, ReasonSourceRowsSummaryMissing)
	}

	evidenceStatus := EvidenceInsufficient
	coverageStatus := CoverageBlocked
	answerPermission := AnswerCheckedSourcesOnly
	switch {
	case bypassDetected || !planAllowed:
		evidenceStatus = EvidenceBlocked
		coverageStatus = CoverageBlocked
		answerPermission = AnswerCheckedSourcesOnly
	case len(confirmedFacts) > 0 && rowsMatched > 0 && sourceRowsSummary != "":
		evidenceStatus = EvidenceConfirmed
		coverageStatus = CoverageFull
		answerPermission = AnswerConfirmed
		reasonCodes = pushReason(reasonCodes, ReasonConfirmedWithAllowedEvidence)
	case len(inferredFacts) > 0 && rowsReceived > 0:
		evidenceStatus = EvidenceInferredOnly
		coverageStatus = CoveragePartial
		answerPermission = AnswerBoundedInference
		reasonCodes = pushReason(reasonCodes, ReasonInferredFactsRequireBounded)
	default:
		reasonCodes = pushReason(reasonCodes, ReasonEvidenceInsufficient)
	}

	return Evidence{
		SchemaVersion:        EvidenceSchemaVersion,
		PolicyOwner:          PolicyOwner,
		EvidenceStatus:       evidenceStatus,
		CoverageStatus:       coverageStatus,
		AnswerPermission:     answerPermission,
		ConfirmedFacts:       confirmedFacts,
		InferredFacts:        inferredFacts,
		UnknownFacts:         unknownFacts,
		SourceRowsSummary:    nullable(sourceRowsSummary),
		QueryPlan:            input.Plan,
		QueryLimitations:     queryLimitations,
		ConfidenceReason:     confidenceReasonFor(evidenceStatus),
		RecommendedNextProbe: nullable(toNonEmptyString(input.RecommendedNextProbe)),
		ReasonCodes:          reasonCodes,
	}
}

// mergeUnique concatenates lists and keeps the first occurrence of each item.
func mergeUnique(lists ...[]string) []string {
	result := []string{}
	for _, list := range lists {
		for _, item := range list {
			if !contains(result, item) {
				result = append(result, item)
			}
		}
	}
	return result
}

// collectProbeLimitations lists each probe's limitation, trimmed, empty ones
// dropped, deduplicated in probe order.
func collectProbeLimitations(probeResults []ProbeResult) []string {
	limitations := []string{}
	for _, probe := range probeResults {
		limitation := toNonEmptyString(probe.Limitation)
		if limitation != "" && !contains(limitations, limitation) {
			limitations = append(limitations, limitation)
		}
	}
	return limitations
}

// sumPositiveRows is the float64 sum of the selected count over all probes,
// counting only finite positive values (nil counts as 0). Fractions are kept.
func sumPositiveRows(probeResults []ProbeResult, rows func(ProbeResult) *float64) float64 {
	sum := 0.0
	for _, probe := range probeResults {
		if v := rows(probe); v != nil && !math.IsNaN(*v) && !math.IsInf(*v, 0) && *v > 0 {
			sum += *v
		}
	}
	return sum
}

// hasProbeBypass reports whether any probe ran a primitive the plan did not
// allow (exact string comparison against allowed_primitives).
func hasProbeBypass(plan Plan, probeResults []ProbeResult) bool {
	for _, probe := range probeResults {
		allowed := false
		for _, p := range plan.AllowedPrimitives {
			if string(p) == probe.PrimitiveID {
				allowed = true
				break
			}
		}
		if !allowed {
			return true
		}
	}
	return false
}

// confidenceReasonFor gives one fixed confidence_reason per evidence status;
// anything that is not confirmed, inferred_only or blocked gets the
// "insufficient" reason.
func confidenceReasonFor(status EvidenceStatus) string {
	switch status {
	case EvidenceConfirmed:
		return ConfidenceReasonConfirmed
	case EvidenceInferredOnly:
		return ConfidenceReasonInferredOnly
	case EvidenceBlocked:
		return ConfidenceReasonBlocked
	default:
		return ConfidenceReasonInsufficient
	}
}

// Russian phrases the product words its answers with, one per answer
// permission.
const (
	WordingConfirmed          = "подтверждено данными 1С"
	WordingBoundedInference   = "по косвенным данным"
	WordingCheckedSourcesOnly = "в проверенных источниках ответа нет"
)

// Wording returns the Russian phrase for the permission:
// «подтверждено данными 1С» for confirmed_answer, «по косвенным данным» for
// bounded_inference and «в проверенных источниках ответа нет» for
// checked_sources_only. An unknown or empty permission gets the
// checked_sources_only phrase: like the evidence gate itself, it falls back
// to the weakest claim rather than to an unbacked confirmation.
func (p AnswerPermission) Wording() string {
	switch p {
	case AnswerConfirmed:
		return WordingConfirmed
	case AnswerBoundedInference:
		return WordingBoundedInference
	default:
		return WordingCheckedSourcesOnly
	}
}

// Wording returns the Russian phrase for the evidence's answer permission
// (see [AnswerPermission.Wording]).
func (e Evidence) Wording() string { return e.AnswerPermission.Wording() }
