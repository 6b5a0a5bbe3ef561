package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// embedStandIn serves OpenRouter's POST /api/v1/embeddings with a recorded body and checks the
// request the way the service reads it.
func embedStandIn(t *testing.T, status int, fixture string) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/v1/embeddings" {
			t.Errorf("request %s %s, want POST /api/v1/embeddings", r.Method, r.URL.Path)
		}
		var req struct {
			Model          string   `json:"model"`
			Input          []string `json:"input"`
			EncodingFormat string   `json:"encoding_format"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "openai/text-embedding-3-small" || len(req.Input) == 0 {
			t.Errorf("request body: model %q, %d inputs, err %v", req.Model, len(req.Input), err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestEmbed(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		fixture string
		want    [][]float32
		wantErr error
	}{
		{"ordered by index", http.StatusOK, "embeddings_ok.json", [][]float32{{1, 0, 0}, {0, 1, 0}}, nil},
		{"fewer vectors than texts", http.StatusOK, "embeddings_short.json", nil, ErrBadResponse},
		{"error object in a 200", http.StatusOK, "error_in_200.json", nil, ErrUnavailable},
		{"rate limited", http.StatusTooManyRequests, "rate_limited.json", nil, ErrRateLimited},
		{"bad key", http.StatusUnauthorized, "unauthorized.json", nil, ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := embedStandIn(t, tt.status, tt.fixture)
			e := NewEmbedder(Options{BaseURL: srv.URL + "/api/v1", APIKey: "sk-or-v1-test", Model: "openai/text-embedding-3-small", Timeout: 2 * time.Second})
			got, err := e.Embed(context.Background(), []string{"договор поставки", "акт сверки"})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("vectors = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEmbedBatches(t *testing.T) {
	var calls int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		var req struct {
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if len(req.Input) > MaxEmbedBatch {
			t.Errorf("batch of %d texts", len(req.Input))
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var resp struct {
			Data []item `json:"data"`
		}
		for i := range req.Input {
			resp.Data = append(resp.Data, item{Index: i, Embedding: []float32{float32(len(req.Input[i])), 1}})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	}))
	defer srv.Close()
	e := NewEmbedder(Options{BaseURL: srv.URL, Model: "m"})
	texts := make([]string, 150)
	for i := range texts {
		texts[i] = string(make([]byte, i))
	}
	got, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 3 || len(got) != 150 || got[149][0] != 149 {
		t.Errorf("calls %d, %d vectors, last %v", calls, len(got), got[149])
	}
}
