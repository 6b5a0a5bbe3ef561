package plan

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
	"github.com/google/go-cmp/cmp"
)

func js(s string) json.RawMessage { return json.RawMessage(s) }

// all is a user with documents, a selection, 1C and web news.
var all = Rules{HasDocuments: true, HasSelection: true, HasLedger: true, HasLLMNews: true}

// docPlan is a valid S1 plan.
func docPlan() QueryPlan {
	return QueryPlan{
		Kinds:        []understand.Kind{understand.KindDocs},
		Entities:     []Entity{{Type: "counterparty", Name: "Техснаб"}},
		ToolCalls:    []ToolCall{{Tool: ToolSearchUserDocuments, Args: js(`{"query":"договор Техснаб штрафы"}`)}},
		RenderStyle:  StyleBullets,
		AnswerStyle:  AnswerNaturalRU,
		QuestionMode: ModeDirect,
		Confidence:   0.9,
	}
}

func ledgerPlan() QueryPlan {
	p := docPlan()
	p.Kinds = []understand.Kind{understand.KindLedger}
	p.Entities = nil
	p.ToolCalls = []ToolCall{{Tool: ToolLedgerQuery, Args: js(`{"recipe":"list_receivables_counterparties","filters":{"as_of_date":"2026-03-31"}}`)}}
	p.RenderStyle = StyleTable
	return p
}

func deepPlan() QueryPlan {
	p := docPlan()
	p.Kinds = []understand.Kind{understand.KindLedgerDeep}
	p.Entities = nil
	p.QuestionMode = ModeDeepAnalysis
	p.Discovery = &DiscoveryProposal{
		SemanticDataNeed: "выручка по покупателям помесячно за 2025 год",
		TurnMeaning: TurnMeaning{AskedDomainFamily: "продажи", AskedActionFamily: "сравнить динамику",
			AskedAggregationAxis: "month", MeaningConfidence: 0.8},
		ProposedPrimitives: []Tool{ToolQueryMovements, ToolAggregateByAxis},
		RequiredAxes:       []string{"month", "counterparty"},
	}
	p.ToolCalls = []ToolCall{
		{Tool: ToolQueryMovements, Args: js(`{"account":"62.01","date_from":"2025-01-01","date_to":"2025-12-31"}`)},
		{Tool: ToolAggregateByAxis, Args: js(`{"axis":"month","limit":100}`), DependsOn: []int{0}},
	}
	return p
}

