package fakes

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BotAPI is a fake Telegram Bot API: getMe; getUpdates long-polled over a queue the test fills,
// with offset, limit and timeout as Telegram reads them; sendMessage and sendDocument (with
// ephemeral_message_parameters, Bot API 10.3), sendMessageDraft (Bot API 9.5, can_stop 10.3;
// NoDrafts answers it as an older server does), sendRichMessage (Bot API 10.1, in blocks;
// NoRichMessages answers it as an older server does), editMessageText, editMessageReplyMarkup,
// deleteMessage, sendPhoto, sendDocument, sendChatAction, answerCallbackQuery,
// answerInlineQuery, getFile and file downloads, setMyCommands, setWebhook and deleteWebhook.
// It answers as Telegram does ({"ok":true,"result":…}, or {"ok":false,"error_code":…,
// "description":…} with that HTTP status) and rejects what Telegram rejects: an unknown token or
// method, empty or over-long texts and captions, entities outside the text, an edit of an
// unknown message or one that changes nothing, a deletion of an unknown message. A fault hook
// (SetFault) answers calls in its stead: flood control (RetryAfter), blocked users, server
// errors. It records every call and every message the bot sent.
//
// The bot's requests go to URL()/bot<token>/<method>, its file downloads to
// URL()/file/bot<token>/<file_path>.
type BotAPI struct {
	*Server
	opts BotAPIOptions

	mu       sync.Mutex
	changed  chan struct{} // closed (and replaced) whenever a call was answered or an update queued
	fault    Fault
	received map[string]int // calls by method, counted when they arrive
	answered map[string]int // calls by method, counted once answered
	log      []Call

	queue  []queued // updates not yet confirmed by an offset
	nextID int      // the next update_id
	kicks  int      // Kick calls so far: a long poll returns once it changes

	nextMsg map[int64]int // the last message_id used in each chat
	msgs    map[msgKey]*message
	byChat  map[int64][]*message // in the order they were sent
	sent    []Message            // sendMessage, as sent
	photos  []Message
	docs    []Message
	edits   []Edit
	markups []Edit // editMessageReplyMarkup
	deleted []string
	drafts  []Draft
	shown   map[int64]shownDraft // the draft each private chat shows now

	files     map[string][]byte // file_id → content, for getFile and downloads
	filePaths map[string]string // file_id → file_path, when not documents/<file_id>
	downloads int
}

// BotAPIOptions configures a BotAPI.
type BotAPIOptions struct {
	// Token is the bot's token; a request under any other gets 401.
	Token string
	// BotID and Username are the bot's, as getMe returns them (default 777, "finbot_test_bot").
	BotID    int64
	Username string
	// MaxPoll caps how long getUpdates waits for an update, whatever timeout the bot asked for;
	// 0 waits as long as asked, as Telegram does.
	MaxPoll time.Duration
	// InProcess runs the fake without a listener: the bot reaches it through Client, which
	// calls it in process (for testing/synctest, whose bubbles cannot wait on sockets).
	InProcess bool
	// Unrecorded keeps no log of calls and messages (Calls, Sent, Photos, Documents, Edits and
	// Deleted are empty; counts and chats are kept): for long runs that measure memory.
	Unrecorded bool
	// Observe, when set, sees every call once the fake has decided its answer, before the
	// answer is written (the load driver's recorder).
	Observe func(Call)
	// NoDrafts answers sendMessageDraft as a Bot API server older than 9.3 does: 404 Not Found,
	// like any unknown method.
	NoDrafts bool
	// NoRichMessages answers sendRichMessage as a Bot API server older than 10.1 does: 404 Not
	// Found, like any unknown method.
	NoRichMessages bool
}

// Fault answers a call instead of the fake: it returns the HTTP status and body, and true; or
// false to let the fake answer. Bodies: Error, RetryAfter, or anything (a proxy's HTML page).
type Fault func(method string, form map[string]string) (status int, body string, handled bool)

// Refuse is a Fault that answers the calls of method for which when is true (every one if when
// is nil) with Telegram's error: Refuse("sendMessage", 403, "Forbidden: bot was blocked by the
// user", nil).
func Refuse(method string, status int, description string, when func(form map[string]string) bool) Fault {
	return func(m string, form map[string]string) (int, string, bool) {
		if m != method || (when != nil && !when(form)) {
			return 0, "", false
		}
		return status, Error(status, description), true
	}
}

