// Package app builds finbot: the integrations from the configuration, the agent over them,
// and, when it serves Telegram, the bot with its metrics and the ops server. `finbot`, the
// load driver (cmd/finbot-load) and the end-to-end tests all build the system with New, so
// there is one wiring to read and to change.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/agent/anon"
	"github.com/finbot/finbot/agent/buttons"
	"github.com/finbot/finbot/agent/digest"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/news"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/rates"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/bot"
	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
	"github.com/finbot/finbot/integrations/tavily"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/library/ocr"
)

// The wiring point proves every concrete type fits the interfaces its consumer declares.
var (
	_ phrase.LLM       = (*llm.Client)(nil)
	_ agent.History    = (*history.Redis)(nil)
	_ agent.History    = (*history.Memory)(nil)
	_ buttons.Store    = (*history.RedisResults)(nil)
	_ buttons.Store    = (*history.MemoryResults)(nil)
	_ rates.Bank       = (*cbr.Client)(nil)
	_ news.Searcher    = (*tavily.Client)(nil)
	_ ledger.Runner    = (*runner.Lane)(nil)
	_ library.Store    = (*docstore.Redis)(nil)
	_ library.Store    = (*docstore.Memory)(nil)
	_ library.Embedder = (*llm.Embedder)(nil)
	_ runner.Source    = (*onec.Demo)(nil)
	_ runner.Source    = (*onec.Proxy)(nil)
	_ Answerer         = (*agent.Agent)(nil)
	_ bot.Deduper      = (*history.RedisDedupe)(nil)
	_ bot.Deduper      = (*history.MemoryDedupe)(nil)
	_ bot.Inbox        = (*history.RedisInbox)(nil)
	_ bot.Transcriber  = (*llm.Transcriber)(nil)
	_ digest.Store     = (*history.RedisSubscriptions)(nil)
	_ digest.Store     = (*history.MemorySubscriptions)(nil)
	_ digest.Producer  = (*agent.Agent)(nil)
	_ digest.Sender    = (*bot.Bot)(nil)
)

// Answerer is the agent as a front end (the Telegram bot, the console) asks it.
type Answerer = bot.Answerer

// Names of the outgoing HTTP clients, as Options.Transport receives them.
const (
	ClientTelegram   = "telegram"
	ClientLLM        = "llm"
	ClientEmbeddings = "embeddings"
	ClientCBR        = "cbr"
	ClientTavily     = "tavily"
	ClientOneC       = "onec"
	ClientSpeech     = "speech" // speech-to-text of voice messages
)

// Options are what the configuration does not say: how the process runs the system.
type Options struct {
	// Logger receives every component's log; nil discards it.
	Logger *slog.Logger
	// Console builds the system for an operator at the terminal (chat, ask, docs, kb): no
	// Telegram bot, no metrics, and the ledger open to them, since they already hold the
	// configuration. Otherwise New builds the bot, which needs TELEGRAM_TOKEN and reaches
	// the Bot API (getMe).
	Console bool
	// Transport, when set, is what each outgoing client sends through: it receives the
	// client's name (ClientTelegram, ClientLLM, …) and the shared connection pool, and returns
	// the pool or a RoundTripper over it. The load driver times calls this way.
	Transport func(client string, pool http.RoundTripper) http.RoundTripper
	// Answerer, when set, wraps the agent before a front end gets it.
	Answerer func(Answerer) Answerer
	// DigestClock, when set, is the clock the digests' scheduler reads to find the slots due
	// (tests); time.Now otherwise.
	DigestClock func() time.Time
}

