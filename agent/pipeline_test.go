package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/dialog"
	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/ledger/probes"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// newScripted is an OpenAI-compatible stand-in that replays script by the kind of call it
// recognises from the prompt (fakes.CallKind: "plan", "answer", "docs", "other"); a kind whose
// script is used up repeats its last reply, one without a script gets a filler. It records
// every request.
func newScripted(t testing.TB, script map[string][]fakes.Reply) *fakes.LLM {
	return fakes.NewTestLLM(t, fakes.LLMOptions{Script: script})
}

// pipelineNow is the clock of the pipeline tests: Thursday 30.04.2026, noon in Moscow.
var pipelineNow = func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }

var keyRatePoints = []cbr.KeyRatePoint{
	{Date: msk(2025, 10, 27), Rate: dec("16.50")}, {Date: msk(2026, 2, 16), Rate: dec("15.50")},
	{Date: msk(2026, 4, 27), Rate: dec("15.50")},
}

// pipelineRates is the Bank of Russia of the pipeline tests.
var pipelineRates = fakeRates{
	DailyFunc: func(_ context.Context, d time.Time) (cbr.Daily, error) {
		if d.After(msk(2026, 3, 15)) {
			d = msk(2026, 3, 14) // the fake's data ends there; the date is not what these tests check
		}
		return daily(d)
	},
	KeyRateFunc: func(_ context.Context, from, to time.Time) (cbr.KeyRates, error) {
		var in []cbr.KeyRatePoint
		for _, p := range keyRatePoints {
			if !p.Date.Before(from) && !p.Date.After(to) {
				in = append(in, p)
			}
		}
		return cbr.KeyRates{From: from, To: to, Points: in}, nil
	},
	NewsFunc: func(context.Context, time.Time, time.Time) (cbr.News, error) { return cbr.News{}, nil },
}

// testDeadline is the deadline of the stand-in LLM calls, the planner and the tools in the
// agent's tests that expect them to succeed. It is generous: a call that missed its deadline
// on a loaded machine would change the route or the answer a test checks. Tests of a timeout
// shorten a deadline (pipelineAgentDeadlines) and script a reply that comes after it.
const testDeadline = 30 * time.Second

// pipelineAgent is the whole agent as main builds it with an LLM: planner, answer LLM, the
// demo ledger, the Bank of Russia fake, documents and the sample knowledge base, all talking
// to one scripted stand-in through the real LLM client.
func pipelineAgent(t testing.TB, s *fakes.LLM, opts ...func(*Options)) *Agent {
	t.Helper()
	return pipelineAgentDeadlines(t, s, testDeadline, testDeadline, opts...)
}

// pipelineAgentDeadlines is pipelineAgent with the LLM client's deadline of each call and the
// planner's own deadline set, for the tests of a timeout.
func pipelineAgentDeadlines(t testing.TB, s *fakes.LLM, llmDeadline, planDeadline time.Duration, opts ...func(*Options)) *Agent {
	t.Helper()
	return wholeAgent(t, wiring{now: pipelineNow, llmURL: s.URL(), llmDeadline: llmDeadline, planDeadline: planDeadline}, opts...)
}

// wiring is what the tests of the whole agent vary.
type wiring struct {
	now                       func() time.Time
	llmURL                    string                         // the LLM (planner and answers); none for ""
	llmDeadline, planDeadline time.Duration                  // of one LLM call and of the planner; testDeadline for 0
	source                    func(*onec.Demo) runner.Source // the 1C source over the demo base; the base itself for nil
	guard                     llm.Guard                      // the LLM client's (the anonymiser); none for nil
}

// wholeAgent is the agent over the demo ledger, the rates stand-in and the sample knowledge
// base, with an in-memory history and library, on the day w.now gives; opts adjust its options.
func wholeAgent(t testing.TB, w wiring, opts ...func(*Options)) *Agent {
	t.Helper()
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	var src runner.Source = d
	if w.source != nil {
		src = w.source(d)
	}
	kbLib := library.New(docstore.NewMemory(), nil, library.Options{})
	if _, _, err := kb.Ingest(t.Context(), kbLib, kb.Sample()); err != nil {
		t.Fatal(err)
	}
	deps := Deps{History: history.NewMemory(100, history.Limits{MaxTurns: 20, MaxChars: 8000, TTL: time.Hour}),
		Rates: pipelineRates, Ledger: runner.NewLane(src, runner.Options{Now: w.now, Organization: d.MainOrganization()}),
		Library: library.New(docstore.NewMemory(), nil, library.Options{Now: uploadClock()}), KB: kbLib}
	if w.llmURL != "" {
		for _, d := range []*time.Duration{&w.llmDeadline, &w.planDeadline} {
			if *d == 0 {
				*d = testDeadline
			}
		}
		c := llm.New(llm.Options{BaseURL: w.llmURL, APIKey: "k", Model: "m", Timeout: w.llmDeadline, BreakerTimeout: time.Minute, Guard: w.guard})
		deps.LLM, deps.Planner = c, plan.NewPlanner(c, plan.Options{Timeout: w.planDeadline})
	}
	o := Options{Now: w.now, LedgerAccess: func(int64, int64) bool { return true }, ToolTimeout: testDeadline}
	for _, f := range opts {
		f(&o)
	}
	return New(deps, o)
}

const (
	receivablesPlan = `{"intents":["ledger"],"tool_calls":[{"tool":"ledger_query","args":{"recipe":"list_receivables_counterparties","filters":{"as_of_date":"2026-03-31"}}}],"fallback":{"enabled":false},"limits":{},"render_style":"TABLE","confidence":0.93,"question_mode":"direct","ledger":{"recipe":"list_receivables_counterparties","filters":{"as_of_date":"2026-03-31"}}}`
	eurFebPlan      = `{"intents":["rate"],"entities":[{"type":"currency","name":"евро","value":"EUR"}],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"2026-02-28","codes":["EUR"]}}],"fallback":{"enabled":false},"limits":{},"render_style":"SHORT","confidence":0.9}`
	penaltiesPlan   = `{"intents":["docs"],"tool_calls":[{"tool":"search_user_documents","args":{"query":"штрафы и пени по договору с Техснабом"}},{"tool":"search_user_documents","args":{"query":"неустойка за просрочку поставки"}}],"fallback":{"enabled":false},"limits":{},"render_style":"BULLETS","confidence":0.88}`
)

// vagueReceivables names no side of the settlements («картина с расчётами»): the parser is unsure of it, so the
// planner is asked, and receivablesPlan answers it. The planner's tests ask it; questions the
// parser is sure of never reach the planner.
const vagueReceivables = "Какая картина с расчётами на 31 марта?"

