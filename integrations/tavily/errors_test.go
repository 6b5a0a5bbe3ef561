package tavily_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/tavily"
	"github.com/finbot/finbot/internal/testnet"
)

func TestSearchErrors(t *testing.T) {
	const (
		msg400 = "Invalid topic. Must be 'general' or 'news'."
		msg401 = "Unauthorized: missing or invalid API key."
		msg429 = "Your request has been blocked due to excessive requests. Please reduce rate of requests."
		msg432 = "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com"
		msg433 = "This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard."
		msg500 = "Internal Server Error"
	)
	ok := reply{fixture: "search_ok.json"}
	tests := []struct {
		name       string
		script     []reply
		wantErr    error // nil: success
		wantStatus int   // of the *APIError; 0: none expected
		wantMsg    string
		wantCalls  int
	}{
		{"400", []reply{{status: 400, fixture: "error_400.json"}}, tavily.ErrBadRequest, 400, msg400, 1},
		{"401", []reply{{status: 401, fixture: "error_401.json"}}, tavily.ErrUnauthorized, 401, msg401, 1},
		{"403", []reply{{status: 403, fixture: "error_432.json"}}, tavily.ErrQuota, 403, msg432, 1},
		{"432", []reply{{status: 432, fixture: "error_432.json"}}, tavily.ErrQuota, 432, msg432, 1},
		{"433", []reply{{status: 433, fixture: "error_433.json"}}, tavily.ErrQuota, 433, msg433, 1},
		{"404 with detail string", []reply{{status: 404, body: `{"detail":"Not Found"}`}}, tavily.ErrBadRequest, 404, "Not Found", 1},
		{"422 with top-level error", []reply{{status: 422, body: `{"error":"max_results must be <= 20"}`}}, tavily.ErrBadRequest, 422, "max_results must be <= 20", 1},
		{"429 until retries are spent", []reply{{status: 429, fixture: "error_429.json"}}, tavily.ErrRateLimited, 429, msg429, 3},
		{"500 until retries are spent", []reply{{status: 500, fixture: "error_500.json"}}, tavily.ErrUnavailable, 500, msg500, 3},
		{"502 with an HTML body", []reply{{status: 502, body: "<html><body>Bad Gateway</body></html>"}}, tavily.ErrUnavailable, 502, "Bad Gateway", 3},
		{"500, 500, 200", []reply{{status: 500, fixture: "error_500.json"}, {status: 500, fixture: "error_500.json"}, ok}, nil, 0, "", 3},
		{"429, 200", []reply{{status: 429, fixture: "error_429.json"}, ok}, nil, 0, "", 2},
		{"500 then 401 stops retrying", []reply{{status: 500, fixture: "error_500.json"}, {status: 401, fixture: "error_401.json"}}, tavily.ErrUnauthorized, 401, msg401, 2},
		{"invalid JSON is not retried", []reply{{body: `{"results": [`}}, tavily.ErrUnavailable, 0, "", 1},
		{"no results field", []reply{{body: `{"query":"q","response_time":1}`}}, tavily.ErrUnavailable, 0, "", 1},
		{"response_time not a number", []reply{{body: `{"query":"q","results":[],"response_time":"fast"}`}}, tavily.ErrUnavailable, 0, "", 1},
		{"body over 2 MB", []reply{{body: `{"query":"q","results":[],"pad":"` + strings.Repeat("x", 2<<20) + `"}`}}, tavily.ErrUnavailable, 0, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStandIn(t, tt.script...)
			c := newClient(s, tavily.Options{MaxAttempts: 3})
			_, err := c.Search(t.Context(), tavily.Query{Text: "ключевая ставка ЦБ"})
			if s.Calls() != tt.wantCalls {
				t.Errorf("upstream calls = %d, want %d", s.Calls(), tt.wantCalls)
			}
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("Search error: %v, want success", err)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Search error = %v, want %v", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error %q contains the API key", err)
			}
			var apiErr *tavily.APIError
			if got := errors.As(err, &apiErr); got != (tt.wantStatus != 0) {
				t.Fatalf("errors.As(%v, *APIError) = %t, want %t", err, got, tt.wantStatus != 0)
			}
			if tt.wantStatus != 0 && (apiErr.Status != tt.wantStatus || apiErr.Message != tt.wantMsg) {
				t.Errorf("APIError = {%d %q}, want {%d %q}", apiErr.Status, apiErr.Message, tt.wantStatus, tt.wantMsg)
			}
		})
	}
}

func TestSearchWrongKey(t *testing.T) {
	s := newStandIn(t)
	c := newClient(s, tavily.Options{APIKey: "tvly-dev-wrong"})
	_, err := c.Search(t.Context(), tavily.Query{Text: "ключевая ставка"})
	if !errors.Is(err, tavily.ErrUnauthorized) {
		t.Fatalf("Search error = %v, want ErrUnauthorized", err)
	}
	if strings.Contains(err.Error(), "tvly-dev-wrong") {
		t.Errorf("error %q contains the API key", err)
	}
	if s.Calls() != 1 {
		t.Errorf("upstream calls = %d, want 1", s.Calls())
	}
}

func TestSearchUnreachable(t *testing.T) {
	url := "http://" + testnet.Addr(t) // nothing listens there, and nothing else may start to
	c := tavily.New(tavily.Options{BaseURL: url, APIKey: testKey, BaseBackoff: time.Millisecond, Timeout: time.Second})
	_, err := c.Search(t.Context(), tavily.Query{Text: "ключевая ставка"})
	if !errors.Is(err, tavily.ErrUnavailable) {
		t.Fatalf("Search error = %v, want ErrUnavailable", err)
	}
	if strings.Contains(err.Error(), testKey) {
		t.Errorf("error %q contains the API key", err)
	}
}
