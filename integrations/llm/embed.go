package llm

import (
	"context"
	"fmt"
	"math"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/sony/gobreaker/v2"
)

// MaxEmbedBatch is how many texts go into one /embeddings request.
const MaxEmbedBatch = 64

// Embedder turns texts into vectors through an OpenAI-compatible POST /embeddings (OpenRouter
// has one). Like Client, every request has its own deadline and goes through a breaker, and
// after a 429 with Retry-After none goes out until then (its own pause: the two may use
// different services).
type Embedder struct {
	api     *openai.Client
	model   string
	timeout time.Duration
	cb      *gobreaker.CircuitBreaker[[][]float32]
	pause   *pause
	guard   Guard
}

// NewEmbedder builds an embedder for o.Model; it makes no network call.
func NewEmbedder(o Options) *Embedder {
	o = o.withDefaults()
	p := newPause(o.MaxRetryAfter)
	return &Embedder{
		api: newAPI(o, p), model: o.Model, timeout: o.Timeout, pause: p, guard: o.Guard,
		cb: gobreaker.NewCircuitBreaker[[][]float32](breakerSettings("embeddings", o.BreakerTimeout)),
	}
}

// Model returns the embeddings model name.
func (e *Embedder) Model() string { return e.model }

// State reports the breaker state: "closed", "half-open" or "open".
func (e *Embedder) State() string { return e.cb.State().String() }

// Embed returns one vector per text, in order. Texts are sent in batches of MaxEmbedBatch;
// every vector of the answer must have the same, non-zero length and finite values.
//
// The texts pass through the embedder's Guard first (Purpose Embedding).
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.guard != nil {
		sent, _, err := e.guard.Outgoing(ctx, Embedding, texts)
		if err != nil {
			return nil, fmt.Errorf("%w: refused before sending: %w", ErrUnavailable, err)
		}
		texts = sent
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += MaxEmbedBatch {
		batch := texts[start:min(start+MaxEmbedBatch, len(texts))]
		vecs, err := e.batch(ctx, batch)
		if err != nil {
			return nil, err
		}
		if len(out) > 0 && len(vecs[0]) != len(out[0]) {
			return nil, fmt.Errorf("%w: vector length changed from %d to %d", ErrBadResponse, len(out[0]), len(vecs[0]))
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *Embedder) batch(ctx context.Context, texts []string) ([][]float32, error) {
	return guarded(ctx, e.pause, e.timeout, e.cb, func(ctx context.Context) ([][]float32, error) {
		resp, err := e.api.CreateEmbeddings(ctx, openai.EmbeddingRequest{
			Input: texts, Model: openai.EmbeddingModel(e.model), EncodingFormat: openai.EmbeddingEncodingFormatFloat,
		})
		if err != nil {
			return nil, err
		}
		return orderVectors(resp.Data, len(texts))
	})
}

// orderVectors places each embedding at its index and checks the answer is whole.
func orderVectors(data []openai.Embedding, n int) ([][]float32, error) {
	if len(data) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrBadResponse, len(data), n)
	}
	out := make([][]float32, n)
	dims := len(data[0].Embedding)
	for _, d := range data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("%w: bad or repeated vector index %d", ErrBadResponse, d.Index)
		}
		if len(d.Embedding) == 0 || len(d.Embedding) != dims {
			return nil, fmt.Errorf("%w: vector %d has length %d, want %d", ErrBadResponse, d.Index, len(d.Embedding), dims)
		}
		for _, v := range d.Embedding {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("%w: vector %d has a non-finite value", ErrBadResponse, d.Index)
			}
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}
