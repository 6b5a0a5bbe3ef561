package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
)

// The 1C path end to end: ask → agent → 1C lane → proxy client → a stand-in of the MCP
// toolkit proxy backed by the demo ledger. The answer names its source; the debug payload has
// every field of the lane's contract.
func TestAskLedgerThroughProxyStandIn(t *testing.T) {
	demo, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	srv := onectest.NewServer(t, demo, onectest.WithToken("onec-secret-token"))
	env := map[string]string{"ONEC_URL": srv.URL, "ONEC_TOKEN": "onec-secret-token", "ONEC_ORGANIZATION": demo.MainOrganization()}

	res := askJSON(t, env, "кто нам должен на 31.03.2026")
	plain := strings.ReplaceAll(strings.Join(res.Replies, " "), "\u00a0", " ")
	if res.Scenario != "1c" || !strings.Contains(plain, "35 987 887,75") || !strings.Contains(plain, "1С: MCP toolkit") {
		t.Fatalf("answer:\n%s", res.Text)
	}
	raw, _ := json.Marshal(res.Debug)
	var dbg map[string]any
	json.Unmarshal(raw, &dbg)
	trace, _ := dbg["trace"].(map[string]any)
	addr, _ := trace["ledger"].(map[string]any)
	for _, key := range []string{
		"detected_mode", "detected_mode_confidence", "query_shape", "query_shape_confidence", "detected_intent",
		"detected_intent_confidence", "extracted_filters", "missing_required_filters", "selected_recipe", "anchor_type",
		"anchor_value_raw", "anchor_value_resolved", "resolver_confidence", "ambiguity_count", "mcp_call_status",
		"mcp_call_status_legacy", "match_failure_stage", "match_failure_reason", "rows_fetched", "raw_rows_received",
		"rows_after_account_scope", "rows_materialized", "rows_after_recipe_filter", "rows_matched", "raw_row_keys_sample",
		"materialization_drop_reason", "account_scope_mode", "account_scope_fallback_applied", "account_token_raw",
		"account_token_normalized", "account_scope_fields_checked", "account_scope_match_strategy", "account_scope_drop_reason",
		"runtime_readiness", "limited_reason_category", "response_type", "limitations", "reasons",
		"llm_decomposition_attempted", "llm_decomposition_applied", "llm_provider_used", "llm_decomposition_trace_id",
		"llm_decomposition_effective_message", "llm_decomposition_reason", "fallback_rule_hit", "sanitized_user_message",
		"tool_gate_decision", "tool_gate_reason", "execution_lane",
	} {
		if _, ok := addr[key]; !ok {
			t.Errorf("debug payload lacks %s", key)
		}
	}
	if addr["mcp_call_status"] != "matched_non_empty" || addr["rows_matched"] != float64(18) {
		t.Errorf("status %v rows %v", addr["mcp_call_status"], addr["rows_matched"])
	}
	result, _ := trace["result"].(map[string]any)
	if result["recipe_id"] != "address.receivables.counterparty_totals" || result["result_mode"] != "FACTUAL_SUMMARY" {
		t.Errorf("unified result = %v", result)
	}
	for _, q := range srv.Queries() {
		if _, ok := onec.QueryID(q); !ok {
			t.Errorf("non-whitelisted query sent: %q", q)
		}
	}

	// A wrong token: the answer says 1C is unavailable and never falls back to the demo ledger.
	env["ONEC_TOKEN"] = "wrong"
	res = askJSON(t, env, "кто нам должен на 31.03.2026")
	if strings.Contains(res.Text, "₽") || !strings.Contains(res.Text, "другой источник я подставлять не буду") {
		t.Errorf("with a rejected token:\n%s", res.Text)
	}
}

