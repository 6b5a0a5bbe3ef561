package bot

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/internal/fakes"
)

// Replies only the presser sees (ephemeral.go, Bot API 10.3) against the fake Bot API.

// groupPresses answers the presses of groupPressAnswers: a drilldown's figures, an export with
// nothing to export, an export that is only a file, and a drilldown whose answer has buttons.
func groupPressAgent() *fakeAgent {
	return &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		switch r.Text {
		case "x:file-only":
			return api.Answer{Document: &api.Document{Name: "receivables.xlsx", Bytes: []byte("PK-xlsx")}}, nil
		case "x:nothing":
			return api.Answer{Text: "Нечего выгружать: сначала спросите о долгах или остатках."}, nil
		case "b:with-buttons":
			return api.Answer{Text: "Документы ООО «Альфа»", Buttons: []api.Button{{Text: "Выгрузить в Excel", Data: "x:abcdefgh2345"}}}, nil
		}
		return api.Answer{Text: "Открытые позиции ООО «Альфа»"}, nil
	}}
}

// delivered is how a reply reached the chat: the message it replies to, and to whom alone it
// shows ("" for everyone).
type delivered struct{ ReplyTo, Ephemeral string }

// groupPressReplies presses buttons in a group (and one in a private chat) and returns how each
// reply was delivered, by its text ("document" for the file).
func groupPressReplies(t *testing.T, f *fakes.BotAPI) map[string]delivered {
	t.Helper()
	b := startBot(t, f, groupPressAgent(), Options{Access: Access{Users: []int64{7, 10}}})
	const group = -100500
	f.Push(press(group, 7, 2001, "b:op:cb61f26ca4d1:20260331:34adc550-78a:"))
	f.Push(press(group, 7, 2002, "x:nothing"))
	f.Push(press(group, 7, 2003, "x:file-only"))
	f.Push(press(group, 7, 2005, "b:with-buttons"))
	f.Push(press(group, 8, 2004, "x:nothing")) // not on the access list
	f.Push(press(10, 10, 3001, "x:nothing"))   // a private chat
	settle(t, f, b)
	f.WaitCalls(t, "sendDocument", 1)
	got := map[string]delivered{}
	for _, m := range f.Sent() {
		key := m.Text
		if m.ChatID == "10" {
			key = "private: " + key
		}
		got[key] = delivered{m.ReplyTo, m.Ephemeral}
	}
	for _, d := range f.Documents() {
		got["document"] = delivered{d.ReplyTo, d.Ephemeral}
	}
	return got
}

// onlyTo is the ephemeral_message_parameters of a reply to user's press of data in the group.
func onlyTo(user int64, data string) string {
	return fmt.Sprintf(`{"receiver_user_id":%d,"callback_query_id":"cb--100500-%d-%s"}`, user, user, data)
}

// TestGroupPressAnswersOnlyThePresser: in a group, what a press brings without buttons of its
// own — a drilldown's figures, a refusal, an export's file — goes to the presser alone
// (ephemeral_message_parameters with receiver_user_id and callback_query_id, replying to
// nothing); an answer with buttons stays in the group, replying to the button's message; a
// private chat is as before.
func TestGroupPressAnswersOnlyThePresser(t *testing.T) {
	f := newFakeAPI(t)
	got := groupPressReplies(t, f)
	want := map[string]delivered{
		"Открытые позиции ООО «Альфа»":                              {"", onlyTo(7, "b:op:cb61f26ca4d1:20260331:34adc550-78a:")},
		"Нечего выгружать: сначала спросите о долгах или остатках.": {"", onlyTo(7, "x:nothing")},
		"document": {"", onlyTo(7, "x:file-only")},
		"Документы ООО «Альфа»": {"2005", ""},
		"Извините, этот бот доступен только сотрудникам компании. Чтобы получить доступ, обратитесь к администратору.": {"", onlyTo(8, "x:nothing")},
		"private: Нечего выгружать: сначала спросите о долгах или остатках.":                                           {"", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replies delivered (-want +got):\n%s", diff)
	}
}

// TestGroupPressEphemeralRefused: where Telegram refuses a message to one member (400), each
// reply goes to the group once, replying to the message the button was under, as before Bot API
// 10.3.
func TestGroupPressEphemeralRefused(t *testing.T) {
	f := newFakeAPI(t)
	ephemeral := func(form map[string]string) bool { return form["ephemeral_message_parameters"] != "" }
	refuse := map[string]fakes.Fault{
		"sendMessage":  fakes.Refuse("sendMessage", http.StatusBadRequest, "Bad Request: EPHEMERAL_MESSAGES_UNSUPPORTED", ephemeral),
		"sendDocument": fakes.Refuse("sendDocument", http.StatusBadRequest, "Bad Request: EPHEMERAL_MESSAGES_UNSUPPORTED", ephemeral),
	}
	f.SetFault(func(method string, form map[string]string) (int, string, bool) {
		if h, ok := refuse[method]; ok {
			return h(method, form)
		}
		return 0, "", false
	})
	got := groupPressReplies(t, f)
	want := map[string]delivered{
		"Открытые позиции ООО «Альфа»":                              {"2001", ""},
		"Нечего выгружать: сначала спросите о долгах или остатках.": {"2002", ""},
		"document": {"2003", ""},
		"Документы ООО «Альфа»": {"2005", ""},
		"Извините, этот бот доступен только сотрудникам компании. Чтобы получить доступ, обратитесь к администратору.": {"2004", ""},
		"private: Нечего выгружать: сначала спросите о долгах или остатках.":                                           {"", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replies delivered (-want +got):\n%s", diff)
	}
	if n := len(f.Sent()); n != 5 {
		t.Errorf("%d messages in the chats, want 5: each reply once", n)
	}
	refused := 0
	for _, c := range append(f.Calls("sendMessage"), f.Calls("sendDocument")...) {
		if c.Status == http.StatusBadRequest {
			refused++
		}
	}
	if refused != 4 {
		t.Errorf("%d sends refused, want 4: each reply to one member tried once", refused)
	}
}
