package onectest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
)

// fakeExec records its calls and answers with rows or err.
type fakeExec struct {
	mu    sync.Mutex
	rows  []map[string]any
	err   error
	calls []call
}

type call struct {
	Query  string
	Params map[string]any
	Limit  int
}

func (f *fakeExec) Execute(_ context.Context, q string, p map[string]any, limit int) ([]map[string]any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call{q, p, limit})
	return f.rows, f.err
}

func (f *fakeExec) Calls() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

func (f *fakeExec) FailWith(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.err = err
}

// post sends body to /api/execute_query and decodes the envelope with UseNumber.
func post(t *testing.T, url, contentType, auth, body string) (int, map[string]any, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env map[string]any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	_ = dec.Decode(&env)
	return resp.StatusCode, env, string(raw)
}

func TestServerValidation(t *testing.T) {
	exec := &fakeExec{rows: []map[string]any{{"Сумма": json.Number("148530.91")}}}
	srv := onectest.NewServer(t, exec, onectest.WithToken("tok"))
	url := srv.URL + "/api/execute_query?channel=default"
	tests := []struct {
		name, contentType, auth, body string
		wantStatus                    int
		wantError                     string // substring of "error"; "" for success
	}{
		{"no token", "application/json", "", `{"query":"ВЫБРАТЬ 1"}`, 401, "Unauthorized"},
		{"wrong token", "application/json", "Bearer nope", `{"query":"ВЫБРАТЬ 1"}`, 401, "Unauthorized"},
		{"not bearer", "application/json", "Basic tok", `{"query":"ВЫБРАТЬ 1"}`, 401, "Unauthorized"},
		{"text/plain", "text/plain", "Bearer tok", `{"query":"ВЫБРАТЬ 1"}`, 415, "Content-Type"},
		{"no content type", "", "Bearer tok", `{"query":"ВЫБРАТЬ 1"}`, 415, "Content-Type"},
		{"bad JSON", "application/json", "Bearer tok", `{"query":`, 400, "Ошибка разбора JSON"},
		{"JSON array", "application/json", "Bearer tok", `["ВЫБРАТЬ 1"]`, 400, "JSON объектом"},
		{"missing query", "application/json", "Bearer tok", `{"limit":5}`, 422, "Field 'query': Field required"},
		{"query not a string", "application/json", "Bearer tok", `{"query":5}`, 422, "Field 'query': Input should be a valid string"},
		{"empty query", "application/json", "Bearer tok", `{"query":""}`, 422, "at least 1 character"},
		{"blank query", "application/json", "Bearer tok", `{"query":" \n\t"}`, 422, "Query cannot be empty or whitespace only"},
		{"params a list", "application/json", "Bearer tok", `{"query":"ВЫБРАТЬ 1","params":[1]}`, 422, "Field 'params'"},
		{"limit 0", "application/json", "Bearer tok", `{"query":"ВЫБРАТЬ 1","limit":0}`, 422, "greater than or equal to 1"},
		{"limit 1001", "application/json", "Bearer tok", `{"query":"ВЫБРАТЬ 1","limit":1001}`, 422, "less than or equal to 1000"},
		{"limit fractional", "application/json", "Bearer tok", `{"query":"ВЫБРАТЬ 1","limit":1.5}`, 422, "valid integer"},
		{"limit a word", "application/json", "Bearer tok", `{"query":"ВЫБРАТЬ 1","limit":"ten"}`, 422, "valid integer"},
		{"include_schema a string", "application/json", "Bearer tok", `{"query":"ВЫБРАТЬ 1","include_schema":"true"}`, 422, "valid boolean"},
		{"ok, charset in content type", "application/json; charset=utf-8", "Bearer tok", `{"query":"ВЫБРАТЬ 1","params":{},"limit":5,"include_schema":false}`, 200, ""},
		{"ok, limit as a numeric string", "application/json", "Bearer tok", `{"query":"ВЫБРАТЬ 1","limit":"7"}`, 200, ""},
		{"ok, params null", "application/json", "Bearer tok", `{"query":"ВЫБРАТЬ 1","params":null}`, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, env, raw := post(t, url, tt.contentType, tt.auth, tt.body)
			if status != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", status, tt.wantStatus, raw)
			}
			if tt.wantError == "" {
				// The proxy's envelope: success, data, error null, and no count.
				data, _ := env["data"].([]any)
				if _, hasCount := env["count"]; env["success"] != true || len(data) != 1 || env["error"] != nil || hasCount {
					t.Errorf("body %s, want {success: true, data: [one row], error: null}", raw)
				}
				return
			}
			msg, _ := env["error"].(string)
			if status == http.StatusUnauthorized { // the built-in server: {"error": "Unauthorized"}, no success
				if _, has := env["success"]; has || msg != "Unauthorized" {
					t.Errorf("body %s, want {\"error\":\"Unauthorized\"}", raw)
				}
				return
			}
			if env["success"] != false || !strings.Contains(msg, tt.wantError) {
				t.Errorf("body %s, want success:false with an error containing %q", raw, tt.wantError)
			}
		})
	}
	calls := exec.Calls()
	if len(calls) != 3 {
		t.Fatalf("executor ran %d times, want 3 (only valid requests reach 1C)", len(calls))
	}
	if c := calls[1]; c.Limit != 7 || c.Query != "ВЫБРАТЬ 1" {
		t.Errorf("second call = %+v", c)
	}
}

