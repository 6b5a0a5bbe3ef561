package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/bot/tgmd"
)

// Sending: a reply's parts, documents and chart delivered within Telegram's limits, with retries.

// send delivers every part of a reply in order, then its documents and chart, within
// Telegram's limits. In a group the first message sent replies to out.replyTo. Once text was
// delivered, a later part or a file Telegram will not take does not undo it: the user is told
// in a line what is missing, and the reply counts as delivered.
func (b *Bot) send(ctx context.Context, out outgoing) error {
	replyTo, to, parts := out.replyTo, out.ephemeral, out.parts
	ignoreBlocked := ignoreBlocked
	if out.unasked {
		ignoreBlocked = func(err error) error { return err } // the scheduler unsubscribes the chat
	}
	// The keyboard goes under the last message of the text; it is made once (keyboardFor keeps
	// its pages), whether the rich message or the text carries it.
	var kb *inlineKeyboard
	kbMade := false
	keyboard := func() *inlineKeyboard {
		if !kbMade {
			kb, kbMade = b.keyboardFor(ctx, out.chatID, out.buttons), true
		}
		return kb
	}
	// An answer with a table goes as a rich message (rich.go); where Telegram refuses it, as text.
	var richRefusal error
	styles := b.noStyles.Load()
	if out.rich != nil && len(parts) == 1 && !b.noRich.Load() {
		id, err := b.sendRich(ctx, out, keyboard())
		switch {
		case err == nil:
			if out.sent != nil {
				out.sent(id)
			}
			parts, replyTo = nil, 0
		case richRefused(err) && ctx.Err() == nil:
			richRefusal = err
		default:
			return ignoreBlocked(err)
		}
	}
	for i, p := range parts {
		cfg := tgbotapi.NewMessage(out.chatID, p.Text)
		cfg.DisableWebPagePreview = true
		cfg.Entities = toEntities(p.Entities)
		cfg.ReplyToMessageID, cfg.AllowSendingWithoutReply = replyTo, replyTo != 0
		last := i == len(parts)-1
		var kb *inlineKeyboard
		if last {
			if kb = keyboard(); kb != nil {
				cfg.ReplyMarkup = kb
			}
		}
		plain := func() tgbotapi.Chattable { cfg.Entities = nil; return cfg }
		id, err := b.deliverTo(ctx, out.chatID, &to, cfg, plain)
		if refused := err; kb.styled() && badRequest(refused) && ctx.Err() == nil {
			// Perhaps only the buttons' styles were refused: the same message without them.
			cfg.ReplyMarkup = kb.unstyled()
			if id, err = b.deliverTo(ctx, out.chatID, &to, cfg, plain); err == nil {
				b.refuseStyles(ctx, out.chatID, refused)
			}
		}
		if i == 0 && richRefusal != nil {
			// The text went where the rich message did not: rich messages were refused unless the
			// text had to go otherwise too (to the whole group, without button styles) or not at all.
			sameWay := err == nil && (to == nil) == (out.ephemeral == nil) && b.noStyles.Load() == styles
			b.noteRichRefusal(ctx, out.chatID, richRefusal, sameWay)
		}
		if err != nil && i > 0 {
			// The first parts are out: «что-то пошло не так при подготовке ответа» would be
			// wrong, and sending the whole answer again would repeat them. The user is told the
			// answer is cut short.
			return b.attached(ctx, out.chatID, to, true, "Ответ пришёл не полностью: Telegram не принял его продолжение. "+
				"Повторите вопрос или сузьте его, если нужна остальная часть.", err)
		}
		if err != nil {
			return ignoreBlocked(err)
		}
		replyTo = 0
		if last && out.sent != nil {
			out.sent(id)
		}
	}
	texted := len(out.parts) > 0
	for _, d := range out.documents {
		dc := tgbotapi.NewDocument(out.chatID, tgbotapi.FileBytes{Name: d.name, Bytes: d.data})
		dc.Caption, dc.CaptionEntities = d.caption.Text, toEntities(d.caption.Entities)
		dc.ReplyToMessageID, dc.AllowSendingWithoutReply = replyTo, replyTo != 0
		plain := func() tgbotapi.Chattable { dc.CaptionEntities = nil; return dc }
		_, err := b.deliverTo(ctx, out.chatID, &to, dc, plain)
		if err != nil && !texted && d.caption.Text != "" && !errors.Is(err, errBlocked) && ctx.Err() == nil {
			// The file carried the answer in its caption: the answer comes as text, and the
			// note says the file did not.
			cfg := tgbotapi.NewMessage(out.chatID, d.caption.Text)
			cfg.Entities = toEntities(d.caption.Entities)
			cfg.ReplyToMessageID, cfg.AllowSendingWithoutReply = replyTo, replyTo != 0
			if _, terr := b.deliverTo(ctx, out.chatID, &to, cfg, func() tgbotapi.Chattable { cfg.Entities = nil; return cfg }); terr == nil {
				texted = true
			}
		}
		if err = b.attached(ctx, out.chatID, to, texted, "Не получилось отправить файл «"+d.name+"».", err); err != nil {
			return ignoreBlocked(err)
		}
		replyTo = 0
	}
	if out.photo != nil {
		pc := tgbotapi.NewPhoto(out.chatID, tgbotapi.FileBytes{Name: "chart.png", Bytes: out.photo.png})
		pc.Caption = out.photo.caption.Text
		pc.CaptionEntities = toEntities(out.photo.caption.Entities)
		pc.ReplyToMessageID, pc.AllowSendingWithoutReply = replyTo, replyTo != 0
		plain := func() tgbotapi.Chattable { pc.CaptionEntities = nil; return pc }
		_, err := b.deliver(ctx, out.chatID, pc, plain)
		if err = b.attached(ctx, out.chatID, to, texted, "Не получилось отправить график.", err); err != nil {
			return ignoreBlocked(err)
		}
	}
	return nil
}

