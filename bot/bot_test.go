package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
)

func TestPrivateMessageGetsAnswer(t *testing.T) {
	f := newFakeAPI(t)
	startBot(t, f, echoAgent(), Options{})
	f.Push(privateText(10, "Привет"))
	got := f.WaitSent(t, 1)
	if got[0].Text != "эхо: Привет" || got[0].ChatID != "10" {
		t.Errorf("sent %+v", got[0])
	}
	if f.Count("setMyCommands") != 1 || f.Count("deleteWebhook") != 1 {
		t.Errorf("start-up calls: setMyCommands %d, deleteWebhook %d", f.Count("setMyCommands"), f.Count("deleteWebhook"))
	}
}

func TestRetriesAfter429(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		var failures atomic.Int32
		f.SetFault(func(method string, _ map[string]string) (int, string, bool) {
			if method == "sendMessage" && failures.Add(1) == 1 {
				return 429, fakes.RetryAfter(1), true
			}
			return 0, "", false
		})
		startBot(t, f, echoAgent(), Options{})
		f.Push(privateText(10, "курс"))
		got := f.WaitSent(t, 1)
		if got[0].Text != "эхо: курс" || f.Count("sendMessage") != 2 {
			t.Errorf("after a 429: sent %+v, sendMessage calls %d (want 2)", got, f.Count("sendMessage"))
		}
	})
}

func TestParseErrorFallsBackToPlainText(t *testing.T) {
	f := newFakeAPI(t)
	f.SetFault(fakes.Refuse("sendMessage", 400, "Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 5",
		func(form map[string]string) bool { return form["entities"] != "" && form["entities"] != "null" }))
	a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
		return api.Answer{Text: "**Итого**: 100 ₽"}, nil
	}}
	startBot(t, f, a, Options{})
	f.Push(privateText(10, "итог"))
	got := f.WaitSent(t, 1)
	if got[0].Text != "Итого: 100 ₽" {
		t.Errorf("plain re-send = %q", got[0].Text)
	}
}

func TestBlockedUserIsDroppedQuietly(t *testing.T) {
	f := newFakeAPI(t)
	f.SetFault(fakes.Refuse("sendMessage", 403, "Forbidden: bot was blocked by the user",
		func(form map[string]string) bool { return form["chat_id"] == "10" }))
	var logs bytes.Buffer
	b := startBot(t, f, echoAgent(), Options{Logger: slog.New(slog.NewJSONHandler(&syncWriter{w: &logs}, nil))})
	f.Push(privateText(10, "привет"))
	f.Push(privateText(11, "привет"))
	f.WaitSent(t, 1) // user 11 still gets an answer
	f.WaitCalls(t, "sendMessage", 2)
	b.disp.wait()
	if n := f.Count("sendMessage"); n != 2 {
		t.Errorf("sendMessage calls = %d, want 2 (no retry for a 403)", n)
	}
}

func TestChatActionFailureDoesNotBlockReply(t *testing.T) {
	f := newFakeAPI(t)
	f.SetFault(func(method string, _ map[string]string) (int, string, bool) {
		if method == "sendChatAction" {
			return 500, `{"message":"API method 'sendChatAction' is not supported"}`, true
		}
		return 0, "", false
	})
	startBot(t, f, echoAgent(), Options{})
	f.Push(privateText(10, "вопрос"))
	if got := f.WaitSent(t, 1); got[0].Text != "эхо: вопрос" {
		t.Errorf("sent %+v", got)
	}
}

func TestDuplicateUpdateAnsweredOnce(t *testing.T) {
	f := newFakeAPI(t)
	dedupe := &memDedupe{seen: map[int64]bool{}}
	b := startBot(t, f, echoAgent(), Options{Dedupe: dedupe})
	u := privateText(10, "раз")
	u.UpdateID = 5
	f.Push(u)
	f.WaitSent(t, 1)
	// The same update delivered again (a webhook retry) must not be answered twice.
	b.accept(t.Context(), t.Context(), update{Update: u}, nil)
	f.Push(privateText(10, "два"))
	got := f.WaitSent(t, 2)
	if len(got) != 2 || got[1].Text != "эхо: два" {
		t.Errorf("sent %+v, want one answer per distinct update", got)
	}
}

// memDedupe remembers every update it was asked to claim; it never forgets nor releases.
type memDedupe struct {
	mu   sync.Mutex
	seen map[int64]bool
}

