package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	dto "github.com/prometheus/client_model/go"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
)

// outcomes reads the count of one outcome of finbot_updates_total.
func outcomes(m *Metrics, outcome string) float64 {
	var d dto.Metric
	if err := m.updates.WithLabelValues(outcome).Write(&d); err != nil {
		panic(err)
	}
	return d.GetCounter().GetValue()
}

// Helpers of the fault-injection tests (redis_outage_test.go, telegram_faults_test.go,
// restart_test.go).

// sharedRedis connects to REDIS_URL (default redis://127.0.0.1:6379/0) and returns the client and
// a key prefix whose keys are deleted when the test ends. Without a Redis the test is skipped, or
// fails when FINBOT_REQUIRE_REDIS=1 (the test command sets it).
func sharedRedis(t *testing.T) (*redis.Client, string) {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("REDIS_URL: %v", err)
	}
	opts.ContextTimeoutEnabled = true
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		if os.Getenv("FINBOT_REQUIRE_REDIS") == "1" {
			t.Fatalf("redis at %s: %v (FINBOT_REQUIRE_REDIS=1)", opts.Addr, err)
		}
		t.Skipf("no redis at %s (%v); the test command starts one", opts.Addr, err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	prefix := "bottest:" + hex.EncodeToString(b) + ":"
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // t.Context() is done by now
		defer cancel()
		if keys, _ := rdb.Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
			rdb.Del(ctx, keys...)
		}
	})
	return rdb, prefix
}

// redisServer is a redis-server of the test's own, on a port reserved for it, that the test may stop and
// start again: no persistence, so a restart comes back empty, as after a crash.
type redisServer struct {
	t    *testing.T
	port int
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// startRedisServer starts a private redis-server; the test is skipped when none is installed.
func startRedisServer(t *testing.T) *redisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("FINBOT_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server is not installed; the test command (.ci/test.sh) installs it")
		}
		t.Skip("redis-server is not installed (the test command installs it)")
	}
	// The port stays reserved while the server is down: nothing else can take it before the
	// restart.
	s := &redisServer{t: t, port: testnet.Port(t)}
	s.start()
	t.Cleanup(func() {
		if s.running() {
			s.cmd.Process.Kill()
			<-s.done
		}
	})
	return s
}

func (s *redisServer) addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

func (s *redisServer) running() bool {
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// start runs redis-server and waits until it answers PING.
func (s *redisServer) start() {
	s.t.Helper()
	s.cmd = exec.Command("redis-server", "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.t.TempDir())
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("start redis-server: %v", err)
	}
	s.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { cmd.Wait(); close(done) }(s.cmd, s.done)
	rdb := redis.NewClient(&redis.Options{Addr: s.addr(), MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(10 * time.Second)
	for rdb.Ping(context.Background()).Err() != nil {
		if !s.running() || time.Now().After(deadline) {
			s.t.Fatalf("redis-server on port %d did not come up", s.port)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// shutdown stops the server the way an operator would (redis-cli shutdown nosave) and waits
// until the process is gone.
func (s *redisServer) shutdown() {
	s.t.Helper()
	out, err := exec.Command("redis-cli", "-p", strconv.Itoa(s.port), "shutdown", "nosave").CombinedOutput()
	if err != nil {
		// redis-cli reports the closed connection of a successful shutdown as an error on some
		// versions; the process exiting is what counts.
		s.t.Logf("redis-cli shutdown: %v: %s", err, out)
	}
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		s.t.Fatal("redis-server did not exit after shutdown")
	}
}

// settledGoroutines is the goroutine count once it has stopped falling.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 20 {
		time.Sleep(10 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m >= n {
			return m
		}
		n = m
	}
	return n
}

// waitGoroutines waits up to 15 seconds (generous for a loaded machine) for the goroutine count
// to come back to before (a Redis pool and keep-alive connections take a moment to wind down),
// and fails with every goroutine's stack if it does not.
func waitGoroutines(t *testing.T, before int, closeIdle func()) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		closeIdle()
		n := runtime.NumGoroutine()
		if n <= before {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("goroutine leak: %d before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// flow pushes n updates to f, one every interval, from a goroutine, the way users keep writing
// while a fault is on. The returned function waits until all are pushed.
func flow(f *fakes.BotAPI, n int, every time.Duration, next func(i int) tgbotapi.Update) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for i := range n {
			f.Push(next(i))
			<-tick.C
		}
	}()
	return func() { <-done }
}

// sentTexts counts the messages sent to each chat by text.
func sentTexts(f *fakes.BotAPI) map[string]int {
	n := map[string]int{}
	for _, m := range f.Sent() {
		n[m.ChatID+"|"+m.Text]++
	}
	return n
}

// sentTo returns the texts sent to chat, in order.
func sentTo(f *fakes.BotAPI, chat int64) []string {
	var out []string
	for _, m := range f.Sent() {
		if m.ChatID == fmt.Sprint(chat) {
			out = append(out, m.Text)
		}
	}
	return out
}

// waitFor polls cond for up to 30 seconds; it synchronises, it asserts nothing about timing.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
