package bot

import (
	"context"
	"fmt"

	"github.com/finbot/finbot/agent/api"
)

// Deliver sends ans to chatID unasked — a digest or an alert of a subscription userID made — as
// replies go: rendered for Telegram (a table as a rich message where Telegram takes one), with
// its buttons, within Telegram's send limits (the same budget as replies), 429s waited out and
// server errors retried. It returns an error that is api.ErrBlocked when the chat cannot receive
// it: Telegram refused with 403 (the user blocked the bot, the bot was removed from the group),
// or the access lists (ALLOWED_USER_IDS, ALLOWED_CHAT_IDS) no longer let userID in chatID. A
// chart or a file of ans is not sent: a digest is one message.
func (b *Bot) Deliver(ctx context.Context, chatID, userID int64, ans api.Answer) error {
	return b.core.deliver(ctx, chatID, userID, ans)
}

func (c *core) deliver(ctx context.Context, chatID, userID int64, ans api.Answer) error {
	if !c.access.allows(userID, chatID) {
		return fmt.Errorf("bot: user %d in chat %d is not let in by the access lists: %w", userID, chatID, api.ErrBlocked)
	}
	c.clean(&ans)
	out := outgoing{chatID: chatID, parts: render(ans), buttons: ans.Buttons, answer: &ans, unasked: true}
	if len(out.parts) == 0 {
		return nil
	}
	out.rich = richAnswer(ans, out.parts)
	if err := c.send(ctx, out); err != nil {
		return err
	}
	c.metrics.digests.Inc()
	return nil
}