func (d *memDedupe) Claim(_ context.Context, id int64, _ time.Duration) (bool, time.Duration, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seen[id] {
		return false, 0, nil
	}
	d.seen[id] = true
	return true, 0, nil
}

func (d *memDedupe) Done(context.Context, int64) error                    { return nil }
func (d *memDedupe) Release(context.Context, int64) error                 { return nil }
func (d *memDedupe) Extend(context.Context, []int64, time.Duration) error { return nil }

// slowDedupe is memDedupe with a round trip of delay, counting the claims in flight at once.
type slowDedupe struct {
	memDedupe
	delay             time.Duration
	inflight, maxSeen atomic.Int32
}

func (d *slowDedupe) Claim(ctx context.Context, id int64, lease time.Duration) (bool, time.Duration, error) {
	n := d.inflight.Add(1)
	defer d.inflight.Add(-1)
	for {
		m := d.maxSeen.Load()
		if n <= m || d.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(d.delay)
	return d.memDedupe.Claim(ctx, id, lease)
}

// TestBatchClaimedConcurrently: a slow de-duplication store costs a batch one round trip, not
// one per update, and every update of it is still answered once.
func TestBatchClaimedConcurrently(t *testing.T) {
	f := newFakeAPI(t)
	dedupe := &slowDedupe{memDedupe: memDedupe{seen: map[int64]bool{}}, delay: 50 * time.Millisecond}
	const n = 8
	for i := range n {
		f.Push(privateText(int64(100+i), fmt.Sprintf("вопрос %d", i))) // one batch: queued before the bot polls
	}
	b := startBot(t, f, echoAgent(), Options{Dedupe: dedupe})
	f.WaitSent(t, n)
	settle(t, f, b)
	if got := len(f.Sent()); got != n {
		t.Errorf("%d replies to %d updates", got, n)
	}
	if m := dedupe.maxSeen.Load(); m < 2 {
		t.Errorf("at most %d claim in flight at once, want the batch's claims concurrent", m)
	}
}

// In a group, members' questions are separate conversations: one member's slow answer does not
// hold up another's, while each member's own questions stay in order.
func TestGroupMembersAreAnsweredIndependently(t *testing.T) {
	f := newFakeAPI(t)
	release := make(chan struct{})
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		if strings.HasSuffix(r.Text, "медленно") {
			<-release
		}
		return api.Answer{Text: "ответ: " + r.Text}, nil
	}}
	startBot(t, f, a, Options{})
	f.Push(hostileMention(1, "медленно"))
	f.Push(hostileMention(1, "потом"))
	f.Push(hostileMention(2, "быстро"))
	if got := f.WaitSent(t, 1); !strings.Contains(got[0].Text, "быстро") {
		t.Fatalf("first reply %q, want the other member's, not held up by a slow answer", got[0].Text)
	}
	close(release)
	got := f.WaitSent(t, 3)
	var first []string
	for _, m := range got[1:] {
		first = append(first, m.Text)
	}
	if !strings.Contains(first[0], "медленно") || !strings.Contains(first[1], "потом") {
		t.Errorf("member 1's replies %q, want their two questions in order", first)
	}
}

func TestMessagesOfOneChatStayInOrder(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		if r.Text == "1" {
			time.Sleep(50 * time.Millisecond) // the first answer is the slowest
		}
		return api.Answer{Text: "ответ " + r.Text}, nil
	}}
	startBot(t, f, a, Options{})
	for _, s := range []string{"1", "2", "3"} {
		f.Push(privateText(10, s))
	}
	got := f.WaitSent(t, 3)
	for i, want := range []string{"ответ 1", "ответ 2", "ответ 3"} {
		if got[i].Text != want {
			t.Errorf("message %d = %q, want %q", i, got[i].Text, want)
		}
	}
}

func TestCancelStopsRunningAnswer(t *testing.T) {
	f := newFakeAPI(t)
	started := make(chan struct{})
	a := &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
		close(started)
		<-ctx.Done()
		return api.Answer{}, ctx.Err()
	}}
	startBot(t, f, a, Options{})
	f.Push(privateText(10, "долгий вопрос"))
	<-started
	f.Push(privateText(10, "/cancel"))
	got := f.WaitSent(t, 1)
	if !strings.Contains(got[0].Text, "Остановил") {
		t.Errorf("after /cancel: %q", got[0].Text)
	}
}

