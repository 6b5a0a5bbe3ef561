package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode"

	openai "github.com/sashabaranov/go-openai"
)

// Stream is Complete for a reply that is shown while it is written. It reads the reply as
// server-sent events and, after each chunk that adds text, calls onDelta (if not nil) with the
// whole text so far, without leading white space; onDelta is not called while that is empty.
// onDelta runs on the caller's goroutine and holds up reading, so it must be quick. Stream
// returns the whole reply, trimmed.
//
// The client's timeout bounds the whole stream, the breaker and error vocabulary are those of
// Complete (a *RetryAfterError at once while a Retry-After runs), and an error event in the middle of the stream is an error, not a short reply. A
// stream that ends without text is ErrBadResponse; one cut before "data: [DONE]" is
// ErrUnavailable. The call and the tokens of the final usage chunk go to the Usage in ctx.
//
// With a Guard, onDelta sees the text restored: a placeholder still being written is held
// back, and a part that cannot be restored is not shown.
func (c *Client) Stream(ctx context.Context, msgs []Message, call Call, onDelta func(text string)) (string, error) {
	msgs, restore, err := outgoing(ctx, c.guard, msgs, call)
	if err != nil {
		return "", err
	}
	req, err := c.request(msgs, call)
	if err != nil {
		return "", err
	}
	if restore != nil && onDelta != nil {
		show := onDelta
		onDelta = func(text string) {
			if part, err := restore(settledPart(text)); err == nil && strings.TrimSpace(part) != "" {
				show(part)
			}
		}
	}
	req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	usage := UsageFrom(ctx)
	out, err := guarded(ctx, c.pause, c.timeout, c.cb, func(ctx context.Context) (string, error) {
		usage.addCall()
		return c.stream(ctx, req, usage, onDelta)
	})
	if err != nil {
		return "", err
	}
	return restored(out, restore)
}

// streamChunk is what Stream reads of a chat.completion.chunk. Error is OpenRouter's mid-stream
// failure: the chunk carries an "error" object beside the usual fields, and finish_reason "error".
type streamChunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *openai.Usage   `json:"usage"`
	Error json.RawMessage `json:"error"`
}

func (c *Client) stream(ctx context.Context, req openai.ChatCompletionRequest, usage *Usage, onDelta func(string)) (string, error) {
	s, err := c.api.CreateChatCompletionStream(ctx, req)
	if err != nil {
		return "", err
	}
	defer s.Close()
	var (
		text   strings.Builder
		finish string
		last   *openai.Usage // some providers repeat a running total, so only the last one counts
	)
	defer func() {
		if last != nil {
			usage.addTokens(last.PromptTokens, last.CompletionTokens)
		}
	}()
	for {
		raw, err := s.RecvRaw()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", streamError(ctx, err)
		}
		var ch streamChunk
		if err := json.Unmarshal(raw, &ch); err != nil {
			return "", fmt.Errorf("%w: stream chunk: %v", ErrBadResponse, err)
		}
		if ch.Usage != nil {
			last = ch.Usage
		}
		if len(ch.Error) > 0 && string(ch.Error) != "null" {
			return "", eventError(ch.Error)
		}
		added := false
		for _, choice := range ch.Choices {
			if choice.Index != 0 {
				continue
			}
			if choice.FinishReason != "" {
				finish = choice.FinishReason
			}
			if choice.Delta.Content != "" {
				text.WriteString(choice.Delta.Content)
				added = true
			}
		}
		if finish == "error" {
			return "", statusError(http.StatusBadGateway, "stream finished with finish_reason \"error\"")
		}
		if added && onDelta != nil {
			if sofar := strings.TrimLeftFunc(text.String(), unicode.IsSpace); sofar != "" {
				onDelta(sofar)
			}
		}
	}
	out := strings.TrimSpace(text.String())
	if out == "" {
		return "", fmt.Errorf("%w: stream without content (finish_reason %q)", ErrBadResponse, finish)
	}
	return out, nil
}

// streamError gives an error from go-openai's stream reader what classify needs. The reader
// turns a `data: {"error":…}` event into an *openai.APIError without an HTTP status (the status
// was 200); like errorInBody, take it from error.code, else call it a bad gateway. A read that
// the deadline or the caller cut keeps the context's error matchable.
func streamError(ctx context.Context, err error) error {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) && apiErr.HTTPStatusCode == 0 {
		setStatus(apiErr)
		return fmt.Errorf("stream error event: %w", apiErr)
	}
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		return fmt.Errorf("read stream: %w: %w", ctxErr, err)
	}
	return fmt.Errorf("read stream: %w", err)
}

// eventError turns the error object of an OpenRouter chunk into an *openai.APIError.
func eventError(raw json.RawMessage) error {
	apiErr := &openai.APIError{}
	if json.Unmarshal(raw, apiErr) != nil {
		apiErr = &openai.APIError{Message: string(raw)}
	}
	setStatus(apiErr)
	return fmt.Errorf("stream error event: %w", apiErr)
}

func statusError(status int, msg string) error {
	return &openai.APIError{Message: msg, HTTPStatusCode: status, HTTPStatus: fmt.Sprintf("%d %s", status, http.StatusText(status))}
}

// setStatus sets the HTTP status of an error reported inside a 200 stream from its code: the
// code if it is an HTTP error status, else 502.
func setStatus(e *openai.APIError) {
	status := http.StatusBadGateway
	if code, ok := e.Code.(int); ok && code >= 400 && code <= 599 {
		status = code
	}
	e.HTTPStatusCode = status
	e.HTTPStatus = fmt.Sprintf("%d %s", status, http.StatusText(status))
}
