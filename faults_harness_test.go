package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
)

// The harness of the fault-injection tests (faults_test.go): the fake Bot API of
// internal/fakes, stand-ins that can be switched into a fault, a /metrics reader and a watcher
// of the breaker gauges, and the bookkeeping of every question asked and the reply it got. It
// needs no node and no Redis.

const faultToken = "424242:FAULT-injection-token"

// faultBotAPI is the fake Bot API of the fault tests; each question comes from a user of its own.
type faultBotAPI struct {
	*fakes.BotAPI
	nextUser atomic.Int64
}

func newFaultBotAPI(t *testing.T, firstUser int64) *faultBotAPI {
	f := &faultBotAPI{BotAPI: fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: faultToken, BotID: 4242,
		Username: "finbot_fault_bot", MaxPoll: 300 * time.Millisecond})}
	f.nextUser.Store(firstUser - 1)
	return f
}

// say sends text from a new user in a private chat and returns the chat id.
func (f *faultBotAPI) say(text string) int64 {
	user := f.nextUser.Add(1)
	f.sayAs(user, text)
	return user
}

// sayAs sends text from user in the private chat with them.
func (f *faultBotAPI) sayAs(user int64, text string) { f.Say(fakes.Text{ChatID: user, Text: text}) }

// sent is how many messages the bot has sent to chat so far.
func (f *faultBotAPI) sent(chat int64) int { return len(f.Chat(chat)) }

// shown is what chat shows now of the messages sent from the from-th on, before the to-th (-1:
// to the end): the texts of those not deleted, in order (photos' and documents' captions aside).
func (f *faultBotAPI) shown(chat int64, from, to int) string {
	msgs := f.Chat(chat)
	if to < 0 || to > len(msgs) {
		to = len(msgs)
	}
	var parts []string
	for _, m := range msgs[min(from, to):to] {
		if !m.Deleted && (m.Method == "sendMessage" || m.Method == "sendRichMessage") {
			parts = append(parts, m.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// standIn is an httptest server that a test can take down (connection refused) and bring back
// on the same address, which stays reserved for it meanwhile (testnet.Addr), or put into a fault: a hook that sees every request first and answers it
// when it returns true.
type standIn struct {
	t    *testing.T
	h    http.Handler
	addr string

	mu    sync.Mutex
	srv   *httptest.Server
	fault func(w http.ResponseWriter, r *http.Request) bool
}

func newStandIn(t *testing.T, h http.Handler) *standIn {
	s := &standIn{t: t, h: h, addr: testnet.Addr(t)}
	s.start()
	t.Cleanup(s.down)
	return s
}

func (s *standIn) URL() string { return "http://" + s.addr }

func (s *standIn) start() {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	srv.Listener.Close()
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		s.t.Fatalf("stand-in on %s: %v", s.addr, err)
	}
	srv.Listener = ln
	srv.Start()
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
}

// down stops the server: connections are cut and new ones refused.
func (s *standIn) down() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		srv.CloseClientConnections()
		srv.Close()
	}
}

// up brings the server back on its old address.
func (s *standIn) up() { s.start() }

// setFault puts the stand-in into a fault; nil restores normal service.
func (s *standIn) setFault(f func(w http.ResponseWriter, r *http.Request) bool) {
	s.mu.Lock()
	s.fault = f
	s.mu.Unlock()
}

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	fault := s.fault
	s.mu.Unlock()
	if fault != nil && fault(w, r) {
		return
	}
	s.h.ServeHTTP(w, r)
}

// faultRespond is a fault that answers every request with status, content type and body.
func faultRespond(status int, contentType, body string) func(http.ResponseWriter, *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		io.WriteString(w, body)
		return true
	}
}

// faultHang is a fault that never answers: it holds each request until the client gives up.
func faultHang(w http.ResponseWriter, r *http.Request) bool {
	io.Copy(io.Discard, r.Body) // the server notices a hang-up only once the body is read
	select {
	case <-r.Context().Done():
	case <-time.After(30 * time.Second):
	}
	return true
}

// metricsReader reads the bot's /metrics with a client of its own.
type metricsReader struct {
	url    string
	client *http.Client
}

func newMetricsReader(addr string) *metricsReader {
	return &metricsReader{url: "http://" + addr + "/metrics",
		client: &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{}}}
}

