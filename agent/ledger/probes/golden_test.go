package probes

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/finbot/finbot/internal/golden"
)

// goldenPlanInput exercises every plan field: all turn-meaning keys (two of
// which normalisation drops), a rejected primitive, duplicates, blanks and a
// fractional budget.
func goldenPlanInput() PlanInput {
	return PlanInput{
		SemanticDataNeed: "  остатки по счёту 60 в разрезе контрагентов на 31.03.2025  ",
		TurnMeaning: &TurnMeaningRef{
			AskedDomainFamily:              "взаиморасчёты с поставщиками",
			AskedActionFamily:              "остатки",
			AskedAggregationAxis:           "контрагент",
			SeededRankingNeed:              "топ-5 по сумме долга",
			ExplicitEntityCandidates:       []string{"ООО «Ромашка»", " ООО «Ромашка» ", "ИП Иванов"},
			MetadataAmbiguityEntitySets:    []string{"Контрагенты|Организации"},
			MetadataScopeHint:              "РегистрНакопления.ВзаиморасчетыСКонтрагентами",
			ExplicitOrganizationScope:      "ООО «Финбот»",
			ExplicitDateScope:              "2025-03-31",
			SubjectResolutionOptional:      ptr(true),
			MeaningConfidence:              ptr(0.82),
			UnsupportedButUnderstoodFamily: "",
			StaleReplayForbidden:           ptr(false),
		},
		ProposedPrimitives: []string{"search_business_entity", "query_movements", " aggregate_by_axis", "query_movements", "run_raw_sql", ""},
		RequiredAxes:       []string{"контрагент", "счёт", "контрагент"},
		ClarificationGaps:  []string{"не указан договор"},
		MaxProbeCount:      ptr(5.0),
		MaxRowsPerProbe:    ptr(250.7),
	}
}

func goldenEvidenceInput(plan Plan) EvidenceInput {
	return EvidenceInput{
		Plan: plan,
		ProbeResults: []ProbeResult{
			{PrimitiveID: "search_business_entity", Status: ProbeOK, RowsReceived: ptr(2.0), RowsMatched: ptr(1.0)},
			{PrimitiveID: "query_movements", Status: ProbeOK, RowsReceived: ptr(120.0), RowsMatched: ptr(45.0), Limitation: "выборка ограничена 250 строками"},
			{PrimitiveID: "aggregate_by_axis", Status: ProbeError, Limitation: " агрегат по договорам недоступен "},
		},
		ConfirmedFacts:       []string{"Кредитовое сальдо 60.01 по ООО «Ромашка» — 120 000,00 ₽", "Кредитовое сальдо 60.01 по ИП Иванов — 8 400,00 ₽"},
		InferredFacts:        []string{"Долг перед ООО «Ромашка» возник в феврале"},
		UnknownFacts:         []string{"разбивка по договорам"},
		SourceRowsSummary:    "45 из 120 строк регистра взаиморасчётов за март 2025",
		QueryLimitations:     []string{"выборка ограничена 250 строками", "март 2025 не закрыт"},
		RecommendedNextProbe: "drilldown_related_objects",
	}
}

// marshalLikeJSONStringify renders v as JSON.stringify(v, null, 2) + "\n"
// would for these contracts (no HTML escaping, two-space indent).
func marshalLikeJSONStringify(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGoldenContracts(t *testing.T) {
	plan := BuildPlan(goldenPlanInput())
	evidence := ResolveEvidence(goldenEvidenceInput(plan))
	if plan.PlanStatus != PlanAllowed || evidence.EvidenceStatus != EvidenceConfirmed {
		t.Fatalf("fixture drifted: plan %s, evidence %s", plan.PlanStatus, evidence.EvidenceStatus)
	}
	tests := []struct {
		name  string
		value any
		into  any
	}{
		{"plan", plan, &Plan{}},
		{"evidence", evidence, &Evidence{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := marshalLikeJSONStringify(t, tt.value)
			want := []byte(golden.Check(t, filepath.Join("testdata", tt.name+".golden"), string(got)))
			// The contract survives a JSON round trip unchanged, so a plan
			// received as JSON can be handed back to ResolveEvidence.
			if err := json.Unmarshal(want, tt.into); err != nil {
				t.Fatal(err)
			}
			if again := marshalLikeJSONStringify(t, tt.into); !bytes.Equal(again, want) {
				t.Errorf("round trip changed the JSON:\n%s", again)
			}
		})
	}
}
