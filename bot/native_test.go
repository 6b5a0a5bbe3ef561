package bot

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/internal/fakes"
)

// Native draft streaming (native.go) against the fake Bot API, the whole bot on synctest's fake
// clock: pacing, flood waits and the renewal take no real time, and the moments drafts reach
// the fake are exact.

const (
	debtsSoFar = "Дебиторская задолженность на 31 марта"
	debtsFinal = debtsSoFar + " составляет **1 200 000 ₽**."
)

// startModeBot runs a bot in StreamMode mode against f, with metrics of its own.
func startModeBot(t *testing.T, f *fakes.BotAPI, a Answerer, mode StreamMode) *Bot {
	t.Helper()
	return startBot(t, f, a, Options{StreamMode: mode, Metrics: NewMetrics(prometheus.NewRegistry())})
}

// progress is r.Progress, or a no-op where the answer does not stream (a group, drafts refused
// with STREAM_MODE=draft).
func progress(r api.Request) func(string) {
	if r.Progress == nil {
		return func(string) {}
	}
	return r.Progress
}

// growingAgent writes the debts answer in steps on the (fake) clock: a text too short to show,
// two texts 100 ms apart, one after a pause; then it answers with buttons. start is when it
// began.
func growingAgent(start *time.Time) *fakeAgent {
	return &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		*start = time.Now()
		p := progress(r)
		p("Дебиторская")                        // under minChars: nothing yet
		p(debtsSoFar)                           // 0 ms: the first draft, at once
		time.Sleep(100 * time.Millisecond)      //
		p(debtsSoFar + " составляет")           // 100 ms: waits for the interval…
		time.Sleep(100 * time.Millisecond)      //
		p(debtsSoFar + " составляет 1 200 000") // 200 ms: …and shows this instead, at 300 ms
		time.Sleep(time.Second)
		p(debtsSoFar + " составляет 1 200 000 ₽.") // 1.2 s: at once
		time.Sleep(time.Second)
		return api.Answer{Scenario: api.S2General, Text: debtsFinal, Buttons: []api.Button{{Text: "По контрагентам"}}}, nil
	}}
}

// TestNativeDraftsGrow: in a private chat the answer grows as one native draft (the same
// draft_id, no call sooner than 300 ms after the last), then arrives as one ordinary message,
// formatted and with its buttons; nothing is edited or deleted, and the draft is gone.
func TestNativeDraftsGrow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		var start time.Time
		b := startModeBot(t, f, growingAgent(&start), StreamAuto)
		f.Say(fakes.Text{ChatID: 10, Text: "кто нам должен?"})
		got := f.WaitSent(t, 1)
		settle(t, f, b)

		var texts, ids []string
		var at []time.Duration
		for _, c := range f.Calls("sendMessageDraft") {
			texts, ids = append(texts, c.Form["text"]), append(ids, c.Form["draft_id"])
			at = append(at, c.Arrived.Sub(start))
			if c.Form["chat_id"] != "10" || c.Form["entities"] != "" || c.Status != http.StatusOK {
				t.Errorf("draft %+v, want plain text to chat 10, accepted", c.Form)
			}
		}
		wantTexts := []string{debtsSoFar, debtsSoFar + " составляет 1 200 000", debtsSoFar + " составляет 1 200 000 ₽."}
		if diff := cmp.Diff(wantTexts, texts); diff != "" {
			t.Errorf("draft texts (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"1", "1", "1"}, ids); diff != "" {
			t.Errorf("draft_ids (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]time.Duration{0, 300 * time.Millisecond, 1200 * time.Millisecond}, at); diff != "" {
			t.Errorf("drafts sent at (-want +got):\n%s", diff)
		}
		if len(got) != 1 || got[0].Text != "Дебиторская задолженность на 31 марта составляет 1 200 000 ₽." ||
			!strings.Contains(got[0].Entities, `"bold"`) || !strings.Contains(got[0].Markup, "По контрагентам") || got[0].ReplyTo != "" {
			t.Errorf("sent %+v, want one message: the answer, formatted, with its button", got)
		}
		if n, d := f.Count("editMessageText"), f.Count("deleteMessage"); n+d != 0 {
			t.Errorf("editMessageText %d, deleteMessage %d; want none", n, d)
		}
		if d, shown := f.ShownDraft(10); shown {
			t.Errorf("the chat still shows the draft %+v after the answer", d)
		}
		m := b.opts.Metrics
		if n := counter(t, m.streamDrafts); n != 3 {
			t.Errorf("finbot_stream_drafts_total = %v, want 3", n)
		}
		if n := counter(t, m.streamEdits); n != 0 {
			t.Errorf("finbot_stream_edits_total = %v, want 0", n)
		}
	})
}

