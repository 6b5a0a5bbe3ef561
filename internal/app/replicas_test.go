package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
	"github.com/finbot/finbot/internal/testredis"
)

// answers counts the answers per chat across replicas.
type answers struct {
	mu    sync.Mutex
	calls map[int64]int
}

func (c *answers) of(chat int64) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[chat]
}

// countingAnswerer is one replica's agent, counting its answers into answers.
type countingAnswerer struct {
	Answerer
	count *answers
}

func (c countingAnswerer) Answer(ctx context.Context, req api.Request) (api.Answer, error) {
	c.count.mu.Lock()
	c.count.calls[req.ChatID]++
	c.count.mu.Unlock()
	return c.Answerer.Answer(ctx, req)
}

const (
	replicaToken  = "42:REPLICA-token"
	replicaSecret = "replica_secret"
)

// replica is one finbot process: app.New and Run over the shared configuration, its webhook on
// its own address.
type replica struct {
	addr string
	stop func()
}

func startReplica(t *testing.T, cfg config.Config, addr string, count *answers) *replica {
	t.Helper()
	cfg.WebhookURL, cfg.WebhookListen, cfg.WebhookSecret = "http://"+addr+"/hook", addr, replicaSecret
	ctx, cancel := context.WithCancel(context.Background())
	a, err := New(ctx, cfg, Options{Answerer: func(inner Answerer) Answerer { return countingAnswerer{inner, count} }})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	return &replica{addr: addr, stop: func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("replica %s: %v", addr, err)
		}
		a.Close()
	}}
}

// post delivers one update to a replica's webhook as Telegram does; false when the replica
// does not take it (down, or not 200).
func post(client *http.Client, addr string, body []byte) bool {
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/hook", bytes.NewReader(body))
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", replicaSecret)
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// Two replicas share one Redis (the single server, then the Cluster) behind one fake Bot API,
// updates reaching them through a load balancer that sends each to the next replica up and
// to the other when that one refuses it. Every fifth update is delivered twice, to both (a
// webhook call Telegram retried), and one replica is stopped a third of the way in and started
// again at two thirds: every update is answered exactly once, and every dialog's history is in
// Redis.
func TestReplicasAnswerEachUpdateOnce(t *testing.T) {
	const n = 1000
	for _, target := range testredis.Targets() {
		t.Run(target.Name, func(t *testing.T) {
			rdb := target.Open(t)
			prefix := testredis.Prefix(t, rdb)
			f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: replicaToken})
			env := map[string]string{
				"TELEGRAM_TOKEN": replicaToken, "TELEGRAM_API_URL": f.URL(), "REDIS_PREFIX": prefix,
				"REDIS_URL": testredis.URL(), "USER_RATE_PER_MIN": "10000", "USER_RATE_BURST": "1000",
			}
			if target.Name == "cluster" {
				addrs := testredis.ClusterAddrs()
				env["REDIS_URL"] = "redis://" + addrs[0] + "?addr=" + strings.Join(addrs[1:], "&addr=")
				env["REDIS_CLUSTER"] = "true"
			}
			cfg := loadConfig(t, env)
			cfg.MetricsAddr = ""
			count := &answers{calls: map[int64]int{}}
			addrs := []string{testnet.Addr(t), testnet.Addr(t)}
			replicas := []*replica{startReplica(t, cfg, addrs[0], count), startReplica(t, cfg, addrs[1], count)}
			f.WaitCalls(t, "setWebhook", 2) // each listens before it registers the webhook
			defer func() {
				for _, r := range replicas {
					if r != nil {
						r.stop()
					}
				}
			}()

			deliver := balancer(t, func(k int) string {
				if r := replicas[k]; r != nil {
					return r.addr
				}
				return ""
			})
			for i := range n {
				switch i {
				case n / 3:
					replicas[0].stop() // SIGTERM: it finishes what it took, then stops listening
					replicas[0] = nil
				case 2 * n / 3:
					replicas[0] = startReplica(t, cfg, addrs[0], count)
					f.WaitCalls(t, "setWebhook", 3)
				}
				deliver(i, question(i))
			}
			f.WaitSent(t, n)
			for _, r := range replicas {
				r.stop()
			}
			replicas = nil

			answeredOnce(t, f, rdb, prefix, n, count.of)
		})
	}
}

// chatOf is the private chat (and user) of the i-th update of a replicas run.
func chatOf(i int) int64 { return int64(10_000 + i) }

// question is the i-th update of a replicas run: a question in its own private chat.
func question(i int) tgbotapi.Update {
	chat := chatOf(i)
	return tgbotapi.Update{UpdateID: 500_000 + i, Message: &tgbotapi.Message{
		MessageID: 1, From: &tgbotapi.User{ID: chat, FirstName: "U"},
		Chat: &tgbotapi.Chat{ID: chat, Type: "private"}, Text: "что ты умеешь?", Date: 1,
	}}
}

// balancer returns what the load balancer in front of two replicas does with update i: it
// posts it to replica i%2 and, when that one is down (addr gives "") or refuses it, to the
// other, until one takes it; every fifth update it then delivers again to the other replica
// (a webhook call Telegram retried).
func balancer(t *testing.T, addr func(k int) string) func(i int, u tgbotapi.Update) {
	client := &http.Client{Timeout: 10 * time.Second}
	post1 := func(i int, body []byte) {
		for attempt := 0; ; attempt++ {
			if a := addr((i + attempt) % 2); a != "" && post(client, a, body) {
				return
			}
			if attempt > 200 {
				t.Fatalf("update %d: no replica took it", i)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return func(i int, u tgbotapi.Update) {
		body, _ := json.Marshal(u)
		post1(i, body)
		if i%5 == 0 {
			post1(i+1, body) // the retry goes to the other replica
		}
	}
}

// answeredOnce checks that each of the n chats of a replicas run got exactly one reply (and,
// with answers, one answer from the agent) and has its dialog in Redis.
func answeredOnce(t *testing.T, f *fakes.BotAPI, rdb redis.UniversalClient, prefix string, n int, answers func(chat int64) int) {
	t.Helper()
	var twice, never []string
	for i := range n {
		chat := chatOf(i)
		switch got := len(f.Chat(chat)); {
		case got == 0:
			never = append(never, strconv.FormatInt(chat, 10))
		case got > 1:
			twice = append(twice, fmt.Sprintf("%d (%d replies)", chat, got))
		}
		if answers != nil {
			if c := answers(chat); c != 1 {
				twice = append(twice, fmt.Sprintf("%d (%d answers)", chat, c))
			}
		}
	}
	if len(twice)+len(never) > 0 {
		t.Errorf("of %d updates, answered more than once: %v; never: %v", n, twice, never)
	}
	keys, err := testredis.Keys(t.Context(), rdb, prefix+"hist:")
	if err != nil || len(keys) != n {
		t.Errorf("%d dialogs in Redis (%v), want %d", len(keys), err, n)
	}
}
