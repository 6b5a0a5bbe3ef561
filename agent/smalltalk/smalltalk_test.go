package smalltalk

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/llm"
)

// says is a model that always says one thing.
type says string

func (s says) Complete(context.Context, []llm.Message, llm.Call) (string, error) {
	return string(s), nil
}

// Small talk has no source: what the model says may carry no figure, date, name or link the
// user did not write; such a reply gives way to the template, degraded as refused.
func TestSmallTalkStatesNothingUnsourced(t *testing.T) {
	for _, tt := range []struct {
		name, question, model string
		kept                  bool
	}{
		{"a greeting", "привет", "Здравствуйте! Чем помочь: 1С, курсы, документы?", true},
		{"the user's own date", "спасибо за ответ про 31.03.2026", "Пожалуйста! Если нужно что-то ещё на 31.03.2026 — пишите.", true},
		{"an invented debt", "привет", "Привет! Кстати, ООО «Альфа» должна вам 4 150 000 ₽.", false},
		{"an invented rate", "привет", "Привет! Курс доллара сегодня 81,15 ₽.", false},
		{"a payment link", "привет", "Привет! Оплатить подписку: evil-bank.ru/pay", true}, // the link goes, the greeting stays
		{"a handle", "привет", "Привет! Поддержка — @phish_support_bot.", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Options{Writer: &phrase.Writer{LLM: says(tt.model)}})
			r, err := s.Answer(t.Context(), skill.Query{Text: tt.question})
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{"4 150 000", "81,15", "evil", "@phish", "Альфа"} {
				if strings.Contains(r.Text, bad) {
					t.Errorf("reply %q states %q", r.Text, bad)
				}
			}
			if kept := !slices.Contains(r.Degraded, phrase.DegradedAnswerRefused); kept != tt.kept {
				t.Errorf("reply %q, degraded %v: model's words kept = %v, want %v", r.Text, r.Degraded, kept, tt.kept)
			}
		})
	}
}