// TestNativeDraftsOverHTTP: the same over a listening httptest server, on the real clock (the
// agent waits for the draft to arrive rather than for time to pass).
func TestNativeDraftsOverHTTP(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		r.Progress(debtsSoFar)
		waitUntil(t, "the draft is shown", func() bool { _, shown := f.ShownDraft(10); return shown })
		return api.Answer{Text: debtsFinal, Buttons: []api.Button{{Text: "По контрагентам"}}}, nil
	}}
	b := startModeBot(t, f, a, StreamAuto)
	f.Push(privateText(10, "кто нам должен?"))
	got := f.WaitSent(t, 1)
	b.disp.wait()
	if d := f.Drafts(); len(d) != 1 || d[0].Text != debtsSoFar || d[0].DraftID != "1" || d[0].ChatID != "10" {
		t.Errorf("drafts %+v, want the partial text as draft 1 in chat 10", d)
	}
	if len(got) != 1 || !hasEntities(got[0].Entities) || !strings.Contains(got[0].Markup, "По контрагентам") || f.Count("editMessageText") != 0 {
		t.Errorf("sent %+v, %d edits; want the formatted answer with its button, no edit", got, f.Count("editMessageText"))
	}
	waitNoStreamers(t)
}

// TestNativeDraftRenewed: a text that stops changing (a long tool call) is sent again before
// the client's 30 s are up, so the draft does not vanish mid-answer; the next answer gets the
// next draft_id.
func TestNativeDraftRenewed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		var start time.Time
		a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
			start = time.Now()
			r.Progress(debtsSoFar)
			time.Sleep(45 * time.Second)
			if _, shown := f.ShownDraft(10); !shown {
				t.Error("the draft vanished while the answer was being written")
			}
			return api.Answer{Text: debtsFinal}, nil
		}}
		b := startModeBot(t, f, a, StreamAuto)
		f.Say(fakes.Text{ChatID: 10, Text: "кто нам должен?"})
		settle(t, f, b) // the answer takes 45 s: longer than WaitSent waits
		f.WaitSent(t, 1)
		var at []time.Duration
		for _, c := range f.Calls("sendMessageDraft") {
			at = append(at, c.Arrived.Sub(start))
			if c.Form["text"] != debtsSoFar || c.Form["draft_id"] != "1" {
				t.Errorf("draft %+v, want the same text and draft_id 1", c.Form)
			}
		}
		if diff := cmp.Diff([]time.Duration{0, draftRefresh, 2 * draftRefresh}, at); diff != "" {
			t.Errorf("drafts sent at (-want +got):\n%s", diff)
		}

		f.Say(fakes.Text{ChatID: 10, Text: "а на 30 апреля?"})
		settle(t, f, b)
		f.WaitSent(t, 2)
		if c := f.Calls("sendMessageDraft"); c[len(c)-1].Form["draft_id"] != "2" {
			t.Errorf("the next answer's draft_id = %s, want 2", c[len(c)-1].Form["draft_id"])
		}
	})
}