func TestCancelWithNothingRunning(t *testing.T) {
	f := newFakeAPI(t)
	startBot(t, f, echoAgent(), Options{})
	f.Push(privateText(10, "/cancel"))
	if got := f.WaitSent(t, 1); !strings.Contains(got[0].Text, "Останавливать нечего") {
		t.Errorf("reply = %q", got[0].Text)
	}
}

// TestCancelWhileTheAnswerIsSent: a /cancel that arrives while the ready answer is being
// delivered gets its own reply (nothing is left to stop), and the answer is delivered whole.
func TestCancelWhileTheAnswerIsSent(t *testing.T) {
	f := newFakeAPI(t)
	sending, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	f.SetFault(func(method string, form map[string]string) (int, string, bool) {
		if method == "sendMessage" && strings.Contains(form["text"], "эхо") {
			once.Do(func() { close(sending) })
			<-release // the answer's send is under way until the /cancel has been answered
		}
		return 0, "", false
	})
	startBot(t, f, echoAgent(), Options{})
	var unblock sync.Once
	free := func() { unblock.Do(func() { close(release) }) }
	t.Cleanup(free) // before the bot stops: a failed wait must not leave the send blocked
	f.Push(privateText(10, "вопрос"))
	<-sending
	f.Push(privateText(10, "/cancel"))
	got := f.WaitSent(t, 1)
	free()
	if !strings.Contains(got[0].Text, "Останавливать нечего") {
		t.Errorf("/cancel during delivery: %q", got[0].Text)
	}
	if got := f.WaitSent(t, 2); got[1].Text != "эхо: вопрос" {
		t.Errorf("the answer: %q", got[1].Text)
	}
}

func TestAccessControl(t *testing.T) {
	f := newFakeAPI(t)
	startBot(t, f, echoAgent(), Options{Access: Access{Users: []int64{10}}})
	f.Push(privateText(99, "пусти"))
	f.Push(privateText(10, "привет"))
	got := byChat(f.WaitSent(t, 2))
	if !strings.Contains(got["99"][0], "только сотрудникам") || got["10"][0] != "эхо: привет" {
		t.Errorf("sent %+v", got)
	}
}

func TestFloodGetsOneNotice(t *testing.T) {
	f := newFakeAPI(t)
	b := startBot(t, f, echoAgent(), Options{UserRatePerMin: 1, UserRateBurst: 2})
	for i := range 6 {
		f.Push(privateText(10, fmt.Sprint("сообщение ", i)))
	}
	f.Push(privateText(11, "другой пользователь"))
	settle(t, f, b)
	got := f.WaitSent(t, 4)
	notices := 0
	for _, m := range got {
		if strings.Contains(m.Text, "Слишком много") {
			notices++
		}
	}
	if len(got) != 4 || notices != 1 {
		t.Errorf("sent %d messages with %d flood notices, want 4 with 1: %+v", len(got), notices, got)
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	f := newFakeAPI(t)
	startBot(t, f, echoAgent(), Options{})
	f.Push(privateText(10, "/help"))
	got := f.WaitSent(t, 1)
	for _, c := range commands() {
		if !c.adminOnly && !c.hidden && !strings.Contains(got[0].Text, "/"+c.name) {
			t.Errorf("/help lacks /%s:\n%s", c.name, got[0].Text)
		}
	}
	if strings.Contains(got[0].Text, "/status") {
		t.Error("/help shows the admin command to a non-admin")
	}
}

func TestUnknownAndAdminCommands(t *testing.T) {
	f := newFakeAPI(t)
	startBot(t, f, echoAgent(), Options{Access: Access{Admins: []int64{1}}, Status: func(context.Context) []string { return []string{"Redis — в порядке"} }})
	f.Push(privateText(10, "/foo"))
	f.Push(privateText(10, "/status"))
	f.Push(privateText(1, "/status"))
	got := byChat(f.WaitSent(t, 3))
	if len(got["10"]) != 2 || !strings.Contains(got["10"][0], "Не знаю такой команды") || !strings.Contains(got["10"][1], "только администраторам") ||
		!strings.Contains(got["1"][0], "Redis — в порядке") {
		t.Errorf("sent %+v", got)
	}
}

func TestButtonsBecomeInlineKeyboardAndCallbacksAsk(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		if r.Text == "помоги" {
			return api.Answer{Scenario: api.S5Clarify, Text: "Что нужно?", Buttons: []api.Button{{Text: "Ключевая ставка"}}}, nil
		}
		return api.Answer{Text: "ответ на " + r.Text}, nil
	}}
	startBot(t, f, a, Options{})
	f.Push(privateText(10, "помоги"))
	got := f.WaitSent(t, 1)
	if !strings.Contains(got[0].Markup, `"callback_data":"q:Ключевая ставка"`) {
		t.Fatalf("markup = %s", got[0].Markup)
	}
	f.Push(tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{
		ID: "cb1", From: &tgbotapi.User{ID: 10}, Data: "q:Ключевая ставка",
		Message: &tgbotapi.Message{MessageID: 5, Chat: &tgbotapi.Chat{ID: 10, Type: "private"}},
	}})
	got = f.WaitSent(t, 2)
	if got[1].Text != "ответ на Ключевая ставка" || f.Count("answerCallbackQuery") != 1 {
		t.Errorf("callback answer = %q, answerCallbackQuery calls %d", got[1].Text, f.Count("answerCallbackQuery"))
	}
}

