package agent

import (
	"testing"
	"time"

	"github.com/finbot/finbot/agent/understand"
)

// How messages are routed once understood: the scenario and intent of the debug payload and the
// metrics. The understanding itself is measured on the user-side corpus in agent/understand.
func TestDecisionRoute(t *testing.T) {
	p := understand.NewParser()
	now := time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		text     string
		scenario Scenario
		intent   string
		sure     bool
	}{
		{"Кто нам должен на 31 марта?", OneC, "list_receivables_counterparties", true},
		{"Дебиторка на конец февраля", OneC, "list_receivables_counterparties", true},
		{"Кому мы должны?", OneC, "list_payables_counterparties", true},
		{"наша задолженность перед поставщиками", OneC, "list_payables_counterparties", true},
		{"Сальдо по счету 60.01 на 01.03.2026", OneC, "account_balance_snapshot", true},
		{"остаток на сч. 51", OneC, "account_balance_snapshot", true},
		{"незакрытые договоры на 31.03.2026", OneC, "list_open_contracts", true},
		{"удали документ", OneC, "write", true},
		{"Какая сейчас ключевая ставка?", S2General, IntentKeyRate, true},
		{"курс евро на вчера", S2General, IntentRates, true},
		{"сколько стоит доллар", S2General, IntentRates, true},
		{"новости про НДС", S2General, IntentNews, true},
		{"новости про ключевую ставку", S2General, IntentNews, true},
		{"Привет!", S2General, IntentSmallTalk, true},
		{"спасибо", S2General, IntentSmallTalk, true},
		{"Что ты умеешь?", S2General, IntentSmallTalk, true},
		{"Что такое НДС?", S2General, IntentKB, true},
		{"Как отразить аванс от покупателя проводками", S2General, IntentKB, true},
		{"?!", S5Clarify, IntentUnknown, true},
		{"отчет", S5Clarify, IntentUnknown, false},
		{"расскажи подробнее о возможностях бюджетирования в компании", S2General, IntentKB, false},
		{"Ёлки, кто нам ДОЛЖЕН???", OneC, "list_receivables_counterparties", true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			d := p.Parse(understand.Input{Text: tt.text, Now: now})
			got := decisionRoute(d)
			if got.Scenario != tt.scenario || got.Intent != tt.intent || d.Sure != tt.sure {
				t.Errorf("%q: %s/%s sure=%v (rule %s), want %s/%s sure=%v", tt.text, got.Scenario, got.Intent, d.Sure, d.Rule,
					tt.scenario, tt.intent, tt.sure)
			}
			if got.Source != "rules" || len(got.Reasons) == 0 {
				t.Errorf("%q: source %q reasons %v: want rules with a reason", tt.text, got.Source, got.Reasons)
			}
		})
	}
}
