package load

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf16"
)

// fakeTelegram is an in-process Bot API: getMe, long-polled getUpdates over a queue the
// simulated users fill, and the methods the bot calls to answer. It answers like Telegram
// ({"ok":true,"result":…}, or {"ok":false,"error_code":…,"description":…}) and records every
// call that puts something in a chat.
type fakeTelegram struct {
	rec      *recorder
	token    string
	botID    int64
	username string
	srv      *httptest.Server
	conns    atomic.Int64 // connections opened by the bot

	mu      sync.Mutex
	queue   []queuedUpdate // not yet confirmed by an offset
	nextID  int            // the next update_id
	arrived chan struct{}  // closed (and replaced) when an update is queued
	nextMsg map[int64]int  // the last message_id used in each chat
	shown   map[string]string
	files   map[string][]byte // file_id → the document a user sent

	downloads atomic.Int64 // files the bot fetched
}

type queuedUpdate struct {
	id   int
	body json.RawMessage
}

func newFakeTelegram(rec *recorder, token string, botID int64, username string) *fakeTelegram {
	f := &fakeTelegram{rec: rec, token: token, botID: botID, username: username, nextID: 1,
		arrived: make(chan struct{}), nextMsg: map[int64]int{}, shown: map[string]string{}, files: map[string][]byte{}}
	f.srv = newServer(http.HandlerFunc(f.serve), &f.conns)
	return f
}

// URL is the Bot API base the bot is pointed at.
func (f *fakeTelegram) URL() string { return f.srv.URL }

func (f *fakeTelegram) Close() { f.srv.Close() }

// newServer starts an httptest server that counts the connections clients open to it.
func newServer(h http.Handler, conns *atomic.Int64) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	return srv
}

// Telegram's wire shapes, as much of them as the bot reads.
type (
	tgUser struct {
		ID        int64  `json:"id"`
		IsBot     bool   `json:"is_bot"`
		FirstName string `json:"first_name"`
		Username  string `json:"username,omitempty"`
	}
	tgChat struct {
		ID    int64  `json:"id"`
		Type  string `json:"type"`
		Title string `json:"title,omitempty"`
	}
	tgEntity struct {
		Type   string `json:"type"`
		Offset int    `json:"offset"`
		Length int    `json:"length"`
	}
	tgDocument struct {
		FileID       string `json:"file_id"`
		FileUniqueID string `json:"file_unique_id"`
		FileName     string `json:"file_name,omitempty"`
		MimeType     string `json:"mime_type,omitempty"`
		FileSize     int    `json:"file_size,omitempty"`
	}
	tgFile struct {
		FileID       string `json:"file_id"`
		FileUniqueID string `json:"file_unique_id"`
		FileSize     int    `json:"file_size,omitempty"`
		FilePath     string `json:"file_path,omitempty"`
	}
	tgMessage struct {
		MessageID       int         `json:"message_id"`
		From            *tgUser     `json:"from,omitempty"`
		Chat            tgChat      `json:"chat"`
		Date            int64       `json:"date"`
		Text            string      `json:"text,omitempty"`
		Entities        []tgEntity  `json:"entities,omitempty"`
		Document        *tgDocument `json:"document,omitempty"`
		Caption         string      `json:"caption,omitempty"`
		CaptionEntities []tgEntity  `json:"caption_entities,omitempty"`
	}
	tgUpdate struct {
		UpdateID int        `json:"update_id"`
		Message  *tgMessage `json:"message"`
	}
)

