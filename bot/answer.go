package bot

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/finbot/finbot/bot/tgmd"

	"github.com/finbot/finbot/agent/api"
)

// Questions and agent commands: the agent's answer, streamed where the front end can, then
// delivered.

// answer runs a question through the agent.
func (c *core) answer(ctx context.Context, in incoming) error {
	if strings.TrimSpace(in.text) == "" {
		if in.group {
			c.reply(ctx, in, "Я здесь. Напишите вопрос в том же сообщении, что и упоминание, — например, «кто нам должен на 31 марта?».")
			return nil
		}
		return api.ErrEmpty
	}
	return c.ask(ctx, in, api.Request{UserID: in.userID, ChatID: in.chatID, Group: in.group, Text: in.text, ReplyTo: in.replyTo})
}

// ask runs one agent request, one per user at a time, with the "typing…" indicator on while
// it is prepared, and delivers the answer (text, then its chart).
func (c *core) ask(ctx context.Context, in incoming, req api.Request) error {
	ctx, release, err := c.users.acquire(ctx, in.userID)
	if err != nil {
		return err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, c.answerTimeout)
	defer cancel()

	// "typing…" stays on until the reply is delivered: under load the reply may wait for
	// Telegram's send budget well after the answer is ready.
	stopTyping := c.startTyping(ctx, in.chatID)
	defer stopTyping()
	if req.ReplyTo == 0 {
		req.ReplyTo = in.replyTo
	}
	// The answer shows up while it is written, where the front end can edit messages.
	s := c.newStreamer(ctx, in)
	if s != nil {
		req.Progress = func(text string) { s.progress(c.redact(text)) }
		if s.nd != nil {
			// A press on the draft's stop button stops this answer (stop.go).
			c.users.drafting(in.userID, in.chatID, s.nativeID)
		}
	}
	defer s.stop()
	ans, err := c.answerer.Answer(ctx, req)
	s.stop()
	if err != nil {
		s.discard(context.WithoutCancel(ctx)) // a partial text must not stand as the answer
		if cause := context.Cause(ctx); errors.Is(cause, errCanceled) {
			return errCanceled
		}
		return err
	}
	c.metrics.routes.WithLabelValues(string(ans.Scenario), string(ans.Kind)).Inc()
	c.clean(&ans)
	if in.heard != "" {
		ans.Text = heardLine(c.redact(in.heard)) + "\n\n" + ans.Text
	}
	var remember func(int)
	if r := in.receipt; r != nil {
		// An upload's caption: the receipt and the answer in one message, remembered as the
		// receipt (a reply to it asks about the file).
		ans.Text = strings.TrimSpace(r.Text) + "\n\n" + ans.Text
		ans.Buttons = append(ans.Buttons, r.Buttons...)
		remember = c.receiptOut(ctx, in, req, *r).sent
	}
	out := outgoing{chatID: in.chatID, parts: render(ans), buttons: ans.Buttons, answer: &ans, sent: remember}
	if ans.Chart != nil && len(ans.Chart.PNG) > 0 {
		out.photo = &photo{png: ans.Chart.PNG, caption: caption(ans.Chart.Caption)}
	}
	if d := ans.Document; d != nil && len(d.Bytes) > 0 {
		doc := document{name: d.Name, caption: tgmd.Message{Text: d.Caption}, data: d.Bytes}
		// A file with a short answer is one message: the file, the answer as its caption
		// («Выгрузка в Excel: 18 строк, …»), replying to the answer whose button asked for it.
		text := markdown(ans)
		if d.Caption != "" {
			text += "\n\n" + api.EscapeMarkdown(d.Caption)
		}
		whole := tgmd.Convert(text)
		if len(out.parts) == 1 && len(out.buttons) == 0 && out.photo == nil && tgmd.UTF16Len(whole.Text) <= maxCaptionUnits {
			doc.caption, out.parts = whole, nil
			if in.callbackID != "" {
				out.replyTo = in.messageID
			}
		}
		out.documents = append(out.documents, doc)
	}
	if c.debugOn(in.chatID) && c.access.isAdmin(in.userID) && ans.Debug.Trace["ledger"] != nil {
		if data, err := json.MarshalIndent(ans.Debug, "", "  "); err == nil {
			out.documents = append(out.documents, document{name: "debug.json", caption: tgmd.Message{Text: "debug: " + ans.Recipe}, data: []byte(c.redact(string(data)))})
		}
	}
	if in.group && out.replyTo == 0 {
		out.replyTo = in.messageID
	}
	out.rich = richAnswer(ans, out.parts) // a table as Telegram's own, where it takes one
	if len(out.buttons) == 0 && out.photo == nil && out.sent == nil {
		// A press's answer in a group goes to the presser only (ephemeral.go); one with buttons
		// stays in the group, where pressing them works.
		out.ephemeral = toPresser(in)
	}
	if r, ok := c.answerer.(answerRememberer); ok && out.sent == nil && out.ephemeral == nil && ans.State != nil && len(ans.State.Listed) > 0 {
		// A list of companies: a reply to it («карточка 3») continues this answer.
		sctx := context.WithoutCancel(ctx)
		out.sent = func(messageID int) {
			if err := r.RememberAnswer(sctx, req, messageID, ans); err != nil {
				c.log.WarnContext(sctx, "remember answer", "chat_id", in.chatID, "err", err)
			}
		}
	}
	// The answer is ready: deliver it even if the user cancels now or the deadline passes (and
	// /cancel says there is nothing left to stop).
	c.users.sendingAnswer(in.userID)
	err = c.sendAnswer(context.WithoutCancel(ctx), out, s)
	stopTyping()
	return err
}
