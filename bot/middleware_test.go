package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/internal/fakes"
)

// levels is a slog.Handler that keeps the level and message of every record.
type levels struct {
	mu   sync.Mutex
	recs []string // "ERROR handle update", …
}

func (h *levels) Enabled(context.Context, slog.Level) bool { return true }

func (h *levels) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recs = append(h.recs, r.Level.String()+" "+r.Message)
	return nil
}

func (h *levels) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *levels) WithGroup(string) slog.Handler      { return h }

// at returns the records at level or above.
func (h *levels) at(level slog.Level) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.recs {
		l, _, _ := strings.Cut(r, " ")
		var got slog.Level
		got.UnmarshalText([]byte(l))
		if got >= level {
			out = append(out, r)
		}
	}
	return out
}

// TestUserEventsAreNotErrors: what users do (flood, a blocked bot, empty or over-long input, an
// unknown command, a refused user, /cancel, a flood of button presses) and others' outages (a
// data source down) are logged below ERROR; a fault of ours is one ERROR.
func TestUserEventsAreNotErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		f.SetFault(fakes.Refuse("sendMessage", http.StatusForbidden, "Forbidden: bot was blocked by the user",
			func(form map[string]string) bool { return form["chat_id"] == "30" }))
		running := make(chan struct{}, 1)
		a := &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
			switch r.Text {
			case "длинный":
				return api.Answer{}, fmt.Errorf("check: %w", api.ErrTooLong)
			case "курс":
				return api.Answer{}, fmt.Errorf("cbr: %w", api.ErrUnavailable)
			case "долгий":
				running <- struct{}{}
				<-ctx.Done()
				return api.Answer{}, ctx.Err()
			case "сломано":
				return api.Answer{}, errors.New("a bug of ours")
			}
			return api.Answer{Text: "эхо: " + r.Text}, nil
		}}
		logs := &levels{}
		b := startBot(t, f, a, Options{Logger: slog.New(logs), UserRatePerMin: 1, UserRateBurst: 2,
			Access: Access{Users: []int64{10, 11, 12, 13, 14, 30, 40}}})
		for i := range 4 {
			f.Push(privateText(10, fmt.Sprint("сообщение ", i))) // flood
		}
		for range 5 {
			f.Push(press(14, 14, 1001, "q:Ключевая ставка")) // a flood of presses
		}
		f.Push(privateText(30, "привет"))  // the user blocked the bot
		f.Push(privateText(11, "   "))     // empty
		f.Push(privateText(12, "длинный")) // too long
		f.Push(privateText(13, "/foo"))    // unknown command
		f.Push(privateText(99, "пусти"))   // not on the access list
		f.Push(privateText(12, "курс"))    // a data source is down
		f.Push(privateText(40, "долгий"))  // then /cancel
		<-running
		f.Push(privateText(40, "/cancel"))
		settle(t, f, b)
		if errs := logs.at(slog.LevelError); len(errs) != 0 {
			t.Errorf("user events logged at ERROR: %q", errs)
		}
		if got := strings.Join(logs.at(slog.LevelDebug), "\n"); !strings.Contains(got, "INFO handle update") || !strings.Contains(got, "WARN handle update") {
			t.Errorf("the user's and the source's errors are not logged at INFO and WARN:\n%s", got)
		}

		f.Push(privateText(13, "сломано"))
		settle(t, f, b)
		if errs := logs.at(slog.LevelError); len(errs) != 1 || errs[0] != "ERROR handle update" {
			t.Errorf("a fault of ours logged as %q, want one ERROR handle update", errs)
		}
	})
}

func TestLogLevel(t *testing.T) {
	tests := []struct {
		err  error
		want slog.Level
	}{
		{errCanceled, slog.LevelInfo},
		{fmt.Errorf("send: %w", errBlocked), slog.LevelInfo},
		{api.ErrEmpty, slog.LevelInfo},
		{fmt.Errorf("x: %w", api.ErrTooLong), slog.LevelInfo},
		{fmt.Errorf("cbr: %w", api.ErrUnavailable), slog.LevelWarn},
		{fmt.Errorf("%w: download: 502", errDownload), slog.LevelWarn},
		{fmt.Errorf("send: %w: 5 attempts: 502", errTelegramDown), slog.LevelWarn},
		{context.DeadlineExceeded, slog.LevelWarn},
		{errors.New("nil map"), slog.LevelError},
		{fmt.Errorf("send: %w", errors.New("Bad Request: message is too long")), slog.LevelError},
	}
	for _, tt := range tests {
		if got := logLevel(tt.err); got != tt.want {
			t.Errorf("logLevel(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
