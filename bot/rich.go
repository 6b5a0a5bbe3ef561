package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/bot/tgmd"
)

// Tables as Telegram's own (Bot API 10.1's rich messages): an answer whose Markdown has a table
// goes as one sendRichMessage — its paragraphs, lists and quotations as blocks, the table as a
// table block (tgmd.ConvertRich) — with its keyboard (reply_markup), in a group replying to the
// question (reply_parameters: sendRichMessage has no reply_to_message_id), to one member where
// a press's answer goes to the presser only (ephemeral_message_parameters). Wire format:
// testdata/send_rich_message.md.
//
// Where Telegram refuses it (400, 404 from a Bot API older than 10.1, or an answer that is no
// Bot API object), the answer goes as text, its table a monospace block (tgmd.Convert). When that
// text is taken as the rich message was offered — to the same chat or member, with the same
// keyboard — the refusal was the rich message's: answers go as text from then on, until the
// process restarts. A refusal the text meets too (a chat that is gone) says nothing about rich
// messages, and the next table is offered as one again.
//
// Only an answer that fits one text message is offered: the limits of a rich message are not in
// the documentation the project has, and a refusal for size would turn rich messages off. An
// answer streamed with edits (the Bot API refused drafts, or STREAM_MODE=edit) ends as the
// edited text: the message the user watched grow becomes the answer; a Bot API without drafts
// (Bot API 9.5) has no rich messages (10.1) either. A native draft ends as any message does: the
// rich message takes its place.

// richAnswer is ans as a rich message when its Markdown has a table and its text fits one
// message (parts): nil otherwise.
func richAnswer(ans api.Answer, parts []tgmd.Message) *tgmd.RichMessage {
	if len(parts) != 1 {
		return nil
	}
	m, ok := tgmd.ConvertRich(markdown(ans))
	if !ok {
		return nil
	}
	return &m
}

// sendRich sends out's rich message, with kb under it.
func (b *Bot) sendRich(ctx context.Context, out outgoing, kb *inlineKeyboard) (int, error) {
	cfg := tgbotapi.NewMessage(out.chatID, "")
	cfg.ReplyToMessageID, cfg.AllowSendingWithoutReply = out.replyTo, out.replyTo != 0
	req := extended{Chattable: cfg, rich: out.rich, ephemeral: out.ephemeral, markup: kb}
	return b.deliver(ctx, out.chatID, req, nil)
}

// richRefused reports whether err is Telegram refusing a rich message, which the text may get
// past: a 400, a 404 (no such method), or an answer that is no Bot API object.
func richRefused(err error) bool {
	e, ok := apiError(err)
	return ok && (e.Code == http.StatusBadRequest || e.Code == http.StatusNotFound || e.Code == 0)
}

// noteRichRefusal records that Telegram refused a rich message (err) and the answer went as
// text; sameWay says the text went as the rich message was offered, so the refusal was the rich
// message's: answers go as text from now on.
func (b *Bot) noteRichRefusal(ctx context.Context, chatID int64, err error, sameWay bool) {
	if !sameWay {
		b.log.InfoContext(ctx, "telegram refused a rich message; the answer went as text", "chat_id", chatID, "err", err)
		return
	}
	if b.noRich.CompareAndSwap(false, true) {
		b.core.metrics.errors.WithLabelValues("rich_refused").Inc()
		b.log.WarnContext(ctx, "telegram refused a rich message: answers go as text from now on", "chat_id", chatID, "err", err)
	}
}

// isRich reports whether c is a rich message.
func isRich(c tgbotapi.Chattable) bool {
	x, ok := c.(extended)
	return ok && x.rich != nil
}

// replyParameters is the Bot API's ReplyParameters, as far as finbot replies.
type replyParameters struct {
	MessageID                int  `json:"message_id"`
	AllowSendingWithoutReply bool `json:"allow_sending_without_reply,omitempty"`
}

// sendRichMessage writes x's message config as sendRichMessage: its chat, its reply as
// reply_parameters, its keyboard (or x's), x's ephemeral delivery, and the rich message instead
// of the text.
func (x extended) sendRichMessage(api *tgbotapi.BotAPI) (*tgbotapi.APIResponse, error) {
	c, ok := x.Chattable.(tgbotapi.MessageConfig)
	if !ok {
		return nil, fmt.Errorf("telegram: %T cannot be a rich message", x.Chattable)
	}
	params := make(tgbotapi.Params)
	errs := []error{params.AddFirstValid("chat_id", c.ChatID, c.ChannelUsername)}
	params.AddBool("disable_notification", c.DisableNotification)
	errs = append(errs, params.AddInterface("rich_message", x.rich))
	if c.ReplyToMessageID != 0 && x.ephemeral == nil {
		errs = append(errs, params.AddInterface("reply_parameters",
			replyParameters{MessageID: c.ReplyToMessageID, AllowSendingWithoutReply: c.AllowSendingWithoutReply}))
	}
	markup := c.ReplyMarkup
	if x.markup != nil {
		markup = x.markup
	}
	errs = append(errs, params.AddInterface("reply_markup", markup))
	if x.ephemeral != nil {
		errs = append(errs, params.AddInterface("ephemeral_message_parameters", x.ephemeral))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("telegram: sendRichMessage: %w", err)
	}
	return api.MakeRequest("sendRichMessage", params)
}
