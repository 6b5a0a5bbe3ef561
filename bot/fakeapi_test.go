package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent"
)

const testToken = "42:TEST-token-secret"

// fakeAPI plays the Bot API on httptest: getMe, long-polled getUpdates, sendMessage and the
// methods telegram-test-api lacks (sendChatAction, 429s, parse errors). Hooks let a test make
// a method fail.
type fakeAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex
	updates []tgbotapi.Update
	nextID  int
	sent    []sentMessage
	actions int
	photos  []sentPhoto
	docs    []sentPhoto
	inline  []map[string]string
	calls   map[string]int
	// fail, when set, may answer a method call itself (status and body) instead of the default.
	fail    func(method string, form map[string]string) (status int, body string, handled bool)
	arrived chan struct{}
	// files are the documents users "sent": file_id → content, served by getFile and
	// /file/bot<token>/<file_path> like the real Bot API.
	files     map[string][]byte
	downloads int
	// edits are the editMessageText calls that succeeded; deleted the message ids deleted.
	edits   []editedMessage
	deleted []string
	// shown is what each message sent so far shows (text and entities), by message_id: edits
	// of unknown messages fail and edits that change nothing get "message is not modified".
	shown map[string]string
	// kicks ends the long polls in progress: each getUpdates returns once it changes.
	kicks int
}

type editedMessage struct {
	ChatID, MessageID, Text, Entities, Markup string
}

type sentPhoto struct {
	ChatID, Caption, Entities string
	PNG                       []byte
}

type sentMessage struct {
	ChatID   string
	Text     string
	Entities string
	ReplyTo  string
	Markup   string
}

// unpaced is a send limit for tests that are not about pacing.
var unpaced = SendLimit{Name: "unpaced", Window: time.Second, Max: 1000, Rate: 1000, Burst: 1000}

// unpace lifts Telegram's send limits off b before it runs: per private chat, per group (one
// message every 3 s would have every group test sit out seconds of real time) and overall.
// Tests that are about pacing say so (slowChat); the limits themselves are tested on a fake
// clock (pacing_test.go, incoming_test.go).
func unpace(b *Bot) {
	b.limits.private, b.limits.group, b.limits.global = unpaced, unpaced, newGate(unpaced)
}