// push queues m as a Telegram update from its user, with the entities Telegram would attach:
// bot_command for a leading command, mention for "@bot". A message with a document carries
// it (to be fetched with getFile) and its text as the caption.
func (f *fakeTelegram) push(m *message) {
	chatType := "private"
	if m.chat.group {
		chatType = "supergroup"
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextMsg[m.chat.id]++
	m.messageID = f.nextMsg[m.chat.id]
	m.updateID = f.nextID
	f.nextID++
	msg := &tgMessage{
		MessageID: m.messageID,
		From:      &tgUser{ID: m.user.id, FirstName: fmt.Sprintf("Бухгалтер %d", m.user.id)},
		Chat:      tgChat{ID: m.chat.id, Type: chatType, Title: m.chat.title},
		Date:      time.Now().Unix(),
		Text:      m.text,
		Entities:  entities(m.text, "@"+f.username),
	}
	if d := m.upload; d != nil {
		id := fmt.Sprintf("load-file-%d", m.idx)
		f.files[id] = d.data
		msg.Document = &tgDocument{FileID: id, FileUniqueID: "u" + id, FileName: d.name, MimeType: d.mime, FileSize: len(d.data)}
		msg.Caption, msg.CaptionEntities, msg.Text, msg.Entities = msg.Text, msg.Entities, "", nil
	}
	body, err := json.Marshal(tgUpdate{UpdateID: m.updateID, Message: msg})
	if err != nil {
		panic(err) // plain structs: cannot fail
	}
	f.queue = append(f.queue, queuedUpdate{id: m.updateID, body: body})
	f.rec.queued(m)
	close(f.arrived)
	f.arrived = make(chan struct{})
}

// entities finds a leading /command (its entity spans "/cmd@bot") and mentions of the bot.
func entities(text, mention string) []tgEntity {
	var out []tgEntity
	if strings.HasPrefix(text, "/") {
		cmd, _, _ := strings.Cut(text, " ")
		out = append(out, tgEntity{Type: "bot_command", Offset: 0, Length: utf16Len(cmd)})
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
		out = append(out, tgEntity{Type: "mention", Offset: utf16Len(text[:at]), Length: utf16Len(mention)})
	}
	return out
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// handoffHeader carries the moment the bot's HTTP client was handed a request (Unix
// nanoseconds), set by the driver's wrapper around that client's transport (wire.go).
const handoffHeader = "X-Load-Handoff"

// arrival is when a request reached the fake, and when the bot handed it to its HTTP client.
type arrival struct{ at, handoff time.Time }

func (f *fakeTelegram) serve(w http.ResponseWriter, r *http.Request) {
	in := arrival{at: time.Now()} // before the body is read: Telegram counts a request when it arrives
	if ns, err := strconv.ParseInt(r.Header.Get(handoffHeader), 10, 64); err == nil {
		in.handoff = time.Unix(0, ns)
	}
	if path, ok := strings.CutPrefix(r.URL.Path, "/file/bot"+f.token+"/"); ok {
		f.download(w, path)
		return
	}
	method, ok := strings.CutPrefix(r.URL.Path, "/bot"+f.token+"/")
	if !ok {
		apiError(w, http.StatusUnauthorized, "Unauthorized")
		return
	}
	form, err := readForm(r)
	if err != nil {
		apiError(w, http.StatusBadRequest, "Bad Request: "+err.Error())
		return
	}
	switch method {
	case "getMe":
		okResult(w, tgUser{ID: f.botID, IsBot: true, FirstName: "finbot", Username: f.username})
	case "getUpdates":
		f.getUpdates(w, r, form)
	case "getFile":
		f.getFile(w, form)
	case "deleteWebhook", "setMyCommands", "answerCallbackQuery":
		okResult(w, true)
	case "sendChatAction":
		f.rec.sent(in.at, in.handoff, method, chatID(form), 0, "")
		okResult(w, true)
	case "sendMessage":
		f.sendMessage(w, in, form)
	case "editMessageText":
		f.editMessageText(w, in, form)
	case "deleteMessage":
		f.deleteMessage(w, form)
	case "sendPhoto", "sendDocument":
		f.sendFile(w, in, method, form)
	default:
		f.rec.unknownMethod(method)
		apiError(w, http.StatusNotFound, "Not Found: method "+method)
	}
}

// readForm reads url-encoded and multipart bodies alike (files are read and dropped).
func readForm(r *http.Request) (map[string]string, error) {
	form := map[string]string{}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			return nil, fmt.Errorf("multipart: %w", err)
		}
		defer r.MultipartForm.RemoveAll()
		for k, v := range r.MultipartForm.Value {
			form[k] = v[0]
		}
		return form, nil
	}
	if err := r.ParseForm(); err != nil {
		return nil, err
	}
	for k := range r.Form {
		form[k] = r.Form.Get(k)
	}
	return form, nil
}