// App is finbot built from one configuration.
type App struct {
	// Agent answers; every front end asks it.
	Agent *agent.Agent
	// ocr reads photos and scans (tesseract, pdftoppm); what it lacks is in the status.
	ocr *ocr.Engine
	// Docs is the users' document library.
	Docs *library.Library
	// Bot is the Telegram front end; nil for the console.
	Bot *bot.Bot
	// Metrics holds the bot's counters, the breakers' states and the Go runtime's; nil for
	// the console.
	Metrics *prometheus.Registry

	cfg      config.Config
	opts     Options
	log      *slog.Logger
	answerer Answerer // Agent, wrapped by Options.Answerer
	// pool is the connection pool of every outgoing client (Bot API, LLM, Bank of Russia,
	// Tavily, 1C): http.DefaultTransport keeps only 2 idle connections per host, so answers
	// running concurrently would open (and TLS-handshake) a new connection for most calls.
	pool        *http.Transport
	store       library.Store
	embedder    library.Embedder
	extracts    *extract.Slots           // the extractions running at once, for every library
	builds      *library.BuildMemory     // the index builds running at once, for every library
	durableDocs bool                     // documents live in Redis, not in this process
	breakers    map[string]func() string // name → state ("closed", "half-open", "open")
	dedupe      bot.Deduper
	inbox       bot.Inbox         // webhook updates until answered; nil without Redis
	results     buttons.Store     // what the buttons of 1C answers are bound to
	digests     digest.Store      // the chats' subscriptions to digests and alerts
	zone        *time.Location    // DIGEST_ZONE
	scheduler   *digest.Scheduler // delivers the digests; nil for the console
	choices     ledger.Results    // which 1C base each user chose in each chat (ONEC_CHANNELS)
	status      func(ctx context.Context) []string
	closers     []func() // in the order opened; Close runs them backwards
	// speech transcribes voice messages and audio files (the console's too); nil when not
	// configured.
	speech *llm.Transcriber
}

