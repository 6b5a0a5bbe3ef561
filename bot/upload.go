package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/api"
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
	docID, err := c.receive(ctx, in, req)
	if err != nil || docID == "" || strings.TrimSpace(in.text) == "" {
		return err
	}
	req.Text, req.OnlyDoc = in.text, docID
	return c.ask(ctx, in, req)
}

// receive runs the upload in the user's slot and returns the stored document's id ("" when
// the file was refused).
func (c *core) receive(ctx context.Context, in incoming, req api.Request) (string, error) {
	ctx, release, err := c.users.acquire(ctx, in.userID)
	if err != nil {
		return "", err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, c.answerTimeout)
	defer cancel()
	defer c.startTyping(ctx, in.chatID)()

	f := api.File{Name: in.file.name, Size: in.file.size}
	if f.Size <= api.MaxUploadBytes {
		data, err := c.files.fetch(ctx, in.file.id, api.MaxUploadBytes)
		switch {
		case errors.Is(err, errFileTooBig):
			f.Size = api.MaxUploadBytes + 1
		case err != nil:
			if cause := context.Cause(ctx); errors.Is(cause, errCanceled) {
				return "", errCanceled
			}
			return "", fmt.Errorf("%w: download: %w", errDownload, err)
		default:
			f.Data = data
		}
	}
	ans, err := c.answerer.Upload(ctx, req, f)
	if err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, errCanceled) {
			return "", errCanceled
		}
		return "", err
	}
	c.metrics.routes.WithLabelValues(string(ans.Scenario), string(ans.Kind)).Inc()
	c.clean(&ans)
	out := outgoing{chatID: in.chatID, parts: render(ans), buttons: ans.Buttons, answer: &ans}
	if in.group {
		out.replyTo = in.messageID
	}
	if ans.Receipt != "" {
		sctx := context.WithoutCancel(ctx)
		out.sent = func(messageID int) {
			if err := c.answerer.RememberReceipt(sctx, req, messageID, ans.Receipt); err != nil {
				c.log.WarnContext(sctx, "remember receipt", "chat_id", in.chatID, "err", err)
			}
		}
	}
	if err := c.send(context.WithoutCancel(ctx), out); err != nil {
		return "", err
	}
	return ans.Receipt, nil
}