// Call is one Bot API call as the fake received and answered it.
type Call struct {
	Method string
	Form   map[string]string // url-encoded or multipart fields (files aside)
	Header http.Header
	// Arrived is when the request reached the fake, before its body was read.
	Arrived time.Time
	// Status is the HTTP status of the answer; Description the error's, when it is not 200.
	Status      int
	Description string
	// Updates are the update_ids a getUpdates call handed out.
	Updates []int
}

// Message is a message the bot sent (sendMessage, sendRichMessage, sendPhoto, sendDocument). The
// form fields are as the bot sent them; Chat gives them as the chat shows them now.
type Message struct {
	Method string
	ID     int // the message_id the fake gave it
	ChatID string
	// Text is the text, or the caption of a photo or document; Entities its entities. A rich
	// message's Text is what it shows without formatting (blocks apart by a blank line, a
	// table's cells joined by " │ ").
	Text     string
	Entities string
	// Rich is a rich message's rich_message (an InputRichMessage), as sent.
	Rich string
	// ReplyTo is the message replied to: reply_to_message_id, or the message_id of
	// reply_parameters, which ReplyParameters has as sent.
	ReplyTo         string
	ReplyParameters string
	Markup          string // reply_markup
	// Ephemeral is ephemeral_message_parameters (Bot API 10.3), as sent: the message shows to
	// its receiver_user_id only.
	Ephemeral string
	File      []byte // the photo or document uploaded
	// Deleted is set, in Chat, on a message the bot deleted.
	Deleted bool
}

// Edit is a successful editMessageText, with its form fields as sent.
type Edit struct {
	ChatID, MessageID, Text, Entities, Markup string
}

type msgKey struct {
	chat int64
	id   int
}

// message is a sent message and what it shows now.
type message struct {
	Message
	shown string // text, entities and markup, as editMessageText compares them
}

type queued struct {
	id   int
	body json.RawMessage
	// kind is the update's type when getUpdates hands it out only to a bot that asks for it
	// (allowed_updates): "stopped_message_generation"; "" for the others, handed out whatever the
	// bot asks for.
	kind string
}

// NewBotAPI starts a fake Bot API; Close stops it.
func NewBotAPI(opts BotAPIOptions) *BotAPI {
	if opts.BotID == 0 {
		opts.BotID = 777
	}
	if opts.Username == "" {
		opts.Username = "finbot_test_bot"
	}
	f := &BotAPI{opts: opts, changed: make(chan struct{}), received: map[string]int{}, answered: map[string]int{}, nextID: 1,
		nextMsg: map[int64]int{}, msgs: map[msgKey]*message{}, byChat: map[int64][]*message{}, files: map[string][]byte{}, filePaths: map[string]string{},
		shown: map[int64]shownDraft{}}
	f.Server = newServer(http.HandlerFunc(f.serve), opts.InProcess)
	return f
}

// NewTestBotAPI is NewBotAPI for a test: the fake stops when the test ends.
func NewTestBotAPI(t testing.TB, opts BotAPIOptions) *BotAPI {
	f := NewBotAPI(opts)
	t.Cleanup(f.Close)
	return f
}

// SetFault installs a hook that sees every call first; nil restores normal service.
func (f *BotAPI) SetFault(h Fault) {
	f.mu.Lock()
	f.fault = h
	f.mu.Unlock()
}

// AddFile makes a file a user sent available to getFile (file_id id) and for download, at
// file_path documents/<id>.
func (f *BotAPI) AddFile(id string, data []byte) {
	f.mu.Lock()
	f.files[id] = data
	f.mu.Unlock()
}

// AddFileAt is AddFile with the file_path getFile gives, as Telegram files a voice note
// ("voice/file_3.oga") or a song ("music/file_4.mp3").
func (f *BotAPI) AddFileAt(id, filePath string, data []byte) {
	f.mu.Lock()
	f.files[id], f.filePaths[id] = data, filePath
	f.mu.Unlock()
}

// Downloads is how many file downloads were asked for, found or not.
func (f *BotAPI) Downloads() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.downloads
}

// Error is the body of a Bot API error: Error(400, "Bad Request: message to edit not found").
func Error(code int, description string) string {
	b, _ := json.Marshal(map[string]any{"ok": false, "error_code": code, "description": description})
	return string(b)
}

