package probes

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// allowedPlan is a grounded plan that allows query_movements and
// query_documents.
func allowedPlan(t *testing.T) Plan {
	t.Helper()
	plan := BuildPlan(PlanInput{
		SemanticDataNeed:   "обороты по счёту 62 за март",
		TurnMeaning:        &TurnMeaningRef{AskedDomainFamily: "взаиморасчёты", ExplicitDateScope: "март 2025"},
		ProposedPrimitives: []string{"query_movements", "query_documents"},
	})
	if plan.PlanStatus != PlanAllowed {
		t.Fatalf("fixture plan is %q", plan.PlanStatus)
	}
	return plan
}

func probe(id string, received, matched *float64) ProbeResult {
	return ProbeResult{PrimitiveID: id, Status: ProbeOK, RowsReceived: received, RowsMatched: matched}
}

func TestResolveEvidenceMatrix(t *testing.T) {
	const summary = "12 строк регистра «Взаиморасчёты», 3 по контрагенту"
	confirmed := []string{"Долг ООО Ромашка на 31.03 — 120 000 ₽"}
	inferred := []string{"Вероятно, долг погашен в апреле"}
	needsClarification := BuildPlan(PlanInput{ProposedPrimitives: []string{"query_movements"}})
	blocked := BuildPlan(PlanInput{SemanticDataNeed: "x", TurnMeaning: grounded(), ProposedPrimitives: []string{"run_raw_sql"}})

	tests := []struct {
		name         string
		plan         *Plan // nil: allowedPlan
		in           EvidenceInput
		wantStatus   EvidenceStatus
		wantCoverage CoverageStatus
		wantPerm     AnswerPermission
		wantAdded    []string // reason codes after the plan's own
	}{
		{
			name:         "probe outside the plan is a bypass",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("run_raw_sql", ptr(10.0), ptr(3.0))}, ConfirmedFacts: confirmed, SourceRowsSummary: summary},
			wantStatus:   EvidenceBlocked,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonProbeBypass},
		},
		{
			name: "whitelisted primitive the plan did not allow is a bypass",
			in: EvidenceInput{ProbeResults: []ProbeResult{probe("query_movements", ptr(10.0), ptr(3.0)), probe("probe_coverage", nil, nil)},
				ConfirmedFacts: confirmed, SourceRowsSummary: summary},
			wantStatus:   EvidenceBlocked,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonProbeBypass},
		},
		{
			name:         "untrimmed primitive id is a bypass",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe(" query_movements", ptr(10.0), ptr(3.0))}, ConfirmedFacts: confirmed, SourceRowsSummary: summary},
			wantStatus:   EvidenceBlocked,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonProbeBypass},
		},
		{
			name:         "plan needing clarification blocks the answer",
			plan:         &needsClarification,
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_movements", ptr(10.0), ptr(3.0))}, ConfirmedFacts: confirmed, SourceRowsSummary: summary},
			wantStatus:   EvidenceBlocked,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonPlanNotAllowed},
		},
		{
			name:         "blocked plan with a bypassing probe reports both",
			plan:         &blocked,
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("run_raw_sql", ptr(5.0), nil)}},
			wantStatus:   EvidenceBlocked,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonProbeBypass, ReasonPlanNotAllowed, ReasonSourceRowsSummaryMissing},
		},
		{
			name:         "confirmed facts with matched rows and a summary are confirmed",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_movements", ptr(12.0), ptr(3.0))}, ConfirmedFacts: confirmed, InferredFacts: inferred, SourceRowsSummary: summary},
			wantStatus:   EvidenceConfirmed,
			wantCoverage: CoverageFull,
			wantPerm:     AnswerConfirmed,
			wantAdded:    []string{ReasonConfirmedWithAllowedEvidence},
		},
		{
			name: "rows are summed over probes, errors included",
			in: EvidenceInput{ProbeResults: []ProbeResult{
				{PrimitiveID: "query_movements", Status: ProbeError, RowsMatched: ptr(0.5)},
				probe("query_documents", nil, nil),
			}, ConfirmedFacts: confirmed, SourceRowsSummary: summary},
			wantStatus:   EvidenceConfirmed,
			wantCoverage: CoverageFull,
			wantPerm:     AnswerConfirmed,
			wantAdded:    []string{ReasonConfirmedWithAllowedEvidence},
		},
		{
			name:         "confirmed facts without matched rows fall to inferred",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_movements", ptr(12.0), ptr(0.0))}, ConfirmedFacts: confirmed, InferredFacts: inferred, SourceRowsSummary: summary},
			wantStatus:   EvidenceInferredOnly,
			wantCoverage: CoveragePartial,
			wantPerm:     AnswerBoundedInference,
			wantAdded:    []string{ReasonConfirmedFactsWithoutMatchedRow, ReasonInferredFactsRequireBounded},
		},
		{
			name:         "confirmed facts without matched rows fall to insufficient",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_movements", ptr(12.0), nil)}, ConfirmedFacts: confirmed, SourceRowsSummary: summary},
			wantStatus:   EvidenceInsufficient,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonConfirmedFactsWithoutMatchedRow, ReasonEvidenceInsufficient},
		},
		{
			name: "non-finite and negative rows do not count as matched",
			in: EvidenceInput{ProbeResults: []ProbeResult{
				probe("query_movements", ptr(-4.0), ptr(-3.0)),
				probe("query_movements", ptr(math.NaN()), ptr(math.NaN())),
				probe("query_documents", ptr(math.Inf(1)), ptr(math.Inf(1))),
			}, ConfirmedFacts: confirmed, SourceRowsSummary: summary},
			wantStatus:   EvidenceInsufficient,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonConfirmedFactsWithoutMatchedRow, ReasonEvidenceInsufficient},
		},
		{
			name:         "confirmed facts and matched rows without a summary fall to inferred",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_movements", ptr(12.0), ptr(3.0))}, ConfirmedFacts: confirmed, InferredFacts: inferred, SourceRowsSummary: "  "},
			wantStatus:   EvidenceInferredOnly,
			wantCoverage: CoveragePartial,
			wantPerm:     AnswerBoundedInference,
			wantAdded:    []string{ReasonSourceRowsSummaryMissing, ReasonInferredFactsRequireBounded},
		},
		{
			name:         "matched rows but none received and no summary: no summary reason",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_movements", nil, ptr(3.0))}, ConfirmedFacts: confirmed},
			wantStatus:   EvidenceInsufficient,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonEvidenceInsufficient},
		},
		{
			name:         "inferred facts with received rows are a bounded inference",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_documents", ptr(7.0), nil)}, InferredFacts: inferred, SourceRowsSummary: summary},
			wantStatus:   EvidenceInferredOnly,
			wantCoverage: CoveragePartial,
			wantPerm:     AnswerBoundedInference,
			wantAdded:    []string{ReasonInferredFactsRequireBounded},
		},
		{
			name:         "source rows summary missing with rows received",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_documents", ptr(7.0), nil)}, InferredFacts: inferred},
			wantStatus:   EvidenceInferredOnly,
			wantCoverage: CoveragePartial,
			wantPerm:     AnswerBoundedInference,
			wantAdded:    []string{ReasonSourceRowsSummaryMissing, ReasonInferredFactsRequireBounded},
		},
		{
			name:         "inferred facts without received rows are insufficient",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_documents", ptr(0.0), ptr(5.0))}, InferredFacts: inferred},
			wantStatus:   EvidenceInsufficient,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonEvidenceInsufficient},
		},
		{
			name:         "nothing at all is insufficient",
			in:           EvidenceInput{},
			wantStatus:   EvidenceInsufficient,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonEvidenceInsufficient},
		},
		{
			name:         "blank facts count as none",
			in:           EvidenceInput{ProbeResults: []ProbeResult{probe("query_movements", ptr(4.0), ptr(4.0))}, ConfirmedFacts: []string{" ", ""}, InferredFacts: []string{"\t"}, SourceRowsSummary: summary},
			wantStatus:   EvidenceInsufficient,
			wantCoverage: CoverageBlocked,
			wantPerm:     AnswerCheckedSourcesOnly,
			wantAdded:    []string{ReasonEvidenceInsufficient},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := allowedPlan(t)
			if tt.plan != nil {
				plan = *tt.plan
			}
			in := tt.in
			in.Plan = plan
			ev := ResolveEvidence(in)
			if ev.EvidenceStatus != tt.wantStatus || ev.CoverageStatus != tt.wantCoverage || ev.AnswerPermission != tt.wantPerm {
				t.Errorf("got %s/%s/%s, want %s/%s/%s", ev.EvidenceStatus, ev.CoverageStatus, ev.AnswerPermission,
					tt.wantStatus, tt.wantCoverage, tt.wantPerm)
			}
			wantReasons := append(slices.Clone(plan.ReasonCodes), tt.wantAdded...)
			if !slices.Equal(ev.ReasonCodes, wantReasons) {
				t.Errorf("reason_codes = %q\nwant %q", ev.ReasonCodes, wantReasons)
			}
			if want := confidenceReasonFor(tt.wantStatus); ev.ConfidenceReason != want {
				t.Errorf("confidence_reason = %q, want %q", ev.ConfidenceReason, want)
			}
			if ev.SchemaVersion != EvidenceSchemaVersion || ev.PolicyOwner != PolicyOwner {
				t.Errorf("schema_version/policy_owner = %q/%q", ev.SchemaVersion, ev.PolicyOwner)
			}
			if ev.QueryPlan.PlanStatus != plan.PlanStatus || !slices.Equal(ev.QueryPlan.ReasonCodes, plan.ReasonCodes) {
				t.Error("query_plan is not the input plan")
			}
		})
	}
}

