package probes

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func grounded() *TurnMeaningRef {
	return &TurnMeaningRef{AskedDomainFamily: "взаиморасчёты"}
}

func TestBuildPlanStatusMatrix(t *testing.T) {
	const need = "остаток по счёту 60 на конец марта"
	tests := []struct {
		name         string
		in           PlanInput
		wantStatus   PlanStatus
		wantAllowed  []Primitive
		wantRejected []string
		wantReasons  []string
	}{
		{
			name:         "unknown primitive only is blocked",
			in:           PlanInput{SemanticDataNeed: need, TurnMeaning: grounded(), ProposedPrimitives: []string{"run_raw_sql"}},
			wantStatus:   PlanBlocked,
			wantAllowed:  []Primitive{},
			wantRejected: []string{"run_raw_sql"},
			wantReasons:  []string{ReasonUnregisteredPrimitive, ReasonNoAllowedPrimitivesAfterFilter, ReasonPlanBlocked},
		},
		{
			name:         "known and unknown mixed is allowed when grounded",
			in:           PlanInput{SemanticDataNeed: need, TurnMeaning: grounded(), ProposedPrimitives: []string{"query_movements", "run_raw_sql", "query_movements", " query_documents "}},
			wantStatus:   PlanAllowed,
			wantAllowed:  []Primitive{PrimitiveQueryMovements, PrimitiveQueryDocuments},
			wantRejected: []string{"run_raw_sql"},
			wantReasons:  []string{ReasonUnregisteredPrimitive, ReasonPlanAllowed},
		},
		{
			name:         "whitelist is case-sensitive",
			in:           PlanInput{SemanticDataNeed: need, TurnMeaning: grounded(), ProposedPrimitives: []string{"Query_Movements"}},
			wantStatus:   PlanBlocked,
			wantAllowed:  []Primitive{},
			wantRejected: []string{"Query_Movements"},
			wantReasons:  []string{ReasonUnregisteredPrimitive, ReasonNoAllowedPrimitivesAfterFilter, ReasonPlanBlocked},
		},
		{
			name:         "all known and grounded is allowed",
			in:           PlanInput{SemanticDataNeed: need, TurnMeaning: grounded(), ProposedPrimitives: []string{"inspect_1c_metadata", "probe_coverage"}},
			wantStatus:   PlanAllowed,
			wantAllowed:  []Primitive{PrimitiveInspect1CMetadata, PrimitiveProbeCoverage},
			wantRejected: []string{},
			wantReasons:  []string{ReasonPlanAllowed},
		},
		{
			name:         "no semantic need needs clarification",
			in:           PlanInput{SemanticDataNeed: " \t ", TurnMeaning: grounded(), ProposedPrimitives: []string{"query_movements"}},
			wantStatus:   PlanNeedsClarification,
			wantAllowed:  []Primitive{PrimitiveQueryMovements},
			wantRejected: []string{},
			wantReasons:  []string{ReasonSemanticDataNeedMissing, ReasonPlanNeedsClarification},
		},
		{
			name:         "no turn meaning needs clarification",
			in:           PlanInput{SemanticDataNeed: need, ProposedPrimitives: []string{"query_movements"}},
			wantStatus:   PlanNeedsClarification,
			wantAllowed:  []Primitive{PrimitiveQueryMovements},
			wantRejected: []string{},
			wantReasons:  []string{ReasonTurnMeaningRefMissing, ReasonGroundingAxisMissing, ReasonPlanNeedsClarification},
		},
		{
			name: "turn meaning with nothing that survives counts as none",
			in: PlanInput{SemanticDataNeed: need, ProposedPrimitives: []string{"query_movements"}, TurnMeaning: &TurnMeaningRef{
				AskedDomainFamily: "  ", ExplicitEntityCandidates: []string{" ", ""}, MetadataScopeHint: "catalogs", SubjectResolutionOptional: ptr(true), MeaningConfidence: ptr(math.NaN()),
			}},
			wantStatus:   PlanNeedsClarification,
			wantAllowed:  []Primitive{PrimitiveQueryMovements},
			wantRejected: []string{},
			wantReasons:  []string{ReasonTurnMeaningRefMissing, ReasonGroundingAxisMissing, ReasonPlanNeedsClarification},
		},
		{
			name:         "no turn meaning but required axes still needs the meaning",
			in:           PlanInput{SemanticDataNeed: need, RequiredAxes: []string{"контрагент"}, ProposedPrimitives: []string{"aggregate_by_axis"}},
			wantStatus:   PlanNeedsClarification,
			wantAllowed:  []Primitive{PrimitiveAggregateByAxis},
			wantRejected: []string{},
			wantReasons:  []string{ReasonTurnMeaningRefMissing, ReasonPlanNeedsClarification},
		},
		{
			name: "no grounding axis in the meaning but required axes given is allowed",
			in: PlanInput{SemanticDataNeed: need, RequiredAxes: []string{"контрагент"}, ProposedPrimitives: []string{"aggregate_by_axis"},
				TurnMeaning: &TurnMeaningRef{AskedAggregationAxis: "counterparty"}},
			wantStatus:   PlanAllowed,
			wantAllowed:  []Primitive{PrimitiveAggregateByAxis},
			wantRejected: []string{},
			wantReasons:  []string{ReasonPlanAllowed},
		},
		{
			name: "no grounding axis and no required axes needs clarification",
			in: PlanInput{SemanticDataNeed: need, RequiredAxes: []string{" "}, ProposedPrimitives: []string{"aggregate_by_axis"},
				TurnMeaning: &TurnMeaningRef{AskedAggregationAxis: "counterparty", SeededRankingNeed: "top 5", MetadataAmbiguityEntitySets: []string{"Контрагенты"}, MeaningConfidence: ptr(0.9)}},
			wantStatus:   PlanNeedsClarification,
			wantAllowed:  []Primitive{PrimitiveAggregateByAxis},
			wantRejected: []string{},
			wantReasons:  []string{ReasonGroundingAxisMissing, ReasonPlanNeedsClarification},
		},
		{
			name:         "nothing proposed needs clarification",
			in:           PlanInput{SemanticDataNeed: need, TurnMeaning: grounded()},
			wantStatus:   PlanNeedsClarification,
			wantAllowed:  []Primitive{},
			wantRejected: []string{},
			wantReasons:  []string{ReasonPrimitivesNotProposed, ReasonPlanNeedsClarification},
		},
		{
			name:         "only blank primitives counts as nothing proposed",
			in:           PlanInput{SemanticDataNeed: need, TurnMeaning: grounded(), ProposedPrimitives: []string{"", "   "}},
			wantStatus:   PlanNeedsClarification,
			wantAllowed:  []Primitive{},
			wantRejected: []string{},
			wantReasons:  []string{ReasonPrimitivesNotProposed, ReasonPlanNeedsClarification},
		},
		{
			name:         "blocked wins over missing grounding",
			in:           PlanInput{ProposedPrimitives: []string{"bogus", "bogus ", "other"}},
			wantStatus:   PlanBlocked,
			wantAllowed:  []Primitive{},
			wantRejected: []string{"bogus", "other"},
			wantReasons: []string{ReasonUnregisteredPrimitive, ReasonSemanticDataNeedMissing, ReasonTurnMeaningRefMissing,
				ReasonGroundingAxisMissing, ReasonNoAllowedPrimitivesAfterFilter, ReasonPlanBlocked},
		},
		{
			name:         "empty input",
			in:           PlanInput{},
			wantStatus:   PlanNeedsClarification,
			wantAllowed:  []Primitive{},
			wantRejected: []string{},
			wantReasons: []string{ReasonSemanticDataNeedMissing, ReasonTurnMeaningRefMissing, ReasonGroundingAxisMissing,
				ReasonPrimitivesNotProposed, ReasonPlanNeedsClarification},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := BuildPlan(tt.in)
			if plan.PlanStatus != tt.wantStatus {
				t.Errorf("plan_status = %q, want %q", plan.PlanStatus, tt.wantStatus)
			}
			if !slices.Equal(plan.AllowedPrimitives, tt.wantAllowed) {
				t.Errorf("allowed_primitives = %q, want %q", plan.AllowedPrimitives, tt.wantAllowed)
			}
			if !slices.Equal(plan.RejectedPrimitives, tt.wantRejected) {
				t.Errorf("rejected_primitives = %q, want %q", plan.RejectedPrimitives, tt.wantRejected)
			}
			if !slices.Equal(plan.ReasonCodes, tt.wantReasons) {
				t.Errorf("reason_codes = %q, want %q", plan.ReasonCodes, tt.wantReasons)
			}
			checkPlanInvariants(t, plan)
		})
	}
}

