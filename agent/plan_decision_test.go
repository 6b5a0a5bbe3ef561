package agent

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/internal/fakes"
)

// A plan for a question the parser was unsure of is answered as a typed decision: it still
// cannot move a date the message named («на 1.05» on 30.04.2026 is 01.05.2025, whatever the
// model wrote), and the answer states the parser's date. The rules themselves are tested in
// agent/understand (TestFromPlanOnlyAdds).
func TestPlannedAnswerKeepsTheParsedDate(t *testing.T) {
	s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: strings.ReplaceAll(receivablesPlan, "2026-03-31", "2026-05-01")}}})
	ans := ask(t, pipelineAgent(t, s), Request{UserID: 1, ChatID: 1}, "какая картина с расчётами на 1.05")
	if s.Count("plan") != 1 || !strings.Contains(ans.Text, "01.05.2025") || strings.Contains(ans.Text, "01.05.2026") {
		t.Errorf("%d planner calls; answer:\n%s", s.Count("plan"), ans.Text)
	}
	if ans.Debug.Plan == nil || ans.Debug.Plan.Handler != "ledger" {
		t.Errorf("debug plan %+v, want the ledger handler", ans.Debug.Plan)
	}
}

// A plan that names a company the message does not name is not answered for that company.
func TestPlannedAnswerRefusesAnInventedCompany(t *testing.T) {
	plan := `{"intents":["ledger"],"tool_calls":[{"tool":"ledger_query","args":{"recipe":"open_items_by_counterparty","filters":{"as_of_date":"2026-03-31","counterparty":"ООО «Гранит»"}}}],"fallback":{"enabled":false},"limits":{},"render_style":"TABLE","confidence":0.9}`
	s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: plan}}})
	ans := ask(t, pipelineAgent(t, s), Request{UserID: 1, ChatID: 1}, "какая картина с расчётами на 31 марта")
	if strings.Contains(ans.Text, "Гранит") {
		t.Errorf("answered for a company the message does not name:\n%s", ans.Text)
	}
}
