package agent

// What the front ends ask of the agent besides answers: uploads and their receipts, inline
// offers (the vocabulary is agent/api's).

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/llm"
)

// query is who asks, as a skill receives it.
func query(r api.Request) skill.Query {
	return skill.Query{UserID: r.UserID, ChatID: r.ChatID, Group: r.Group}
}

// Upload adds a file to the requester's library and returns the receipt (or the reason it was
// refused), which the dialog remembers as «[файл] name». The front end remembers the receipt
// message with RememberReceipt.
func (a *Agent) Upload(ctx context.Context, req api.Request, f api.File) (api.Answer, error) {
	if a.docs == nil {
		return api.Answer{Text: "Загрузка документов в этой установке не подключена."}, nil
	}
	in := turn{req: req, text: "[файл] " + f.Name, start: a.now(), usage: new(llm.Usage)}
	rep, err := a.docs.Upload(ctx, query(req), f)
	if err != nil {
		return api.Answer{}, err
	}
	if rep.Receipt != "" {
		in.key = conversation(req)
	}
	ans := reply(rowOf(understand.KindDocs), rep, api.Route{Source: "command", Sure: true})
	ans.Scenario, ans.Kind = api.Command, "upload"
	return a.exit(ctx, in, ans, nil)
}

// RememberReceipt records that the bot's message messageID is the receipt of document id, so
// that replying to it selects the document.
func (a *Agent) RememberReceipt(ctx context.Context, req api.Request, messageID int, id string) error {
	if a.docs == nil {
		return nil
	}
	return a.docs.RememberReceipt(ctx, query(req), messageID, id)
}

// RememberAnswer records that the bot's message messageID carries ans, so that a reply to that
// message continues it, whatever was asked since: «карточка 3» or «подробнее» in reply to a
// debts list asks for a company of that list, on that list's day. Only an answer that lists
// companies is remembered (its dialog state, in the chat's scope, as long as its buttons).
func (a *Agent) RememberAnswer(ctx context.Context, req api.Request, messageID int, ans api.Answer) error {
	if ans.State == nil || len(ans.State.Listed) == 0 || messageID == 0 {
		return nil
	}
	data, err := json.Marshal(ans.State)
	if err != nil {
		return fmt.Errorf("remember answer: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, a.long.Timeout)
	defer cancel()
	if err := a.long.Store.Put(sctx, answerKey(req.ChatID, messageID), data); err != nil {
		return fmt.Errorf("remember answer: %w", err)
	}
	return nil
}

// replied is the dialog state of the bot's answer req replies to, when the bot remembered it
// (RememberAnswer); marked Replied. A store that fails costs the reply its context only.
func (a *Agent) replied(ctx context.Context, req api.Request) (understand.State, bool) {
	if req.ReplyTo == 0 {
		return understand.State{}, false
	}
	sctx, cancel := context.WithTimeout(ctx, a.long.Timeout)
	defer cancel()
	data, ok, err := a.long.Store.Get(sctx, answerKey(req.ChatID, req.ReplyTo))
	if err != nil {
		a.log.WarnContext(ctx, "replied answer not read", "chat_id", req.ChatID, "err", err)
		return understand.State{}, false
	}
	var st understand.State
	if !ok || json.Unmarshal(data, &st) != nil || st.Kind == "" {
		return understand.State{}, false
	}
	st.Replied = true
	return st, true
}

// answerKey is the store key of an answer the bot sent as messageID, in the chat's scope.
func answerKey(chatID int64, messageID int) string {
	return fmt.Sprintf("chat:%d:answer:%d", chatID, messageID)
}

// Inline answers an inline query with today's Bank of Russia rates and the key rate. The
// offers leave through the same link check as answers: a bare link in a text the Bank sent is
// made unclickable (its own page stays a Markdown link).
func (a *Agent) Inline(ctx context.Context, q string) ([]api.InlineResult, error) {
	var out []api.InlineResult
	if a.cbr != nil {
		for _, o := range a.cbr.Offers(ctx, q) {
			o.Text = postcheck.Defang(o.Text, nil)
			out = append(out, api.InlineResult(o))
		}
	}
	return out, nil
}