func TestPanicInAgentBecomesAReply(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) { panic("boom") }}
	startBot(t, f, a, Options{})
	f.Push(privateText(10, "упади"))
	f.Push(privateText(10, "ещё"))
	got := f.WaitSent(t, 2)
	if !strings.Contains(got[0].Text, "Что-то пошло не так") || strings.Contains(got[0].Text, "boom") {
		t.Errorf("panic reply = %q", got[0].Text)
	}
}

func TestAgentErrorsBecomeRussianText(t *testing.T) {
	for _, err := range []error{api.ErrEmpty, api.ErrTooLong, api.ErrUnavailable, context.DeadlineExceeded, errors.New("redis: i/o timeout 10.0.0.1")} {
		msg := userMessage(fmt.Errorf("wrapped: %w", err))
		if msg == "" || strings.Contains(msg, "redis") || strings.Contains(msg, "wrapped") {
			t.Errorf("userMessage(%v) = %q", err, msg)
		}
	}
}

func TestShutdownWaitsForAnswerInFlight(t *testing.T) {
	f := newFakeAPI(t)
	started := make(chan struct{})
	a := &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		return api.Answer{Text: "успел"}, ctx.Err()
	}}
	b, err := New(t.Context(), a, Options{Token: testToken, APIURL: f.URL(), PollTimeout: time.Second, ShutdownTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	f.Push(privateText(10, "вопрос"))
	<-started
	cancel() // SIGTERM while the answer is being prepared
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if sent := f.Sent(); len(sent) != 1 || sent[0].Text != "успел" {
		t.Errorf("after shutdown: sent %+v, want the answer in flight delivered", sent)
	}
}

func TestWebhookChecksSecret(t *testing.T) {
	f := newFakeAPI(t)
	b, err := New(t.Context(), echoAgent(), Options{Token: testToken, APIURL: f.URL(), WebhookSecret: "s3cr3t_token"})
	if err != nil {
		t.Fatal(err)
	}
	h := b.webhookHandler(t.Context(), t.Context())
	body, _ := json.Marshal(privateText(10, "через вебхук"))
	for _, tt := range []struct {
		secret string
		want   int
	}{{"", http.StatusUnauthorized}, {"wrong", http.StatusUnauthorized}, {"s3cr3t_token", http.StatusOK}} {
		req := httptest.NewRequest(http.MethodPost, "/hook", bytes.NewReader(body))
		if tt.secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", tt.secret)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.want {
			t.Errorf("secret %q: status %d, want %d", tt.secret, rec.Code, tt.want)
		}
	}
	got := f.WaitSent(t, 1)
	b.disp.wait()
	if len(got) != 1 || got[0].Text != "эхо: через вебхук" {
		t.Errorf("sent %+v, want exactly one answer (only the authenticated update)", got)
	}
}

func TestTokenNeverInErrors(t *testing.T) {
	// A Bot API that cannot be reached: the transport error quotes the URL with the token.
	_, err := New(t.Context(), echoAgent(), Options{Token: testToken, APIURL: "http://" + testnet.Addr(t)})
	if err == nil {
		t.Fatal("New against a closed port succeeded")
	}
	if strings.Contains(err.Error(), testToken) || !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("error = %q: the token must be redacted", err)
	}
}