// vagueQuestion names nothing the parser knows: it is unsure, asks the planner, and a repeat
// in the same chat is not read as a follow-up of the answer before (the plan cache's tests).
const vagueQuestion = "Какая у нас картина на 31 марта в целом, что скажешь по всем направлениям?"

// expansion is the stand-in's reply to the query expansion of a document search.
const expansion = `{"queries":["штрафы и пени по договору с Техснабом","неустойка за просрочку поставки"]}`

// The regression set: with scripted plans the whole pipeline gives stable answers, and each costs
// at most the planner and the answer call. Stable means the same: the set runs twice, on fresh
// agents without the plan cache, and the answers must be identical word for word.
func TestRegressionSet(t *testing.T) {
	var runs [2][]string
	for i := range runs {
		runs[i] = regressionSet(t)
	}
	if len(runs[0]) == 0 {
		t.Fatal("the regression set answered nothing")
	}
	if diff := cmp.Diff(runs[0], runs[1]); diff != "" {
		t.Errorf("answers differ between two runs (-first +second):\n%s", diff)
	}
}

// regressionSet asks the regression set of a fresh agent without the plan cache, checks each
// answer and returns their texts.
func regressionSet(t *testing.T) []string {
	t.Helper()
	s := newScripted(t, map[string][]fakes.Reply{
		"docs":  {{Content: "За просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки, но не более 10% стоимости партии [2]."}},
		"other": {{Content: expansion}},
	})
	a := pipelineAgent(t, s, func(o *Options) { o.PlanCacheTTL = -1 })
	var texts []string
	me := Request{UserID: 5, ChatID: 5}
	upload(t, a, me, "dogovor.pdf", contract())

	// The deterministic /debts answer is what the planned one must equal.
	want, err := a.Answer(t.Context(), Request{UserID: 99, ChatID: 99, Command: "debts", Text: "31.03.2026"})
	if err != nil {
		t.Fatal(err)
	}

	steps := []struct {
		text      string
		plan      string // the planner's scripted reply; "" = no planner call expected
		scenario  Scenario
		contains  []string
		llmCalls  int
		handler   string
		equalText string
	}{
		// The parser is unsure: the planner decides, with the same answer as /debts. (Asked
		// first: after a list of debtors it would continue that dialog without the planner.)
		{vagueReceivables, receivablesPlan, OneC, []string{"₽"}, 1, "ledger", want.Text},
		// The parser is sure: no LLM, the same answer.
		{"кто нам должен на 31 марта", "", OneC, []string{"₽"}, 0, "", want.Text},
		{"курс евро на 15 января", "", S2General, []string{"EUR", "88,1000"}, 0, "", ""},
		// A follow-up continues the dialog's state: the currency kept, the date replaced, no LLM.
		{"а на конец февраля?", "", S2General, []string{"EUR", "28.02.2026", "88,1000"}, 0, "", ""},
		// Understood as the user's document: the query expansion and the answer, no planner.
		{"что в договоре с Техснабом про штрафы", "", S1Search, []string{"0,1%", "10%"}, 2, "", ""},
		{"какая ключевая ставка", "", S2General, []string{"15,50%", "16.02.2026"}, 0, "", ""},
	}
	for _, st := range steps {
		if st.plan != "" {
			s.SetReplies("plan", fakes.Reply{Content: st.plan})
		}
		before := s.Count("plan")
		ans := ask(t, a, me, st.text)
		texts = append(texts, ans.Text)
		if ans.Scenario != st.scenario {
			t.Errorf("%q: scenario %s, want %s", st.text, ans.Scenario, st.scenario)
		}
		for _, w := range st.contains {
			if !strings.Contains(ans.Text, w) {
				t.Errorf("%q: answer lacks %q:\n%s", st.text, w, ans.Text)
			}
		}
		if ans.Debug.LLMCalls != st.llmCalls {
			t.Errorf("%q: %d LLM calls, want %d", st.text, ans.Debug.LLMCalls, st.llmCalls)
		}
		if planned := s.Count("plan") - before; (st.plan != "") != (planned == 1) || planned > 1 {
			t.Errorf("%q: %d planner calls", st.text, planned)
		}
		if st.handler != "" && (ans.Debug.Plan == nil || ans.Debug.Plan.Handler != st.handler) {
			t.Errorf("%q: plan debug %+v, want handler %s", st.text, ans.Debug.Plan, st.handler)
		}
		if st.equalText != "" && unescape(st.equalText) != ans.Text {
			t.Errorf("%q: planned answer differs from /debts:\n%s\n---\n%s", st.text, ans.Text, unescape(st.equalText))
		}
		if len(ans.Sources) == 0 {
			t.Errorf("%q: no sources", st.text)
		}
	}
	// The standalone question was planned without a summary.
	if p := s.Prompt("plan", 0); strings.Contains(p, "Предыдущий вопрос") {
		t.Error("a standalone question was given a previous-turn summary")
	}
	// The document question the parser understood expanded its query once.
	if s.Count("other") != 1 {
		t.Errorf("%d calls of other kinds (expansion?), want 1", s.Count("other"))
	}
	return texts
}

// The same question in the same context reuses its plan.
func TestPlanCache(t *testing.T) {
	s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: receivablesPlan}}})
	a := pipelineAgent(t, s)
	for range 3 {
		ask(t, a, Request{UserID: 1, ChatID: 1}, vagueQuestion)
	}
	if n := s.Count("plan"); n != 1 {
		t.Errorf("planner called %d times for the same question, want 1", n)
	}
	ans := ask(t, a, Request{UserID: 1, ChatID: 1}, "какая у нас картина на 31 марта в целом что скажешь по всем направлениям")
	if ans.Debug.Plan == nil || ans.Debug.Plan.Source != "cache" {
		t.Errorf("normalised repeat: plan debug %+v, want source cache", ans.Debug.Plan)
	}
	// issue #19: a plan is one conversation's — another user, the same user in a group, a group
	// member: each is planned anew, never served another's plan.
	for i, req := range []Request{{UserID: 2, ChatID: 2}, {UserID: 1, ChatID: -100, Group: true}, {UserID: 3, ChatID: -100, Group: true}} {
		ans := ask(t, a, req, vagueQuestion)
		if ans.Debug.Plan == nil || ans.Debug.Plan.Source == "cache" {
			t.Errorf("%+v: plan debug %+v, want a plan of its own", req, ans.Debug.Plan)
		}
		if n := s.Count("plan"); n != 2+i {
			t.Errorf("%+v: planner called %d times in all, want %d", req, n, 2+i)
		}
	}
}