func TestConfidenceReasonPerStatus(t *testing.T) {
	tests := []struct {
		status EvidenceStatus
		want   string
	}{
		{EvidenceConfirmed, "confirmed_facts_backed_by_allowed_mcp_probe_rows"},
		{EvidenceInferredOnly, "only_inferred_facts_available_from_allowed_mcp_probe_rows"},
		{EvidenceBlocked, "runtime_evidence_gate_blocked_discovery_answer"},
		{EvidenceInsufficient, "allowed_mcp_probes_did_not_produce_sufficient_evidence"},
		{"unknown", "allowed_mcp_probes_did_not_produce_sufficient_evidence"},
	}
	for _, tt := range tests {
		if got := confidenceReasonFor(tt.status); got != tt.want {
			t.Errorf("confidenceReasonFor(%q) = %q, want %q", tt.status, got, tt.want)
		}
	}
}

func TestResolveEvidenceLimitationsMerged(t *testing.T) {
	ev := ResolveEvidence(EvidenceInput{
		Plan:             allowedPlan(t),
		QueryLimitations: []string{" период закрыт ", "нет прав", "период закрыт", ""},
		ProbeResults: []ProbeResult{
			{PrimitiveID: "query_movements", Limitation: "нет прав"},
			{PrimitiveID: "query_movements", Limitation: " регистр недоступен "},
			{PrimitiveID: "query_documents", Limitation: "  "},
			{PrimitiveID: "query_documents", Limitation: "регистр недоступен"},
			{PrimitiveID: "query_documents", Status: ProbeSkipped, Limitation: "лимит строк"},
		},
	})
	want := []string{"период закрыт", "нет прав", "регистр недоступен", "лимит строк"}
	if !slices.Equal(ev.QueryLimitations, want) {
		t.Errorf("query_limitations = %q, want %q", ev.QueryLimitations, want)
	}
	if got := ResolveEvidence(EvidenceInput{Plan: allowedPlan(t)}).QueryLimitations; got == nil || len(got) != 0 {
		t.Errorf("query_limitations without any = %#v, want empty non-nil", got)
	}
}