// syncWriter serialises writes from the bot's goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// byChat groups sent texts by chat: chats are answered concurrently, so only the order within
// a chat is defined.
func byChat(sent []fakes.Message) map[string][]string {
	out := map[string][]string{}
	for _, m := range sent {
		out[m.ChatID] = append(out[m.ChatID], m.Text)
	}
	return out
}

func TestWebhookMode(t *testing.T) {
	f := newFakeAPI(t)
	addr := testnet.Addr(t) // the bot listens on it; nothing else can take it meanwhile
	startBot(t, f, echoAgent(), Options{WebhookURL: "http://" + addr + "/tg/hook", WebhookListen: addr, WebhookSecret: "hook_secret"})
	body, _ := json.Marshal(privateText(10, "вебхук"))
	f.WaitCalls(t, "setWebhook", 1) // the bot listens before it registers the webhook
	postHook(t, "http://"+addr+"/tg/hook", body)
	if got := f.WaitSent(t, 1); got[0].Text != "эхо: вебхук" {
		t.Errorf("sent %+v", got)
	}
	if setWebhook := f.Calls("setWebhook")[0].Form; setWebhook["secret_token"] != "hook_secret" || setWebhook["url"] != "http://"+addr+"/tg/hook" {
		t.Errorf("setWebhook form = %v", setWebhook)
	}
	if n := f.Count("getUpdates"); n != 0 {
		t.Errorf("getUpdates called %d times in webhook mode", n)
	}
}

func TestChartIsSentAsPhotoAfterText(t *testing.T) {
	f := newFakeAPI(t)
	png := []byte("\x89PNG\r\n\x1a\nfake-chart-bytes")
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		if r.Command != "rate" || r.Text != "CNY март 2026" {
			t.Errorf("request = %+v, want command rate with its arguments", r)
		}
		return api.Answer{Text: "**Юань** за март", Chart: &api.Chart{PNG: png, Caption: "CNY, 02.03 – 31.03.2026: **+1,2%**"}}, nil
	}}
	startBot(t, f, a, Options{})
	f.Push(privateText(10, "/rate CNY март 2026"))
	f.WaitSent(t, 1)
	f.WaitCalls(t, "sendPhoto", 1)
	photos := f.Photos()
	if len(photos) != 1 || !bytes.Equal(photos[0].File, png) || photos[0].ChatID != "10" {
		t.Fatalf("photos = %+v", photos)
	}
	if photos[0].Text != "CNY, 02.03 – 31.03.2026: +1,2%" || !strings.Contains(photos[0].Entities, `"bold"`) {
		t.Errorf("caption %q entities %s", photos[0].Text, photos[0].Entities)
	}
}

func TestInlineQueryOffersFigures(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{InlineFunc: func(_ context.Context, q string) ([]api.InlineResult, error) {
		return []api.InlineResult{{ID: "rate-USD", Title: "USD: 81,1234 ₽", Description: "ЦБ РФ", Text: "USD: **81,1234 ₽**"}}, nil
	}}
	startBot(t, f, a, Options{Access: Access{Users: []int64{10}}})
	f.Push(tgbotapi.Update{InlineQuery: &tgbotapi.InlineQuery{ID: "iq1", From: &tgbotapi.User{ID: 10}, Query: "usd"}})
	f.Push(tgbotapi.Update{InlineQuery: &tgbotapi.InlineQuery{ID: "iq2", From: &tgbotapi.User{ID: 99}, Query: "usd"}})
	f.WaitCalls(t, "answerInlineQuery", 2)
	byID := map[string]string{}
	for _, c := range f.Calls("answerInlineQuery") {
		byID[c.Form["inline_query_id"]] = c.Form["results"]
	}
	if !strings.Contains(byID["iq1"], `"message_text":"USD: 81,1234 ₽"`) || !strings.Contains(byID["iq1"], `"type":"bold"`) {
		t.Errorf("allowed user's results = %s", byID["iq1"])
	}
	if byID["iq2"] != "[]" {
		t.Errorf("refused user's results = %s, want none", byID["iq2"])
	}
}

