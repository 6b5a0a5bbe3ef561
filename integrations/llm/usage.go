package llm

import (
	"context"
	"log/slog"
	"sync/atomic"
)

// Usage adds up the calls and tokens of one piece of work, such as one answer. Attach it to a
// context with WithUsage; Complete and Stream add to the Usage of their context. A call counts
// once it is sent, whether it succeeds or not; calls refused by an open breaker or for an
// invalid Schema are not sent and do not count. Tokens count when the service reports them.
// The zero value is ready to use, and Usage is safe for concurrent use.
type Usage struct {
	calls, prompt, completion atomic.Int64
}

// Calls returns how many calls were sent.
func (u *Usage) Calls() int { return int(u.calls.Load()) }

// PromptTokens returns the prompt tokens the service reported.
func (u *Usage) PromptTokens() int { return int(u.prompt.Load()) }

// CompletionTokens returns the completion tokens the service reported.
func (u *Usage) CompletionTokens() int { return int(u.completion.Load()) }

// LogValue logs the three counts as a group.
func (u *Usage) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Int("calls", u.Calls()),
		slog.Int("prompt_tokens", u.PromptTokens()),
		slog.Int("completion_tokens", u.CompletionTokens()),
	)
}

// addCall and addTokens accept a nil receiver, so callers need not check for a Usage in ctx.
func (u *Usage) addCall() {
	if u != nil {
		u.calls.Add(1)
	}
}

func (u *Usage) addTokens(prompt, completion int) {
	if u != nil {
		u.prompt.Add(int64(prompt))
		u.completion.Add(int64(completion))
	}
}

type usageKey struct{}

// WithUsage returns a copy of ctx that carries u; calls made with it add to u.
func WithUsage(ctx context.Context, u *Usage) context.Context {
	return context.WithValue(ctx, usageKey{}, u)
}

// UsageFrom returns the Usage carried by ctx, or nil if there is none.
func UsageFrom(ctx context.Context) *Usage {
	u, _ := ctx.Value(usageKey{}).(*Usage)
	return u
}
