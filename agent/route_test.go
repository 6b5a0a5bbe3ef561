package agent

import (
	"slices"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/understand"
)

// How messages are routed once understood: the row of the table a decision takes, its scenario
// and what it asks. The understanding itself is measured on the user-side corpus in agent/understand.
func TestDecisionRoute(t *testing.T) {
	p := understand.NewParser()
	now := time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		text     string
		scenario Scenario
		what     string // the kind, or the recipe of a 1C question
		sure     bool
	}{
		{"Кто нам должен на 31 марта?", OneC, "list_receivables_counterparties", true},
		{"Дебиторка на конец февраля", OneC, "list_receivables_counterparties", true},
		{"Кому мы должны?", OneC, "list_payables_counterparties", true},
		{"наша задолженность перед поставщиками", OneC, "list_payables_counterparties", true},
		{"Сальдо по счету 60.01 на 01.03.2026", OneC, "account_balance_snapshot", true},
		{"остаток на сч. 51", OneC, "account_balance_snapshot", true},
		{"незакрытые договоры на 31.03.2026", OneC, "list_open_contracts", true},
		{"удали документ", OneC, "ledger_write", true},
		{"Какая сейчас ключевая ставка?", S2General, "key_rate", true},
		{"курс евро на вчера", S2General, "rate", true},
		{"сколько стоит доллар", S2General, "rate", true},
		{"новости про НДС", S2General, "news", true},
		{"новости про ключевую ставку", S2General, "news", true},
		{"Привет!", S2General, "smalltalk", true},
		{"спасибо", S2General, "smalltalk", true},
		{"Что ты умеешь?", S2General, "smalltalk", true},
		{"Что такое НДС?", S2General, "kb", true},
		{"Как отразить аванс от покупателя проводками", S2General, "kb", true},
		{"?!", S5Clarify, "clarify", true},
		{"отчет", S5Clarify, "clarify", false},
		{"расскажи подробнее о возможностях бюджетирования в компании", S2General, "kb", false},
		{"Ёлки, кто нам ДОЛЖЕН???", OneC, "list_receivables_counterparties", true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			d := p.Parse(understand.Input{Text: tt.text, Now: now})
			r := rowOf(d.Kind)
			what := string(d.Kind)
			if d.Recipe != "" {
				what = string(d.Recipe)
			}
			if r.scenario != tt.scenario || what != tt.what || d.Sure != tt.sure {
				t.Errorf("%q: %s/%s sure=%v (rule %s), want %s/%s sure=%v", tt.text, r.scenario, what, d.Sure, d.Rule,
					tt.scenario, tt.what, tt.sure)
			}
			if len(d.Reasons) == 0 {
				t.Errorf("%q: no reason", tt.text)
			}
		})
	}
}

// The table: every kind has a row, every planner tool is served by exactly one skill, and no
// command is listed twice.
func TestTable(t *testing.T) {
	for _, k := range append(plan.Kinds(), understand.KindLedgerWrite, understand.KindUnknownEntity) {
		if r := rowOf(k); r.kind != k {
			t.Errorf("kind %s has no row (routed to %s)", k, r.kind)
		}
	}
	for _, tool := range plan.Tools() {
		if tool.Discovery() {
			continue // run by guarded discovery (the ledger_deep row's skill), never alone
		}
		var skills []string
		for _, r := range table {
			if slices.Contains(r.tools, tool) && !slices.Contains(skills, r.skill) {
				skills = append(skills, r.skill)
			}
		}
		if len(skills) != 1 {
			t.Errorf("tool %s is served by %v, want one skill", tool, skills)
		}
	}
	seen := map[string]bool{}
	for _, r := range table {
		for _, c := range r.commands {
			if seen[c] {
				t.Errorf("command /%s is listed twice", c)
			}
			seen[c] = true
		}
	}
}
