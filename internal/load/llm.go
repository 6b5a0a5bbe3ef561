package load

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/finbot/finbot/internal/fakes"
)

// newLLM starts the LLM stand-in (internal/fakes), unrecorded (a run measures memory). It
// recognises each call by its prompt — the planner, the answer over facts, the document
// answer, small talk, the clarifying question, query expansion — and answers each the way a
// good model would (respond): the planner with a plan that fits the question, the answer LLM
// only with figures from its facts. Every answer waits latency before its first byte; a
// streamed one then arrives in chunks, gap apart.
func newLLM(latency time.Duration, chunks int, gap time.Duration) *fakes.LLM {
	return fakes.NewLLM(fakes.LLMOptions{Key: llmKey, Latency: latency, Chunks: max(chunks, 1), ChunkGap: gap, Unrecorded: true,
		Classify: func(r *fakes.Request) string { kind, _ := respond(prompt(r)); return kind },
		Respond: func(r *fakes.Request) fakes.Reply {
			_, content := respond(prompt(r))
			return fakes.Reply{Content: content}
		},
		Usage: func(r *fakes.Request, content string) (int, int) {
			return len(prompt(r)) / 4, len(content) / 4
		}})
}

// prompt is every message of a call, one after another.
func prompt(r *fakes.Request) string {
	var all strings.Builder
	for _, m := range r.Messages {
		all.WriteString(m.Content)
		all.WriteString("\n")
	}
	return all.String()
}

var (
	questionRe = regexp.MustCompile(`(?s)Вопрос пользователя:\s*<<<\s*(.*?)\s*>>>`)
	summaryRe  = regexp.MustCompile(`(?s)Контекст предыдущего хода:\s*<<<\s*(.*?)\s*>>>`)
	factsRe    = regexp.MustCompile(`(?s)\nФакты:\s*<<<\s*(.*?)\s*>>>`)
	todayRe    = regexp.MustCompile(`Сегодня (\d{4}-\d{2}-\d{2})`)
)

// respond names the kind of call and gives the content a sensible model would return.
func respond(prompt string) (kind, content string) {
	switch {
	case strings.Contains(prompt, "Ты — планировщик"):
		return "planner", planFor(lastMatch(questionRe, prompt), lastMatch(summaryRe, prompt), today(prompt))
	case strings.Contains(prompt, "\nФакты:"):
		return "answer", answerFromFacts(lastMatch(factsRe, prompt))
	case strings.Contains(prompt, "Источник [1]"):
		return "docs", "Коротко: определение, назначение и порядок оформления приведены в статье базы знаний [1]. Подробности — по ссылке на источник."
	case strings.Contains(prompt, "слишком общее"):
		return "clarify", "Уточните, пожалуйста, что нужно: курс валюты, ключевая ставка, долги по данным 1С или термин учёта?"
	case strings.Contains(prompt, "Ты помогаешь искать ответ в документах"):
		return "expand", `{"queries":["акт сверки взаиморасчётов","сверка расчётов с контрагентом"]}`
	case strings.Contains(prompt, "Ты — finbot"):
		return "smalltalk", "Здравствуйте! Я finbot: подскажу официальные курсы и ключевую ставку Банка России, долги контрагентов по данным 1С и термины учёта."
	}
	return "other", "Готов помочь."
}

func lastMatch(re *regexp.Regexp, s string) string {
	all := re.FindAllStringSubmatch(s, -1)
	if len(all) == 0 {
		return ""
	}
	return all[len(all)-1][1]
}

func today(prompt string) string {
	if m := todayRe.FindStringSubmatch(prompt); m != nil {
		return m[1]
	}
	return time.Now().Format(time.DateOnly)
}

const planTail = `"fallback":{"enabled":false},"limits":{}`

