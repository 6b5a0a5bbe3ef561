package agent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pkoukk/tiktoken-go"

	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/internal/fakes"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// o200k counts tokens as GPT-4o-class models do (the o200k_base encoding, embedded offline), so
// the stand-in reports the usage a real service would bill for the same prompts.
func o200k(b *testing.B) func(string) int {
	tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	return func(s string) int { return len(enc.Encode(s, nil, nil)) }
}

// BenchmarkPipeline measures one answer per scenario through the whole agent with the planner
// and the answer LLM behind an instant OpenAI-compatible stand-in: own-ms/op is the bot's own
// latency around the LLM calls (planning prompt, plan validation, tools, rendering,
// post-check, history, the client's HTTP over loopback), i.e. ns/op minus the time spent inside
// the stand-in, which counts tokens; llm-calls/op and the token metrics are what one answer
// costs at the LLM service (tokens counted with o200k_base, GPT-4o's encoding). The plan cache
// is off, so every planned answer pays for its plan.
//
//	go test -run '^$' -bench BenchmarkPipeline -benchtime 200x ./agent/
func BenchmarkPipeline(b *testing.B) {
	composite := `{"intents":["rate","key_rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"2026-03-14","codes":["USD"]}},{"tool":"fetch_cbr_data","args":{"mode":"key_rate","date":"2026-03-14"}}],"fallback":{"enabled":false},"limits":{},"render_style":"BULLETS","confidence":0.9}`
	deep := deepPlan(alfaProposal("ООО «Альфа»", "resolve_entity_reference", "aggregate_by_axis"),
		probeCall("resolve_entity_reference", plan.DiscoveryArgs{Entity: "ООО «Альфа»"}),
		probeCall("aggregate_by_axis", withEntity(plan.DiscoveryArgs{Axis: "month", DateFrom: q1.DateFrom, DateTo: q1.DateTo}, "ООО «Альфа»")))
	deepJSON, err := json.Marshal(deep)
	if err != nil {
		b.Fatal(err)
	}
	clarify := `{"intents":["clarify"],"tool_calls":[],"fallback":{"enabled":false},"limits":{},"render_style":"SHORT","confidence":0.8,"clarification":"Какой отчёт нужен: по дебиторке или по кредиторке?","clarification_options":["Кто нам должен","Кому должны мы"]}`
	cases := []struct {
		name    string
		req     Request
		before  string // asked once before, for follow-ups
		plan    string
		answer  string
		docs    bool
		command bool
	}{
		{name: "command /rate", req: Request{Command: "rate", Text: "USD"}},
		{name: "understood курс доллара", req: Request{Text: "курс доллара"}},
		{name: "1C recipe (understood)", req: Request{Text: "кто нам должен на 31 марта"}},
		{name: "1C recipe (parser unsure, planned)", req: Request{Text: vagueReceivables}, plan: receivablesPlan},
		{name: "follow-up а на конец февраля", req: Request{Text: "а на конец февраля?"}, before: "курс евро на 15 января", plan: eurFebPlan},
		{name: "documents S1 (understood: expansion + answer)", req: Request{Text: "что в договоре с Техснабом про штрафы"}, docs: true,
			answer: "За просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки, но не более 10% стоимости партии [2]."},
		{name: "knowledge base (understood)", req: Request{Text: "что такое акт сверки"},
			answer: "Акт сверки — документ, которым стороны подтверждают состояние взаимных расчётов [1]."},
		{name: "1C deep analysis (guarded discovery)", req: Request{Text: "как менялись продажи ООО «Альфа» по месяцам первого квартала?"},
			plan: string(deepJSON), answer: "**Продажи ООО «Альфа» в первом квартале**\n\nПродажи по контрагенту шли в каждом месяце квартала [1]."},
		{name: "clarification (S5)", req: Request{Text: "сделай отчёт по долгам"}, plan: clarify},
		{name: "bad plan twice: repair, then the parser's decision", req: Request{Text: vagueReceivables}, plan: "не знаю",
			answer: "Ставка НДС с 2026 года — 22% [1]."},
		{name: "facts + answer LLM", req: Request{Text: "какой курс доллара и ключевая ставка на 14 марта?"}, plan: composite,
			answer: "**Курс и ставка**\n\nКурс доллара — 81,1134 ₽ [1], ключевая ставка — 15,50% [2]."},
	}
	count := o200k(b)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s := fakes.NewTestLLM(b, fakes.LLMOptions{
				Script: map[string][]fakes.Reply{"plan": {{Content: c.plan}}, "answer": {{Content: c.answer}}, "docs": {{Content: c.answer}},
					"other": {{Content: expansion}}},
				Usage: func(r *fakes.Request, content string) (prompt, completion int) {
					for _, m := range r.Messages {
						prompt += count(m.Content) + 4 // the chat format's per-message overhead
					}
					return prompt, count(content)
				},
			})
			a := pipelineAgent(b, s, func(o *Options) { o.PlanCacheTTL = -1 })
			req := c.req
			req.UserID, req.ChatID = 21, 21
			ctx := context.Background()
			if c.docs {
				if _, err := a.Upload(ctx, req, File{Name: "dogovor.pdf", Size: int64(len(contract())), Data: contract()}); err != nil {
					b.Fatal(err)
				}
			}
			if c.before != "" {
				if _, err := a.Answer(ctx, Request{UserID: 21, ChatID: 21, Text: c.before}); err != nil {
					b.Fatal(err)
				}
			}
			var calls, prompt, completion int
			s.ResetSpent()
			start := time.Now()
			for b.Loop() {
				ans, err := a.Answer(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				calls += ans.Debug.LLMCalls
				prompt += ans.Debug.PromptTokens
				completion += ans.Debug.CompletionTokens
			}
			elapsed := time.Since(start)
			n := float64(b.N)
			b.ReportMetric(float64((elapsed-s.Spent()).Microseconds())/n/1000, "own-ms/op")
			b.ReportMetric(float64(calls)/n, "llm-calls/op")
			b.ReportMetric(float64(prompt)/n, "prompt-tokens/op")
			b.ReportMetric(float64(completion)/n, "completion-tokens/op")
		})
	}
}
