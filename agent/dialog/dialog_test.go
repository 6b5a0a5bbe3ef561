package dialog

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/history"
)

func TestKey(t *testing.T) {
	if a, b := Key(7, 1, true), Key(7, 2, true); a == b {
		t.Errorf("two colleagues in a group share the dialog %q", a)
	}
	if a, b := Key(7, 1, false), Key(8, 1, false); a == b || a != "chat:7" {
		t.Errorf("private dialogs %q and %q", a, b)
	}
}

// broken is a store whose every call fails, or waits for the deadline when slow.
type broken struct{ slow bool }

func (b broken) wait(ctx context.Context) error {
	if b.slow {
		<-ctx.Done()
		return ctx.Err()
	}
	return errors.New("connection refused")
}
func (b broken) Load(ctx context.Context, _ string) ([]history.Turn, error) { return nil, b.wait(ctx) }
func (b broken) Append(ctx context.Context, _ string, _ ...history.Turn) error {
	return b.wait(ctx)
}
func (b broken) Reset(ctx context.Context, _ string) error { return b.wait(ctx) }

func TestKeeper(t *testing.T) {
	at := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	mem := history.NewMemory(10, history.Limits{})
	k := Keeper{Store: mem, Timeout: time.Second, Log: slog.New(slog.DiscardHandler)}
	if lost, err := k.Save(t.Context(), "chat:1", Question("rate", "EUR", at), history.Turn{Role: Assistant, Text: "Курс EUR"}); lost != "" || err != nil {
		t.Fatalf("save: %q, %v", lost, err)
	}
	turns, lost, err := k.Load(t.Context(), "chat:1")
	if err != nil || lost != "" || len(turns) != 2 || turns[0].Text != "/rate EUR" || turns[0].Role != User {
		t.Fatalf("load: %+v, %q, %v", turns, lost, err)
	}

	for _, b := range []broken{{}, {slow: true}} {
		k := Keeper{Store: b, Timeout: 10 * time.Millisecond, Log: slog.New(slog.DiscardHandler)}
		if turns, lost, err := k.Load(t.Context(), "chat:1"); turns != nil || lost != Unavailable || err != nil {
			t.Errorf("slow=%v load: %v, %q, %v", b.slow, turns, lost, err)
		}
		if lost, err := k.Save(t.Context(), "chat:1", Question("", "привет", at), history.Turn{}); lost != NotSaved || err != nil {
			t.Errorf("slow=%v save: %q, %v", b.slow, lost, err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	k = Keeper{Store: broken{slow: true}, Timeout: time.Second, Log: slog.New(slog.DiscardHandler)}
	if _, _, err := k.Load(ctx, "chat:1"); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled question's load: %v", err)
	}
}
