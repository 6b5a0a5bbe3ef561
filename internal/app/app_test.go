package app

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/integrations/onec"
)

func loadConfig(t *testing.T, env map[string]string) config.Config {
	t.Helper()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// With no configuration the console runs on the embedded defaults; it has no bot to run.
func TestConsoleOnDefaults(t *testing.T) {
	a, err := New(t.Context(), loadConfig(t, nil), Options{Console: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var out bytes.Buffer
	ans, replies := a.Ask(t.Context(), &out, 1, 0, "Кто нам должен на 31 марта?")
	if ans == nil || ans.Scenario != "1c" || len(replies) == 0 || !strings.Contains(out.String(), "31.03.2026") {
		t.Errorf("Ask = %+v, %q; printed %q", ans, replies, out.String())
	}
	if a.Bot != nil || a.Metrics != nil {
		t.Error("the console has a bot or metrics")
	}
	if err := a.Run(t.Context()); err == nil {
		t.Error("Run on the console succeeded")
	}
	if st := strings.Join(a.Status(t.Context()), "\n"); !strings.Contains(st, "1С: ") || !strings.Contains(st, "база знаний: встроенный пример") {
		t.Errorf("Status = %s", st)
	}
}

func TestServeNeedsToken(t *testing.T) {
	if _, err := New(t.Context(), loadConfig(t, nil), Options{}); err == nil || !strings.Contains(err.Error(), "TELEGRAM_TOKEN") {
		t.Errorf("New without a token: %v", err)
	}
}

// counting wraps the agent and counts the questions it is asked.
type counting struct {
	Answerer
	mu    *sync.Mutex
	asked *[]string
}

func (c counting) Answer(ctx context.Context, req api.Request) (api.Answer, error) {
	c.mu.Lock()
	*c.asked = append(*c.asked, req.Text)
	c.mu.Unlock()
	return c.Answerer.Answer(ctx, req)
}

// Options.Transport is asked for every outgoing client, by name, and the bot reaches the Bot
// API through it; Options.Answerer is what the front ends ask.
func TestOptionsWrapClientsAndAgent(t *testing.T) {
	const token = "123:opts-test"
	var mu sync.Mutex
	var paths []string
	tg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true,"result":{"id":123,"is_bot":true,"first_name":"finbot","username":"finbot_opts_bot"}}`))
	}))
	defer tg.Close()
	cfg := loadConfig(t, map[string]string{"TELEGRAM_TOKEN": token, "TELEGRAM_API_URL": tg.URL,
		"LLM_API_KEY": "sk-test", "TAVILY_API_KEY": "tvly-test", "METRICS_ADDR": "127.0.0.1:0",
		"TRANSCRIBE_URL": config.DefaultLLMBaseURL})
	var clients, asked []string
	transport := func(client string, pool http.RoundTripper) http.RoundTripper {
		mu.Lock()
		clients = append(clients, client)
		mu.Unlock()
		if client != ClientTelegram {
			return pool
		}
		return roundTripper(func(r *http.Request) (*http.Response, error) {
			mu.Lock()
			paths = append(paths, strings.TrimPrefix(r.URL.Path, "/bot"+token))
			mu.Unlock()
			return pool.RoundTrip(r)
		})
	}
	a, err := New(t.Context(), cfg, Options{Transport: transport,
		Answerer: func(next Answerer) Answerer { return counting{Answerer: next, mu: &mu, asked: &asked} }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Bot == nil || a.Bot.Username() != "finbot_opts_bot" || a.Metrics == nil {
		t.Fatalf("bot %v, metrics %v", a.Bot, a.Metrics)
	}
	a.Ask(t.Context(), &bytes.Buffer{}, 1, 0, "привет")
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(clients)
	// Voice messages go to the service TRANSCRIBE_URL names (here the LLM's, with its key).
	if want := []string{ClientCBR, ClientLLM, ClientSpeech, ClientTavily, ClientTelegram}; !slices.Equal(clients, want) {
		t.Errorf("Transport was asked for %q, want %q", clients, want)
	}
	if !slices.Contains(paths, "/getMe") {
		t.Errorf("the Bot API was reached at %q, not through the Telegram transport's getMe", paths)
	}
	if !slices.Equal(asked, []string{"привет"}) {
		t.Errorf("the wrapped agent was asked %q", asked)
	}
	if st := strings.Join(a.Status(t.Context()), "\n"); !strings.Contains(st, "распознавание речи: whisper-1, предохранитель closed") {
		t.Errorf("Status = %s, want the speech-to-text line", st)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The demo ledger is open with no allow-lists; a real 1C is closed but to the listed chats and,
// in their private chats, the listed users; the console is open.
func TestLedgerAccess(t *testing.T) {
	demo := ledgerAccess(config.Config{}, false)
	oneC := ledgerAccess(config.Config{OneCURL: "https://1c.example", LedgerAllowUsers: []int64{7}, LedgerAllowChats: []int64{-100}}, false)
	console := ledgerAccess(config.Config{OneCURL: "https://1c.example"}, true)
	tests := []struct {
		name       string
		access     func(int64, int64) bool
		user, chat int64
		want       bool
	}{
		{"demo, anyone", demo, 1, 1, true},
		{"1C, listed user in private", oneC, 7, 7, true},
		{"1C, listed user in a group", oneC, 7, -200, false},
		{"1C, listed group", oneC, 8, -100, true},
		{"1C, anyone else", oneC, 8, 8, false},
		{"console", console, 1, 1, true},
	}
	for _, tt := range tests {
		if got := tt.access(tt.user, tt.chat); got != tt.want {
			t.Errorf("%s: access(%d, %d) = %v, want %v", tt.name, tt.user, tt.chat, got, tt.want)
		}
	}
}

// The configuration's bounds of the aging are those the template and the lane take.
func TestAgingConfigFitsTheTemplate(t *testing.T) {
	if config.MaxAgingBuckets != onec.AgingBounds || config.MaxAgingDays != runner.MaxAgingBound {
		t.Errorf("config takes %d bounds of up to %d days; the template %d, the lane %d days",
			config.MaxAgingBuckets, config.MaxAgingDays, onec.AgingBounds, runner.MaxAgingBound)
	}
	if err := runner.CheckAgingBounds([]int{30, 60, 90}); err != nil {
		t.Error(err)
	}
}
