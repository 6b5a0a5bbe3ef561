package tavily

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// Errors callers may rely on with errors.Is. An HTTP failure also carries an *APIError.
var (
	// ErrNotConfigured means the client has no API key; Search makes no network call.
	ErrNotConfigured = errors.New("tavily: no API key")
	// ErrUnauthorized means Tavily rejected the API key (HTTP 401).
	ErrUnauthorized = errors.New("tavily: invalid API key")
	// ErrQuota means the key's plan or pay-as-you-go limit is spent (HTTP 403, 432, 433).
	ErrQuota = errors.New("tavily: usage limit exceeded")
	// ErrRateLimited means Tavily still answered 429 after the retries were spent.
	ErrRateLimited = errors.New("tavily: rate limited")
	// ErrBadRequest means the query was rejected, locally or by Tavily (HTTP 400 and other 4xx).
	ErrBadRequest = errors.New("tavily: bad request")
	// ErrUnavailable means Tavily could not be reached, failed (5xx), timed out, answered with
	// something unusable, or the breaker is open.
	ErrUnavailable = errors.New("tavily: unavailable")
)

// APIError is an HTTP error answer from Tavily. It is wrapped together with one of the sentinel
// errors, so both errors.Is(err, ErrQuota) and errors.As(err, &apiErr) work.
type APIError struct {
	// Status is the HTTP status code.
	Status int
	// Message is Tavily's explanation from the error body, or the status text when it sent none.
	Message string
}

// Error reports the status and Tavily's message.
func (e *APIError) Error() string {
	if e.Message == "" {
		return "status " + strconv.Itoa(e.Status)
	}
	return "status " + strconv.Itoa(e.Status) + ": " + e.Message
}

// kindOf maps an HTTP error status onto the package's vocabulary and says whether another
// attempt may help.
func kindOf(status int) (kind error, retry bool) {
	switch {
	case status == http.StatusUnauthorized:
		return ErrUnauthorized, false
	case status == http.StatusForbidden, status == 432, status == 433:
		return ErrQuota, false
	case status == http.StatusTooManyRequests:
		return ErrRateLimited, true
	case status >= 500:
		return ErrUnavailable, true
	case status >= 400:
		return ErrBadRequest, false
	default: // an unfollowed redirect or another status /search never sends
		return ErrUnavailable, false
	}
}

// maxMessage bounds the message kept from an error body.
const maxMessage = 500

// errorMessage extracts Tavily's message from an error body. The documented shape is
// {"detail":{"error":"..."}}; {"detail":"..."} (FastAPI's default) and {"error":"..."} are
// accepted too. The key is redacted in case a proxy ever echoes it.
func errorMessage(status int, body []byte, key string) string {
	var env struct {
		Detail json.RawMessage `json:"detail"`
		Error  json.RawMessage `json:"error"`
	}
	msg := ""
	if json.Unmarshal(body, &env) == nil {
		msg = firstNonEmpty(nestedError(env.Detail), jsonString(env.Detail), jsonString(env.Error))
	}
	msg = strings.TrimSpace(msg)
	if msg == "" {
		msg = http.StatusText(status)
	}
	if key != "" {
		msg = strings.ReplaceAll(msg, key, "[redacted]")
	}
	if len(msg) > maxMessage {
		msg = strings.ToValidUTF8(msg[:maxMessage], "") + "…"
	}
	return msg
}

func nestedError(raw json.RawMessage) string {
	var v struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return v.Error
}

func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
