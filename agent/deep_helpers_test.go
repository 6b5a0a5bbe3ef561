package agent

import (
	"context"
	"encoding/json"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// countingSource counts the queries sent to 1C.
type countingSource struct {
	runner.Source
	mu sync.Mutex
	n  int
}

func (c *countingSource) Query(ctx context.Context, id string, p onec.Params, limit int) (*onec.Result, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.Source.Query(ctx, id, p, limit)
}

func (c *countingSource) calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// catalogQueries are the queries the lane sends once to load its catalogs: the five catalogs and
// the day of the register's first posting.
const catalogQueries = 6

var deepNow = func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }

func deepAgent(t *testing.T, access bool) (*Agent, *runner.Lane, *countingSource) {
	t.Helper()
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	src := &countingSource{Source: d}
	ln := runner.NewLane(src, runner.Options{Now: deepNow, Organization: d.MainOrganization()})
	a := New(Deps{History: history.NewMemory(100, history.Limits{}), Ledger: ln},
		Options{Now: deepNow, LedgerAccess: func(int64, int64) bool { return access }})
	return a, ln, src
}

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