func clarifyPlan() QueryPlan {
	p := docPlan()
	p.Kinds = []understand.Kind{understand.KindClarify}
	p.Entities = nil
	p.ToolCalls = nil
	p.RenderStyle = StyleShort
	p.Clarification = "Какая ставка вас интересует?"
	p.ClarificationOptions = []string{"Ключевая ставка ЦБ", "Ставки НДС"}
	return p
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		plan  func() QueryPlan
		rules Rules
		want  []string // the fields of the problems, in order; nil = valid
	}{
		// Valid plans.
		{"doc search", docPlan, all, nil},
		{"doc search with selection ids", func() QueryPlan {
			p := docPlan()
			p.ToolCalls[0].Args = js(`{"query":"штрафы","top_k":10,"document_ids":["Договор поставки № 15"]}`)
			return p
		}, all, nil},
		{"load selected documents", func() QueryPlan {
			p := docPlan()
			p.Kinds = []understand.Kind{understand.KindDocs}
			p.ToolCalls = []ToolCall{{Tool: ToolLoadDocumentsFull, Args: js(`{"document_ids":["Договор поставки № 15","Акт сверки"]}`)}}
			return p
		}, all, nil},
		{"rates with a fallback and dependencies", func() QueryPlan {
			p := docPlan()
			p.Kinds = []understand.Kind{understand.KindRate, understand.KindKB}
			p.ToolCalls = []ToolCall{
				{Tool: ToolFetchCBRData, Args: js(`{"mode":"dynamic","from":"2026-01-01","to":"2026-01-31","codes":["USD","EUR"]}`)},
				{Tool: ToolSearchGeneralKB, Args: js(`{"query":"переоценка валюты","topic":"учёт"}`), DependsOn: []int{0}},
			}
			p.Fallback = Fallback{Enabled: true, Tool: ToolFetchFinanceNews, Args: js(`{"query":"курс доллара январь"}`), When: []string{WhenNoResults, WhenLowCoverage}}
			p.Limits = Limits{MaxItems: 31, MaxGroups: 2, MaxParagraphs: 3}
			return p
		}, all, nil},
		{"key rate and cbr news", func() QueryPlan {
			p := docPlan()
			p.Kinds = []understand.Kind{understand.KindKeyRate, understand.KindNews}
			p.ToolCalls = []ToolCall{{Tool: ToolFetchCBRData, Args: js(`{"mode":"key_rate"}`)}, {Tool: ToolFetchCBRData, Args: js(`{"mode":"news","from":"2026-04-01","to":"2026-04-10"}`)}}
			return p
		}, Rules{}, nil},
		{"ledger fact", ledgerPlan, all, nil},
		// The installation's tools (Rules.Offering): a tool of a skill it lacks is unavailable.
		{"rates offered", func() QueryPlan {
			p := docPlan()
			p.Kinds = []understand.Kind{understand.KindKeyRate}
			p.ToolCalls = []ToolCall{{Tool: ToolFetchCBRData, Args: js(`{"mode":"key_rate"}`)}}
			return p
		}, Rules{}.Offering([]Tool{ToolFetchCBRData, ToolSearchGeneralKB}), nil},
		{"rates not offered", func() QueryPlan {
			p := docPlan()
			p.Kinds = []understand.Kind{understand.KindKeyRate}
			p.ToolCalls = []ToolCall{{Tool: ToolFetchCBRData, Args: js(`{"mode":"key_rate"}`)}}
			return p
		}, Rules{}.Offering([]Tool{ToolSearchGeneralKB}), []string{"tool_calls[0].tool"}},
		{"ledger offered", ledgerPlan, Rules{}.Offering([]Tool{ToolLedgerQuery}), nil},
		{"ledger fact through address", func() QueryPlan {
			p := ledgerPlan()
			p.Ledger = &LedgerPlan{Recipe: recipe.OpenItemsByParty, Filters: recipe.Filters{Counterparty: "Альфа", AsOfDate: "2026-03-31", INN: "7707083893", Limit: 200}}
			p.ToolCalls[0].Args = js(`{}`)
			return p
		}, all, nil},
		{"deep analysis", deepPlan, all, nil},
		{"clarify", clarifyPlan, Rules{}, nil},
		{"small talk", func() QueryPlan {
			p := docPlan()
			p.Kinds, p.ToolCalls, p.Entities = []understand.Kind{understand.KindSmallTalk}, []ToolCall{}, nil
			return p
		}, Rules{}, nil},
		{"custom threshold passes", docPlan, Rules{HasDocuments: true, ConfidenceThreshold: 0.9}, nil},

		// Intents, tools, styles.
		{"no intents", func() QueryPlan { p := docPlan(); p.Kinds = nil; return p }, all, []string{"intents"}},
		{"unknown intent", func() QueryPlan {
			p := docPlan()
			p.Kinds = append(p.Kinds, "PROJECT_DETAILS")
			return p
		}, all, []string{"intents[1]"}},
		{"unknown tool", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = append(p.ToolCalls, ToolCall{Tool: "web_search", Args: js(`{"query":"x"}`)})
			return p
		}, all, []string{"tool_calls[1].tool"}},
		{"unknown render style", func() QueryPlan { p := docPlan(); p.RenderStyle = "MARKDOWN"; return p }, all, []string{"render_style"}},
		{"empty render style", func() QueryPlan { p := docPlan(); p.RenderStyle = ""; return p }, all, []string{"render_style"}},
		{"answer style and question mode", func() QueryPlan {
			p := docPlan()
			p.AnswerStyle, p.QuestionMode = "FORMAL_EN", "ledger_query"
			return p
		}, all, []string{"answer_style", "question_mode"}},
		{"no tool calls", func() QueryPlan { p := docPlan(); p.ToolCalls = nil; return p }, all, []string{"tool_calls"}},
		{"tools for small talk", func() QueryPlan { p := docPlan(); p.Kinds = []understand.Kind{understand.KindSmallTalk}; return p }, all, []string{"tool_calls"}},
		{"too many tool calls", func() QueryPlan {
			p := docPlan()
			for range 4 {
				p.ToolCalls = append(p.ToolCalls, p.ToolCalls[0])
			}
			return p
		}, all, []string{"tool_calls"}},
		{"max tool calls from rules", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = append(p.ToolCalls, p.ToolCalls[0])
			return p
		}, Rules{HasDocuments: true, MaxToolCalls: 1}, []string{"tool_calls"}},
		{"depends_on forward, self, negative, repeated", func() QueryPlan {
			p := docPlan()
			p.ToolCalls[0].DependsOn = []int{1}
			c := p.ToolCalls[0]
			c.DependsOn = []int{1, -1, 0, 0}
			p.ToolCalls = append(p.ToolCalls, c)
			return p
		}, all, []string{"tool_calls[0].depends_on", "tool_calls[1].depends_on", "tool_calls[1].depends_on", "tool_calls[1].depends_on"}},

		// Arguments.
		{"missing query", func() QueryPlan { p := docPlan(); p.ToolCalls[0].Args = js(`{"query":"  "}`); return p }, all, []string{"tool_calls[0].args.query"}},
		{"null args", func() QueryPlan { p := docPlan(); p.ToolCalls[0].Args = nil; return p }, all, []string{"tool_calls[0].args.query"}},
		{"query too long", func() QueryPlan {
			p := docPlan()
			p.ToolCalls[0].Args = args(SearchUserDocumentsArgs{Query: strings.Repeat("ы", 501)})
			return p
		}, all, []string{"tool_calls[0].args.query"}},
		{"top_k out of range", func() QueryPlan { p := docPlan(); p.ToolCalls[0].Args = js(`{"query":"x","top_k":21}`); return p }, all, []string{"tool_calls[0].args.top_k"}},
		{"unknown argument", func() QueryPlan {
			p := docPlan()
			p.ToolCalls[0].Args = js(`{"query":"x","score_threshold":0.3}`)
			return p
		}, all, []string{"tool_calls[0].args"}},
		{"args not an object", func() QueryPlan { p := docPlan(); p.ToolCalls[0].Args = js(`"штрафы"`); return p }, all, []string{"tool_calls[0].args"}},
		{"no documents", docPlan, Rules{}, []string{"tool_calls[0].tool"}},
		{"document ids without a selection", func() QueryPlan {
			p := docPlan()
			p.ToolCalls[0].Args = js(`{"query":"x","document_ids":["a"]}`)
			return p
		}, Rules{HasDocuments: true}, []string{"tool_calls[0].args.document_ids"}},
		{"load without a selection", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolLoadDocumentsFull, Args: js(`{"document_ids":["a"]}`)}}
			return p
		}, Rules{HasDocuments: true}, []string{"tool_calls[0].tool"}},
		{"load: no ids, blank and repeated ids", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolLoadDocumentsFull, Args: js(`{}`)},
				{Tool: ToolLoadDocumentsFull, Args: js(`{"document_ids":["a"," ","a"]}`)}}
			return p
		}, all, []string{"tool_calls[0].args.document_ids", "tool_calls[1].args.document_ids[1]", "tool_calls[1].args.document_ids[2]"}},
		{"load: more than 20 ids", func() QueryPlan {
			p := docPlan()
			ids := make([]string, 21)
			for i := range ids {
				ids[i] = string(rune('a' + i))
			}
			p.ToolCalls = []ToolCall{{Tool: ToolLoadDocumentsFull, Args: args(LoadDocumentsFullArgs{DocumentIDs: ids})}}
			return p
		}, all, []string{"tool_calls[0].args.document_ids"}},
		{"cbr: bad mode", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolFetchCBRData, Args: js(`{"mode":"rates"}`)}}
			return p
		}, all, []string{"tool_calls[0].args.mode"}},
		{"cbr: bad date and codes", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolFetchCBRData, Args: js(`{"mode":"currency","date":"15.01.2026","codes":["eur","ЕВР","USD","USD"]}`)}}
			return p
		}, all, []string{"tool_calls[0].args.date", "tool_calls[0].args.codes[0]", "tool_calls[0].args.codes[1]", "tool_calls[0].args.codes[3]"}},
		{"cbr: impossible date", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolFetchCBRData, Args: js(`{"mode":"key_rate","date":"2026-02-30"}`)}}
			return p
		}, all, []string{"tool_calls[0].args.date"}},
		{"cbr: dynamic without period or code", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolFetchCBRData, Args: js(`{"mode":"dynamic","date":"2026-01-15"}`)}}
			return p
		}, all, []string{"tool_calls[0].args", "tool_calls[0].args.date", "tool_calls[0].args.codes"}},
		{"cbr: reversed period, codes for key rate", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolFetchCBRData, Args: js(`{"mode":"key_rate","from":"2026-03-01","to":"2026-01-01","codes":["USD"]}`)}}
			return p
		}, all, []string{"tool_calls[0].args.from", "tool_calls[0].args.codes"}},
		{"cbr: period for currency", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolFetchCBRData, Args: js(`{"mode":"currency","from":"2026-01-01","to":"2026-01-31"}`)}}
			return p
		}, all, []string{"tool_calls[0].args"}},
		{"news: not connected, bad bounds", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolFetchFinanceNews, Args: js(`{"query":"НДС","max_results":11,"search_depth":"deep"}`)}}
			return p
		}, Rules{}, []string{"tool_calls[0].tool", "tool_calls[0].args.max_results", "tool_calls[0].args.search_depth"}},
		{"kb: long topic", func() QueryPlan {
			p := docPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolSearchGeneralKB, Args: args(SearchGeneralKBArgs{Query: "НДС", Topic: strings.Repeat("т", 201)})}}
			return p
		}, all, []string{"tool_calls[0].args.topic"}},

		// 1C.
		{"ledger_query without a recipe", func() QueryPlan { p := ledgerPlan(); p.ToolCalls[0].Args = js(`{}`); return p }, all, []string{"tool_calls[0].args.recipe"}},
		{"ledger_query with an unknown recipe", func() QueryPlan {
			p := ledgerPlan()
			p.ToolCalls[0].Args = js(`{"recipe":"select_all"}`)
			return p
		}, all, []string{"tool_calls[0].args.recipe"}},
		{"ledger_query without ledger", func() QueryPlan { p := ledgerPlan(); p.Kinds = []understand.Kind{understand.KindGeneral}; return p }, all, []string{"tool_calls[0].tool"}},
		{"ledger_query without 1C", ledgerPlan, Rules{}, []string{"tool_calls[0].tool"}},
		{"ledger without ledger_query", func() QueryPlan {
			p := ledgerPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolSearchGeneralKB, Args: js(`{"query":"дебиторка"}`)}}
			return p
		}, all, []string{"tool_calls"}},
		{"address and args disagree", func() QueryPlan {
			p := ledgerPlan()
			p.Ledger = &LedgerPlan{Recipe: recipe.Payables}
			return p
		}, all, []string{"tool_calls[0].args.recipe"}},
		{"address without ledger", func() QueryPlan {
			p := docPlan()
			p.Ledger = &LedgerPlan{Recipe: recipe.Payables}
			return p
		}, all, []string{"ledger"}},
		{"bad filters", func() QueryPlan {
			p := ledgerPlan()
			p.Ledger = &LedgerPlan{Recipe: "list_everything", Filters: recipe.Filters{AsOfDate: "31 марта",
				PeriodFrom: "2026-03-01", PeriodTo: "2026-02-01", Account: "счёт 62", DocumentType: "Счёт",
				Status: "paid", Sort: "random", Limit: 201, INN: "1234567890"}}
			p.ToolCalls[0].Args = js(`{}`)
			return p
		}, all, []string{"address.recipe", "address.filters.period_from", "address.filters.as_of_date",
			"address.filters.account", "address.filters.document_type", "address.filters.status",
			"address.filters.sort", "address.filters.limit", "address.filters.inn"}},
		{"bad filters in args", func() QueryPlan {
			p := ledgerPlan()
			p.ToolCalls[0].Args = js(`{"recipe":"list_payables_counterparties","filters":{"as_of_date":"2026-13-01","counterparty":"` + strings.Repeat("А", 201) + `"}}`)
			return p
		}, all, []string{"tool_calls[0].args.filters.as_of_date", "tool_calls[0].args.filters.counterparty"}},
		{"unknown filter", func() QueryPlan {
			p := ledgerPlan()
			p.ToolCalls[0].Args = js(`{"recipe":"list_payables_counterparties","filters":{"region":"Москва"}}`)
			return p
		}, all, []string{"tool_calls[0].args"}},

		// Discovery.
		{"primitive in direct mode without a proposal", func() QueryPlan {
			p := ledgerPlan()
			p.ToolCalls = append(p.ToolCalls, ToolCall{Tool: ToolProbeCoverage, Args: js(`{}`)})
			return p
		}, all, []string{"tool_calls[1].tool", "tool_calls[1].tool"}},
		{"primitive not proposed", func() QueryPlan {
			p := deepPlan()
			p.ToolCalls = append(p.ToolCalls, ToolCall{Tool: ToolProbeCoverage, Args: js(`{}`)})
			return p
		}, all, []string{"tool_calls[2].tool"}},
		{"primitive arguments", func() QueryPlan {
			p := deepPlan()
			p.Discovery.ProposedPrimitives = append(p.Discovery.ProposedPrimitives, ToolSearchBusinessEntity)
			p.ToolCalls = []ToolCall{
				{Tool: ToolSearchBusinessEntity, Args: js(`{"account":"62-1","date_from":"2025-12-31","date_to":"2025-01-01","limit":501}`)},
				{Tool: ToolAggregateByAxis, Args: js(`{"axis":"week"}`)},
				{Tool: ToolAggregateByAxis, Args: js(`{"entity":"Альфа"}`)},
			}
			return p
		}, all, []string{"tool_calls[0].args.entity", "tool_calls[0].args.account", "tool_calls[0].args.date_from",
			"tool_calls[0].args.limit", "tool_calls[1].args.axis", "tool_calls[2].args.axis"}},
		{"deep intent in direct mode without a proposal", func() QueryPlan {
			p := deepPlan()
			p.QuestionMode, p.Discovery = ModeDirect, nil
			return p
		}, all, []string{"tool_calls[0].tool", "tool_calls[0].tool", "tool_calls[1].tool", "tool_calls[1].tool", "question_mode", "discovery"}},
		{"deep mode without the intent", func() QueryPlan {
			p := deepPlan()
			p.Kinds = []understand.Kind{understand.KindGeneral}
			return p
		}, all, []string{"question_mode", "discovery"}},
		{"bad proposal", func() QueryPlan {
			p := deepPlan()
			p.ToolCalls = p.ToolCalls[:1]
			p.Discovery.SemanticDataNeed = ""
			p.Discovery.ProposedPrimitives = []Tool{ToolQueryMovements, ToolLedgerQuery}
			p.Discovery.RequiredAxes = []string{"week"}
			p.Discovery.TurnMeaning.AskedAggregationAxis = "week"
			p.Discovery.TurnMeaning.MeaningConfidence = 1.5
			return p
		}, all, []string{"discovery.semantic_data_need", "discovery.proposed_primitives[1]", "discovery.required_axes[0]",
			"discovery.turn_meaning.asked_aggregation_axis", "discovery.turn_meaning.meaning_confidence"}},
		{"empty proposal", func() QueryPlan {
			p := deepPlan()
			p.ToolCalls = []ToolCall{{Tool: ToolLedgerQuery, Args: js(`{"recipe":"list_open_contracts"}`)}}
			p.Kinds = append(p.Kinds, understand.KindLedger)
			p.Discovery.ProposedPrimitives = nil
			return p
		}, all, []string{"discovery.proposed_primitives"}},
		{"primitive without 1C", deepPlan, Rules{}, []string{"tool_calls[0].tool", "tool_calls[1].tool"}},

		// Confidence and limits.
		{"low confidence", func() QueryPlan { p := docPlan(); p.Confidence = 0.3; return p }, all, []string{"confidence"}},
		{"confidence above a custom threshold", func() QueryPlan { p := docPlan(); p.Confidence = 0.7; return p },
			Rules{HasDocuments: true, ConfidenceThreshold: 0.8}, []string{"confidence"}},
		{"confidence above 1", func() QueryPlan { p := docPlan(); p.Confidence = 1.2; return p }, all, []string{"confidence"}},
		{"confidence NaN", func() QueryPlan { p := docPlan(); p.Confidence = math.NaN(); return p }, all, []string{"confidence"}},
		{"negative confidence", func() QueryPlan { p := docPlan(); p.Confidence = -0.1; return p }, all, []string{"confidence"}},
		{"limits out of range", func() QueryPlan {
			p := docPlan()
			p.Limits = Limits{MaxItems: 51, MaxGroups: 11, MaxParagraphs: 7}
			return p
		}, all, []string{"limits.max_items", "limits.max_groups", "limits.max_paragraphs"}},
		{"negative limits", func() QueryPlan { p := docPlan(); p.Limits = Limits{MaxItems: -1}; return p }, all, []string{"limits.max_items"}},

		// Clarification.
		{"clarify without a question", func() QueryPlan {
			p := clarifyPlan()
			p.Clarification = " "
			return p
		}, all, []string{"clarification", "clarification_options"}},
		{"clarification too long", func() QueryPlan {
			p := clarifyPlan()
			p.Clarification = strings.Repeat("а", 301)
			return p
		}, all, []string{"clarification"}},
		{"too many options, empty and long ones", func() QueryPlan {
			p := clarifyPlan()
			p.ClarificationOptions = []string{"1", "2", "", "4", strings.Repeat("о", 65), "6"}
			return p
		}, all, []string{"clarification_options", "clarification_options[2]", "clarification_options[4]"}},
		{"tools for clarify", func() QueryPlan {
			p := clarifyPlan()
			p.ToolCalls = docPlan().ToolCalls
			return p
		}, all, []string{"tool_calls"}},

		// Fallback and entities.
		{"fallback with an unknown tool and trigger", func() QueryPlan {
			p := docPlan()
			p.Fallback = Fallback{Enabled: true, Tool: "portfolio_search_tool", When: []string{"TIMEOUT"}}
			return p
		}, all, []string{"fallback.when[0]", "fallback.tool"}},
		{"disabled fallback with an unknown tool", func() QueryPlan {
			p := docPlan()
			p.Fallback = Fallback{Tool: "portfolio_search_tool"}
			return p
		}, all, []string{"fallback.tool"}},
		{"enabled fallback without a tool or trigger", func() QueryPlan {
			p := docPlan()
			p.Fallback = Fallback{Enabled: true}
			return p
		}, all, []string{"fallback.tool"}},
		{"fallback args are checked", func() QueryPlan {
			p := docPlan()
			p.Fallback = Fallback{Enabled: true, Tool: ToolSearchGeneralKB, Args: js(`{"top_k":0}`)}
			return p
		}, all, []string{"fallback.when", "fallback.args.query"}},
		{"fallback needs the tool available", func() QueryPlan {
			p := docPlan()
			p.Fallback = Fallback{Enabled: true, Tool: ToolFetchFinanceNews, Args: js(`{"query":"x"}`), When: []string{WhenNoResults}}
			return p
		}, Rules{HasDocuments: true}, []string{"fallback.tool"}},
		{"bad entities", func() QueryPlan {
			p := docPlan()
			p.Entities = []Entity{{Type: "project", Name: "АЛОР"}, {Type: "date", Name: ""}}
			return p
		}, all, []string{"entities[0].type", "entities[1].name"}},
	}
	if len(tests) < 25 {
		t.Fatalf("only %d cases", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			probs := Validate(tt.plan(), tt.rules)
			var got []string
			for _, p := range probs {
				got = append(got, p.Field)
				if !hasCyrillic(p.Message) {
					t.Errorf("problem %q: message is not Russian", p)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Validate() problem fields mismatch (-want +got):\n%s\nproblems: %v", diff, probs)
			}
		})
	}
}