func TestResolveEvidenceFactListsAndNullables(t *testing.T) {
	ev := ResolveEvidence(EvidenceInput{
		Plan:                 allowedPlan(t),
		ConfirmedFacts:       []string{" a", "a", "b "},
		InferredFacts:        []string{"c", "", "c"},
		UnknownFacts:         []string{"  d  ", "d"},
		SourceRowsSummary:    "  ",
		RecommendedNextProbe: " drilldown_related_objects ",
	})
	if !slices.Equal(ev.ConfirmedFacts, []string{"a", "b"}) || !slices.Equal(ev.InferredFacts, []string{"c"}) || !slices.Equal(ev.UnknownFacts, []string{"d"}) {
		t.Errorf("facts = %q %q %q", ev.ConfirmedFacts, ev.InferredFacts, ev.UnknownFacts)
	}
	if ev.SourceRowsSummary != nil {
		t.Errorf("source_rows_summary = %q, want nil", *ev.SourceRowsSummary)
	}
	if ev.RecommendedNextProbe == nil || *ev.RecommendedNextProbe != "drilldown_related_objects" {
		t.Errorf("recommended_next_probe = %v", ev.RecommendedNextProbe)
	}
	b, err := json.Marshal(ResolveEvidence(EvidenceInput{Plan: allowedPlan(t)}))
	if err != nil {
		t.Fatal(err)
	}
	for _, frag := range []string{`"source_rows_summary":null`, `"recommended_next_probe":null`, `"confirmed_facts":[]`, `"query_limitations":[]`} {
		if !strings.Contains(string(b), frag) {
			t.Errorf("json lacks %s: %s", frag, b)
		}
	}
}

