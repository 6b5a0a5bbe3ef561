package llm

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a settable clock for the pause.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// limiter is an OpenRouter stand-in that answers 429 with the given Retry-After (none when
// "") to the first request and serves every later one (a completion, a stream or embeddings).
// It counts the requests that reach it.
func limiter(t *testing.T, retryAfter func() string, errorIn200 bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if calls.Add(1) == 1 {
			if v := retryAfter(); v != "" {
				w.Header().Set("Retry-After", v)
			}
			w.Header().Set("Content-Type", "application/json")
			if !errorIn200 {
				w.WriteHeader(http.StatusTooManyRequests)
			}
			io.WriteString(w, `{"error":{"code":429,"message":"Rate limit exceeded: free-models-per-min"}}`)
			return
		}
		switch {
		case strings.HasSuffix(r.URL.Path, "/embeddings"):
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,0.2]}],"model":"m"}`)
		case strings.Contains(string(body), `"stream":true`):
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, `data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Готово"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"gen-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Готово"},"finish_reason":"stop"}]}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func pausedClient(url string, clock *fakeClock, max time.Duration) *Client {
	c := New(Options{BaseURL: url, APIKey: "sk-or-v1-secret", Model: "m", Timeout: 2 * time.Second, MaxRetryAfter: max})
	c.pause.now = clock.Now
	return c
}

// After a 429 with Retry-After the client does not call the service until that time has
// passed — neither Complete nor Stream — and fails at once with a *RetryAfterError that reads
// as rate limited and as unavailable; then it calls again. The calls it did not make do not
// count against the breaker.
func TestRetryAfterPausesCalls(t *testing.T) {
	start := time.Date(2026, 3, 16, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		retryAfter func(now time.Time) string
		max        time.Duration
		errorIn200 bool
		wait       time.Duration // the pause the client must keep
	}{
		{"seconds", func(time.Time) string { return "7" }, 0, false, 7 * time.Second},
		{"HTTP-date", func(now time.Time) string { return now.Add(12 * time.Second).Format(http.TimeFormat) }, 0, false, 12 * time.Second},
		{"capped at 60s by default", func(time.Time) string { return "3600" }, 0, false, DefaultMaxRetryAfter},
		{"capped at MaxRetryAfter", func(time.Time) string { return "3600" }, 5 * time.Second, false, 5 * time.Second},
		{"huge value capped", func(time.Time) string { return "99999999999999999" }, 0, false, DefaultMaxRetryAfter},
		{"error object with code 429 inside a 200", func(time.Time) string { return "4" }, 0, true, 4 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{now: start}
			srv, calls := limiter(t, func() string { return tt.retryAfter(clock.Now()) }, tt.errorIn200)
			c := pausedClient(srv.URL, clock, tt.max)
			msgs := []Message{{Role: "user", Content: "Привет"}}
			if _, err := c.Complete(t.Context(), msgs, Call{}); !errors.Is(err, ErrRateLimited) {
				t.Fatalf("first call: error %v, want ErrRateLimited", err)
			}
			if got, want := c.RetryAfter(), start.Add(tt.wait); !got.Equal(want) {
				t.Errorf("RetryAfter() = %v, want %v", got, want)
			}
			for _, at := range []time.Duration{0, tt.wait / 2, tt.wait - time.Millisecond} {
				clock.set(start.Add(at))
				_, err := c.Complete(t.Context(), msgs, Call{})
				_, serr := c.Stream(t.Context(), msgs, Call{}, nil)
				for _, err := range []error{err, serr} {
					var ra *RetryAfterError
					if !errors.As(err, &ra) || !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrRateLimited) {
						t.Fatalf("%v after the 429: error %v, want a *RetryAfterError matching ErrUnavailable and ErrRateLimited", at, err)
					}
					if !ra.Until.Equal(start.Add(tt.wait)) || strings.Contains(err.Error(), "sk-or-v1-secret") {
						t.Errorf("error %q: until %v, want %v, and no key", err, ra.Until, start.Add(tt.wait))
					}
				}
				if n := calls.Load(); n != 1 {
					t.Fatalf("%v after the 429: the service got %d requests, want 1", at, n)
				}
			}
			if s := c.State(); s != "closed" {
				t.Errorf("breaker %s after calls that were not made, want closed", s)
			}
			clock.set(start.Add(tt.wait))
			if got, err := c.Complete(t.Context(), msgs, Call{}); err != nil || got != "Готово" {
				t.Fatalf("once Retry-After has passed: %q, %v", got, err)
			}
			if got, err := c.Stream(t.Context(), msgs, Call{}, nil); err != nil || got != "Готово" {
				t.Fatalf("stream once Retry-After has passed: %q, %v", got, err)
			}
			if n := calls.Load(); n != 3 {
				t.Errorf("the service got %d requests, want 3", n)
			}
			if !c.RetryAfter().IsZero() {
				t.Errorf("RetryAfter() = %v after the pause, want zero", c.RetryAfter())
			}
		})
	}
}

