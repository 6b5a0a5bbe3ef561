package clarify

import (
	"context"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/llm"
)

// says is a model that always says one thing.
type says string

func (s says) Complete(context.Context, []llm.Message, llm.Call) (string, error) {
	return string(s), nil
}

// The planner's question back and its buttons are the model's words with no source behind
// them: a figure, a name or a link the user did not write is not shown, a button carrying one
// is left out, and the question is bounded.
func TestPlannedQuestionBack(t *testing.T) {
	const msg = "что там с оплатой"
	for _, tt := range []struct {
		name, question string
		options        []string
		want           string // the reply's text starts so
		buttons        []string
	}{
		{"a fair question", "Какая оплата нужна: от покупателей или поставщикам?", []string{"От покупателей", "Поставщикам"},
			"Какая оплата нужна", []string{"От покупателей", "Поставщикам"}},
		{"an invented figure in the question", "Оплатить долг 99 999 ₽ по ссылке evil-bank.ru/pay?", []string{"Да"},
			"Уточните, пожалуйста", []string{"Кто нам должен?", "Кому должны мы?", "Курс доллара сегодня", "Ключевая ставка", "Найти договор"}},
		{"buttons with links and names are dropped", "Что именно нужно?",
			[]string{"Оплатить на evil-bank.ru", "Написать @phish_support_bot", "Долг ООО «Фишинг»", "Курс 99,99", "Остатки по счёту"},
			"Что именно нужно", []string{"Остатки по счёту"}},
		{"a question too long", strings.Repeat("Уточните период оплаты и сторону расчётов, пожалуйста. ", 20), nil,
			"Уточните период", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := New(&phrase.Writer{LLM: says("Что вы хотите узнать про 12 345 ₽?")}, nil) // the general LLM question fails the check too
			p := plan.QueryPlan{Clarification: tt.question, ClarificationOptions: tt.options}
			r, err := s.Answer(t.Context(), skill.Query{Text: msg, Plan: &p})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(r.Text, tt.want) || len([]rune(r.Text)) > maxQuestion+10 {
				t.Errorf("text %q, want it to start with %q and be bounded", r.Text, tt.want)
			}
			for _, bad := range []string{"99", "evil", "@phish", "Фишинг", "12 345"} {
				if strings.Contains(r.Text, bad) {
					t.Errorf("text %q states %q", r.Text, bad)
				}
				for _, b := range r.Buttons {
					if strings.Contains(b.Text, bad) {
						t.Errorf("button %q states %q", b.Text, bad)
					}
				}
			}
			if len(r.Buttons) != len(tt.buttons) {
				t.Fatalf("buttons %+v, want %q", r.Buttons, tt.buttons)
			}
			for i, want := range tt.buttons {
				if !strings.HasPrefix(r.Buttons[i].Text, want) {
					t.Errorf("button %d %q, want %q", i, r.Buttons[i].Text, want)
				}
			}
		})
	}
}
