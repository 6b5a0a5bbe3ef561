package bot

import (
	"context"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// The «typing…» indicator.

// actionWait bounds how long one "typing…" waits for the chat actions' budget before it is
// skipped: when many answers start at once, each first indicator still goes out within about
// a second, and a skipped refresh costs nothing ("typing…" shows 5 s anyway).
const actionWait = time.Second

// typing shows "typing…"; its failures never block a reply.
func (b *Bot) typing(ctx context.Context, chatID int64) {
	wctx, cancel := context.WithTimeout(ctx, actionWait)
	err := b.limits.actions.Wait(wctx) // fails at once when the budget is further off than that
	cancel()
	if err != nil {
		return
	}
	if err := b.tg.request(ctx, tgbotapi.NewChatAction(chatID, tgbotapi.ChatTyping)); err != nil && ctx.Err() == nil {
		b.log.DebugContext(ctx, "sendChatAction failed", "chat_id", chatID, "err", err)
	}
}

// keepTyping calls send now and then every interval until ctx is done.
func keepTyping(ctx context.Context, interval time.Duration, send func(context.Context)) {
	if interval <= 0 {
		return
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

// startTyping shows "typing…" in chatID from now until the returned stop is called (the answer
// delivered); stop waits for the loop to end. It is called when the work on an answer starts:
// how long the answer will take is not known then, and a long one must not look ignored.
func (c *core) startTyping(ctx context.Context, chatID int64) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		keepTyping(ctx, c.typingInterval, func(ctx context.Context) { c.out.typing(ctx, chatID) })
	})
	return func() { cancel(); wg.Wait() }
}
