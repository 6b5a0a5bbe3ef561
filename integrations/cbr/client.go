// Package cbr fetches official Bank of Russia data from its DailyInfo SOAP web service:
// daily exchange rates, a currency's rate history, the key rate and site news.
//
// Values are exact (decimal.Decimal) and dates are midnight in Moscow. A Client caches
// answers (rates of past dates for a week, the rest for minutes), merges concurrent
// identical requests into one upstream call, stops calling a failing service for a while
// (circuit breaker), and when the service fails serves the last known value marked
// Meta.Stale instead of an error.
package cbr

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sony/gobreaker/v2"
	"golang.org/x/sync/singleflight"
)

// Options configure a Client. Zero values take the defaults given.
type Options struct {
	// BaseURL of the service, default "https://www.cbr.ru/DailyInfoWebServ/DailyInfo.asmx".
	BaseURL string
	// Timeout of one HTTP call, default 10s.
	Timeout time.Duration
	// UserAgent sent with every request, default "finbot/1.0 (+https://github.com/finbot/finbot)".
	// The site rejects clients without one at times.
	UserAgent string
	// HTTPClient is optional; its Transport is used, but redirects are never followed (a
	// redirect leads to a captcha or DDoS protection page and is an error).
	HTTPClient *http.Client
	// FreshTTL is how long values that may still change are cached, default 15m: rates of
	// today or a future date, the key rate and history ranges reaching today, news.
	FreshTTL time.Duration
	// PastTTL is how long values that cannot change are cached, default 7 days: rates of
	// past dates, history ranges ending before today, the currency directory.
	PastTTL time.Duration
	// BreakerTimeout is how long the circuit breaker stays open before probing, default 60s.
	BreakerTimeout time.Duration
	// Now is the clock, default time.Now. It decides "today" and cache freshness.
	Now func() time.Time
}

// Client talks to the DailyInfo service. It is safe for concurrent use; build one per
// process with New and share it.
type Client struct {
	baseURL   string
	userAgent string
	timeout   time.Duration
	now       func() time.Time
	http      *http.Client
	cb        *gobreaker.CircuitBreaker[[]byte]
	store     *store
	flight    singleflight.Group
}

