package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/understand"
)

// A plan for a question the parser was unsure of still cannot move a date the message named:
// «на 1.05» on 30.04.2026 is 01.05.2025, whatever the model wrote.
func TestPlanKeepsTheParsedDate(t *testing.T) {
	d := understand.NewParser().Parse(understand.Input{Text: "какая картина с расчётами на 1.05", Now: pipelineNow()})
	if d.Sure || !d.Date.Set || d.Date.Value.Format("2006-01-02") != "2025-05-01" {
		t.Fatalf("parser: sure %v, date %v: the test needs an unsure decision with the date", d.Sure, d.Date)
	}
	var p plan.QueryPlan
	if err := json.Unmarshal([]byte(strings.ReplaceAll(receivablesPlan, "2026-03-31", "2026-05-01")), &p); err != nil {
		t.Fatal(err)
	}
	got := keepParsedSlots(p, d, false)
	var args plan.AddressQueryArgs
	if err := json.Unmarshal(got.ToolCalls[0].Args, &args); err != nil {
		t.Fatal(err)
	}
	if args.Filters.AsOfDate != "2025-05-01" || got.Address.Filters.AsOfDate != "2025-05-01" {
		t.Errorf("as_of_date %q / %q, want the parser's 2025-05-01", args.Filters.AsOfDate, got.Address.Filters.AsOfDate)
	}
	if follow := keepParsedSlots(p, d, true); follow.Address.Filters.AsOfDate != "2026-05-01" {
		t.Errorf("a follow-up's plan was changed: %q", follow.Address.Filters.AsOfDate)
	}
	// End to end: the planned answer states the parser's date.
	s := newScripted(map[string][]reply{"plan": {{content: strings.ReplaceAll(receivablesPlan, "2026-03-31", "2026-05-01")}}})
	ans := ask(t, pipelineAgent(t, s), Request{UserID: 1, ChatID: 1}, "какая картина с расчётами на 1.05")
	if s.count("plan") != 1 || !strings.Contains(ans.Text, "01.05.2025") {
		t.Errorf("%d planner calls; answer:\n%s", s.count("plan"), ans.Text)
	}
}
