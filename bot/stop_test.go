package bot

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
)

// The native stop (stop.go, Bot API 10.3) against the fake Bot API: drafts carry can_stop, a
// stopped_message_generation update stops the answer of that draft as /cancel does, and a
// server that refuses can_stop gets drafts without it.

// stoppable is an agent whose answer shows a draft and then waits to be stopped; unstopped, it
// answers after a minute (of the fake clock, in a synctest bubble).
func stoppable() *fakeAgent {
	return &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
		progress(r)(debtsSoFar)
		select {
		case <-ctx.Done():
			return api.Answer{}, ctx.Err()
		case <-time.After(time.Minute):
			return api.Answer{Scenario: api.S2General, Text: debtsFinal}, nil
		}
	}}
}

// TestNativeStopIsCancel: a press on the stop button of the draft an answer streams in stops
// that answer exactly as /cancel does: the same reply, nothing else sent. The draft asked for
// the button (can_stop=true, keep_on_stop left out), and getUpdates asked for the update.
func TestNativeStopIsCancel(t *testing.T) {
	stop := map[string]func(f *fakes.BotAPI, draftID int){
		"/cancel":     func(f *fakes.BotAPI, _ int) { f.Say(fakes.Text{ChatID: 10, Text: "/cancel"}) },
		"stop button": func(f *fakes.BotAPI, draftID int) { f.StopGeneration(10, draftID, 0) },
	}
	replies := map[string][]string{}
	for _, name := range []string{"/cancel", "stop button"} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newInProcessAPI(t)
				b := startModeBot(t, f, stoppable(), StreamAuto)
				f.Say(fakes.Text{ChatID: 10, Text: "кто нам должен?"})
				f.WaitCalls(t, "sendMessageDraft", 1)
				d := f.Drafts()[0]
				if d.CanStop != "true" || d.KeepOnStop != "" || d.ChatID != "10" {
					t.Errorf("draft %+v, want can_stop=true without keep_on_stop, in chat 10", d)
				}
				id, _ := strconv.Atoi(d.DraftID)
				stop[name](f, id)
				sent := f.WaitSent(t, 1)
				settle(t, f, b)
				for _, m := range f.Sent() {
					replies[name] = append(replies[name], m.Text)
				}
				if len(sent) != 1 || sent[0].Text != "Остановил подготовку ответа." {
					t.Errorf("sent %+v, want the reply to a stopped answer", f.Sent())
				}
				if c := f.Calls("getUpdates"); !strings.Contains(c[len(c)-1].Form["allowed_updates"], `"stopped_message_generation"`) {
					t.Errorf("getUpdates allowed_updates = %s, want stopped_message_generation among them", c[len(c)-1].Form["allowed_updates"])
				}
			})
		})
	}
	if diff := cmp.Diff(replies["/cancel"], replies["stop button"]); diff != "" {
		t.Errorf("the stop button's replies differ from /cancel's (-/cancel +stop):\n%s", diff)
	}
}

// TestNativeStopOfNoAnswer: a stop that names no answer being prepared — none runs, or the one
// running streams in another draft — is answered as a /cancel with nothing to stop, and stops
// nothing: the answer being prepared still arrives.
func TestNativeStopOfNoAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		b := startModeBot(t, f, stoppable(), StreamAuto)
		f.StopGeneration(10, 41, 0) // nothing runs
		f.WaitSent(t, 1)
		settle(t, f, b)

		f.Say(fakes.Text{ChatID: 10, Text: "кто нам должен?"})
		f.WaitCalls(t, "sendMessageDraft", 1)
		id, _ := strconv.Atoi(f.Drafts()[0].DraftID)
		f.StopGeneration(10, id+1, 0) // another draft than the answer's
		f.StopGeneration(20, id, 0)   // the answer's draft id, in another chat
		f.WaitSent(t, 3)
		time.Sleep(2 * time.Minute)
		settle(t, f, b)
		want := []string{cancelNothing, cancelNothing, cancelNothing, "Дебиторская задолженность на 31 марта составляет 1 200 000 ₽."}
		var got []string
		for _, m := range f.Sent() {
			got = append(got, m.Text)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("sent (-want +got):\n%s", diff)
		}
	})
}

