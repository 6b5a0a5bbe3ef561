package tavily

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const (
	maxBody      = 2 << 20  // bytes of a 200 answer; more is ErrUnavailable
	maxErrorBody = 64 << 10 // bytes read from an error answer; the rest is ignored
)

// failure is one failed attempt, already classified.
type failure struct {
	kind          error // one of the sentinels
	cause         error // *APIError, or the transport or decoding error
	retry         bool  // another attempt may succeed
	retryAfter    time.Duration
	hasRetryAfter bool // a usable Retry-After came with a 429
}

// err builds the error a caller sees: the sentinel first, the cause last, so both match.
func (f *failure) err(attempts int) error {
	if attempts > 1 {
		return fmt.Errorf("%w: %d attempts: %w", f.kind, attempts, f.cause)
	}
	return fmt.Errorf("%w: %w", f.kind, f.cause)
}

// searchWithRetries posts req up to c.maxAttempts times, retrying only failures that another
// attempt may cure, and sleeping a jittered backoff (or a 429's Retry-After) in between.
func (c *Client) searchWithRetries(ctx context.Context, req searchRequest) (Response, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return Response{}, fmt.Errorf("%w: encode request: %w", ErrBadRequest, err)
	}
	var last *failure
	attempts := 0
	for attempts < c.maxAttempts {
		if last != nil {
			wait := c.backoff(attempts)
			if last.hasRetryAfter {
				wait = last.retryAfter
			}
			if err := sleep(ctx, wait); err != nil {
				return Response{}, fmt.Errorf("tavily: search: %w", err)
			}
		}
		attempts++
		resp, f := c.attempt(ctx, body, req)
		if f == nil {
			return resp, nil
		}
		if err := ctx.Err(); err != nil {
			return Response{}, fmt.Errorf("tavily: search: %w", err) // the caller left, not Tavily
		}
		last = f
		if !f.retry {
			break
		}
	}
	return Response{}, last.err(attempts)
}

// backoff is the wait before attempt number done+1: full jitter below an exponential ceiling.
func (c *Client) backoff(done int) time.Duration {
	ceiling := c.baseBackoff
	for i := 1; i < done && ceiling < maxBackoff; i++ {
		ceiling *= 2
	}
	return c.jitter(min(ceiling, maxBackoff))
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// attempt makes one HTTP call under its own deadline.
func (c *Client) attempt(ctx context.Context, body []byte, req searchRequest) (Response, *failure) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil { // a malformed BaseURL: no attempt will do better
		return Response{}, &failure{kind: ErrUnavailable, cause: err}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	hreq.Header.Set("Authorization", "Bearer "+c.key)
	hres, err := c.http.Do(hreq)
	if err != nil {
		return Response{}, &failure{kind: ErrUnavailable, cause: err, retry: true}
	}
	defer hres.Body.Close()

	ok := hres.StatusCode >= 200 && hres.StatusCode < 300
	limit := int64(maxErrorBody)
	if ok {
		limit = maxBody
	}
	data, err := io.ReadAll(io.LimitReader(hres.Body, limit+1))
	if err != nil {
		return Response{}, &failure{kind: ErrUnavailable, cause: fmt.Errorf("read response: %w", err), retry: true}
	}
	if !ok {
		kind, retry := kindOf(hres.StatusCode)
		f := &failure{kind: kind, cause: &APIError{Status: hres.StatusCode, Message: errorMessage(hres.StatusCode, data, c.key)}, retry: retry}
		if hres.StatusCode == http.StatusTooManyRequests {
			f.retryAfter, f.hasRetryAfter = retryAfter(hres.Header.Get("Retry-After"))
		}
		return Response{}, f
	}
	if int64(len(data)) > maxBody {
		return Response{}, &failure{kind: ErrUnavailable, cause: fmt.Errorf("response larger than %d bytes", maxBody)}
	}
	resp, err := decode(data, req)
	if err != nil {
		return Response{}, &failure{kind: ErrUnavailable, cause: err}
	}
	return resp, nil
}

// retryAfter reads a Retry-After in seconds; a value above maxRetryAfter is not used.
func retryAfter(v string) (time.Duration, bool) {
	s, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || s < 0 || time.Duration(s)*time.Second > maxRetryAfter {
		return 0, false
	}
	return time.Duration(s) * time.Second, true
}

// decode turns a 200 body into a Response: drops results without an http(s) URL, trims text,
// and keeps at most the requested number of results.
func decode(data []byte, req searchRequest) (Response, error) {
	var sr searchResponse
	if err := json.Unmarshal(data, &sr); err != nil {
		return Response{}, fmt.Errorf("decode response: %w", err)
	}
	if sr.Results == nil {
		return Response{}, fmt.Errorf("decode response: no results field")
	}
	resp := Response{
		Query:        strings.TrimSpace(sr.Query),
		Results:      make([]Result, 0, len(sr.Results)),
		ResponseTime: float64(sr.ResponseTime),
		RequestID:    sr.RequestID,
	}
	if resp.Query == "" {
		resp.Query = req.Query
	}
	for _, r := range sr.Results {
		if len(resp.Results) == req.MaxResults {
			break
		}
		link := strings.TrimSpace(r.URL)
		if !webURL(link) {
			continue
		}
		resp.Results = append(resp.Results, Result{
			Title:         strings.TrimSpace(r.Title),
			URL:           link,
			Content:       strings.TrimSpace(r.Content),
			Score:         r.Score,
			PublishedDate: r.PublishedDate,
		})
	}
	return resp, nil
}

// webURL reports whether s is an absolute http or https URL with a host.
func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