func TestResolveEvidenceKeepsPlanReasonCodesAsGiven(t *testing.T) {
	plan := allowedPlan(t)
	// Unnormalised and duplicated plan codes are copied verbatim; only codes
	// the evidence gate adds are normalised and deduplicated.
	plan.ReasonCodes = make([]string, 0, 16)
	plan.ReasonCodes = append(plan.ReasonCodes, "Raw Code", "Raw Code", ReasonEvidenceInsufficient)
	ev := ResolveEvidence(EvidenceInput{Plan: plan})
	want := []string{"Raw Code", "Raw Code", ReasonEvidenceInsufficient}
	if !slices.Equal(ev.ReasonCodes, want) {
		t.Errorf("reason_codes = %q, want %q", ev.ReasonCodes, want)
	}
	// The plan's own slice must not see the evidence gate's additions, even
	// though it had spare capacity.
	ev = ResolveEvidence(EvidenceInput{Plan: plan, ProbeResults: []ProbeResult{probe("run_raw_sql", nil, nil)}})
	if spare := plan.ReasonCodes[:4][3]; spare != "" {
		t.Errorf("plan's spare capacity was written through: %q", spare)
	}
	if ev.QueryPlan.ReasonCodes[0] != "Raw Code" || len(ev.QueryPlan.ReasonCodes) != 3 {
		t.Errorf("query_plan.reason_codes = %q", ev.QueryPlan.ReasonCodes)
	}
}

func TestSumPositiveRows(t *testing.T) {
	probes := []ProbeResult{
		{RowsMatched: nil},
		{RowsMatched: ptr(2.0)},
		{RowsMatched: ptr(0.25)},
		{RowsMatched: ptr(0.0)},
		{RowsMatched: ptr(math.Copysign(0, -1))},
		{RowsMatched: ptr(-10.0)},
		{RowsMatched: ptr(math.NaN())},
		{RowsMatched: ptr(math.Inf(1))},
		{RowsMatched: ptr(math.Inf(-1))},
	}
	if got := sumPositiveRows(probes, func(p ProbeResult) *float64 { return p.RowsMatched }); got != 2.25 {
		t.Errorf("sum = %v, want 2.25", got)
	}
	if got := sumPositiveRows(nil, func(p ProbeResult) *float64 { return p.RowsMatched }); got != 0 {
		t.Errorf("sum of none = %v", got)
	}
}

func TestWording(t *testing.T) {
	tests := []struct {
		perm AnswerPermission
		want string
	}{
		{AnswerConfirmed, "подтверждено данными 1С"},
		{AnswerBoundedInference, "по косвенным данным"},
		{AnswerCheckedSourcesOnly, "в проверенных источниках ответа нет"},
		{"", "в проверенных источниках ответа нет"},
		{"something_else", "в проверенных источниках ответа нет"},
	}
	for _, tt := range tests {
		if got := (Evidence{AnswerPermission: tt.perm}).Wording(); got != tt.want {
			t.Errorf("Evidence{%q}.Wording() = %q, want %q", tt.perm, got, tt.want)
		}
	}
	// «1С» is written with a Cyrillic С, as the product writes it.
	if !strings.HasSuffix(WordingConfirmed, "1\u0421") {
		t.Errorf("WordingConfirmed %q does not end in Cyrillic 1С", WordingConfirmed)
	}
}

func TestWordingFollowsResolvedEvidence(t *testing.T) {
	plan := allowedPlan(t)
	confirmed := ResolveEvidence(EvidenceInput{Plan: plan, ConfirmedFacts: []string{"f"}, SourceRowsSummary: "s",
		ProbeResults: []ProbeResult{probe("query_movements", ptr(1.0), ptr(1.0))}})
	inferred := ResolveEvidence(EvidenceInput{Plan: plan, InferredFacts: []string{"f"},
		ProbeResults: []ProbeResult{probe("query_movements", ptr(1.0), nil)}})
	none := ResolveEvidence(EvidenceInput{Plan: plan})
	for ev, want := range map[*Evidence]string{&confirmed: WordingConfirmed, &inferred: WordingBoundedInference, &none: WordingCheckedSourcesOnly} {
		if got := ev.Wording(); got != want {
			t.Errorf("%s: Wording() = %q, want %q", ev.AnswerPermission, got, want)
		}
	}
}
