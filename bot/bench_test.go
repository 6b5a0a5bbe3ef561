package bot

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/fakes"
)

// discardSender is an in-process Bot API: it accepts every message and typing action.
type discardSender struct{ sent atomic.Int64 }

func (d *discardSender) send(_ context.Context, out outgoing) error {
	d.sent.Add(int64(len(out.parts)))
	return nil
}
func (d *discardSender) typing(context.Context, int64) {}

// BenchmarkUpdate measures the bot's own work for one update through the whole pipeline:
// parse, de-duplicate, access and flood checks, the per-user slot, routing, history load and
// append, the handler, Markdown → entities, splitting and the (in-process) send. No LLM.
func BenchmarkUpdate(b *testing.B) {
	b.Run("memory", func(b *testing.B) {
		h := history.NewMemory(100_000, history.Limits{})
		benchPipeline(b, h, history.NewMemoryDedupe(1_000_000, time.Hour))
	})
	b.Run("redis", func(b *testing.B) {
		url := os.Getenv("REDIS_URL")
		if url == "" {
			url = "redis://127.0.0.1:6379/0"
		}
		opts, _ := redis.ParseURL(url)
		opts.ContextTimeoutEnabled = true
		rdb := redis.NewClient(opts)
		defer rdb.Close()
		if err := rdb.Ping(context.Background()).Err(); err != nil {
			b.Skipf("no redis: %v", err)
		}
		prefix := fmt.Sprintf("bench:%d:", time.Now().UnixNano())
		defer func() {
			keys, _ := rdb.Keys(context.Background(), prefix+"*").Result()
			for i := 0; i < len(keys); i += 1000 {
				rdb.Del(context.Background(), keys[i:min(i+1000, len(keys))]...)
			}
		}()
		benchPipeline(b, history.NewRedis(rdb, prefix, history.Limits{}), history.NewRedisDedupe(rdb, prefix, time.Hour))
	})
}

func benchPipeline(b *testing.B, h agent.History, d Deduper) {
	a := agent.New(agent.Deps{History: h}, agent.Options{})
	out := &discardSender{}
	c := newCore(a, out, slog.New(slog.DiscardHandler), NewMetrics(nil), coreOptions{})
	me := identity{id: 777, username: "finbot_test_bot"}
	texts := []string{"Привет!", "Кто нам должен на 31 марта?", "курс евро на вчера", "помоги", "Что такое НДС?"}
	ctx := context.Background()
	var id atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			n := id.Add(1)
			user := 1000 + n%500 // 500 chats, so history grows to its bound like in real use
			u := tgbotapi.Update{UpdateID: int(n), Message: &tgbotapi.Message{
				MessageID: int(n), From: &tgbotapi.User{ID: user}, Chat: &tgbotapi.Chat{ID: user, Type: "private"},
				Text: texts[n%int64(len(texts))],
			}}
			in, ok := parseUpdate(u, me, c.known)
			if !ok {
				b.Fatal("update ignored")
			}
			if first, _, err := d.Claim(ctx, in.updateID, time.Minute); err != nil || !first {
				b.Fatalf("dedupe: %v %v", first, err)
			}
			c.handle(ctx, in)
			if err := d.Done(ctx, in.updateID); err != nil {
				b.Fatalf("dedupe: %v", err)
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "updates/s")
	if out.sent.Load() < int64(b.N) {
		b.Fatalf("sent %d replies for %d updates", out.sent.Load(), b.N)
	}
}

// BenchmarkRateCached measures a cached "/rate" (USD, EUR, CNY today with the change against
// the previous publication) through the whole pipeline: parse, dedupe, access, command, agent,
// the Bank of Russia client's cache, formatting and the in-process send.
func BenchmarkRateCached(b *testing.B) {
	body, err := os.ReadFile("../integrations/cbr/testdata/curs_on_date_full.xml")
	if err != nil {
		b.Fatal(err)
	}
	var upstream atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstream.Add(1)
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.Write(body)
	}))
	defer srv.Close()
	rates := cbr.New(cbr.Options{BaseURL: srv.URL})
	a := agent.New(agent.Deps{History: history.NewMemory(100_000, history.Limits{}), Rates: rates}, agent.Options{})
	out := &discardSender{}
	c := newCore(a, out, slog.New(slog.DiscardHandler), NewMetrics(nil), coreOptions{})
	me := identity{id: 777, username: "finbot_test_bot"}
	d := history.NewMemoryDedupe(10_000_000, time.Hour)
	ctx := context.Background()
	run := func(n int64) {
		u := tgbotapi.Update{UpdateID: int(n), Message: &tgbotapi.Message{
			MessageID: int(n), From: &tgbotapi.User{ID: 1000 + n%500}, Chat: &tgbotapi.Chat{ID: 1000 + n%500, Type: "private"},
			Text: "/rate", Entities: []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: 5}},
		}}
		in, ok := parseUpdate(u, me, c.known)
		if !ok {
			b.Fatal("update ignored")
		}
		d.Claim(ctx, in.updateID, time.Minute)
		c.handle(ctx, in)
		d.Done(ctx, in.updateID)
	}
	run(0) // warm the cache
	warm := upstream.Load()
	var id atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			run(id.Add(1))
		}
	})
	b.StopTimer()
	if got := upstream.Load(); got != warm {
		b.Fatalf("cached /rate reached the Bank of Russia %d more times", got-warm)
	}
}

// BenchmarkCallbackFlood measures another user's reply latency (the message pushed → the reply
// reaching the fake Bot API) alone, and while one user presses a button 150 times, with a
// Telegram round trip on every call (rtt), Telegram's send limits and the production flood
// guard (20 a minute, burst 5). ratio is flood-ms / alone-ms. Run it once:
//
//	go test -run '^$' -bench CallbackFlood -benchtime 3x ./bot
func BenchmarkCallbackFlood(b *testing.B) {
	const rtt, presses = 50 * time.Millisecond, 150
	f := fakes.NewTestBotAPI(b, fakes.BotAPIOptions{Token: testToken, MaxPoll: 200 * time.Millisecond})
	f.SetFault(func(string, map[string]string) (int, string, bool) {
		time.Sleep(rtt)
		return 0, "", false
	})
	bot := startBot(b, f, echoAgent(), Options{UserRatePerMin: 20, UserRateBurst: 5},
		func(bt *Bot) { bt.limits = newSendLimits() }) // Telegram's limits, not the tests' unpaced ones
	chat := int64(1000)
	latency := func() time.Duration {
		chat++ // a chat of its own each time: no wait for its send budget
		text := fmt.Sprint("вопрос ", chat)
		pushed := time.Now()
		f.Push(privateText(chat, text))
		waitFor(b, "the reply", func() bool { return len(sentTo(f, chat)) == 1 })
		for _, c := range f.Calls("sendMessage") {
			if c.Form["chat_id"] == fmt.Sprint(chat) {
				return c.Arrived.Sub(pushed)
			}
		}
		b.Fatal("reply not found")
		return 0
	}
	var alone, flood time.Duration
	b.ResetTimer()
	for i := range b.N {
		alone += latency()
		for range presses {
			f.Push(press(10, 10, 1001, fmt.Sprint("b:op:cb61f26ca4d1:", i)))
		}
		flood += latency()
		b.StopTimer()
		settle(b, f, bot) // the presser's queue drains before the next round
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(alone.Milliseconds())/n, "alone-ms")
	b.ReportMetric(float64(flood.Milliseconds())/n, "flood-ms")
	b.ReportMetric(flood.Seconds()/alone.Seconds(), "ratio")
}
