package fakes

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// The Bot API methods that change what a chat shows, and the updates the bot polls for.

// Telegram's limits, in UTF-16 code units after entities parsing (wire-formats.md §3.3).
const (
	maxText    = 4096
	maxCaption = 1024
)

// check rejects what Telegram rejects: an empty or over-long text, entities outside the text.
func check(text, entities string, limit int) string {
	n := utf16Len(text)
	switch {
	case strings.TrimSpace(text) == "" && limit == maxText:
		return "Bad Request: message text is empty"
	case n > limit && limit == maxCaption:
		return "Bad Request: message caption is too long"
	case n > limit:
		return "Bad Request: message is too long"
	}
	if entities == "" || entities == "null" {
		return ""
	}
	var ents []tgbotapi.MessageEntity
	if err := json.Unmarshal([]byte(entities), &ents); err != nil {
		return "Bad Request: can't parse entities JSON object"
	}
	for _, e := range ents {
		if e.Offset < 0 || e.Length <= 0 || e.Offset+e.Length > n {
			return fmt.Sprintf("Bad Request: can't parse entities: entity %s at %d+%d is outside the text of %d units", e.Type, e.Offset, e.Length, n)
		}
	}
	return ""
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// shows is what editMessageText compares: an edit that changes none of it is refused.
func shows(text, entities, markup string) string { return text + "\x00" + entities + "\x00" + markup }

func (f *BotAPI) send(method string, form map[string]string, upload []byte) reply {
	chat, found := chatID(form)
	if !found {
		return fail(http.StatusBadRequest, "Bad Request: chat not found")
	}
	m := Message{Method: method, ChatID: form["chat_id"], Text: form["text"], Entities: form["entities"],
		ReplyTo: form["reply_to_message_id"], Markup: form["reply_markup"], Ephemeral: form["ephemeral_message_parameters"], File: upload}
	limit := maxText
	if method != "sendMessage" {
		m.Text, m.Entities, limit = form["caption"], form["caption_entities"], maxCaption
	}
	if problem := check(m.Text, m.Entities, limit); problem != "" {
		return fail(http.StatusBadRequest, problem)
	}
	if problem := checkEphemeral(m.Ephemeral); problem != "" {
		return fail(http.StatusBadRequest, problem)
	}
	if problem := checkMarkup(m.Markup); problem != "" {
		return fail(http.StatusBadRequest, problem)
	}
	f.mu.Lock()
	f.post(chat, &m)
	if !f.opts.Unrecorded {
		switch method {
		case "sendMessage":
			f.sent = append(f.sent, m)
		case "sendPhoto":
			f.photos = append(f.photos, m)
		default:
			f.docs = append(f.docs, m)
		}
	}
	f.mu.Unlock()
	return ok(f.message(chat, m))
}

// checkMarkup rejects an inline keyboard Telegram would: a button without text, callback data
// that is not 1-64 bytes (BUTTON_DATA_INVALID, Telegram's own answer), a style other than
// "danger", "success" and "primary" (Bot API 9.4; the wording is the fake's). Other markups (a
// reply keyboard) pass.
func checkMarkup(field string) string {
	if field == "" || field == "null" {
		return ""
	}
	var kb struct {
		InlineKeyboard [][]struct {
			Text         string  `json:"text"`
			CallbackData *string `json:"callback_data"`
			Style        *string `json:"style"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(field), &kb); err != nil {
		return "Bad Request: can't parse reply keyboard markup JSON object"
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			switch {
			case b.Text == "":
				return "Bad Request: a button has no text" // the fake's wording
			case b.CallbackData != nil && (len(*b.CallbackData) == 0 || len(*b.CallbackData) > 64):
				return "Bad Request: BUTTON_DATA_INVALID"
			case b.Style != nil && *b.Style != "danger" && *b.Style != "success" && *b.Style != "primary":
				return "Bad Request: can't parse inline keyboard button: unknown style " + *b.Style
			}
		}
	}
	return ""
}

// checkEphemeral rejects ephemeral_message_parameters that are not an EphemeralMessageParameters
// (Bot API 10.3): a receiver_user_id, and optionally callback_query_id and
// replace_callback_query_message. The wording is the fake's: Telegram's is not on record.
func checkEphemeral(field string) string {
	if field == "" {
		return ""
	}
	var p struct {
		ReceiverUserID  *int64  `json:"receiver_user_id"`
		CallbackQueryID *string `json:"callback_query_id"`
		Replace         *bool   `json:"replace_callback_query_message"`
	}
	d := json.NewDecoder(strings.NewReader(field))
	d.DisallowUnknownFields()
	switch err := d.Decode(&p); {
	case err != nil:
		return "Bad Request: can't parse ephemeral message parameters: " + err.Error()
	case p.ReceiverUserID == nil || *p.ReceiverUserID <= 0:
		return "Bad Request: ephemeral message parameters: receiver_user_id is required"
	}
	return ""
}

// nextMessageID gives the chat's next message_id: 1001, 1002 … in each chat, the users' messages
// (Say) and the bot's alike. Call it with mu held.
// post gives m its id in chat and keeps it as the chat's latest message, as the bot sent it; a
// message from the bot ends the chat's draft. f.mu is held.
func (f *BotAPI) post(chat int64, m *Message) {
	m.ID = f.nextMessageID(chat)
	f.msgs[msgKey{chat, m.ID}] = &message{Message: *m, shown: shows(m.Text, m.Entities, m.Markup)}
	f.byChat[chat] = append(f.byChat[chat], f.msgs[msgKey{chat, m.ID}])
	delete(f.shown, chat)
}

func (f *BotAPI) nextMessageID(chat int64) int {
	if f.nextMsg[chat] == 0 {
		f.nextMsg[chat] = 1000
	}
	f.nextMsg[chat]++
	return f.nextMsg[chat]
}

// message is the Message Telegram returns for one the bot sent.
func (f *BotAPI) message(chat int64, m Message) map[string]any {
	typ := "private"
	if chat < 0 {
		typ = "supergroup"
	}
	out := map[string]any{"message_id": m.ID, "date": time.Now().Unix(), "chat": map[string]any{"id": chat, "type": typ},
		"from": map[string]any{"id": f.opts.BotID, "is_bot": true, "first_name": "finbot", "username": f.opts.Username}}
	switch m.Method {
	case "sendPhoto":
		out["photo"] = []map[string]any{{"file_id": fmt.Sprint("photo-", m.ID), "file_unique_id": fmt.Sprint("p", m.ID), "width": 1200, "height": 675}}
		out["caption"] = m.Text
	case "sendDocument":
		out["document"] = map[string]any{"file_id": fmt.Sprint("document-", m.ID), "file_unique_id": fmt.Sprint("d", m.ID)}
		out["caption"] = m.Text
	case "sendRichMessage":
		// A RichMessage's blocks are RichBlocks; the fake gives back the input blocks as sent.
		var in struct {
			Blocks json.RawMessage `json:"blocks"`
		}
		json.Unmarshal([]byte(m.Rich), &in)
		out["rich_message"] = map[string]any{"blocks": in.Blocks}
	default:
		out["text"] = m.Text
	}
	return out
}

// editMessageText answers like Telegram: 400 for an unknown message or an edit that changes
// nothing (text, entities and keyboard alike), the edited message otherwise.
func (f *BotAPI) editMessageText(form map[string]string) reply {
	chat, _ := chatID(form)
	id, _ := strconv.Atoi(form["message_id"])
	if problem := check(form["text"], form["entities"], maxText); problem != "" {
		return fail(http.StatusBadRequest, problem)
	}
	if problem := checkMarkup(form["reply_markup"]); problem != "" {
		return fail(http.StatusBadRequest, problem)
	}
	now := shows(form["text"], form["entities"], form["reply_markup"])
	f.mu.Lock()
	defer f.mu.Unlock()
	m, found := f.msgs[msgKey{chat, id}]
	switch {
	case !found || m.Deleted:
		return fail(http.StatusBadRequest, "Bad Request: message to edit not found")
	case m.shown == now:
		return fail(http.StatusBadRequest, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
	}
	m.shown = now
	m.Text, m.Entities, m.Markup = form["text"], form["entities"], form["reply_markup"]
	if !f.opts.Unrecorded {
		f.edits = append(f.edits, Edit{ChatID: form["chat_id"], MessageID: form["message_id"], Text: form["text"],
			Entities: form["entities"], Markup: form["reply_markup"]})
	}
	return ok(f.message(chat, m.Message))
}

// editMessageReplyMarkup answers like Telegram: 400 for an unknown message, a keyboard Telegram
// would not take, or one that changes nothing; the edited message otherwise. Only the keyboard
// changes.
func (f *BotAPI) editMessageReplyMarkup(form map[string]string) reply {
	chat, _ := chatID(form)
	id, _ := strconv.Atoi(form["message_id"])
	if problem := checkMarkup(form["reply_markup"]); problem != "" {
		return fail(http.StatusBadRequest, problem)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	m, found := f.msgs[msgKey{chat, id}]
	if !found || m.Deleted {
		return fail(http.StatusBadRequest, "Bad Request: message to edit not found")
	}
	now := shows(m.Text, m.Entities, form["reply_markup"])
	if m.shown == now {
		return fail(http.StatusBadRequest, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
	}
	m.shown, m.Markup = now, form["reply_markup"]
	if !f.opts.Unrecorded {
		f.markups = append(f.markups, Edit{ChatID: form["chat_id"], MessageID: form["message_id"], Markup: form["reply_markup"]})
	}
	return ok(f.message(chat, m.Message))
}

func (f *BotAPI) deleteMessage(form map[string]string) reply {
	chat, _ := chatID(form)
	id, _ := strconv.Atoi(form["message_id"])
	f.mu.Lock()
	defer f.mu.Unlock()
	m, found := f.msgs[msgKey{chat, id}]
	if !found || m.Deleted {
		return fail(http.StatusBadRequest, "Bad Request: message to delete not found")
	}
	m.Deleted = true
	if !f.opts.Unrecorded {
		f.deleted = append(f.deleted, form["message_id"])
	}
	return ok(true)
}

// getFile gives the path of a file AddFile made available: under documents/, or the one
// AddFileAt gave it.
func (f *BotAPI) getFile(form map[string]string) reply {
	id := form["file_id"]
	f.mu.Lock()
	data, found := f.files[id]
	filePath := f.filePaths[id]
	f.mu.Unlock()
	if !found {
		return fail(http.StatusBadRequest, "Bad Request: invalid file_id")
	}
	if filePath == "" {
		filePath = "documents/" + id
	}
	return ok(map[string]any{"file_id": id, "file_unique_id": "u-" + id, "file_size": len(data), "file_path": filePath})
}

// download serves GET /file/bot<token>/<file_path>, as Telegram serves files.
func (f *BotAPI) download(w http.ResponseWriter, filePath string) {
	f.mu.Lock()
	id, _ := strings.CutPrefix(filePath, "documents/")
	for fid, p := range f.filePaths {
		if p == filePath {
			id = fid
		}
	}
	data, found := f.files[id]
	if p := f.filePaths[id]; found && p != "" && p != filePath {
		found = false // filed elsewhere: documents/<id> is not its path
	}
	f.downloads++
	f.mu.Unlock()
	if !found {
		write(w, fail(http.StatusNotFound, "Not Found"))
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(data)
}

// getUpdates confirms the updates below offset, then returns up to limit queued ones, waiting
// up to timeout seconds (at most MaxPoll) for one to arrive, as the real long poll does. Kick
// ends the wait early.
func (f *BotAPI) getUpdates(r *http.Request, call *Call, form map[string]string) reply {
	offset, _ := strconv.Atoi(form["offset"])
	limit, _ := strconv.Atoi(form["limit"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	seconds, _ := strconv.Atoi(form["timeout"])
	wait := time.Duration(seconds) * time.Second
	if f.opts.MaxPoll > 0 {
		wait = min(wait, f.opts.MaxPoll)
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	allowed, asked := allowedUpdates(form["allowed_updates"])
	f.mu.Lock()
	kicks := f.kicks
	f.mu.Unlock()
	for {
		f.mu.Lock()
		i := 0
		for i < len(f.queue) && f.queue[i].id < offset {
			i++
		}
		f.queue = f.queue[i:]
		if asked {
			// Telegram does not deliver an update of a type the bot did not ask for: it is gone.
			kept := f.queue[:0]
			for _, u := range f.queue {
				if u.kind == "" || allowed[u.kind] {
					kept = append(kept, u)
				}
			}
			f.queue = kept
		}
		batch := f.queue[:min(limit, len(f.queue))]
		kicked, changed := f.kicks != kicks, f.changed
		f.mu.Unlock()
		if len(batch) > 0 || kicked || wait <= 0 {
			raws := make([]json.RawMessage, len(batch))
			call.Updates = make([]int, len(batch))
			for i, u := range batch {
				raws[i], call.Updates[i] = u.body, u.id
			}
			return ok(raws)
		}
		select {
		case <-changed:
		case <-deadline.C:
			wait = 0 // answer with what there is (nothing)
		case <-r.Context().Done():
			return ok([]json.RawMessage{})
		}
	}
}

// allowedUpdates reads getUpdates' allowed_updates, a JSON array of update types; asked is false
// when the bot sent none (or an empty list), which asks for every type.
func allowedUpdates(field string) (allowed map[string]bool, asked bool) {
	var kinds []string
	if field == "" || json.Unmarshal([]byte(field), &kinds) != nil || len(kinds) == 0 {
		return nil, false
	}
	allowed = make(map[string]bool, len(kinds))
	for _, k := range kinds {
		allowed[k] = true
	}
	return allowed, true
}

// Kick ends the long polls in progress: each returns what it has, maybe nothing.
func (f *BotAPI) Kick() {
	f.mu.Lock()
	f.kicks++
	f.wake()
	f.mu.Unlock()
}

// Push queues an update as is and returns its update_id: the next one if it has none. An
// update pushed twice is delivered twice, as Telegram sometimes does.
func (f *BotAPI) Push(u tgbotapi.Update) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.push(u)
}

func (f *BotAPI) push(u tgbotapi.Update) int {
	if u.UpdateID == 0 {
		u.UpdateID = f.nextID
	}
	f.nextID = max(f.nextID, u.UpdateID) + 1
	body, err := json.Marshal(u)
	if err != nil {
		panic(err) // plain structs: cannot fail
	}
	f.queue = append(f.queue, queued{id: u.UpdateID, body: body})
	f.wake()
	return u.UpdateID
}

// StopGeneration queues the update a user's press on a draft's stop button gives (Bot API 10.3):
// {"update_id":…,"stopped_message_generation":{"chat":{…},"draft_id":…}}, with
// message_thread_id when threadID is not 0. Like Telegram, getUpdates hands it out only to a bot
// whose allowed_updates list "stopped_message_generation" (or that sends none). It returns the
// update_id.
func (f *BotAPI) StopGeneration(chat int64, draftID, threadID int) int {
	stopped := map[string]any{"chat": map[string]any{"id": chat, "type": "private", "first_name": "Бухгалтер"}, "draft_id": draftID}
	if threadID != 0 {
		stopped["message_thread_id"] = threadID
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.nextID
	f.nextID++
	body, err := json.Marshal(map[string]any{"update_id": id, "stopped_message_generation": stopped})
	if err != nil {
		panic(err) // maps of plain values: cannot fail
	}
	f.queue = append(f.queue, queued{id: id, body: body, kind: "stopped_message_generation"})
	f.wake()
	return id
}

// Text is a text message a user writes, for Say.
type Text struct {
	ChatID int64
	// ChatType is "private" (the default), "group" or "supergroup"; Title a group's title.
	ChatType string
	Title    string
	// UserID is the author (default ChatID, a private chat's user); FirstName theirs
	// (default "Бухгалтер").
	UserID    int64
	FirstName string
	Text      string
	// Document, when set, is a file the user sends with Text as its caption (AddFile makes its
	// content available to getFile).
	Document *tgbotapi.Document
	// Voice, when set, is a voice note the user sends, and Audio an audio file (a song, a
	// recording sent from the phone's files), each with Text as its caption (AddFileAt makes
	// the recording available to getFile).
	Voice *tgbotapi.Voice
	Audio *tgbotapi.Audio
	// ReplyTo, when set, is the message_id of the bot's message this one replies to.
	ReplyTo int
	// Queued, when set, is called with the update's and the message's ids before getUpdates
	// can hand the update out.
	Queued func(updateID, messageID int)
}

// Say queues a text message (or a document, a voice note or an audio file with a caption) from
// a user as Telegram delivers it: the chat's next message_id, the date now, and the entities
// Telegram attaches (bot_command for a leading /command, spanning "/cmd@bot"; mention for each
// "@<bot's username>"). It returns the update's and message's ids.
func (f *BotAPI) Say(m Text) (updateID, messageID int) {
	if m.ChatType == "" {
		m.ChatType = "private"
	}
	if m.UserID == 0 {
		m.UserID = m.ChatID
	}
	if m.FirstName == "" {
		m.FirstName = "Бухгалтер"
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	messageID = f.nextMessageID(m.ChatID)
	updateID = f.nextID
	if m.Queued != nil {
		m.Queued(updateID, messageID)
	}
	msg := &tgbotapi.Message{
		MessageID: messageID,
		From:      &tgbotapi.User{ID: m.UserID, FirstName: m.FirstName},
		Chat:      &tgbotapi.Chat{ID: m.ChatID, Type: m.ChatType, Title: m.Title},
		Date:      int(time.Now().Unix()),
		Text:      m.Text,
		Entities:  entities(m.Text, "@"+f.opts.Username),
	}
	if m.Document != nil || m.Voice != nil || m.Audio != nil {
		msg.Document, msg.Voice, msg.Audio = m.Document, m.Voice, m.Audio
		msg.Caption, msg.CaptionEntities, msg.Text, msg.Entities = msg.Text, msg.Entities, "", nil
	}
	if m.ReplyTo != 0 {
		msg.ReplyToMessage = &tgbotapi.Message{MessageID: m.ReplyTo, Chat: msg.Chat, Date: msg.Date,
			From: &tgbotapi.User{ID: f.opts.BotID, IsBot: true, FirstName: "finbot", UserName: f.opts.Username}}
	}
	f.push(tgbotapi.Update{UpdateID: updateID, Message: msg})
	return updateID, messageID
}

// entities finds a leading /command (its entity spans "/cmd@bot") and mentions of the bot.
func entities(text, mention string) []tgbotapi.MessageEntity {
	var out []tgbotapi.MessageEntity
	if strings.HasPrefix(text, "/") {
		cmd, _, _ := strings.Cut(text, " ")
		out = append(out, tgbotapi.MessageEntity{Type: "bot_command", Offset: 0, Length: utf16Len(cmd)})
	}
	for from := 0; ; {
		i := strings.Index(text[from:], mention)
		if i < 0 {
			break
		}
		at := from + i
		from = at + len(mention)
		if strings.HasPrefix(text, "/") && at > 0 && text[at-1] != ' ' {
			continue // the @suffix of a command is part of its entity
		}
		out = append(out, tgbotapi.MessageEntity{Type: "mention", Offset: utf16Len(text[:at]), Length: utf16Len(mention)})
	}
	return out
}
