package bot

import (
	"context"
	"fmt"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/bot/tgmd"
)

// Inline mode: «@finbot usd» typed in any chat.

// inlineTimeout bounds an inline answer: Telegram drops answers that come too late.
const inlineTimeout = 8 * time.Second

// answerInline offers public figures (rates, key rate) for "@finbot usd" typed in any chat.
// Refused users and failures get an empty list: inline mode has no place for error text.
func (b *Bot) answerInline(ctx context.Context, q *tgbotapi.InlineQuery) {
	ctx, cancel := context.WithTimeout(ctx, inlineTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			b.log.ErrorContext(ctx, "inline panic", "panic", fmt.Sprint(p))
		}
	}()
	var results []any
	if b.core.access.allows(q.From.ID, 0) {
		offers, err := b.core.answerer.Inline(ctx, q.Query)
		if err != nil {
			b.log.WarnContext(ctx, "inline query", "err", err)
		}
		for _, o := range offers {
			msg := tgmd.Convert(o.Text)
			results = append(results, tgbotapi.InlineQueryResultArticle{
				Type: "article", ID: o.ID, Title: o.Title, Description: o.Description,
				InputMessageContent: tgbotapi.InputTextMessageContent{
					Text: msg.Text, Entities: toEntities(msg.Entities), DisableWebPagePreview: true,
				},
			})
		}
	}
	cfg := tgbotapi.InlineConfig{InlineQueryID: q.ID, Results: results, CacheTime: 60}
	if cfg.Results == nil {
		cfg.Results = []any{}
	}
	if err := b.tg.request(ctx, cfg); err != nil {
		b.log.WarnContext(ctx, "answerInlineQuery failed", "err", err)
	}
}