func TestServerAnswers(t *testing.T) {
	exec := &fakeExec{rows: []map[string]any{{
		"Сумма": json.Number("148530.91"), "Счет": "62.01", "Проведен": true, "Дата": "2025-03-15T12:00:00Z", "Договор": nil,
		"Контрагент": onec.Ref{UUID: "b5df193a-0940-4afc-991f-43edb57e86ec", Type: onec.TypeCounterparty, Presentation: "АО «Вектор»"}.Param(),
	}}}
	srv := onectest.NewServer(t, exec)
	base := srv.URL + "/api/execute_query"

	// Amounts stay exact on the wire: the number is written as the executor gave it.
	_, _, raw := post(t, base, "application/json", "", `{"query":"  ВЫБРАТЬ 1\n","params":{"П":{"_objectRef":true}},"include_schema":true}`)
	if !strings.Contains(raw, `"Сумма":148530.91`) {
		t.Errorf("body %s does not carry 148530.91 as a plain number", raw)
	}
	var env struct {
		Success bool
		Data    []map[string]any
		Schema  struct {
			Columns []struct {
				Name  string
				Types []string
			}
		}
	}
	if err := json.Unmarshal([]byte(raw), &env); err != nil || !env.Success || len(env.Data) != 1 {
		t.Fatalf("body %s: %v", raw, err)
	}
	types := map[string][]string{}
	for _, c := range env.Schema.Columns {
		types[c.Name] = c.Types
	}
	wantTypes := map[string][]string{"Сумма": {"Число"}, "Счет": {"Строка"}, "Проведен": {"Булево"}, "Дата": {"Дата"},
		"Договор": {"Неопределено"}, "Контрагент": {onec.TypeCounterparty}}
	if diff := gocmp.Diff(wantTypes, types); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
	// The proxy strips the query before 1C sees it, and passes params through.
	if c := exec.Calls()[0]; c.Query != "ВЫБРАТЬ 1" || c.Limit != 100 || c.Params["П"] == nil {
		t.Errorf("executor call = %+v; want the stripped query, the default limit 100 and the params", c)
	}
	if diff := gocmp.Diff([]string{"  ВЫБРАТЬ 1\n"}, srv.Queries()); diff != "" {
		t.Errorf("Queries() (-want +got):\n%s", diff)
	}

	// A query error of 1C is HTTP 200 with success:false and data null.
	exec.FailWith(&onec.QueryError{Message: "{(1, 1)}: Синтаксическая ошибка"})
	status, envErr, _ := post(t, base, "application/json", "", `{"query":"ВЫБРАТЬ"}`)
	if data, has := envErr["data"]; status != 200 || envErr["success"] != false || envErr["error"] != "{(1, 1)}: Синтаксическая ошибка" || !has || data != nil {
		t.Errorf("query error answered %d %v", status, envErr)
	}
}

func TestServerChannelsAndRoutes(t *testing.T) {
	exec := &fakeExec{rows: []map[string]any{}}
	srv := onectest.NewServer(t, exec, onectest.WithChannel("buh"), onectest.WithToken("tok"))
	tests := []struct {
		name, method, path string
		wantStatus         int
		wantBody           string
	}{
		{"health needs no auth", http.MethodGet, "/health", 200, `"status":"healthy"`},
		{"served channel", http.MethodPost, "/api/execute_query?channel=buh", 200, `"success":true`},
		{"another channel waits for a 1C that never comes", http.MethodPost, "/api/execute_query?channel=zup", 200, "Таймаут ожидания ответа от 1С на канале 'zup'"},
		{"invalid channel is normalised to default", http.MethodPost, "/api/execute_query?channel=no%20such!", 200, "на канале 'default'"},
		{"GET execute_query", http.MethodGet, "/api/execute_query", 405, "Method Not Allowed"},
		{"unknown route", http.MethodPost, "/api/execute_code", 404, "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(`{"query":"ВЫБРАТЬ 1"}`))
			req.Header.Set("Content-Type", "application/json")
			if strings.HasPrefix(tt.path, "/api/") {
				req.Header.Set("Authorization", "Bearer tok")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus || !strings.Contains(string(raw), tt.wantBody) {
				t.Errorf("%s %s = %d %s; want %d with %q", tt.method, tt.path, resp.StatusCode, raw, tt.wantStatus, tt.wantBody)
			}
		})
	}
	if n := len(exec.Calls()); n != 1 {
		t.Errorf("executor ran %d times, want 1", n)
	}
}

func TestServerFail(t *testing.T) {
	srv := onectest.NewServer(t, &fakeExec{})
	srv.Fail(onectest.Respond(http.StatusBadGateway, "text/html", "<h1>502</h1>"))
	status, _, raw := post(t, srv.URL+"/api/execute_query", "application/json", "", `{"query":"ВЫБРАТЬ 1"}`)
	if status != http.StatusBadGateway || raw != "<h1>502</h1>" {
		t.Errorf("with Fail: %d %s", status, raw)
	}
	srv.Fail(nil)
	if status, _, raw := post(t, srv.URL+"/api/execute_query", "application/json", "", `{"query":"ВЫБРАТЬ 1"}`); status != 200 {
		t.Errorf("after Fail(nil): %d %s", status, raw)
	}
}
