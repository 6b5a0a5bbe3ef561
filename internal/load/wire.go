package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/agent/address"
	"github.com/finbot/finbot/agent/docs"
	"github.com/finbot/finbot/agent/docs/kb"
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

// The wiring below repeats what build and serve in the repository's main.go do for
// `finbot serve` (main's functions cannot be imported), including its one pooled
// *http.Transport (main's newTransport) shared by every client and closed when the run ends.
// Differences, all for measurement: the LLM and CBR clients' requests go through a wrapper
// that times each call for the message it serves, and the Bot API client's through one that
// stamps the moment each request was handed to it (handoffHeader); the agent is wrapped to
// see which message each Answer call is for; the knowledge base is always the built-in
// sample; there is no ops server.
var (
	_ bot.Answerer = observed{}
	_ agent.LLM    = (*llm.Client)(nil)
	_ agent.Rates  = (*cbr.Client)(nil)
)

// wired is a bot built the way `finbot serve` builds it.
type wired struct {
	bot     *bot.Bot
	reg     *prometheus.Registry
	store   string          // where history lives, for the report
	http    *http.Transport // the connection pool of every client, as in main
	closers []func()
}

// close releases what wire opened; call it after the bot has stopped.
func (w *wired) close() {
	for i := len(w.closers) - 1; i >= 0; i-- {
		w.closers[i]()
	}
	w.http.CloseIdleConnections()
}

// newTransport is main's newTransport: http.DefaultTransport with room for concurrent
// answers per host.
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 64
	return t
}

type messageKey struct{}

func wire(ctx context.Context, cfg config.Config, log *slog.Logger, rec *recorder) (*wired, error) {
	w := &wired{reg: prometheus.NewRegistry(), http: newTransport()}
	pooled := &http.Client{Transport: w.http}
	limits := history.Limits{MaxTurns: cfg.HistoryMaxTurns, MaxChars: cfg.HistoryMaxChars, TTL: cfg.HistoryTTL}
	var (
		hist   agent.History
		store  docs.Store
		dedupe bot.Deduper
	)
	if cfg.RedisURL != "" {
		opts, err := redis.ParseURL(cfg.RedisURL.Reveal())
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		opts.ContextTimeoutEnabled = true
		opts.MaxRetries = 1
		opts.DialTimeout = 2 * time.Second
		rdb := redis.NewClient(opts)
		prefix := cfg.RedisPrefix
		w.closers = append(w.closers, func() {
			// The run's keys go with it.
			cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			iter := rdb.Scan(cctx, 0, prefix+"*", 1000).Iterator()
			var keys []string
			for iter.Next(cctx) {
				keys = append(keys, iter.Val())
				if len(keys) == 1000 {
					rdb.Unlink(cctx, keys...)
					keys = keys[:0]
				}
			}
			if len(keys) > 0 {
				rdb.Unlink(cctx, keys...)
			}
			rdb.Close()
		})
		hist = history.NewRedis(rdb, prefix, limits)
		store = docstore.NewRedis(rdb, prefix)
		dedupe = history.NewRedisDedupe(rdb, prefix, cfg.DedupeTTL)
		w.store = fmt.Sprintf("Redis %s (keys under %q, deleted after the run)", opts.Addr, prefix)
	} else {
		hist = history.NewMemory(cfg.MemoryChatsLimit, limits)
		store = docstore.NewMemory()
		dedupe = history.NewMemoryDedupe(100_000, cfg.DedupeTTL)
		w.store = "in memory (history.Memory, MemoryDedupe)"
	}

	llmClient := llm.New(llm.Options{
		BaseURL: cfg.LLMBaseURL, APIKey: cfg.LLMAPIKey.Reveal(), Model: cfg.LLMModel, Timeout: cfg.LLMTimeout,
		BreakerTimeout: cfg.LLMBreakerTimeout, AppTitle: "finbot",
		HTTPClient: &http.Client{Transport: timed{base: w.http, kind: "llm", rec: rec}},
	})
	rates := cbr.New(cbr.Options{BaseURL: cfg.CBRURL, Timeout: cfg.CBRTimeout, UserAgent: cfg.CBRUserAgent,
		BreakerTimeout: cfg.CBRBreakerTimeout, HTTPClient: &http.Client{Transport: timed{base: w.http, kind: "cbr", rec: rec}}})
	news := tavily.New(tavily.Options{BaseURL: cfg.TavilyURL, APIKey: cfg.TavilyAPIKey.Reveal(), Timeout: cfg.TavilyTimeout,
		BreakerTimeout: cfg.TavilyBreakerTimeout, HTTPClient: pooled})
	demo, err := onec.DemoDefault()
	if err != nil {
		return nil, fmt.Errorf("demo ledger: %w", err)
	}
	lane := address.NewLane(demo, address.Options{Logger: log, QueryTimeout: cfg.OneCTimeout, MaxRows: onec.MaxDemoRows})
	library := docs.New(store, nil, docs.Options{
		MaxDocs: cfg.DocsMaxPerOwner, MaxChars: cfg.DocsMaxChars, CacheOwners: cfg.DocsIndexCache, Logger: log,
	})
	kbLib := docs.New(docstore.NewMemory(), nil, docs.Options{Logger: log, MaxDocs: 1_000_000, MaxChars: 2_000_000_000})
	if _, _, err := kbLib.Ingest(ctx, docs.KBOwner, kb.Sample()); err != nil {
		return nil, fmt.Errorf("knowledge base: %w", err)
	}
	planner := plan.NewPlanner(llmClient, plan.Options{Model: cfg.PlannerModel, JSONObject: cfg.PlannerResponseFormat == "json_object",
		Temperature: float32(cfg.PlannerTemperature), MaxTokens: cfg.PlannerMaxTokens, Timeout: cfg.LLMTimeout})
	a := agent.New(agent.Deps{LLM: llmClient, History: hist, Rates: rates, News: news, Ledger: lane, Docs: library, KB: kbLib, Planner: planner},
		agent.Options{Logger: log, LedgerAccess: func(int64, int64) bool { return true }, // the demo ledger with no allow-lists is open, as in main
			PlanConfidence: cfg.PlanConfidenceThreshold, MaxToolCalls: cfg.MaxToolCalls, AnswerModel: cfg.AnswerModel,
			AnswerTemperature: float32(cfg.AnswerTemperature), PlanCacheTTL: cfg.PlanCacheTTL})

	b, err := bot.New(ctx, observed{Agent: a, rec: rec}, bot.Options{
		Token: cfg.TelegramToken.Reveal(), APIURL: cfg.TelegramAPIURL, PollTimeout: cfg.PollTimeout,
		HTTPClient:     &http.Client{Timeout: cfg.PollTimeout + 15*time.Second, Transport: stamped{base: w.http}},
		Access:         bot.Access{Users: cfg.AllowedUserIDs, Chats: cfg.AllowedChatIDs, Admins: cfg.AdminUserIDs},
		UserRatePerMin: cfg.UserRatePerMin, UserRateBurst: cfg.UserRateBurst,
		AnswerTimeout: cfg.AnswerTimeout, ShutdownTimeout: cfg.ShutdownTimeout,
		Dedupe: dedupe, Metrics: bot.NewMetrics(w.reg), Logger: log,
	})
	if err != nil {
		w.close()
		return nil, err
	}
	w.bot = b
	return w, nil
}

