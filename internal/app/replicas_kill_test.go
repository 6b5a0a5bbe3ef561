package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
	"github.com/finbot/finbot/internal/testredis"
)

// replicaListenEnv, set, makes TestReplicaProcess a finbot replica listening for its webhook
// there: the parent test starts it as a separate process so that it can be killed (SIGKILL),
// which no goroutine of the test's own process can be.
const replicaListenEnv = "FINBOT_TEST_REPLICA_LISTEN"

// TestReplicaProcess is not a test: it is the body of a replica process (see replicaListenEnv).
// It serves the webhook on the configuration in its environment until SIGTERM or SIGKILL.
func TestReplicaProcess(t *testing.T) {
	listen := os.Getenv(replicaListenEnv)
	if listen == "" {
		t.Skip("runs only as a replica process of TestReplicaKilledMidRun")
	}
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	cfg.WebhookURL, cfg.WebhookListen, cfg.WebhookSecret = "http://"+listen+"/hook", listen, replicaSecret
	cfg.MetricsAddr = ""
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	a, err := New(ctx, cfg, Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Run(ctx); err != nil {
		t.Fatal(err)
	}
}

// gate is one replica's road to the Bot API. Frozen, it holds every call until the caller goes
// away and forwards none: a replica killed while frozen dies with its replies unsent, as one
// killed mid-answer does (a reply Telegram accepted just before the kill is the one case no
// replica can tell apart; the test makes sure the kill does not land there, see below).
type gate struct {
	proxy   *httputil.ReverseProxy
	frozen  atomic.Bool
	blocked atomic.Int64
	closed  chan struct{} // closed when the test ends: a held call returns
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.frozen.Load() {
		g.blocked.Add(1)
		select {
		case <-r.Context().Done():
		case <-g.closed:
			http.Error(w, "gate closed", http.StatusBadGateway)
		}
		return
	}
	g.proxy.ServeHTTP(w, r)
}

// process is one replica process; its log goes to a file, shown when the test fails.
type process struct {
	cmd  *exec.Cmd
	log  string
	addr string
}

func startProcess(t *testing.T, env []string, addr, apiURL string) *process {
	t.Helper()
	logFile, err := os.CreateTemp(t.TempDir(), "replica-*.log")
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close() // the child has its own descriptor
	cmd := exec.Command(os.Args[0], "-test.run=^TestReplicaProcess$", "-test.count=1", "-test.timeout=10m")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = append(os.Environ(), env...)
	cmd.Env = append(cmd.Env, replicaListenEnv+"="+addr, "TELEGRAM_API_URL="+apiURL)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, log: logFile.Name(), addr: addr}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replica %s (pid %d) log:\n%s", addr, cmd.Process.Pid, p.tail(4000))
		}
	})
	return p
}

// tail returns the end of the process's log.
func (p *process) tail(n int) string {
	b, _ := os.ReadFile(p.log)
	if len(b) > n {
		return "…" + string(b[len(b)-n:])
	}
	return string(b)
}

// kill stops the process at once (SIGKILL): no shutdown, no release of claims.
func (p *process) kill() {
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

// stop stops the process as an orchestrator does (SIGTERM) and waits for it.
func (p *process) stop(t *testing.T) {
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("replica %s: %v", p.addr, err)
		}
	case <-time.After(time.Minute):
		p.kill()
		t.Errorf("replica %s did not stop within a minute", p.addr)
	}
}

