package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/internal/fakes"
)

const testToken = "42:TEST-token-secret"

// unpaced is a send limit for tests that are not about pacing.
var unpaced = SendLimit{Name: "unpaced", Window: time.Second, Max: 1000, Rate: 1000, Burst: 1000}

// unpace lifts Telegram's send limits off b before it runs: per private chat, per group (one
// message every 3 s would have every group test sit out seconds of real time) and overall.
// Tests that are about pacing say so (slowChat); the limits themselves are tested on a fake
// clock (pacing_test.go, incoming_test.go).
func unpace(b *Bot) {
	b.limits.private, b.limits.group, b.limits.global = unpaced, unpaced, newGate(unpaced)
}

// newFakeAPI is the fake Bot API the bot's tests run against. Its long polls last at most
// 200 ms, whatever the bot asks: a bot that stops is not held up by one.
func newFakeAPI(t testing.TB) *fakes.BotAPI {
	return fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: testToken, MaxPoll: 200 * time.Millisecond})
}

// newInProcessAPI is the fake Bot API without a listener: startBot connects the bot to it
// through an http.Client that calls it in process. A bubble of testing/synctest cannot wait on
// sockets, so this is what lets a test run the whole bot on the fake clock: pacing, retry-after
// and back-off then take no real time and depend on no scheduling.
func newInProcessAPI(t testing.TB) *fakes.BotAPI {
	return fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: testToken, MaxPoll: 200 * time.Millisecond, InProcess: true})
}

func privateText(userID int64, text string) tgbotapi.Update {
	return tgbotapi.Update{Message: &tgbotapi.Message{
		MessageID: 1, From: &tgbotapi.User{ID: userID, FirstName: "U"},
		Chat: &tgbotapi.Chat{ID: userID, Type: "private"}, Text: text, Date: 1,
		Entities: commandEntity(text),
	}}
}

func commandEntity(text string) []tgbotapi.MessageEntity {
	if !strings.HasPrefix(text, "/") {
		return nil
	}
	cmd, _, _ := strings.Cut(text, " ")
	return []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: len([]rune(cmd))}}
}

// fakeAgent is a function-field Answerer.
type fakeAgent struct {
	AnswerFunc func(ctx context.Context, r api.Request) (api.Answer, error)
	InlineFunc func(ctx context.Context, q string) ([]api.InlineResult, error)
	resets     int
	mu         sync.Mutex
}

func (f *fakeAgent) Answer(ctx context.Context, r api.Request) (api.Answer, error) {
	return f.AnswerFunc(ctx, r)
}

func (f *fakeAgent) Inline(ctx context.Context, q string) ([]api.InlineResult, error) {
	if f.InlineFunc == nil {
		return nil, nil
	}
	return f.InlineFunc(ctx, q)
}

func (f *fakeAgent) Upload(ctx context.Context, r api.Request, file api.File) (api.Answer, error) {
	return api.Answer{Text: "не поддерживается"}, nil
}

func (f *fakeAgent) RememberReceipt(context.Context, api.Request, int, string) error { return nil }

func (f *fakeAgent) Reset(context.Context, api.Request) error {
	f.mu.Lock()
	f.resets++
	f.mu.Unlock()
	return nil
}

func echoAgent() *fakeAgent {
	return &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		return api.Answer{Scenario: api.S2General, Text: "эхо: " + r.Text}, nil
	}}
}

// startBot runs a bot against f until the test ends; setup sees the bot before it runs.
func startBot(t testing.TB, f *fakes.BotAPI, a Answerer, o Options, setup ...func(*Bot)) *Bot {
	t.Helper()
	o.Token, o.APIURL = testToken, f.URL()
	if o.HTTPClient == nil {
		o.HTTPClient = f.Client()
	}
	if o.PollTimeout == 0 {
		o.PollTimeout = time.Second
	}
	if o.PollIdle == 0 {
		o.PollIdle = 10 * time.Millisecond // settle ends long polls early: no second-long pause after them
	}
	b, err := New(t.Context(), a, o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	unpace(b) // tests are not about pacing unless they say so
	for _, f := range setup {
		f(b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return b
}

// settle returns once every update pushed so far has been fetched and fully handled: a
// getUpdates call that starts after the pushes has returned and the bot has polled again (so
// the batch was accepted: the bot accepts a batch before it polls again), and the dispatcher's
// workers have drained. It ends the long polls meanwhile rather than wait them out.
func settle(t testing.TB, f *fakes.BotAPI, b *Bot) {
	t.Helper()
	want := f.Count("getUpdates") + 2
	deadline := time.Now().Add(20 * time.Second)
	for n := f.Count("getUpdates"); n < want; n = f.Count("getUpdates") {
		if time.Now().After(deadline) {
			t.Fatalf("getUpdates called %d times, want %d", n, want)
		}
		f.Kick()
		time.Sleep(time.Millisecond)
	}
	b.disp.wait()
}
