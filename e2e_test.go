package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
	"github.com/finbot/finbot/internal/testredis"
)

// End-to-end: the real `serve` wiring (run) against telegram-test-api, a Bot API emulator,
// with real Redis and an OpenAI-compatible LLM stand-in. The test command (.ci/test.sh)
// installs the emulator and sets TGEMU_DIR and FINBOT_E2E=1.

const e2eToken = "123456:E2E-SECRET-TOKEN-value"

// emulator is a running telegram-test-api.
type emulator struct {
	url string
}

func startEmulator(t *testing.T) *emulator {
	t.Helper()
	dir := os.Getenv("TGEMU_DIR")
	if dir == "" {
		if os.Getenv("FINBOT_E2E") == "1" {
			t.Fatal("FINBOT_E2E=1 but TGEMU_DIR is not set")
		}
		t.Skip("telegram-test-api not installed; run the test command from README.md (bash .ci/test.sh)")
	}
	port := testnet.Port(t) // reserved until the test ends: no other process can take it first

	script, _ := filepath.Abs(filepath.Join("testdata", "tgemu.js"))
	cmd := exec.Command("node", script, fmt.Sprint(port))
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start emulator: %v", err)
	}
	t.Cleanup(func() {
		stdin.Close() // the script exits when its stdin closes
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "READY") {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("emulator exited before it was ready")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("emulator did not start in 30s")
	}
	return &emulator{url: fmt.Sprintf("http://127.0.0.1:%d", port)}
}

type tgUser struct {
	ID        int64  `json:"id"`
	FirstName string `json:"first_name"`
	Username  string `json:"username,omitempty"`
	IsBot     bool   `json:"is_bot"`
}

type tgChat struct {
	ID    int64  `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title,omitempty"`
}

type tgEntity struct {
	Type   string `json:"type"`
	Offset int    `json:"offset"`
	Length int    `json:"length"`
}

func (e *emulator) post(t *testing.T, path string, body any, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(e.url+path, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s: %s", path, resp.Status, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("POST %s: decode %s: %v", path, raw, err)
		}
	}
}

// say sends a user message to the bot; a leading /command gets its bot_command entity.
func (e *emulator) say(t *testing.T, from tgUser, chat tgChat, text string, ents ...tgEntity) {
	t.Helper()
	if strings.HasPrefix(text, "/") && len(ents) == 0 {
		cmd, _, _ := strings.Cut(text, " ")
		ents = []tgEntity{{Type: "bot_command", Offset: 0, Length: len(utf16.Encode([]rune(cmd)))}}
	}
	msg := map[string]any{"botToken": e2eToken, "date": time.Now().Unix(), "from": from, "chat": chat, "text": text}
	if len(ents) > 0 {
		msg["entities"] = ents
	}
	e.post(t, "/sendMessage", msg, nil)
}

type botMessage struct {
	ID       int             `json:"-"` // the emulator's messageId, beside the message
	Text     string          `json:"text"`
	ChatID   string          `json:"chat_id"`
	ReplyTo  string          `json:"reply_to_message_id"`
	Entities []tgEntity      `json:"entities"`
	Markup   json.RawMessage `json:"reply_markup"` // the inline keyboard, as the bot sent it
}

