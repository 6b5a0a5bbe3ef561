package understand_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
)

// ledgerPlan is a plan with one 1C recipe call and the given filters.
func ledgerPlan(recipe recipe.Name, f recipe.Filters) plan.QueryPlan {
	args, _ := json.Marshal(understand.LedgerArgs{Recipe: recipe, Filters: f})
	return plan.QueryPlan{Kinds: []understand.Kind{understand.KindLedger},
		ToolCalls: []plan.ToolCall{{Tool: plan.ToolLedgerQuery, Args: args}}, RenderStyle: plan.StyleTable, Confidence: 0.9}
}

func cbrPlan(args understand.RateArgs) plan.QueryPlan {
	raw, _ := json.Marshal(args)
	return plan.QueryPlan{Kinds: []understand.Kind{understand.KindRate},
		ToolCalls: []plan.ToolCall{{Tool: plan.ToolFetchCBRData, Args: raw}}, RenderStyle: plan.StyleShort, Confidence: 0.9}
}

// summary is what a test compares of a decision.
func summary(d understand.Decision) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s", d.Kind, d.Recipe)
	if d.Date.Set {
		fmt.Fprintf(&b, " date=%s(%s)", d.Date.Value.Format(time.DateOnly), d.Date.Source)
	}
	if d.Period.Set {
		fmt.Fprintf(&b, " period=%s..%s(%s)", d.Period.Value.From.Format(time.DateOnly), d.Period.Value.To.Format(time.DateOnly), d.Period.Source)
	}
	if d.Account.Set {
		fmt.Fprintf(&b, " account=%s(%s)", d.Account.Value, d.Account.Source)
	}
	if d.UnknownAccount != "" {
		fmt.Fprintf(&b, " unknown_account=%s", d.UnknownAccount)
	}
	if d.Counterparty.Set {
		fmt.Fprintf(&b, " party=%s(%s)", d.Counterparty.Value.Name, d.Counterparty.Source)
	}
	if d.Contract.Set {
		fmt.Fprintf(&b, " contract=%s(%s)", d.Contract.Value.Number, d.Contract.Source)
	}
	if d.Organization.Set {
		fmt.Fprintf(&b, " org=%s(%s)", d.Organization.Value.Name, d.Organization.Source)
	}
	if d.Currencies.Set {
		fmt.Fprintf(&b, " cur=%s(%s)", strings.Join(d.Currencies.Value, ","), d.Currencies.Source)
	}
	if d.Unknown != "" {
		fmt.Fprintf(&b, " unknown=%q", d.Unknown)
	}
	if len(d.Candidates) > 0 {
		fmt.Fprintf(&b, " candidates=%d", len(d.Candidates))
	}
	if d.DateError != "" {
		b.WriteString(" date_error")
	}
	return b.String()
}