// The planner's misbehaviours, on a question the parser is unsure of: a plan the model repairs
// answers; anything else (a plan it cannot repair, an error, a timeout) leaves the parser's own
// decision standing — here the knowledge base, grounded in it (the model's text only when it
// cites it and passes the post-check; else quotes), never the stand-in's filler nor a figure the
// model made up. The planner's default plan is not used: the parser's decision is the fallback.
func TestPlannerMisbehaviour(t *testing.T) {
	invalid := `{"intents":["ledger"],"tool_calls":[{"tool":"drop_table","args":{}}],"render_style":"BULLETS","confidence":0.9}`
	const invented = "1 234 567,89"
	tests := []struct {
		name       string
		plans      []fakes.Reply
		docs       []fakes.Reply // the answer over the knowledge base; none = the stand-in's filler
		wantSource string        // Debug.Route.Source
		wantCalls  int           // planner calls
		wantTag    string        // Debug.Degraded of the parser's fallback
	}{
		{"invalid JSON, then repaired", []fakes.Reply{{Content: "Вот план: {intents: LEDGER"}, {Content: receivablesPlan}}, nil, "planner_repair", 2, ""},
		{"unknown tool twice: the parser decides", []fakes.Reply{{Content: invalid}}, nil, "rules", 2, "planner_invalid"},
		{"low confidence twice: the parser decides", []fakes.Reply{{Content: strings.Replace(receivablesPlan, "0.93", "0.2", 1)}},
			[]fakes.Reply{{Content: "ООО «Альфа» должна нам " + invented + " ₽ [1]."}}, "rules", 2, "planner_invalid"},
		{"200 with an error object: the parser decides", []fakes.Reply{{ErrorIn200: 502}}, nil, "rules", 1, "planner_unavailable"},
		{"429 with Retry-After: the parser decides", []fakes.Reply{{Status: 429, Header: map[string]string{"Retry-After": "7"}}}, nil, "rules", 1, "planner_unavailable"},
		{"503: the parser decides", []fakes.Reply{{Status: 503}}, nil, "rules", 1, "planner_unavailable"},
		{"timeout: the parser decides", []fakes.Reply{{Delay: time.Hour}}, nil, "rules", 1, "planner_unavailable"}, // the planner's deadline is 1 s
		{"no choices: repaired", []fakes.Reply{{Raw: `{"id":"gen-1","object":"chat.completion","choices":[]}`}, {Content: receivablesPlan}}, nil, "planner_repair", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScripted(t, map[string][]fakes.Reply{"plan": tt.plans, "docs": tt.docs})
			planDeadline := testDeadline
			if slices.ContainsFunc(tt.plans, func(r fakes.Reply) bool { return r.Delay > 0 }) {
				planDeadline = time.Second
			}
			a := pipelineAgentDeadlines(t, s, testDeadline, planDeadline)
			ans := ask(t, a, Request{UserID: 1, ChatID: 1}, vagueReceivables)
			if ans.Debug.Route.Source != tt.wantSource {
				t.Errorf("route source %q, want %q (plan debug %+v)", ans.Debug.Route.Source, tt.wantSource, ans.Debug.Plan)
			}
			if n := s.Count("plan"); n != tt.wantCalls {
				t.Errorf("%d planner calls, want %d", n, tt.wantCalls)
			}
			if tt.wantTag == "" {
				if !strings.Contains(ans.Text, "₽") {
					t.Errorf("reply lacks the ledger figures:\n%s", ans.Text)
				}
				return
			}
			if !contains(ans.Debug.Degraded, tt.wantTag) {
				t.Errorf("degraded %v, want %s", ans.Debug.Degraded, tt.wantTag)
			}
			// The parser's decision: «картина с расчётами» names no side, so the user is asked
			// which (both lists as buttons), as with no LLM — never an article that shares words.
			if ans.Scenario != S5Clarify || !strings.Contains(ans.Text, "кто должен нам") || len(ans.Buttons) == 0 {
				t.Errorf("scenario %s/%s %q, want the question back of which side of the settlements", ans.Scenario, ans.Kind, ans.Text)
			}
			if strings.Contains(ans.Text, "Готов помочь") || strings.Contains(ans.Text, invented) {
				t.Errorf("an ungrounded model answer reached the user:\n%s", ans.Text)
			}
		})
	}
}

// After a 429 with Retry-After the LLM is not asked again until then: the next questions are
// answered at once, by the rules and the deterministic handlers, as when the LLM is
// unavailable, and no request reaches the service.
func TestRetryAfterDegradesAtOnce(t *testing.T) {
	s := newScripted(t, map[string][]fakes.Reply{"plan": {{Status: 429, Header: map[string]string{"Retry-After": "30"}}, {Content: receivablesPlan}}})
	a := pipelineAgent(t, s)
	me := Request{UserID: 1, ChatID: 1}
	for i, q := range []struct{ text, want string }{
		{vagueReceivables, ""}, // unsure: the planner is asked and answers 429
		{"Скажи, кто нам должен на 31.03.2026", "₽"},
		{"курс евро на 15 января", "EUR"},
		// A follow-up the rules can continue is not planned while the LLM waits.
		{"а на конец февраля?", "28.02.2026"},
	} {
		ans := ask(t, a, me, q.text)
		if ans.Debug.Route.Source == "planner" || !strings.Contains(ans.Text, q.want) {
			t.Errorf("question %d %q: route %q, reply lacks %q:\n%s", i, q.text, ans.Debug.Route.Source, q.want, ans.Text)
		}
		if i == 0 && !contains(ans.Debug.Degraded, "planner_unavailable") {
			t.Errorf("question %d: degraded %v, want planner_unavailable", i, ans.Debug.Degraded)
		}
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("the LLM got %d requests, want only the one answered 429", n)
	}
}

// A planner that talks nonsense only adds nothing: a question the parser is sure of never
// reaches it, and for one it is unsure of, the parser's decision stands.
func TestNonsensePlannerLeavesTheParsersDecision(t *testing.T) {
	s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: "не знаю"}}, "answer": {{Content: "**НДС**\n\nСтавка НДС — 22% [1]."}}})
	a := pipelineAgent(t, s)
	ans := ask(t, a, Request{UserID: 1, ChatID: 1}, "расскажи про ставку НДС в 2026 году")
	if n := s.Count("plan"); n != 0 || ans.Debug.Route.Source != "rules" || strings.TrimSpace(ans.Text) == "" {
		t.Fatalf("a sure question: %d planner calls, route %+v, reply %q", n, ans.Debug.Route, ans.Text)
	}
	ans = ask(t, a, Request{UserID: 1, ChatID: 1}, vagueReceivables)
	if n := s.Count("plan"); n != 2 || ans.Debug.Route.Source != "rules" || !contains(ans.Debug.Degraded, "planner_invalid") {
		t.Fatalf("an unsure question: %d planner calls (want a call and a repair), route %+v, degraded %v",
			n, ans.Debug.Route, ans.Debug.Degraded)
	}
}

