package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// maxBody bounds what is read of one response.
const maxBody = 8 << 20

// errorInBody turns OpenRouter's "HTTP 200 with an error object" into an HTTP error status, so
// go-openai reports it as an *openai.APIError instead of an empty completion. OpenRouter returns
// 200 when the failure happens after the model started producing output. An event stream is
// never buffered: it passes through sseBody, line by line. Every 429, as a status or as the
// code of an error object, goes to pause with its Retry-After.
type errorInBody struct {
	base           http.RoundTripper
	referer, title string
	pause          *pause
}

func (t *errorInBody) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.referer != "" {
		req.Header.Set("HTTP-Referer", t.referer)
	}
	if t.title != "" {
		req.Header.Set("X-Title", t.title)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode != http.StatusOK {
		t.pause.observe(resp)
		return resp, nil
	}
	ct := resp.Header.Get("Content-Type")
	if strings.HasPrefix(ct, "text/event-stream") {
		resp.Body = &sseBody{body: resp.Body, r: bufio.NewReader(resp.Body)}
		return resp, nil
	}
	if !strings.Contains(ct, "json") {
		return resp, nil
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
	if json.Unmarshal(body, &probe) != nil {
		return resp, nil
	}
	if probe.Error == nil || len(probe.Choices) > 0 {
		if req.Header.Get("Accept") == "text/event-stream" && len(probe.Choices) > 0 {
			// A server that ignores "stream": true answered with a whole completion: hand it to
			// the stream reader as one chunk, so Stream works against it too.
			if sse, ok := completionAsStream(body); ok {
				resp.Header.Set("Content-Type", "text/event-stream")
				resp.Body = io.NopCloser(bytes.NewReader(sse))
			}
		}
		return resp, nil
	}
	status := http.StatusBadGateway
	var code int
	if json.Unmarshal(probe.Error.Code, &code) == nil && code >= 400 && code <= 599 {
		status = code
	}
	resp.StatusCode = status
	resp.Status = fmt.Sprintf("%d %s", status, http.StatusText(status))
	t.pause.observe(resp)
	return resp, nil
}

// sseBody passes an event stream through one line at a time, with two repairs for go-openai's
// stream reader (v1.43):
//   - It drops comment lines (": OPENROUTER PROCESSING", OpenRouter's keep-alive). go-openai
//     collects every line that is not "data:" into an error buffer it never resets, so after a
//     keep-alive an error event no longer parses and the stream ends as if it had succeeded.
//   - It reports an end without "data: [DONE]" as io.ErrUnexpectedEOF. go-openai treats a cut
//     connection like a finished stream, which would pass a truncated answer as complete.
type sseBody struct {
	body    io.ReadCloser
	r       *bufio.Reader
	line    []byte // the rest of the current line, not yet read
	done    bool   // "data: [DONE]" went through
	readErr error  // what ends the stream once line is drained
}

func (b *sseBody) Read(p []byte) (int, error) {
	for len(b.line) == 0 {
		if b.readErr != nil {
			return 0, b.readErr
		}
		line, err := b.r.ReadBytes('\n')
		trimmed := bytes.TrimSpace(line)
		if data, ok := bytes.CutPrefix(trimmed, []byte("data:")); ok && string(bytes.TrimSpace(data)) == "[DONE]" {
			b.done = true
		}
		if err == io.EOF && !b.done {
			err = io.ErrUnexpectedEOF
		}
		b.readErr = err
		if bytes.HasPrefix(trimmed, []byte(":")) {
			continue
		}
		b.line = line
	}
	n := copy(p, b.line)
	b.line = b.line[n:]
	return n, nil
}

// Close closes the stream. After "data: [DONE]" it first reads what is left of the body (the
// blank line and the end of the chunked encoding, normally; at most 4 KiB and 100 ms), so that
// the connection goes back to the pool: a body closed unread costs the next call a new TCP and
// TLS handshake.
func (b *sseBody) Close() error {
	if b.done {
		stop := time.AfterFunc(100*time.Millisecond, func() { b.body.Close() })
		io.Copy(io.Discard, io.LimitReader(b.r, 4<<10))
		stop.Stop()
	}
	return b.body.Close()
}

// completionAsStream rewrites a chat.completion body as the event stream of one chunk.
func completionAsStream(body []byte) ([]byte, bool) {
	var c struct {
		ID      string `json:"id"`
		Model   string `json:"model"`
		Choices []struct {
			Index   int `json:"index"`
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage json.RawMessage `json:"usage"`
	}
	if json.Unmarshal(body, &c) != nil || len(c.Choices) == 0 {
		return nil, false
	}
	type delta struct {
		Content string `json:"content"`
	}
	type choice struct {
		Index        int    `json:"index"`
		Delta        delta  `json:"delta"`
		FinishReason string `json:"finish_reason,omitempty"`
	}
	chunk := struct {
		ID      string          `json:"id"`
		Object  string          `json:"object"`
		Model   string          `json:"model"`
		Choices []choice        `json:"choices"`
		Usage   json.RawMessage `json:"usage,omitempty"`
	}{ID: c.ID, Object: "chat.completion.chunk", Model: c.Model, Usage: c.Usage}
	for _, ch := range c.Choices {
		chunk.Choices = append(chunk.Choices, choice{Index: ch.Index, Delta: delta{Content: ch.Message.Content}, FinishReason: ch.FinishReason})
	}
	b, err := json.Marshal(chunk)
	if err != nil {
		return nil, false
	}
	return []byte("data: " + string(b) + "\n\ndata: [DONE]\n\n"), true
}
