// Package onectest runs a stand-in of the 1C MCP Toolkit proxy for tests: the wire format of
// POST /api/execute_query (shared/reference/wire-formats.md §5.2) in front of any executor,
// usually an *onec.Demo, so that onec.Proxy and its callers can be tested end to end.
//
// The shapes follow the toolkit's source (ROCTUP/1c-mcp-toolkit, commit fe12903; see
// integrations/onec/testdata/toolkit/README.md): the Python proxy's envelope
// {"success": true, "data": [...], "error": null} (no count: the 1C side's ВыполнитьЗапрос
// returns none, and nothing says a result was cut at the limit), a query error as HTTP 200
// {"success": false, "data": null, "error": "<ОписаниеОшибки()>"}, 415/400/422 from the proxy's
// own checks, and, when a token is set (the toolkit's built-in server), 401 with
// {"error": "Unauthorized"} and WWW-Authenticate: Bearer. The rows themselves are the
// executor's: an *onec.Demo writes them as the 1C side does (onec.WireDate, onec.WireNull).
package onectest

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/finbot/finbot/integrations/onec"
)

// Executor runs a query; *onec.Demo and *onec.Proxy satisfy it.
type Executor interface {
	Execute(ctx context.Context, query string, params map[string]any, limit int) ([]map[string]any, error)
}

// Server is a stand-in proxy with one 1C base connected on one channel, and any others
// connected with WithBase on channels of their own.
type Server struct {
	// URL is the proxy's base URL (ONEC_URL), e.g. http://127.0.0.1:41234.
	URL string

	srv     *httptest.Server
	exec    Executor
	token   string
	channel string
	others  map[string]Executor // channel → the base connected on it (WithBase)

	mu       sync.Mutex
	queries  []string
	channels []string // the channel of each query, as received
	fail     func(w http.ResponseWriter, r *http.Request) bool
}

// Option configures a Server.
type Option func(*Server)

// WithToken makes /api/* require "Authorization: Bearer <tok>", as when a token is set in the
// 1C processing form.
func WithToken(tok string) Option { return func(s *Server) { s.token = tok } }

// WithChannel connects the 1C base on channel ch instead of "default". Queries sent to any
// other channel wait in vain, as on the real proxy, and get its timeout error at once.
func WithChannel(ch string) Option { return func(s *Server) { s.channel = ch } }

// WithBase connects another 1C base, exec, on channel ch, as the proxy serves several bases
// (each 1C client connects with its own channel ID).
func WithBase(ch string, exec Executor) Option {
	return func(s *Server) {
		if s.others == nil {
			s.others = map[string]Executor{}
		}
		s.others[ch] = exec
	}
}

// NewServer starts a stand-in proxy that answers with exec; it stops when the test ends.
func NewServer(t testing.TB, exec Executor, opts ...Option) *Server {
	t.Helper()
	s := &Server{exec: exec, channel: "default"}
	for _, o := range opts {
		o(s)
	}
	s.srv = httptest.NewServer(s)
	s.URL = s.srv.URL
	t.Cleanup(func() {
		s.srv.CloseClientConnections() // release handlers still holding a request (Hang)
		s.srv.Close()
	})
	return s
}

// Queries returns every query text received on /api/execute_query, in order.
func (s *Server) Queries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.queries)
}

// QueriesOn returns the query texts received on channel ch, in order.
func (s *Server) QueriesOn(ch string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for i, c := range s.channels {
		if c == ch {
			out = append(out, s.queries[i])
		}
	}
	return out
}

// Fail injects a failure: f sees every subsequent request first and returns true when it has
// answered it itself. Fail(nil) restores normal service.
func (s *Server) Fail(f func(w http.ResponseWriter, r *http.Request) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = f
}

// ServeHTTP routes like the proxy: GET /health without auth, POST /api/execute_query.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	fail := s.fail
	s.mu.Unlock()
	if fail != nil && fail(w, r) {
		return
	}
	switch r.URL.Path {
	case "/health":
		if r.Method != http.MethodGet {
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"status": "healthy", "pending_commands": 0, "mcp_endpoint": "/mcp"})
	case "/api/execute_query":
		if r.Method != http.MethodPost {
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		s.executeQuery(w, r)
	default:
		http.NotFound(w, r)
	}
}

var channelPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// executeQuery checks in the proxy's order: auth (401), Content-Type (415), JSON (400),
// validation (422); then the channel, then the executor.
func (s *Server) executeQuery(w http.ResponseWriter, r *http.Request) {
	if s.token != "" { // ПроверитьТокенВстроенногоСервера: the scheme is case-insensitive, the token exact
		auth := strings.TrimSpace(r.Header.Get("Authorization"))
		ok := len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") &&
			subtle.ConstantTimeCompare([]byte(strings.TrimSpace(auth[7:])), []byte(s.token)) == 1
		if !ok {
			w.Header().Set("WWW-Authenticate", "Bearer")
			writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "Unauthorized"})
			return
		}
	}
	if !strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "application/json") {
		fail(w, http.StatusUnsupportedMediaType, "Content-Type должен быть application/json / Content-Type must be application/json")
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 10<<20))
	if err != nil {
		fail(w, http.StatusBadRequest, "Ошибка разбора JSON: "+err.Error())
		return
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var body any
	if err := dec.Decode(&body); err != nil || dec.More() {
		fail(w, http.StatusBadRequest, fmt.Sprintf("Ошибка разбора JSON: %v / JSON parse error: %v", err, err))
		return
	}
	obj, ok := body.(map[string]any)
	if !ok {
		fail(w, http.StatusBadRequest, "Тело запроса должно быть JSON объектом / Request body must be a JSON object")
		return
	}
	if q, ok := obj["query"].(string); ok {
		s.mu.Lock()
		s.queries, s.channels = append(s.queries, q), append(s.channels, r.URL.Query().Get("channel"))
		s.mu.Unlock()
	}
	req, msg := validate(obj)
	if msg != "" {
		fail(w, http.StatusUnprocessableEntity, "Ошибка валидации параметров: "+msg+" / Parameter validation failed: "+msg)
		return
	}

	channel := r.URL.Query().Get("channel")
	if !channelPattern.MatchString(channel) {
		channel = "default" // the proxy normalises a missing or invalid channel
	}
	exec, ok := s.exec, channel == s.channel
	if !ok {
		exec, ok = s.others[channel]
	}
	if !ok {
		fail(w, http.StatusOK, fmt.Sprintf("Таймаут ожидания ответа от 1С на канале '%s' (>180.0с). "+
			"Убедитесь, что клиент 1С подключён с тем же channel ID. / "+
			"Timeout waiting for 1C response on channel '%s' (>180.0s). Make sure 1C client is connected with the same channel ID.",
			channel, channel))
		return
	}

	rows, err := exec.Execute(r.Context(), req.query, req.params, req.limit)
	var qe *onec.QueryError
	switch {
	case errors.As(err, &qe): // the 1C side's {"success": false, "error": ОписаниеОшибки()}, relayed
		writeJSON(w, http.StatusOK, map[string]any{"success": false, "data": nil, "error": qe.Message})
		return
	case err != nil:
		fail(w, http.StatusOK, "Внутренняя ошибка прокси: "+err.Error()+" / Internal proxy error: "+err.Error())
		return
	}
	if rows == nil {
		rows = []map[string]any{}
	}
	out := map[string]any{"success": true, "data": rows, "error": nil}
	if req.includeSchema {
		out["schema"] = schema(rows)
	}
	writeJSON(w, http.StatusOK, out)
}

// request is a validated execute_query body.
type request struct {
	query         string
	params        map[string]any
	limit         int
	includeSchema bool
}

// validate mirrors the proxy's pydantic model (query: str, min 1, not blank, stripped;
// params: dict | None; limit: int 1..1000, default 100; include_schema: StrictBool) and
// reports the first failing field the way the proxy does.
func validate(obj map[string]any) (request, string) {
	req := request{params: map[string]any{}, limit: 100}
	switch q, present := obj["query"]; {
	case !present:
		return req, "Field 'query': Field required"
	case !isString(q):
		return req, "Field 'query': Input should be a valid string"
	case q.(string) == "":
		return req, "Field 'query': String should have at least 1 character"
	case strings.TrimSpace(q.(string)) == "":
		return req, "Field 'query': Value error, Query cannot be empty or whitespace only"
	default:
		req.query = strings.TrimSpace(q.(string))
	}
	if p, present := obj["params"]; present && p != nil {
		m, ok := p.(map[string]any)
		if !ok {
			return req, "Field 'params': Input should be a valid dictionary"
		}
		req.params = m
	}
	if l, present := obj["limit"]; present {
		n, ok := integer(l)
		switch {
		case !ok:
			return req, "Field 'limit': Input should be a valid integer"
		case n < 1:
			return req, "Field 'limit': Input should be greater than or equal to 1"
		case n > 1000:
			return req, "Field 'limit': Input should be less than or equal to 1000"
		}
		req.limit = int(n)
	}
	if v, present := obj["include_schema"]; present {
		b, ok := v.(bool)
		if !ok {
			return req, "Field 'include_schema': Input should be a valid boolean"
		}
		req.includeSchema = b
	}
	return req, ""
}

func isString(v any) bool { _, ok := v.(string); return ok }

// integer accepts what pydantic's lax int does: whole JSON numbers and numeric strings.
func integer(v any) (int64, bool) {
	var n json.Number
	switch x := v.(type) {
	case json.Number:
		n = x
	case string:
		n = json.Number(strings.TrimSpace(x))
	default:
		return 0, false
	}
	if i, err := n.Int64(); err == nil {
		return i, true
	}
	f, err := n.Float64()
	if err != nil || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// schema describes the columns the way include_schema does (names sorted, 1C type names).
func schema(rows []map[string]any) map[string]any {
	types := map[string][]string{}
	for _, row := range rows {
		for k, v := range row {
			if t := typeName(v); !slices.Contains(types[k], t) {
				types[k] = append(types[k], t)
			}
		}
	}
	names := make([]string, 0, len(types))
	for k := range types {
		names = append(names, k)
	}
	slices.Sort(names)
	cols := make([]map[string]any, len(names))
	for i, k := range names {
		cols[i] = map[string]any{"name": k, "types": types[k]}
	}
	return map[string]any{"columns": cols}
}

// dateTimePattern is a Дата as the 1C side writes it ("…Z", or "Z" for the empty date).
var dateTimePattern = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})?Z$`)

func typeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "Неопределено" // an empty reference
	case bool:
		return "Булево"
	case json.Number, float64, int:
		return "Число"
	case string:
		if dateTimePattern.MatchString(x) {
			return "Дата"
		}
		return "Строка"
	case map[string]any:
		if r, ok := onec.RefOf(x); ok {
			return r.Type
		}
	}
	return fmt.Sprintf("%T", v)
}

// fail writes the proxy's error envelope.
func fail(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"success": false, "error": msg})
}

// writeJSON encodes v keeping json.Number values exactly as they are.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client went away; nothing to do
}