// New builds the system cfg describes. Redis that does not answer yet is not an error (history
// degrades until it does); an unusable setting, the demo ledger failing to load or, for the
// bot, the Bot API refusing the token is. Close releases what New opened.
func New(ctx context.Context, cfg config.Config, o Options) (_ *App, err error) {
	if !o.Console && cfg.TelegramToken == "" {
		return nil, errors.New("TELEGRAM_TOKEN is not set: get one from @BotFather, or try `finbot chat` without a token")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	a := &App{cfg: cfg, opts: o, log: o.Logger, pool: newTransport(), breakers: map[string]func() string{}}
	a.closers = append(a.closers, a.pool.CloseIdleConnections)
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	hist, ping, err := a.stores(ctx)
	if err != nil {
		return nil, err
	}

	rates := cbr.New(cbr.Options{BaseURL: cfg.CBRURL, Timeout: cfg.CBRTimeout, UserAgent: cfg.CBRUserAgent,
		BreakerTimeout: cfg.CBRBreakerTimeout, HTTPClient: a.client(ClientCBR)})
	news := tavily.New(tavily.Options{BaseURL: cfg.TavilyURL, APIKey: cfg.TavilyAPIKey.Reveal(), Timeout: cfg.TavilyTimeout,
		BreakerTimeout: cfg.TavilyBreakerTimeout, HTTPClient: a.client(ClientTavily)})
	a.breakers["cbr"], a.breakers["tavily"] = rates.State, news.State
	ln, bases, err := a.ledger()
	if err != nil {
		return nil, err
	}
	var lane ledger.Runner // not a nil *runner.Lane: the agent tells a missing ledger by nil
	if ln != nil {
		lane = ln
	}
	// Everything sent to the LLM and the embeddings service passes the anonymiser: it is the
	// clients' Guard, so no call can go round it (LLM_ANONYMIZE; docs/security.md).
	guard, err := anon.New(anon.Options{Mode: anon.Mode(cfg.LLMAnonymize), Logger: a.log, Catalogs: installationCatalogs(ln)})
	if err != nil {
		return nil, fmt.Errorf("LLM_ANONYMIZE: %w", err)
	}
	var model phrase.LLM
	var llmClient *llm.Client
	if cfg.HasLLM() {
		llmClient = llm.New(llm.Options{
			BaseURL: cfg.LLMBaseURL, APIKey: cfg.LLMAPIKey.Reveal(), Model: cfg.LLMModel, Timeout: cfg.LLMTimeout,
			BreakerTimeout: cfg.LLMBreakerTimeout, AppTitle: "finbot", HTTPClient: a.client(ClientLLM), Guard: guard,
		})
		model = llmClient
		a.breakers["llm"] = llmClient.State
	}
	var embedder *llm.Embedder
	if cfg.EmbeddingsModel != "" {
		embedder = llm.NewEmbedder(llm.Options{
			BaseURL: cfg.EmbeddingsBaseURL, APIKey: cfg.EmbeddingsAPIKey.Reveal(), Model: cfg.EmbeddingsModel,
			Timeout: cfg.LLMTimeout, BreakerTimeout: cfg.LLMBreakerTimeout, AppTitle: "finbot", HTTPClient: a.client(ClientEmbeddings),
			Guard: guard,
		})
		a.embedder = embedder
		a.breakers["embeddings"] = embedder.State
	}
	if cfg.HasTranscription() {
		// The console's /upload and `ask --file` send audio files as the bot's users do.
		a.speech = llm.NewTranscriber(llm.Options{
			BaseURL: cfg.TranscribeBaseURL(), APIKey: cfg.TranscribeAPIKey.Reveal(), Model: cfg.TranscribeModel,
			Timeout: cfg.TranscribeTimeout, BreakerTimeout: cfg.LLMBreakerTimeout, AppTitle: "finbot", HTTPClient: a.client(ClientSpeech),
		}, "ru")
		a.breakers["speech"] = a.speech.State
	}
	a.extracts = extract.NewSlots(0)
	a.builds = library.NewBuildMemory(int64(cfg.DocsBuildMemMB) << 20)
	a.Docs = library.New(a.store, a.embedder, library.Options{
		MaxDocs: cfg.DocsMaxPerOwner, MaxChars: cfg.DocsMaxChars, MaxIndexBytes: int64(cfg.DocsMaxIndexMB) << 20,
		CacheOwners: cfg.DocsIndexCache, CacheBytes: int64(cfg.DocsIndexCacheMB) << 20, Logger: a.log,
		Limits: extract.Limits{Slots: a.extracts}, Builds: a.builds,
	})
	kbLib, kbOrigin, err := a.knowledgeBase(ctx)
	if err != nil {
		return nil, err
	}
	var planner agent.Planner
	if llmClient != nil {
		planner = plan.NewPlanner(llmClient, plan.Options{Model: cfg.PlannerModel, JSONObject: cfg.PlannerResponseFormat == "json_object",
			Temperature: float32(cfg.PlannerTemperature), MaxTokens: cfg.PlannerMaxTokens, Timeout: cfg.LLMTimeout})
	}
	access := ledgerAccess(cfg, o.Console)
	var acts reconcile.OurActs // a counterparty's uploaded act is compared with ours built here
	if lane != nil || bases != nil {
		acts = ledger.NewActs(lane, ledger.Options{LedgerAccess: access, Bases: bases, Logger: a.log})
	}
	if a.zone, err = time.LoadLocation(cfg.DigestZone); err != nil {
		return nil, fmt.Errorf("DIGEST_ZONE: %w", err)
	}
	// Photos and scans: tesseract and pdftoppm when installed; without them the bot starts and
	// says what is missing (the log here, /status and /healthz, and the answer to a photo).
	a.ocr = ocr.New(ocr.Options{})
	if m := a.ocr.Missing(); len(m) > 0 {
		a.log.Warn("photos and scans are not recognised: install the Debian packages", "missing", strings.Join(m, " "))
	}
	a.Agent = agent.New(agent.Deps{LLM: model, History: hist, Rates: rates, News: news, Ledger: lane, Bases: bases, Library: a.Docs, KB: kbLib, Planner: planner,
		Results: a.results, Acts: acts, Digests: a.digests, OCR: a.ocr},
		agent.Options{Logger: a.log, LedgerAccess: access, PlanConfidence: cfg.PlanConfidenceThreshold, DigestZone: a.zone,
			MaxToolCalls: cfg.MaxToolCalls, AnswerModel: cfg.AnswerModel, AnswerTemperature: float32(cfg.AnswerTemperature),
			PlanCacheTTL: cfg.PlanCacheTTL, LLMBudget: cfg.LLMBudget})
	a.answerer = a.Agent
	if o.Answerer != nil {
		a.answerer = o.Answerer(a.Agent)
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
		if bases == nil {
			lines = append(lines, "1С: "+ln.SourceName())
		} else {
			for _, b := range bases.List() {
				lines = append(lines, fmt.Sprintf("1С: «%s» (канал %s), предохранитель %s", b.Title, b.ID, a.breakers["onec_"+b.ID]()))
			}
		}
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
		if m := a.ocr.Missing(); len(m) > 0 {
			lines = append(lines, "распознавание фото и сканов: нет пакетов "+strings.Join(m, ", "))
		} else {
			lines = append(lines, "распознавание фото и сканов: tesseract (rus), pdftoppm")
		}
		switch {
		case a.speech != nil:
			lines = append(lines, fmt.Sprintf("распознавание речи: %s, предохранитель %s", a.speech.Model(), a.speech.State()))
		default:
			lines = append(lines, "распознавание речи: не настроено (голосовые сообщения не принимаются)")
		}
		return lines
	}
	if !o.Console {
		if err := a.newBot(ctx); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Close releases what New opened: the Redis connections and the idle HTTP connections. Call
// it after Run has returned.
func (a *App) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// Status is what /status and /healthz report: one line per dependency, in Russian.
func (a *App) Status(ctx context.Context) []string { return a.status(ctx) }

// DurableDocs reports whether documents live in Redis (and so outlive the process).
func (a *App) DurableDocs() bool { return a.durableDocs }

// installationCatalogs are the catalogs of the one 1C base, masked in every text sent to the
// LLM besides the requester's own (a user without access to 1C, an upload's embeddings); nil
// with several bases (ONEC_CHANNELS), whose users' sessions bring their own.
func installationCatalogs(ln *runner.Lane) func(ctx context.Context) *recipe.Catalogs {
	if ln == nil {
		return nil
	}
	return func(ctx context.Context) *recipe.Catalogs {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		c, err := ln.Catalogs(ctx)
		if err != nil {
			return nil
		}
		return &c
	}
}

// newTransport is http.DefaultTransport with room for concurrent answers per host.
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 64
	return t
}

// client is the HTTP client of the named integration: the shared pool, through
// Options.Transport when set. The integrations set their own timeouts.
func (a *App) client(name string) *http.Client {
	return &http.Client{Transport: a.transport(name)}
}

func (a *App) transport(name string) http.RoundTripper {
	if a.opts.Transport != nil {
		return a.opts.Transport(name, a.pool)
	}
	return a.pool
}

// stores opens history, documents and de-duplication: in Redis when REDIS_URL is set (one
// server, a Cluster or behind Sentinel: redisClient), else in memory. ping checks Redis for the status lines (nil without it).
func (a *App) stores(ctx context.Context) (hist agent.History, ping func(context.Context) error, err error) {
	cfg := a.cfg
	limits := history.Limits{MaxTurns: cfg.HistoryMaxTurns, MaxChars: cfg.HistoryMaxChars, TTL: cfg.HistoryTTL}
	if cfg.RedisURL == "" {
		a.store = docstore.NewMemory()
		a.dedupe = history.NewMemoryDedupe(100_000, cfg.DedupeTTL)
		a.results = history.NewMemoryResults(0, history.DefaultResultTTL)
		a.choices = history.NewMemoryResults(0, baseChoiceTTL)
		a.digests = history.NewMemorySubscriptions()
		return history.NewMemory(cfg.MemoryChatsLimit, limits), nil, nil
	}
	rdb, err := redisClient(cfg)
	if err != nil {
		return nil, nil, err
	}
	// go-redis logs through a package-level logger; route it into ours (JSON, redacted).
	redis.SetLogger(redisLogger{a.log})
	a.closers = append(a.closers, func() { rdb.Close() })
	store := history.NewRedis(rdb, cfg.RedisPrefix, limits)
	a.store, a.durableDocs = docstore.NewRedis(rdb, cfg.RedisPrefix), true
	a.dedupe = history.NewRedisDedupe(rdb, cfg.RedisPrefix, cfg.DedupeTTL)
	a.inbox = history.NewRedisInbox(rdb, cfg.RedisPrefix, inboxSweep(cfg))
	a.results = history.NewRedisResults(rdb, cfg.RedisPrefix, history.DefaultResultTTL)
	a.choices = history.NewRedisResults(rdb, cfg.RedisPrefix, baseChoiceTTL)
	a.digests = history.NewRedisSubscriptions(rdb, cfg.RedisPrefix)
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := store.Ping(pctx); err != nil {
		// Not fatal: replies still go out, history degrades until Redis answers.
		a.log.Warn("redis does not answer yet; continuing", "err", err)
	}
	return store, store.Ping, nil
}

// baseChoiceTTL is how long a user's choice of a 1C base (/base) is kept: a choice is not
// forgotten with the dialog, and one a year old is asked again.
const baseChoiceTTL = 365 * 24 * time.Hour

// ledger is the 1C lane: over the 1C proxy at ONEC_URL, else over the embedded demo ledger.
// With ONEC_CHANNELS it is one lane per channel instead (bases), each with its own catalogs
// and circuit breaker, and lane is nil.
func (a *App) ledger() (lane *runner.Lane, bases *ledger.Bases, err error) {
	cfg := a.cfg
	if len(cfg.OneCChannels) > 0 {
		bases, err := a.ledgerBases()
		return nil, bases, err
	}
	var source runner.Source
	maxRows, org := onec.MaxDemoRows, cfg.OneCOrganization
	if cfg.OneCURL != "" {
		maxRows = onec.MaxProxyRows
		proxy, err := onec.NewProxy(onec.ProxyOptions{URL: cfg.OneCURL, Channel: cfg.OneCChannel, Token: cfg.OneCToken.Reveal(), Timeout: cfg.OneCTimeout,
			BreakerTimeout: cfg.OneCBreakerTimeout, HTTPClient: a.client(ClientOneC)})
		if err != nil {
			return nil, nil, fmt.Errorf("ONEC_URL: %w", err)
		}
		source = proxy
		a.breakers["onec"] = proxy.State
	} else {
		demo, err := a.demo()
		if err != nil {
			return nil, nil, fmt.Errorf("demo ledger: %w", err)
		}
		if cfg.OneCDemo == ledgergen.DemoRealistic {
			// A base shaped like a real one is asked like a real one: through the proxy's
			// 1,000-row limit, so its answers say when they were cut.
			maxRows = onec.MaxProxyRows
		}
		source = demo
		if org == "" {
			org = demo.MainOrganization()
		}
	}
	return runner.NewLane(source, runner.Options{Logger: a.log, QueryTimeout: cfg.OneCTimeout, MaxRows: maxRows, Organization: org,
		RestrictedRights: cfg.OneCRestricted, AgingBounds: cfg.OneCAgingBuckets, DefaultPaymentDays: cfg.OneCDefaultPaymentDays}), nil, nil
}

// ledgerBases are the lanes of ONEC_CHANNELS, built at start-up (a lane makes no call until
// asked): one proxy client per channel, its title naming the base under every answer.
func (a *App) ledgerBases() (*ledger.Bases, error) {
	cfg := a.cfg
	var list []ledger.Base
	for _, ch := range cfg.OneCChannels {
		proxy, err := onec.NewProxy(onec.ProxyOptions{URL: cfg.OneCURL, Channel: ch.ID, Token: ch.Token.Reveal(), Name: ch.Title,
			Timeout: cfg.OneCTimeout, BreakerTimeout: cfg.OneCBreakerTimeout, HTTPClient: a.client(ClientOneC)})
		if err != nil {
			return nil, fmt.Errorf("ONEC_CHANNELS %s: %w", ch.ID, err)
		}
		a.breakers["onec_"+ch.ID] = proxy.State
		lane := runner.NewLane(proxy, runner.Options{Logger: a.log.With("onec_channel", ch.ID), QueryTimeout: cfg.OneCTimeout,
			MaxRows: onec.MaxProxyRows, Organization: ch.Organization, RestrictedRights: ch.Restricted,
			AgingBounds: cfg.OneCAgingBuckets, DefaultPaymentDays: cfg.OneCDefaultPaymentDays})
		list = append(list, ledger.Base{ID: ch.ID, Title: ch.Title, Runner: lane, Users: ch.Users, Chats: ch.Chats, All: ch.All})
		if !ch.All {
			a.warnUngated(ch)
		}
	}
	return ledger.NewBases(list, ledger.BasesOptions{Choices: a.choices, Logger: a.log, Open: a.opts.Console})
}

// warnUngated logs the users and chats a channel maps that the ledger access lists, the first
// gate, keep out: they would be refused.
func (a *App) warnUngated(ch config.OneCChannel) {
	var users, chats []int64
	for _, u := range ch.Users {
		if !slices.Contains(a.cfg.LedgerAllowUsers, u) {
			users = append(users, u)
		}
	}
	for _, c := range ch.Chats {
		if !slices.Contains(a.cfg.LedgerAllowChats, c) && !(c > 0 && slices.Contains(a.cfg.LedgerAllowUsers, c)) {
			chats = append(chats, c)
		}
	}
	if len(users)+len(chats) > 0 {
		a.log.Warn("ONEC_CHANNELS maps users or chats that LEDGER_ALLOWED_USER_IDS / LEDGER_ALLOWED_CHAT_IDS keep out; they are refused",
			"channel", ch.ID, "users", users, "chats", chats)
	}
}

// demo is the demo base ONEC_DEMO names: the embedded one, or the realistic one, generated
// here (about a second and 100 MB; docs/benchmarks.md).
func (a *App) demo() (*onec.Demo, error) {
	if a.cfg.OneCDemo != ledgergen.DemoRealistic {
		return onec.DemoDefault()
	}
	start := time.Now()
	l, err := ledgergen.Base(ledgergen.DemoRealistic)
	if err != nil {
		return nil, err
	}
	d := onec.NewNamedDemo(l, ledgergen.RealisticName)
	a.log.Info("realistic demo base generated", "counterparties", len(l.Counterparties), "records", len(l.Movements),
		"took", time.Since(start).Round(time.Millisecond))
	return d, nil
}

// ledgerAccess decides who sees 1C data. The demo ledger is synthetic, so with no lists it is
// open; a real 1C with no lists is closed to everyone. The console is open: its operator
// already holds the configuration.
func ledgerAccess(cfg config.Config, console bool) func(userID, chatID int64) bool {
	users, chats := cfg.LedgerAllowUsers, cfg.LedgerAllowChats
	open := console || (len(users) == 0 && len(chats) == 0 && cfg.OneCURL == "")
	return func(userID, chatID int64) bool {
		if open || slices.Contains(chats, chatID) {
			return true
		}
		// In a group everyone reads the answer: an allowed user is not enough, the chat must be.
		return chatID > 0 && slices.Contains(users, userID)
	}
}

// redisLogger adapts slog to go-redis's internal logger (pool dial failures and the like).
type redisLogger struct{ log *slog.Logger }

func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.WarnContext(ctx, "redis client", "detail", fmt.Sprintf(format, v...))
}
