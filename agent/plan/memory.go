package plan

import (
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/ru"
)

// maxChain bounds how far back a chain of follow-ups is followed.
const maxChain = 5

// Chain returns the previous user questions back to the last one that stands on its own,
// oldest first («курс евро на 15 января», «а на конец февраля?»), and the reply to the newest
// of them.
func Chain(hist []history.Turn) (chain []string, reply string) {
	for i := len(hist) - 1; i >= 0 && len(chain) < maxChain; i-- {
		if hist[i].Role != "user" {
			continue
		}
		if len(chain) == 0 && i+1 < len(hist) && hist[i+1].Role == "assistant" {
			reply = hist[i+1].Text
		}
		chain = append(chain, hist[i].Text)
		if !understand.IsFollowUp(hist[i].Text) {
			break
		}
	}
	slices.Reverse(chain)
	return chain, reply
}

// Memory is what the planner is told of the dialog: an explicit follow-up gets a short summary
// of the previous turn (and of the questions it continued); anything doubtful is planned on its
// own (empty summary).
func Memory(text string, hist []history.Turn) string {
	if !understand.IsFollowUp(text) {
		return ""
	}
	chain, r := Chain(hist)
	if len(chain) == 0 {
		return ""
	}
	var qs []string
	for _, q := range chain {
		qs = append(qs, "«"+ru.Truncate(q, 200)+"»")
	}
	s := "Предыдущий вопрос: " + strings.Join(qs, " → ")
	if r != "" {
		s += "\nНачало ответа на него: " + ru.Truncate(strings.Join(strings.Fields(r), " "), 400)
	}
	return s
}

// Only reports whether every call of p uses one of tools (and there is at least one).
func (p QueryPlan) Only(tools ...Tool) bool {
	if len(p.ToolCalls) == 0 {
		return false
	}
	for _, c := range p.ToolCalls {
		if !slices.Contains(tools, c.Tool) {
			return false
		}
	}
	return true
}

// Deep reports whether p asks for guarded discovery: a ledger_deep plan that is not only
// recipes.
func (p QueryPlan) Deep() bool {
	return slices.Contains(p.Kinds, understand.KindLedgerDeep) && !p.Only(ToolLedgerQuery)
}

// Query is the plan's first search query: what a follow-up means as a whole question.
func (p QueryPlan) Query() string {
	for _, c := range p.ToolCalls {
		if q := c.Query(); q != "" {
			return q
		}
	}
	return ""
}

// Searches are the queries of the plan's calls of tools, other than question: a skill then
// searches them instead of asking the LLM for expansions.
func (p QueryPlan) Searches(tools []Tool, question string) []string {
	qs := []string{}
	for _, c := range p.ToolCalls {
		if q := c.Query(); slices.Contains(tools, c.Tool) && q != "" && q != question && !slices.Contains(qs, q) {
			qs = append(qs, q)
		}
	}
	return qs
}

// KindsText lists the plan's kinds, for the route's reasons.
func (p QueryPlan) KindsText() string {
	names := make([]string, len(p.Kinds))
	for i, k := range p.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
