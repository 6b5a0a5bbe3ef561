package ledger

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
)

// The planner's ledger_query of a card and of the offsets: the facts carry the figures the
// answer states (the sides, the net, the overdue; each pair and each company's sides), so an
// answer LLM has nothing to add but words.
func TestCardAndOffsetsFacts(t *testing.T) {
	s := newSkill(t, everyone)
	for _, c := range []struct {
		args  string
		wants []string
	}{
		{`{"recipe":"counterparty_card","filters":{"as_of_date":"2026-03-31","counterparty":"Универсал"}}`,
			[]string{"должен нам 2 131 029,84 ₽", "мы должны 1 330 424,57 ₽", "сальдо 763 472,12 ₽", "Наш долг по документам 1 330 424,57 ₽, просрочено 597 487,04 ₽", "оплат от них: 18"}},
		{`{"recipe":"offset_candidates","filters":{"as_of_date":"2026-03-31"}}`,
			[]string{"Зачесть можно до 1 330 424,57 ₽", "пара — 1 330 424,57 ₽", "только по соглашению обеих сторон"}},
	} {
		call := plan.ToolCall{Tool: plan.ToolLedgerQuery, Args: json.RawMessage(c.args)}
		p, err := s.Facts(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "вопрос"}, call)
		if err != nil || len(p.Items) < 2 {
			t.Fatalf("%s: facts %+v, %v", c.args, p, err)
		}
		var all []string
		for _, it := range p.Items {
			all = append(all, strings.ReplaceAll(it.Text, "\u00a0", " "))
		}
		text := strings.Join(all, "\n")
		for _, w := range c.wants {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the facts lack %q:\n%s", c.args, w, text)
			}
		}
	}
}
