package load

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/finbot/finbot/internal/fakes"
)

// tavilyStandIn plays Tavily's POST /search: it checks the key, waits latency, and answers
// with five news items about the query, dated this week, as the live API does for topic
// "news".
type tavilyStandIn struct {
	standIn
	key string
}

func newTavilyStandIn(key string, latency time.Duration) *tavilyStandIn {
	s := &tavilyStandIn{standIn: standIn{latency: latency, calls: map[string]int{}}, key: key}
	s.srv = fakes.Serve(s)
	return s
}

func (s *tavilyStandIn) URL() string { return s.srv.URL() }

type tavilyResult struct {
	Title         string  `json:"title"`
	URL           string  `json:"url"`
	Content       string  `json:"content"`
	Score         float64 `json:"score"`
	PublishedDate string  `json:"published_date"`
}

func (s *tavilyStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path != "/search" || r.Header.Get("Authorization") != "Bearer "+s.key {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"detail":{"error":"Unauthorized: missing or invalid API key."}}`)
		return
	}
	var req struct {
		Query      string `json:"query"`
		Topic      string `json:"topic"`
		MaxResults int    `json:"max_results"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || strings.TrimSpace(req.Query) == "" {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"detail":{"error":"Query is missing."}}`)
		return
	}
	if !s.wait(r, "search") {
		return
	}
	n := req.MaxResults
	if n <= 0 || n > 5 {
		n = 5
	}
	sites := []string{"www.cbr.ru", "www.rbc.ru", "www.interfax.ru", "www.kommersant.ru", "www.vedomosti.ru"}
	results := make([]tavilyResult, n)
	for i := range results {
		day := time.Now().AddDate(0, 0, -i)
		results[i] = tavilyResult{
			Title:         fmt.Sprintf("%s — что изменится для бухгалтерии (%d)", req.Query, i+1),
			URL:           fmt.Sprintf("https://%s/news/%d/%d", sites[i%len(sites)], day.Unix(), i),
			Content:       fmt.Sprintf("Обзор новостей по теме «%s»: что сообщили регулятор и ведомства, какие сроки и суммы затронуты, что сделать компаниям до конца месяца.", req.Query),
			Score:         0.9 - 0.05*float64(i),
			PublishedDate: day.UTC().Format(http.TimeFormat),
		}
	}
	body, _ := json.Marshal(map[string]any{"query": req.Query, "results": results, "response_time": s.latency.Seconds(), "request_id": "load"})
	w.Write(body)
}
