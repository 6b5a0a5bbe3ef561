// Package tavily searches the web, finance news first, through Tavily's POST /search.
//
// A Client is built once and shared. Each Search goes through, in order: a per-(query, user)
// cache, singleflight (concurrent identical searches make one call), a circuit breaker, and
// retries with jittered exponential backoff around a single HTTP attempt with its own deadline.
// Failures come back as a small vocabulary of sentinel errors (ErrUnavailable, ErrQuota …)
// that callers match with errors.Is; Tavily's own message stays reachable through *APIError.
// The API key is sent only in the Authorization header and never appears in an error.
package tavily

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/sony/gobreaker/v2"
	"golang.org/x/sync/singleflight"
)

const (
	defaultBaseURL        = "https://api.tavily.com"
	defaultTimeout        = 10 * time.Second
	defaultMaxAttempts    = 3
	defaultBaseBackoff    = 500 * time.Millisecond
	defaultCacheTTL       = 5 * time.Minute
	defaultBreakerTimeout = 60 * time.Second

	maxBackoff    = 5 * time.Second  // cap of the computed backoff
	maxRetryAfter = 10 * time.Second // a longer Retry-After is ignored in favour of the backoff
	cacheSize     = 1024             // entries; a cached Response is a few KB
	tripAfter     = 5                // consecutive failed searches that open the breaker
)

// Options configure a Client. Zero values mean the defaults.
type Options struct {
	// BaseURL of the API, default "https://api.tavily.com".
	BaseURL string
	// APIKey is sent as "Authorization: Bearer". Empty means every Search returns
	// ErrNotConfigured without any network call.
	APIKey string
	// Timeout bounds one HTTP attempt, default 10s.
	Timeout time.Duration
	// MaxAttempts is the number of tries for 5xx, 429, network errors and timeouts, default 3.
	MaxAttempts int
	// BaseBackoff is the first retry's backoff ceiling, default 500ms. The ceiling doubles with
	// each retry up to 5s, and the actual wait is drawn uniformly below it (full jitter).
	BaseBackoff time.Duration
	// CacheTTL is how long a successful answer is reused, default 5m.
	CacheTTL time.Duration
	// BreakerTimeout is how long the open breaker waits before probing again, default 60s.
	BreakerTimeout time.Duration
	// HTTPClient is optional; it is copied, and given a backstop Timeout if it has none.
	HTTPClient *http.Client
}

// Client searches Tavily. It is safe for concurrent use; build one and share it, since it owns
// the cache and the breaker.
type Client struct {
	endpoint    string
	key         string
	http        *http.Client
	timeout     time.Duration
	maxAttempts int
	baseBackoff time.Duration
	ttl         time.Duration

	cache   *lru.Cache[string, cacheEntry]
	flights singleflight.Group
	cb      *gobreaker.CircuitBreaker[Response]

	// now and jitter are replaced by tests only (export_test.go).
	now    func() time.Time
	jitter func(ceiling time.Duration) time.Duration
}

// cacheEntry remembers when it expires by c.now, so tests can move time without sleeping. The
// cache is a plain size-bounded LRU that drops an expired entry when it is read: golang-lru's
// expirable.LRU (v2.0.7) starts a cleanup goroutine per cache that never exits.
type cacheEntry struct {
	resp    Response
	expires time.Time
}

