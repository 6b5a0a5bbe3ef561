package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxBody bounds what is read of one response.
const maxBody = 8 << 20

// errorInBody turns OpenRouter's "HTTP 200 with an error object" into an HTTP error status, so
// go-openai reports it as an *openai.APIError instead of an empty completion. OpenRouter returns
// 200 when the failure happens after the model started producing output.
type errorInBody struct {
	base           http.RoundTripper
	referer, title string
}

func (t *errorInBody) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.referer != "" {
		req.Header.Set("HTTP-Referer", t.referer)
	}
	if t.title != "" {
		req.Header.Set("X-Title", t.title)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Type"), "json") {
		return resp, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if len(body) > maxBody {
		return nil, fmt.Errorf("%w: response over %d bytes", ErrBadResponse, maxBody)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var probe struct {
		Error *struct {
			Code json.RawMessage `json:"code"`
		} `json:"error"`
		Choices json.RawMessage `json:"choices"`
	}
	if json.Unmarshal(body, &probe) != nil || probe.Error == nil || len(probe.Choices) > 0 {
		return resp, nil
	}
	status := http.StatusBadGateway
	var code int
	if json.Unmarshal(probe.Error.Code, &code) == nil && code >= 400 && code <= 599 {
		status = code
	}
	resp.StatusCode = status
	resp.Status = fmt.Sprintf("%d %s", status, http.StatusText(status))
	return resp, nil
}
