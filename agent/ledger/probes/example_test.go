package probes_test

import (
	"fmt"

	"github.com/finbot/finbot/agent/ledger/probes"
)

func Example() {
	maxRows := 200.0
	plan := probes.BuildPlan(probes.PlanInput{
		SemanticDataNeed:   "сальдо по счёту 62 на конец марта",
		TurnMeaning:        &probes.TurnMeaningRef{AskedDomainFamily: "взаиморасчёты", ExplicitDateScope: "2025-03-31"},
		ProposedPrimitives: []string{"query_movements", "run_raw_sql"},
		MaxRowsPerProbe:    &maxRows,
	})
	fmt.Println(plan.PlanStatus, plan.AllowedPrimitives, plan.RejectedPrimitives, plan.ExecutionBudget)

	rows, matched := 40.0, 3.0
	evidence := probes.ResolveEvidence(probes.EvidenceInput{
		Plan:              plan,
		ProbeResults:      []probes.ProbeResult{{PrimitiveID: "query_movements", Status: probes.ProbeOK, RowsReceived: &rows, RowsMatched: &matched}},
		ConfirmedFacts:    []string{"Дебетовое сальдо 62.01 — 54 000 ₽"},
		SourceRowsSummary: "3 из 40 строк регистра взаиморасчётов",
	})
	fmt.Println(evidence.EvidenceStatus, evidence.CoverageStatus, evidence.AnswerPermission)
	fmt.Println(evidence.Wording())
	// Output:
	// allowed [query_movements] [run_raw_sql] {3 200}
	// confirmed full confirmed_answer
	// подтверждено данными 1С
}