// A composite plan runs through the executor; the answer LLM phrases the facts under the
// post-check: an invented figure gets one regeneration, then the deterministic rendering.
func TestFactsAnswerPostCheck(t *testing.T) {
	composite := `{"intents":["rate","key_rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"2026-03-14","codes":["USD"]}},{"tool":"fetch_cbr_data","args":{"mode":"key_rate","date":"2026-03-14"}}],"fallback":{"enabled":false},"limits":{},"render_style":"BULLETS","confidence":0.9}`
	good := "**Курс и ставка**\n\nКурс доллара — 81,1134 ₽ [1], ключевая ставка — 15,50% [2]."
	bad := "**Курс и ставка**\n\nКурс доллара — 95,0000 ₽ [1], ключевая ставка — 15,50% [2]."
	tests := []struct {
		name    string
		answers []fakes.Reply
		how     string
		calls   int
	}{
		{"passes", []fakes.Reply{{Content: good}}, "llm", 2},
		{"invented figure, regenerated", []fakes.Reply{{Content: bad}, {Content: good}}, "llm_regenerated", 3},
		{"invented figure twice: deterministic", []fakes.Reply{{Content: bad}, {Content: bad}}, "deterministic", 3},
		{"answer LLM down: deterministic", []fakes.Reply{{Status: 502}}, "deterministic", 2},
		// issue #19: a reply of 100 KB is not sent in 26 messages: the facts are, rendered whole.
		{"100 KB reply: deterministic", []fakes.Reply{{Content: good + strings.Repeat(" Курс доллара — 81,1134 ₽ [1].", 3500)}}, "deterministic", 2},
		// Links the facts do not hold are dropped; the words stay.
		{"foreign link dropped", []fakes.Reply{{Content: good + " Подробнее — [на сайте ЦБ](https://cbr-kurs.example.com/usd) и https://phish.example/x."}}, "llm", 2},
		// Replies with letters that render as nothing: a link reference definition, an HTML comment,
		// only a foreign link; regenerated, then rendered from the facts.
		{"renders empty twice: deterministic", []fakes.Reply{{Content: "[1]: https://www.cbr.ru/ \"Курс 81,1134\""}, {Content: "<!-- Курс доллара 81,1134 -->"}}, "deterministic", 3},
		{"only a foreign link, then good", []fakes.Reply{{Content: "https://phish.example/81"}, {Content: good}}, "llm_regenerated", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: composite}}, "answer": tt.answers})
			a := pipelineAgent(t, s)
			ans := ask(t, a, Request{UserID: 1, ChatID: 1}, "какой курс доллара и ключевая ставка на 14 марта?")
			if ans.Debug.Plan == nil || ans.Debug.Plan.Handler != "facts" {
				t.Fatalf("plan debug %+v, want the facts handler", ans.Debug.Plan)
			}
			if ans.Debug.Plan.Answer != tt.how {
				t.Errorf("answer by %q, want %q (post-check %v)", ans.Debug.Plan.Answer, tt.how, ans.Debug.Plan.PostCheck)
			}
			if strings.Contains(ans.Text, "95,0000") {
				t.Errorf("an invented figure reached the user:\n%s", ans.Text)
			}
			for _, w := range []string{"81,1134", "15,50"} {
				if !strings.Contains(ans.Text, w) {
					t.Errorf("answer lacks %q:\n%s", w, ans.Text)
				}
			}
			if len(ans.Sources) < 1 {
				t.Errorf("sources %v: footnotes are appended by code", ans.Sources)
			}
			if ans.Debug.LLMCalls != tt.calls {
				t.Errorf("%d LLM calls, want %d", ans.Debug.LLMCalls, tt.calls)
			}
			if strings.Contains(ans.Text, "example") || len([]rune(ans.Text)) > phrase.MaxAnswerRunes {
				t.Errorf("a foreign link or an uncapped reply reached the user (%d characters):\n%.500s", len([]rune(ans.Text)), ans.Text)
			}
			if tt.name == "foreign link dropped" && !strings.Contains(ans.Text, "на сайте ЦБ") {
				t.Errorf("a dropped link's words must stay:\n%s", ans.Text)
			}
			if tt.how == "llm_regenerated" && strings.Contains(tt.name, "figure") && !strings.Contains(s.Prompt("answer", 1), "95,0000") {
				t.Errorf("the regeneration prompt does not name the refused figure:\n%s", s.Prompt("answer", 1))
			}
		})
	}
}

// A vague question gets one precise clarifying question with the plan's options as buttons.
func TestPlanClarification(t *testing.T) {
	clarify := `{"intents":["clarify"],"tool_calls":[],"fallback":{"enabled":false},"limits":{},"render_style":"SHORT","confidence":0.8,"clarification":"Какой отчёт нужен: по дебиторке или по кредиторке?","clarification_options":["Кто нам должен","Кому должны мы"]}`
	s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: clarify}}})
	a := pipelineAgent(t, s)
	ans := ask(t, a, Request{UserID: 1, ChatID: 1}, "сделай отчёт по долгам")
	if ans.Scenario != S5Clarify || !strings.Contains(ans.Text, "по дебиторке или по кредиторке") || len(ans.Buttons) != 2 || ans.Buttons[0].Text != "Кто нам должен" {
		t.Errorf("clarification = %s %q %+v", ans.Scenario, ans.Text, ans.Buttons)
	}
}

