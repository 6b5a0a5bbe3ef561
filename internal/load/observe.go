package load

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/internal/app"
)

// The driver builds finbot with app.New, as `finbot serve` does; what it adds is for
// measurement only, through app.Options: the LLM's, the Bank of Russia's and Tavily's requests
// go through timed, which times each call for the message it serves; the Bot API's through
// stamped, which stamps the moment each request was handed to the HTTP client
// (handoffHeader); and the agent is wrapped in observed, to see which message each Answer
// or Upload call is for.

// measured returns the app.Options.Transport of a run: timed for the stand-ins, stamped for
// the Bot API, the pool unchanged for the rest.
func measured(rec *recorder) func(client string, pool http.RoundTripper) http.RoundTripper {
	return func(client string, pool http.RoundTripper) http.RoundTripper {
		switch client {
		case app.ClientTelegram:
			return stamped{base: pool}
		case app.ClientLLM, app.ClientCBR, app.ClientTavily:
			return timed{base: pool, kind: client, rec: rec}
		}
		return pool
	}
}

// observed is the agent as the bot sees it, telling the recorder which message each Answer
// or Upload call is for and carrying that message in the context for the timed transports.
type observed struct {
	app.Answerer
	rec *recorder
}

type messageKey struct{}

func (o observed) Answer(ctx context.Context, req api.Request) (api.Answer, error) {
	var m *message
	if req.OnlyDoc != "" {
		// The caption of an upload, asked about the document just stored: the same message.
		m = o.rec.continued(req.ChatID, req.UserID, req.Text)
	} else {
		m = o.rec.answerStarted(req.ChatID, req.UserID, req.Command, req.Text)
	}
	ans, err := o.Answerer.Answer(context.WithValue(ctx, messageKey{}, m), req)
	o.rec.answerEnded(m, string(ans.Scenario), string(ans.Kind), ans.Debug.LLMCalls, err)
	return ans, err
}

func (o observed) Upload(ctx context.Context, req api.Request, f api.File) (api.Answer, error) {
	m := o.rec.uploadStarted(req.ChatID, req.UserID, f.Name)
	ans, err := o.Answerer.Upload(context.WithValue(ctx, messageKey{}, m), req, f)
	o.rec.answerEnded(m, string(ans.Scenario), string(ans.Kind), ans.Debug.LLMCalls, err)
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
