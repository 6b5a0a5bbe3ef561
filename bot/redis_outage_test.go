package bot

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/library"
)

// recordingAgent is the real agent, with a note of what each answer saw of the history.
type recordingAgent struct {
	*agent.Agent
	mu    sync.Mutex
	turns map[string]int // chat|text → Debug.HistoryTurns
	flags map[string]int // degraded flag → answers that had it
	// slowest is the longest Answer call.
	slowest time.Duration
}

func (r *recordingAgent) Answer(ctx context.Context, req api.Request) (api.Answer, error) {
	start := time.Now()
	ans, err := r.Agent.Answer(ctx, req)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.slowest = max(r.slowest, time.Since(start))
	if err == nil {
		r.turns[fmt.Sprint(req.ChatID, "|", req.Text)] = ans.Debug.HistoryTurns
		for _, d := range ans.Debug.Degraded {
			r.flags[d]++
		}
	}
	return ans, err
}

func (r *recordingAgent) historyTurns(chat int64, text string) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, ok := r.turns[fmt.Sprint(chat, "|", text)]
	return n, ok
}

// Redis stops (redis-cli shutdown nosave) and comes back while messages keep coming: every
// message gets its reply, history written after the recovery is intact, nothing panics and no
// goroutine is left behind. The bot is wired to Redis as main.go wires it: history, documents
// and update claims on one client with the same options.
func TestRedisOutageWhileMessagesFlow(t *testing.T) {
	began := time.Now()
	srv := startRedisServer(t)
	f := newFakeAPI(t)
	transport := http.DefaultTransport.(*http.Transport).Clone()
	before := settledGoroutines()

	rdb := redis.NewClient(&redis.Options{Addr: srv.addr(), ContextTimeoutEnabled: true, MaxRetries: 1, DialTimeout: 2 * time.Second})
	hist := history.NewRedis(rdb, "", history.Limits{MaxTurns: 1000, MaxChars: 1 << 20}) // room for every turn, so counts add up
	rec := &recordingAgent{
		// A shorter HistoryTimeout than main's 2s only makes the outage cheaper to sit through.
		Agent: agent.New(agent.Deps{History: hist, Library: library.New(docstore.NewRedis(rdb, ""), nil, library.Options{})},
			agent.Options{HistoryTimeout: 500 * time.Millisecond}),
		turns: map[string]int{}, flags: map[string]int{},
	}
	var logs bytes.Buffer
	ctx, stop := context.WithCancel(context.Background())
	b, err := New(ctx, rec, Options{Token: testToken, APIURL: f.URL(), PollTimeout: time.Second, PollIdle: 10 * time.Millisecond,
		HTTPClient: &http.Client{Transport: transport, Timeout: 30 * time.Second},
		Dedupe:     history.NewRedisDedupe(rdb, "", time.Hour),
		Logger:     slog.New(slog.NewJSONHandler(&syncWriter{w: &logs}, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatal(err)
	}
	unpace(b)
	runErr := make(chan error, 1)
	go func() { runErr <- b.Run(ctx) }()
	stopped := false
	stopBot := func() {
		if !stopped {
			stopped = true
			stop()
			if err := <-runErr; err != nil {
				t.Errorf("Run: %v", err)
			}
		}
	}
	defer func() {
		stopBot()
		if t.Failed() {
			t.Logf("bot logs:\n%s", logs.String())
		}
	}()

	// A steady stream: five users, one message every 40 ms between them.
	const users = 5
	var (
		mu     sync.Mutex
		asked  = map[int64]int{}
		phase  = "redis up"
		phases = map[string]int{}
		pushed atomic.Int32
	)
	quit, streamDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(streamDone)
		tick := time.NewTicker(40 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			chat := int64(100 + i%users)
			mu.Lock()
			asked[chat]++
			phases[phase]++
			mu.Unlock()
			f.Push(privateText(chat, fmt.Sprintf("Спасибо, %d", i)))
			pushed.Add(1)
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
	}()
	setPhase := func(p string) { mu.Lock(); phase = p; mu.Unlock() }
	answered := func() int { return len(f.Sent()) }
	more := func(n int32) {
		target := pushed.Load() + n
		waitFor(t, fmt.Sprintf("%d more messages", n), func() bool { return pushed.Load() >= target })
	}

	waitFor(t, "answers while Redis is up", func() bool { return answered() >= 10 })
	srv.shutdown()
	setPhase("redis down")
	downAt, answeredBefore := time.Now(), answered()
	more(20)
	// Stay down until the bot has answered messages without Redis, not only queued them.
	waitFor(t, "answers while Redis is down", func() bool { return answered() >= answeredBefore+10 })
	srv.start()
	setPhase("redis back")
	t.Logf("Redis was down for %v", time.Since(downAt).Round(time.Millisecond))
	more(20)
	close(quit)
	<-streamDone

	total := int(pushed.Load())
	f.WaitSent(t, total)
	settle(t, f, b)
	mu.Lock()
	for chat, n := range asked {
		got := sentTo(f, chat)
		if len(got) != n {
			t.Errorf("chat %d: %d messages, %d replies", chat, n, len(got))
		}
		// Redis holds history, documents and claims, none of which a thank-you needs: every
		// reply is the answer itself, never an error text.
		for _, m := range got {
			if !strings.HasPrefix(m, "Пожалуйста!") {
				t.Errorf("chat %d: reply %q, want the answer to a thank-you", chat, m)
				break
			}
		}
	}
	rec.mu.Lock()
	t.Logf("%d messages by phase %v, all answered in %v; degraded answers: %v; slowest answer %v",
		total, phases, time.Since(began).Round(time.Millisecond), rec.flags, rec.slowest.Round(time.Millisecond))
	rec.mu.Unlock()
	mu.Unlock()

	// After the recovery, history is written and read back: each user's second question sees
	// the first one and its answer.
	for u := range int64(users) {
		chat := 100 + u
		first, second := fmt.Sprintf("Спасибо, после %d", u), fmt.Sprintf("Спасибо, снова %d", u)
		for _, text := range []string{first, second} {
			n := len(sentTo(f, chat))
			f.Push(privateText(chat, text))
			waitFor(t, "the reply to "+text, func() bool { return len(sentTo(f, chat)) > n })
		}
		t1, ok1 := rec.historyTurns(chat, first)
		t2, ok2 := rec.historyTurns(chat, second)
		if !ok1 || !ok2 || t2 != t1+2 {
			t.Errorf("chat %d: history turns seen %d then %d (answered %v, %v), want the second to see 2 more", chat, t1, t2, ok1, ok2)
		}
		turns, err := hist.Load(t.Context(), fmt.Sprint("chat:", chat))
		if err != nil || len(turns) < 4 {
			t.Fatalf("chat %d: history after recovery: %d turns, %v", chat, len(turns), err)
		}
		last := turns[len(turns)-4:]
		if last[0].Role != "user" || last[0].Text != first || last[2].Role != "user" || last[2].Text != second ||
			last[1].Role != "assistant" || last[3].Role != "assistant" || last[3].Text == "" {
			t.Errorf("chat %d: last turns after recovery %+v", chat, last)
		}
	}

	stopBot()
	rdb.Close()
	waitGoroutines(t, before, transport.CloseIdleConnections)
	if strings.Contains(logs.String(), "panic") {
		t.Error("the logs mention a panic")
	}
	t.Logf("took %v", time.Since(began).Round(time.Millisecond))
}