// New builds a client; it makes no network call.
func New(o Options) *Client {
	if o.BaseURL == "" {
		o.BaseURL = defaultBaseURL
	}
	if o.Timeout <= 0 {
		o.Timeout = defaultTimeout
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = defaultMaxAttempts
	}
	if o.BaseBackoff <= 0 {
		o.BaseBackoff = defaultBaseBackoff
	}
	if o.CacheTTL <= 0 {
		o.CacheTTL = defaultCacheTTL
	}
	if o.BreakerTimeout <= 0 {
		o.BreakerTimeout = defaultBreakerTimeout
	}
	hc := &http.Client{}
	if o.HTTPClient != nil {
		*hc = *o.HTTPClient
	}
	if hc.Timeout <= 0 {
		hc.Timeout = o.Timeout + 5*time.Second // backstop; the per-attempt ctx deadline is the real one
	}
	c := &Client{
		endpoint:    strings.TrimRight(o.BaseURL, "/") + "/search",
		key:         strings.TrimSpace(o.APIKey),
		http:        hc,
		timeout:     o.Timeout,
		maxAttempts: o.MaxAttempts,
		baseBackoff: o.BaseBackoff,
		ttl:         o.CacheTTL,
		cache:       mustLRU(cacheSize),
		now:         time.Now,
		jitter:      fullJitter,
	}
	c.cb = gobreaker.NewCircuitBreaker[Response](gobreaker.Settings{
		Name:    "tavily",
		Timeout: o.BreakerTimeout,
		ReadyToTrip: func(n gobreaker.Counts) bool {
			return n.ConsecutiveFailures >= tripAfter
		},
		// A caller that gave up is no evidence about Tavily.
		IsExcluded: func(err error) bool { return errors.Is(err, context.Canceled) },
		// A bad query, a bad key or a spent quota are our problems, not Tavily being down;
		// they are still returned to the caller.
		IsSuccessful: func(err error) bool {
			return err == nil || errors.Is(err, ErrBadRequest) || errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrQuota)
		},
	})
	return c
}

// Configured reports whether the client has an API key.
func (c *Client) Configured() bool { return c.key != "" }

// State reports the breaker state: "closed", "half-open" or "open".
func (c *Client) State() string { return c.cb.State().String() }

// Search runs q, from the cache when an identical search by the same user succeeded within the
// cache TTL. Errors match the package's sentinels; when ctx ends first, the error matches
// ctx.Err() instead.
func (c *Client) Search(ctx context.Context, q Query) (Response, error) {
	if !c.Configured() {
		return Response{}, ErrNotConfigured
	}
	req, key, err := buildRequest(q)
	if err != nil {
		return Response{}, err
	}
	for {
		if resp, ok := c.cached(key); ok {
			return resp, nil
		}
		// The flight runs with the ctx of whoever started it. Everyone waits on their own ctx.
		ch := c.flights.DoChan(key, func() (any, error) {
			// A caller that missed the cache while another flight was landing starts its own:
			// the answer that flight stored is the one it wants.
			if resp, ok := c.cached(key); ok {
				return resp, nil
			}
			return c.fetch(ctx, key, req)
		})
		select {
		case <-ctx.Done():
			return Response{}, fmt.Errorf("tavily: search: %w", ctx.Err())
		case res := <-ch:
			if res.Err == nil {
				resp := res.Val.(Response)
				resp.Results = slices.Clone(resp.Results) // the cache keeps its own copy
				return resp, nil
			}
			if ctx.Err() == nil && callerGaveUp(res.Err) {
				continue // the caller who started the flight left; we did not, so try again
			}
			return Response{}, res.Err
		}
	}
}

// cached returns a fresh cache entry for key; an expired one is removed.
func (c *Client) cached(key string) (Response, bool) {
	e, ok := c.cache.Get(key)
	if !ok {
		return Response{}, false
	}
	if !c.now().Before(e.expires) {
		c.cache.Remove(key)
		return Response{}, false
	}
	resp := e.resp
	resp.Results = slices.Clone(resp.Results)
	resp.Cached = true
	return resp, true
}

// fetch asks Tavily through the breaker and caches a success.
func (c *Client) fetch(ctx context.Context, key string, req searchRequest) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, fmt.Errorf("tavily: search: %w", err) // not a verdict on Tavily
	}
	resp, err := c.cb.Execute(func() (Response, error) { return c.searchWithRetries(ctx, req) })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return Response{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if err != nil {
		return Response{}, err
	}
	c.cache.Add(key, cacheEntry{resp: resp, expires: c.now().Add(c.ttl)})
	return resp, nil
}

func mustLRU(size int) *lru.Cache[string, cacheEntry] {
	c, err := lru.New[string, cacheEntry](size)
	if err != nil {
		panic(err) // only for a non-positive size
	}
	return c
}

// callerGaveUp tells the caller's own context ending from a Tavily timeout (ErrUnavailable).
func callerGaveUp(err error) bool {
	return !errors.Is(err, ErrUnavailable) &&
		(errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

// fullJitter draws a wait uniformly from [0, ceiling].
func fullJitter(ceiling time.Duration) time.Duration {
	if ceiling <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(ceiling) + 1))
}