// read returns every sample as "name{labels}" → value.
func (m *metricsReader) read() (map[string]float64, error) {
	resp, err := m.client.Get(m.url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if v, err := strconv.ParseFloat(line[i+1:], 64); i > 0 && err == nil {
			out[line[:i]] = v
		}
	}
	return out, nil
}

func (m *metricsReader) close() { m.client.CloseIdleConnections() }

func breakerKey(name string) string { return `finbot_breaker_state{breaker="` + name + `"}` }

// answersHandled is how many messages the bot has finished with (finbot_answer_seconds counts one per
// message, once its answer was sent).
func answersHandled(samples map[string]float64) int {
	n := 0.0
	for k, v := range samples {
		if strings.HasPrefix(k, "finbot_answer_seconds_count") {
			n += v
		}
	}
	return int(n)
}

// breakerWatch reads /metrics every few milliseconds and remembers, per phase of the test, which
// states each breaker was seen in: a breaker open for half a second is not missed.
type breakerWatch struct {
	m    *metricsReader
	stop chan struct{}
	done chan struct{}
	once sync.Once

	mu    sync.Mutex
	phase string
	seen  map[string]map[string][]float64 // phase → breaker → states, in order, without repeats
}

func watchBreakers(m *metricsReader) *breakerWatch {
	w := &breakerWatch{m: m, stop: make(chan struct{}), done: make(chan struct{}), phase: "start",
		seen: map[string]map[string][]float64{}}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(15 * time.Millisecond)
		defer tick.Stop()
		for {
			if samples, err := m.read(); err == nil {
				w.record(samples)
			}
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *breakerWatch) record(samples map[string]float64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, v := range samples {
		name, ok := strings.CutPrefix(k, `finbot_breaker_state{breaker="`)
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, `"}`)
		if w.seen[w.phase] == nil {
			w.seen[w.phase] = map[string][]float64{}
		}
		states := w.seen[w.phase][name]
		if len(states) == 0 || states[len(states)-1] != v {
			w.seen[w.phase][name] = append(states, v)
		}
	}
}

func (w *breakerWatch) setPhase(p string) {
	w.mu.Lock()
	w.phase = p
	w.mu.Unlock()
}

// states returns the states breaker went through during phase.
func (w *breakerWatch) states(phase, breaker string) []float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.seen[phase][breaker])
}

// close stops the watch; it may be called more than once.
func (w *breakerWatch) close() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

// replyCheck judges the reply to one question; nil means it is right.
type replyCheck func(reply string) error

// says wants every one of subs in the reply (non-breaking spaces read as spaces).
func says(subs ...string) replyCheck {
	return func(reply string) error {
		plain := strings.ReplaceAll(reply, "\u00a0", " ")
		for _, s := range subs {
			if !strings.Contains(plain, s) {
				return fmt.Errorf("lacks %q", s)
			}
		}
		return nil
	}
}

// saysNot wants none of subs in the reply.
func saysNot(subs ...string) replyCheck {
	return func(reply string) error {
		plain := strings.ReplaceAll(reply, "\u00a0", " ")
		for _, s := range subs {
			if strings.Contains(plain, s) {
				return fmt.Errorf("contains %q", s)
			}
		}
		return nil
	}
}

func allOf(cs ...replyCheck) replyCheck {
	return func(reply string) error {
		for _, c := range cs {
			if err := c(reply); err != nil {
				return err
			}
		}
		return nil
	}
}

// oneOf wants one of cs to pass.
func oneOf(cs ...replyCheck) replyCheck {
	return func(reply string) error {
		var errs []error
		for _, c := range cs {
			err := c(reply)
			if err == nil {
				return nil
			}
			errs = append(errs, err)
		}
		return fmt.Errorf("none of the expected replies: %w", errors.Join(errs...))
	}
}

// faultQuestion is one message sent to the bot and what its reply must be.
type faultQuestion struct {
	chat  int64
	from  int // messages the chat had before this question
	text  string
	phase string
	want  replyCheck
}