func newFakeAPI(t *testing.T) *fakeAPI {
	f := newInProcessAPI(t)
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// newInProcessAPI is the fake Bot API without a listener: startBot connects the bot to it
// through an http.Client that calls it in process. A bubble of testing/synctest cannot wait on
// sockets, so this is what lets a test run the whole bot on the fake clock: pacing, retry-after
// and back-off then take no real time and depend on no scheduling.
func newInProcessAPI(t *testing.T) *fakeAPI {
	return &fakeAPI{t: t, nextID: 1, calls: map[string]int{}, arrived: make(chan struct{}, 1000), files: map[string][]byte{},
		shown: map[string]string{}}
}

// inProcessURL is the Bot API base of an in-process fake; nothing resolves it.
const inProcessURL = "http://bot-api.invalid"

// url is the Bot API base the bot is given.
func (f *fakeAPI) url() string {
	if f.srv == nil {
		return inProcessURL
	}
	return f.srv.URL
}

// client is the HTTP client the bot is given: nil (the bot's own) for a fake that listens.
func (f *fakeAPI) client() *http.Client {
	if f.srv != nil {
		return nil
	}
	return &http.Client{Transport: inProcess{f}}
}

// inProcess is a RoundTripper that has a handler answer each request, as a server would.
type inProcess struct{ h http.Handler }

func (p inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	body := r.Body
	if body == nil {
		body = http.NoBody
	}
	defer body.Close() // a transport closes the request body
	sr := httptest.NewRequest(r.Method, r.URL.String(), body).WithContext(r.Context())
	sr.Header = r.Header.Clone()
	sr.ContentLength = r.ContentLength
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, sr)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) { f.serve(w, r) }

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	if path, ok := strings.CutPrefix(r.URL.Path, "/file/bot"+testToken+"/documents/"); ok {
		f.mu.Lock()
		data, found := f.files[path]
		f.downloads++
		f.mu.Unlock()
		if !found {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"ok":false,"error_code":404,"description":"Not Found"}`)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(data)
		return
	}
	prefix := "/bot" + testToken + "/"
	if !strings.HasPrefix(r.URL.Path, prefix) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
		return
	}
	method := strings.TrimPrefix(r.URL.Path, prefix)
	form := map[string]string{}
	var upload []byte
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			f.t.Errorf("%s: bad multipart body: %v", method, err)
		}
		for k, v := range r.MultipartForm.Value {
			form[k] = v[0]
		}
		for _, fh := range r.MultipartForm.File {
			file, _ := fh[0].Open()
			upload, _ = io.ReadAll(file)
			file.Close()
		}
	} else {
		r.ParseForm()
		for k := range r.PostForm {
			form[k] = r.PostForm.Get(k)
		}
	}
	f.mu.Lock()
	f.calls[method]++
	hook := f.fail
	f.mu.Unlock()
	if hook != nil {
		if status, body, ok := hook(method, form); ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprint(w, body)
			return
		}
	}
	switch method {
	case "getMe":
		ok(w, `{"id":777,"is_bot":true,"first_name":"finbot","username":"finbot_test_bot"}`)
	case "getUpdates":
		f.getUpdates(w, r, form)
	case "sendMessage":
		f.mu.Lock()
		f.sent = append(f.sent, sentMessage{ChatID: form["chat_id"], Text: form["text"], Entities: form["entities"],
			ReplyTo: form["reply_to_message_id"], Markup: form["reply_markup"]})
		id := len(f.sent)
		f.shown[fmt.Sprint(1000+id)] = form["text"] + "\x00" + form["entities"]
		f.mu.Unlock()
		f.arrived <- struct{}{}
		ok(w, fmt.Sprintf(`{"message_id":%d,"date":1,"chat":{"id":%s,"type":"private"},"text":"x"}`, 1000+id, form["chat_id"]))
	case "editMessageText":
		f.editMessageText(w, form)
	case "deleteMessage":
		f.mu.Lock()
		_, found := f.shown[form["message_id"]]
		delete(f.shown, form["message_id"])
		if found {
			f.deleted = append(f.deleted, form["message_id"])
		}
		f.mu.Unlock()
		if !found {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"ok":false,"error_code":400,"description":"Bad Request: message to delete not found"}`)
			return
		}
		ok(w, `true`)
	case "sendPhoto":
		f.mu.Lock()
		f.photos = append(f.photos, sentPhoto{ChatID: form["chat_id"], Caption: form["caption"], Entities: form["caption_entities"], PNG: upload})
		f.mu.Unlock()
		f.arrived <- struct{}{}
		ok(w, `{"message_id":5000,"date":1,"chat":{"id":1,"type":"private"},"photo":[{"file_id":"x","file_unique_id":"y","width":1200,"height":675}]}`)
	case "sendDocument":
		f.mu.Lock()
		f.docs = append(f.docs, sentPhoto{ChatID: form["chat_id"], Caption: form["caption"], PNG: upload})
		f.mu.Unlock()
		f.arrived <- struct{}{}
		ok(w, `{"message_id":6000,"date":1,"chat":{"id":1,"type":"private"},"document":{"file_id":"d","file_unique_id":"u"}}`)
	case "answerInlineQuery":
		f.mu.Lock()
		f.inline = append(f.inline, form)
		f.mu.Unlock()
		f.arrived <- struct{}{}
		ok(w, `true`)
	case "sendChatAction":
		f.mu.Lock()
		f.actions++
		f.mu.Unlock()
		ok(w, `true`)
	case "getFile":
		f.mu.Lock()
		data, found := f.files[form["file_id"]]
		f.mu.Unlock()
		if !found {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"ok":false,"error_code":400,"description":"Bad Request: invalid file_id"}`)
			return
		}
		ok(w, fmt.Sprintf(`{"file_id":%q,"file_unique_id":"u-%s","file_size":%d,"file_path":"documents/%s"}`,
			form["file_id"], form["file_id"], len(data), form["file_id"]))
	case "setMyCommands", "deleteWebhook", "setWebhook", "answerCallbackQuery":
		ok(w, `true`)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"ok":false,"error_code":404,"description":"Not Found: method %s"}`, method)
	}
}

// editMessageText answers like Telegram: 400 for an unknown message or an edit that changes
// nothing, the edited message otherwise.
func (f *fakeAPI) editMessageText(w http.ResponseWriter, form map[string]string) {
	id, now := form["message_id"], form["text"]+"\x00"+form["entities"]
	f.mu.Lock()
	before, found := f.shown[id]
	modified := before != now || form["reply_markup"] != ""
	if found && modified {
		f.shown[id] = now
		f.edits = append(f.edits, editedMessage{ChatID: form["chat_id"], MessageID: id, Text: form["text"],
			Entities: form["entities"], Markup: form["reply_markup"]})
	}
	f.mu.Unlock()
	switch {
	case !found:
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"ok":false,"error_code":400,"description":"Bad Request: message to edit not found"}`)
		return
	case !modified:
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"ok":false,"error_code":400,"description":"Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"}`)
		return
	}
	f.arrived <- struct{}{}
	ok(w, fmt.Sprintf(`{"message_id":%s,"date":1,"chat":{"id":%s,"type":"private"},"text":"x"}`, id, form["chat_id"]))
}

