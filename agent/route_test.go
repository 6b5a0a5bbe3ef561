package agent

import "testing"

func TestRouteByRules(t *testing.T) {
	tests := []struct {
		text     string
		scenario Scenario
		intent   string
		rule     string
	}{
		{"Кто нам должен на 31 марта?", Address, "receivables", "address_receivables"},
		{"кто должен нам по 62 счету", Address, "receivables", "address_receivables"},
		{"Дебиторка на конец февраля", Address, "receivables", "address_receivables"},
		{"Кому мы должны?", Address, "payables", "address_payables"},
		{"наша задолженность перед поставщиками", Address, "payables", "address_payables"},
		{"Сальдо по счету 60.01 на 01.03.2026", Address, "account_balance", "address_balance"},
		{"остаток на сч. 51", Address, "account_balance", "address_balance"},
		{"открытые позиции по Альфе", Address, "open_items", "address_open_items"},
		{"документы по контрагенту ООО «Гранит»", Address, "documents", "address_documents"},
		{"документы по Гранит за март 2026", Address, "documents", "address_documents"},
		{"банковские операции по Альфа Поставка", Address, "documents", "address_bank_ops"},
		{"незакрытые договоры на 31.03.2026", Address, "open_contracts", "address_open_contracts"},
		{"Найди договор с Техснабом", S1Search, "", "doc_search"},
		{"удали документ", Address, "write", "address_write"},
		{"Проведи платёжку Альфе", Address, "write", "address_write"},
		{"какой срок оплаты в договоре поставки?", S1Search, "", "doc_search"},
		{"Какая сейчас ключевая ставка?", S2General, IntentKeyRate, "key_rate"},
		{"курс евро на вчера", S2General, IntentRates, "rates"},
		{"USD/RUB", S2General, IntentRates, "rates"},
		{"сколько стоит доллар", S2General, IntentRates, "rates"},
		{"новости про НДС", S2General, IntentNews, "news"},
		{"новости про ключевую ставку", S2General, IntentNews, "news"},
		{"что нового по курсу рубля", S2General, IntentNews, "news"},
		{"Привет!", S2General, IntentSmallTalk, "smalltalk"},
		{"спасибо", S2General, IntentSmallTalk, "smalltalk"},
		{"Что ты умеешь?", S2General, IntentSmallTalk, "smalltalk"},
		{"Что такое НДС?", S2General, IntentKB, "kb_definition"},
		{"Как отразить аванс от покупателя проводками", S2General, IntentKB, "kb"},
		{"ставка НДС.", S2General, IntentKB, "kb"},
		{"помоги", S5Clarify, IntentUnknown, "vague"},
		{"?!", S5Clarify, IntentUnknown, "too_short"},
		{"отчет", S5Clarify, IntentUnknown, "vague"},
		{"расскажи подробнее о возможностях бюджетирования в компании", S2General, IntentKB, "default_general"},
		{"Ёлки, кто нам ДОЛЖЕН???", Address, "receivables", "address_receivables"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got := routeByRules(tt.text)
			if got.Scenario != tt.scenario || got.Intent != tt.intent || got.FallbackRuleHit != tt.rule {
				t.Errorf("routeByRules(%q) = %s/%s by %q, want %s/%s by %q",
					tt.text, got.Scenario, got.Intent, got.FallbackRuleHit, tt.scenario, tt.intent, tt.rule)
			}
			if got.Source != "rules" || len(got.Reasons) == 0 {
				t.Errorf("routeByRules(%q) source %q reasons %v: want rules with a reason", tt.text, got.Source, got.Reasons)
			}
		})
	}
}