// TestNativeDraftsRefused: where the Bot API refuses sendMessageDraft (an older server, a peer
// it is not allowed for, an emulator that knows no such method) the answer streams with edits
// as before issue #18, and the bot does not try drafts again; with STREAM_MODE=draft it does not
// stream at all. Each answer arrives once.
func TestNativeDraftsRefused(t *testing.T) {
	refusals := []struct {
		name  string
		opts  fakes.BotAPIOptions
		fault fakes.Fault
		// tries is how often the bot calls sendMessageDraft before it gives drafts up: a 400 is
		// tried once more without can_stop (drafts.go), which may be all that was refused.
		tries int
	}{
		{"Bot API before 9.3", fakes.BotAPIOptions{NoDrafts: true}, nil, 1},
		{"not allowed", fakes.BotAPIOptions{}, fakes.Refuse("sendMessageDraft", http.StatusBadRequest, "Bad Request: TEXTDRAFT_PEER_INVALID", nil), 2},
		{"emulator", fakes.BotAPIOptions{}, func(method string, _ map[string]string) (int, string, bool) {
			// telegram-test-api: HTTP 500 and no Bot API object (wire-formats.md §3.9).
			return http.StatusInternalServerError, `{"message":"API method 'sendMessageDraft' is not supported."}`, method == "sendMessageDraft"
		}, 1},
	}
	for _, mode := range []StreamMode{StreamAuto, StreamDraft} {
		for _, r := range refusals {
			t.Run(string(mode)+"/"+r.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					o := r.opts
					o.Token, o.MaxPoll, o.InProcess = testToken, 200*time.Millisecond, true
					f := fakes.NewTestBotAPI(t, o)
					f.SetFault(r.fault)
					a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
						p := progress(r)
						p(debtsSoFar)
						time.Sleep(2 * time.Second)
						p(debtsSoFar + " составляет")
						time.Sleep(2 * time.Second)
						return api.Answer{Text: debtsFinal}, nil
					}}
					b := startModeBot(t, f, a, mode)
					for i := 1; i <= 2; i++ {
						f.Say(fakes.Text{ChatID: 10, Text: "кто нам должен?"})
						settle(t, f, b)
						time.Sleep(5 * time.Second)
						settle(t, f, b)
					}
					if n := f.Count("sendMessageDraft"); n != r.tries {
						t.Errorf("sendMessageDraft tried %d times, want %d: the bot remembers the refusal", n, r.tries)
					}
					var chat []string
					for _, m := range f.Chat(10) {
						chat = append(chat, m.Text)
					}
					final := "Дебиторская задолженность на 31 марта составляет 1 200 000 ₽."
					if diff := cmp.Diff([]string{final, final}, chat); diff != "" {
						t.Errorf("the chat shows (-want +got):\n%s", diff)
					}
					var edits []string
					for _, e := range f.Edits() {
						edits = append(edits, e.Text)
					}
					var want []string // StreamDraft: no streaming once drafts are refused
					if mode == StreamAuto {
						// Each answer: a plain message at once, one edit two seconds later, the
						// formatted final edit.
						want = []string{debtsSoFar + " составляет", final, debtsSoFar + " составляет", final}
					}
					if diff := cmp.Diff(want, edits); diff != "" {
						t.Errorf("edits (-want +got):\n%s", diff)
					}
					if n := f.Count("deleteMessage"); n != 0 {
						t.Errorf("deleteMessage %d times, want none", n)
					}
				})
			})
		}
	}
}

// TestNativeDraftFloodWaits: a 429 on a draft waits retry_after and stays with drafts; no edit
// takes over (it would spend the chat's send budget in the same flood).
func TestNativeDraftFloodWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		floods := 1
		f.SetFault(func(method string, _ map[string]string) (int, string, bool) {
			if method != "sendMessageDraft" || floods == 0 {
				return 0, "", false
			}
			floods--
			return http.StatusTooManyRequests, fakes.RetryAfter(3), true
		})
		var start time.Time
		a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
			start = time.Now()
			r.Progress(debtsSoFar)
			time.Sleep(time.Second)
			r.Progress(debtsSoFar + " составляет")
			time.Sleep(5 * time.Second)
			return api.Answer{Text: debtsFinal}, nil
		}}
		b := startModeBot(t, f, a, StreamAuto)
		f.Say(fakes.Text{ChatID: 10, Text: "кто нам должен?"})
		f.WaitSent(t, 1)
		settle(t, f, b)
		calls := f.Calls("sendMessageDraft")
		if len(calls) != 2 || calls[0].Status != http.StatusTooManyRequests || calls[1].Arrived.Sub(start) != 3*time.Second ||
			calls[1].Form["text"] != debtsSoFar+" составляет" {
			t.Errorf("drafts %+v; want the 429, then the latest text 3 s later", calls)
		}
		if n := f.Count("editMessageText"); n != 0 || len(f.Sent()) != 1 || b.core.natives.refused.Load() {
			t.Errorf("editMessageText %d, sent %d, drafts refused %v; want 0, 1 (the answer), false",
				n, len(f.Sent()), b.core.natives.refused.Load())
		}
	})
}

