package onec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/finbot/finbot/ru"
)

// ProxyOptions configure a Proxy.
type ProxyOptions struct {
	URL     string // ONEC_URL: base URL of the MCP toolkit proxy, e.g. http://host:6003
	Channel string // ONEC_CHANNEL: the 1C base's channel, [a-zA-Z0-9_-]{1,64} (default "default")
	Token   string // ONEC_TOKEN: Bearer token, when one is set in the 1C processing form (optional)
	// Name is what answers name as their source (a channel's title of ONEC_CHANNELS); default
	// «1С (MCP toolkit, канал <channel>)».
	Name string

	Timeout        time.Duration // deadline of one query (default 30s)
	BreakerTimeout time.Duration // how long the breaker stays open before probing again (default 60s)
	HTTPClient     *http.Client  // optional; its Transport is reused
}

// Proxy runs the whitelisted queries on a real 1C base through the 1C MCP Toolkit proxy
// (POST /api/execute_query). Every call has its own deadline and goes through a circuit
// breaker; failures come back as ErrUnavailable, ErrBadResponse, ErrUnauthorized, ErrRejected
// or *QueryError. It is safe for concurrent use.
type Proxy struct {
	endpoint string
	channel  string
	name     string
	token    string
	timeout  time.Duration
	http     *http.Client
	cb       *gobreaker.CircuitBreaker[[]map[string]any]
}

// maxBody bounds a response: 1000 rows of a wide query stay far below it.
const maxBody = 32 << 20

var channelPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// proxyFailures are the error texts the proxy itself puts in {"success": false} when no 1C
// answer came back; they mean an outage, not a query error.
var proxyFailures = []string{"Таймаут ожидания ответа от 1С", "Внутренняя ошибка прокси"}

// NewProxy checks the options and builds a client; it makes no network call.
func NewProxy(o ProxyOptions) (*Proxy, error) {
	u, err := url.Parse(strings.TrimSpace(o.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		// The URL is quoted only as far as it carries no secret: without its password, query
		// and fragment (a token may ride in any of them), and not at all when it does not
		// parse (net/url could not say where the password ends).
		shown := "unparsable"
		if err == nil {
			v := *u
			v.RawQuery, v.Fragment, v.RawFragment = "", "", ""
			shown = v.Redacted()
		}
		return nil, fmt.Errorf("onec: proxy URL %q: want http(s)://host[:port][/path] without a query or fragment", shown)
	}
	if o.Channel == "" {
		o.Channel = "default"
	}
	if !channelPattern.MatchString(o.Channel) {
		return nil, fmt.Errorf("onec: proxy channel %q: want [a-zA-Z0-9_-]{1,64}", o.Channel)
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.BreakerTimeout <= 0 {
		o.BreakerTimeout = 60 * time.Second
	}
	base := http.DefaultTransport
	if o.HTTPClient != nil && o.HTTPClient.Transport != nil {
		base = o.HTTPClient.Transport
	}
	p := &Proxy{
		endpoint: strings.TrimRight(u.String(), "/") + "/api/execute_query?channel=" + url.QueryEscape(o.Channel),
		channel:  o.Channel,
		name:     o.Name,
		token:    o.Token,
		timeout:  o.Timeout,
		http:     &http.Client{Timeout: o.Timeout + 5*time.Second, Transport: base}, // backstop; ctx is the real deadline
	}
	p.cb = gobreaker.NewCircuitBreaker[[]map[string]any](gobreaker.Settings{
		Name:        "onec",
		Timeout:     o.BreakerTimeout,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= 5 },
		// A caller that gave up is no evidence about 1C.
		IsExcluded: func(err error) bool { return errors.Is(err, context.Canceled) },
		// 1C answered: a query error or a request the proxy refused says nothing about its health.
		IsSuccessful: func(err error) bool {
			var qe *QueryError
			return err == nil || errors.As(err, &qe) || errors.Is(err, ErrRejected)
		},
	})
	return p, nil
}

// Name says where the answers come from.
func (p *Proxy) Name() string {
	if p.name != "" {
		return p.name
	}
	return "1С (MCP toolkit, канал " + p.channel + ")"
}

// State reports the breaker state: "closed", "half-open" or "open".
func (p *Proxy) State() string { return p.cb.State().String() }

// Execute runs query with params and returns at most limit rows, decoded with UseNumber:
// numbers are json.Number, references are object descriptions (see RefOf).
func (p *Proxy) Execute(ctx context.Context, query string, params map[string]any, limit int) ([]map[string]any, error) {
	op := "onec: execute"
	if id, ok := QueryID(query); ok {
		op += " " + id
	}
	rows, err := p.cb.Execute(func() ([]map[string]any, error) { return p.execute(ctx, query, params, limit) })
	switch {
	case err == nil:
		return rows, nil
	case errors.Is(err, gobreaker.ErrOpenState), errors.Is(err, gobreaker.ErrTooManyRequests):
		return nil, fmt.Errorf("%s: %w: breaker: %w", op, ErrUnavailable, err)
	default:
		return nil, fmt.Errorf("%s: %w", op, err)
	}
}

// execute makes one request and classifies its outcome.
func (p *Proxy) execute(ctx context.Context, query string, params map[string]any, limit int) ([]map[string]any, error) {
	if params == nil {
		params = map[string]any{}
	}
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		Query         string         `json:"query"`
		Params        map[string]any `json:"params"`
		Limit         int            `json:"limit"`
		IncludeSchema bool           `json:"include_schema"`
	}{query, params, limit, false})
	if err != nil {
		return nil, fmt.Errorf("%w: encode params: %v", ErrRejected, err)
	}

	callCtx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(callCtx, http.MethodPost, p.endpoint, &body)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRejected, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return nil, p.transportError(ctx, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil { // e.g. the connection was reset in the middle of the body
		return nil, p.transportError(ctx, fmt.Errorf("read body: %w", err))
	}
	if len(raw) > maxBody {
		return nil, fmt.Errorf("%w: response over %d MB", ErrBadResponse, maxBody>>20)
	}

	switch code := resp.StatusCode; {
	case code == http.StatusOK:
		return decodeResult(raw)
	case code == http.StatusUnauthorized, code == http.StatusForbidden:
		return nil, fmt.Errorf("%w: HTTP %d", ErrUnauthorized, code)
	case code == http.StatusBadRequest, code == http.StatusUnsupportedMediaType, code == http.StatusUnprocessableEntity:
		return nil, fmt.Errorf("%w: HTTP %d: %s", ErrRejected, code, errorText(raw))
	case code >= 500, code == http.StatusRequestTimeout, code == http.StatusTooManyRequests:
		return nil, fmt.Errorf("%w: HTTP %d: %s", ErrUnavailable, code, errorText(raw))
	default:
		return nil, fmt.Errorf("%w: HTTP %d: %s", ErrBadResponse, code, errorText(raw))
	}
}