// A plan only adds to what the parser read: it may choose the recipe of a question the parser
// was unsure of and fill a slot the message names in words the parser could not read, but it
// cannot move a date or a company the message named, invent a date or a company the message
// does not name, pick one of several equal names, or name an account the message does not.
func TestFromPlanOnlyAdds(t *testing.T) {
	cats := demoCatalogs(t)
	p := understand.NewParser()
	now := time.Date(2026, 4, 25, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name, text, context string
		plan                plan.QueryPlan
		want                string // summary; "" = not a decision (the caller runs the plan)
	}{
		{"the parser's date stays", "какая картина с расчётами на 1.05",
			"", ledgerPlan(recipe.Receivables, recipe.Filters{AsOfDate: "2026-05-01"}),
			"ledger/list_receivables_counterparties date=2025-05-01(text)"},
		{"an invented date is dropped", "какая картина с расчётами",
			"", ledgerPlan(recipe.Receivables, recipe.Filters{AsOfDate: "2025-01-01"}),
			"ledger/list_receivables_counterparties"},
		{"a date in words the parser did not read is taken", "какая картина с расчётами в первый рабочий день года",
			"", ledgerPlan(recipe.Receivables, recipe.Filters{AsOfDate: "2026-01-12"}),
			"ledger/list_receivables_counterparties date=2026-01-12(planner)"},
		{"a future as-of date is refused", "картина с расчётами на последний рабочий день",
			"", ledgerPlan(recipe.Receivables, recipe.Filters{AsOfDate: "2026-06-30"}),
			"ledger/list_receivables_counterparties"},
		{"an impossible date stays refused", "картина с расчётами на 31.02",
			"", ledgerPlan(recipe.Receivables, recipe.Filters{AsOfDate: "2026-02-28"}),
			"ledger/list_receivables_counterparties date_error"},
		{"a company the message does not name is refused", "что там по расчётам на 1.03",
			"", ledgerPlan(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: "2026-03-01", Counterparty: "ООО «Гранит»"}),
			"ledger/open_items_by_counterparty date=2026-03-01(text)"},
		{"the parser's company stays", "что там по расчётам с вектором на 1.03",
			"", ledgerPlan(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: "2026-03-01", Counterparty: "ООО «Вектор Плюс»"}),
			"ledger/open_items_by_counterparty date=2026-03-01(text) party=АО «Вектор»(catalog)"},
		{"several equal names stay a question", "что там по расчётам с гранитовскими",
			"", ledgerPlan(recipe.OpenItemsByParty, recipe.Filters{Counterparty: "ООО «Гранит»"}),
			"clarify/open_items_by_counterparty candidates=2"},
		{"a company of the question continued", "а на 1.03?",
			"что там по расчётам с вектором", ledgerPlan(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: "2026-03-01", Counterparty: "АО «Вектор»"}),
			"ledger/open_items_by_counterparty date=2026-03-01(text) party=АО «Вектор»(planner)"},
		{"an account the message does not write is refused", "что там по расчётам на 1.03",
			"", ledgerPlan(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-01", Account: "76"}),
			"ledger/list_receivables_counterparties date=2026-03-01(text)"},
		{"the recipe's own account is kept", "что там по расчётам на 1.03",
			"", ledgerPlan(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-01", Account: "62"}),
			"ledger/list_receivables_counterparties date=2026-03-01(text) account=62(planner)"},
		{"a recipe the message cannot fill leaves the parser's", "кому больше всего должны",
			"", ledgerPlan(recipe.OpenItemsByParty, recipe.Filters{Counterparty: "ООО «Гранит»"}),
			"ledger/list_payables_counterparties"},
		{"a recipe outside the whitelist is a question", "сделай выборку по 62",
			"", ledgerPlan("run_any_query", recipe.Filters{}), "clarify/"},
		{"rates: the plan's currency, the parser's date", "а что там с деньгами нашими восточными соседями на 1.03",
			"", cbrPlan(understand.RateArgs{Mode: understand.RateCurrency, Date: "2026-03-03", Codes: []string{"CNY", "XXX"}}),
			"rate/ date=2026-03-01(text) cur=CNY(planner)"},
		{"the key rate's invented date is dropped", "что там цб решил",
			"", cbrPlan(understand.RateArgs{Mode: understand.RateKeyRate, Date: "2024-01-01"}), "key_rate/"},
		{"news is the caller's", "что там у цб", "", cbrPlan(understand.RateArgs{Mode: understand.RateNews}), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := understand.Input{Text: tt.text, Now: now, Catalogs: cats}
			parsed := p.Parse(in)
			pl, ok := tt.plan.Planned()
			d := understand.Decision{}
			if ok {
				d, ok = p.FromPlan(pl, parsed, in, tt.context)
			}
			got := ""
			if ok {
				got = summary(d)
			}
			if got != tt.want {
				t.Errorf("FromPlan(%q)\n got  %s\n want %s\n(parsed: %s)", tt.text, got, tt.want, summary(parsed))
			}
		})
	}
}
