// Command finbot is a Telegram assistant for Russian finance and accounting teams.
//
//	finbot serve                         the Telegram bot (long polling, or a webhook with WEBHOOK_URL)
//	finbot chat                          a console chat over the same pipeline
//	finbot ask [--json] [--user ID] [--chat ID] TEXT
//	                                     answer one message and exit
//	finbot docs add|list|rm --user ID …  manage a user's documents
//	finbot kb ingest FILE.csv            replace the knowledge base
//
// With no configuration at all every subcommand runs on embedded defaults: in-memory history,
// the demo 1C ledger, no LLM. Settings come from the environment (see README.md).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/agent/address"
	"github.com/finbot/finbot/agent/docs"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/bot"
	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/tavily"
)

// The wiring point proves every concrete type fits the interfaces its consumer declares.
var (
	_ agent.LLM        = (*llm.Client)(nil)
	_ agent.History    = (*history.Redis)(nil)
	_ agent.History    = (*history.Memory)(nil)
	_ agent.Rates      = (*cbr.Client)(nil)
	_ agent.NewsSearch = (*tavily.Client)(nil)
	_ agent.Ledger     = (*address.Lane)(nil)
	_ docs.Store       = (*docstore.Redis)(nil)
	_ docs.Store       = (*docstore.Memory)(nil)
	_ docs.Embedder    = (*llm.Embedder)(nil)
	_ address.Source   = (*onec.Demo)(nil)
	_ address.Source   = (*onec.Proxy)(nil)
	_ bot.Answerer     = (*agent.Agent)(nil)
	_ bot.Deduper      = (*history.RedisDedupe)(nil)
	_ bot.Deduper      = (*history.MemoryDedupe)(nil)
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "finbot:", err)
		os.Exit(1)
	}
}

const usage = `finbot — ассистент бухгалтерии в Telegram.

Usage:
  finbot serve                                         run the Telegram bot
  finbot chat                                          console chat (no token needed)
  finbot ask [--json] [--user ID] [--chat ID] TEXT     answer one message and exit
  finbot docs add --user ID [--chat ID] FILE…          add documents for a user (or a group)
  finbot docs list --user ID [--chat ID]               list them
  finbot docs rm --user ID [--chat ID] DOC…            delete them
  finbot kb ingest FILE.csv | kb check FILE.csv        load or validate the knowledge base
  finbot env                                           list every environment variable

Configuration is read from the environment; see README.md.`

// run is the whole program: main only supplies the process's surroundings.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return errors.New("no subcommand")
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	case "env":
		for _, v := range config.Vars() {
			fmt.Fprintf(stdout, "%-22s %-30q %s\n", v.Name, v.Default, v.Description)
		}
		return nil
	case "serve", "chat", "ask", "docs", "kb":
	default:
		fmt.Fprintln(stderr, usage)
		return fmt.Errorf("unknown subcommand %q", sub)
	}

	cfg, err := config.Load(getenv)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	level := cfg.LogLevel
	if sub != "serve" && getenv("LOG_LEVEL") == "" {
		level = slog.LevelWarn // keep the console readable
	}
	log := slog.New(newRedactor(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}), cfg.Secrets()))

	app, err := build(ctx, cfg, log, sub != "serve")
	if err != nil {
		return err
	}
	defer app.close()

	switch sub {
	case "serve":
		return serve(ctx, cfg, app, log)
	case "docs":
		return docsCommand(ctx, args, app, stdout)
	case "kb":
		return kbCommand(ctx, args, app, stdout)
	case "chat":
		c := bot.NewConsole(app.agent, stdout, bot.ConsoleOptions{UserID: 1, Logger: log, Status: app.status})
		return c.Run(ctx, stdin)
	default:
		return ask(ctx, args, app, stdout, log)
	}
}

// app holds what every subcommand shares.
type app struct {
	agent *agent.Agent
	// docs is the users' document library; store and embedder are what it is built on.
	docs        *docs.Library
	store       docs.Store
	embedder    docs.Embedder
	durableDocs bool                     // documents live in Redis, not in this process
	breakers    map[string]func() string // name → state ("closed", "half-open", "open")
	dedupe      bot.Deduper
	status      func(ctx context.Context) []string
	close       func()
	// http is the connection pool of every outgoing client (Bot API, LLM, Bank of Russia,
	// Tavily, 1C): http.DefaultTransport keeps only 2 idle connections per host, so answers
	// running concurrently would open (and TLS-handshake) a new connection for most calls.
	http *http.Transport
}

