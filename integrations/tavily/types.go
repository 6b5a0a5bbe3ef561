package tavily

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Query is one search.
type Query struct {
	// Text is what to search for. An empty or blank text is ErrBadRequest.
	Text string
	// Topic is "finance" (the default when empty), "news" or "general".
	Topic string
	// MaxResults is clamped to 3..5; 0 means 5.
	MaxResults int
	// TimeRange is "", "day", "week", "month" or "year". It is not sent when StartDate or
	// EndDate is set: tavily-mcp drops it too, noting that Tavily errors on the combination.
	TimeRange string
	// StartDate and EndDate are "YYYY-MM-DD" or "".
	StartDate string
	EndDate   string
	// UserID is part of the cache key: cached answers are per (query, user).
	UserID int64
}

// Result is one search hit.
type Result struct {
	Title         string
	URL           string // always http or https
	Content       string
	Score         float64
	PublishedDate string // as Tavily sent it; often empty outside topic "news"
}

// Response is the answer to a Query.
type Response struct {
	// Query is the query as Tavily echoed it (as sent, if it echoed none).
	Query   string
	Results []Result
	// ResponseTime is Tavily's own processing time in seconds.
	ResponseTime float64
	// RequestID is Tavily's request identifier, useful in support requests.
	RequestID string
	// Cached is true when the response came from the cache rather than from Tavily.
	Cached bool
}

// searchRequest is the body of POST /search. The key travels in the Authorization header only.
type searchRequest struct {
	Query         string `json:"query"`
	Topic         string `json:"topic"`
	SearchDepth   string `json:"search_depth"`
	MaxResults    int    `json:"max_results"`
	TimeRange     string `json:"time_range,omitempty"`
	StartDate     string `json:"start_date,omitempty"`
	EndDate       string `json:"end_date,omitempty"`
	IncludeAnswer bool   `json:"include_answer"`
}

// searchResponse is the part of Tavily's 200 answer we use.
type searchResponse struct {
	Query   string `json:"query"`
	Results []struct {
		Title         string  `json:"title"`
		URL           string  `json:"url"`
		Content       string  `json:"content"`
		Score         float64 `json:"score"`
		PublishedDate string  `json:"published_date"`
	} `json:"results"`
	ResponseTime flexFloat `json:"response_time"`
	RequestID    string    `json:"request_id"`
}

// flexFloat accepts a JSON number or a numeric string: the OpenAPI example sends
// "response_time": "1.67", live answers send 1.67.
type flexFloat float64

// UnmarshalJSON implements json.Unmarshaler.
func (f *flexFloat) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			return nil
		}
		b = []byte(s)
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("response_time %s is not a number", b)
	}
	*f = flexFloat(v)
	return nil
}
