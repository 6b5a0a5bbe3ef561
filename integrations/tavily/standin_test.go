package tavily_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testKey is the only key the stand-in accepts.
const testKey = "tvly-dev-0123456789abcdefSECRET"

// reply is one scripted answer of the stand-in.
type reply struct {
	status     int    // default 200
	fixture    string // file in testdata, used when body is empty
	body       string
	retryAfter string // Retry-After header value, if any
	hang       bool   // answer nothing until the client gives up
}

// wireBody lists every field of POST /search in the current OpenAPI, plus the legacy api_key
// and days. Decoding with DisallowUnknownFields makes the stand-in reject what Tavily lacks.
// Pointers tell a field that was sent from one that was not.
type wireBody struct {
	Query                    *string  `json:"query"`
	SearchDepth              *string  `json:"search_depth"`
	ChunksPerSource          *int     `json:"chunks_per_source"`
	MaxResults               *int     `json:"max_results"`
	Topic                    *string  `json:"topic"`
	TimeRange                *string  `json:"time_range"`
	StartDate                *string  `json:"start_date"`
	EndDate                  *string  `json:"end_date"`
	Days                     *int     `json:"days"`
	IncludeAnswer            any      `json:"include_answer"`
	IncludeRawContent        any      `json:"include_raw_content"`
	IncludeImages            *bool    `json:"include_images"`
	IncludeImageDescriptions *bool    `json:"include_image_descriptions"`
	IncludeFavicon           *bool    `json:"include_favicon"`
	IncludeDomains           []string `json:"include_domains"`
	ExcludeDomains           []string `json:"exclude_domains"`
	Country                  *string  `json:"country"`
	AutoParameters           *bool    `json:"auto_parameters"`
	ExactMatch               *bool    `json:"exact_match"`
	IncludeUsage             *bool    `json:"include_usage"`
	APIKey                   *string  `json:"api_key"`
}

// standIn is a local Tavily /search. It checks each request the way the real API would,
// then answers from its script; when the script runs out it repeats the last reply.
type standIn struct {
	t      testing.TB
	srv    *httptest.Server
	calls  atomic.Int32
	strict bool // a malformed request fails the test (the client must never send one)

	mu       sync.Mutex
	script   []reply
	bodies   []wireBody
	release  chan struct{} // when set, each answer waits until it is closed
	arrived  chan int      // receives the number of each request as it arrives, if buffered room
	quit     chan struct{}
	answered chan int // receives the number of each request once answered, if buffered room
}

func newStandIn(t testing.TB, script ...reply) *standIn {
	t.Helper()
	if len(script) == 0 {
		script = []reply{{fixture: "search_ok.json"}}
	}
	s := &standIn{
		t:        t,
		strict:   true,
		script:   script,
		quit:     make(chan struct{}),
		arrived:  make(chan int, 256),
		answered: make(chan int, 256),
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	t.Cleanup(func() { close(s.quit) }) // runs first: frees hanging handlers so Close can return
	return s
}

// Calls is the number of requests that reached the stand-in.
func (s *standIn) Calls() int { return int(s.calls.Load()) }

// Bodies returns the request bodies received so far.
func (s *standIn) Bodies() []wireBody {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.bodies)
}