// newTransport is http.DefaultTransport with room for concurrent answers per host.
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 64
	return t
}

// build wires the integrations into the agent.
// cli is true for `chat` and `ask`: the operator at the terminal already holds the
// configuration, so ledger access is not restricted there.
func build(ctx context.Context, cfg config.Config, log *slog.Logger, cli bool) (*app, error) {
	limits := history.Limits{MaxTurns: cfg.HistoryMaxTurns, MaxChars: cfg.HistoryMaxChars, TTL: cfg.HistoryTTL}
	a := &app{http: newTransport()}
	a.close = a.http.CloseIdleConnections
	pooled := &http.Client{Transport: a.http}
	var hist agent.History
	var ping func(context.Context) error
	if cfg.RedisURL != "" {
		opts, err := redis.ParseURL(cfg.RedisURL.Reveal())
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err) // go-redis does not quote the URL
		}
		// go-redis logs through a package-level logger; route it into ours (JSON, redacted).
		redis.SetLogger(redisLogger{log})
		opts.ContextTimeoutEnabled = true
		opts.MaxRetries = 1
		opts.DialTimeout = 2 * time.Second
		rdb := redis.NewClient(opts)
		a.close = func() { rdb.Close(); a.http.CloseIdleConnections() }
		store := history.NewRedis(rdb, cfg.RedisPrefix, limits)
		hist, ping = store, store.Ping
		a.store, a.durableDocs = docstore.NewRedis(rdb, cfg.RedisPrefix), true
		a.dedupe = history.NewRedisDedupe(rdb, cfg.RedisPrefix, cfg.DedupeTTL)
		pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		if err := store.Ping(pctx); err != nil {
			// Not fatal: replies still go out, history degrades until Redis answers.
			log.Warn("redis does not answer yet; continuing", "err", err)
		}
		cancel()
	} else {
		hist = history.NewMemory(cfg.MemoryChatsLimit, limits)
		a.store = docstore.NewMemory()
		a.dedupe = history.NewMemoryDedupe(100_000, cfg.DedupeTTL)
	}

	var model agent.LLM
	var llmClient *llm.Client
	if cfg.HasLLM() {
		llmClient = llm.New(llm.Options{
			BaseURL: cfg.LLMBaseURL, APIKey: cfg.LLMAPIKey.Reveal(), Model: cfg.LLMModel, Timeout: cfg.LLMTimeout,
			BreakerTimeout: cfg.LLMBreakerTimeout, AppTitle: "finbot", HTTPClient: pooled,
		})
		model = llmClient
	}
	rates := cbr.New(cbr.Options{BaseURL: cfg.CBRURL, Timeout: cfg.CBRTimeout, UserAgent: cfg.CBRUserAgent,
		BreakerTimeout: cfg.CBRBreakerTimeout, HTTPClient: pooled})
	news := tavily.New(tavily.Options{BaseURL: cfg.TavilyURL, APIKey: cfg.TavilyAPIKey.Reveal(), Timeout: cfg.TavilyTimeout,
		BreakerTimeout: cfg.TavilyBreakerTimeout, HTTPClient: pooled})
	a.breakers = map[string]func() string{"cbr": rates.State, "tavily": news.State}
	var source address.Source
	maxRows := onec.MaxDemoRows
	if cfg.OneCURL != "" {
		maxRows = onec.MaxProxyRows
		proxy, err := onec.NewProxy(onec.ProxyOptions{URL: cfg.OneCURL, Channel: cfg.OneCChannel, Token: cfg.OneCToken.Reveal(), Timeout: cfg.OneCTimeout,
			BreakerTimeout: cfg.OneCBreakerTimeout, HTTPClient: pooled})
		if err != nil {
			return nil, fmt.Errorf("ONEC_URL: %w", err)
		}
		source = proxy
		a.breakers["onec"] = proxy.State
	} else {
		demo, err := onec.DemoDefault()
		if err != nil {
			return nil, fmt.Errorf("demo ledger: %w", err)
		}
		source = demo
	}
	lane := address.NewLane(source, address.Options{Logger: log, QueryTimeout: cfg.OneCTimeout, MaxRows: maxRows})
	var embedder *llm.Embedder
	if cfg.EmbeddingsModel != "" {
		embedder = llm.NewEmbedder(llm.Options{
			BaseURL: cfg.EmbeddingsBaseURL, APIKey: cfg.EmbeddingsAPIKey.Reveal(), Model: cfg.EmbeddingsModel,
			Timeout: cfg.LLMTimeout, BreakerTimeout: cfg.LLMBreakerTimeout, AppTitle: "finbot", HTTPClient: pooled,
		})
		a.embedder = embedder
		a.breakers["embeddings"] = embedder.State
	}
	a.docs = docs.New(a.store, a.embedder, docs.Options{
		MaxDocs: cfg.DocsMaxPerOwner, MaxChars: cfg.DocsMaxChars, CacheOwners: cfg.DocsIndexCache,
		CacheBytes: int64(cfg.DocsIndexCacheMB) << 20, Logger: log,
	})
	kbLib, kbOrigin, err := knowledgeBase(ctx, cfg, a.store, a.embedder, log)
	if err != nil {
		return nil, err
	}
	var planner agent.Planner
	if llmClient != nil {
		planner = plan.NewPlanner(llmClient, plan.Options{Model: cfg.PlannerModel, JSONObject: cfg.PlannerResponseFormat == "json_object",
			Temperature: float32(cfg.PlannerTemperature), MaxTokens: cfg.PlannerMaxTokens, Timeout: cfg.LLMTimeout})
	}
	a.agent = agent.New(agent.Deps{LLM: model, History: hist, Rates: rates, News: news, Ledger: lane, Docs: a.docs, KB: kbLib, Planner: planner},
		agent.Options{Logger: log, LedgerAccess: ledgerAccess(cfg, cli), PlanConfidence: cfg.PlanConfidenceThreshold,
			MaxToolCalls: cfg.MaxToolCalls, AnswerModel: cfg.AnswerModel, AnswerTemperature: float32(cfg.AnswerTemperature),
			PlanCacheTTL: cfg.PlanCacheTTL})
	if llmClient != nil {
		a.breakers["llm"] = llmClient.State
	}
	a.status = func(ctx context.Context) []string {
		var lines []string
		switch {
		case ping == nil:
			lines = append(lines, "история: в памяти процесса (REDIS_URL не задан)")
		case ping(ctx) != nil:
			lines = append(lines, "история: Redis недоступен")
		default:
			lines = append(lines, "история: Redis — в порядке")
		}
		if llmClient == nil {
			lines = append(lines, "LLM: не настроена (ответы детерминированные)")
		} else {
			lines = append(lines, fmt.Sprintf("LLM: %s, предохранитель %s", llmClient.Model(), llmClient.State()))
		}
		lines = append(lines, "Банк России: предохранитель "+rates.State())
		if news.Configured() {
			lines = append(lines, "поиск новостей (Tavily): предохранитель "+news.State())
		} else {
			lines = append(lines, "поиск новостей (Tavily): не настроен")
		}
		lines = append(lines, "1С: "+lane.SourceName())
		if a.durableDocs {
			lines = append(lines, "документы: Redis")
		} else {
			lines = append(lines, "документы: в памяти процесса (REDIS_URL не задан)")
		}
		if embedder != nil {
			lines = append(lines, fmt.Sprintf("эмбеддинги: %s, предохранитель %s", embedder.Model(), embedder.State()))
		} else {
			lines = append(lines, "эмбеддинги: не настроены (поиск BM25)")
		}
		lines = append(lines, "база знаний: "+kbOrigin)
		return lines
	}
	return a, nil
}

