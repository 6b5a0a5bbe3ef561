package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/finbot/finbot/agent/api"
)

// What every message goes through around its handler: recover, access, the flood guard, and
// the one place where errors are logged and turned into user text.

// handle answers one incoming message. It never panics and logs each error once. It reports
// abandoned when shutdown cancelled the answer (the cause of ctx is errShutdown) before any
// reply: the caller decides whether the user hears about it or the next instance answers.
func (c *core) handle(ctx context.Context, in incoming) (abandoned bool) {
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			c.log.ErrorContext(ctx, "handler panic", "update_id", in.updateID, "chat_id", in.chatID, "panic", fmt.Sprint(p))
			c.metrics.errors.WithLabelValues("panic").Inc()
			c.reply(context.WithoutCancel(ctx), in, userMessage(errors.New("panic")))
		}
	}()
	refused := !c.access.allows(in.userID, in.chatID)
	verdict := c.flood.allow(in.userID, time.Now())
	turning := in.command == "page" && !refused && verdict == floodOK
	if in.callbackID != "" && !turning {
		// The button's spinner stops first, whatever follows: an answer, a refusal, or (for
		// presses over the flood limit) nothing but this acknowledgement. A page turn of a long
		// keyboard acknowledges itself, with a toast when the keyboard is gone (pages.go).
		c.acknowledge(ctx, in, !refused && verdict == floodNotify)
	}
	if refused {
		c.metrics.updates.WithLabelValues("refused").Inc()
		if verdict == floodOK {
			c.reply(ctx, in, "Извините, этот бот доступен только сотрудникам компании. Чтобы получить доступ, обратитесь к администратору.")
		}
		return
	}
	switch verdict {
	case floodNotify:
		c.metrics.updates.WithLabelValues("flood").Inc()
		if in.callbackID == "" { // a press was told by its acknowledgement
			c.reply(ctx, in, "Слишком много сообщений подряд. Подождите немного — на следующие вопросы я отвечу.")
		}
		return
	case floodSilent:
		c.metrics.updates.WithLabelValues("flood").Inc()
		return
	}

	kind := "question"
	var err error
	switch {
	case in.file != nil:
		kind = "upload"
		err = c.upload(ctx, in)
	case in.voice != nil:
		kind = "voice"
		err = c.voice(ctx, in)
	case in.command != "":
		kind = "command"
		err = c.runCommand(ctx, in)
	default:
		err = c.answer(ctx, in)
	}
	c.metrics.latency.WithLabelValues(kind).Observe(time.Since(start).Seconds())
	if err != nil && errors.Is(context.Cause(ctx), errShutdown) {
		c.log.WarnContext(ctx, "answer cancelled by shutdown", "update_id", in.updateID, "chat_id", in.chatID, "kind", kind, "err", err)
		if kind != "upload" {
			return true
		}
		// The document may be stored and its receipt sent already: not to be redone elsewhere.
		err = errShutdown
	}
	if err != nil {
		c.log.Log(ctx, logLevel(err), "handle update", "update_id", in.updateID, "chat_id", in.chatID, "kind", kind, "err", err)
		c.metrics.errors.WithLabelValues(kind).Inc()
		c.reply(context.WithoutCancel(ctx), in, replyText(err))
	}
	return false
}

// logLevel is how loud an error is logged. ERROR is for what is ours to fix (a bug, a request
// Telegram rejects as malformed); WARN for what others' outages and our deadlines cost (Telegram
// or a data source down, an answer too slow); INFO for what users do (an empty or over-long
// message, /cancel, a blocked bot).
func logLevel(err error) slog.Level {
	switch {
	case errors.Is(err, errCanceled), errors.Is(err, errBlocked),
		errors.Is(err, api.ErrEmpty), errors.Is(err, api.ErrTooLong):
		return slog.LevelInfo
	case errors.Is(err, errShutdown), errors.Is(err, errDownload), errors.Is(err, errTelegramDown),
		errors.Is(err, api.ErrUnavailable),
		errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return slog.LevelWarn
	}
	return slog.LevelError
}
