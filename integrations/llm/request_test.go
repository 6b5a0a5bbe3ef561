package llm

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// capture serves ok.json and hands each request body to the test.
func capture(t *testing.T, bodies chan<- []byte) *httptest.Server {
	t.Helper()
	ok, err := os.ReadFile(filepath.Join("testdata", "ok.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("read request body: %v", err)
		}
		bodies <- body
		w.Header().Set("Content-Type", "application/json")
		w.Write(ok)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// wireFormat is response_format as sent, with the schema kept as the exact bytes on the wire.
type wireFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name   string          `json:"name"`
		Strict *bool           `json:"strict"`
		Schema json.RawMessage `json:"schema"`
	} `json:"json_schema"`
}

func TestCallOnTheWire(t *testing.T) {
	pretty, err := os.ReadFile(filepath.Join("testdata", "plan_schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, pretty); err != nil {
		t.Fatal(err)
	}
	schema := compact.String()

	type want struct {
		Model      string
		Type       string // "" when response_format must be absent
		SchemaName string
		Strict     bool
		Schema     string
	}
	tests := []struct {
		name string
		call Call
		want want
	}{
		{"defaults", Call{}, want{Model: "openai/gpt-4o-mini"}},
		{"model override", Call{Model: "anthropic/claude-3.5-haiku"}, want{Model: "anthropic/claude-3.5-haiku"}},
		{"json object", Call{JSON: true}, want{Model: "openai/gpt-4o-mini", Type: "json_object"}},
		{"schema wins over JSON", Call{JSON: true, Schema: pretty, SchemaName: "query_plan", Model: "openai/gpt-4.1"},
			want{Model: "openai/gpt-4.1", Type: "json_schema", SchemaName: "query_plan", Schema: schema}},
		{"schema without a name", Call{Schema: json.RawMessage(schema)},
			want{Model: "openai/gpt-4o-mini", Type: "json_schema", SchemaName: "response", Schema: schema}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bodies := make(chan []byte, 1)
			c := newClient(capture(t, bodies).URL)
			if _, err := c.Complete(t.Context(), []Message{{Role: "user", Content: "Курс доллара?"}}, tt.call); err != nil {
				t.Fatalf("Complete() error: %v", err)
			}
			var req struct {
				Model          string      `json:"model"`
				ResponseFormat *wireFormat `json:"response_format"`
			}
			body := <-bodies
			if err := json.Unmarshal(body, &req); err != nil {
				t.Fatalf("request body %s: %v", body, err)
			}
			got := want{Model: req.Model}
			if f := req.ResponseFormat; f != nil {
				got.Type = f.Type
				if s := f.JSONSchema; s != nil {
					got.SchemaName, got.Schema = s.Name, string(s.Schema)
					if s.Strict == nil {
						t.Errorf("json_schema has no strict field: %s", body)
					} else {
						got.Strict = *s.Strict
					}
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("request mismatch (-want +got):\n%s\nbody: %s", diff, body)
			}
		})
	}
}

func TestInvalidSchemaIsNotSent(t *testing.T) {
	var calls atomic.Int32
	c := newClient(standIn(t, 200, "ok.json", &calls).URL)
	u := new(Usage)
	_, err := c.Complete(WithUsage(t.Context(), u), []Message{{Role: "user", Content: "x"}},
		Call{Schema: json.RawMessage(`{"type":`), SchemaName: "query_plan"})
	if err == nil {
		t.Fatal("Complete() with an invalid schema succeeded")
	}
	if calls.Load() != 0 || u.Calls() != 0 {
		t.Errorf("upstream calls = %d, counted calls = %d; want 0 and 0", calls.Load(), u.Calls())
	}
}