func args(v any) json.RawMessage { return encodeArgs(v) }

func hasCyrillic(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) >= 0
}

// The model sees what is allowed: an unknown tool's problem lists the tools.
func TestValidateMessages(t *testing.T) {
	p := docPlan()
	p.ToolCalls[0].Tool = "web_search"
	probs := Validate(p, all)
	if len(probs) != 1 {
		t.Fatalf("Validate() = %v, want one problem", probs)
	}
	for _, tool := range Tools() {
		if !strings.Contains(probs[0].Message, string(tool)) {
			t.Errorf("problem %q does not list %s", probs[0], tool)
		}
	}
	if got := (Problem{Field: "confidence", Message: "ниже порога"}).String(); got != "confidence: ниже порога" {
		t.Errorf("Problem.String() = %q", got)
	}
}

func TestNormalize(t *testing.T) {
	p := QueryPlan{
		Kinds: []understand.Kind{understand.KindLedger, understand.KindLedger, understand.KindRate},
		ToolCalls: []ToolCall{
			{Tool: ToolLedgerQuery, Args: js(`{"recipe":"list_payables_counterparties","filters":{"as_of_date":"2026-03-31"}}`)},
			{Tool: ToolLedgerQuery},
			{Tool: ToolFetchCBRData, Args: js(`{"mode":"currency","codes":[" usd","eur"]}`)},
			{Tool: ToolSearchGeneralKB, Args: js(`{"query":" кредиторка "}`)},
			{Tool: ToolSearchUserDocuments, Args: js(`{"query":"x","bogus":1}`)},
		},
		Fallback:             Fallback{Enabled: true, Tool: ToolFetchFinanceNews, Args: js(`{"query":"долги"}`)},
		Confidence:           0.8,
		Clarification:        " Уточните? ",
		ClarificationOptions: []string{" да "},
	}
	Normalize(&p)
	want := QueryPlan{
		Kinds: []understand.Kind{understand.KindLedger, understand.KindRate},
		ToolCalls: []ToolCall{
			{Tool: ToolLedgerQuery, Args: js(`{"recipe":"list_payables_counterparties","filters":{"as_of_date":"2026-03-31"}}`)},
			{Tool: ToolLedgerQuery, Args: js(`{"recipe":"list_payables_counterparties","filters":{"as_of_date":"2026-03-31"}}`)},
			{Tool: ToolFetchCBRData, Args: js(`{"mode":"currency","codes":["USD","EUR"]}`)},
			{Tool: ToolSearchGeneralKB, Args: js(`{"query":"кредиторка","top_k":5}`)},
			{Tool: ToolSearchUserDocuments, Args: js(`{"query":"x","bogus":1}`)}, // left for Validate
		},
		Fallback:             Fallback{Enabled: true, Tool: ToolFetchFinanceNews, Args: js(`{"query":"долги","max_results":5}`), When: []string{WhenNoResults}},
		Limits:               Limits{MaxItems: 10, MaxGroups: 4, MaxParagraphs: 4},
		RenderStyle:          StyleBullets,
		AnswerStyle:          AnswerNaturalRU,
		Confidence:           0.8,
		QuestionMode:         ModeDirect,
		Ledger:               &LedgerPlan{Recipe: recipe.Payables, Filters: recipe.Filters{AsOfDate: "2026-03-31"}},
		Clarification:        "Уточните?",
		ClarificationOptions: []string{"да"},
	}
	if diff := cmp.Diff(want, p, cmp.Transformer("raw", func(r json.RawMessage) string { return string(r) })); diff != "" {
		t.Errorf("Normalize() mismatch (-want +got):\n%s", diff)
	}

	deep := QueryPlan{Kinds: []understand.Kind{understand.KindLedgerDeep}}
	Normalize(&deep)
	if deep.QuestionMode != ModeDeepAnalysis {
		t.Errorf("Normalize() question_mode = %q for ledger_deep, want %q", deep.QuestionMode, ModeDeepAnalysis)
	}
}