// attached settles the outcome of a file sent after a reply's text. Without text before it
// the file is the reply, and its error is the reply's. After delivered text the error is logged
// here (ERROR when Telegram refused the file as malformed: that is ours to fix), the user gets a
// note instead of the file, and nil comes back: the text stands, and the conversation goes on.
func (b *Bot) attached(ctx context.Context, chatID int64, to *ephemeral, texted bool, note string, err error) error {
	if err == nil || !texted || errors.Is(err, errBlocked) || ctx.Err() != nil {
		return err
	}
	b.core.metrics.errors.WithLabelValues("send_file").Inc()
	level := slog.LevelWarn
	if !errors.Is(err, errTelegramDown) {
		level = slog.LevelError
	}
	b.log.Log(ctx, level, "part of a reply not delivered after its first text", "chat_id", chatID, "err", err)
	cfg := tgbotapi.NewMessage(chatID, note)
	if _, err := b.deliverTo(ctx, chatID, &to, cfg, func() tgbotapi.Chattable { return cfg }); err != nil {
		b.log.DebugContext(ctx, "note of a missing file not delivered", "chat_id", chatID, "err", err)
	}
	return nil
}

func ignoreBlocked(err error) error {
	if errors.Is(err, errBlocked) {
		return nil
	}
	return err
}

// deliverTo is deliver for a message of a reply that *to, when set, delivers to one member of a
// group (ephemeral.go). Where Telegram refuses that (400), the message goes to the chat as
// configured (replying to the pressed button's message in a group), and *to is cleared: the rest
// of the reply follows it there.
func (b *Bot) deliverTo(ctx context.Context, chatID int64, to **ephemeral, c tgbotapi.Chattable, plain func() tgbotapi.Chattable) (int, error) {
	if *to == nil {
		return b.deliver(ctx, chatID, c, plain)
	}
	eph := *to
	id, err := b.deliver(ctx, chatID, extended{Chattable: c, ephemeral: eph},
		func() tgbotapi.Chattable { return extended{Chattable: plain(), ephemeral: eph} })
	if e, ok := apiError(err); !ok || e.Code != http.StatusBadRequest || ctx.Err() != nil {
		return id, err
	}
	b.core.metrics.errors.WithLabelValues("ephemeral_refused").Inc()
	b.log.WarnContext(ctx, "telegram refused a message to one member; sending it to the chat", "chat_id", chatID, "err", err)
	*to = nil
	return b.deliver(ctx, chatID, c, plain)
}

