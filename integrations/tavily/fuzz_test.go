package tavily

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzResponse feeds Tavily's answer parsing any body: a 200 answer through decode, an error
// answer through errorMessage. Neither panics; a decoded response keeps at most the requested
// number of results, each with a trimmed http(s) URL; an error message is valid UTF-8, bounded,
// and never carries the API key.
func FuzzResponse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(200, b, 5)
		f.Add(400, b, 3)
	}
	for _, s := range []string{
		`{"query":"q","results":[],"response_time":"1.67"}`,
		`{"results":[{"url":" https://cbr.ru/ ","title":" т ","content":"к","score":1e308}],"response_time":null}`,
		`{"results":[{"url":"javascript:alert(1)"},{"url":"ftp://x"},{"url":"https://"},{"url":"http://[::1"}]}`,
		`{"results":null}`, `{"results":{}}`, `{"response_time":"NaN","results":[]}`, `{"response_time":"1e999","results":[]}`,
		`{"detail":{"error":"Invalid API key: tvly-dev-SECRETKEY0123456789"}}`,
		`{"detail":"` + strings.Repeat("я", 400) + `"}`, `{"error":"   "}`, `{"detail":[{"msg":"x"}]}`,
		"<html>502</html>", "", "\xff",
	} {
		f.Add(200, []byte(s), 5)
		f.Add(432, []byte(s), 5)
	}
	const key = "tvly-dev-SECRETKEY0123456789"

	f.Fuzz(func(t *testing.T, status int, body []byte, n int) {
		if status < 100 || status > 999 {
			return
		}
		kind, _ := kindOf(status)
		if kind == nil {
			t.Fatalf("kindOf(%d) = nil", status)
		}
		msg := errorMessage(status, body, key)
		if !utf8.ValidString(msg) || len(msg) > maxMessage+len("…") || strings.Contains(msg, key) {
			t.Fatalf("errorMessage(%d, %q) = %q: want valid UTF-8, at most %d bytes, no key", status, body, msg, maxMessage)
		}
		req := searchRequest{Query: "ключевая ставка", MaxResults: min(max(n, minResults), maxResults)}
		resp, err := decode(body, req)
		if err != nil {
			return
		}
		if len(resp.Results) > req.MaxResults {
			t.Fatalf("decode kept %d results, want at most %d", len(resp.Results), req.MaxResults)
		}
		if resp.Query == "" {
			t.Fatal("decode lost the query")
		}
		for _, r := range resp.Results {
			if !webURL(r.URL) || r.URL != strings.TrimSpace(r.URL) || r.Title != strings.TrimSpace(r.Title) {
				t.Fatalf("result %+v: want a trimmed http(s) URL and title", r)
			}
		}
		if resp.Results == nil {
			t.Fatal("decode returned nil results")
		}
	})
}
