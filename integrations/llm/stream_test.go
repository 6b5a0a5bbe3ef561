package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sseEvents reads a recorded OpenRouter event stream and splits it into events ("data: …\n\n"
// or a ": OPENROUTER PROCESSING\n\n" keep-alive), byte for byte.
func sseEvents(t *testing.T, fixture string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(string(b), "\n\n")
}

// sseStandIn answers a streaming request the way OpenRouter does: 200, text/event-stream, one
// event at a time, each flushed. Before writing event i it calls before(i, r), if set, which may
// hold the stream up. It checks the request asks for a stream with usage.
func sseStandIn(t *testing.T, events []string, before func(i int, r *http.Request)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model         string `json:"model"`
			Stream        bool   `json:"stream"`
			StreamOptions struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || !req.Stream || !req.StreamOptions.IncludeUsage || req.Model == "" {
			t.Errorf("request: %+v, err %v; want a model, stream and stream_options.include_usage", req, err)
		}
		if got := r.Header.Get("Accept"); got != "text/event-stream" {
			t.Errorf("Accept = %q, want text/event-stream", got)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		fl := w.(http.Flusher)
		fl.Flush()
		for i, ev := range events {
			if before != nil {
				before(i, r)
			}
			if _, err := io.WriteString(w, ev); err != nil {
				return
			}
			fl.Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// recordDeltas returns an onDelta that keeps every text it is given.
func recordDeltas() (*[]string, func(string)) {
	var got []string
	return &got, func(s string) { got = append(got, s) }
}

func TestStream(t *testing.T) {
	tests := []struct {
		name       string
		fixture    string
		want       string
		wantErr    error
		wantDeltas []string
		wantUsage  counts
	}{
		{
			name: "several chunks", fixture: "stream_ok.sse",
			want:       "Курс доллара на 1 марта — 90,50 ₽.",
			wantDeltas: []string{"Курс", "Курс доллара", "Курс доллара на 1 марта — 90,50 ₽."},
			wantUsage:  counts{1, 42, 9},
		},
		{
			// `data: {"error":…}` after a keep-alive, the shape go-openai's reader loses.
			name: "error event mid-stream", fixture: "stream_error_event.sse",
			wantErr: ErrUnavailable, wantDeltas: []string{"Курс"}, wantUsage: counts{1, 0, 0},
		},
		{
			// OpenRouter's documented shape: a chunk with an error object and finish_reason "error".
			name: "error chunk mid-stream", fixture: "stream_error_chunk.sse",
			wantErr: ErrUnavailable, wantDeltas: []string{"Курс"}, wantUsage: counts{1, 0, 0},
		},
		{
			name: "no content", fixture: "stream_empty.sse",
			wantErr: ErrBadResponse, wantUsage: counts{1, 42, 0},
		},
		{
			name: "cut before [DONE]", fixture: "stream_cut.sse",
			wantErr: io.ErrUnexpectedEOF, wantDeltas: []string{"Курс", "Курс доллара"}, wantUsage: counts{1, 0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(sseStandIn(t, sseEvents(t, tt.fixture), nil).URL)
			u := new(Usage)
			deltas, onDelta := recordDeltas()
			got, err := c.Stream(WithUsage(t.Context(), u), []Message{{Role: "user", Content: "Курс доллара на 1 марта?"}}, Call{}, onDelta)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("Stream() error = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Stream() = %q, want %q", got, tt.want)
			}
			if diff := cmp.Diff(tt.wantDeltas, *deltas); diff != "" {
				t.Errorf("onDelta calls mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantUsage, countsOf(u)); diff != "" {
				t.Errorf("usage mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A cut stream is the service failing, not a bad answer.
func TestStreamCutIsUnavailable(t *testing.T) {
	c := newClient(sseStandIn(t, sseEvents(t, "stream_cut.sse"), nil).URL)
	_, err := c.Stream(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{}, nil)
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("Stream() error = %v, want ErrUnavailable", err)
	}
}

func TestStreamHTTPErrors(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		fixture string
		wantErr error
	}{
		{"429 before the stream", 429, "rate_limited.json", ErrRateLimited},
		{"502 before the stream", 502, "error_in_200.json", ErrUnavailable},
		{"error object inside HTTP 200", 200, "error_in_200.json", ErrUnavailable},
		{"401", 401, "unauthorized.json", ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			c := newClient(standIn(t, tt.status, tt.fixture, &calls).URL)
			u := new(Usage)
			deltas, onDelta := recordDeltas()
			_, err := c.Stream(WithUsage(t.Context(), u), []Message{{Role: "user", Content: "x"}}, Call{}, onDelta)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Stream() error = %v, want %v", err, tt.wantErr)
			}
			if len(*deltas) != 0 {
				t.Errorf("onDelta called with %q, want no calls", *deltas)
			}
			if u.Calls() != 1 || calls.Load() != 1 {
				t.Errorf("counted calls = %d, upstream calls = %d; want 1 and 1", u.Calls(), calls.Load())
			}
		})
	}
}

// The server sends one chunk and then stalls: the deadline ends the stream, and the chunk that
// came before it still reached onDelta.
func TestStreamStalledServerHitsDeadline(t *testing.T) {
	events := sseEvents(t, "stream_ok.sse")
	release := make(chan struct{})
	srv := sseStandIn(t, events, func(i int, r *http.Request) {
		if i == 4 { // after the first chunk with text
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	})
	t.Cleanup(func() { close(release) }) // runs before srv.Close, which waits for the handler
	c := New(Options{BaseURL: srv.URL, APIKey: "k", Model: "m", Timeout: 200 * time.Millisecond})
	deltas, onDelta := recordDeltas()
	_, err := c.Stream(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{}, onDelta)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Stream() error = %v, want ErrUnavailable wrapping DeadlineExceeded", err)
	}
	if diff := cmp.Diff([]string{"Курс"}, *deltas); diff != "" {
		t.Errorf("onDelta calls mismatch (-want +got):\n%s", diff)
	}
}

// Each chunk reaches onDelta while the server still holds the rest: the server sends the next
// event only after the client has shown the text so far.
func TestStreamDeliversChunksAsTheyArrive(t *testing.T) {
	events := sseEvents(t, "stream_ok.sse")
	shown := make(chan string, len(events))
	waitFor := func(want string, r *http.Request) {
		for {
			select {
			case s := <-shown:
				if s == want {
					return
				}
			case <-r.Context().Done():
				return
			}
		}
	}
	srv := sseStandIn(t, events, func(i int, r *http.Request) {
		switch i { // events 4 and 6 carry " доллара" and " на 1 марта…"
		case 5:
			waitFor("Курс доллара", r)
		case 7:
			waitFor("Курс доллара на 1 марта — 90,50 ₽.", r)
		}
	})
	c := New(Options{BaseURL: srv.URL, APIKey: "k", Model: "m", Timeout: 2 * time.Second})
	got, err := c.Stream(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{}, func(s string) { shown <- s })
	if err != nil {
		t.Fatalf("Stream() error: %v (a buffered stream would run into the deadline)", err)
	}
	if want := "Курс доллара на 1 марта — 90,50 ₽."; got != want {
		t.Errorf("Stream() = %q, want %q", got, want)
	}
}

// Stream and Complete share one breaker: failed streams open it for both.
func TestStreamSharesBreaker(t *testing.T) {
	var calls atomic.Int32
	c := New(Options{BaseURL: standIn(t, 503, "error_in_200.json", &calls).URL + "/api/v1", APIKey: "sk-or-v1-test",
		Model: "openai/gpt-4o-mini", Timeout: time.Second, BreakerTimeout: time.Hour})
	for range 3 {
		c.Stream(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{}, nil)
	}
	if c.State() != "open" {
		t.Fatalf("breaker state after 3 failed streams = %s, want open", c.State())
	}
	_, err := c.Complete(t.Context(), []Message{{Role: "user", Content: "x"}}, Call{})
	if !errors.Is(err, ErrUnavailable) || calls.Load() != 3 {
		t.Errorf("Complete() with open breaker: error = %v, upstream calls = %d; want ErrUnavailable and 3", err, calls.Load())
	}
}

// A server that ignores "stream": true and answers with a whole completion still serves Stream:
// the reply arrives as one chunk, with its usage.
func TestStreamFromANonStreamingServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"gen-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Курс доллара — 81,1134 ₽."},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":7,"total_tokens":19}}`)
	}))
	defer srv.Close()
	c := New(Options{BaseURL: srv.URL, APIKey: "k", Model: "m", Timeout: 2 * time.Second})
	u := new(Usage)
	var deltas []string
	out, err := c.Stream(WithUsage(t.Context(), u), []Message{{Role: "user", Content: "курс"}}, Call{}, func(s string) { deltas = append(deltas, s) })
	if err != nil || out != "Курс доллара — 81,1134 ₽." {
		t.Fatalf("Stream = %q, %v", out, err)
	}
	if len(deltas) != 1 || deltas[0] != out {
		t.Errorf("deltas %q, want the whole reply once", deltas)
	}
	if u.Calls() != 1 || u.PromptTokens() != 12 || u.CompletionTokens() != 7 {
		t.Errorf("usage %d calls %d/%d tokens", u.Calls(), u.PromptTokens(), u.CompletionTokens())
	}
}

// A finished stream leaves its connection to the pool: twenty answers in a row open one, even
// when the end of the response comes a moment after "data: [DONE]", as it does over a network.
func TestStreamReusesConnections(t *testing.T) {
	events := sseEvents(t, "stream_ok.sse")
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range events {
			io.WriteString(w, ev)
			w.(http.Flusher).Flush()
		}
		time.Sleep(20 * time.Millisecond) // the chunked encoding's end arrives later
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c := newClient(srv.URL)
	for range 20 {
		if _, err := c.Stream(t.Context(), []Message{{Role: "user", Content: "Курс доллара на 1 марта?"}}, Call{}, func(string) {}); err != nil {
			t.Fatal(err)
		}
	}
	if n := conns.Load(); n > 2 {
		t.Errorf("20 streamed answers opened %d connections, want 1", n)
	}
}
