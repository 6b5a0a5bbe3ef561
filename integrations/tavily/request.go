package tavily

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

const (
	defaultTopic = "finance"
	minResults   = 3
	maxResults   = 5
	searchDepth  = "advanced"
)

var (
	topics     = map[string]bool{"finance": true, "news": true, "general": true}
	timeRanges = map[string]bool{"": true, "day": true, "week": true, "month": true, "year": true}
)

// buildRequest validates q, fills in the defaults and returns the wire body together with the
// cache key. Errors are ErrBadRequest: a query Tavily would reject costs no call.
func buildRequest(q Query) (searchRequest, string, error) {
	text := strings.TrimSpace(q.Text)
	if text == "" {
		return searchRequest{}, "", fmt.Errorf("%w: empty query", ErrBadRequest)
	}
	topic := strings.ToLower(strings.TrimSpace(q.Topic))
	if topic == "" {
		topic = defaultTopic
	}
	if !topics[topic] {
		return searchRequest{}, "", fmt.Errorf("%w: topic %q", ErrBadRequest, q.Topic)
	}
	n := q.MaxResults
	switch {
	case n <= 0:
		n = maxResults
	case n < minResults:
		n = minResults
	case n > maxResults:
		n = maxResults
	}
	timeRange := strings.ToLower(strings.TrimSpace(q.TimeRange))
	if !timeRanges[timeRange] {
		return searchRequest{}, "", fmt.Errorf("%w: time range %q", ErrBadRequest, q.TimeRange)
	}
	start, end := strings.TrimSpace(q.StartDate), strings.TrimSpace(q.EndDate)
	for _, d := range []string{start, end} {
		if d == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			return searchRequest{}, "", fmt.Errorf("%w: date %q is not YYYY-MM-DD", ErrBadRequest, d)
		}
	}
	if start != "" && end != "" && start > end {
		return searchRequest{}, "", fmt.Errorf("%w: start date %s after end date %s", ErrBadRequest, start, end)
	}
	if start != "" || end != "" {
		timeRange = "" // Tavily rejects time_range together with dates (tavily-mcp drops it too)
	}
	req := searchRequest{
		Query:       text,
		Topic:       topic,
		SearchDepth: searchDepth,
		MaxResults:  n,
		TimeRange:   timeRange,
		StartDate:   start,
		EndDate:     end,
	}
	// The text is quoted, so no query can imitate the other fields of someone else's key.
	key := strings.Join([]string{
		strconv.FormatInt(q.UserID, 10), topic, strconv.Itoa(n), timeRange, start, end, strconv.Quote(normalise(text)),
	}, "|")
	return req, key, nil
}

// normalise makes queries that differ only in case or spacing share a cache entry.
func normalise(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
