package tavily_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/finbot/finbot/integrations/tavily"
)

// noJitter makes every backoff wait its full ceiling, so a test knows how long it would be.
func noJitter(ceiling time.Duration) time.Duration { return ceiling }

func TestSearchRetryAfter(t *testing.T) {
	ok := reply{fixture: "search_ok.json"}
	tests := []struct {
		name        string
		retryAfter  string
		baseBackoff time.Duration
	}{
		// The computed wait would be 5s (1h capped); Retry-After: 0 must replace it.
		{"short Retry-After replaces the backoff", "0", time.Hour},
		// Retry-After above 10s is ignored in favour of the 1ms backoff.
		{"long Retry-After is ignored", "3600", time.Millisecond},
		{"unparsable Retry-After is ignored", "soon", time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStandIn(t, reply{status: 429, fixture: "error_429.json", retryAfter: tt.retryAfter}, ok)
			c := newClient(s, tavily.Options{BaseBackoff: tt.baseBackoff})
			tavily.SetJitter(c, noJitter)
			// Waiting the wrong one of the two would take ≥5s and miss this deadline.
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
			defer cancel()
			if _, err := c.Search(ctx, tavily.Query{Text: "ключевая ставка"}); err != nil {
				t.Fatalf("Search error: %v", err)
			}
			if s.Calls() != 2 {
				t.Errorf("upstream calls = %d, want 2", s.Calls())
			}
		})
	}
}

func TestSearchSlowServerTimesOut(t *testing.T) {
	s := newStandIn(t, reply{hang: true})
	c := newClient(s, tavily.Options{Timeout: 100 * time.Millisecond, MaxAttempts: 3})
	_, err := c.Search(t.Context(), tavily.Query{Text: "ключевая ставка"})
	if !errors.Is(err, tavily.ErrUnavailable) {
		t.Fatalf("Search error = %v, want ErrUnavailable", err)
	}
	if s.Calls() != 3 {
		t.Errorf("upstream calls = %d, want 3", s.Calls())
	}
}

func TestSearchCancelledDuringBackoff(t *testing.T) {
	s := newStandIn(t, reply{status: 500, fixture: "error_500.json"})
	// Every backoff would last 5s (1h capped, no jitter); cancelling must cut it short.
	c := newClient(s, tavily.Options{BaseBackoff: time.Hour, MaxAttempts: 3})
	tavily.SetJitter(c, noJitter)
	for i := range 6 { // more than the breaker's threshold: cancellations must not trip it
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			_, err := c.Search(ctx, tavily.Query{Text: "ключевая ставка"})
			done <- err
		}()
		<-s.answered // the 500 is out; the client is reading it or already backing off
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("search %d: error = %v, want context.Canceled", i+1, err)
			}
		case <-time.After(4 * time.Second): // under the 5s backoff, with room for a loaded machine
			t.Fatalf("search %d: Search still running 4s after cancel", i+1)
		}
	}
	if s.Calls() != 6 {
		t.Errorf("upstream calls = %d, want 6 (one per search)", s.Calls())
	}
	if got := c.State(); got != "closed" {
		t.Errorf("breaker State() = %q, want closed", got)
	}
}

func TestBreakerOpensAfterFiveFailedSearches(t *testing.T) {
	s := newStandIn(t, reply{status: 500, fixture: "error_500.json"})
	c := newClient(s, tavily.Options{MaxAttempts: 2})
	for i := range 5 {
		if _, err := c.Search(t.Context(), tavily.Query{Text: "ключевая ставка"}); !errors.Is(err, tavily.ErrUnavailable) {
			t.Fatalf("search %d: error = %v, want ErrUnavailable", i+1, err)
		}
	}
	if s.Calls() != 10 { // the breaker counts searches, not attempts
		t.Errorf("upstream calls = %d, want 10", s.Calls())
	}
	if got := c.State(); got != "open" {
		t.Errorf("breaker State() = %q, want open", got)
	}
	_, err := c.Search(t.Context(), tavily.Query{Text: "ключевая ставка"})
	if !errors.Is(err, tavily.ErrUnavailable) || !errors.Is(err, gobreaker.ErrOpenState) {
		t.Errorf("search with open breaker: error = %v, want ErrUnavailable wrapping ErrOpenState", err)
	}
	if s.Calls() != 10 {
		t.Errorf("upstream calls after the breaker opened = %d, want still 10", s.Calls())
	}
}

func TestBreakerIgnoresOurOwnMistakes(t *testing.T) {
	tests := []struct {
		name    string
		reply   reply
		wantErr error
	}{
		{"401", reply{status: 401, fixture: "error_401.json"}, tavily.ErrUnauthorized},
		{"400", reply{status: 400, fixture: "error_400.json"}, tavily.ErrBadRequest},
		{"432", reply{status: 432, fixture: "error_432.json"}, tavily.ErrQuota},
		{"433", reply{status: 433, fixture: "error_433.json"}, tavily.ErrQuota},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStandIn(t, tt.reply)
			c := newClient(s, tavily.Options{})
			for i := range 10 {
				if _, err := c.Search(t.Context(), tavily.Query{Text: "ключевая ставка"}); !errors.Is(err, tt.wantErr) {
					t.Fatalf("search %d: error = %v, want %v", i+1, err, tt.wantErr)
				}
			}
			if s.Calls() != 10 {
				t.Errorf("upstream calls = %d, want 10", s.Calls())
			}
			if got := c.State(); got != "closed" {
				t.Errorf("breaker State() = %q, want closed", got)
			}
		})
	}
}
