package agent

import (
	"encoding/json"
	"regexp"

	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/understand"
)

func probeCall(t plan.Tool, args plan.DiscoveryArgs) plan.ToolCall {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return plan.ToolCall{Tool: t, Args: b}
}

func deepPlan(d *plan.DiscoveryProposal, calls ...plan.ToolCall) plan.QueryPlan {
	return plan.QueryPlan{Kinds: []understand.Kind{understand.KindLedgerDeep}, QuestionMode: plan.ModeDeepAnalysis, Discovery: d,
		ToolCalls: calls, RenderStyle: plan.StyleBullets, Confidence: 0.9, Limits: plan.Limits{MaxItems: 10}}
}

// alfaProposal is a well-grounded proposal about ООО «Альфа» in the first quarter of 2026.
func alfaProposal(entity string, primitives ...plan.Tool) *plan.DiscoveryProposal {
	return &plan.DiscoveryProposal{
		SemanticDataNeed: "продажи и оплаты контрагента по месяцам квартала",
		TurnMeaning: plan.TurnMeaning{AskedDomainFamily: "расчёты с покупателями", AskedActionFamily: "оценить динамику",
			AskedAggregationAxis: "month", ExplicitEntityCandidates: []string{entity}, ExplicitOrganizationScope: "ООО «Северный ветер»",
			ExplicitDateScope: "первый квартал 2026", MeaningConfidence: 0.9},
		ProposedPrimitives: primitives,
	}
}

var q1 = plan.DiscoveryArgs{DateFrom: "2026-01-01", DateTo: "2026-03-31"}

func withEntity(args plan.DiscoveryArgs, entity string) plan.DiscoveryArgs {
	args.Entity = entity
	return args
}

var amountRe = regexp.MustCompile(`−?\d{1,3}(?:\x{00a0}\d{3})*,\d{2}\x{00a0}₽`)
