// Package load plays N users × M messages against the real finbot — built by internal/app
// as `finbot serve` builds it — through an in-process fake Bot API and stand-ins for the LLM,
// the Bank of Russia and Tavily with configurable latency, and reports replies per message,
// the bot's own latency beside the process's peak memory, goroutines after shutdown and the
// send rates against Telegram's limits. The users ask questions, upload documents (PDF, DOCX,
// TXT) and ask about them, and ask for news. cmd/finbot-load runs it:
//
//	go run ./cmd/finbot-load -users 1000 -messages 10 -out docs/load-report.md
//
// History and documents live in the Redis at -redis when it answers (keys under a per-run
// prefix, deleted afterwards), else in memory. 1C is the embedded demo ledger.
package load

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/internal/app"
	"github.com/finbot/finbot/internal/fakes"
)

// settings are the run's flags.
type settings struct {
	users, messages     int
	groups, groupSize   int
	chatter             float64
	seed                uint64
	thinkMin, thinkMax  time.Duration
	ramp                time.Duration
	llmLatency, llmGap  time.Duration
	llmChunks           int
	cbrLatency          time.Duration
	tavilyLatency       time.Duration
	redisURL            string
	memory              bool
	replyTimeout, drain time.Duration
	timeout             time.Duration
	jitter              time.Duration // how late a send's hand-off may be stamped after the limiter let it go
	out, logPath, dump  string
	env                 map[string]string
	command             string // as given, for the report
}

// envFlags collects repeated -env KEY=VALUE.
type envFlags map[string]string

func (e envFlags) String() string { return fmt.Sprint(map[string]string(e)) }

func (e envFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	e[k] = val
	return nil
}

func parse(args []string, getenv func(string) string, stderr io.Writer) (settings, error) {
	s := settings{env: map[string]string{}}
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&s.users, "users", 1000, "simulated users")
	fs.IntVar(&s.messages, "messages", 10, "messages each user sends")
	fs.IntVar(&s.groups, "groups", 20, "group chats; their members are taken from -users")
	fs.IntVar(&s.groupSize, "group-size", 5, "users per group chat")
	fs.Float64Var(&s.chatter, "chatter", 0.2, "chance that a group member first writes to colleagues, not to the bot (no reply expected)")
	fs.Uint64Var(&s.seed, "seed", 1, "seed of the message mix and think times")
	fs.DurationVar(&s.thinkMin, "think-min", 2*time.Second, "least time a user takes after a reply before the next message")
	fs.DurationVar(&s.thinkMax, "think-max", 6*time.Second, "most time a user takes after a reply before the next message")
	fs.DurationVar(&s.ramp, "ramp", 10*time.Second, "users start evenly spread over this time")
	fs.DurationVar(&s.llmLatency, "llm-latency", 400*time.Millisecond, "LLM stand-in: time to the first byte of every answer")
	fs.IntVar(&s.llmChunks, "llm-chunks", 6, "LLM stand-in: chunks of a streamed answer")
	fs.DurationVar(&s.llmGap, "llm-chunk-gap", 50*time.Millisecond, "LLM stand-in: pause between streamed chunks")
	fs.DurationVar(&s.cbrLatency, "cbr-latency", 150*time.Millisecond, "Bank of Russia stand-in: time to answer")
	fs.DurationVar(&s.tavilyLatency, "tavily-latency", 300*time.Millisecond, "Tavily stand-in: time to answer a news search")
	redisDefault := getenv("REDIS_URL")
	if redisDefault == "" {
		redisDefault = "redis://127.0.0.1:6379/0"
	}
	fs.StringVar(&s.redisURL, "redis", redisDefault, "Redis for history and de-duplication, used if it answers")
	fs.BoolVar(&s.memory, "memory", false, "keep history in memory even if Redis answers")
	fs.DurationVar(&s.replyTimeout, "reply-timeout", 5*time.Minute, "a user stops waiting for a reply after this")
	fs.DurationVar(&s.drain, "drain", 2*time.Minute, "after the last user, how long to wait for answers still being sent")
	fs.DurationVar(&s.timeout, "timeout", 30*time.Minute, "the whole run")
	fs.DurationVar(&s.jitter, "jitter", 5*time.Millisecond, "how late after the bot's send limiter let a send go its hand-off to the HTTP client may be stamped, when the run checks the bot's limits (the worst scheduling delay measured counts if larger)")
	fs.StringVar(&s.out, "out", "", "also write the report to this file")
	fs.StringVar(&s.logPath, "log", "", "write the bot's JSON log here (default: only counted)")
	fs.StringVar(&s.dump, "dump", "", "write one tab-separated line per message here (timings, route, first reply)")
	fs.Var(envFlags(s.env), "env", "a finbot setting as KEY=VALUE (repeatable), e.g. -env USER_RATE_PER_MIN=60")
	if err := fs.Parse(args); err != nil {
		return s, err
	}
	switch {
	case s.users < 1 || s.messages < 1:
		return s, errors.New("-users and -messages must be at least 1")
	case s.thinkMax < s.thinkMin:
		return s, errors.New("-think-max is below -think-min")
	}
	s.command = "go run ./cmd/finbot-load " + strings.Join(args, " ")
	return s, nil
}