// faultRun is one bot under fault injection: it runs `finbot serve` in process, sends questions,
// keeps a steady stream of them going, and at the end checks every reply and that the bot left
// no goroutine behind.
type faultRun struct {
	t          *testing.T
	tg         *faultBotAPI
	logs       *syncBuffer
	stopBot    func()
	metrics    *metricsReader
	watch      *breakerWatch
	goroutines int
	started    time.Time

	mu        sync.Mutex
	phase     string
	questions []faultQuestion
	// phaseLogs is where each phase starts in logs, and where it ends (the next phase's start).
	phaseLogs map[string][2]int
}

// startFaultRun starts the bot with env on top of the settings every fault test shares.
func startFaultRun(t *testing.T, firstUser int64, env map[string]string) *faultRun {
	t.Helper()
	tg := newFaultBotAPI(t, firstUser)
	all := map[string]string{
		"TELEGRAM_TOKEN":        faultToken,
		"TELEGRAM_API_URL":      tg.URL(),
		"TELEGRAM_POLL_TIMEOUT": "1s",
		"METRICS_ADDR":          "127.0.0.1:0",
		"USER_RATE_PER_MIN":     "600",
		"USER_RATE_BURST":       "50",
		"ANSWER_TIMEOUT":        "30s",
		"SHUTDOWN_TIMEOUT":      "10s",
		"LOG_LEVEL":             "info",
	}
	for k, v := range env {
		all[k] = v
	}
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	r := &faultRun{t: t, tg: tg, logs: &syncBuffer{}, phase: "start", started: time.Now(), goroutines: settledGoroutines()}
	r.stopBot = startBot(t, all, r.logs)
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(r.logs.String(), `"ops server listening"`) {
		if time.Now().After(deadline) {
			t.Fatalf("the bot did not start:\n%s", r.logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.metrics = newMetricsReader(opsAddr(t, r.logs.String()))
	r.watch = watchBreakers(r.metrics)
	t.Cleanup(r.watch.close) // when the test ends early; finish closes it first
	t.Cleanup(func() {
		if t.Failed() {
			logs := r.logs.String()
			t.Logf("bot logs (last 6000 bytes):\n%s", logs[max(0, len(logs)-6000):])
		}
	})
	return r
}

// settledGoroutines is the goroutine count once it stops falling.
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

// setPhase names what the stand-ins are doing now, for the breaker watch and the messages.
func (r *faultRun) setPhase(p string) {
	r.mu.Lock()
	at := r.logs.Len()
	if r.phaseLogs == nil {
		r.phaseLogs = map[string][2]int{}
	}
	if prev, ok := r.phaseLogs[r.phase]; ok {
		r.phaseLogs[r.phase] = [2]int{prev[0], at}
	}
	r.phaseLogs[p] = [2]int{at, -1}
	r.phase = p
	r.mu.Unlock()
	r.watch.setPhase(p)
}

// phaseLog is what the bot logged during phase p.
func (r *faultRun) phaseLog(p string) string {
	r.mu.Lock()
	span, ok := r.phaseLogs[p]
	r.mu.Unlock()
	logs := r.logs.String()
	if !ok {
		return ""
	}
	if span[1] < 0 {
		span[1] = len(logs)
	}
	return logs[span[0]:span[1]]
}

// ask sends text from a new user; its reply is checked at the end.
func (r *faultRun) ask(text string, c replyCheck) faultQuestion {
	r.mu.Lock()
	defer r.mu.Unlock()
	q := faultQuestion{chat: r.tg.say(text), text: text, phase: r.phase, want: c}
	r.questions = append(r.questions, q)
	return q
}

// probe asks text from a new user and waits until the reply passes c. The reply is checked
// again at the end, when every message shows its final text.
func (r *faultRun) probe(text string, c replyCheck) int64 {
	r.t.Helper()
	q := r.ask(text, c)
	r.await(q)
	return q.chat
}

// eventually waits until the bot answers as it should, as once a fault is over: it asks next()
// from a new user until a reply passes want, and returns that user. A reply that passes
// meanwhile (a designed fallback: the breaker has not closed yet, a call timed out on a loaded
// machine) means ask again; any other reply fails the test.
func (r *faultRun) eventually(next func() string, want, meanwhile replyCheck) (user int64) {
	r.t.Helper()
	for range 50 {
		q := r.ask(next(), oneOf(want, meanwhile))
		r.await(q)
		if want(r.tg.shown(q.chat, q.from, -1)) == nil {
			return q.chat
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.t.Fatalf("[%s] the bot still answers as during the fault", r.phase)
	return 0
}

// probeAs is probe for a user who has asked before; the earlier question must be answered.
func (r *faultRun) probeAs(user int64, text string, c replyCheck) {
	r.t.Helper()
	r.mu.Lock()
	q := faultQuestion{chat: user, from: r.tg.sent(user), text: text, phase: r.phase, want: c}
	r.tg.sayAs(user, text)
	r.questions = append(r.questions, q)
	r.mu.Unlock()
	r.await(q)
}

func (r *faultRun) await(q faultQuestion) {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		reply := r.tg.shown(q.chat, q.from, -1)
		err := q.want(reply)
		if reply != "" && err == nil {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("[%s] %q: %v; the reply reads:\n%s", q.phase, q.text, err, reply)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stream keeps asking next(i) every interval until the returned function is called.
func (r *faultRun) stream(every time.Duration, next func(i int) (string, replyCheck)) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for i := 0; ; i++ {
			text, c := next(i)
			r.ask(text, c)
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() { close(quit) })
		<-done
	}
	r.t.Cleanup(stop) // when the test ends early
	return stop
}

// waitBreaker waits until /metrics shows breaker in state want (0 closed, 1 half-open, 2 open).
func (r *faultRun) waitBreaker(breaker string, want float64) {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		samples, err := r.metrics.read()
		if err == nil {
			r.watch.record(samples) // on a loaded machine the watch may miss a short state
		}
		got, ok := samples[breakerKey(breaker)]
		if err == nil && ok && got == want {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("[%s] breaker %q: /metrics shows %v (present %v, err %v), want %v", r.phase, breaker, got, ok, err, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// finish waits for a reply to every question, checks them all, stops the bot and checks that
// the goroutines it started are gone. It reports how many questions were asked.
func (r *faultRun) finish() int {
	t := r.t
	t.Helper()
	r.mu.Lock()
	qs := slices.Clone(r.questions)
	r.mu.Unlock()
	deadline := time.Now().Add(60 * time.Second)
	for {
		samples, err := r.metrics.read()
		missing := 0
		for _, q := range qs {
			if r.tg.shown(q.chat, q.from, -1) == "" {
				missing++
			}
		}
		if err == nil && answersHandled(samples) >= len(qs) && missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d messages still without a reply (handled %d, err %v)", missing, len(qs), answersHandled(samples), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	byPhase := map[string]int{}
	samples := map[string]bool{}
	for i, q := range qs {
		byPhase[q.phase]++
		to := -1 // the reply ends where the chat's next question's begins
		for _, next := range qs[i+1:] {
			if next.chat == q.chat {
				to = next.from
				break
			}
		}
		reply := r.tg.shown(q.chat, q.from, to)
		// FAULTS_SHOW_REPLIES=1 shows one reply of each kind per phase: what the users read.
		if kind := q.phase + "\x00" + strings.Fields(q.text)[0]; os.Getenv("FAULTS_SHOW_REPLIES") != "" && !samples[kind] {
			samples[kind] = true
			t.Logf("[%s] %q →\n%s", q.phase, q.text, reply)
		}
		if err := q.want(reply); err != nil {
			t.Errorf("[%s] %q: %v; the reply reads:\n%s", q.phase, q.text, err, reply)
		}
	}
	if strings.Contains(r.logs.String(), "handler panic") {
		t.Error("a handler panicked")
	}
	if strings.Contains(r.logs.String(), faultToken) {
		t.Error("the bot token reached the logs")
	}
	r.watch.close()
	r.metrics.close()
	r.stopBot()
	checkGoroutines(t, r.goroutines)
	t.Logf("%d messages, every one answered, in %s; by phase: %v", len(qs), time.Since(r.started).Round(time.Millisecond), byPhase)
	return len(qs)
}

// checkGoroutines waits for the goroutine count to come back to before. Idle keep-alive
// connections of the shared default transport are closed first: they are a pool, not a leak.
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		n := runtime.NumGoroutine()
		if n <= before {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 2<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("goroutine leak: %d before the bot started, %d after it stopped:\n%s", before, n, buf)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