func ok(w http.ResponseWriter, result string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"ok":true,"result":%s}`, result)
}

// getUpdates honours offset and long-polls briefly, like the real API.
func (f *fakeAPI) getUpdates(w http.ResponseWriter, r *http.Request, form map[string]string) {
	var offset int
	fmt.Sscan(form["offset"], &offset)
	deadline := time.Now().Add(200 * time.Millisecond)
	f.mu.Lock()
	kicks := f.kicks
	f.mu.Unlock()
	for {
		f.mu.Lock()
		kicked := f.kicks != kicks
		kept := f.updates[:0]
		var out []tgbotapi.Update
		for _, u := range f.updates {
			if u.UpdateID >= offset {
				kept = append(kept, u)
				out = append(out, u)
			}
		}
		f.updates = kept
		f.mu.Unlock()
		if len(out) > 0 || kicked || time.Now().After(deadline) || r.Context().Err() != nil {
			b, _ := json.Marshal(out)
			if out == nil {
				b = []byte("[]")
			}
			ok(w, string(b))
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// push queues an update and returns its update_id.
func (f *fakeAPI) push(u tgbotapi.Update) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if u.UpdateID == 0 {
		u.UpdateID = f.nextID
	}
	f.nextID = max(f.nextID, u.UpdateID) + 1
	f.updates = append(f.updates, u)
	return u.UpdateID
}

// waitSent waits until n messages have been sent in total and returns them all.
func (f *fakeAPI) waitSent(n int) []sentMessage {
	f.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		f.mu.Lock()
		if len(f.sent) >= n {
			out := append([]sentMessage(nil), f.sent...)
			f.mu.Unlock()
			return out
		}
		f.mu.Unlock()
		select {
		case <-f.arrived:
		case <-timeout:
			f.mu.Lock()
			defer f.mu.Unlock()
			f.t.Fatalf("sent %d messages, want %d: %+v", len(f.sent), n, f.sent)
			return nil
		}
	}
}

func (f *fakeAPI) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[method]
}

func privateText(userID int64, text string) tgbotapi.Update {
	return tgbotapi.Update{Message: &tgbotapi.Message{
		MessageID: 1, From: &tgbotapi.User{ID: userID, FirstName: "U"},
		Chat: &tgbotapi.Chat{ID: userID, Type: "private"}, Text: text, Date: 1,
		Entities: commandEntity(text),
	}}
}

func commandEntity(text string) []tgbotapi.MessageEntity {
	if !strings.HasPrefix(text, "/") {
		return nil
	}
	cmd, _, _ := strings.Cut(text, " ")
	return []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: len([]rune(cmd))}}
}

// fakeAgent is a function-field Answerer.
type fakeAgent struct {
	AnswerFunc func(ctx context.Context, r agent.Request) (agent.Answer, error)
	InlineFunc func(ctx context.Context, q string) ([]agent.InlineResult, error)
	resets     int
	mu         sync.Mutex
}

func (f *fakeAgent) Answer(ctx context.Context, r agent.Request) (agent.Answer, error) {
	return f.AnswerFunc(ctx, r)
}

func (f *fakeAgent) Inline(ctx context.Context, q string) ([]agent.InlineResult, error) {
	if f.InlineFunc == nil {
		return nil, nil
	}
	return f.InlineFunc(ctx, q)
}

func (f *fakeAgent) Upload(ctx context.Context, r agent.Request, file agent.File) (agent.Answer, error) {
	return agent.Answer{Text: "не поддерживается"}, nil
}

func (f *fakeAgent) RememberReceipt(context.Context, agent.Request, int, string) error { return nil }

func (f *fakeAgent) Reset(context.Context, agent.Request) error {
	f.mu.Lock()
	f.resets++
	f.mu.Unlock()
	return nil
}

func echoAgent() *fakeAgent {
	return &fakeAgent{AnswerFunc: func(_ context.Context, r agent.Request) (agent.Answer, error) {
		return agent.Answer{Scenario: agent.S2General, Text: "эхо: " + r.Text}, nil
	}}
}

// startBot runs a bot against f until the test ends.
func startBot(t *testing.T, f *fakeAPI, a Answerer, o Options) *Bot {
	t.Helper()
	o.Token, o.APIURL = testToken, f.url()
	if o.HTTPClient == nil {
		o.HTTPClient = f.client()
	}
	if o.PollTimeout == 0 {
		o.PollTimeout = time.Second
	}
	if o.PollIdle == 0 {
		o.PollIdle = 10 * time.Millisecond // settle ends long polls early: no second-long pause after them
	}
	b, err := New(t.Context(), a, o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	unpace(b) // tests are not about pacing unless they say so
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return b
}

// waitCalls waits until method has been called n times.
func (f *fakeAPI) waitCalls(method string, n int) {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for f.count(method) < n {
		if time.Now().After(deadline) {
			f.t.Fatalf("%s called %d times, want %d", method, f.count(method), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// settle returns once every update pushed so far has been fetched and fully handled: a
// getUpdates call that starts after the pushes has returned and the bot has polled again (so
// the batch was accepted: the bot accepts a batch before it polls again), and the dispatcher's
// workers have drained. It ends the long polls meanwhile rather than wait them out.
func (f *fakeAPI) settle(b *Bot) {
	f.t.Helper()
	want := f.count("getUpdates") + 2
	deadline := time.Now().Add(20 * time.Second)
	for n := f.count("getUpdates"); n < want; n = f.count("getUpdates") {
		if time.Now().After(deadline) {
			f.t.Fatalf("getUpdates called %d times, want %d", n, want)
		}
		f.mu.Lock()
		f.kicks++
		f.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	b.disp.wait()
}