func TestDefault(t *testing.T) {
	question := "Что такое акт сверки и нужен ли он при переходе на УСН?"
	for _, maxCalls := range []int{0, 1, 4} {
		for mask := range 16 {
			r := Rules{MaxToolCalls: maxCalls, HasDocuments: mask&1 != 0, HasSelection: mask&2 != 0,
				HasLedger: mask&4 != 0, HasLLMNews: mask&8 != 0}
			for _, q := range []string{question, strings.Repeat("очень длинный вопрос ", 60), "   "} {
				p := Default(q, r)
				if probs := Validate(p, r); len(probs) > 0 {
					t.Errorf("Validate(Default(%.20q, %+v)) = %v", q, r, probs)
				}
			}
		}
	}

	got := Default(question, Rules{HasDocuments: true})
	want := QueryPlan{
		Kinds: []understand.Kind{understand.KindGeneral},
		ToolCalls: []ToolCall{
			{Tool: ToolSearchUserDocuments, Args: js(`{"query":"` + question + `","top_k":5}`)},
			{Tool: ToolSearchGeneralKB, Args: js(`{"query":"` + question + `","top_k":5}`)},
		},
		Limits:       Limits{MaxItems: 10, MaxGroups: 4, MaxParagraphs: 4},
		RenderStyle:  StyleShort,
		AnswerStyle:  AnswerNaturalRU,
		Confidence:   1,
		QuestionMode: ModeDirect,
	}
	if diff := cmp.Diff(want, got, cmp.Transformer("raw", func(r json.RawMessage) string { return string(r) })); diff != "" {
		t.Errorf("Default() mismatch (-want +got):\n%s", diff)
	}
	if tools := toolsOf(Default(question, Rules{})); !slices.Equal(tools, []Tool{ToolSearchGeneralKB}) {
		t.Errorf("Default() without documents calls %v, want only search_general_kb", tools)
	}
	if p := Default(" ", Rules{}); !slices.Equal(p.Kinds, []understand.Kind{understand.KindClarify}) {
		t.Errorf("Default(blank) intents = %v, want clarify", p.Kinds)
	}
}

func toolsOf(p QueryPlan) []Tool {
	var out []Tool
	for _, c := range p.ToolCalls {
		out = append(out, c.Tool)
	}
	return out
}