// RetryAfter is the body of Telegram's flood control answer (status 429): wait seconds.
func RetryAfter(seconds int) string {
	b, _ := json.Marshal(map[string]any{"ok": false, "error_code": http.StatusTooManyRequests,
		"description": fmt.Sprintf("Too Many Requests: retry after %d", seconds), "parameters": map[string]int{"retry_after": seconds}})
	return string(b)
}

// reply is the answer to one call: a result, or an error of Telegram's.
type reply struct {
	status      int
	description string
	result      any    // marshalled into {"ok":true,"result":…} when status is 200
	raw         string // a fault's body, as is
}

func ok(result any) reply { return reply{status: http.StatusOK, result: result} }

func fail(status int, description string) reply {
	return reply{status: status, description: description}
}

func (f *BotAPI) serve(w http.ResponseWriter, r *http.Request) {
	call := Call{Arrived: time.Now(), Header: r.Header.Clone()}
	if path, found := strings.CutPrefix(r.URL.Path, "/file/bot"+f.opts.Token+"/"); found {
		f.download(w, path)
		return
	}
	method, found := strings.CutPrefix(r.URL.Path, "/bot"+f.opts.Token+"/")
	if !found {
		write(w, fail(http.StatusUnauthorized, "Unauthorized"))
		return
	}
	call.Method = method
	form, upload, err := readForm(r)
	call.Form = form
	var rep reply
	if err != nil {
		rep = fail(http.StatusBadRequest, "Bad Request: "+err.Error())
	} else {
		f.mu.Lock()
		f.received[method]++
		hook := f.fault
		f.mu.Unlock()
		handled := false
		if hook != nil {
			var status int
			var body string
			if status, body, handled = hook(method, form); handled {
				rep = reply{status: status, raw: body, description: description(body)}
			}
		}
		if !handled {
			rep = f.answer(r, &call, form, upload)
		}
	}
	call.Status, call.Description = rep.status, rep.description
	f.record(call)
	write(w, rep)
}

// answer carries out a call the way Telegram would.
func (f *BotAPI) answer(r *http.Request, call *Call, form map[string]string, upload []byte) reply {
	switch call.Method {
	case "getMe":
		return ok(map[string]any{"id": f.opts.BotID, "is_bot": true, "first_name": "finbot", "username": f.opts.Username})
	case "getUpdates":
		return f.getUpdates(r, call, form)
	case "sendMessage", "sendPhoto", "sendDocument":
		return f.send(call.Method, form, upload)
	case "sendMessageDraft":
		if !f.opts.NoDrafts {
			return f.sendMessageDraft(form)
		}
	case "sendRichMessage":
		if !f.opts.NoRichMessages {
			return f.sendRichMessage(form)
		}
	case "editMessageText":
		return f.editMessageText(form)
	case "editMessageReplyMarkup":
		return f.editMessageReplyMarkup(form)
	case "deleteMessage":
		return f.deleteMessage(form)
	case "getFile":
		return f.getFile(form)
	case "sendChatAction", "answerCallbackQuery", "answerInlineQuery", "setMyCommands", "setWebhook", "deleteWebhook":
		return ok(true)
	}
	return fail(http.StatusNotFound, "Not Found")
}