// replies waits until the bot has sent n unread messages to chatID and returns them; it
// fails after a generous deadline (this is synchronisation, not a timing assertion).
func (e *emulator) replies(t *testing.T, chatID int64, n int) []botMessage {
	t.Helper()
	var got []botMessage
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var resp struct {
			Result []struct {
				MessageID int        `json:"messageId"`
				Message   botMessage `json:"message"`
			} `json:"result"`
		}
		e.post(t, "/getUpdates", map[string]any{"token": e2eToken, "chatId": chatID}, &resp)
		for _, r := range resp.Result {
			r.Message.ID = r.MessageID
			got = append(got, r.Message)
		}
		if len(got) >= n {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("chat %d: got %d bot messages, want %d: %+v", chatID, len(got), n, got)
	return nil
}

// final returns the messages as they stand now, after the bot's edits: a streamed answer is
// first sent as a plain draft and then edited into its formatted first part.
func (e *emulator) final(t *testing.T, msgs []botMessage) []botMessage {
	t.Helper()
	var resp struct {
		Result []struct {
			MessageID int        `json:"messageId"`
			Message   botMessage `json:"message"`
		} `json:"result"`
	}
	e.post(t, "/getUpdatesHistory", map[string]any{"token": e2eToken}, &resp)
	byID := map[int]botMessage{}
	for _, r := range resp.Result {
		r.Message.ID = r.MessageID
		byID[r.MessageID] = r.Message
	}
	out := make([]botMessage, len(msgs))
	for i, m := range msgs {
		out[i] = m
		if f, ok := byID[m.ID]; ok && f.ChatID == m.ChatID {
			out[i] = f
		}
	}
	return out
}

// settled returns the messages once ok holds for their edited text, or as they stand after ten
// seconds: a streamed answer's first message may be a draft that its last edit completes.
func (e *emulator) settled(t *testing.T, msgs []botMessage, ok func([]botMessage) bool) []botMessage {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		msgs = e.final(t, msgs)
		if ok(msgs) || time.Now().After(deadline) {
			return msgs
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// newE2ELLM is the LLM of the end-to-end test (internal/fakes.LLM). It plans everything as
// small talk and answers with the number of history messages it was given, so a test can see
// what the agent remembered; "длинный" asks for a 10,000-character answer. A stream comes in one
// chunk: the test is about how a long answer is split, not about the pace of a stream.
func newE2ELLM(t *testing.T) *fakes.LLM {
	return fakes.NewTestLLM(t, fakes.LLMOptions{Key: "e2e-llm-key", Chunks: 1, Respond: func(r *fakes.Request) fakes.Reply {
		switch {
		case r.ResponseFormat == "json_schema": // the planner
			return fakes.Reply{Content: `{"intents":["smalltalk"],"tool_calls":[],"fallback":{"enabled":false},"limits":{},"render_style":"SHORT","confidence":0.9}`}
		case strings.Contains(r.Last(), "длинный"):
			var b strings.Builder
			for b.Len() < 20000 { // ~10,000 Cyrillic characters, no figure (small talk may state none)
				b.WriteString("## Раздел\n\nСчёт расчётов с покупателями — *пример* абзаца с **выделением**.\n\n")
			}
			return fakes.Reply{Content: b.String()}
		}
		// The count is told in marks, not digits: small talk may state no figure its user did
		// not write (the post-check would refuse it).
		return fakes.Reply{Content: "Ответ LLM: в истории сообщений — " + strings.Repeat("✉", len(r.Messages)-2) + "."}
	}})
}

// sawInHistory reports whether some request l got carried text in its history.
func sawInHistory(l *fakes.LLM, text string) bool {
	for _, r := range l.Requests() {
		for _, m := range r.Messages[:max(len(r.Messages)-1, 0)] {
			if m.Role == "user" && strings.Contains(m.Content, text) {
				return true
			}
		}
	}
	return false
}

// syncBuffer collects logs written from several goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Len is how many bytes were written so far.
func (b *syncBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startBot runs `finbot serve` in process and returns a function that stops it (SIGTERM-like)
// and waits for it to return.
func startBot(t *testing.T, env map[string]string, logs io.Writer) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"serve"}, getenv(env), nil, io.Discard, logs)
	}()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("serve returned %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop within 30s of cancellation")
		}
	}
	t.Cleanup(stop)
	return stop
}

