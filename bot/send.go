package bot

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/bot/tgmd"
)

// Sending: a reply's parts, documents and chart delivered within Telegram's limits, with retries.

// send delivers every part of a reply in order, then its chart, within Telegram's limits.
func (b *Bot) send(ctx context.Context, out outgoing) error {
	for i, p := range out.parts {
		cfg := tgbotapi.NewMessage(out.chatID, p.Text)
		cfg.DisableWebPagePreview = true
		cfg.Entities = toEntities(p.Entities)
		if i == 0 && out.replyTo != 0 {
			cfg.ReplyToMessageID = out.replyTo
			cfg.AllowSendingWithoutReply = true
		}
		last := i == len(out.parts)-1
		if last {
			if kb := keyboard(out.buttons); kb != nil {
				cfg.ReplyMarkup = kb
			}
		}
		plain := func() tgbotapi.Chattable { cfg.Entities = nil; return cfg }
		id, err := b.deliver(ctx, out.chatID, cfg, plain)
		if err != nil {
			return ignoreBlocked(err)
		}
		if last && out.sent != nil {
			out.sent(id)
		}
	}
	for _, d := range out.documents {
		dc := tgbotapi.NewDocument(out.chatID, tgbotapi.FileBytes{Name: d.name, Bytes: d.data})
		dc.Caption = d.caption
		if _, err := b.deliver(ctx, out.chatID, dc, func() tgbotapi.Chattable { return dc }); err != nil {
			return ignoreBlocked(err)
		}
	}
	if out.photo != nil {
		pc := tgbotapi.NewPhoto(out.chatID, tgbotapi.FileBytes{Name: "chart.png", Bytes: out.photo.png})
		pc.Caption = out.photo.caption.Text
		pc.CaptionEntities = toEntities(out.photo.caption.Entities)
		plain := func() tgbotapi.Chattable { pc.CaptionEntities = nil; return pc }
		if _, err := b.deliver(ctx, out.chatID, pc, plain); err != nil {
			return ignoreBlocked(err)
		}
	}
	return nil
}

func ignoreBlocked(err error) error {
	if errors.Is(err, errBlocked) {
		return nil
	}
	return err
}

// errBlocked means the user blocked the bot: nothing more can be delivered.
var errBlocked = errors.New("bot: blocked by the user")

const maxSendAttempts = 5

// deliver sends one message or photo: it waits for the chat's and the global send budget,
// waits out 429s, resends without formatting when Telegram cannot parse it (plain builds that
// version), drops what a user who blocked the bot can't receive, and retries server errors.
func (b *Bot) deliver(ctx context.Context, chatID int64, c tgbotapi.Chattable, plain func() tgbotapi.Chattable) (int, error) {
	formatted := true
	for attempt := 1; ; attempt++ {
		if err := b.limits.wait(ctx, chatID); err != nil {
			return 0, err
		}
		id, err := b.tg.send(ctx, c)
		if err == nil {
			return id, nil
		}
		if ctx.Err() != nil || attempt >= maxSendAttempts {
			return 0, err
		}
		e, isAPI := apiError(err)
		switch {
		case isAPI && e.Code == http.StatusTooManyRequests:
			wait := time.Duration(max(e.RetryAfter, 1)) * time.Second
			b.core.metrics.errors.WithLabelValues("telegram_429").Inc()
			b.log.WarnContext(ctx, "telegram flood control", "chat_id", chatID, "retry_after", wait)
			sleep(ctx, wait)
		case isAPI && e.Code == http.StatusBadRequest && formatted && isParseError(e.Message):
			b.log.WarnContext(ctx, "telegram rejected formatting; sending plain", "chat_id", chatID, "err", err)
			c, formatted = plain(), false
		case isAPI && e.Code == http.StatusForbidden:
			b.log.InfoContext(ctx, "cannot deliver: bot blocked or removed", "chat_id", chatID, "err", err)
			return 0, errBlocked
		case isAPI && e.Code >= 400 && e.Code < 500:
			return 0, err
		default: // 5xx, transport errors
			sleep(ctx, backoff(attempt))
		}
	}
}

func isParseError(description string) bool {
	// Telegram's only signal is its description text ("Bad Request: can't parse entities: …").
	return containsFold(description, "can't parse entities") || containsFold(description, "can't parse message text")
}

func toEntities(es []tgmd.Entity) []tgbotapi.MessageEntity {
	if len(es) == 0 {
		return nil
	}
	out := make([]tgbotapi.MessageEntity, len(es))
	for i, e := range es {
		out[i] = tgbotapi.MessageEntity{Type: e.Type, Offset: e.Offset, Length: e.Length, URL: e.URL, Language: e.Language}
	}
	return out
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
