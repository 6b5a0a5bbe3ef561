// Package llm talks to an OpenAI-compatible chat completions API (OpenRouter by default).
//
// It is the only package that imports go-openai. Every call goes through a circuit breaker and
// has its own deadline; failures are translated into a small vocabulary of errors
// (ErrRateLimited, ErrUnavailable, ErrBadResponse) that callers match with errors.Is. After a
// 429 with Retry-After no request goes out until that time has passed (at most
// Options.MaxRetryAfter): calls fail at once with a *RetryAfterError.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/sony/gobreaker/v2"
)

// Errors callers may rely on. The original error stays matchable too.
var (
	// ErrRateLimited means the service answered 429.
	ErrRateLimited = errors.New("llm: rate limited")
	// ErrUnavailable means the service could not be reached, failed, or its breaker is open.
	ErrUnavailable = errors.New("llm: unavailable")
	// ErrBadResponse means the service answered, but not with a usable completion.
	ErrBadResponse = errors.New("llm: bad response")
)

// Message is one chat message sent to the model.
type Message struct {
	Role    string // "system", "user" or "assistant"
	Content string
}

// Call tunes one completion.
type Call struct {
	// Model overrides the client's model for this call; empty means the client's.
	Model string
	// JSON asks for a JSON object (response_format json_object).
	JSON bool
	// Schema, when set, asks for JSON that follows this JSON Schema (response_format json_schema,
	// not strict). It takes precedence over JSON. It must be valid JSON; it is sent verbatim.
	Schema json.RawMessage
	// SchemaName names Schema for the service ("response" when empty).
	SchemaName string
	// MaxTokens bounds the completion; 0 leaves the service default.
	MaxTokens int
	// Temperature of sampling.
	Temperature float32
}

// Options configure a Client.
type Options struct {
	BaseURL    string        // e.g. https://openrouter.ai/api/v1
	APIKey     string        // sent as Authorization: Bearer
	Model      string        // e.g. openai/gpt-4o-mini
	Timeout    time.Duration // deadline of one call (default 30s)
	HTTPClient *http.Client  // optional; its Transport is reused
	// BreakerTimeout is how long the breaker stays open before probing again (default 30s).
	BreakerTimeout time.Duration
	// AppURL and AppTitle are OpenRouter's optional attribution headers.
	AppURL, AppTitle string
	// MaxRetryAfter caps the pause a 429's Retry-After imposes (default DefaultMaxRetryAfter,
	// 60s); a negative value ignores Retry-After.
	MaxRetryAfter time.Duration
	// Guard sees every text before it is sent and every reply before it is returned (the
	// anonymiser, agent/anon); nil sends texts as they are. Transcriptions do not pass through
	// it: audio goes only to the transcription service the operator configured.
	Guard Guard
}

// Client completes chats. It is safe for concurrent use.
type Client struct {
	api     *openai.Client
	model   string
	timeout time.Duration
	cb      *gobreaker.CircuitBreaker[string]
	pause   *pause
	guard   Guard
}

// New builds a client; it makes no network call.
func New(o Options) *Client {
	o = o.withDefaults()
	p := newPause(o.MaxRetryAfter)
	c := &Client{api: newAPI(o, p), model: o.Model, timeout: o.Timeout, pause: p, guard: o.Guard}
	c.cb = gobreaker.NewCircuitBreaker[string](breakerSettings("llm", o.BreakerTimeout))
	return c
}

// withDefaults returns o with a non-positive Timeout or BreakerTimeout made 30s.
func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.BreakerTimeout <= 0 {
		o.BreakerTimeout = 30 * time.Second
	}
	return o
}

// guarded runs do once through the pause and the breaker cb within timeout, and turns its
// failure into the package's vocabulary: what Complete, Stream and Embed share.
func guarded[T any](ctx context.Context, p *pause, timeout time.Duration, cb *gobreaker.CircuitBreaker[T], do func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	if err := p.err(); err != nil {
		return zero, err
	}
	ctx, cancel, err := callContext(ctx, timeout)
	if err != nil {
		return zero, err
	}
	defer cancel()
	out, err := cb.Execute(func() (T, error) {
		v, err := do(ctx)
		return v, budgetCut(ctx, err)
	})
	if err != nil {
		return zero, classify(err)
	}
	return out, nil
}

// newAPI builds the go-openai client with the repairing transport, which reports 429s to p.
func newAPI(o Options, p *pause) *openai.Client {
	base := http.DefaultTransport
	if o.HTTPClient != nil && o.HTTPClient.Transport != nil {
		base = o.HTTPClient.Transport
	}
	cfg := openai.DefaultConfig(o.APIKey)
	cfg.BaseURL = strings.TrimRight(o.BaseURL, "/")
	cfg.HTTPClient = &http.Client{
		Timeout:   o.Timeout + 5*time.Second, // backstop; the ctx deadline is the real one
		Transport: &errorInBody{base: base, referer: o.AppURL, title: o.AppTitle, pause: p},
	}
	return openai.NewClientWithConfig(cfg)
}

