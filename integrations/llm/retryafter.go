package llm

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultMaxRetryAfter bounds the pause a Retry-After can impose when Options.MaxRetryAfter is 0.
const DefaultMaxRetryAfter = 60 * time.Second

// RetryAfterError is what a call returns, at once and without reaching the service, while the
// Retry-After of an earlier 429 has not passed. It matches ErrRateLimited and ErrUnavailable:
// callers that degrade when the LLM is unavailable do so at once instead of waiting. It names
// only the time; nothing of the request or the credentials.
type RetryAfterError struct {
	// Until is when the service may be called again.
	Until time.Time
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("llm: rate limited: not calling the service before %s (Retry-After)", e.Until.UTC().Format(time.RFC3339))
}

// Is makes the error match ErrRateLimited and ErrUnavailable.
func (e *RetryAfterError) Is(target error) bool {
	return target == ErrRateLimited || target == ErrUnavailable
}

// pause remembers the Retry-After of the service's last 429: until when no request may go out.
// The transport sets it on every 429 response; Complete, Stream and Embed read it before they
// call. A later 429 can only push the time further.
type pause struct {
	max time.Duration // < 0: Retry-After is ignored
	now func() time.Time

	mu    sync.Mutex
	until time.Time
}

func newPause(max time.Duration) *pause {
	if max == 0 {
		max = DefaultMaxRetryAfter
	}
	return &pause{max: max, now: time.Now}
}

// err returns a *RetryAfterError while the service asked not to be called, else nil.
func (p *pause) err() error {
	if until := p.untilTime(); !until.IsZero() {
		return &RetryAfterError{Until: until}
	}
	return nil
}

// untilTime is when the service may be called again; zero when it may be now.
func (p *pause) untilTime() time.Time {
	if p == nil {
		return time.Time{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.now().Before(p.until) {
		return p.until
	}
	return time.Time{}
}

// observe records the Retry-After of a 429 response. Without one (or with one that cannot be
// read, or lies in the past) nothing changes: the caller sees the 429 as before. A pause
// longer than the cap is cut to the cap.
func (p *pause) observe(resp *http.Response) {
	if p == nil || p.max < 0 || resp.StatusCode != http.StatusTooManyRequests {
		return
	}
	now := p.now()
	d, ok := retryAfter(resp.Header.Get("Retry-After"), now, p.max)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if until := now.Add(d); until.After(p.until) {
		p.until = until
	}
}

// retryAfter reads a Retry-After header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
// The delay is capped at max; zero, negative, past and unreadable values give false.
func retryAfter(v string, now time.Time, max time.Duration) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s > int64(max/time.Second) {
			return max, s > 0
		}
		d = time.Duration(s) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	} else {
		return 0, false
	}
	if d <= 0 {
		return 0, false
	}
	return min(d, max), true
}
