package main

import (
	"context"
	"fmt"
	"github.com/finbot/finbot/config"
	"log/slog"
)

// redactor is a last line of defence for secrets in logs: whatever reaches the handler — a
// message, a string, an error, a value formatted with %v — has every configured secret
// replaced. config.Secret already hides itself; this catches secrets embedded in other text,
// such as a Bot API URL quoted by a transport error.
type redactor struct {
	next slog.Handler
	red  *config.Redactor
}

func newRedactor(next slog.Handler, red *config.Redactor) slog.Handler {
	if red == nil {
		return next
	}
	return &redactor{next: next, red: red}
}

func (h *redactor) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *redactor) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.clean(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *redactor) WithAttrs(as []slog.Attr) slog.Handler {
	cleaned := make([]slog.Attr, len(as))
	for i, a := range as {
		cleaned[i] = h.attr(a)
	}
	return &redactor{next: h.next.WithAttrs(cleaned), red: h.red}
}

func (h *redactor) WithGroup(name string) slog.Handler {
	return &redactor{next: h.next.WithGroup(name), red: h.red}
}

func (h *redactor) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.clean(v.String()))
	case slog.KindGroup:
		attrs := v.Group()
		cleaned := make([]slog.Attr, len(attrs))
		for i, g := range attrs {
			cleaned[i] = h.attr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(cleaned...)}
	case slog.KindAny:
		s := fmt.Sprintf("%+v", v.Any())
		if c := h.clean(s); c != s {
			return slog.String(a.Key, c)
		}
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, err.Error())
		}
		return slog.Attr{Key: a.Key, Value: v}
	default:
		return slog.Attr{Key: a.Key, Value: v}
	}
}

func (h *redactor) clean(s string) string { return h.red.String(s) }