// Shortcuts and commands never call the LLM.
func TestShortcutsSkipThePlanner(t *testing.T) {
	s := newScripted(t, nil)
	a := pipelineAgent(t, s)
	for _, req := range []Request{
		{UserID: 1, ChatID: 1, Text: "курс доллара"},
		{UserID: 1, ChatID: 1, Text: "Ключевая ставка"},
		{UserID: 1, ChatID: 1, Text: "какой курс юаня на 1 марта"},
		{UserID: 1, ChatID: 1, Command: "rate", Text: "USD"},
		{UserID: 1, ChatID: 1, Command: "debts", Text: "31.03.2026"},
		{UserID: 1, ChatID: 1, Text: "?"},
	} {
		ans, err := a.Answer(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if ans.Debug.LLMCalls != 0 || strings.TrimSpace(ans.Text) == "" {
			t.Errorf("%+v: %d LLM calls, answer %q", req, ans.Debug.LLMCalls, ans.Text)
		}
	}
}

// What the parser is sure of needs no planner: the planner is asked only where it is unsure.
func TestSureDecisionsSkipThePlanner(t *testing.T) {
	p := understand.NewParser()
	for text, want := range map[string]bool{
		"курс доллара":                  true,
		"Какой курс евро на 15 января?": true,
		"ключевая ставка":               true,
		"привет":                        true,
		"кто нам должен на 31 марта":    true,
		"что такое акт сверки":          true,
		"а в евро?":                     false, // a follow-up: planned with the previous turn
		"расскажи подробнее о возможностях бюджетирования в компании": false,
	} {
		if got := p.Parse(understand.Input{Text: text, Now: pipelineNow()}).Sure; got != want {
			t.Errorf("Parse(%q).Sure = %v, want %v", text, got, want)
		}
	}
}

// The memory gate: explicit follow-ups get the previous turn; doubtful ones do not.
func TestMemoryGate(t *testing.T) {
	hist := []history.Turn{
		{Role: dialog.User, Text: "кто нам должен на 31 марта"},
		{Role: dialog.Assistant, Text: "**Дебиторская задолженность на 31.03.2026**\n\n- ООО «Альфа» — 120 000,00 ₽"},
	}
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"а по Альфе?", true},
		{"а в евро?", true},
		{"А на конец февраля?", true},
		{"и ещё по Бете", true},
		{"по Альфе", false},
		{"какая ключевая ставка", false},
		{"а теперь расскажи подробно, как в бухгалтерском учёте отражается поступление товаров от поставщика", false},
	} {
		s := plan.Memory(tt.text, hist)
		if (s != "") != tt.want {
			t.Errorf("plan.Memory(%q) = %q, want summary: %v", tt.text, s, tt.want)
		}
		if s != "" && (!strings.Contains(s, "кто нам должен на 31 марта") || !strings.Contains(s, "Альфа")) {
			t.Errorf("summary %q lacks the previous turn", s)
		}
	}
	if s := plan.Memory("а по Альфе?", nil); s != "" {
		t.Errorf("a follow-up without history got %q", s)
	}
}

// Without an LLM, a rates follow-up keeps what the previous question said.
func TestFollowUpWithoutLLM(t *testing.T) {
	a := New(Deps{History: history.NewMemory(100, history.Limits{MaxTurns: 20, MaxChars: 8000, TTL: time.Hour}), Rates: pipelineRates},
		Options{Now: pipelineNow})
	me := Request{UserID: 3, ChatID: 3}
	ask(t, a, me, "курс евро на 15 января")
	ans := ask(t, a, me, "а на конец февраля?")
	for _, w := range []string{"EUR", "28.02.2026"} {
		if !strings.Contains(ans.Text, w) {
			t.Errorf("follow-up answer lacks %q:\n%s", w, ans.Text)
		}
	}
	if strings.Contains(ans.Text, "USD") {
		t.Errorf("follow-up lost the currency:\n%s", ans.Text)
	}
	ans = ask(t, a, me, "а в юанях?")
	for _, w := range []string{"CNY", "28.02.2026"} {
		if !strings.Contains(ans.Text, w) {
			t.Errorf("second follow-up lacks %q:\n%s", w, ans.Text)
		}
	}
}

// With a Progress callback the answer LLM streams: the callback sees the text grow, as plain
// text, and the final answer is the checked one.
func TestAnswerStreamsIntoProgress(t *testing.T) {
	composite := `{"intents":["rate","key_rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"2026-03-14","codes":["USD"]}},{"tool":"fetch_cbr_data","args":{"mode":"key_rate","date":"2026-03-14"}}],"fallback":{"enabled":false},"limits":{},"render_style":"BULLETS","confidence":0.9}`
	good := "**Курс и ставка**\n\nКурс доллара — 81,1134 ₽ [1], ключевая ставка — 15,50% [2]."
	bad := "**Курс и ставка**\n\nКурс доллара — 95,0000 ₽ [1], ключевая ставка — 15,50% [2]."
	for _, tt := range []struct {
		name    string
		answers []fakes.Reply
		final   string
	}{
		{"checked answer", []fakes.Reply{{Content: good}}, good},
		{"refused twice: the deterministic rendering replaces the stream", []fakes.Reply{{Content: bad}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: composite}}, "answer": tt.answers})
			a := pipelineAgent(t, s)
			var mu sync.Mutex
			var partials []string
			req := Request{UserID: 1, ChatID: 1, Text: "какой курс доллара и ключевая ставка на 14 марта?", Progress: func(p string) {
				mu.Lock()
				partials = append(partials, p)
				mu.Unlock()
			}}
			ans, err := a.Answer(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(partials) < 2 {
				t.Fatalf("progress called %d times, want the text growing", len(partials))
			}
			for i, p := range partials {
				if strings.Contains(p, "**") {
					t.Errorf("partial %d %q carries Markdown marks", i, p)
				}
				if i > 0 && tt.final != "" && !strings.HasPrefix(p, partials[i-1]) { // a regeneration restarts the text
					t.Errorf("partial %d %q does not extend %q", i, p, partials[i-1])
				}
			}
			if tt.final != "" && ans.Text != tt.final {
				t.Errorf("final %q, want %q", ans.Text, tt.final)
			}
			if tt.final == "" && (strings.Contains(ans.Text, "95,0000") || ans.Debug.Plan.Answer != "deterministic") {
				t.Errorf("final %q by %q, want the deterministic rendering", ans.Text, ans.Debug.Plan.Answer)
			}
			if ans.Debug.PromptTokens == 0 {
				t.Error("streamed usage not counted")
			}
		})
	}
}