// Run is the whole driver: it parses args (the flags above), plays the run, prints the report
// to stdout (and -out) and fails when the run found problems. Progress goes to stderr.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	s, err := parse(args, getenv, stderr)
	if err != nil {
		return err
	}
	res, err := play(ctx, s, stderr)
	if err != nil {
		return err
	}
	report := res.markdown()
	fmt.Fprint(stdout, report)
	if s.out != "" {
		if err := os.WriteFile(s.out, []byte(report), 0o644); err != nil {
			return err
		}
	}
	if s.dump != "" {
		if err := os.WriteFile(s.dump, []byte(res.tsv()), 0o644); err != nil {
			return err
		}
	}
	if problems := res.problems(); len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

const (
	botToken    = "7000000:LOAD-token"
	botID       = 7000000
	botUsername = "finbot_load_bot"
	llmKey      = "load-llm-key"
	tavilyKey   = "tvly-load-key"
)

// play runs the whole load and returns what it measured.
func play(ctx context.Context, s settings, progress io.Writer) (*result, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	runtime.GC()
	res := &result{s: s, goroutinesBefore: runtime.NumGoroutine(), started: time.Now(), cpuBefore: cpuTime()}

	rec := newRecorder()
	tg := newBotAPI(rec)
	llmS := newLLM(s.llmLatency, s.llmChunks, s.llmGap)
	cbrS := newCBRStandIn(s.cbrLatency)
	tavS := newTavilyStandIn(tavilyKey, s.tavilyLatency)
	closeServers := func() { tg.Close(); llmS.Close(); cbrS.Close(); tavS.Close() }

	env := map[string]string{
		"TELEGRAM_TOKEN": botToken, "TELEGRAM_API_URL": tg.URL(), "TELEGRAM_POLL_TIMEOUT": "10s",
		"LLM_BASE_URL": llmS.URL(), "LLM_API_KEY": llmKey, "LLM_MODEL": "load/model",
		"CBR_URL": cbrS.URL(), "TAVILY_URL": tavS.URL(), "TAVILY_API_KEY": tavilyKey,
		"SHUTDOWN_TIMEOUT": "60s", "METRICS_ADDR": "127.0.0.1:0",
		// The first reply is the first message a user sees arrive; native drafts are not
		// messages, so the load run streams with edits, as its earlier reports did.
		"STREAM_MODE": "edit",
	}
	prefix := ""
	if !s.memory && redisAnswers(ctx, s.redisURL) {
		prefix = fmt.Sprintf("finbot-load:%d-%d:", os.Getpid(), time.Now().Unix())
		env["REDIS_URL"], env["REDIS_PREFIX"] = s.redisURL, prefix
	}
	for k, v := range s.env {
		env[k] = v
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		closeServers()
		return nil, fmt.Errorf("config: %w", err)
	}
	var next slog.Handler
	if s.logPath != "" {
		f, err := os.Create(s.logPath)
		if err != nil {
			closeServers()
			return nil, err
		}
		defer f.Close()
		next = slog.NewJSONHandler(f, &slog.HandlerOptions{Level: cfg.LogLevel})
	}
	logs := newLogCounter(next)
	docs := documents()
	a, err := app.New(ctx, cfg, app.Options{Logger: slog.New(logs), Transport: measured(rec),
		Answerer: func(next app.Answerer) app.Answerer { return observed{Answerer: next, rec: rec} }})
	if err != nil {
		closeServers()
		return nil, fmt.Errorf("build the bot: %w", err)
	}
	res.cfg = cfg
	res.store = "in memory (history.Memory, MemoryDedupe, docstore.Memory)"
	if cfg.RedisURL != "" {
		res.store = fmt.Sprintf("Redis %s (keys under %q, deleted after the run)", redisAddr(cfg.RedisURL.Reveal()), cfg.RedisPrefix)
	}

	pop := populate(s.users, s.messages, s.groups, s.groupSize, s.seed, botUsername, docs)
	res.pop = pop
	for _, c := range pop.chats {
		rec.addChat(c)
	}

	botCtx, stopBot := context.WithCancel(ctx)
	defer stopBot()
	runDone := make(chan error, 1)
	go func() { runDone <- a.Run(botCtx) }()

	samplerCtx, stopSampler := context.WithCancel(context.Background())
	sampled := make(chan peaks, 1)
	go func() { sampled <- sample(samplerCtx, 200*time.Millisecond) }()

	fmt.Fprintf(progress, "load: %d users × %d messages (%d groups of %d), history %s\n",
		s.users, s.messages, pop.groups, s.groupSize, res.store)
	stopProgress := reportProgress(ctx, progress, rec, s.users*s.messages)

	var wg sync.WaitGroup
	for i, u := range pop.users {
		wg.Go(func() {
			if !sleep(ctx, s.ramp*time.Duration(i)/time.Duration(len(pop.users))) {
				return
			}
			playUser(ctx, s, tg, rec, u)
		})
	}
	wg.Wait()
	res.usersDone = time.Now()

	// Users wait only for the first reply; let the rest of each answer go out.
	deadline := time.Now().Add(s.drain)
	for !rec.idle(2*time.Second) && time.Now().Before(deadline) && ctx.Err() == nil {
		sleep(ctx, 100*time.Millisecond)
	}
	res.drained = time.Now()
	stopProgress()
	stopBot()
	res.runErr = <-runDone
	res.stopped = time.Now()
	stopSampler()
	res.peaks = <-sampled
	res.cpu = cpuTime() - res.cpuBefore

	res.llmCalls, res.cbrCalls, res.tavilyCalls = llmS.Counts(), cbrS.counts(), tavS.counts()
	res.downloads = int64(tg.Downloads())
	res.conns = map[string]int64{"Bot API": tg.Conns(), "LLM": llmS.Conns(), "CBR": cbrS.srv.Conns(), "Tavily": tavS.srv.Conns()}
	res.metrics = gather(a.Metrics)
	res.logs = logs.top()
	closeServers()
	a.Close()
	if prefix != "" {
		deleteKeys(s.redisURL, prefix) // the run's keys go with it
	}

	// Goroutines after the run: everything stopped, idle connections closed, a moment to exit.
	time.Sleep(time.Second)
	runtime.GC()
	res.goroutinesAfter = runtime.NumGoroutine()
	res.leftover = goroutineCreators()
	res.peakRSSKB = procStatusKB("VmHWM")
	res.rec = rec
	return res, nil
}