// TestNoNativeDraftsInGroups: a group question is answered by a reply, with neither drafts nor
// edits by default; a group with edit streaming on (today's opt-in) still gets no native draft.
func TestNoNativeDraftsInGroups(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		var start time.Time
		b := startModeBot(t, f, growingAgent(&start), StreamAuto)
		_, asked := f.Say(fakes.Text{ChatID: -100, ChatType: "supergroup", UserID: 10, Text: "@finbot_test_bot кто нам должен?"})
		got := f.WaitSent(t, 1)
		settle(t, f, b)
		if n, e := f.Count("sendMessageDraft"), f.Count("editMessageText"); n+e != 0 {
			t.Errorf("sendMessageDraft %d, editMessageText %d in a group; want none", n, e)
		}
		if len(got) != 1 || got[0].ReplyTo != strconv.Itoa(asked) || !strings.Contains(got[0].Markup, "По контрагентам") {
			t.Errorf("sent %+v, want the answer as a reply to %d", got, asked)
		}
	})
	c := newTestCore(&fakeNative{})
	c.stream.groupInterval = 3 * time.Second
	if s := c.newStreamer(t.Context(), incoming{chatID: -100, userID: 10, messageID: 7, group: true}); s == nil || s.nd != nil {
		t.Errorf("group streamer = %+v, want one that edits", s)
	}
	if s := c.newStreamer(t.Context(), incoming{chatID: 10, userID: 10}); s == nil || s.nd == nil {
		t.Errorf("private streamer = %+v, want one with native drafts", s)
	}
}

// TestNativeDraftCancelled: /cancel mid-stream leaves the notice as the only message: no final
// answer, no draft after the notice (it would stand below it), nothing edited or deleted.
func TestNativeDraftCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		a := &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
			r.Progress(debtsSoFar)
			time.Sleep(time.Second)
			r.Progress(debtsSoFar + " составляет")
			<-ctx.Done()
			r.Progress(debtsSoFar + " составляет 1 200 000 ₽.") // a late one, as an LLM stream's
			return api.Answer{Text: debtsFinal}, ctx.Err()
		}}
		b := startModeBot(t, f, a, StreamAuto)
		f.Say(fakes.Text{ChatID: 10, Text: "кто нам должен?"})
		time.Sleep(2 * time.Second)
		f.Say(fakes.Text{ChatID: 10, Text: "/cancel"})
		got := f.WaitSent(t, 1)
		settle(t, f, b)
		if d, shown := f.ShownDraft(10); shown {
			t.Errorf("the chat still shows the draft %+v", d)
		}
		time.Sleep(time.Minute) // whatever might still come
		settle(t, f, b)

		if sent := f.Sent(); len(sent) != 1 || !strings.Contains(got[0].Text, "Остановил") {
			t.Errorf("sent %+v, want only the notice that the answer was stopped", sent)
		}
		var texts []string
		for _, c := range f.Calls("sendMessageDraft") {
			texts = append(texts, c.Form["text"])
			if !c.Arrived.Before(f.Calls("sendMessage")[0].Arrived) {
				t.Errorf("draft %q arrived after the notice", c.Form["text"])
			}
		}
		if diff := cmp.Diff([]string{debtsSoFar, debtsSoFar + " составляет"}, texts); diff != "" {
			t.Errorf("drafts (-want +got):\n%s", diff)
		}
		if n, d := f.Count("editMessageText"), f.Count("deleteMessage"); n+d != 0 {
			t.Errorf("editMessageText %d, deleteMessage %d; want none", n, d)
		}
	})
}