func chatID(form map[string]string) int64 {
	id, _ := strconv.ParseInt(form["chat_id"], 10, 64)
	return id
}

// getUpdates confirms updates below offset, then returns up to limit queued updates, waiting up
// to timeout seconds for one to arrive, as the real long poll does.
func (f *fakeTelegram) getUpdates(w http.ResponseWriter, r *http.Request, form map[string]string) {
	offset, _ := strconv.Atoi(form["offset"])
	limit, _ := strconv.Atoi(form["limit"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout, _ := strconv.Atoi(form["timeout"])
	deadline := time.NewTimer(time.Duration(timeout) * time.Second)
	defer deadline.Stop()
	for {
		f.mu.Lock()
		if offset > 0 {
			i := 0
			for i < len(f.queue) && f.queue[i].id < offset {
				i++
			}
			f.queue = f.queue[i:]
		}
		batch := f.queue[:min(limit, len(f.queue))]
		arrived := f.arrived
		f.mu.Unlock()
		if len(batch) > 0 || timeout <= 0 {
			ids := make([]int, len(batch))
			raws := make([]json.RawMessage, len(batch))
			for i, u := range batch {
				ids[i], raws[i] = u.id, u.body
			}
			f.rec.handedOut(ids, time.Now())
			okResult(w, raws)
			return
		}
		select {
		case <-arrived:
		case <-deadline.C:
			timeout = 0 // answer with what there is (nothing)
		case <-r.Context().Done():
			return
		}
	}
}

// getFile answers with the path to download a file a user sent.
func (f *fakeTelegram) getFile(w http.ResponseWriter, form map[string]string) {
	id := form["file_id"]
	f.mu.Lock()
	data, ok := f.files[id]
	f.mu.Unlock()
	if !ok {
		apiError(w, http.StatusBadRequest, "Bad Request: invalid file_id")
		return
	}
	okResult(w, tgFile{FileID: id, FileUniqueID: "u" + id, FileSize: len(data), FilePath: "documents/" + id})
}

// download serves GET /file/bot<token>/<file_path>.
func (f *fakeTelegram) download(w http.ResponseWriter, path string) {
	id, _ := strings.CutPrefix(path, "documents/")
	f.mu.Lock()
	data, ok := f.files[id]
	f.mu.Unlock()
	if !ok {
		http.Error(w, "Not Found", http.StatusNotFound)
		return
	}
	f.downloads.Add(1)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(data)
}

func (f *fakeTelegram) newMessageID(chat int64) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextMsg[chat]++
	return f.nextMsg[chat]
}

// check rejects what Telegram rejects: empty or over-long text, entities outside the text.
func check(text, entitiesJSON string, maxUnits int) string {
	n := utf16Len(text)
	switch {
	case strings.TrimSpace(text) == "" && maxUnits == 4096:
		return "Bad Request: message text is empty"
	case n > maxUnits:
		return "Bad Request: message is too long"
	}
	if entitiesJSON == "" || entitiesJSON == "null" {
		return ""
	}
	var ents []tgEntity
	if err := json.Unmarshal([]byte(entitiesJSON), &ents); err != nil {
		return "Bad Request: can't parse entities JSON object"
	}
	for _, e := range ents {
		if e.Offset < 0 || e.Length <= 0 || e.Offset+e.Length > n {
			return fmt.Sprintf("Bad Request: can't parse entities: entity %s at %d+%d is outside the text of %d units", e.Type, e.Offset, e.Length, n)
		}
	}
	return ""
}

func (f *fakeTelegram) sendMessage(w http.ResponseWriter, in arrival, form map[string]string) {
	chat := chatID(form)
	replyTo, _ := strconv.Atoi(form["reply_to_message_id"])
	f.rec.sent(in.at, in.handoff, "sendMessage", chat, replyTo, form["text"]) // Telegram counts attempts against the limits too
	if problem := check(form["text"], form["entities"], 4096); problem != "" {
		f.rec.reject("sendMessage", problem)
		apiError(w, http.StatusBadRequest, problem)
		return
	}
	id := f.newMessageID(chat)
	f.mu.Lock()
	f.shown[fmt.Sprint(chat, ":", id)] = form["text"] + "\x00" + form["entities"] + "\x00" + form["reply_markup"]
	f.mu.Unlock()
	f.message(w, chat, id, form["text"])
}

func (f *fakeTelegram) editMessageText(w http.ResponseWriter, in arrival, form map[string]string) {
	chat := chatID(form)
	key := fmt.Sprint(chat, ":", form["message_id"])
	now := form["text"] + "\x00" + form["entities"] + "\x00" + form["reply_markup"]
	f.rec.sent(in.at, in.handoff, "editMessageText", chat, 0, form["text"])
	if problem := check(form["text"], form["entities"], 4096); problem != "" {
		f.rec.reject("editMessageText", problem)
		apiError(w, http.StatusBadRequest, problem)
		return
	}
	f.mu.Lock()
	before, found := f.shown[key]
	if found {
		f.shown[key] = now
	}
	f.mu.Unlock()
	switch {
	case !found:
		f.rec.reject("editMessageText", "message to edit not found")
		apiError(w, http.StatusBadRequest, "Bad Request: message to edit not found")
		return
	case before == now:
		f.rec.reject("editMessageText", "message is not modified")
		apiError(w, http.StatusBadRequest, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
		return
	}
	id, _ := strconv.Atoi(form["message_id"])
	f.message(w, chat, id, form["text"])
}

func (f *fakeTelegram) deleteMessage(w http.ResponseWriter, form map[string]string) {
	key := fmt.Sprint(chatID(form), ":", form["message_id"])
	f.mu.Lock()
	_, found := f.shown[key]
	delete(f.shown, key)
	f.mu.Unlock()
	if !found {
		f.rec.reject("deleteMessage", "message to delete not found")
		apiError(w, http.StatusBadRequest, "Bad Request: message to delete not found")
		return
	}
	f.rec.deleted()
	okResult(w, true)
}

func (f *fakeTelegram) sendFile(w http.ResponseWriter, in arrival, method string, form map[string]string) {
	chat := chatID(form)
	replyTo, _ := strconv.Atoi(form["reply_to_message_id"])
	f.rec.sent(in.at, in.handoff, method, chat, replyTo, "["+method+"] "+form["caption"])
	if problem := check(form["caption"], form["caption_entities"], 1024); problem != "" {
		f.rec.reject(method, problem)
		apiError(w, http.StatusBadRequest, problem)
		return
	}
	f.message(w, chat, f.newMessageID(chat), "")
}

// message answers with the Message the bot sent (its id is all the bot reads).
func (f *fakeTelegram) message(w http.ResponseWriter, chat int64, id int, text string) {
	typ := "private"
	if chat < 0 {
		typ = "supergroup"
	}
	okResult(w, tgMessage{MessageID: id, From: &tgUser{ID: f.botID, IsBot: true, FirstName: "finbot", Username: f.username},
		Chat: tgChat{ID: chat, Type: typ}, Date: time.Now().Unix(), Text: text})
}

func okResult(w http.ResponseWriter, v any) {
	body, err := json.Marshal(map[string]any{"ok": true, "result": v})
	if err != nil {
		apiError(w, http.StatusInternalServerError, "Internal Server Error")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func apiError(w http.ResponseWriter, code int, description string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	body, _ := json.Marshal(map[string]any{"ok": false, "error_code": code, "description": description})
	w.Write(body)
}
