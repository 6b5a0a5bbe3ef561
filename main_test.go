package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
	"github.com/finbot/finbot/internal/testredis"
)

func getenv(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestNoConfigurationAsk(t *testing.T) {
	var out, errs bytes.Buffer
	err := run(t.Context(), []string{"ask", "--json", "Кто нам должен на 31 марта?"}, getenv(nil), nil, &out, &errs)
	if err != nil {
		t.Fatalf("ask: %v\n%s", err, errs.String())
	}
	var res struct {
		Scenario string            `json:"scenario"`
		Text     string            `json:"text"`
		Sources  []json.RawMessage `json:"sources"`
		Debug    struct {
			Route struct {
				Scenario string   `json:"scenario"`
				Reasons  []string `json:"reasons"`
				Rule     string   `json:"rule"`
			} `json:"route"`
		} `json:"debug"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("ask --json output is not JSON: %v\n%s", err, out.String())
	}
	if res.Scenario != "1c" || res.Debug.Route.Rule != "receivables" || res.Sources == nil || res.Text == "" {
		t.Errorf("ask --json = %s", out.String())
	}
}

func TestAskPlainAndCommands(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"ask", "Привет"}, getenv(nil), nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "Здравствуйте!") || strings.Contains(out.String(), "**") {
		t.Errorf("plain ask printed %q: want the text as a user reads it, no Markdown markers", out.String())
	}
	out.Reset()
	if err := run(t.Context(), []string{"ask", "/help"}, getenv(nil), nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "/reset") {
		t.Errorf("ask /help printed %q", out.String())
	}
}

func TestAskPersistsHistoryInRedis(t *testing.T) {
	url, prefix := testredis.URL(), testredis.Prefix(t, testredis.Client(t))
	env := getenv(map[string]string{"REDIS_URL": url, "REDIS_PREFIX": prefix})
	turns := func() int {
		var out bytes.Buffer
		if err := run(t.Context(), []string{"ask", "--json", "--user", "77", "Привет"}, env, nil, &out, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		var res struct {
			Debug struct {
				HistoryTurns int `json:"history_turns"`
			} `json:"debug"`
		}
		json.Unmarshal(out.Bytes(), &res)
		return res.Debug.HistoryTurns
	}
	if first, second := turns(), turns(); first != 0 || second != 2 {
		t.Errorf("history turns seen by two ask calls = %d, %d; want 0, 2", first, second)
	}
}

func TestChatConsole(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader("Привет\nпомоги\n/reset\n")
	if err := run(t.Context(), []string{"chat"}, getenv(nil), in, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Здравствуйте!", "Уточните", "1) Кто нам должен?", "Историю диалога очистил"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("console output lacks %q:\n%s", want, out.String())
		}
	}
}

// A dialog in the console: follow-ups continue the previous question, with no LLM.
func TestChatConsoleDialog(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader("кто нам должен на 31.03.2026\nа на 01.03.2026?\nа по ромашке?\nа в евро?\n")
	if err := run(t.Context(), []string{"chat"}, getenv(nil), in, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"на 31.03.2026 — 18 контрагентов", "на 01.03.2026 — 18 контрагентов",
		"ООО \"Ромашка\" перед нами 418\u00a0645,81\u00a0₽ на 01.03.2026", "курс евро"} {
		if !strings.Contains(text, want) {
			t.Errorf("console dialog lacks %q:\n%s", want, text)
		}
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, "no subcommand"},
		{[]string{"fly"}, nil, "unknown subcommand"},
		{[]string{"serve"}, nil, "TELEGRAM_TOKEN is not set"},
		{[]string{"ask"}, nil, "no message"},
		{[]string{"ask", "x"}, map[string]string{"HISTORY_TTL": "вечно"}, "HISTORY_TTL"},
	}
	for _, tt := range tests {
		err := run(t.Context(), tt.args, getenv(tt.env), nil, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%q) error = %v, want it to mention %q", tt.args, err, tt.want)
		}
	}
}

// A Bot API that cannot be reached makes the transport quote the URL with the token; neither
// the returned error nor the logs may show it.
func TestServeNeverLeaksToken(t *testing.T) {
	const token = "987654:LEAK-CHECK-secret"
	var logs bytes.Buffer
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	err := run(ctx, []string{"serve"}, getenv(map[string]string{
		"TELEGRAM_TOKEN": token, "TELEGRAM_API_URL": "http://" + testnet.Addr(t), "METRICS_ADDR": "",
		"LLM_API_KEY": "sk-or-v1-leakcheck", "LOG_LEVEL": "debug",
	}), nil, &bytes.Buffer{}, &logs)
	if err == nil {
		t.Fatal("serve against a closed port succeeded")
	}
	for _, s := range []string{token, "sk-or-v1-leakcheck"} {
		if strings.Contains(err.Error(), s) || strings.Contains(logs.String(), s) {
			t.Errorf("secret %q leaked: err=%v logs=%s", s, err, logs.String())
		}
	}
}

func TestRedactor(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(newRedactor(slog.NewJSONHandler(&buf, nil), config.NewRedactor([]string{"tok-123456"})))
	log.With("url", "https://api/bottok-123456/x").Error("failed tok-123456",
		"err", errors.New(`Post "https://api.telegram.org/bottok-123456/getUpdates": EOF`),
		slog.Group("req", "path", "/bottok-123456/send"), "any", struct{ U string }{"tok-123456"})
	if strings.Contains(buf.String(), "tok-123456") || strings.Count(buf.String(), "[redacted]") != 5 {
		t.Errorf("redacted log = %s", buf.String())
	}
}

// docs/configuration.md's table must list every variable the code reads.
func TestReadmeListsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range config.Vars() {
		if !strings.Contains(string(readme), "| `"+v.Name+"` |") {
			t.Errorf("docs/configuration.md does not document %s", v.Name)
		}
	}
}

// An LLM error body that echoes the API key (OpenAI-compatible services do: «Incorrect API key
// provided: sk-…») reaches the debug payload; `ask --json` prints that payload, and neither it,
// the plain answer nor the logs may show the key (issue #19).
func TestAskNeverPrintsSecrets(t *testing.T) {
	const key = "sk-or-v1-echoed-secret-0123456789"
	llm := fakes.NewTestLLM(t, fakes.LLMOptions{Respond: func(*fakes.Request) fakes.Reply {
		return fakes.Reply{Status: 401, Message: "Incorrect API key provided: " + key + ". You can find your API key at https://example.invalid."}
	}})
	env := map[string]string{"LLM_API_KEY": key, "LLM_MODEL": "m", "LLM_BASE_URL": llm.URL(), "LOG_LEVEL": "debug",
		"REDIS_URL": ""}
	sawError := false
	for _, args := range [][]string{
		{"ask", "--json", "что такое акт сверки и зачем он нужен"},
		{"ask", "что такое акт сверки и зачем он нужен"},
		// planned: the planner's error lands in the debug payload's llm_error
		{"ask", "--json", "сравни дебиторку за два квартала и объясни динамику"},
	} {
		var out, errs bytes.Buffer
		if err := run(t.Context(), args, getenv(env), nil, &out, &errs); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if llm.Count("") == 0 && len(llm.Requests()) == 0 {
			t.Fatalf("%q: the LLM was never asked; the test proves nothing", args)
		}
		for name, s := range map[string]string{"stdout": out.String(), "stderr": errs.String()} {
			if strings.Contains(s, key) || strings.Contains(s, "echoed-secret") {
				t.Errorf("%q: the API key leaked to %s:\n%s", args, name, s)
			}
		}
		sawError = sawError || strings.Contains(out.String(), "Incorrect API key provided: [redacted]")
	}
	if !sawError {
		t.Error("no answer's debug payload carried the LLM's error: the test proves nothing")
	}
}

// A malformed REDIS_URL is refused without its password, whatever the shape (issue #19).
func TestMalformedRedisURLHidesPassword(t *testing.T) {
	const pw = "s3cret-redis-pw"
	for _, u := range []string{
		"redis://user:" + pw + "@host:notaport/0",
		"redis://:" + pw + "@host:6379/abc",
		"redis://user:" + pw + "@[::1/0",
		"redis://user:" + pw + "@host:6379/0?dial_timeout=zz",
		"redis://user:" + pw + "%zz@host/0",
		"redis://us er:" + pw + "@host/0",
		"redis://user:" + pw + "@host:6379/0?pool_size=-x",
	} {
		var out, errs bytes.Buffer
		err := run(t.Context(), []string{"ask", "привет"}, getenv(map[string]string{"REDIS_URL": u}), nil, &out, &errs)
		if err == nil {
			t.Errorf("REDIS_URL %q accepted", u)
			continue
		}
		for name, s := range map[string]string{"error": err.Error(), "stdout": out.String(), "stderr": errs.String()} {
			if strings.Contains(s, pw) {
				t.Errorf("REDIS_URL %q: the password leaked in %s: %s", u, name, s)
			}
		}
		if !strings.Contains(err.Error(), "REDIS_URL") {
			t.Errorf("REDIS_URL %q: error %q does not name the variable", u, err)
		}
	}
}
