package bot

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// The Telegram side of streaming: native drafts; plain draft messages, their edits, and the
// final formatted edit.
var (
	_ drafter       = (*Bot)(nil)
	_ nativeDrafter = (*Bot)(nil)
)

// errBusy: no draft while the send budget is in use.
var errBusy = errors.New("bot: sends are queueing; no draft")

// sendDraft shows text as the native draft draftID in a private chat (sendMessageDraft; the
// library predates it, so a raw request). A draft is no message: it costs nothing of the send
// budget.
//
// The draft offers the user a stop button (can_stop, Bot API 10.3), whose press stops the answer
// as /cancel does (stop.go). keep_on_stop is left false: the draft goes with the press, because
// a half-written answer must not stand in the chat as if it were one (after a /cancel the bot
// deletes its partial edits for the same reason); the reply «Остановил подготовку ответа.» takes
// its place. A Bot API that refuses can_stop (400; an older server ignores it) gets drafts without
// it from then on: the answer still streams, and /cancel still stops it.
func (b *Bot) sendDraft(ctx context.Context, chatID int64, draftID int, text string) error {
	params := map[string]string{"chat_id": strconv.FormatInt(chatID, 10), "draft_id": strconv.Itoa(draftID), "text": text}
	natives := &b.core.natives
	if natives.noStop.Load() {
		_, err := b.tg.call(ctx, "sendMessageDraft", params)
		return err
	}
	params["can_stop"] = "true"
	_, err := b.tg.call(ctx, "sendMessageDraft", params)
	if e, ok := apiError(err); !ok || e.Code != http.StatusBadRequest {
		return err
	}
	delete(params, "can_stop")
	if _, err := b.tg.call(ctx, "sendMessageDraft", params); err != nil {
		return err // drafts themselves are refused: native.go decides
	}
	if natives.noStop.CompareAndSwap(false, true) {
		b.log.WarnContext(ctx, "sendMessageDraft refused can_stop: drafts without a stop button from now on", "chat_id", chatID, "err", err)
	}
	return nil
}

// draft sends a plain message, within the chat's send budget.
func (b *Bot) draft(ctx context.Context, chatID int64, replyTo int, text string) (int, error) {
	cfg := tgbotapi.NewMessage(chatID, text)
	cfg.DisableWebPagePreview = true
	if replyTo != 0 {
		cfg.ReplyToMessageID = replyTo
		cfg.AllowSendingWithoutReply = true
	}
	// A draft is a nicety: while answers queue for the send budget it would only delay them
	// (and the final edit after it costs another send), so none is sent then.
	if !b.limits.idle(chatID) {
		return 0, errBusy
	}
	if err := b.limits.wait(ctx, chatID); err != nil {
		return 0, err
	}
	return b.tg.send(ctx, cfg)
}

// redraft edits a draft once, within the chat's send budget; the streamer decides about
// retries.
func (b *Bot) redraft(ctx context.Context, chatID int64, messageID int, text string) error {
	cfg := tgbotapi.NewEditMessageText(chatID, messageID, text)
	cfg.DisableWebPagePreview = true
	if !b.limits.idle(chatID) {
		return errBusy // skipped: the final answer will show the text anyway
	}
	if err := b.limits.wait(ctx, chatID); err != nil {
		return err
	}
	if _, err := b.tg.send(ctx, cfg); err != nil && !isNotModified(err) {
		return err
	}
	return nil
}

// sendOver turns the draft into the first part of the formatted reply (with the keyboard when
// it is also the last part) and sends the rest as usual. If the edit fails, the reply is sent
// as new messages (a rich message, for a table: rich.go) and the stale draft deleted. The edit
// is of text: the message the user watched grow becomes the answer, its table a monospace one.
func (b *Bot) sendOver(ctx context.Context, out outgoing, messageID int) error {
	if len(out.parts) == 0 {
		b.discard(ctx, out.chatID, messageID)
		return b.send(ctx, out)
	}
	p, single := out.parts[0], len(out.parts) == 1
	cfg := tgbotapi.NewEditMessageText(out.chatID, messageID, p.Text)
	cfg.Entities = toEntities(p.Entities)
	cfg.DisableWebPagePreview = true
	var kb *inlineKeyboard
	if single {
		kb = b.keyboardFor(ctx, out.chatID, out.buttons)
	}
	edit := func() tgbotapi.Chattable {
		if kb == nil {
			return cfg
		}
		return extended{Chattable: cfg, markup: kb} // the library's edit has no button styles
	}
	plain := func() tgbotapi.Chattable { cfg.Entities = nil; return edit() }
	_, err := b.deliver(ctx, out.chatID, edit(), plain)
	switch {
	case err == nil || isNotModified(err):
		b.core.metrics.streamEdits.Inc()
	case errors.Is(err, errBlocked):
		return nil
	case ctx.Err() != nil:
		return err
	default:
		b.core.metrics.errors.WithLabelValues("stream_final_edit").Inc()
		b.log.WarnContext(ctx, "streaming: final edit failed; sending the answer anew",
			"chat_id", out.chatID, "message_id", messageID, "err", err)
		if err := b.send(ctx, out); err != nil {
			return err
		}
		b.discard(ctx, out.chatID, messageID)
		return nil
	}
	if single && out.sent != nil {
		out.sent(messageID)
	}
	rest := out
	rest.parts, rest.replyTo, rest.rich = out.parts[1:], 0, nil // the draft already is the reply
	return b.send(ctx, rest)
}

// discard deletes a message the bot sent; a message that is already gone is fine.
func (b *Bot) discard(ctx context.Context, chatID int64, messageID int) {
	if err := b.tg.request(ctx, tgbotapi.NewDeleteMessage(chatID, messageID)); err != nil {
		b.log.DebugContext(ctx, "deleteMessage failed", "chat_id", chatID, "message_id", messageID, "err", err)
	}
}

// isNotModified reports Telegram's answer to an edit that changes nothing.
func isNotModified(err error) bool {
	e, ok := apiError(err)
	// Telegram's only signal is its description text ("Bad Request: message is not modified: …").
	return ok && e.Code == http.StatusBadRequest && containsFold(e.Message, "message is not modified")
}