// transportError classifies a failure to get an answer. If the caller gave up, its own error
// is returned (context.Canceled is excluded from the breaker's counts).
func (p *Proxy) transportError(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: no answer within %s", ErrUnavailable, p.timeout)
	}
	return fmt.Errorf("%w: %v", ErrUnavailable, err)
}

// decodeResult reads a 200 answer: {"success": true, "data": [...], "count": N} or
// {"success": false, "error": "..."}.
func decodeResult(raw []byte) ([]map[string]any, error) {
	var env struct {
		Success *bool           `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || env.Success == nil {
		return nil, fmt.Errorf("%w: not a toolkit answer: %s", ErrBadResponse, errorText(raw))
	}
	if !*env.Success {
		msg := jsonText(env.Error)
		for _, prefix := range proxyFailures {
			if strings.HasPrefix(msg, prefix) {
				return nil, fmt.Errorf("%w: %s", ErrUnavailable, msg)
			}
		}
		return nil, &QueryError{Message: msg}
	}
	data := bytes.TrimSpace(env.Data)
	switch {
	case len(data) == 0 || bytes.Equal(data, []byte("null")):
		return []map[string]any{}, nil
	case data[0] == '"':
		return nil, fmt.Errorf("%w: data is a TOON string; set RESPONSE_FORMAT=json on the proxy", ErrBadResponse)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var rows []map[string]any
	if err := dec.Decode(&rows); err != nil {
		return nil, fmt.Errorf("%w: data: %v", ErrBadResponse, err)
	}
	if rows == nil {
		rows = []map[string]any{}
	}
	return rows, nil
}

// errorText extracts a short message from an error body: the toolkit's "error", FastAPI's
// "detail", or the start of whatever else came (an HTML page).
func errorText(raw []byte) string {
	var env struct {
		Error  json.RawMessage `json:"error"`
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &env) == nil {
		if s := jsonText(env.Error); s != "" {
			return s
		}
		if s := jsonText(env.Detail); s != "" {
			return s
		}
	}
	return ru.Truncate(strings.Join(strings.Fields(string(raw)), " "), 120)
}

// jsonText is a JSON string's value, "" for null or nothing, or the raw JSON of anything else.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if t := bytes.TrimSpace(raw); !bytes.Equal(t, []byte("null")) {
		return string(t)
	}
	return ""
}