// Nothing unchecked is shown while the answer streams (issue #6): an answer that states an
// invented figure midway, streamed a rune at a time, never shows any of that figure — nor of
// the figure's regeneration — in a progress call; the final answer is the deterministic
// fallback. A correct answer streamed the same way shows a growing prefix of itself. Both the
// facts answer and the document answer are gated.
func TestStreamShowsOnlyCheckedText(t *testing.T) {
	composite := `{"intents":["rate","key_rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"2026-03-14","codes":["USD"]}},{"tool":"fetch_cbr_data","args":{"mode":"key_rate","date":"2026-03-14"}}],"fallback":{"enabled":false},"limits":{},"render_style":"BULLETS","confidence":0.9}`
	const (
		factsGood = "**Курс и ставка**\n\nКурс доллара — 81,1134 ₽ [1], ключевая ставка — 15,50% [2]. Данные Банка России на 14 марта."
		// The invented figures stand midway, with text after them, and differ per attempt.
		factsBad1 = "**Курс и ставка**\n\nКурс доллара — 95 432,10 ₽ [1], ключевая ставка — 15,50% [2]. Данные Банка России на 14 марта."
		factsBad2 = "**Курс и ставка**\n\nКурс доллара — 81,1134 ₽ [1], ключевая ставка — 17,25% [2]. Данные Банка России на 14 марта."
		docsGood  = "За просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки [2], но не более 10% стоимости партии [2]."
		docsBad   = "За просрочку поставки Поставщик уплачивает пени 0,7% за каждый день просрочки [2], но не более 10% стоимости партии [2]."
		docsGhost = "За просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки [3], но не более 10% стоимости партии [2]."
	)
	type run struct {
		name    string
		script  map[string][]fakes.Reply
		docs    bool
		final   string   // "" = the fallback answer
		invents []string // what no progress call may show
	}
	each := func(content string) fakes.Reply { return fakes.Reply{Content: content, Chunks: len([]rune(content))} }
	runs := []run{
		{"facts/invented", map[string][]fakes.Reply{"plan": {{Content: composite}}, "answer": {each(factsBad1), each(factsBad2)}}, false, "",
			[]string{"95", "17,2", "17"}},
		{"facts/checked", map[string][]fakes.Reply{"plan": {{Content: composite}}, "answer": {each(factsGood)}}, false, factsGood, nil},
		{"documents/invented", map[string][]fakes.Reply{"plan": {{Content: penaltiesPlan}}, "docs": {each(docsBad)}}, true, "", []string{"0,7"}},
		{"documents/missing source", map[string][]fakes.Reply{"plan": {{Content: penaltiesPlan}}, "docs": {each(docsGhost)}}, true, "", []string{"[3]"}},
		{"documents/checked", map[string][]fakes.Reply{"plan": {{Content: penaltiesPlan}}, "docs": {each(docsGood)}}, true, docsGood, nil},
	}
	for _, tt := range runs {
		t.Run(tt.name, func(t *testing.T) {
			s := newScripted(t, tt.script)
			a := pipelineAgent(t, s)
			req := Request{UserID: 1, ChatID: 1, Text: "какой курс доллара и ключевая ставка на 14 марта?"}
			if tt.docs {
				upload(t, a, req, "dogovor.pdf", contract())
				req.Text = "что в договоре с Техснабом про штрафы"
			}
			var mu sync.Mutex
			var partials []string
			req.Progress = func(p string) {
				mu.Lock()
				partials = append(partials, p)
				mu.Unlock()
			}
			ans, err := a.Answer(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(partials) == 0 {
				t.Fatal("nothing streamed")
			}
			for i, p := range partials {
				for _, bad := range tt.invents {
					if strings.Contains(p, bad) {
						t.Errorf("progress %d shows %q before any check could pass it: %q", i, bad, p)
					}
				}
			}
			if tt.final != "" {
				if ans.Text != tt.final {
					t.Errorf("final %q, want %q", ans.Text, tt.final)
				}
				for i, p := range partials {
					if !strings.HasPrefix(phrase.PlainProgress(tt.final), p) || i > 0 && !strings.HasPrefix(p, partials[i-1]) {
						t.Errorf("progress %d %q is not a growing prefix of the answer", i, p)
					}
				}
				if last := partials[len(partials)-1]; len([]rune(last)) < len([]rune(phrase.PlainProgress(tt.final)))/2 {
					t.Errorf("the last progress %q shows too little of the answer", last)
				}
				return
			}
			if tt.docs {
				docsExtractive(t, ans)
			} else if ans.Debug.Plan == nil || ans.Debug.Plan.Answer != "deterministic" || !strings.Contains(ans.Text, "81,1134") {
				t.Errorf("final %q, want the deterministic rendering", ans.Text)
			}
			for _, bad := range tt.invents {
				if strings.Contains(ans.Text, bad) {
					t.Errorf("final answer shows %q:\n%s", bad, ans.Text)
				}
			}
		})
	}
}

// A planned ledger_deep question goes through guarded discovery: the plan's
// primitives run on the demo ledger, the evidence gate confirms, and the code states it before
// the model's text; an answer with an invented figure gives way to the deterministic rendering
// under the same lead.
func TestDeepAnalysisPlanned(t *testing.T) {
	const entity = "ООО «Альфа»"
	deep := deepPlan(alfaProposal(entity, plan.ToolResolveEntityReference, plan.ToolAggregateByAxis),
		probeCall(plan.ToolResolveEntityReference, plan.DiscoveryArgs{Entity: entity}),
		probeCall(plan.ToolAggregateByAxis, withEntity(plan.DiscoveryArgs{Axis: "month", DateFrom: q1.DateFrom, DateTo: q1.DateTo}, entity)))
	raw, err := json.Marshal(deep)
	if err != nil {
		t.Fatal(err)
	}
	const invented = "999 999,99"
	tests := []struct {
		name     string
		answers  []fakes.Reply
		how      string
		llmCalls int
		degraded []string
	}{
		{"phrased by the answer LLM", []fakes.Reply{{Content: "**Продажи ООО «Альфа» в первом квартале**\n\nПродажи по контрагенту шли в каждом месяце квартала [1]."}},
			"llm", 2, nil},
		{"invented figure twice: deterministic", []fakes.Reply{{Content: "**Продажи**\n\nЗа январь продано на " + invented + " ₽ [1]."}},
			"deterministic", 3, []string{"answer_llm_refused"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: string(raw)}}, "answer": tt.answers})
			a := pipelineAgent(t, s)
			ans := ask(t, a, Request{UserID: 1, ChatID: 1}, "как менялись продажи ООО «Альфа» по месяцам первого квартала?")
			pd := ans.Debug.Plan
			if pd == nil || pd.Handler != "ledger_deep" || pd.Source != "llm" || ans.Debug.Trace["discovery"] == nil {
				t.Fatalf("plan debug %+v, want the deep_analysis handler with its discovery debug", pd)
			}
			if ans.Scenario != OneC || ans.Recipe != plan.ModeDeepAnalysis {
				t.Errorf("scenario %s/%s, want %s/%s", ans.Scenario, ans.Kind, OneC, plan.ModeDeepAnalysis)
			}
			dd := ans.Debug.Trace["discovery"].(*ledger.DiscoveryDebug)
			if dd.Plan.PlanStatus != probes.PlanAllowed || dd.Evidence.EvidenceStatus != probes.EvidenceConfirmed ||
				dd.Evidence.AnswerPermission != probes.AnswerConfirmed {
				t.Errorf("plan %s, evidence %s/%s %v", dd.Plan.PlanStatus, dd.Evidence.EvidenceStatus, dd.Evidence.AnswerPermission, dd.Evidence.ReasonCodes)
			}
			if !strings.HasPrefix(ans.Text, "**Подтверждено данными 1С.**\n\n") || strings.Contains(ans.Text, "аналитический вопрос") {
				t.Errorf("answer does not open with the confirmation:\n%s", ans.Text)
			}
			// Both primitives ran, in plan order, on the lane.
			var records, calls []string
			for _, r := range pd.Records {
				records = append(records, string(r.Tool)+":"+r.Status)
			}
			for _, c := range ans.Debug.Calls {
				calls = append(calls, c.Source+":"+c.Result)
			}
			if want := []string{"resolve_entity_reference:ok", "aggregate_by_axis:ok"}; !slices.Equal(records, want) {
				t.Errorf("plan records %v, want %v", records, want)
			}
			if want := []string{"1c.resolve_entity_reference:ok", "1c.aggregate_by_axis:ok"}; !slices.Equal(calls, want) {
				t.Errorf("calls %v, want %v", calls, want)
			}
			if pd.Answer != tt.how || ans.Debug.LLMCalls != tt.llmCalls {
				t.Errorf("answer by %q with %d LLM calls, want %q with %d (post-check %v)", pd.Answer, ans.Debug.LLMCalls, tt.how, tt.llmCalls, pd.PostCheck)
			}
			if !slices.Equal(ans.Debug.Degraded, tt.degraded) {
				t.Errorf("degraded %v, want %v", ans.Debug.Degraded, tt.degraded)
			}
			if strings.Contains(ans.Text, invented) {
				t.Errorf("an invented figure reached the user:\n%s", ans.Text)
			}
			if tt.how == "deterministic" && !amountRe.MatchString(ans.Text) {
				t.Errorf("the deterministic rendering lacks the ledger's figures:\n%s", ans.Text)
			}
			if len(ans.Sources) == 0 || !strings.HasPrefix(ans.Sources[0].Title, "Данные: ") {
				t.Errorf("sources %+v, want the 1C source", ans.Sources)
			}
		})
	}

	// Without access to 1C the same question reaches no 1C data, as the recipe path.
	for _, p := range []string{string(raw), receivablesPlan} {
		s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: p}}})
		a := pipelineAgent(t, s, func(o *Options) { o.LedgerAccess = func(int64, int64) bool { return false } })
		ans := ask(t, a, Request{UserID: 2, ChatID: 2}, "как менялись продажи ООО «Альфа» по месяцам первого квартала?")
		for _, c := range ans.Debug.Calls {
			if strings.HasPrefix(c.Source, "1c.") {
				t.Errorf("a user without access reached 1C: %+v", ans.Debug.Calls)
			}
		}
		if strings.Contains(ans.Text, "Подтверждено") || amountRe.MatchString(ans.Text) {
			t.Errorf("a user without access got 1C data:\n%s", ans.Text)
		}
	}
}

