package general

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/render"
	"github.com/finbot/finbot/agent/skill"
)

// tool is a planner tool that returns what it is given.
func tool(p facts.Payload, err error) executor.Tool {
	return func(context.Context, plan.ToolCall) (facts.Payload, error) { return p, err }
}

func TestAnswer(t *testing.T) {
	rate := facts.Payload{Found: true, Coverage: 1, Sources: []facts.Source{{Title: "Банк России"}},
		Items: []facts.Item{{Section: facts.General, Kind: "rate", Title: "USD", Text: "Курс USD на 14.03.2026 — 81,15 ₽", Source: 1}}}
	choice := skill.Reply{Text: "Нашёл несколько контрагентов — выберите нужного:", Buttons: []skill.Button{{Text: "ООО «Север»", Data: "c:1"}}}
	down := errors.New("connection refused")
	two := &plan.QueryPlan{ToolCalls: []plan.ToolCall{{Tool: plan.ToolFetchCBRData}, {Tool: plan.ToolLedgerQuery}}, RenderStyle: "SHORT_ANSWER"}
	for _, tt := range []struct {
		name      string
		plan      *plan.QueryPlan
		cbr, ldg  executor.Tool
		want      string // in the text
		sources   int
		buttons   int
		degraded  string
		unanswerd bool
	}{
		{name: "facts rendered without an LLM", plan: two, cbr: tool(rate, nil), ldg: tool(facts.Payload{}, nil), want: "81,15", sources: 1},
		{name: "every source down", plan: two, cbr: tool(facts.Payload{}, down), ldg: tool(facts.Payload{}, down), want: Unreachable, degraded: "tools_failed"},
		{name: "nothing found", plan: two, cbr: tool(facts.Payload{}, nil), ldg: tool(facts.Payload{}, nil), want: render.NotFound},
		{name: "a call's own answer", plan: two, cbr: tool(facts.Payload{}, nil),
			ldg: tool(facts.Payload{}, &skill.Answered{Err: errors.New("ambiguous"), Reply: choice}), want: "выберите", buttons: 1},
		{name: "facts beat a call's own answer", plan: two, cbr: tool(rate, nil),
			ldg: tool(facts.Payload{}, &skill.Answered{Err: errors.New("ambiguous"), Reply: choice}), want: "81,15", sources: 1},
		{name: "no plan", unanswerd: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Options{Tools: func(skill.Query) executor.Registry {
				return executor.Registry{plan.ToolFetchCBRData: tt.cbr, plan.ToolLedgerQuery: tt.ldg}
			}})
			r, err := s.Answer(t.Context(), skill.Query{Text: "курс доллара и кто нам должен", Plan: tt.plan})
			if err != nil {
				t.Fatal(err)
			}
			if r.Unanswered != tt.unanswerd || !strings.Contains(r.Text, tt.want) || len(r.Sources) != tt.sources || len(r.Buttons) != tt.buttons {
				t.Fatalf("reply %+v", r)
			}
			if tt.degraded != "" && (len(r.Degraded) != 1 || r.Degraded[0] != tt.degraded) {
				t.Errorf("degraded %v, want %s", r.Degraded, tt.degraded)
			}
			if tt.plan != nil && (len(r.Calls) != 2 || r.Trace["records"] == nil) {
				t.Errorf("calls %+v, trace %v", r.Calls, r.Trace)
			}
		})
	}
}