// New builds a client with its caches and circuit breaker; it makes no network call.
func New(o Options) *Client {
	o.BaseURL = cmp.Or(o.BaseURL, "https://www.cbr.ru/DailyInfoWebServ/DailyInfo.asmx")
	o.UserAgent = cmp.Or(o.UserAgent, "finbot/1.0 (+https://github.com/finbot/finbot)")
	o.Timeout = positiveOr(o.Timeout, 10*time.Second)
	o.FreshTTL = positiveOr(o.FreshTTL, 15*time.Minute)
	o.PastTTL = positiveOr(o.PastTTL, 7*24*time.Hour)
	o.BreakerTimeout = positiveOr(o.BreakerTimeout, 60*time.Second)
	if o.Now == nil {
		o.Now = time.Now
	}
	hc := &http.Client{}
	if o.HTTPClient != nil {
		cp := *o.HTTPClient
		hc = &cp
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if hc.Timeout <= 0 {
		hc.Timeout = o.Timeout + 5*time.Second // backstop; the per-call context deadline is the real one
	}
	c := &Client{
		baseURL:   o.BaseURL,
		userAgent: o.UserAgent,
		timeout:   o.Timeout,
		now:       o.Now,
		http:      hc,
		store:     newStore(o.FreshTTL, o.PastTTL),
	}
	c.cb = gobreaker.NewCircuitBreaker[[]byte](gobreaker.Settings{
		Name:        "cbr",
		Timeout:     o.BreakerTimeout,
		ReadyToTrip: func(n gobreaker.Counts) bool { return n.ConsecutiveFailures >= 5 },
		// A caller that gave up is no evidence about the service.
		IsExcluded: func(err error) bool { return errors.Is(err, context.Canceled) },
		// Nor is a request the service rejected as malformed (soap:Client).
		IsSuccessful: func(err error) bool { return err == nil || callerMistake(err) },
	})
	return c
}

// State reports the circuit breaker state: "closed", "half-open" or "open".
func (c *Client) State() string { return c.cb.State().String() }

// DailyRates returns the official rates valid on day's Moscow date (GetCursOnDate). The
// publication may be for an earlier date (Daily.OnDate): rates set on Friday hold over the
// weekend. A date without data gives empty Rates and no error.
//
// When the service fails, the last known answer for the date is served with Meta.Stale; for
// a date never fetched, the latest fetched publication whose OnDate is not after it.
func (c *Client) DailyRates(ctx context.Context, day time.Time) (Daily, error) {
	day = midnight(day)
	ds := dateOnly(day)
	d, meta, err := load(ctx, c, query[Daily]{
		what: "GetCursOnDate " + ds,
		key:  "GetCursOnDate|" + ds,
		past: day.Before(c.today()),
		fetch: func(ctx context.Context) (Daily, error) {
			body, err := c.call(ctx, "GetCursOnDate", param{"On_date", day.Format(wireDate)})
			if err != nil {
				return Daily{}, err
			}
			return parseCursOnDate(body, day)
		},
		// A date never fetched is served from the latest publication valid on or before it,
		// whose OnDate tells the caller how old it is.
		fallback: func() (entry, bool) {
			return lastKnown(c.store, "GetCursOnDate|", func(d Daily) (int64, bool) {
				return d.OnDate.Unix(), len(d.Rates) > 0 && !d.OnDate.After(day)
			})
		},
	})
	if err != nil {
		return Daily{}, err
	}
	d.Requested = day
	d.Rates = slices.Clone(d.Rates) // callers may modify their copy; the cached one stays intact
	d.Meta = meta
	return d, nil
}

// Valutes returns the directory of currencies quoted daily (EnumValutes, Seld=false). When
// the service fails, the last known directory is served without an error.
func (c *Client) Valutes(ctx context.Context) ([]Valute, error) {
	vals, _, err := c.valutes(ctx)
	return slices.Clone(vals), err
}

func (c *Client) valutes(ctx context.Context) ([]Valute, Meta, error) {
	return load(ctx, c, query[[]Valute]{
		what: "EnumValutes",
		key:  "EnumValutes|false",
		past: true,
		fetch: func(ctx context.Context) ([]Valute, error) {
			body, err := c.call(ctx, "EnumValutes", param{"Seld", "false"})
			if err != nil {
				return nil, err
			}
			return parseValutes(body)
		},
	})
}

// Dynamic returns the rate history of the currency with ISO letter code charCode between
// the Moscow dates of from and to, inclusive (GetCursDynamic). The letter code is resolved
// to the Bank of Russia's internal code through Valutes; a currency it does not quote gives
// an error matching ErrUnknownCurrency, without a GetCursDynamic call. Meta describes the
// history itself; the directory may have been served stale.
func (c *Client) Dynamic(ctx context.Context, charCode string, from, to time.Time) (Dynamic, error) {
	code := strings.ToUpper(strings.TrimSpace(charCode))
	from, to = midnight(from), midnight(to)
	what := fmt.Sprintf("GetCursDynamic %s %s..%s", code, dateOnly(from), dateOnly(to))
	if to.Before(from) {
		return Dynamic{}, fmt.Errorf("cbr: %s: range ends before it starts", what)
	}
	if code == "" {
		return Dynamic{}, fmt.Errorf("cbr: %s: %w", what, ErrUnknownCurrency)
	}
	vals, _, err := c.valutes(ctx)
	if err != nil {
		return Dynamic{}, fmt.Errorf("cbr: %s: %w", what, err)
	}
	id, ok := resolve(vals, code)
	if !ok {
		return Dynamic{}, fmt.Errorf("cbr: %s: %w", what, ErrUnknownCurrency)
	}
	points, meta, err := load(ctx, c, query[[]Point]{
		what: what,
		key:  fmt.Sprintf("GetCursDynamic|%s|%s|%s", id, dateOnly(from), dateOnly(to)),
		past: to.Before(c.today()),
		fetch: func(ctx context.Context) ([]Point, error) {
			body, err := c.call(ctx, "GetCursDynamic",
				param{"FromDate", from.Format(wireDate)}, param{"ToDate", to.Format(wireDate)}, param{"ValutaCode", id})
			if err != nil {
				return nil, err
			}
			return parseCursDynamic(body)
		},
	})
	if err != nil {
		return Dynamic{}, err
	}
	return Dynamic{CharCode: code, From: from, To: to, Points: slices.Clone(points), Meta: meta}, nil
}

// KeyRate returns the key rate history between the Moscow dates of from and to, inclusive
// (KeyRate). When the service fails and the range was never fetched, the most recently
// fetched range is served, marked stale, with its own From and To.
func (c *Client) KeyRate(ctx context.Context, from, to time.Time) (KeyRates, error) {
	from, to = midnight(from), midnight(to)
	span := dateOnly(from) + ".." + dateOnly(to)
	kr, meta, err := load(ctx, c, query[KeyRates]{
		what: "KeyRate " + span,
		key:  "KeyRate|" + span,
		past: to.Before(c.today()),
		fetch: func(ctx context.Context) (KeyRates, error) {
			body, err := c.call(ctx, "KeyRate", param{"fromDate", from.Format(wireDate)}, param{"ToDate", to.Format(wireDate)})
			if err != nil {
				return KeyRates{}, err
			}
			points, err := parseKeyRate(body)
			return KeyRates{From: from, To: to, Points: points}, err
		},
		fallback: func() (entry, bool) {
			return lastKnown(c.store, "KeyRate|", func(KeyRates) (int64, bool) { return 0, true })
		},
	})
	if err != nil {
		return KeyRates{}, err
	}
	kr.Points = slices.Clone(kr.Points)
	kr.Meta = meta
	return kr, nil
}

// News returns the Bank of Russia site news between the Moscow dates of from and to
// (NewsInfo), newest first.
func (c *Client) News(ctx context.Context, from, to time.Time) (News, error) {
	from, to = midnight(from), midnight(to)
	span := dateOnly(from) + ".." + dateOnly(to)
	items, meta, err := load(ctx, c, query[[]NewsItem]{
		what: "NewsInfo " + span,
		key:  "NewsInfo|" + span,
		fetch: func(ctx context.Context) ([]NewsItem, error) {
			body, err := c.call(ctx, "NewsInfo", param{"fromDate", from.Format(wireDate)}, param{"ToDate", to.Format(wireDate)})
			if err != nil {
				return nil, err
			}
			return parseNews(body)
		},
	})
	if err != nil {
		return News{}, err
	}
	return News{Items: slices.Clone(items), Meta: meta}, nil
}

// today is midnight of the current Moscow date.
func (c *Client) today() time.Time { return midnight(c.now()) }

func positiveOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