// The document answer under the post-check: an invented figure is regenerated once; invented
// again, the extractive answer replaces it. The model was reached, so the answer is degraded
// as refused, not as the LLM being unavailable.
func TestDocumentAnswerPostCheck(t *testing.T) {
	const invented = "0,5%"
	good := "За просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки, но не более 10% стоимости партии [2]."
	bad := "За просрочку поставки Поставщик уплачивает пени " + invented + " за каждый день просрочки [1]."
	tests := []struct {
		name     string
		answers  []fakes.Reply
		want     string // the answer's text; "" = the extractive answer
		degraded []string
	}{
		{"invented figure, regenerated", []fakes.Reply{{Content: bad}, {Content: good}}, good, nil},
		{"invented figure twice: extractive", []fakes.Reply{{Content: bad}}, "", []string{"answer_llm_refused"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScripted(t, map[string][]fakes.Reply{"other": {{Content: expansion}}, "docs": tt.answers})
			a := pipelineAgent(t, s)
			me := Request{UserID: 5, ChatID: 5}
			upload(t, a, me, "dogovor.pdf", contract())
			ans := ask(t, a, me, "что в договоре с Техснабом про штрафы")
			if n := s.Count("docs"); n != 2 {
				t.Errorf("%d answer calls, want 2", n)
			}
			if strings.Contains(ans.Text, invented) {
				t.Errorf("the invented figure reached the user:\n%s", ans.Text)
			}
			if !strings.Contains(s.Prompt("docs", 1), invented) {
				t.Errorf("the regeneration prompt does not name the invented figure:\n%s", s.Prompt("docs", 1))
			}
			if tt.want != "" && ans.Text != tt.want {
				t.Errorf("answer:\n%s\nwant:\n%s", ans.Text, tt.want)
			}
			if tt.want == "" {
				docsExtractive(t, ans)
			}
			if !slices.Equal(ans.Debug.Degraded, tt.degraded) {
				t.Errorf("degraded %v, want %v", ans.Debug.Degraded, tt.degraded)
			}
		})
	}
}

// docsExtractive checks the extractive answer over the contract: the quote of its penalty
// clause, with the footnote to it.
func docsExtractive(t *testing.T, ans Answer) {
	t.Helper()
	if !strings.Contains(ans.Text, "\n> ") || !strings.Contains(unescape(ans.Text), "0,1%") ||
		!strings.Contains(ans.Text, "[1]") {
		t.Errorf("not the extractive answer with the penalty clause:\n%s", ans.Text)
	}
	if len(ans.Sources) == 0 || !strings.HasPrefix(ans.Sources[0].Title, "Договор поставки") {
		t.Errorf("sources %+v, want the contract", ans.Sources)
	}
}

