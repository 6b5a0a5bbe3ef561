package app

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/integrations/cbr/cbrtest"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
	"github.com/finbot/finbot/internal/testredis"
	"github.com/finbot/finbot/ru"
)

// The digests as finbot runs them: two replicas (app.New and Run) on one Redis behind one fake
// Bot API, the Bank of Russia's stand-in for the rates. A user subscribes with /subscribe
// through Telegram, at a time two minutes from now; the replicas' scheduler clocks are three
// minutes ahead, so the slot is due at their first look, and both look every 200 ms: the digest
// reaches the chat once, made of the day's rates and key rate. The scheduling itself is tested
// on a fake clock in agent/digest and agent; this is the wiring.
func TestDigestAcrossReplicas(t *testing.T) {
	for _, target := range testredis.Targets() {
		t.Run(target.Name, func(t *testing.T) {
			rdb := target.Open(t)
			prefix := testredis.Prefix(t, rdb)
			f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: replicaToken})
			bank := cbrtest.New(t)
			now := time.Now()
			for d := -7; d <= 1; d++ {
				bank.Publish(now.AddDate(0, 0, d), cbrtest.Quote{Code: "USD", Nominal: 1, Value: "80.1234"},
					cbrtest.Quote{Code: "EUR", Nominal: 1, Value: "92.5000"}, cbrtest.Quote{Code: "CNY", Nominal: 1, Value: "11.2000"})
			}
			bank.SetKeyRate(now.AddDate(0, -2, 0), "16.00")
			bank.SetKeyRate(now.AddDate(0, 0, -10), "15.50")
			env := map[string]string{
				"TELEGRAM_TOKEN": replicaToken, "TELEGRAM_API_URL": f.URL(), "REDIS_PREFIX": prefix,
				"REDIS_URL": testredis.URL(), "CBR_URL": bank.URL,
			}
			if target.Name == "cluster" {
				addrs := testredis.ClusterAddrs()
				env["REDIS_URL"] = "redis://" + addrs[0] + "?addr=" + strings.Join(addrs[1:], "&addr=")
				env["REDIS_CLUSTER"] = "true"
			}
			cfg := loadConfig(t, env)
			cfg.MetricsAddr, cfg.DigestEvery = "", 200*time.Millisecond
			ahead := func() time.Time { return time.Now().Add(3 * time.Minute) }
			var stops []func()
			addrs := []string{testnet.Addr(t), testnet.Addr(t)}
			for _, addr := range addrs {
				stops = append(stops, startDigestReplica(t, cfg, addr, ahead))
			}
			defer func() {
				for _, stop := range stops {
					stop()
				}
			}()
			f.WaitCalls(t, "setWebhook", 2)

			const chat = 777
			at := time.Now().Add(2 * time.Minute).In(ru.Moscow).Format("15:04")
			body, _ := json.Marshal(tgbotapi.Update{UpdateID: 1, Message: &tgbotapi.Message{
				MessageID: 1, From: &tgbotapi.User{ID: chat, FirstName: "U"}, Chat: &tgbotapi.Chat{ID: chat, Type: "private"},
				Text: "/subscribe утро " + at, Date: 1, Entities: []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: 10}},
			}})
			if !post(&http.Client{Timeout: 10 * time.Second}, addrs[0], body) {
				t.Fatal("the subscription's update was not taken")
			}
			sent := f.WaitSent(t, 2) // the confirmation and the digest
			if !strings.HasPrefix(sent[0].Text, "Готово: утренняя сводка — каждый день в "+at) {
				t.Errorf("reply to /subscribe: %q", sent[0].Text)
			}
			digest := sent[1].Text
			if !strings.HasPrefix(digest, "Утренняя сводка, ") || !strings.Contains(digest, "80,1234") ||
				!strings.Contains(digest, "Ключевая ставка Банка России") || !strings.Contains(digest, "15,50%") {
				t.Errorf("the digest:\n%s", digest)
			}
			time.Sleep(time.Second) // five more looks of each replica
			if n := len(f.Chat(chat)); n != 2 {
				for _, m := range f.Chat(chat) {
					t.Logf("%s", m.Text)
				}
				t.Errorf("%d messages in the chat, want the confirmation and one digest", n)
			}
		})
	}
}

// startDigestReplica is one finbot process whose digests' scheduler reads clock.
func startDigestReplica(t *testing.T, cfg config.Config, addr string, clock func() time.Time) (stop func()) {
	t.Helper()
	cfg.WebhookURL, cfg.WebhookListen, cfg.WebhookSecret = "http://"+addr+"/hook", addr, replicaSecret
	ctx, cancel := context.WithCancel(context.Background())
	a, err := New(ctx, cfg, Options{DigestClock: clock})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("replica %s: %v", addr, err)
		}
		a.Close()
	}
}