// observed is the agent as the bot sees it, telling the recorder which message each Answer
// call is for and carrying that message in the context for the timed transports.
type observed struct {
	*agent.Agent
	rec *recorder
}

func (o observed) Answer(ctx context.Context, req agent.Request) (agent.Answer, error) {
	m := o.rec.answerStarted(req.ChatID, req.UserID, req.Command, req.Text)
	ans, err := o.Agent.Answer(context.WithValue(ctx, messageKey{}, m), req)
	o.rec.answerEnded(m, string(ans.Scenario), ans.Intent, ans.Debug.LLMCalls, err)
	return ans, err
}

// stamped tells the fake Bot API when the bot handed it each request: for a send, a few
// microseconds of request building after the bot's limiter let it go.
type stamped struct{ base http.RoundTripper }

func (s stamped) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context()) // a RoundTripper must not modify the caller's request
	r.Header.Set(handoffHeader, strconv.FormatInt(time.Now().UnixNano(), 10))
	return s.base.RoundTrip(r)
}

// timed measures each call to a stand-in, from sending the request to the end of its body,
// for the message in the request's context.
type timed struct {
	base http.RoundTripper
	kind string
	rec  *recorder
}

func (t timed) RoundTrip(r *http.Request) (*http.Response, error) {
	m, _ := r.Context().Value(messageKey{}).(*message)
	start := time.Now()
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		t.rec.standIn(m, t.kind, start, time.Now())
		return nil, err
	}
	resp.Body = &timedBody{ReadCloser: resp.Body, done: func() { t.rec.standIn(m, t.kind, start, time.Now()) }}
	return resp, nil
}

type timedBody struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.once.Do(b.done)
	}
	return n, err
}

func (b *timedBody) Close() error {
	b.once.Do(b.done)
	return b.ReadCloser.Close()
}

// logCounter counts the bot's warnings and errors by message, and passes records on to next
// (the -log file) when there is one.
type logCounter struct {
	next   slog.Handler
	mu     *sync.Mutex
	counts map[string]int
}

func newLogCounter(next slog.Handler) *logCounter {
	return &logCounter{next: next, mu: &sync.Mutex{}, counts: map[string]int{}}
}

func (h *logCounter) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn || (h.next != nil && h.next.Enabled(ctx, l))
}

func (h *logCounter) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		h.mu.Lock()
		h.counts[r.Level.String()+" "+r.Message]++
		h.mu.Unlock()
	}
	if h.next != nil && h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *logCounter) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	if h.next != nil {
		c.next = h.next.WithAttrs(as)
	}
	return &c
}

func (h *logCounter) WithGroup(name string) slog.Handler {
	c := *h
	if h.next != nil {
		c.next = h.next.WithGroup(name)
	}
	return &c
}

// top returns the counted messages, most frequent first.
func (h *logCounter) top() []countedLine {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]countedLine, 0, len(h.counts))
	for k, v := range h.counts {
		out = append(out, countedLine{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].n > out[j].n || out[i].n == out[j].n && out[i].what < out[j].what })
	return out
}

type countedLine struct {
	what string
	n    int
}
