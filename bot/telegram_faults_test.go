package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/fakes"
)

// Telegram-side faults while a steady stream of messages flows: flood control, formatting that
// Telegram rejects, server errors, duplicated updates. Every test ends with every message
// answered exactly once.

// checkAnsweredOnce checks that every want text reached its chat exactly once and in the order
// given, and that nothing else was sent.
func checkAnsweredOnce(t *testing.T, f *fakes.BotAPI, want map[int64][]string) {
	t.Helper()
	total := 0
	for chat, texts := range want {
		total += len(texts)
		if got := sentTo(f, chat); strings.Join(got, "\n") != strings.Join(texts, "\n") {
			t.Errorf("chat %d got %q,\nwant %q", chat, got, texts)
		}
	}
	if n := len(f.Sent()); n != total {
		t.Errorf("%d messages sent, want %d", n, total)
	}
}

// A burst of 429s: each reply waits the retry_after Telegram asked for, then goes out, once.
// On synctest's fake clock (the fake Bot API in process): the waits take no real time.
func TestFloodControlBurst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		began := time.Now()
		f := newInProcessAPI(t)
		const limited = 8 // the first 8 sendMessage calls are refused
		var (
			mu      sync.Mutex
			refused int
			until   = map[string]time.Time{} // chat → end of the retry_after it was given
			early   []string
		)
		f.SetFault(func(method string, form map[string]string) (int, string, bool) {
			if method != "sendMessage" {
				return 0, "", false
			}
			mu.Lock()
			defer mu.Unlock()
			now, chat := time.Now(), form["chat_id"]
			if end, ok := until[chat]; ok && now.Before(end) {
				early = append(early, fmt.Sprintf("chat %s retried %v before retry_after ended", chat, end.Sub(now)))
			}
			if refused < limited {
				refused++
				until[chat] = now.Add(time.Second)
				return 429, fakes.RetryAfter(1), true
			}
			return 0, "", false
		})
		startBot(t, f, echoAgent(), Options{PollIdle: 10 * time.Millisecond})
		want := map[int64][]string{}
		const chats, each = 4, 3
		for i := range chats * each {
			chat := int64(10 + i%chats)
			want[chat] = append(want[chat], fmt.Sprintf("эхо: сообщение %d", i))
		}
		flow(f, chats*each, 25*time.Millisecond, func(i int) tgbotapi.Update {
			return privateText(int64(10+i%chats), fmt.Sprintf("сообщение %d", i))
		})()
		f.WaitSent(t, chats*each)
		checkAnsweredOnce(t, f, want)
		mu.Lock()
		defer mu.Unlock()
		if len(early) > 0 {
			t.Errorf("retries faster than retry_after:\n%s", strings.Join(early, "\n"))
		}
		if n := f.Count("sendMessage"); n != chats*each+limited {
			t.Errorf("sendMessage calls = %d, want %d (each refusal retried once)", n, chats*each+limited)
		}
		t.Logf("took %v", time.Since(began).Round(time.Millisecond))
	})
}

// "can't parse entities": the reply is sent again as plain text; other replies keep their
// formatting.
func TestParseErrorsInStream(t *testing.T) {
	began := time.Now()
	f := newFakeAPI(t)
	f.SetFault(fakes.Refuse("sendMessage", 400, "Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 0",
		func(form map[string]string) bool {
			return strings.Contains(form["text"], "сломано") && hasEntities(form["entities"])
		}))
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		return api.Answer{Text: "**" + r.Text + "**: готово"}, nil
	}}
	startBot(t, f, a, Options{PollIdle: 10 * time.Millisecond})
	const n = 12
	want := map[int64][]string{}
	for i := range n {
		chat := int64(20 + i%3)
		word := "цело"
		if i%2 == 0 {
			word = "сломано"
		}
		want[chat] = append(want[chat], fmt.Sprintf("%s %d: готово", word, i))
	}
	flow(f, n, 20*time.Millisecond, func(i int) tgbotapi.Update {
		word := "цело"
		if i%2 == 0 {
			word = "сломано"
		}
		return privateText(int64(20+i%3), fmt.Sprintf("%s %d", word, i))
	})()
	f.WaitSent(t, n)
	checkAnsweredOnce(t, f, want)
	for _, m := range f.Sent() {
		if broken := strings.HasPrefix(m.Text, "сломано"); broken == hasEntities(m.Entities) {
			t.Errorf("%q went out with entities %s; want plain only for the rejected ones", m.Text, m.Entities)
		}
	}
	if got := f.Count("sendMessage"); got != n+n/2 {
		t.Errorf("sendMessage calls = %d, want %d (one plain re-send per rejected reply)", got, n+n/2)
	}
	t.Logf("took %v", time.Since(began).Round(time.Millisecond))
}