func checkPlanInvariants(t *testing.T, plan Plan) {
	t.Helper()
	if plan.SchemaVersion != PlanSchemaVersion || plan.PolicyOwner != PolicyOwner {
		t.Errorf("schema_version/policy_owner = %q/%q", plan.SchemaVersion, plan.PolicyOwner)
	}
	if !plan.RequiresEvidenceGate || plan.AnswerMayUseRawModelClaims {
		t.Errorf("requires_evidence_gate=%v answer_may_use_raw_model_claims=%v", plan.RequiresEvidenceGate, plan.AnswerMayUseRawModelClaims)
	}
	if plan.AllowedPrimitives == nil || plan.RejectedPrimitives == nil || plan.RequiredAxes == nil ||
		plan.ClarificationGaps == nil || plan.ReasonCodes == nil {
		t.Error("a list field is nil")
	}
	for _, p := range plan.AllowedPrimitives {
		if !IsPrimitive(string(p)) {
			t.Errorf("allowed primitive %q is not whitelisted", p)
		}
	}
}

func TestBuildPlanGroundingAxes(t *testing.T) {
	tests := []struct {
		name    string
		meaning TurnMeaningRef
		axes    []string
		want    bool
	}{
		{"domain family", TurnMeaningRef{AskedDomainFamily: "ндс"}, nil, true},
		{"action family", TurnMeaningRef{AskedActionFamily: "сверка"}, nil, true},
		{"organization scope", TurnMeaningRef{ExplicitOrganizationScope: "ООО Ромашка"}, nil, true},
		{"date scope", TurnMeaningRef{ExplicitDateScope: "2025-Q1"}, nil, true},
		{"entity candidate", TurnMeaningRef{ExplicitEntityCandidates: []string{"ИП Иванов"}}, nil, true},
		{"required axes alone", TurnMeaningRef{MeaningConfidence: ptr(0.5)}, []string{"период"}, true},
		{"aggregation axis alone", TurnMeaningRef{AskedAggregationAxis: "контрагент"}, nil, false},
		{"seeded ranking need alone", TurnMeaningRef{SeededRankingNeed: "топ-10"}, nil, false},
		{"metadata ambiguity alone", TurnMeaningRef{MetadataAmbiguityEntitySets: []string{"Номенклатура"}}, nil, false},
		{"unsupported family alone", TurnMeaningRef{UnsupportedButUnderstoodFamily: "зарплата"}, nil, false},
		{"stale replay flag alone", TurnMeaningRef{StaleReplayForbidden: ptr(true)}, nil, false},
		{"blank domain does not ground", TurnMeaningRef{AskedDomainFamily: " ", MeaningConfidence: ptr(1.0)}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.meaning
			plan := BuildPlan(PlanInput{SemanticDataNeed: "нужно", TurnMeaning: &m, RequiredAxes: tt.axes, ProposedPrimitives: []string{"query_documents"}})
			if got := plan.PlanStatus == PlanAllowed; got != tt.want {
				t.Errorf("allowed = %v, want %v (reasons %q)", got, tt.want, plan.ReasonCodes)
			}
			if got := !slices.Contains(plan.ReasonCodes, ReasonGroundingAxisMissing); got != tt.want {
				t.Errorf("grounded = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestExecutionBudget(t *testing.T) {
	tests := []struct {
		name                 string
		probes, rows         *float64
		wantProbes, wantRows int
	}{
		{"nil gives defaults", nil, nil, 3, 100},
		{"zero clamps to one", ptr(0.0), ptr(0.0), 1, 1},
		{"negative clamps to one", ptr(-5.0), ptr(-5.0), 1, 1},
		{"large clamps to max", ptr(1000.0), ptr(1000.0), 36, 500},
		{"fraction truncated", ptr(2.7), ptr(250.9), 2, 250},
		{"fraction below one truncates to zero then clamps", ptr(0.9), ptr(0.99), 1, 1},
		{"negative fraction truncates toward zero", ptr(-0.5), ptr(-0.5), 1, 1},
		{"just over the max truncates to the max", ptr(36.9), ptr(500.5), 36, 500},
		{"exact limits kept", ptr(36.0), ptr(500.0), 36, 500},
		{"NaN gives defaults", ptr(math.NaN()), ptr(math.NaN()), 3, 100},
		{"+Inf gives defaults, not the max", ptr(math.Inf(1)), ptr(math.Inf(1)), 3, 100},
		{"-Inf gives defaults", ptr(math.Inf(-1)), ptr(math.Inf(-1)), 3, 100},
		{"huge finite clamps to max", ptr(1e308), ptr(1e308), 36, 500},
		{"independent fields", ptr(7.0), nil, 7, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BuildPlan(PlanInput{MaxProbeCount: tt.probes, MaxRowsPerProbe: tt.rows}).ExecutionBudget
			want := ExecutionBudget{MaxProbeCount: tt.wantProbes, MaxRowsPerProbe: tt.wantRows}
			if got != want {
				t.Errorf("budget = %+v, want %+v", got, want)
			}
		})
	}
}

func TestNormalizeTurnMeaning(t *testing.T) {
	tests := []struct {
		name string
		in   *TurnMeaningRef
		want string // JSON of the normalised ref; "null" for nil
	}{
		{"nil", nil, `null`},
		{"empty", &TurnMeaningRef{}, `null`},
		{"only dropped keys", &TurnMeaningRef{MetadataScopeHint: "регистры", SubjectResolutionOptional: ptr(false)}, `null`},
		{"blank strings and lists", &TurnMeaningRef{AskedActionFamily: " ", ExplicitEntityCandidates: []string{"", " "}}, `null`},
		{"strings trimmed", &TurnMeaningRef{AskedDomainFamily: " ндс ", ExplicitDateScope: "\t2025\n"},
			`{"asked_domain_family":"ндс","explicit_date_scope":"2025"}`},
		{"lists trimmed and deduped", &TurnMeaningRef{ExplicitEntityCandidates: []string{" ИП Иванов", "ИП Иванов", "ООО Ромашка"}, MetadataAmbiguityEntitySets: []string{"a", "a "}},
			`{"explicit_entity_candidates":["ИП Иванов","ООО Ромашка"],"metadata_ambiguity_entity_sets":["a"]}`},
		{"confidence zero kept", &TurnMeaningRef{MeaningConfidence: ptr(0.0)}, `{"meaning_confidence":0}`},
		{"confidence negative zero becomes zero", &TurnMeaningRef{MeaningConfidence: ptr(math.Copysign(0, -1))}, `{"meaning_confidence":0}`},
		{"confidence below zero clamped", &TurnMeaningRef{MeaningConfidence: ptr(-0.3)}, `{"meaning_confidence":0}`},
		{"confidence above one clamped", &TurnMeaningRef{MeaningConfidence: ptr(1.7)}, `{"meaning_confidence":1}`},
		{"confidence in range kept", &TurnMeaningRef{MeaningConfidence: ptr(0.42)}, `{"meaning_confidence":0.42}`},
		{"tiny confidence printed as JavaScript does", &TurnMeaningRef{MeaningConfidence: ptr(1e-7)}, `{"meaning_confidence":1e-7}`},
		{"confidence NaN dropped", &TurnMeaningRef{MeaningConfidence: ptr(math.NaN()), AskedDomainFamily: "x"}, `{"asked_domain_family":"x"}`},
		{"confidence Inf dropped", &TurnMeaningRef{MeaningConfidence: ptr(math.Inf(1))}, `null`},
		{"stale replay false kept", &TurnMeaningRef{StaleReplayForbidden: ptr(false)}, `{"stale_replay_forbidden":false}`},
		{"full, in contract key order", &TurnMeaningRef{
			StaleReplayForbidden:           ptr(true),
			UnsupportedButUnderstoodFamily: "кадры",
			MeaningConfidence:              ptr(0.8),
			SubjectResolutionOptional:      ptr(true),
			ExplicitDateScope:              "март 2025",
			ExplicitOrganizationScope:      "ООО Ромашка",
			MetadataScopeHint:              "регистры накопления",
			MetadataAmbiguityEntitySets:    []string{"Контрагенты|Организации"},
			ExplicitEntityCandidates:       []string{"Ромашка"},
			SeededRankingNeed:              "топ-5",
			AskedAggregationAxis:           "контрагент",
			AskedActionFamily:              "остатки",
			AskedDomainFamily:              "взаиморасчёты",
		}, `{"asked_domain_family":"взаиморасчёты","asked_action_family":"остатки","asked_aggregation_axis":"контрагент","seeded_ranking_need":"топ-5","explicit_entity_candidates":["Ромашка"],"metadata_ambiguity_entity_sets":["Контрагенты|Организации"],"explicit_organization_scope":"ООО Ромашка","explicit_date_scope":"март 2025","meaning_confidence":0.8,"unsupported_but_understood_family":"кадры","stale_replay_forbidden":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := normalizeTurnMeaning(tt.in)
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("normalizeTurnMeaning = %s\nwant %s", b, tt.want)
			}
		})
	}
}

func TestNormalizeTurnMeaningDoesNotAliasInput(t *testing.T) {
	in := &TurnMeaningRef{
		AskedDomainFamily:        "ндс",
		ExplicitEntityCandidates: []string{"a", "b"},
		MeaningConfidence:        ptr(0.5),
		StaleReplayForbidden:     ptr(true),
	}
	plan := BuildPlan(PlanInput{TurnMeaning: in})
	in.ExplicitEntityCandidates[0] = "changed"
	*in.MeaningConfidence = 0.1
	*in.StaleReplayForbidden = false
	ref := plan.TurnMeaningRef
	if ref == nil || ref.ExplicitEntityCandidates[0] != "a" || *ref.MeaningConfidence != 0.5 || !*ref.StaleReplayForbidden {
		t.Errorf("plan changed with its input: %+v", ref)
	}
}

func TestPrimitives(t *testing.T) {
	want := []Primitive{"search_business_entity", "inspect_1c_metadata", "resolve_entity_reference", "query_movements",
		"query_documents", "aggregate_by_axis", "drilldown_related_objects", "probe_coverage", "explain_evidence_basis"}
	got := Primitives()
	if !slices.Equal(got, want) {
		t.Fatalf("Primitives() = %q, want %q", got, want)
	}
	got[0] = "mutated"
	if Primitives()[0] != PrimitiveSearchBusinessEntity {
		t.Error("Primitives() exposes the whitelist")
	}
	for _, p := range want {
		if !IsPrimitive(string(p)) {
			t.Errorf("IsPrimitive(%q) = false", p)
		}
	}
	for _, s := range []string{"", " query_movements", "QUERY_MOVEMENTS", "run_raw_sql", "query_movements\n"} {
		if IsPrimitive(s) {
			t.Errorf("IsPrimitive(%q) = true", s)
		}
	}
}

func TestBuildPlanNullFields(t *testing.T) {
	plan := BuildPlan(PlanInput{SemanticDataNeed: "  ", ProposedPrimitives: []string{"query_movements"}})
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"schema_version":"assistant_mcp_discovery_plan_v1","policy_owner":"assistantMcpDiscoveryPolicy","plan_status":"needs_clarification","semantic_data_need":null,"turn_meaning_ref":null,"allowed_primitives":["query_movements"],"rejected_primitives":[],"required_axes":[],"clarification_gaps":[],"execution_budget":{"max_probe_count":3,"max_rows_per_probe":100},"requires_evidence_gate":true,"answer_may_use_raw_model_claims":false,"reason_codes":["semantic_data_need_missing","turn_meaning_ref_missing","grounding_axis_missing","guarded_mcp_discovery_plan_needs_clarification"]}`
	if string(b) != want {
		t.Errorf("json = %s\nwant   %s", b, want)
	}
}

func TestHandBuiltContractsSerialiseListsAsArrays(t *testing.T) {
	// The contracts' lists are always arrays; a zero Go value must not turn
	// them into null.
	b, err := json.Marshal(Evidence{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"schema_version":"","policy_owner":"","evidence_status":"","coverage_status":"","answer_permission":"","confirmed_facts":[],"inferred_facts":[],"unknown_facts":[],"source_rows_summary":null,"query_plan":{"schema_version":"","policy_owner":"","plan_status":"","semantic_data_need":null,"turn_meaning_ref":null,"allowed_primitives":[],"rejected_primitives":[],"required_axes":[],"clarification_gaps":[],"execution_budget":{"max_probe_count":0,"max_rows_per_probe":0},"requires_evidence_gate":false,"answer_may_use_raw_model_claims":false,"reason_codes":[]},"query_limitations":[],"confidence_reason":"","recommended_next_probe":null,"reason_codes":[]}`
	if string(b) != want {
		t.Errorf("json = %s\nwant   %s", b, want)
	}
}