func TestE2ETelegram(t *testing.T) {
	emu := startEmulator(t)
	rdb, redisURL := testredis.Client(t), testredis.URL()
	llm := newE2ELLM(t)
	prefix := testredis.Prefix(t, rdb)
	env := map[string]string{
		"TELEGRAM_TOKEN":        e2eToken,
		"TELEGRAM_API_URL":      emu.url,
		"TELEGRAM_POLL_TIMEOUT": "1s",
		"REDIS_URL":             redisURL,
		"REDIS_PREFIX":          prefix,
		"LLM_BASE_URL":          llm.URL(),
		"LLM_API_KEY":           "e2e-llm-key",
		"LLM_MODEL":             "test/model",
		"METRICS_ADDR":          "127.0.0.1:0",
		"USER_RATE_PER_MIN":     "600",
		"USER_RATE_BURST":       "50",
		"LOG_LEVEL":             "debug",
	}
	logs := &syncBuffer{}
	top := t
	stop := startBot(top, env, logs)

	alice := tgUser{ID: 1001, FirstName: "Алиса", Username: "alice"}
	bob := tgUser{ID: 1002, FirstName: "Борис"}
	private := tgChat{ID: alice.ID, Type: "private"}
	group := tgChat{ID: -100123, Type: "supergroup", Title: "Бухгалтерия «Север»"}

	t.Run("private message gets a reply", func(t *testing.T) {
		emu.say(t, alice, private, "Привет! Меня зовут Алиса.")
		got := emu.replies(t, private.ID, 1)
		if !strings.Contains(got[0].Text, "Ответ LLM") {
			t.Errorf("reply = %q, want the LLM's small talk", got[0].Text)
		}
	})

	t.Run("group: silence without a mention, a reply with one", func(t *testing.T) {
		emu.say(t, bob, group, "Коллеги, кто брал степлер?")
		emu.say(t, bob, group, "/help@OtherBot")
		mention := "@TestNameBot"
		emu.say(t, bob, group, mention+", привет", tgEntity{Type: "mention", Offset: 0, Length: len(mention)})
		// Messages of one chat are answered in order, so had the first two been answered,
		// those replies would come first.
		got := emu.replies(t, group.ID, 1)
		if len(got) != 1 || !strings.Contains(got[0].Text, "Ответ LLM") {
			t.Fatalf("group replies = %+v, want exactly the answer to the mention", got)
		}
		if got[0].ReplyTo == "" {
			t.Errorf("group reply does not reply to the question")
		}
		emu.say(t, bob, group, "/help@TestNameBot")
		if got := emu.replies(t, group.ID, 1); !strings.Contains(got[0].Text, "/reset") {
			t.Errorf("/help@TestNameBot reply = %q", got[0].Text)
		}
	})

	histKey := prefix + "hist:chat:" + fmt.Sprint(private.ID)
	t.Run("restart keeps the dialog", func(t *testing.T) {
		if n, _ := rdb.LLen(t.Context(), histKey).Result(); n < 2 {
			t.Fatalf("history in Redis has %d turns before restart, want ≥ 2", n)
		}
		stop()
		stop = startBot(top, env, logs) // owned by the whole test, not this subtest
		emu.say(t, alice, private, "Как меня зовут?")
		const want = "в истории сообщений — ✉✉."
		got := emu.settled(t, emu.replies(t, private.ID, 1), func(m []botMessage) bool {
			return strings.Contains(m[0].Text, want)
		})
		if !strings.Contains(got[0].Text, want) {
			t.Errorf("reply after restart = %q, want the LLM to have seen the 2 earlier messages", got[0].Text)
		}
		if !sawInHistory(llm, "Меня зовут Алиса") {
			t.Error("after restart the LLM never saw the earlier message in its history")
		}
	})

	t.Run("long answer arrives in several messages under the limit", func(t *testing.T) {
		emu.say(t, alice, private, "Дай длинный ответ")
		deadline := time.Now().Add(30 * time.Second)
		var parts []botMessage
		for time.Now().Before(deadline) {
			parts = append(parts, emu.replies(t, private.ID, 1)...)
			total := 0
			for _, p := range parts {
				total += len([]rune(p.Text))
			}
			if total > 9000 {
				break
			}
		}
		if len(parts) < 3 {
			t.Fatalf("long answer came in %d messages, want ≥ 3", len(parts))
		}
		// A streamed answer starts as a plain draft that the final, formatted first part
		// replaces by an edit: wait for that edit (synchronisation, not an assertion).
		for wait := time.Now().Add(30 * time.Second); time.Now().Before(wait); time.Sleep(50 * time.Millisecond) {
			if parts = emu.final(t, parts); !strings.HasPrefix(parts[0].Text, "##") {
				break
			}
		}
		for i, p := range parts {
			if n := len(utf16.Encode([]rune(p.Text))); n > 4096 || n == 0 {
				t.Errorf("part %d has %d UTF-16 units", i, n)
			}
		}
		if !strings.HasPrefix(parts[0].Text, "Раздел\n") {
			t.Errorf("first part starts %q", parts[0].Text[:min(40, len(parts[0].Text))])
		}
	})

	t.Run("1C figures by command", func(t *testing.T) {
		emu.say(t, alice, private, "/debts 31.03.2026")
		got := emu.replies(t, private.ID, 1)
		if !strings.Contains(got[0].Text, "Нам должны 35\u00a0987\u00a0887,75\u00a0₽ на 31.03.2026") {
			t.Errorf("/debts reply = %q", got[0].Text)
		}
	})

	t.Run("a dialog of follow-ups survives a restart", func(t *testing.T) {
		emu.say(t, alice, private, "кто нам должен на 31.03.2026")
		if got := emu.replies(t, private.ID, 1); !strings.Contains(got[0].Text, "на 31.03.2026 — 18 контрагентов") {
			t.Fatalf("first turn = %q", got[0].Text)
		}
		stop()
		stop = startBot(top, env, logs) // the dialog state is in Redis, with the history
		emu.say(t, alice, private, "а на 01.03.2026?")
		if got := emu.replies(t, private.ID, 1); !strings.Contains(got[0].Text, "Нам должны 36\u00a0917\u00a0964,03\u00a0₽ на 01.03.2026") {
			t.Errorf("follow-up after a restart = %q, want the list on 01.03.2026", got[0].Text)
		}
		emu.say(t, alice, private, "а по ромашке?")
		if got := emu.replies(t, private.ID, 1); !strings.Contains(got[0].Text, "Ромашка") || !strings.Contains(got[0].Text, "01.03.2026") {
			t.Errorf("third turn = %q, want Ромашка's debt on 01.03.2026", got[0].Text)
		}
		// Another user in the group has a dialog of their own.
		mention := "@TestNameBot"
		emu.say(t, bob, group, mention+" а по ромашке?", tgEntity{Type: "mention", Offset: 0, Length: len(mention)})
		if got := emu.replies(t, group.ID, 1); strings.Contains(got[0].Text, "01.03.2026") {
			t.Errorf("another user's follow-up continued Alice's dialog: %q", got[0].Text)
		}
	})

	t.Run("/reset empties the history in Redis", func(t *testing.T) {
		emu.say(t, alice, private, "/reset")
		got := emu.replies(t, private.ID, 1)
		if !strings.Contains(got[0].Text, "очистил") {
			t.Errorf("/reset reply = %q", got[0].Text)
		}
		if n, err := rdb.Exists(t.Context(), histKey).Result(); err != nil || n != 0 {
			t.Errorf("history key exists after /reset (n=%d, err=%v)", n, err)
		}
	})

	t.Run("group history is kept per user", func(t *testing.T) {
		key := fmt.Sprintf("%shist:chat:%d:user:%d", prefix, group.ID, bob.ID)
		if n, _ := rdb.LLen(t.Context(), key).Result(); n < 2 {
			t.Errorf("group history %s has %d turns, want ≥ 2", key, n)
		}
	})

	t.Run("healthz and metrics", func(t *testing.T) {
		addr := opsAddr(t, logs.String())
		for path, want := range map[string]string{
			"/healthz": `"status":"ok"`,
			"/metrics": `finbot_routes_total{kind="smalltalk",scenario="S2"}`,
		} {
			resp, err := http.Get("http://" + addr + path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
				t.Errorf("GET %s = %s, want it to contain %s:\n%.2000s", path, resp.Status, want, body)
			}
		}
	})

	stop()
	if t.Failed() {
		t.Logf("bot logs:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), e2eToken) || strings.Contains(logs.String(), "e2e-llm-key") {
		t.Error("a secret appeared in the logs")
	}
	if !strings.Contains(logs.String(), "finbot started") {
		t.Errorf("logs lack the start line:\n%s", logs.String())
	}
}

// opsAddr finds the address of the newest ops server in the JSON logs.
func opsAddr(t *testing.T, logs string) string {
	t.Helper()
	addr := ""
	for _, line := range strings.Split(logs, "\n") {
		var rec struct {
			Msg  string `json:"msg"`
			Addr string `json:"addr"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "ops server listening" {
			addr = rec.Addr
		}
	}
	if addr == "" {
		t.Fatal("no ops server address in the logs")
	}
	return addr
}

// Redis unreachable at runtime: replies still go out, /reset says it could not, nothing crashes.
func TestE2ERedisUnreachable(t *testing.T) {
	emu := startEmulator(t)
	deadAddr := testnet.Addr(t) // reserved and never listened on: every connection is refused
	logs := &syncBuffer{}
	stop := startBot(t, map[string]string{
		"TELEGRAM_TOKEN": e2eToken, "TELEGRAM_API_URL": emu.url, "TELEGRAM_POLL_TIMEOUT": "1s",
		"REDIS_URL": "redis://" + deadAddr + "/0", "METRICS_ADDR": "127.0.0.1:0", // "" is the default address today (issue #28), which another process may hold
	}, logs)
	user := tgUser{ID: 2001, FirstName: "Вера"}
	chat := tgChat{ID: user.ID, Type: "private"}

	emu.say(t, user, chat, "Привет")
	if got := emu.replies(t, chat.ID, 1); !strings.Contains(got[0].Text, "finbot") {
		t.Errorf("reply with Redis down = %q", got[0].Text)
	}
	emu.say(t, user, chat, "/reset")
	if got := emu.replies(t, chat.ID, 1); !strings.Contains(got[0].Text, "недоступен") {
		t.Errorf("/reset with Redis down = %q", got[0].Text)
	}
	stop()
	if !strings.Contains(logs.String(), "history load failed") {
		t.Errorf("the Redis failure was not logged:\n%s", logs.String())
	}
}