// record counts and logs a call that was answered and wakes whoever waits for one.
func (f *BotAPI) record(c Call) {
	if f.opts.Observe != nil {
		f.opts.Observe(c)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answered[c.Method]++
	if !f.opts.Unrecorded {
		f.log = append(f.log, c)
	}
	f.wake()
}

// wake tells whoever waits on changed that something happened; call it with mu held.
func (f *BotAPI) wake() {
	close(f.changed)
	f.changed = make(chan struct{})
}

func write(w http.ResponseWriter, rep reply) {
	w.Header().Set("Content-Type", "application/json")
	var body []byte
	switch {
	case rep.raw != "":
		body = []byte(rep.raw)
	case rep.status == http.StatusOK:
		body, _ = json.Marshal(map[string]any{"ok": true, "result": rep.result})
	default:
		body = []byte(Error(rep.status, rep.description))
	}
	w.WriteHeader(rep.status)
	w.Write(body)
}

// description is the description of an error body, if it is one.
func description(body string) string {
	var e struct {
		Description string `json:"description"`
	}
	json.Unmarshal([]byte(body), &e)
	return e.Description
}

// readForm reads url-encoded and multipart bodies alike, and the first file of a multipart one.
func readForm(r *http.Request) (map[string]string, []byte, error) {
	form := map[string]string{}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			return form, nil, fmt.Errorf("multipart: %w", err)
		}
		defer r.MultipartForm.RemoveAll()
		for k, v := range r.MultipartForm.Value {
			form[k] = v[0]
		}
		var upload []byte
		for _, fh := range r.MultipartForm.File {
			file, err := fh[0].Open()
			if err != nil {
				return form, nil, err
			}
			upload, err = io.ReadAll(file)
			file.Close()
			if err != nil {
				return form, nil, err
			}
		}
		return form, upload, nil
	}
	if err := r.ParseForm(); err != nil {
		return form, nil, err
	}
	for k := range r.Form {
		form[k] = r.Form.Get(k)
	}
	return form, nil, nil
}

// Count is how many calls of method have arrived, answered or not yet (a long poll in
// progress counts).
func (f *BotAPI) Count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.received[method]
}

// Calls returns the calls of method answered so far, in order.
func (f *BotAPI) Calls(method string) []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Call
	for _, c := range f.log {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// Sent returns the messages sent with sendMessage and sendRichMessage (Method tells which), as
// sent, in order.
func (f *BotAPI) Sent() []Message { return cloneLocked(&f.mu, &f.sent) }

// Photos returns the photos sent, in order.
func (f *BotAPI) Photos() []Message { return cloneLocked(&f.mu, &f.photos) }

// Documents returns the documents sent, in order.
func (f *BotAPI) Documents() []Message { return cloneLocked(&f.mu, &f.docs) }

// Edits returns the successful editMessageText calls, in order.
func (f *BotAPI) Edits() []Edit { return cloneLocked(&f.mu, &f.edits) }

// MarkupEdits returns the successful editMessageReplyMarkup calls, in order (Text and Entities
// empty).
func (f *BotAPI) MarkupEdits() []Edit { return cloneLocked(&f.mu, &f.markups) }

// Deleted returns the message_ids deleted, in order.
func (f *BotAPI) Deleted() []string { return cloneLocked(&f.mu, &f.deleted) }

// Chat returns every message the bot sent to chat, in the order sent, as the chat shows it
// now: the text after its edits, Deleted set on those deleted.
func (f *BotAPI) Chat(chat int64) []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Message, len(f.byChat[chat]))
	for i, m := range f.byChat[chat] {
		out[i] = m.Message
	}
	return out
}

// waitTimeout bounds the Wait methods: generous for a loaded machine.
const waitTimeout = 20 * time.Second

// WaitSent waits until n messages have been sent with sendMessage or sendRichMessage in all and
// returns them all.
func (f *BotAPI) WaitSent(t testing.TB, n int) []Message {
	t.Helper()
	f.wait(t, func() bool { return len(f.sent) >= n }, func() string {
		return fmt.Sprintf("sent %d messages, want %d: %+v", len(f.sent), n, f.sent)
	})
	return f.Sent()
}

// WaitCalls waits until method has been answered n times: what those calls did shows in
// Calls, Sent and the rest.
func (f *BotAPI) WaitCalls(t testing.TB, method string, n int) {
	t.Helper()
	f.wait(t, func() bool { return f.answered[method] >= n }, func() string {
		return fmt.Sprintf("%s answered %d times, want %d", method, f.answered[method], n)
	})
}

// wait waits until done (called with mu held) or fails the test with what fail says.
func (f *BotAPI) wait(t testing.TB, done func() bool, fail func() string) {
	t.Helper()
	timeout := time.NewTimer(waitTimeout)
	defer timeout.Stop()
	for {
		f.mu.Lock()
		if done() {
			f.mu.Unlock()
			return
		}
		changed := f.changed
		f.mu.Unlock()
		select {
		case <-changed:
		case <-timeout.C:
			f.mu.Lock()
			defer f.mu.Unlock()
			t.Fatal(fail())
			return
		}
	}
}

func chatID(form map[string]string) (int64, bool) {
	id, err := strconv.ParseInt(form["chat_id"], 10, 64)
	return id, err == nil
}