// TestNativeStopRefused: a Bot API that refuses can_stop (400) gets the same draft without it at
// once, and every later draft without it; the answer streams and arrives as before.
func TestNativeStopRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		f.SetFault(fakes.Refuse("sendMessageDraft", http.StatusBadRequest, "Bad Request: can't parse can_stop",
			func(form map[string]string) bool { return form["can_stop"] != "" }))
		b := startModeBot(t, f, growingAgent(new(time.Time)), StreamAuto)
		f.Say(fakes.Text{ChatID: 10, Text: "кто нам должен?"})
		f.WaitSent(t, 1)
		settle(t, f, b)

		var tried []string
		for _, c := range f.Calls("sendMessageDraft") {
			tried = append(tried, c.Form["can_stop"]+" "+strconv.Itoa(c.Status))
		}
		want := []string{"true 400", " 200", " 200", " 200"}
		if diff := cmp.Diff(want, tried); diff != "" {
			t.Errorf("sendMessageDraft calls (can_stop, status) (-want +got):\n%s", diff)
		}
		if got := f.Sent(); len(got) != 1 || !strings.Contains(got[0].Text, "1 200 000 ₽") {
			t.Errorf("sent %+v, want the answer", got)
		}
		if n := f.Count("editMessageText"); n != 0 {
			t.Errorf("editMessageText %d times: drafts must go on, without the button", n)
		}
	})
}

// TestNativeStopOverWebhook: setWebhook asks for stopped_message_generation, and the update
// posted to the webhook stops the answer of its draft.
func TestNativeStopOverWebhook(t *testing.T) {
	f := newFakeAPI(t)
	addr := testnet.Addr(t)
	a := &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
		r.Progress(debtsSoFar)
		<-ctx.Done() // stopped, or the test's end
		return api.Answer{}, ctx.Err()
	}}
	startBot(t, f, a, Options{WebhookURL: "http://" + addr + "/hook", WebhookListen: addr, WebhookSecret: "hook_secret"})
	f.WaitCalls(t, "setWebhook", 1)
	if got := f.Calls("setWebhook")[0].Form["allowed_updates"]; got != allowedUpdates {
		t.Errorf("setWebhook allowed_updates = %s, want %s", got, allowedUpdates)
	}
	body, _ := json.Marshal(privateText(10, "кто нам должен?"))
	postHook(t, "http://"+addr+"/hook", body)
	f.WaitCalls(t, "sendMessageDraft", 1)
	id, _ := strconv.Atoi(f.Drafts()[0].DraftID)
	postHook(t, "http://"+addr+"/hook", []byte(`{"update_id":2,"stopped_message_generation":{"chat":{"id":10,"type":"private"},"draft_id":`+strconv.Itoa(id)+`}}`))
	if got := f.WaitSent(t, 1); got[0].Text != "Остановил подготовку ответа." || got[0].ChatID != "10" {
		t.Errorf("sent %+v, want the reply to a stopped answer", got)
	}
}

// TestParseStop: only a stop in a private chat that names a draft is read, as /cancel of it.
func TestParseStop(t *testing.T) {
	for _, tt := range []struct {
		name string
		body string
		want incoming
		ok   bool
	}{
		{"private", `{"update_id":7,"stopped_message_generation":{"chat":{"id":10,"type":"private"},"draft_id":3}}`,
			incoming{updateID: 7, chatID: 10, userID: 10, command: "cancel", stopDraft: 3}, true},
		{"in a thread", `{"update_id":7,"stopped_message_generation":{"chat":{"id":10,"type":"private"},"message_thread_id":5,"draft_id":3}}`,
			incoming{updateID: 7, chatID: 10, userID: 10, command: "cancel", stopDraft: 3}, true},
		{"a group", `{"update_id":7,"stopped_message_generation":{"chat":{"id":-100,"type":"supergroup"},"draft_id":3}}`, incoming{}, false},
		{"no chat", `{"update_id":7,"stopped_message_generation":{"draft_id":3}}`, incoming{}, false},
		{"no draft", `{"update_id":7,"stopped_message_generation":{"chat":{"id":10,"type":"private"}}}`, incoming{}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var u update
			if err := json.Unmarshal([]byte(tt.body), &u); err != nil {
				t.Fatal(err)
			}
			got, ok := u.parse(identity{id: 777, username: "finbot_test_bot"}, func(string) bool { return true })
			if ok != tt.ok {
				t.Fatalf("parse ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(incoming{})); diff != "" {
				t.Errorf("parse (-want +got):\n%s", diff)
			}
		})
	}
}
