package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/finbot/finbot/agent/digest"
	"github.com/finbot/finbot/bot"
	"github.com/finbot/finbot/config"
)

// newBot builds the Telegram front end over the agent, with its metrics registry.
func (a *App) newBot(ctx context.Context) error {
	cfg := a.cfg
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics := bot.NewMetrics(reg)
	for name, state := range a.breakers {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "finbot_breaker_state", Help: "Circuit breaker state: 0 closed, 1 half-open, 2 open.",
			ConstLabels: prometheus.Labels{"breaker": name},
		}, func() float64 { return breakerValue(state()) }))
	}
	opts := bot.Options{
		Token: cfg.TelegramToken.Reveal(), APIURL: cfg.TelegramAPIURL, PollTimeout: cfg.PollTimeout,
		HTTPClient: &http.Client{Transport: a.transport(ClientTelegram), Timeout: cfg.PollTimeout + 15*time.Second},
		WebhookURL: cfg.WebhookURL, WebhookListen: cfg.WebhookListen, WebhookSecret: cfg.WebhookSecret.Reveal(),
		Access:         bot.Access{Users: cfg.AllowedUserIDs, Chats: cfg.AllowedChatIDs, Admins: cfg.AdminUserIDs},
		UserRatePerMin: cfg.UserRatePerMin, UserRateBurst: cfg.UserRateBurst,
		AnswerTimeout: cfg.AnswerTimeout, ShutdownTimeout: cfg.ShutdownTimeout, StreamMode: bot.StreamMode(cfg.StreamMode),
		Dedupe: a.dedupe, ClaimLease: cfg.ClaimLease, Inbox: a.inbox, InboxSweep: inboxSweep(cfg),
		Metrics: metrics, Logger: a.log, Status: a.status, Redact: cfg.Redactor().String, VoiceMaxDuration: cfg.VoiceMaxDuration,
		Keyboards: a.results, // «Ещё ▸» pages kept where the answers' buttons are: every replica sees them
	}
	if a.speech != nil {
		opts.Transcriber = a.speech // a nil *llm.Transcriber in the interface would not read as "none"
	}
	b, err := bot.New(ctx, a.answerer, opts)
	if err != nil {
		return err
	}
	a.Bot, a.Metrics = b, reg
	// The digests are made by the agent and sent through the bot's send path and limits.
	a.scheduler = digest.NewScheduler(a.digests, a.Agent, b, digest.SchedulerOptions{Now: a.opts.DigestClock,
		Every: cfg.DigestEvery, CatchUp: cfg.DigestCatchUp, Zone: a.zone, Logger: a.log.With("component", "digests")})
	return nil
}

// Run serves Telegram until ctx is done, with /healthz and /metrics on METRICS_ADDR when it is
// set; it returns after the answers in flight have been delivered (or SHUTDOWN_TIMEOUT).
func (a *App) Run(ctx context.Context) error {
	if a.Bot == nil {
		return errors.New("app: built for the console, there is no bot to run")
	}
	if a.cfg.MetricsAddr != "" {
		// Only the header bound differs from the webhook's: a scraper sends a short GET.
		stopOps, err := a.serveOps(ctx, bot.ServerTimeouts{ReadHeader: 5 * time.Second})
		if err != nil {
			return err
		}
		defer stopOps()
	}
	a.log.Info("finbot started", "bot", a.Bot.Username(), "llm", a.cfg.HasLLM(), "redis", a.cfg.RedisURL != "", "redis_topology", a.cfg.RedisTopology().String(), "webhook", a.cfg.WebhookURL != "")
	// The scheduler stops with ctx; the runs it began get their grace while the bot drains.
	var digests sync.WaitGroup
	digests.Go(func() { a.scheduler.Run(ctx) })
	defer digests.Wait()
	err := a.Bot.Run(ctx)
	a.log.Info("finbot stopped")
	return err
}

func breakerValue(state string) float64 {
	switch state {
	case "half-open":
		return 1
	case "open":
		return 2
	default:
		return 0
	}
}

// serveOps serves /healthz and /metrics on METRICS_ADDR, every connection bounded by
// timeouts (zero fields take bot's defaults); the returned function stops the server.
func (a *App) serveOps(ctx context.Context, timeouts bot.ServerTimeouts) (func(), error) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(a.Metrics, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"status": "ok", "checks": a.status(r.Context())})
	})
	ln, err := net.Listen("tcp", a.cfg.MetricsAddr)
	if err != nil {
		return nil, fmt.Errorf("METRICS_ADDR: %w", err)
	}
	// METRICS_ADDR may be reachable by more than Prometheus (":9090" serves every interface):
	// idle and slow connections are closed as the webhook's are. net/http's own errors go
	// through our log and so its redaction.
	srv := bot.NewHTTPServer(mux, a.log, timeouts)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Error("ops server", "err", err)
		}
	}()
	a.log.Info("ops server listening", "addr", ln.Addr().String())
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		<-done
	}, nil
}

// SendLimit is one of the limits the bot keeps its sends to Telegram within.
type SendLimit = bot.SendLimit

// Limits are the bot's send limits: per private chat, per group and overall.
type Limits struct{ PrivateChat, Group, Global SendLimit }

// SendLimits returns the limits the bot keeps its sends within (bot/ratelimit.go), for a
// driver that checks a run against them.
func SendLimits() Limits {
	return Limits{PrivateChat: bot.PrivateChatLimit, Group: bot.GroupLimit, Global: bot.GlobalLimit}
}

// inboxSweep is how often the webhook inbox is swept for updates of replicas that died: a
// third of the claim lease, the period at which claims are renewed.
func inboxSweep(cfg config.Config) time.Duration {
	return max(cfg.ClaimLease/3, 100*time.Millisecond)
}