// planFor is the plan a good planner makes for the load's questions (the shapes of the plans
// in agent/pipeline_test.go and the planner prompt's own examples).
func planFor(question, summary, day string) string {
	q := strings.ToLower(question)
	switch {
	case strings.Contains(q, "долж") || strings.Contains(q, "долг") || strings.Contains(q, "дебитор"):
		recipe, filters := debtsRecipe(q)
		return fmt.Sprintf(`{"intents":["ledger"],"tool_calls":[{"tool":"ledger_query","args":{"recipe":%q,"filters":%s}}],%s,"render_style":"TABLE","confidence":0.93,"question_mode":"direct","ledger":{"recipe":%q,"filters":%s}}`,
			recipe, filters, planTail, recipe, filters)
	case currency(q) != "" || strings.Contains(q, "курс") || (summary != "" && currency(strings.ToLower(summary)) != ""):
		code := currency(q)
		if code == "" {
			code = currency(strings.ToLower(summary))
		}
		if code == "" {
			code = "USD"
		}
		date := day
		if strings.Contains(q, "конец февраля") {
			date = "2026-02-28"
		}
		return fmt.Sprintf(`{"intents":["rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":%q,"codes":[%q]}}],%s,"render_style":"SHORT","confidence":0.9}`,
			date, code, planTail)
	case strings.Contains(q, "ставк"):
		return `{"intents":["key_rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"key_rate"}}],` + planTail + `,"render_style":"SHORT","confidence":0.95}`
	case strings.Contains(q, "что такое") || strings.Contains(q, "чем отлича") || strings.Contains(q, "акт сверки"):
		return fmt.Sprintf(`{"intents":["kb"],"tool_calls":[{"tool":"search_general_kb","args":{"query":%q}}],%s,"render_style":"SHORT","confidence":0.9}`, question, planTail)
	case aboutDocuments(q):
		return fmt.Sprintf(`{"intents":["docs"],"tool_calls":[{"tool":"search_user_documents","args":{"query":%q}}],%s,"render_style":"SHORT","confidence":0.88}`, question, planTail)
	case strings.Contains(q, "помоги") || strings.Contains(q, "отчёт") || strings.Contains(q, "отчет") || strings.Contains(q, "справк"):
		return `{"intents":["clarify"],"tool_calls":[],` + planTail + `,"render_style":"SHORT","confidence":0.8,"clarification":"Что именно нужно: курс валюты, ключевая ставка или данные 1С?","clarification_options":["Курс доллара","Ключевая ставка","Кто нам должен"]}`
	}
	return `{"intents":["smalltalk"],"tool_calls":[],` + planTail + `,"render_style":"SHORT","confidence":0.9}`
}

// aboutDocuments reports whether a question asks about the documents the load's users upload.
func aboutDocuments(q string) bool {
	for _, w := range []string{"договор", "документ", "акте ", "акту ", "записк", "командировк", "сальдо", "пени"} {
		if strings.Contains(q, w) {
			return true
		}
	}
	return false
}

func currency(q string) string {
	for word, code := range map[string]string{"доллар": "USD", "евро": "EUR", "юан": "CNY", "usd": "USD", "eur": "EUR", "cny": "CNY"} {
		if strings.Contains(q, word) {
			return code
		}
	}
	return ""
}

// debtsRecipe is the ledger recipe and filters (JSON) of the load's questions about debts
// (q lower-cased): who owes us, or whom we owe, on a date or today.
func debtsRecipe(q string) (recipe, filters string) {
	recipe, filters = "list_receivables_counterparties", "{}"
	if strings.Contains(q, "кому") || strings.Contains(q, "мы долж") {
		recipe = "list_payables_counterparties"
	}
	if strings.Contains(q, "31 марта") {
		filters = `{"as_of_date":"2026-03-31"}`
	}
	return recipe, filters
}

// answerFromFacts phrases the facts without inventing anything: a heading, then the facts'
// own lines, so every figure in it is one the post-check can find.
func answerFromFacts(facts string) string {
	var lines []string
	for _, l := range strings.Split(facts, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
		if len(lines) == 6 {
			break
		}
	}
	if len(lines) == 0 {
		return "**Ответ**\n\nДанных для ответа нет."
	}
	return "**Ответ**\n\n" + strings.Join(lines, "\n")
}
