package agent

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
)

func newMemoryAgent(t *testing.T, model phrase.LLM) (*Agent, *history.Memory) {
	t.Helper()
	h := history.NewMemory(100, history.Limits{MaxTurns: 20, MaxChars: 8000, TTL: time.Hour})
	return New(Deps{LLM: model, History: h}, Options{}), h
}

func TestAnswerWithoutLLM(t *testing.T) {
	tests := []struct {
		text     string
		scenario Scenario
		contains string
		buttons  bool
	}{
		{"Привет", S2General, "finbot", false},
		{"спасибо!", S2General, "Пожалуйста", false},
		{"помоги", S5Clarify, "Уточните", true},
		{"Кто нам должен на 31 марта?", OneC, "1С", false},
		{"курс евро на вчера", S2General, "не подключены", false},
		{"Найди договор с Техснабом", S1Search, "документам", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			a, _ := newMemoryAgent(t, nil)
			ans, err := a.Answer(t.Context(), Request{UserID: 7, ChatID: 7, Text: tt.text})
			if err != nil {
				t.Fatalf("Answer(%q) error: %v", tt.text, err)
			}
			if ans.Scenario != tt.scenario || !strings.Contains(ans.Text, tt.contains) {
				t.Errorf("Answer(%q) = %s %q, want %s containing %q", tt.text, ans.Scenario, ans.Text, tt.scenario, tt.contains)
			}
			if (len(ans.Buttons) > 0) != tt.buttons {
				t.Errorf("Answer(%q) buttons = %v, want buttons: %v", tt.text, ans.Buttons, tt.buttons)
			}
			if ans.Debug.Route.Rule == "" || ans.Debug.LLM {
				t.Errorf("debug = %+v, want a fallback rule and llm=false", ans.Debug)
			}
			if ans.Sources == nil {
				t.Error("Sources is nil; JSON must show []")
			}
		})
	}
}

// The unavailable answers must never state a figure: no rate, no sum.
func TestUnavailableAnswersHaveNoFigures(t *testing.T) {
	a, _ := newMemoryAgent(t, nil)
	for _, q := range []string{"курс доллара", "ключевая ставка", "кто нам должен", "сальдо 62"} {
		ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(strings.ReplaceAll(ans.Text, "1С", "С"), "0123456789") {
			t.Errorf("Answer(%q) = %q: an unavailable capability must not show numbers", q, ans.Text)
		}
	}
}

func TestHistoryRoundTripAndKeys(t *testing.T) {
	a, h := newMemoryAgent(t, nil)
	ctx := t.Context()
	private := Request{UserID: 5, ChatID: 5, Text: "Привет"}
	groupAlice := Request{UserID: 5, ChatID: -100, Group: true, Text: "Привет"}
	groupBob := Request{UserID: 6, ChatID: -100, Group: true, Text: "Привет"}
	for _, r := range []Request{private, private, groupAlice, groupBob} {
		if _, err := a.Answer(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	counts := map[string]int{}
	for _, key := range []string{"chat:5", "chat:-100:user:5", "chat:-100:user:6"} {
		turns, err := h.Load(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		counts[key] = len(turns)
	}
	want := map[string]int{"chat:5": 4, "chat:-100:user:5": 2, "chat:-100:user:6": 2}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("turns per conversation (-want +got):\n%s", diff)
	}
	ans, _ := a.Answer(ctx, private)
	if ans.Debug.HistoryTurns != 4 {
		t.Errorf("HistoryTurns = %d, want 4", ans.Debug.HistoryTurns)
	}
	if err := a.Reset(ctx, private); err != nil {
		t.Fatal(err)
	}
	if turns, _ := h.Load(ctx, "chat:5"); len(turns) != 0 {
		t.Errorf("after Reset: %d turns", len(turns))
	}
	if turns, _ := h.Load(ctx, "chat:-100:user:5"); len(turns) != 2 {
		t.Errorf("Reset of the private chat touched the group dialog: %d turns", len(turns))
	}
}

func TestBadInput(t *testing.T) {
	a, _ := newMemoryAgent(t, nil)
	if _, err := a.Answer(t.Context(), Request{Text: "   "}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: error = %v, want ErrEmpty", err)
	}
	if _, err := a.Answer(t.Context(), Request{Text: strings.Repeat("я", MaxQuestionRunes+1)}); !errors.Is(err, ErrTooLong) {
		t.Errorf("too long: error = %v, want ErrTooLong", err)
	}
	ans, err := a.Answer(t.Context(), Request{Text: "привет \xff\xfe"})
	if err != nil || ans.Scenario != S2General {
		t.Errorf("invalid UTF-8: %v, %v", ans.Scenario, err)
	}
}

// With Redis unreachable, the answer still comes, marked degraded.
func TestHistoryUnavailableDegrades(t *testing.T) {
	addr := testnet.Addr(t) // nothing listens there, and nothing else may start to
	rdb := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { rdb.Close() })
	a := New(Deps{History: history.NewRedis(rdb, "test:", history.Limits{})}, Options{})
	ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: "Привет"})
	if err != nil {
		t.Fatalf("Answer with Redis down: %v", err)
	}
	want := []string{"history_unavailable", "history_not_saved"}
	if diff := cmp.Diff(want, ans.Debug.Degraded); diff != "" {
		t.Errorf("Degraded (-want +got):\n%s", diff)
	}
	if err := a.Reset(t.Context(), Request{ChatID: 1}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Reset with Redis down = %v, want ErrUnavailable", err)
	}
}