// Without a usable Retry-After (none, unreadable, zero, in the past, or ignored by
// configuration) a 429 changes nothing: the next call goes to the service at once.
func TestRetryAfterAbsent(t *testing.T) {
	start := time.Date(2026, 3, 16, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, value string
		max         time.Duration
	}{
		{"none", "", 0},
		{"unreadable", "soon", 0},
		{"zero", "0", 0},
		{"negative", "-5", 0},
		{"date in the past", start.Add(-time.Minute).Format(http.TimeFormat), 0},
		{"ignored by MaxRetryAfter < 0", "30", -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{now: start}
			srv, calls := limiter(t, func() string { return tt.value }, false)
			c := pausedClient(srv.URL, clock, tt.max)
			msgs := []Message{{Role: "user", Content: "Привет"}}
			if _, err := c.Complete(t.Context(), msgs, Call{}); !errors.Is(err, ErrRateLimited) {
				t.Fatalf("first call: error %v, want ErrRateLimited", err)
			}
			if got, err := c.Complete(t.Context(), msgs, Call{}); err != nil || got != "Готово" {
				t.Fatalf("second call: %q, %v; want it sent at once", got, err)
			}
			if n := calls.Load(); n != 2 {
				t.Errorf("the service got %d requests, want 2", n)
			}
		})
	}
}

// The embedder honours Retry-After the same way.
func TestEmbedderRetryAfter(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 3, 16, 12, 0, 0, 0, time.UTC)}
	srv, calls := limiter(t, func() string { return "3" }, false)
	e := NewEmbedder(Options{BaseURL: srv.URL, APIKey: "k", Model: "m", Timeout: 2 * time.Second})
	e.pause.now = clock.Now
	if _, err := e.Embed(t.Context(), []string{"текст"}); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("first call: error %v, want ErrRateLimited", err)
	}
	var ra *RetryAfterError
	if _, err := e.Embed(t.Context(), []string{"текст"}); !errors.As(err, &ra) || calls.Load() != 1 {
		t.Fatalf("during Retry-After: error %v, %d requests; want a *RetryAfterError and 1 request", err, calls.Load())
	}
	clock.advance(3 * time.Second)
	if v, err := e.Embed(t.Context(), []string{"текст"}); err != nil || len(v) != 1 || calls.Load() != 2 {
		t.Fatalf("after Retry-After: %v, %v, %d requests", v, err, calls.Load())
	}
}

func TestRetryAfterParse(t *testing.T) {
	now := time.Date(2026, 3, 16, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1", time.Second, true},
		{" 30 ", 30 * time.Second, true},
		{"60", time.Minute, true},
		{"61", time.Minute, true},
		{"9223372036854775807", time.Minute, true},
		{"0", 0, false},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"", 0, false},
		{"Mon, 16 Mar 2026 12:00:20 GMT", 20 * time.Second, true},
		{"Monday, 16-Mar-26 12:00:20 GMT", 20 * time.Second, true}, // RFC 850, still allowed
		{"Mon, 16 Mar 2026 13:00:00 GMT", time.Minute, true},
		{"Mon, 16 Mar 2026 11:59:00 GMT", 0, false},
	}
	for _, tt := range tests {
		got, ok := retryAfter(tt.in, now, time.Minute)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