// refuseStyles records that the Bot API refused a keyboard with styles (err) and took it without
// them: keyboards go without styles from now on.
func (b *Bot) refuseStyles(ctx context.Context, chatID int64, err error) {
	if b.noStyles.CompareAndSwap(false, true) {
		b.core.metrics.errors.WithLabelValues("styles_refused").Inc()
		b.log.WarnContext(ctx, "telegram refused button styles: keyboards without them from now on", "chat_id", chatID, "err", err)
	}
}

// badRequest reports a 400 other than one about the text's formatting (deliver sends that plain).
func badRequest(err error) bool {
	e, ok := apiError(err)
	return ok && e.Code == http.StatusBadRequest && !isParseError(e.Message)
}

// errBlocked means the user blocked the bot (or removed it from the group): nothing more can be
// delivered. It is api.ErrBlocked, for what was delivered unasked.
var errBlocked = fmt.Errorf("bot: blocked by the user: %w", api.ErrBlocked)

// errTelegramDown marks a send that failed on Telegram's side (server or transport errors,
// flood control) every time it was tried.
var errTelegramDown = errors.New("bot: telegram unavailable")

const maxSendAttempts = 5

// deliver sends one message, document or photo: it waits for the chat's and the global send
// budget, waits out 429s, resends without formatting when Telegram cannot parse it (plain
// builds that version; a rich message has none), drops what a user who blocked the bot can't
// receive, and retries server and transport errors. Other client errors (400: a request of
// ours Telegram will never take) are not retried.
func (b *Bot) deliver(ctx context.Context, chatID int64, c tgbotapi.Chattable, plain func() tgbotapi.Chattable) (int, error) {
	formatted := plain != nil
	for attempt := 1; ; attempt++ {
		if err := b.limits.wait(ctx, chatID); err != nil {
			return 0, err
		}
		id, err := b.tg.send(ctx, c)
		if err == nil {
			return id, nil
		}
		if ctx.Err() != nil {
			return 0, err
		}
		var pause time.Duration
		e, isAPI := apiError(err)
		switch {
		case isAPI && e.Code == http.StatusTooManyRequests:
			pause = time.Duration(max(e.RetryAfter, 1)) * time.Second
			b.core.metrics.errors.WithLabelValues("telegram_429").Inc()
			b.log.WarnContext(ctx, "telegram flood control", "chat_id", chatID, "retry_after", pause)
		case isAPI && e.Code == http.StatusBadRequest && formatted && isParseError(e.Message):
			b.log.WarnContext(ctx, "telegram rejected formatting; sending plain", "chat_id", chatID, "err", err)
			c, formatted = plain(), false
		case isAPI && e.Code == http.StatusForbidden:
			b.log.InfoContext(ctx, "cannot deliver: bot blocked or removed", "chat_id", chatID, "err", err)
			return 0, errBlocked
		case isAPI && e.Code == 0 && isRich(c):
			// No Bot API object (an emulator's "method not supported"): refused, not down.
			return 0, err
		case isAPI && e.Code >= 400 && e.Code < 500:
			return 0, err
		default: // 5xx, transport errors
			pause = backoff(attempt)
		}
		if attempt >= maxSendAttempts {
			return 0, fmt.Errorf("%w: %d attempts: %w", errTelegramDown, attempt, err)
		}
		sleep(ctx, pause)
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
