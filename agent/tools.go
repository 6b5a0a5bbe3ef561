package agent

import (
	"context"
	"fmt"

	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
)

// The tools of the planned path (issue #6). Each runs one plan.ToolCall against one source and
// returns its findings as facts: every figure already written as people read it («1 250 000,00 ₽»,
// «92,5000 ₽», «16,50%», «15.01.2026»), in Item.Text or a Field value, because the post-check
// accepts an answer's number only when the facts' text contains it.

// tools returns the executor's registry for one question of req: only the tools this
// installation has (a nil dependency = the tool is absent from the map).
func (a *Agent) tools(req Request, s docScope, question string) executor.Registry {
	reg := executor.Registry{}
	if a.library != nil {
		reg[plan.ToolSearchUserDocuments] = typedTool(func(ctx context.Context, args plan.SearchUserDocumentsArgs) (facts.Payload, error) {
			return documents.Search(ctx, a.library, s.lookup(), args)
		})
		reg[plan.ToolLoadDocumentsFull] = typedTool(func(ctx context.Context, args plan.LoadDocumentsFullArgs) (facts.Payload, error) {
			return documents.LoadFull(ctx, a.library, s.lookup(), question, args)
		})
	}
	if a.kb != nil {
		reg[plan.ToolSearchGeneralKB] = typedTool(func(ctx context.Context, args plan.SearchGeneralKBArgs) (facts.Payload, error) {
			return kb.Search(ctx, a.kb, args, a.queryGate)
		})
	}
	if a.rates != nil {
		reg[plan.ToolFetchCBRData] = typedTool(a.rates.Fetch)
	}
	if a.news != nil && a.news.Configured() {
		reg[plan.ToolFetchFinanceNews] = typedTool(func(ctx context.Context, args plan.FetchFinanceNewsArgs) (facts.Payload, error) {
			return a.news.Fetch(ctx, req.UserID, question, args)
		})
	}
	if a.lane != nil {
		reg[plan.ToolLedgerQuery] = typedTool(func(ctx context.Context, args understand.LedgerArgs) (facts.Payload, error) {
			return a.ledgerQuery(ctx, req, question, args)
		})
	}
	return reg
}

// typedTool adapts a typed tool to the executor: it decodes the call's arguments strictly (as the
// planner's validation does: unknown fields refused, missing arguments an empty object).
func typedTool[A any](run func(ctx context.Context, args A) (facts.Payload, error)) executor.Tool {
	return func(ctx context.Context, call plan.ToolCall) (facts.Payload, error) {
		var args A
		if err := call.Decode(&args); err != nil {
			return facts.Payload{}, fmt.Errorf("%w: %s: %v", skill.ErrArgs, call.Tool, err)
		}
		return run(ctx, args)
	}
}
