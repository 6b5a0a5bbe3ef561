package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/bot/tgmd"
)

// Documents users send: download, store, receipt, and a caption answered as a question.

// upload takes a document the user sent: download within Telegram's limit, hand it to the
// agent, send the receipt and remember which message it is. A caption is then answered as a
// question about that document.
func (c *core) upload(ctx context.Context, in incoming) error {
	if c.files == nil {
		c.reply(ctx, in, "Здесь файлы не принимаю. Загрузить документ можно в Telegram или командой `finbot docs add`.")
		return nil
	}
	req := api.Request{UserID: in.userID, ChatID: in.chatID, Group: in.group}
	asked := strings.TrimSpace(in.text) != ""
	receipt, err := c.receive(ctx, in, req, asked)
	if err != nil || receipt == nil {
		return err
	}
	// The caption's answer and the receipt are one message: the receipt, then the answer.
	req.Text, req.OnlyDoc = in.text, receipt.Receipt
	in.receipt = receipt
	if err := c.ask(ctx, in, req); err != nil {
		// No answer to join: the receipt alone says the file is kept.
		if serr := c.send(context.WithoutCancel(ctx), c.receiptOut(ctx, in, req, *receipt)); serr != nil {
			c.log.WarnContext(ctx, "send receipt", "chat_id", in.chatID, "err", serr)
		}
		return err
	}
	return nil
}

// receiptOut is the message of an upload's receipt (ans), remembered as the receipt once sent:
// a reply to it is a question about that document.
func (c *core) receiptOut(ctx context.Context, in incoming, req api.Request, ans api.Answer) outgoing {
	out := outgoing{chatID: in.chatID, parts: render(ans), buttons: ans.Buttons, answer: &ans}
	out.rich = richAnswer(ans, out.parts)
	if in.group {
		out.replyTo = in.messageID
	}
	if d := ans.Document; d != nil && len(d.Bytes) > 0 {
		// A file the upload brings back (a counterparty's act compared with ours: the matched
		// table), after the receipt.
		out.documents = append(out.documents, document{name: d.Name, caption: tgmd.Message{Text: d.Caption}, data: d.Bytes})
	}
	if ans.Receipt != "" {
		sctx := context.WithoutCancel(ctx)
		out.sent = func(messageID int) {
			if err := c.answerer.RememberReceipt(sctx, req, messageID, ans.Receipt); err != nil {
				c.log.WarnContext(sctx, "remember receipt", "chat_id", in.chatID, "err", err)
			}
		}
	}
	return out
}

// receive runs the upload in the user's slot and returns its receipt: the agent's answer, its
// Receipt the stored document's id. A refused file's answer is sent, and nil comes back; so is a
// receipt's, unless held (a caption is to be answered with it).
func (c *core) receive(ctx context.Context, in incoming, req api.Request, hold bool) (*api.Answer, error) {
	ctx, release, err := c.users.acquire(ctx, in.userID)
	if err != nil {
		return nil, err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, c.answerTimeout)
	defer cancel()
	defer c.startTyping(ctx, in.chatID)()

	f := api.File{Name: in.file.name, Size: in.file.size, Captioned: hold, MediaGroup: in.file.album}
	if f.Size <= api.MaxUploadBytes {
		data, err := c.files.fetch(ctx, in.file.id, api.MaxUploadBytes)
		switch {
		case errors.Is(err, errFileTooBig):
			f.Size = api.MaxUploadBytes + 1
		case err != nil:
			if cause := context.Cause(ctx); errors.Is(cause, errCanceled) {
				return nil, errCanceled
			}
			return nil, fmt.Errorf("%w: download: %w", errDownload, err)
		default:
			f.Data = data
		}
	}
	ans, err := c.answerer.Upload(ctx, req, f)
	if err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, errCanceled) {
			return nil, errCanceled
		}
		return nil, err
	}
	c.metrics.routes.WithLabelValues(string(ans.Scenario), string(ans.Kind)).Inc()
	c.clean(&ans)
	if hold && ans.Receipt != "" {
		return &ans, nil
	}
	if err := c.send(context.WithoutCancel(ctx), c.receiptOut(ctx, in, req, ans)); err != nil {
		return nil, err
	}
	return nil, nil
}