// playUser sends u's messages one after another: each after the reply to the previous one
// and a think time.
func playUser(ctx context.Context, s settings, tg *fakes.BotAPI, rec *recorder, u *user) {
	for k, m := range u.msgs {
		if k > 0 {
			think := s.thinkMin
			if s.thinkMax > s.thinkMin {
				think += time.Duration(u.rng.Int64N(int64(s.thinkMax - s.thinkMin)))
			}
			if !sleep(ctx, think) {
				return
			}
		}
		if u.chat.group && s.chatter > 0 && u.rng.Float64() < s.chatter {
			push(tg, rec, chatterFor(u))
		}
		push(tg, rec, m)
		t := time.NewTimer(s.replyTimeout)
		select {
		case <-m.replied:
		case <-t.C:
			rec.gaveUp(m)
		case <-ctx.Done():
		}
		t.Stop()
		if ctx.Err() != nil {
			return
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// redisAddr is the host:port of a Redis URL, for the report.
func redisAddr(url string) string {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return "?"
	}
	return opts.Addr
}

// deleteKeys unlinks every key under prefix.
func deleteKeys(url, prefix string) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	iter := rdb.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
		if len(keys) == 1000 {
			rdb.Unlink(ctx, keys...)
			keys = keys[:0]
		}
	}
	if len(keys) > 0 {
		rdb.Unlink(ctx, keys...)
	}
}

func redisAnswers(ctx context.Context, url string) bool {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return false
	}
	opts.DialTimeout, opts.MaxRetries = time.Second, 0
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return rdb.Ping(pctx).Err() == nil
}

// reportProgress prints a line every 10 s until stopped.
func reportProgress(ctx context.Context, w io.Writer, rec *recorder, total int) func() {
	pctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-pctx.Done():
				return
			case <-t.C:
				replied, sends := rec.progress()
				fmt.Fprintf(w, "load: %4.0fs  replied %d/%d  Bot API sends %d  goroutines %d\n",
					time.Since(start).Seconds(), replied, total, sends, runtime.NumGoroutine())
			}
		}
	}()
	return func() { cancel(); <-done }
}