// 5xx (a proxy's HTML 502, Telegram's JSON 500) on sendMessage: retried with back-off, then
// delivered, once. On synctest's fake clock: the back-off takes no real time.
func TestServerErrorsOnSendAreRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		began := time.Now()
		f := newInProcessAPI(t)
		var (
			mu       sync.Mutex
			attempts = map[string][]time.Time{} // reply text → when each attempt arrived
		)
		f.SetFault(func(method string, form map[string]string) (int, string, bool) {
			if method != "sendMessage" {
				return 0, "", false
			}
			mu.Lock()
			defer mu.Unlock()
			text := form["text"]
			attempts[text] = append(attempts[text], time.Now())
			switch n := len(attempts[text]); {
			case n == 1 && strings.HasSuffix(text, "0"):
				return 502, "<html><body><h1>502 Bad Gateway</h1></body></html>", true
			case n == 1:
				return 500, fakes.Error(500, "Internal Server Error"), true
			case n == 2 && strings.HasSuffix(text, "5"):
				return 503, fakes.Error(503, "Service Unavailable"), true
			}
			return 0, "", false
		})
		startBot(t, f, echoAgent(), Options{PollIdle: 10 * time.Millisecond})
		const n = 6
		want := map[int64][]string{}
		for i := range n {
			want[int64(30+i%3)] = append(want[int64(30+i%3)], fmt.Sprintf("эхо: вопрос %d", i*5))
		}
		flow(f, n, 20*time.Millisecond, func(i int) tgbotapi.Update {
			return privateText(int64(30+i%3), fmt.Sprintf("вопрос %d", i*5))
		})()
		f.WaitSent(t, n)
		checkAnsweredOnce(t, f, want)
		mu.Lock()
		defer mu.Unlock()
		for text, at := range attempts {
			for i := 1; i < len(at); i++ {
				// backoff(k) waits at least half of 1s << (k-1).
				if gap, least := at[i].Sub(at[i-1]), (time.Second<<(i-1))/2; gap < least {
					t.Errorf("%q: attempt %d came %v after the failure, want a back-off of at least %v", text, i+1, gap, least)
				}
			}
		}
		t.Logf("took %v", time.Since(began).Round(time.Millisecond))
	})
}

// The same update_id delivered twice is answered once: twice in one getUpdates batch, again in a
// later batch, and twice through the webhook (while it is being answered and after).
func TestDuplicatedUpdatesAnsweredOnce(t *testing.T) {
	began := time.Now()
	t.Run("polling", func(t *testing.T) {
		f := newFakeAPI(t)
		var resend atomic.Pointer[[]tgbotapi.Update]
		f.SetFault(func(method string, _ map[string]string) (int, string, bool) {
			if method != "getUpdates" {
				return 0, "", false
			}
			if batch := resend.Swap(nil); batch != nil {
				body, _ := json.Marshal(*batch)
				return 200, `{"ok":true,"result":` + string(body) + `}`, true
			}
			return 0, "", false
		})
		startBot(t, f, echoAgent(), Options{Dedupe: history.NewMemoryDedupe(100, time.Hour), PollIdle: 10 * time.Millisecond})
		dup := privateText(40, "дубль")
		dup.UpdateID = 100
		f.Push(dup)
		f.Push(dup) // the same update twice in one batch
		wait := flow(f, 5, 20*time.Millisecond, func(i int) tgbotapi.Update { return privateText(41, fmt.Sprint("поток ", i)) })
		waitFor(t, "the first answer in chat 40", func() bool { return len(sentTo(f, 40)) == 1 })
		// Telegram sends update 100 again, in a later batch.
		resend.Store(&[]tgbotapi.Update{dup})
		waitFor(t, "the batch with the old update to be fetched", func() bool { return resend.Load() == nil })
		f.Push(privateText(40, "новое"))
		wait()
		f.WaitSent(t, 7)
		checkAnsweredOnce(t, f, map[int64][]string{
			40: {"эхо: дубль", "эхо: новое"},
			41: {"эхо: поток 0", "эхо: поток 1", "эхо: поток 2", "эхо: поток 3", "эхо: поток 4"},
		})
	})
	t.Run("webhook", func(t *testing.T) {
		f := newFakeAPI(t)
		gate, started := make(chan struct{}), make(chan struct{}, 10)
		a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
			started <- struct{}{}
			if r.Text == "медленно" {
				<-gate
			}
			return api.Answer{Text: "эхо: " + r.Text}, nil
		}}
		b, err := New(t.Context(), a, Options{Token: testToken, APIURL: f.URL(), WebhookURL: "https://bot.example/hook",
			WebhookSecret: "s3cr3t", Dedupe: history.NewMemoryDedupe(100, time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		unpace(b) // not about pacing
		srv := httptest.NewServer(b.webhookHandler(t.Context(), t.Context()))
		defer srv.Close()
		post := func(u tgbotapi.Update) {
			body, _ := json.Marshal(u)
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/hook", bytes.NewReader(body))
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", "s3cr3t")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("webhook answered %s", resp.Status)
			}
		}
		slow := privateText(50, "медленно")
		slow.UpdateID = 7
		post(slow)
		<-started
		var wg sync.WaitGroup
		for range 3 { // Telegram retries while the answer is being prepared
			wg.Go(func() { post(slow) })
		}
		wg.Go(func() { // meanwhile another chat goes on
			for i := range 4 {
				u := privateText(51, fmt.Sprint("поток ", i))
				u.UpdateID = 20 + i
				post(u)
			}
		})
		wg.Wait()
		close(gate)
		f.WaitSent(t, 5)
		post(slow) // and once more after the answer went out
		b.disp.wait()
		checkAnsweredOnce(t, f, map[int64][]string{
			50: {"эхо: медленно"},
			51: {"эхо: поток 0", "эхо: поток 1", "эхо: поток 2", "эхо: поток 3"},
		})
		if got := outcomes(b.core.metrics, "duplicate"); got != 4 {
			t.Errorf("duplicates counted %v, want 4", got)
		}
	})
	t.Logf("took %v", time.Since(began).Round(time.Millisecond))
}