// jsonLLM is an OpenAI-compatible stand-in whose JSON-object calls (a plan) get jsonReply —
// in these tests a scenario verdict, which is no plan — and other completions reply; status,
// when set, fails every call with it.
func jsonLLM(t *testing.T, jsonReply, reply string, status int) *fakes.LLM {
	return fakes.NewTestLLM(t, fakes.LLMOptions{Respond: func(r *fakes.Request) fakes.Reply {
		switch {
		case status != 0:
			return fakes.Reply{Status: status}
		case r.ResponseFormat == "json_object":
			return fakes.Reply{Content: jsonReply}
		}
		return fakes.Reply{Content: reply}
	}})
}

func llmAgent(t *testing.T, o *fakes.LLM) *Agent {
	t.Helper()
	c := llm.New(llm.Options{BaseURL: o.URL(), APIKey: "k", Model: "m", Timeout: testDeadline})
	a, _ := newMemoryAgent(t, c)
	return a
}

// The LLM never routes: whatever a model would answer to a routing prompt, each message is
// understood by the parser alone, and the LLM only phrases (small talk here).
func TestLLMNeverRoutes(t *testing.T) {
	tests := []struct {
		text         string
		wantScenario Scenario
		wantRule     string
	}{
		{"Добрый вечер", S2General, "smalltalk"},
		{"Сколько мы должны Гранит-М?", OneC, "payables"}, // no access to 1C here: names are not resolved
		{"Кто нам должен?", OneC, "receivables"},
		{"курс евро", S2General, "rate"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			o := jsonLLM(t, `{"scenario":"S9","intent":"news","confidence":0.99}`, "Добрый вечер! Чем помочь?", 0)
			a := llmAgent(t, o)
			ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: tt.text})
			if err != nil {
				t.Fatal(err)
			}
			r := ans.Debug.Route
			if r.Scenario != tt.wantScenario || r.Source != "rules" || r.Rule != tt.wantRule {
				t.Errorf("route = %+v, want %s from rules (rule %q)", r, tt.wantScenario, tt.wantRule)
			}
		})
	}
}

func TestLLMDownDegradesToTemplates(t *testing.T) {
	o := jsonLLM(t, "", "", http.StatusBadGateway)
	a := llmAgent(t, o)
	ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: "Привет"})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Debug.Route.Source != "rules" || !strings.Contains(ans.Text, "finbot") {
		t.Errorf("answer with LLM down = %q via %s", ans.Text, ans.Debug.Route.Source)
	}
	if diff := cmp.Diff([]string{"llm_unavailable"}, ans.Debug.Degraded); diff != "" {
		t.Errorf("Degraded (-want +got):\n%s", diff)
	}
}

func TestLLMSmallTalkSeesHistory(t *testing.T) {
	o := jsonLLM(t, `{"scenario":"S2","intent":"smalltalk","confidence":0.9}`, "Приятно познакомиться!", 0)
	a := llmAgent(t, o)
	ctx := context.Background()
	a.Answer(ctx, Request{UserID: 1, ChatID: 1, Text: "Меня зовут Ольга"})
	ans, err := a.Answer(ctx, Request{UserID: 1, ChatID: 1, Text: "Как меня зовут?"})
	if err != nil || ans.Text != "Приятно познакомиться!" || ans.Debug.HistoryTurns != 2 {
		t.Errorf("second answer = %q, history %d, err %v", ans.Text, ans.Debug.HistoryTurns, err)
	}
}