// ledgerAccess decides who sees 1C data. The demo ledger is synthetic, so with no lists it is
// open; a real 1C with no lists is closed to everyone.
func ledgerAccess(cfg config.Config, cli bool) func(userID, chatID int64) bool {
	users, chats := cfg.LedgerAllowUsers, cfg.LedgerAllowChats
	open := cli || (len(users) == 0 && len(chats) == 0 && cfg.OneCURL == "")
	return func(userID, chatID int64) bool {
		if open || slices.Contains(chats, chatID) {
			return true
		}
		// In a group everyone reads the answer: an allowed user is not enough, the chat must be.
		return chatID > 0 && slices.Contains(users, userID)
	}
}

func serve(ctx context.Context, cfg config.Config, a *app, log *slog.Logger) error {
	if cfg.TelegramToken == "" {
		return errors.New("TELEGRAM_TOKEN is not set: get one from @BotFather, or try `finbot chat` without a token")
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics := bot.NewMetrics(reg)
	for name, state := range a.breakers {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "finbot_breaker_state", Help: "Circuit breaker state: 0 closed, 1 half-open, 2 open.",
			ConstLabels: prometheus.Labels{"breaker": name},
		}, func() float64 { return breakerValue(state()) }))
	}

	b, err := bot.New(ctx, a.agent, bot.Options{
		Token: cfg.TelegramToken.Reveal(), APIURL: cfg.TelegramAPIURL, PollTimeout: cfg.PollTimeout,
		HTTPClient: &http.Client{Transport: a.http, Timeout: cfg.PollTimeout + 15*time.Second},
		WebhookURL: cfg.WebhookURL, WebhookListen: cfg.WebhookListen, WebhookSecret: cfg.WebhookSecret.Reveal(),
		Access:         bot.Access{Users: cfg.AllowedUserIDs, Chats: cfg.AllowedChatIDs, Admins: cfg.AdminUserIDs},
		UserRatePerMin: cfg.UserRatePerMin, UserRateBurst: cfg.UserRateBurst,
		AnswerTimeout: cfg.AnswerTimeout, ShutdownTimeout: cfg.ShutdownTimeout,
		Dedupe: a.dedupe, Metrics: metrics, Logger: log, Status: a.status,
	})
	if err != nil {
		return err
	}
	if cfg.MetricsAddr != "" {
		stopOps, err := serveOps(ctx, cfg.MetricsAddr, reg, a, log)
		if err != nil {
			return err
		}
		defer stopOps()
	}
	log.Info("finbot started", "bot", b.Username(), "llm", cfg.HasLLM(), "redis", cfg.RedisURL != "", "webhook", cfg.WebhookURL != "")
	err = b.Run(ctx)
	log.Info("finbot stopped")
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