// The aging end to end through the toolkit's stand-in, with its configuration: the intervals of
// ONEC_AGING_BUCKETS and the default term of ONEC_DEFAULT_PAYMENT_DAYS reach the template (a
// number parameter over the wire), the answer says them, and only whitelisted text was sent.
func TestAskAgingThroughProxyStandIn(t *testing.T) {
	demo, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	srv := onectest.NewServer(t, demo)
	env := map[string]string{"ONEC_URL": srv.URL, "ONEC_ORGANIZATION": demo.MainOrganization(),
		"ONEC_AGING_BUCKETS": "15,45", "ONEC_DEFAULT_PAYMENT_DAYS": "10"}
	res := askJSON(t, env, "дебиторка по срокам на 30.06.2025")
	plain := strings.ReplaceAll(strings.Join(res.Replies, " "), "\u00a0", " ")
	// the figures of the lane's golden answer with these bounds (agent/ledger/runner/testdata/lane/aging_own_bounds.golden)
	for _, want := range []string{"Покупатели должны нам 25 381 165,11 ₽ на 30.06.2025, из них просрочено 17 555 595,24 ₽",
		"1–15 дн.         │  3 724 750,73", "Более 45 дн.     │ 10 775 999,64", "10 дней по умолчанию", "1С: MCP toolkit",
		"Просрочено 17 555 595,24 ₽ из 25 381 165,11 ₽ на 30.06.2025"} { // the last: the chart's caption
		if !strings.Contains(plain, want) {
			t.Errorf("answer lacks %q:\n%s", want, plain)
		}
	}
	if res.Recipe != "receivables_aging" {
		t.Errorf("recipe %q", res.Recipe)
	}
	for _, q := range srv.Queries() {
		if _, ok := onec.QueryID(q); !ok {
			t.Errorf("non-whitelisted query sent: %.60q", q)
		}
	}
}

// The counterparty card and the offsets end to end through the toolkit's stand-in: the everyday
// questions reach the recipes, the figures are the lane's (checked against a calculation in
// agent/ledger/runner), each part of the card cites its recipe, and only whitelisted text was sent.
func TestAskCardAndOffsetsThroughProxyStandIn(t *testing.T) {
	demo, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	srv := onectest.NewServer(t, demo)
	env := map[string]string{"ONEC_URL": srv.URL, "ONEC_ORGANIZATION": demo.MainOrganization()}
	for _, c := range []struct {
		q, recipe string
		wants     []string
	}{
		{"карточка контрагента универсал на 31.03.2026", "counterparty_card", []string{
			"ООО «Универсал», ИНН 5214649585 на 31.03.2026: в целом должен нам 763 472,12 ₽ (сальдо расчётов).",
			"Должен нам: 2 131 029,84 ₽", "Мы должны: 1 330 424,57 ₽", "1С: Незакрытые договоры, ООО «Северный ветер», MCP toolkit",
			"1С: Кредиторка по срокам долга", "1С: Банковские операции контрагента", "Акт сверки с Универсал", "Выгрузить в Excel"}},
		{"встречные долги на 31.03.2026", "offset_candidates", []string{
			"На 31.03.2026 встречные долги есть у 1 контрагента: зачесть можно до 1 330 424,57 ₽.", "по соглашению обеих сторон",
			"1С: Встречные долги, ООО «Северный ветер», MCP toolkit"}},
	} {
		res := askJSON(t, env, c.q)
		var labels []string
		for _, b := range res.Buttons {
			labels = append(labels, b.Text)
		}
		plain := strings.ReplaceAll(strings.ReplaceAll(strings.Join(append(res.Replies, labels...), " "), "\u00a0", " "), "*", "")
		for _, want := range c.wants {
			if !strings.Contains(plain, want) {
				t.Errorf("%q: the answer lacks %q:\n%s", c.q, want, plain)
			}
		}
		if res.Recipe != c.recipe {
			t.Errorf("%q: recipe %q, want %q", c.q, res.Recipe, c.recipe)
		}
	}
	for _, q := range srv.Queries() {
		if _, ok := onec.QueryID(q); !ok {
			t.Errorf("non-whitelisted query sent: %.60q", q)
		}
	}
}