func breakerSettings(name string, timeout time.Duration) gobreaker.Settings {
	// misconfigured is set by a failure that says the service will refuse every call until
	// someone changes the configuration (a wrong key, no access, a wrong base URL or model):
	// the breaker opens at once instead of after three more refusals.
	var misconfigured atomic.Bool
	return gobreaker.Settings{
		Name:    name,
		Timeout: timeout,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.ConsecutiveFailures >= 3 || misconfigured.Swap(false)
		},
		// A caller that gave up, or an answer whose time for LLM calls ran out, is no evidence
		// about the service.
		IsExcluded: func(err error) bool { return errors.Is(err, context.Canceled) || errors.Is(err, ErrBudgetSpent) },
		// Every refusal counts, a 400 too: a service that rejects each request as malformed
		// (an unsupported response format, a model that does not take the parameters) fails
		// every answer alike, and three in a row open the breaker, as three garbled replies do.
		IsSuccessful: func(err error) bool {
			if err == nil {
				return true
			}
			if status := statusOf(err); status == http.StatusUnauthorized || status == http.StatusForbidden ||
				status == http.StatusNotFound || status == http.StatusPaymentRequired {
				misconfigured.Store(true)
			}
			return false
		},
	}
}

// statusOf is the HTTP status of an error reply from the service; 0 for other errors.
func statusOf(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	return 0
}

// Model returns the configured model name.
func (c *Client) Model() string { return c.model }

// State reports the breaker state: "closed", "half-open" or "open".
func (c *Client) State() string { return c.cb.State().String() }

// RetryAfter returns until when the service asked, with a 429 and Retry-After, not to be
// called; zero when it may be called now. Calls before then fail at once.
func (c *Client) RetryAfter() time.Time { return c.pause.untilTime() }

// Complete returns the assistant's reply to msgs. It adds the call and its tokens to the
// Usage in ctx, if any. The messages pass through the client's Guard, and the reply back.
func (c *Client) Complete(ctx context.Context, msgs []Message, call Call) (string, error) {
	msgs, restore, err := outgoing(ctx, c.guard, msgs, call)
	if err != nil {
		return "", err
	}
	req, err := c.request(msgs, call)
	if err != nil {
		return "", err
	}
	usage := UsageFrom(ctx)
	out, err := guarded(ctx, c.pause, c.timeout, c.cb, func(ctx context.Context) (string, error) {
		usage.addCall()
		resp, err := c.api.CreateChatCompletion(ctx, req)
		if err != nil {
			return "", err
		}
		usage.addTokens(resp.Usage.PromptTokens, resp.Usage.CompletionTokens)
		if len(resp.Choices) == 0 {
			return "", fmt.Errorf("%w: no choices", ErrBadResponse)
		}
		text := strings.TrimSpace(resp.Choices[0].Message.Content)
		if text == "" {
			return "", fmt.Errorf("%w: empty content (finish_reason %q)", ErrBadResponse, resp.Choices[0].FinishReason)
		}
		return text, nil
	})
	if err != nil {
		return "", err
	}
	return restored(out, restore)
}

// request builds the chat request for one call. An invalid Schema is the caller's mistake: it
// is reported before anything is sent and never reaches the breaker.
func (c *Client) request(msgs []Message, call Call) (openai.ChatCompletionRequest, error) {
	req := openai.ChatCompletionRequest{
		Model:       c.model,
		Messages:    make([]openai.ChatCompletionMessage, 0, len(msgs)),
		MaxTokens:   call.MaxTokens,
		Temperature: call.Temperature,
	}
	if call.Model != "" {
		req.Model = call.Model
	}
	for _, m := range msgs {
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	switch {
	case len(call.Schema) > 0:
		name := call.SchemaName
		if name == "" {
			name = "response"
		}
		if !json.Valid(call.Schema) {
			return req, fmt.Errorf("llm: schema %q is not valid JSON", name)
		}
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: name, Schema: call.Schema, Strict: false},
		}
	case call.JSON:
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	return req, nil
}

// classify maps library and transport errors onto the package's vocabulary.
func classify(err error) error {
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return fmt.Errorf("%w: breaker: %w", ErrUnavailable, err)
	}
	if errors.Is(err, ErrBudgetSpent) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if errors.Is(err, ErrBadResponse) || errors.Is(err, context.Canceled) {
		return err
	}
	// An error reply is the service refusing the call — a 400 as much as a 401 or a 5xx: the
	// same request would be refused again, so it is never "repaired" like an unusable reply.
	if statusOf(err) == http.StatusTooManyRequests {
		return fmt.Errorf("%w: %w", ErrRateLimited, err)
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}