// hold makes every answer wait until the returned function is called.
func (s *standIn) hold() (release func()) {
	ch := make(chan struct{})
	s.mu.Lock()
	s.release = ch
	s.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
	n := int(s.calls.Add(1))
	select {
	case s.arrived <- n:
	default:
	}
	defer func() {
		select {
		case s.answered <- n:
		default:
		}
	}()

	if msg, status := s.check(r); msg != "" {
		if s.strict && status != http.StatusUnauthorized {
			s.t.Errorf("stand-in rejected request %d: %s", n, msg)
		}
		writeJSON(w, status, nil, fmt.Sprintf(`{"detail":{"error":%q}}`, msg))
		return
	}

	s.mu.Lock()
	rep := s.script[min(n, len(s.script))-1]
	release := s.release
	s.mu.Unlock()
	if release != nil {
		select {
		case <-release:
		case <-r.Context().Done():
			return
		case <-s.quit:
			return
		}
	}
	if rep.hang {
		select {
		case <-r.Context().Done():
		case <-s.quit:
		}
		return
	}
	body := []byte(rep.body)
	if rep.body == "" {
		var err error
		body, err = os.ReadFile(filepath.Join("testdata", rep.fixture))
		if err != nil {
			s.t.Errorf("stand-in: %v", err)
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
	}
	h := map[string]string{}
	if rep.retryAfter != "" {
		h["Retry-After"] = rep.retryAfter
	}
	writeJSON(w, cmp.Or(rep.status, http.StatusOK), h, string(body))
}

// check validates a request like Tavily would: it returns why it is rejected and the status,
// or "" when it is fine. It records well-formed bodies.
func (s *standIn) check(r *http.Request) (string, int) {
	if r.Method != http.MethodPost || r.URL.Path != "/search" {
		return fmt.Sprintf("%s %s, want POST /search", r.Method, r.URL.Path), http.StatusNotFound
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Sprintf("Content-Type %q, want application/json", ct), http.StatusUnsupportedMediaType
	}
	var raw bytes.Buffer
	if _, err := raw.ReadFrom(r.Body); err != nil {
		return "read body: " + err.Error(), http.StatusBadRequest
	}
	dec := json.NewDecoder(bytes.NewReader(raw.Bytes()))
	dec.DisallowUnknownFields()
	var b wireBody
	if err := dec.Decode(&b); err != nil {
		return "body: " + err.Error(), http.StatusBadRequest
	}
	// Bearer is the current auth; the legacy body api_key is accepted as tavily-mcp still sends it.
	auth := r.Header.Get("Authorization")
	if auth != "Bearer "+testKey && (b.APIKey == nil || *b.APIKey != testKey) {
		return "Unauthorized: missing or invalid API key.", http.StatusUnauthorized
	}
	switch {
	case b.Query == nil || strings.TrimSpace(*b.Query) == "":
		return "query is required", http.StatusBadRequest
	case b.SearchDepth != nil && !slices.Contains([]string{"basic", "advanced", "fast", "ultra-fast"}, *b.SearchDepth):
		return "invalid search_depth " + *b.SearchDepth, http.StatusBadRequest
	case b.Topic != nil && !slices.Contains([]string{"general", "news", "finance"}, *b.Topic):
		return "Invalid topic. Must be 'general' or 'news'.", http.StatusBadRequest
	case b.MaxResults != nil && (*b.MaxResults < 0 || *b.MaxResults > 20):
		return fmt.Sprintf("max_results %d out of 0..20", *b.MaxResults), http.StatusBadRequest
	case b.TimeRange != nil && !slices.Contains([]string{"day", "week", "month", "year", "d", "w", "m", "y"}, *b.TimeRange):
		return "invalid time_range " + *b.TimeRange, http.StatusBadRequest
	case b.TimeRange != nil && (b.StartDate != nil || b.EndDate != nil):
		return "time_range cannot be combined with start_date or end_date", http.StatusBadRequest
	case !dateOrNil(b.StartDate) || !dateOrNil(b.EndDate):
		return "dates must be YYYY-MM-DD", http.StatusBadRequest
	}
	if _, ok := b.IncludeAnswer.(string); !ok && b.IncludeAnswer != nil {
		if _, ok := b.IncludeAnswer.(bool); !ok {
			return "include_answer must be a bool or basic/advanced", http.StatusBadRequest
		}
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, b)
	s.mu.Unlock()
	return "", 0
}

func dateOrNil(s *string) bool {
	if s == nil {
		return true
	}
	_, err := time.Parse(time.DateOnly, *s)
	return err == nil
}

func writeJSON(w http.ResponseWriter, status int, header map[string]string, body string) {
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write([]byte(body))
}

// TestStandInIsStrict makes sure the stand-in would catch a client sending what Tavily lacks.
func TestStandInIsStrict(t *testing.T) {
	s := newStandIn(t)
	s.strict = false
	tests := []struct {
		name, auth, body string
		want             int
	}{
		{"unknown field", "Bearer " + testKey, `{"query":"q","apikey":"x"}`, http.StatusBadRequest},
		{"no key", "", `{"query":"q"}`, http.StatusUnauthorized},
		{"legacy body key", "", `{"query":"q","api_key":"` + testKey + `"}`, http.StatusOK},
		{"time_range with dates", "Bearer " + testKey, `{"query":"q","time_range":"week","start_date":"2025-01-01"}`, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.srv.URL+"/search", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			res, err := s.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tt.want {
				t.Errorf("status = %d, want %d", res.StatusCode, tt.want)
			}
		})
	}
}