// serveOps serves /healthz and /metrics; the returned function stops the server.
func serveOps(ctx context.Context, addr string, reg *prometheus.Registry, a *app, log *slog.Logger) (func(), error) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"status": "ok", "checks": a.status(r.Context())})
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("METRICS_ADDR: %w", err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("ops server", "err", err)
		}
	}()
	log.Info("ops server listening", "addr", ln.Addr().String())
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		<-done
	}, nil
}

// askResult is the `ask --json` output.
type askResult struct {
	Scenario agent.Scenario `json:"scenario"`
	Intent   string         `json:"intent,omitempty"`
	// Text is the answer's Markdown as a reader reads it: without the escapes that only keep
	// names literal for the Telegram converter («31.03.2026», not «31\.03\.2026»).
	Text    string         `json:"text"`
	Sources []agent.Source `json:"sources"`
	Buttons []agent.Button `json:"buttons,omitempty"`
	Chart   *agent.Chart   `json:"chart,omitempty"`
	Debug   *agent.Debug   `json:"debug"`
	// Replies are the messages as the user would read them.
	Replies []string `json:"replies"`
}

func ask(ctx context.Context, args []string, a *app, stdout io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print one JSON object")
	user := fs.Int64("user", 1, "Telegram user ID to speak as")
	chat := fs.Int64("chat", 0, "chat ID (default: the user's private chat; negative = a group)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("ask: %w (usage: finbot ask [--json] [--user ID] [--chat ID] TEXT)", err)
	}
	text := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if text == "" {
		return errors.New("ask: no message given (usage: finbot ask [--json] [--user ID] [--chat ID] TEXT)")
	}
	out := stdout
	if *asJSON {
		out = io.Discard
	}
	c := bot.NewConsole(a.agent, out, bot.ConsoleOptions{UserID: *user, ChatID: *chat, Group: *chat < 0, Logger: log, Status: a.status})
	ans, replies := c.Ask(ctx, text)
	if !*asJSON {
		return nil
	}
	res := askResult{Scenario: agent.Command, Text: strings.Join(replies, "\n\n"), Sources: []agent.Source{}, Replies: replies}
	if ans != nil {
		res = askResult{Scenario: ans.Scenario, Intent: ans.Intent, Text: md.Unescape(ans.Text), Sources: ans.Sources,
			Buttons: ans.Buttons, Chart: ans.Chart, Debug: &ans.Debug, Replies: replies}
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}