// Two replica processes share one Redis (the single server, then the Cluster) behind one fake
// Bot API; a load balancer hands each update to the next replica up, every fifth twice (a
// webhook call Telegram retried, to the other replica). A third of the way in, replica 0's road
// to Telegram freezes, it takes 40 more updates (stored, claimed, acknowledged, never answered)
// and is killed with SIGKILL; at two thirds it is started again. Every update is answered
// exactly once: the ones replica 0 died with are taken over from the inbox once their claims
// lapse. Every 25th update is a document upload: each is stored once. No dialog's history is
// lost, and the inbox ends empty.
func TestReplicaKilledMidRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts replica processes")
	}
	const n = 1000
	for _, target := range testredis.Targets() {
		t.Run(target.Name, func(t *testing.T) {
			rdb := target.Open(t)
			prefix := testredis.Prefix(t, rdb)
			f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: replicaToken})
			// CLAIM_LEASE 5 s: a dead replica's updates come back within seconds, and a live one
			// renewing every 1.7 s survives a stall of a loaded CI machine.
			env := []string{
				"TELEGRAM_TOKEN=" + replicaToken, "REDIS_PREFIX=" + prefix, "REDIS_URL=" + testredis.URL(),
				"REDIS_CLUSTER=false", "REDIS_SENTINEL_MASTER=",
				"USER_RATE_PER_MIN=10000", "USER_RATE_BURST=1000", "CLAIM_LEASE=5s", "LOG_LEVEL=info",
				"LLM_API_KEY=", "ONEC_URL=", "WEBHOOK_URL=",
			}
			if target.Name == "cluster" {
				addrs := testredis.ClusterAddrs()
				env = append(env, "REDIS_URL=redis://"+addrs[0]+"?addr="+strings.Join(addrs[1:], "&addr="), "REDIS_CLUSTER=true")
			}
			api, _ := url.Parse(f.URL())
			var gates []*gate
			var gateURLs []string
			for range 2 {
				g := &gate{proxy: httputil.NewSingleHostReverseProxy(api), closed: make(chan struct{})}
				srv := httptest.NewServer(g)
				t.Cleanup(srv.Close)
				t.Cleanup(func() { close(g.closed) })
				gates, gateURLs = append(gates, g), append(gateURLs, srv.URL)
			}
			addrs := []string{testnet.Addr(t), testnet.Addr(t)}
			var all []*process // every process started, for their logs
			procs := []*process{startProcess(t, env, addrs[0], gateURLs[0]), startProcess(t, env, addrs[1], gateURLs[1])}
			defer func() {
				for _, p := range procs {
					if p != nil {
						p.kill()
					}
				}
			}()
			all = append(all, procs...)
			f.WaitCalls(t, "setWebhook", 2)

			deliver := balancer(t, func(k int) string {
				if p := procs[k]; p != nil {
					return p.addr
				}
				return ""
			})
			updateKey := func(i int) string { return prefix + "upd:" + strconv.Itoa(500_000+i) }
			for i := range n {
				switch i {
				case n / 3:
					gates[0].frozen.Store(true)
				case n/3 + 40:
					// Replies that went out before the freeze are marked done promptly, but
					// "promptly" is not "before the kill": wait until they are, so that the kill
					// cannot land between a reply Telegram accepted and its update's Done.
					waitDone(t, rdb, f, i, updateKey)
					if gates[0].blocked.Load() == 0 {
						t.Fatal("replica 0 was frozen for 40 updates and made no Bot API call")
					}
					procs[0].kill()
					procs[0] = nil
				case 2 * n / 3:
					gates[0].frozen.Store(false)
					procs[0] = startProcess(t, env, addrs[0], gateURLs[0])
					all = append(all, procs[0])
					f.WaitCalls(t, "setWebhook", 3)
				}
				u := question(i)
				if uploader(i) {
					id := fmt.Sprintf("akt-%d", i)
					f.AddFile(id, []byte(fmt.Sprintf("Акт сверки № %d от 31.03.2026 с ООО «Альфа». Сальдо в пользу ООО «Альфа»: %d,00 руб.", i, 1000+i)))
					u.Message.Text = ""
					u.Message.Document = &tgbotapi.Document{FileID: id, FileName: id + ".txt", MimeType: "text/plain", FileSize: 120}
				}
				deliver(i, u)
			}
			// Each replica sends at most 30 messages a second (Telegram's limit for a bot), so
			// the replies trail the deliveries by tens of seconds; then every answered update
			// leaves the inbox.
			inbox := history.NewRedisInbox(rdb, prefix, time.Second)
			deadline := time.Now().Add(3 * time.Minute)
			for {
				left, err := inbox.Len(t.Context())
				if err == nil && left == 0 && len(f.Sent()) >= n {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("after 3 minutes: %d of %d replies sent, %d updates in the inbox (%v)", len(f.Sent()), n, left, err)
				}
				time.Sleep(100 * time.Millisecond)
			}
			for i, p := range procs {
				p.stop(t)
				procs[i] = nil
			}

			answeredOnce(t, f, rdb, prefix, n, nil)
			// The updates replica 0 acknowledged and died with came back through the inbox (the
			// retried ones may also come back through the other replica's wait on their claim).
			takeovers := 0
			for _, p := range all {
				takeovers += strings.Count(p.tail(1<<30), "took over an update from an instance that stopped answering it")
			}
			if takeovers == 0 {
				t.Error("no update was taken over from the inbox: the kill tested nothing")
			}
			t.Logf("%d updates taken over from the inbox after the kill", takeovers)
			for i := range n {
				if !uploader(i) {
					continue
				}
				meta := fmt.Sprintf("%sdocs:{u:%d}:meta", prefix, chatOf(i))
				if docs := rdb.HLen(t.Context(), meta).Val(); docs != 1 {
					t.Errorf("user %d uploaded one document; Redis holds %d (%s)", chatOf(i), docs, meta)
				}
			}
		})
	}
}

// uploader: every 25th user sends a document instead of a question (some while replica 0 is
// frozen and then killed: 333 and 358), so that the run also shows no document lost or stored
// twice.
func uploader(i int) bool { return i%25 == 8 }

// waitDone waits until every update answered so far (its chat has a reply) is marked done.
func waitDone(t *testing.T, rdb redis.UniversalClient, f *fakes.BotAPI, upTo int, key func(int) string) {
	t.Helper()
	var answered []int
	for i := range upTo {
		if len(f.Chat(chatOf(i))) > 0 {
			answered = append(answered, i)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, i := range answered {
		for rdb.Get(t.Context(), key(i)).Val() != "done" {
			if time.Now().After(deadline) {
				t.Fatalf("update %d was answered but is not marked done after 30 s", 500_000+i)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
