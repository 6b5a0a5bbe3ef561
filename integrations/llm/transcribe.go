package llm

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/sony/gobreaker/v2"
)

// Transcriber turns speech into text through an OpenAI-compatible POST /audio/transcriptions:
// a multipart form of file, model, language and response_format=json, answered with
// {"text": "…"}. Like Client, every request has its own deadline and goes through a breaker,
// and after a 429 with Retry-After none goes out until then (its own pause: the transcription
// service may be another than the LLM's).
type Transcriber struct {
	api      *openai.Client
	model    string
	language string
	timeout  time.Duration
	cb       *gobreaker.CircuitBreaker[string]
	pause    *pause
}

// NewTranscriber builds a transcriber for o.Model that asks for language (ISO-639-1, e.g.
// "ru"; empty lets the service detect it); it makes no network call.
func NewTranscriber(o Options, language string) *Transcriber {
	o = o.withDefaults()
	p := newPause(o.MaxRetryAfter)
	s := breakerSettings("speech", o.BreakerTimeout)
	counts := s.IsSuccessful
	// A recording the service cannot read (400: a broken file, an unknown format; 413: too
	// large) is that recording's fault, not the service's: it must not open the breaker for
	// everyone's next voice message.
	s.IsSuccessful = func(err error) bool {
		switch statusOf(err) {
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
			return true
		}
		return counts(err)
	}
	return &Transcriber{
		api: newAPI(o, p), model: o.Model, language: language, timeout: o.Timeout, pause: p,
		cb: gobreaker.NewCircuitBreaker[string](s),
	}
}

// Model returns the transcription model name.
func (t *Transcriber) Model() string { return t.model }

// State reports the breaker state: "closed", "half-open" or "open".
func (t *Transcriber) State() string { return t.cb.State().String() }

// Transcribe returns what is said in audio, trimmed; "" when the service heard no speech.
// name is the file name the service sees: its extension tells the format (voice.ogg,
// memo.m4a), which OpenAI requires. Failures come as ErrRateLimited, ErrUnavailable or
// ErrBadResponse, as Client's do.
func (t *Transcriber) Transcribe(ctx context.Context, name string, audio []byte) (string, error) {
	return guarded(ctx, t.pause, t.timeout, t.cb, func(ctx context.Context) (string, error) {
		resp, err := t.api.CreateTranscription(ctx, openai.AudioRequest{
			Model:    t.model,
			FilePath: name,
			Reader:   audioReader{Reader: bytes.NewReader(audio), contentType: audioContentType(name)},
			Language: t.language,
			Format:   openai.AudioResponseFormatJSON,
		})
		if err != nil {
			return "", fmt.Errorf("transcribe: %w", err)
		}
		return strings.TrimSpace(resp.Text), nil
	})
}

// audioReader gives go-openai the Content-Type of the file part: without it go-openai asks
// mime.TypeByExtension, which knows no audio type in a minimal container image and sends
// application/octet-stream.
type audioReader struct {
	*bytes.Reader
	contentType string
}

func (r audioReader) ContentType() string { return r.contentType }

// audioContentType is the MIME type of an audio file by its extension.
func audioContentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".ogg", ".oga", ".opus":
		return "audio/ogg"
	case ".mp3", ".mpga", ".mpeg":
		return "audio/mpeg"
	case ".m4a", ".mp4":
		return "audio/mp4"
	case ".wav":
		return "audio/wav"
	case ".webm":
		return "audio/webm"
	case ".flac":
		return "audio/flac"
	}
	return "application/octet-stream"
}
