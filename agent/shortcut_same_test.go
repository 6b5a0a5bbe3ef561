package agent

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/internal/fakes"
)

// A sure decision saves the planner call, not the answer: the same rates question, answered from
// the parser's decision and through a plan that asks for the same data, gives the same text.
func TestSureDecisionAnswersAsThePlannedPath(t *testing.T) {
	tests := []struct {
		shortcut, paraphrase, plan string
	}{
		{"курс доллара на 14 марта", "сколько рублей давали за американскую валюту 14 марта?",
			`{"intents":["rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"2026-03-14","codes":["USD"]}}],"fallback":{"enabled":false},"limits":{},"render_style":"SHORT","confidence":0.95}`},
		{"ключевая ставка на 1 марта", "под какой процент ЦБ давал деньги банкам 1 марта?",
			`{"intents":["key_rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"key_rate","date":"2026-03-01"}}],"fallback":{"enabled":false},"limits":{},"render_style":"SHORT","confidence":0.95}`},
	}
	for _, tt := range tests {
		t.Run(tt.shortcut, func(t *testing.T) {
			s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: tt.plan}}})
			short := ask(t, pipelineAgent(t, s), Request{UserID: 1, ChatID: 1}, tt.shortcut)
			if n := s.Count("plan"); n != 0 {
				t.Fatalf("the sure decision called the planner %d times", n)
			}
			planned := ask(t, pipelineAgent(t, s), Request{UserID: 1, ChatID: 1}, tt.paraphrase)
			if n := s.Count("plan"); n != 1 || planned.Debug.LLMCalls != 1 {
				t.Fatalf("the paraphrase: %d planner calls, %d LLM calls in all; want the planner only", n, planned.Debug.LLMCalls)
			}
			if diff := cmp.Diff(short.Text, planned.Text); diff != "" {
				t.Errorf("parsed and planned answers differ (-parsed +planned):\n%s", diff)
			}
		})
	}
}