func TestStreamModes(t *testing.T) {
	tests := []struct {
		mode          StreamMode
		native, edits bool
	}{
		{"", true, true},
		{StreamAuto, true, true},
		{"AUTO?", true, true},
		{StreamDraft, true, false},
		{StreamEdit, false, true},
		{StreamOff, false, false},
	}
	for _, tt := range tests {
		c := streamConfigFor(tt.mode)
		if c.native != tt.native || c.interval >= 0 != tt.edits || c.groupInterval >= 0 {
			t.Errorf("streamConfigFor(%q) = %+v, want native %v, edits %v, none in groups", tt.mode, c, tt.native, tt.edits)
		}
	}
	if c := streamConfigFor(StreamAuto); c.draftInterval < 250*time.Millisecond || c.interval < time.Second {
		t.Errorf("auto paces drafts %s and edits %s apart, want ≥ 250 ms and ≥ 1 s", c.draftInterval, c.interval)
	}
	off := newTestCore(&fakeNative{})
	off.stream = streamConfigFor(StreamOff)
	if s := off.newStreamer(t.Context(), incoming{chatID: 10}); s != nil {
		t.Error("StreamOff: a streamer")
	}
	draftOnly := newTestCore(&fakeNative{})
	draftOnly.stream = streamConfigFor(StreamDraft)
	draftOnly.natives.refuse()
	if s := draftOnly.newStreamer(t.Context(), incoming{chatID: 10}); s != nil {
		t.Error("StreamDraft with drafts refused: a streamer")
	}
}

func TestDraftFailure(t *testing.T) {
	tests := []struct {
		name           string
		err            error
		refused, retry bool
		wait           time.Duration
	}{
		{"not found", &tgbotapi.Error{Code: 404, Message: "Not Found"}, true, false, 0},
		{"peer invalid", &tgbotapi.Error{Code: 400, Message: "Bad Request: TEXTDRAFT_PEER_INVALID"}, true, false, 0},
		{"no Bot API object", explain(&tgbotapi.Error{}), true, false, 0},
		{"flood", &tgbotapi.Error{Code: 429, ResponseParameters: tgbotapi.ResponseParameters{RetryAfter: 7}}, false, true, 7 * time.Second},
		{"blocked", &tgbotapi.Error{Code: 403, Message: "Forbidden: bot was blocked by the user"}, false, false, 0},
		{"server", &tgbotapi.Error{Code: 502, Message: "Bad Gateway"}, false, true, time.Second},
		{"transport", errors.New("connection reset by peer"), false, true, time.Second},
	}
	for _, tt := range tests {
		refused, wait, retry := draftFailure(tt.err)
		if refused != tt.refused || retry != tt.retry || wait != tt.wait {
			t.Errorf("%s: refused %v, wait %s, retry %v; want %v, %s, %v", tt.name, refused, wait, retry, tt.refused, tt.wait, tt.retry)
		}
	}
}

func TestNativeDraftIDs(t *testing.T) {
	var n nativeDrafts
	if a, b := n.next(), n.next(); a != 1 || b != 2 {
		t.Errorf("first ids %d, %d; want 1, 2", a, b)
	}
	n.last.Store(math.MaxInt32 - 1)
	if a, b := n.next(), n.next(); a != math.MaxInt32 || b != 1 {
		t.Errorf("ids at the end of the range %d, %d; want %d, 1", a, b, math.MaxInt32)
	}
	n.last.Store(math.MaxUint32)
	if id := n.next(); id <= 0 || id > math.MaxInt32 {
		t.Errorf("id after the counter wraps = %d", id)
	}
	if !n.refuse() || n.refuse() {
		t.Error("refuse: want news once")
	}
}

// fakeNative is a fakeDrafter that has native drafts too.
type fakeNative struct{ fakeDrafter }

func (*fakeNative) sendDraft(context.Context, int64, int, string) error { return nil }

func counter(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}
