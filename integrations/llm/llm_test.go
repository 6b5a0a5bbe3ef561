package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// standIn serves a recorded OpenRouter response with the given status and checks the request
// the way the real service would.
func standIn(t *testing.T, status int, fixture string, calls *atomic.Int32) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.Method != http.MethodPost || r.URL.Path != "/api/v1/chat/completions" {
			t.Errorf("request %s %s, want POST /api/v1/chat/completions", r.Method, r.URL.Path)
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sk-or-v1-test" {
			t.Errorf("Authorization = %q", got)
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "openai/gpt-4o-mini" || len(req.Messages) == 0 {
			t.Errorf("request body: model %q, %d messages, err %v", req.Model, len(req.Messages), err)
		}
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "3")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newClient(url string) *Client {
	return New(Options{BaseURL: url + "/api/v1", APIKey: "sk-or-v1-test", Model: "openai/gpt-4o-mini", Timeout: 2 * time.Second})
}

func TestComplete(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		fixture string
		want    string
		wantErr error
	}{
		{"ok", 200, "ok.json", "Здравствуйте! Чем помочь?", nil},
		{"error object inside HTTP 200", 200, "error_in_200.json", "", ErrUnavailable},
		{"429", 429, "rate_limited.json", "", ErrRateLimited},
		{"401", 401, "unauthorized.json", "", ErrUnavailable},
		{"502", 502, "error_in_200.json", "", ErrUnavailable},
		{"no choices", 200, "no_choices.json", "", ErrBadResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			c := newClient(standIn(t, tt.status, tt.fixture, &calls).URL)
			got, err := c.Complete(t.Context(), []Message{{Role: "user", Content: "Привет"}}, Call{})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("Complete() error = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Complete() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestInvalidJSONIsBadResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"choices":[{"message":{"content":"обрыв`))
	}))
	t.Cleanup(srv.Close)
	_, err := newClient(srv.URL).Complete(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{})
	if err == nil {
		t.Fatal("Complete() on a truncated body succeeded")
	}
}

func TestSlowServiceHitsDeadline(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	c := New(Options{BaseURL: srv.URL, APIKey: "k", Model: "m", Timeout: 100 * time.Millisecond})
	_, err := c.Complete(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{})
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Complete() error = %v, want ErrUnavailable wrapping DeadlineExceeded", err)
	}
}

func TestBreakerOpensAndStopsCalls(t *testing.T) {
	var calls atomic.Int32
	c := New(Options{BaseURL: standIn(t, 503, "error_in_200.json", &calls).URL + "/api/v1", APIKey: "sk-or-v1-test",
		Model: "openai/gpt-4o-mini", Timeout: time.Second, BreakerTimeout: time.Hour})
	for range 5 {
		c.Complete(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{})
	}
	if got := calls.Load(); got != 3 {
		t.Errorf("upstream calls = %d, want 3 (the breaker opens after 3 consecutive failures)", got)
	}
	if c.State() != "open" {
		t.Errorf("breaker state = %s, want open", c.State())
	}
	_, err := c.Complete(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{})
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("error with open breaker = %v, want ErrUnavailable", err)
	}
}

// A caller that gives up must not count against the service.
func TestCanceledCallsDoNotTripBreaker(t *testing.T) {
	var calls atomic.Int32
	c := newClient(standIn(t, 200, "ok.json", &calls).URL)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for range 5 {
		c.Complete(ctx, []Message{{Role: "user", Content: "x"}}, Call{})
	}
	if c.State() != "closed" {
		t.Errorf("breaker state after cancelled calls = %s, want closed", c.State())
	}
}

// How many calls each kind of failure lets through before the breaker opens (issue #19): a
// misconfiguration (wrong key, no access, wrong URL or model, no credit) opens it at the first
// refusal; a 400 on every call after three, like a 5xx or an unusable 200.
func TestBreakerByKindOfFailure(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		fixture string
		calls   int32
		state   string
	}{
		{"401 wrong key", 401, "unauthorized.json", 1, "open"},
		{"403 no access", 403, "unauthorized.json", 1, "open"},
		{"404 wrong model or URL", 404, "unauthorized.json", 1, "open"},
		{"402 no credit", 402, "unauthorized.json", 1, "open"},
		{"400 on every call", 400, "unauthorized.json", 3, "open"},
		{"500", 500, "unauthorized.json", 3, "open"},
		{"200 without choices", 200, "no_choices.json", 3, "open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			c := New(Options{BaseURL: standIn(t, tt.status, tt.fixture, &calls).URL + "/api/v1", APIKey: "sk-or-v1-test",
				Model: "openai/gpt-4o-mini", Timeout: time.Second, BreakerTimeout: time.Hour})
			for range 6 {
				_, err := c.Complete(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{})
				if err == nil {
					t.Fatal("a refused call succeeded")
				}
				if tt.status != 200 && !errors.Is(err, ErrUnavailable) {
					t.Errorf("error = %v, want ErrUnavailable (a refusal is never repaired like a bad reply)", err)
				}
			}
			if got := calls.Load(); got != tt.calls || c.State() != tt.state {
				t.Errorf("upstream calls = %d, breaker %s; want %d, %s", got, c.State(), tt.calls, tt.state)
			}
		})
	}
}

// One budget for every call of an answer (issue #19): a call that would start after it fails
// at once without reaching the service; one running when it passes is cut; neither counts
// against the breaker.
func TestBudget(t *testing.T) {
	var calls atomic.Int32
	stop := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.Copy(io.Discard, r.Body) // so that the server notices the caller hang up
		select {                    // never answers: only the caller's deadline ends the call
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(stop) }) // runs first
	c := New(Options{BaseURL: slow.URL + "/api/v1", APIKey: "k", Model: "m", Timeout: time.Hour, BreakerTimeout: time.Hour})
	msgs := []Message{{Role: "user", Content: "x"}}

	spent := WithBudget(t.Context(), time.Now().Add(-time.Second))
	if _, err := c.Complete(spent, msgs, Call{}); !errors.Is(err, ErrBudgetSpent) || !errors.Is(err, ErrUnavailable) {
		t.Errorf("Complete with a spent budget = %v, want ErrUnavailable and ErrBudgetSpent", err)
	}
	if _, err := c.Stream(spent, msgs, Call{}, nil); !errors.Is(err, ErrBudgetSpent) {
		t.Errorf("Stream with a spent budget = %v, want ErrBudgetSpent", err)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d calls reached the service with the budget spent", n)
	}

	for range 4 {
		ctx := WithBudget(t.Context(), time.Now().Add(50*time.Millisecond))
		if _, err := c.Complete(ctx, msgs, Call{}); !errors.Is(err, ErrBudgetSpent) || !errors.Is(err, ErrUnavailable) {
			t.Errorf("Complete cut by the budget = %v, want ErrUnavailable and ErrBudgetSpent", err)
		}
	}
	if calls.Load() != 4 || c.State() != "closed" {
		t.Errorf("after 4 calls cut by the budget: %d calls, breaker %s; want 4, closed", calls.Load(), c.State())
	}

	// An enclosing, earlier budget is not extended by a later one.
	early := time.Now().Add(-time.Second)
	if got, _ := budgetOf(WithBudget(WithBudget(t.Context(), early), time.Now().Add(time.Hour))); !got.Equal(early) {
		t.Errorf("nested budget = %v, want the earlier %v", got, early)
	}
}
