package bot

import (
	"context"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Inline buttons: the keyboard under a reply, and a press read back as an incoming message.

// acker stops the spinner on a pressed button. The Telegram front end implements it; the
// console has no spinner.
type acker interface {
	answerCallback(ctx context.Context, callbackID, text string)
}

// ackTimeout bounds one answerCallbackQuery: it runs in the conversation's turn, ahead of the
// press's answer, and must not hold that up for long.
const ackTimeout = 5 * time.Second

// floodToast is what a press over the flood limit shows instead of an answer.
const floodToast = "Слишком часто. Подождите немного — на следующие нажатия я отвечу."

// acknowledge answers the callback query of a pressed button, in the conversation's turn (never
// on the poll loop): a toast tells a user over the flood limit to slow down.
func (c *core) acknowledge(ctx context.Context, in incoming, flooded bool) {
	a, ok := c.out.(acker)
	if !ok {
		return
	}
	text := ""
	if flooded {
		text = floodToast
	}
	ctx, cancel := context.WithTimeout(ctx, ackTimeout)
	defer cancel()
	a.answerCallback(ctx, in.callbackID, text)
}

// answerCallback answers a callback query; a failure costs only the spinner, which Telegram
// stops by itself a little later.
func (b *Bot) answerCallback(ctx context.Context, id, text string) {
	if err := b.tg.request(ctx, tgbotapi.NewCallback(id, text)); err != nil {
		b.log.DebugContext(ctx, "answerCallbackQuery failed", "err", err)
	}
}

// buttonCommand is the hidden command a button's data goes to: "doc" for the document
// buttons, "base" for the choice of a 1C base, "drill" for drilldowns, exports and choices, "page" for «Ещё ▸» and «◂ Назад» (the
// bot's own, pages.go), "subscribe", "unsubscribe" and "digest" for the subscriptions' buttons,
// "" for a question typed by a tap.
func buttonCommand(data string) string {
	switch {
	case strings.HasPrefix(data, "d:"):
		return "doc"
	case strings.HasPrefix(data, pagePrefix):
		return "page"
	case strings.HasPrefix(data, "base:"):
		// A /base button: the agent checks the base against the presser's own (ledger.BasePrefix).
		return "base"
	case strings.HasPrefix(data, "s:"):
		return "subscribe" // a kind of /subscribe (digest.SubscribePrefix)
	case strings.HasPrefix(data, "u:"):
		return "unsubscribe" // one subscription cancelled (digest.UnsubscribePrefix)
	case strings.HasPrefix(data, "n:"):
		return "digest" // a digest now (digest.DigestPrefix)
	case strings.HasPrefix(data, "b:"), strings.HasPrefix(data, "a:"), strings.HasPrefix(data, "x:"), strings.HasPrefix(data, "c:"), strings.HasPrefix(data, "t:"):
		// "b:" a drilldown, "a:" one of before, which the agent answers as stale (lane.Drill);
		// "t:" a question kept server-side (api.TextButtonPrefix).
		return "drill"
	}
	return ""
}

// callbackPrefix marks buttons that send their text back as a question.
const callbackPrefix = "q:"

func parseCallback(updateID int, cq *tgbotapi.CallbackQuery) (incoming, bool) {
	if cq.From == nil || cq.Message == nil || cq.Message.Chat == nil {
		return incoming{}, false
	}
	in := incoming{
		updateID:   int64(updateID),
		chatID:     cq.Message.Chat.ID,
		userID:     cq.From.ID,
		group:      cq.Message.Chat.Type == "group" || cq.Message.Chat.Type == "supergroup",
		callbackID: cq.ID,
		// What answers the press replies to in a group: the message the button was under.
		messageID: cq.Message.MessageID,
	}
	// Drilldown and export payloads go to the agent, which re-validates them. Anything else,
	// forged data included, is treated like a question typed by this user: it carries no
	// privilege the user did not already have.
	if cmd := buttonCommand(cq.Data); cmd != "" {
		in.command, in.text = cmd, cq.Data
		return in, true
	}
	in.text = strings.TrimSpace(dropControls(strings.TrimPrefix(cq.Data, callbackPrefix)))
	return in, true
}
