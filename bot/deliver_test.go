package bot

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/digest"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testredis"
)

var _ digest.Sender = (*Bot)(nil)

// Deliver sends an answer unasked as replies go: Markdown as entities, footnotes, the keyboard
// of its buttons; a group gets it without a reply to anything.
func TestDeliver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		b := startBot(t, f, echoAgent(), Options{})
		ans := api.Answer{Text: "**Утренняя сводка, 02.03.2026**\n\nКурс доллара — 80,0228 ₽ [1].",
			Sources: []api.Source{{Title: "Банк России, курсы на 02.03.2026", URL: "https://www.cbr.ru/currency_base/daily/"}},
			Buttons: []api.Button{{Text: "Отписаться: утро", Data: "u:morning"}}}
		for _, chat := range []int64{10, -100} {
			if err := b.Deliver(t.Context(), chat, 10, ans); err != nil {
				t.Fatalf("Deliver to %d: %v", chat, err)
			}
		}
		sent := f.Sent()
		if len(sent) != 2 {
			t.Fatalf("sent %d messages, want 2", len(sent))
		}
		for _, m := range sent {
			if !strings.HasPrefix(m.Text, "Утренняя сводка, 02.03.2026") || !strings.Contains(m.Text, "[1] Банк России, курсы на 02.03.2026") ||
				!strings.Contains(m.Entities, "bold") || !strings.Contains(m.Markup, `"callback_data":"u:morning"`) || m.ReplyTo != "" {
				t.Errorf("delivered to %s: %+v", m.ChatID, m)
			}
		}
		if n := testutil.ToFloat64(b.core.metrics.digests); n != 2 {
			t.Errorf("finbot_digests_total = %v", n)
		}
	})
}

// A chat that blocked the bot, a group that removed it (Telegram's 403) and a user the access
// lists no longer let in are api.ErrBlocked: the scheduler unsubscribes them. Flood control is
// waited out, and the message goes.
func TestDeliverRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		f.SetFault(func(method string, form map[string]string) (int, string, bool) {
			switch {
			case method != "sendMessage" && method != "sendRichMessage":
				return 0, "", false
			case form["chat_id"] == "20":
				return http.StatusForbidden, fakes.Error(http.StatusForbidden, "Forbidden: bot was blocked by the user"), true
			case form["chat_id"] == "-300":
				return http.StatusForbidden, fakes.Error(http.StatusForbidden, "Forbidden: bot was kicked from the supergroup chat"), true
			}
			return 0, "", false
		})
		b := startBot(t, f, echoAgent(), Options{Access: Access{Users: []int64{10, 20, 30}}})
		ans := api.Answer{Text: "сводка"}
		for _, c := range []struct{ chat, user int64 }{{20, 20}, {-300, 10}, {40, 40}} {
			if err := b.Deliver(t.Context(), c.chat, c.user, ans); !errors.Is(err, api.ErrBlocked) {
				t.Errorf("Deliver to %d = %v, want api.ErrBlocked", c.chat, err)
			}
		}
		if n := len(f.Sent()); n != 0 {
			t.Fatalf("%d messages reached refused chats", n)
		}

		// Flood control: Telegram asks to wait 7 s, twice; the delivery waits and goes.
		refusals := 0
		f.SetFault(func(method string, form map[string]string) (int, string, bool) {
			if method == "sendMessage" && refusals < 2 {
				refusals++
				return http.StatusTooManyRequests, fakes.RetryAfter(7), true
			}
			return 0, "", false
		})
		start := time.Now()
		if err := b.Deliver(t.Context(), 30, 30, ans); err != nil {
			t.Fatalf("Deliver through flood control: %v", err)
		}
		if waited := time.Since(start); waited < 14*time.Second || len(f.Sent()) != 1 {
			t.Errorf("waited %v, sent %d; want 14 s and one message", waited, len(f.Sent()))
		}
	})
}

// The digests through the real bot and the real Redis, on the fake clock: at 9:00 the
// subscribed chats get their digest through the bot's send path, once; the user who blocked the
// bot loses their subscriptions at the first refusal and is never sent to again; a group's
// digest goes within its own send budget.
func TestDigestsThroughTheBot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		time.Sleep(time.Until(time.Date(2026, 3, 2, 8, 0, 0, 0, time.FixedZone("MSK", 3*3600))))
		rdb := testredis.Client(t)
		store := history.NewRedisSubscriptions(rdb, testredis.Prefix(t, rdb))
		for _, s := range []digest.Subscription{
			{ChatID: 10, UserID: 10, Kind: digest.Morning, Hour: 9},
			{ChatID: 20, UserID: 20, Kind: digest.Morning, Hour: 9},
			{ChatID: 20, UserID: 20, Kind: digest.KeyRate},
			{ChatID: -100, UserID: 30, Group: true, Kind: digest.Morning, Hour: 9},
		} {
			s.Since = time.Now()
			data, _ := digest.Encode(s)
			if err := store.Put(t.Context(), s.ChatID, digest.IDOf(s), data, 10); err != nil {
				t.Fatal(err)
			}
		}
		// Long polls of an hour: the bot's poll loop would otherwise wake every 200 ms of the
		// fake day.
		f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: testToken, MaxPoll: time.Hour, InProcess: true})
		f.SetFault(fakes.Refuse("sendMessage", http.StatusForbidden, "Forbidden: bot was blocked by the user",
			func(form map[string]string) bool { return form["chat_id"] == "20" }))
		b := startBot(t, f, echoAgent(), Options{PollTimeout: time.Hour}, func(b *Bot) {
			// Telegram's limits, as they are (startBot lifts them for tests not about pacing).
			b.limits.private, b.limits.group, b.limits.global = PrivateChatLimit, GroupLimit, newGate(GlobalLimit)
		})
		prod := &countingProducer{}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); digest.NewScheduler(store, prod, b, digest.SchedulerOptions{}).Run(ctx) }()
		time.Sleep(26 * time.Hour) // to 10:00 the next day
		cancel()
		<-done

		byChat := map[string][]string{}
		for _, m := range f.Sent() {
			byChat[m.ChatID] = append(byChat[m.ChatID], m.Text)
		}
		if len(byChat["10"]) != 2 || len(byChat["-100"]) != 2 || len(byChat["20"]) != 0 {
			t.Errorf("delivered: %v", byChat)
		}
		if subs, _ := store.Chat(t.Context(), 20); len(subs) != 0 {
			t.Errorf("the chat that blocked the bot is still subscribed: %v", subs)
		}
		// Chat 20 was asked once (its first slot, the alert's check at 8:00 or the digest at 9:00,
		// got the 403), and never after.
		if n := prod.count(20); n != 1 {
			t.Errorf("the blocked chat's deliveries were made %d times, want 1", n)
		}
	})
}

// countingProducer makes a digest naming its subscription, and counts them per chat.
type countingProducer struct {
	mu sync.Mutex
	n  map[int64]int
}

func (p *countingProducer) Digest(_ context.Context, sub digest.Subscription, _ []byte) (digest.Outcome, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == nil {
		p.n = map[int64]int{}
	}
	p.n[sub.ChatID]++
	return digest.Outcome{Send: true, Answer: api.Answer{Text: "**" + sub.Title() + "**"}}, nil
}

func (p *countingProducer) count(chat int64) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n[chat]
}
