// Package fakes holds the stand-ins of the two services the bot talks to on every message, for
// the tests and the load driver: BotAPI, a fake Telegram Bot API, and LLM, an OpenAI-compatible
// chat-completions API as OpenRouter serves it, with OpenAI's speech-to-text
// (/audio/transcriptions) beside it. They speak the real wire formats
// (shared/reference/wire-formats.md §3 and §6; OpenAI's API reference for transcriptions),
// answer errors as the real services do, and record what they were sent.
//
// Neither needs a *testing.T to run: the load driver runs them in a plain program. Their Wait
// methods take one.
package fakes

import (
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
)

// Server is where a fake answers: an httptest server that counts the connections clients open
// to it, or no listener at all for a fake called in process. The fakes embed it; Serve serves
// a stand-in of another service the same way.
type Server struct {
	h     http.Handler
	srv   *httptest.Server // nil in process
	conns atomic.Int64
}

// inProcessURL is the base URL of a fake called in process; nothing resolves it.
const inProcessURL = "http://fake.invalid"

// Serve starts a server for h that counts the connections clients open to it; Close stops it.
func Serve(h http.Handler) *Server { return newServer(h, false) }

func newServer(h http.Handler, inProcess bool) *Server {
	s := &Server{h: h}
	if inProcess {
		return s
	}
	s.srv = httptest.NewUnstartedServer(h)
	s.srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.srv.Start()
	return s
}

// URL is the base URL to give the client: the fake's address, or one nothing resolves for a
// fake in process.
func (s *Server) URL() string {
	if s.srv == nil {
		return inProcessURL
	}
	return s.srv.URL
}

// Client is the HTTP client to give the client: nil for a fake that listens (any client
// reaches it), one that calls the fake directly for a fake in process.
func (s *Server) Client() *http.Client {
	if s.srv != nil {
		return nil
	}
	return &http.Client{Transport: inProcess{s.h}}
}

// Conns is how many connections clients have opened to the fake.
func (s *Server) Conns() int64 { return s.conns.Load() }

// Close stops the fake. It cuts the connections still open first: a handler holding a request
// (a long poll, a late reply) returns once its client is gone.
func (s *Server) Close() {
	if s.srv != nil {
		s.srv.CloseClientConnections()
		s.srv.Close()
	}
}

// cloneLocked copies a record a fake keeps under mu.
func cloneLocked[T any](mu *sync.Mutex, s *[]T) []T {
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(*s)
}

// inProcess is a RoundTripper that has a handler answer each request, as a server would. A
// bubble of testing/synctest cannot wait on sockets; with it a test can run a client on the
// fake clock, where waits and back-offs take no real time.
type inProcess struct{ h http.Handler }

func (p inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	body := r.Body
	if body == nil {
		body = http.NoBody
	}
	defer body.Close() // a transport closes the request body
	sr := httptest.NewRequest(r.Method, r.URL.String(), body).WithContext(r.Context())
	sr.Header = r.Header.Clone()
	sr.ContentLength = r.ContentLength
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, sr)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}