func TestDrilldownButtonsExportAndDebug(t *testing.T) {
	f := newFakeAPI(t)
	var got []api.Request
	var mu sync.Mutex
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
		ans := api.Answer{Scenario: api.OneC, Kind: understand.KindLedger, Recipe: "list_receivables_counterparties", Text: "**Кто должен нам**"}
		ans.Debug.Trace = map[string]any{"ledger": &runner.Debug{SelectedRecipe: "address.receivables.counterparty_totals"}}
		switch r.Text {
		case "x:last":
			ans.Document = &api.Document{Name: "receivables.xlsx", Bytes: []byte("PK-xlsx")}
		default:
			ans.Buttons = []api.Button{{Text: "Открытые позиции: ООО «Альфа»", Data: "b:op:cb61f26ca4d1:20260331:34adc550-78a:"}, {Text: "Выгрузить в Excel", Data: "x:last"}}
		}
		return ans, nil
	}}
	startBot(t, f, a, Options{Access: Access{Admins: []int64{10}}})
	f.Push(privateText(10, "/debug on"))
	f.Push(privateText(10, "кто нам должен"))
	f.WaitSent(t, 2)
	f.WaitCalls(t, "sendDocument", 1) // debug.json, because /debug is on
	sent := f.WaitSent(t, 2)
	if !strings.Contains(sent[1].Markup, `"callback_data":"b:op:cb61f26ca4d1:20260331:34adc550-78a:"`) || !strings.Contains(sent[1].Markup, `"callback_data":"x:last"`) {
		t.Fatalf("markup = %s", sent[1].Markup)
	}
	for _, data := range []string{"b:op:cb61f26ca4d1:20260331:34adc550-78a:", "x:last"} {
		f.Push(tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{ID: "cb-" + data, From: &tgbotapi.User{ID: 10}, Data: data,
			Message: &tgbotapi.Message{MessageID: 5, Chat: &tgbotapi.Chat{ID: 10, Type: "private"}}}})
	}
	f.WaitCalls(t, "sendDocument", 4) // debug.json after each answer, plus the export
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 || got[1].Command != "drill" || got[1].Text != "b:op:cb61f26ca4d1:20260331:34adc550-78a:" || got[2].Text != "x:last" {
		t.Errorf("agent requests = %+v", got)
	}
	names := ""
	for _, d := range f.Documents() {
		names += string(d.File[:2]) + " "
	}
	if !strings.Contains(names, "PK") {
		t.Errorf("no xlsx among sent documents: %q", names)
	}
}

// Every configured secret is removed from what the bot sends: an answer's text, a footnote, a
// button's label, a service reply (issue #19). The agent's error text can carry an upstream
// error body that echoes a key.
func TestRepliesNeverCarrySecrets(t *testing.T) {
	const secret = "sk-or-v1-leaked-0123456789"
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		return api.Answer{Scenario: api.S2General, Text: "Ошибка LLM: Incorrect API key provided: " + secret,
			Sources: []api.Source{{Title: "ключ " + secret}}, Buttons: []api.Button{{Text: "повторить " + secret[:12]}}}, nil
	}}
	red := func(s string) string { return strings.ReplaceAll(s, secret, "[redacted]") }
	startBot(t, f, a, Options{Redact: red})
	f.Push(privateText(10, "что с ключом?"))
	got := f.WaitSent(t, 1)
	if strings.Contains(got[0].Text, secret) || !strings.Contains(got[0].Text, "[redacted]") {
		t.Errorf("sent %q: the secret must be redacted", got[0].Text)
	}
}

// An invented /command counts as «other» in /metrics: a thousand invented commands add no
// thousand series (issue #19).
func TestUnknownCommandsShareOneMetricsLabel(t *testing.T) {
	f := newFakeAPI(t)
	m := NewMetrics(prometheus.NewRegistry())
	startBot(t, f, echoAgent(), Options{Metrics: m})
	for i := range 5 {
		f.Push(privateText(10, fmt.Sprintf("/invented%d", i)))
	}
	f.Push(privateText(10, "/help"))
	f.WaitSent(t, 6)
	if n := testutil.CollectAndCount(m.routes); n != 2 {
		t.Errorf("%d route series, want 2 (command/other and command/help)", n)
	}
	if v := testutil.ToFloat64(m.routes.WithLabelValues(string(api.Command), "other")); v != 5 {
		t.Errorf("command/other = %v, want 5", v)
	}
}
