package load

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/internal/fakes"
)

// handoffHeader carries the moment the bot's HTTP client was handed a request (Unix
// nanoseconds), set by the driver's wrapper around that client's transport (observe.go).
const handoffHeader = "X-Load-Handoff"

// newBotAPI starts the fake Bot API (internal/fakes) the bot long-polls, unrecorded (a run
// measures memory), its calls fed to rec: the updates each getUpdates hands out, every call
// that puts something in a chat (at receipt and at hand-off: Telegram counts attempts against
// its limits too, refused ones included), refusals, unknown methods and deletions.
func newBotAPI(rec *recorder) *fakes.BotAPI {
	return fakes.NewBotAPI(fakes.BotAPIOptions{Token: botToken, BotID: botID, Username: botUsername, Unrecorded: true,
		Observe: func(c fakes.Call) { observeCall(rec, c) }})
}

func observeCall(rec *recorder, c fakes.Call) {
	switch c.Method {
	case "getUpdates":
		rec.handedOut(c.Updates, time.Now())
	case "sendMessage", "sendRichMessage", "editMessageText", "sendPhoto", "sendDocument", "sendChatAction":
		var handoff time.Time
		if ns, err := strconv.ParseInt(c.Header.Get(handoffHeader), 10, 64); err == nil {
			handoff = time.Unix(0, ns)
		}
		chat, _ := strconv.ParseInt(c.Form["chat_id"], 10, 64)
		replyTo, text := 0, c.Form["text"]
		switch c.Method {
		case "sendMessage", "sendPhoto", "sendDocument":
			replyTo, _ = strconv.Atoi(c.Form["reply_to_message_id"])
		case "sendRichMessage": // an answer with a table: it replies with reply_parameters
			var p struct {
				MessageID int `json:"message_id"`
			}
			json.Unmarshal([]byte(c.Form["reply_parameters"]), &p)
			replyTo, text = p.MessageID, fakes.RichMessageText(c.Form["rich_message"])
		}
		switch c.Method {
		case "sendPhoto", "sendDocument":
			text = "[" + c.Method + "] " + c.Form["caption"]
		case "sendChatAction":
			text = ""
		}
		rec.sent(c.Arrived, handoff, c.Method, chat, replyTo, text)
	}
	switch {
	case c.Status == http.StatusBadRequest:
		rec.reject(c.Method, c.Description)
	case c.Status == http.StatusNotFound:
		rec.unknownMethod(c.Method)
	case c.Status == http.StatusOK && c.Method == "deleteMessage":
		rec.deleted()
	}
}

// push queues m as a Telegram update from its user; the fake gives it its update_id and the
// chat's next message_id, and rec registers it before getUpdates can hand it out. A message
// with a document carries it (to be fetched with getFile), its text as the caption.
func push(tg *fakes.BotAPI, rec *recorder, m *message) {
	t := fakes.Text{ChatID: m.chat.id, ChatType: "private", Title: m.chat.title, UserID: m.user.id,
		FirstName: fmt.Sprintf("Бухгалтер %d", m.user.id), Text: m.text,
		Queued: func(u, id int) { m.updateID, m.messageID = u, id; rec.queued(m) }}
	if m.chat.group {
		t.ChatType = "supergroup"
	}
	if d := m.upload; d != nil {
		id := fmt.Sprintf("load-file-%d", m.idx)
		tg.AddFile(id, d.data)
		t.Document = &tgbotapi.Document{FileID: id, FileUniqueID: "u" + id, FileName: d.name, MimeType: d.mime, FileSize: len(d.data)}
	}
	tg.Say(t)
}
