package bot

import (
	"context"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// The «typing…» indicator.

// typing shows "typing…"; its failures never block a reply.
func (b *Bot) typing(ctx context.Context, chatID int64) {
	if !b.limits.actions.Allow() {
		return // a refresh over the budget is skipped: "typing…" shows 5 s anyway
	}
	if err := b.tg.request(ctx, tgbotapi.NewChatAction(chatID, tgbotapi.ChatTyping)); err != nil && ctx.Err() == nil {
		b.log.DebugContext(ctx, "sendChatAction failed", "chat_id", chatID, "err", err)
	}
}

// typingDelay is how long an answer may take before "typing…" is shown: most commands and
// cached answers are out before then, and each sendChatAction is a call to Telegram.
const typingDelay = 800 * time.Millisecond

// keepTyping calls send after delay and then every interval until ctx is done.
func keepTyping(ctx context.Context, delay, interval time.Duration, send func(context.Context)) {
	if interval <= 0 {
		return
	}
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		send(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// startTyping shows "typing…" in chatID from typingDelay on, until the returned stop is
// called; stop waits for the loop to end.
func (c *core) startTyping(ctx context.Context, chatID int64) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		keepTyping(ctx, c.typingDelay, c.typingInterval, func(ctx context.Context) { c.out.typing(ctx, chatID) })
	})
	return func() { cancel(); wg.Wait() }
}