// The answer LLM misbehaving while the planner works: 429 with Retry-After, a reply past the
// LLM deadline, a 200 with an error object, a stream cut before its end. Each still yields a
// correct reply — the deterministic rendering of the facts, the extractive answer over the
// documents — with one answer call (a service that failed is not asked again) and the answer
// degraded as the LLM being unavailable.
func TestAnswerLLMMisbehaviour(t *testing.T) {
	composite := `{"intents":["rate","key_rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"2026-03-14","codes":["USD"]}},{"tool":"fetch_cbr_data","args":{"mode":"key_rate","date":"2026-03-14"}}],"fallback":{"enabled":false},"limits":{},"render_style":"BULLETS","confidence":0.9}`
	factsGood := "**Курс и ставка**\n\nКурс доллара — 81,1134 ₽ [1], ключевая ставка — 15,50% [2]."
	docsGood := "За просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки [2]."
	misbehaviours := []struct {
		name   string
		rep    func(content string) fakes.Reply
		stream bool
	}{
		{"429 with Retry-After", func(string) fakes.Reply {
			return fakes.Reply{Status: 429, Header: map[string]string{"Retry-After": "7"}}
		}, false},
		{"timeout", func(c string) fakes.Reply { return fakes.Reply{Content: c, Delay: time.Hour} }, false}, // the LLM's deadline is 2 s
		{"200 with an error object", func(string) fakes.Reply { return fakes.Reply{ErrorIn200: 502} }, false},
		{"cut stream", func(c string) fakes.Reply { return fakes.Reply{Content: c, Cut: true} }, true},
	}
	for _, m := range misbehaviours {
		t.Run("facts/"+m.name, func(t *testing.T) {
			s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: composite}}, "answer": {m.rep(factsGood)}})
			a := misbehaviourAgent(t, s, m.rep(""))
			ans := answerWith(t, a, Request{UserID: 1, ChatID: 1, Text: "какой курс доллара и ключевая ставка на 14 марта?"}, m.stream)
			if got := s.Streamed(); got != m.stream {
				t.Errorf("streamed %v, want %v", got, m.stream)
			}
			if ans.Debug.Plan == nil || ans.Debug.Plan.Handler != "facts" || ans.Debug.Plan.Answer != "deterministic" {
				t.Fatalf("plan debug %+v, want the facts handler's deterministic rendering", ans.Debug.Plan)
			}
			for _, w := range []string{"81,1134", "15,50"} {
				if !strings.Contains(ans.Text, w) {
					t.Errorf("answer lacks %q:\n%s", w, ans.Text)
				}
			}
			if len(ans.Sources) == 0 {
				t.Error("no sources")
			}
			if !slices.Equal(ans.Debug.Degraded, []string{"llm_unavailable"}) {
				t.Errorf("degraded %v, want [llm_unavailable]", ans.Debug.Degraded)
			}
			if n := s.Count("plan") + s.Count("answer"); n != 2 {
				t.Errorf("%d LLM calls, want the planner and one answer call", n)
			}
		})
		t.Run("documents/"+m.name, func(t *testing.T) {
			// The parser understands the question as the user's document: no planner; the
			// query expansion is answered, the answer call misbehaves.
			s := newScripted(t, map[string][]fakes.Reply{"other": {{Content: expansion}}, "docs": {m.rep(docsGood)}})
			a := misbehaviourAgent(t, s, m.rep(""))
			me := Request{UserID: 5, ChatID: 5}
			upload(t, a, me, "dogovor.pdf", contract())
			me.Text = "что в договоре с Техснабом про штрафы"
			ans := answerWith(t, a, me, m.stream)
			if got := s.Streamed(); got != m.stream {
				t.Errorf("streamed %v, want %v", got, m.stream)
			}
			if ans.Scenario != S1Search || docsOf(ans) == nil || ans.Debug.Plan != nil {
				t.Fatalf("scenario %s, docs debug %v, plan %+v: want the documents answer without a plan", ans.Scenario, docsOf(ans) != nil, ans.Debug.Plan)
			}
			docsExtractive(t, ans)
			if !slices.Equal(ans.Debug.Degraded, []string{"llm_unavailable"}) {
				t.Errorf("degraded %v, want [llm_unavailable]", ans.Debug.Degraded)
			}
			if n := s.Count("plan") + s.Count("other") + s.Count("docs"); n != 2 {
				t.Errorf("%d LLM calls, want the expansion and one answer call", n)
			}
		})
	}
}

// misbehaviourAgent is pipelineAgent, with a 2 s deadline on each LLM call when the answer's
// reply comes late (the planner's call, answered at once, has the same deadline: one client).
func misbehaviourAgent(t *testing.T, s *fakes.LLM, answer fakes.Reply) *Agent {
	t.Helper()
	if answer.Delay > 0 {
		return pipelineAgentDeadlines(t, s, 2*time.Second, testDeadline)
	}
	return pipelineAgent(t, s)
}

// answerWith asks req, streaming the answer into a Progress callback when stream is set.
func answerWith(t *testing.T, a *Agent, req Request, stream bool) Answer {
	t.Helper()
	if stream {
		req.Progress = func(string) {}
	}
	ans, err := a.Answer(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

// A cached plan lives PLAN_CACHE_TTL on the agent's clock: reused until then, asked for again
// once it has expired, and the new plan is cached in turn.
func TestPlanCacheExpires(t *testing.T) {
	var mu sync.Mutex
	now := pipelineNow()
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: receivablesPlan}}})
	a := pipelineAgent(t, s, func(o *Options) { o.Now, o.PlanCacheTTL = clock, 5*time.Minute })
	steps := []struct {
		after  time.Duration // since the previous question
		source string
		calls  int // planner calls so far
	}{
		{0, "llm", 1},
		{5*time.Minute - time.Second, "cache", 1},
		{time.Second, "llm", 2}, // the TTL since the plan was made: expired
		{4 * time.Minute, "cache", 2},
	}
	for i, st := range steps {
		mu.Lock()
		now = now.Add(st.after)
		mu.Unlock()
		ans := ask(t, a, Request{UserID: 1, ChatID: 1}, vagueQuestion)
		if ans.Debug.Plan == nil || ans.Debug.Plan.Source != st.source {
			t.Errorf("step %d: plan debug %+v, want source %s", i, ans.Debug.Plan, st.source)
		}
		if n := s.Count("plan"); n != st.calls {
			t.Errorf("step %d: %d planner calls, want %d", i, n, st.calls)
		}
	}
}

// The default plan is never cached: the same question asks the model again, and once it plans
// validly that plan is cached.
func TestDefaultPlanIsNotCached(t *testing.T) {
	s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: "не план"}}})
	a := pipelineAgent(t, s)
	me := Request{UserID: 1, ChatID: 1}
	for i := range 2 {
		ans := ask(t, a, me, vagueQuestion)
		if ans.Debug.Plan != nil || !contains(ans.Debug.Degraded, "planner_invalid") {
			t.Errorf("ask %d: plan debug %+v, degraded %v: want the parser's decision", i, ans.Debug.Plan, ans.Debug.Degraded)
		}
	}
	if n := s.Count("plan"); n != 4 {
		t.Errorf("%d planner calls, want 4 (a call and a repair per question)", n)
	}
	s.SetReplies("plan", fakes.Reply{Content: receivablesPlan})
	for _, want := range []string{"llm", "cache"} {
		if ans := ask(t, a, me, vagueQuestion); ans.Debug.Plan == nil || ans.Debug.Plan.Source != want {
			t.Errorf("plan debug %+v, want source %s", ans.Debug.Plan, want)
		}
	}
	if n := s.Count("plan"); n != 5 {
		t.Errorf("%d planner calls, want 5", n)
	}
}

// uploadClock is the time of each upload, a second after the last one: documents are listed in
// the order they were uploaded, however fast a test uploads them (at one instant they would be
// listed by their random ids, and a tie between two documents decided by chance).
func uploadClock() func() time.Time {
	var n atomic.Int64
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { return base.Add(time.Duration(n.Add(1)) * time.Second) }
}
