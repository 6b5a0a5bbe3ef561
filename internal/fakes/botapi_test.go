package fakes_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/internal/fakes"
)

const token = "42:fake-token"

// botClient is go-telegram-bot-api's client pointed at f, as the bot builds it.
func botClient(t *testing.T, f *fakes.BotAPI) *tgbotapi.BotAPI {
	t.Helper()
	client := f.Client()
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	api, err := tgbotapi.NewBotAPIWithClient(token, f.URL()+"/bot%s/%s", client)
	if err != nil {
		t.Fatalf("getMe: %v", err)
	}
	return api
}

func TestBotAPISendEditDelete(t *testing.T) {
	f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
	api := botClient(t, f)
	if api.Self.ID != 777 || api.Self.UserName != "finbot_test_bot" {
		t.Errorf("getMe = %+v", api.Self)
	}
	m, err := api.Send(tgbotapi.NewMessage(10, "черновик"))
	if err != nil || m.MessageID != 1001 || m.Text != "черновик" {
		t.Fatalf("sendMessage = %+v, %v; want message 1001", m, err)
	}
	if _, err := api.Send(tgbotapi.NewEditMessageText(10, m.MessageID, "черновик")); !isAPIError(err, 400, "message is not modified") {
		t.Errorf("an edit that changes nothing: %v", err)
	}
	if _, err := api.Send(tgbotapi.NewEditMessageText(10, m.MessageID, "ответ")); err != nil {
		t.Errorf("edit: %v", err)
	}
	if _, err := api.Send(tgbotapi.NewEditMessageText(11, m.MessageID, "ответ")); !isAPIError(err, 400, "message to edit not found") {
		t.Errorf("an edit in another chat: %v", err)
	}
	if _, err := api.Send(tgbotapi.NewMessage(10, strings.Repeat("я", 4097))); !isAPIError(err, 400, "message is too long") {
		t.Errorf("4097 characters: %v", err)
	}
	msg := tgbotapi.NewMessage(10, "курс")
	msg.Entities = []tgbotapi.MessageEntity{{Type: "bold", Offset: 2, Length: 3}}
	if _, err := api.Send(msg); !isAPIError(err, 400, "can't parse entities") {
		t.Errorf("an entity past the text: %v", err)
	}
	photo := tgbotapi.NewPhoto(10, tgbotapi.FileBytes{Name: "chart.png", Bytes: []byte("PNG")})
	photo.Caption = "график"
	if _, err := api.Send(photo); err != nil {
		t.Errorf("sendPhoto: %v", err)
	}
	if _, err := api.Request(tgbotapi.NewDeleteMessage(10, m.MessageID)); err != nil {
		t.Errorf("deleteMessage: %v", err)
	}
	if _, err := api.Request(tgbotapi.NewDeleteMessage(10, m.MessageID)); !isAPIError(err, 400, "message to delete not found") {
		t.Errorf("deleting twice: %v", err)
	}
	if _, err := api.Request(tgbotapi.NewChatAction(10, tgbotapi.ChatTyping)); err != nil {
		t.Errorf("sendChatAction: %v", err)
	}
	if _, err := api.MakeRequest("sendSticker", nil); !isAPIError(err, 404, "Not Found") {
		t.Errorf("an unknown method: %v", err)
	}

	if got := f.Sent(); len(got) != 1 || got[0].Text != "черновик" || got[0].ChatID != "10" {
		t.Errorf("Sent = %+v, want the draft as sent", got)
	}
	if got := f.Edits(); len(got) != 1 || got[0].Text != "ответ" || got[0].MessageID != "1001" {
		t.Errorf("Edits = %+v", got)
	}
	if p := f.Photos(); len(p) != 1 || string(p[0].File) != "PNG" || p[0].Text != "график" || p[0].ID != 1002 {
		t.Errorf("Photos = %+v", p)
	}
	want := []fakes.Message{
		{Method: "sendMessage", ID: 1001, ChatID: "10", Text: "ответ", Entities: "null", Deleted: true},
		{Method: "sendPhoto", ID: 1002, ChatID: "10", Text: "график", Entities: "null", File: []byte("PNG")},
	}
	if diff := cmp.Diff(want, f.Chat(10)); diff != "" {
		t.Errorf("Chat(10) (-want +got):\n%s", diff)
	}
	if n := f.Count("sendMessage"); n != 3 {
		t.Errorf("sendMessage answered %d times, want 3 (refusals count)", n)
	}
}

func isAPIError(err error, code int, text string) bool {
	var e *tgbotapi.Error
	return errors.As(err, &e) && e.Code == code && strings.Contains(e.Message, text)
}

// Flood control through the fault hook, on the fake clock: the client reads retry_after.
func TestBotAPIFault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token, InProcess: true})
		api := botClient(t, f)
		f.SetFault(func(method string, _ map[string]string) (int, string, bool) {
			return http.StatusTooManyRequests, fakes.RetryAfter(3), method == "sendMessage"
		})
		_, err := api.Send(tgbotapi.NewMessage(10, "привет"))
		var e *tgbotapi.Error
		if !errors.As(err, &e) || e.Code != 429 || e.RetryAfter != 3 {
			t.Errorf("sendMessage under flood control: %v, want 429 with retry_after 3", err)
		}
		calls := f.Calls("sendMessage")
		if len(calls) != 1 || calls[0].Status != 429 || calls[0].Description != "Too Many Requests: retry after 3" || calls[0].Form["text"] != "привет" {
			t.Errorf("calls = %+v", calls)
		}
		f.SetFault(fakes.Refuse("sendMessage", http.StatusForbidden, "Forbidden: bot was blocked by the user",
			func(form map[string]string) bool { return form["chat_id"] == "10" }))
		if _, err := api.Send(tgbotapi.NewMessage(10, "привет")); !isAPIError(err, 403, "bot was blocked") {
			t.Errorf("a blocked user: %v", err)
		}
		if _, err := api.Send(tgbotapi.NewMessage(11, "привет")); err != nil {
			t.Errorf("another user: %v", err)
		}
		f.SetFault(nil)
		if _, err := api.Send(tgbotapi.NewMessage(10, "привет")); err != nil {
			t.Errorf("after the fault: %v", err)
		}
	})
}

// getUpdates honours offset and limit, long-polls until an update arrives, and Say attaches
// the entities Telegram would.
func TestBotAPIUpdates(t *testing.T) {
	f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
	api := botClient(t, f)
	var queued []int
	u1, m1 := f.Say(fakes.Text{ChatID: -100, ChatType: "supergroup", UserID: 5, Text: "/rate@finbot_test_bot usd",
		Queued: func(u, m int) { queued = append(queued, u, m) }})
	f.Say(fakes.Text{ChatID: -100, ChatType: "supergroup", UserID: 6, Text: "скажи, @finbot_test_bot, курс"})
	if u1 != 1 || m1 != 1001 || !cmp.Equal(queued, []int{1, 1001}) {
		t.Errorf("Say = %d, %d (Queued saw %v), want update 1, message 1001", u1, m1, queued)
	}
	ups, err := api.GetUpdates(tgbotapi.UpdateConfig{Offset: 0, Limit: 1})
	if err != nil || len(ups) != 1 || ups[0].UpdateID != 1 {
		t.Fatalf("getUpdates limit 1 = %+v, %v", ups, err)
	}
	if got := ups[0].Message; got.Command() != "rate" || got.From.ID != 5 || got.Chat.Type != "supergroup" {
		t.Errorf("first update = %+v", got)
	}
	ups, _ = api.GetUpdates(tgbotapi.UpdateConfig{Offset: 2})
	want := []tgbotapi.MessageEntity{{Type: "mention", Offset: 7, Length: 16}}
	if len(ups) != 1 || !cmp.Equal(ups[0].Message.Entities, want) {
		t.Errorf("second update = %+v, want the mention entity %+v", ups, want)
	}
	done := make(chan []tgbotapi.Update)
	go func() {
		ups, _ := api.GetUpdates(tgbotapi.UpdateConfig{Offset: 3, Timeout: 10})
		done <- ups
	}()
	f.Push(tgbotapi.Update{UpdateID: 42, Message: &tgbotapi.Message{MessageID: 1, Chat: &tgbotapi.Chat{ID: 7, Type: "private"}, Text: "ещё"}})
	if ups := <-done; len(ups) != 1 || ups[0].UpdateID != 42 {
		t.Errorf("the long poll returned %+v, want update 42", ups)
	}
	go func() {
		ups, _ := api.GetUpdates(tgbotapi.UpdateConfig{Offset: 43, Timeout: 10})
		done <- ups
	}()
	var kicked []tgbotapi.Update
	for waiting := true; waiting; {
		f.Kick() // until the poll has started and been kicked
		select {
		case kicked = <-done:
			waiting = false
		case <-time.After(time.Millisecond):
		}
	}
	if len(kicked) != 0 {
		t.Errorf("a kicked long poll returned %+v, want nothing", kicked)
	}
	if c := f.Calls("getUpdates"); len(c) != 4 || !cmp.Equal(c[2].Updates, []int{42}) {
		t.Errorf("getUpdates calls = %+v", c)
	}
}

// A file users sent: getFile gives its path, the file URL its bytes.
func TestBotAPIFiles(t *testing.T) {
	f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
	api := botClient(t, f)
	f.AddFile("doc1", []byte("%PDF"))
	file, err := api.GetFile(tgbotapi.FileConfig{FileID: "doc1"})
	if err != nil || file.FileSize != 4 {
		t.Fatalf("getFile = %+v, %v", file, err)
	}
	resp, err := http.Get(f.URL() + "/file/bot" + token + "/" + file.FilePath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || string(body) != "%PDF" || f.Downloads() != 1 {
		t.Errorf("download = %q, %v (%d downloads)", body, err, f.Downloads())
	}
	if _, err := api.GetFile(tgbotapi.FileConfig{FileID: "nope"}); !isAPIError(err, 400, "invalid file_id") {
		t.Errorf("an unknown file: %v", err)
	}
}

// Say with a Document sends the file with the text as its caption, entities and all.
func TestBotAPISayDocument(t *testing.T) {
	f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
	api := botClient(t, f)
	f.Say(fakes.Text{ChatID: -100, ChatType: "supergroup", UserID: 5, Text: "@finbot_test_bot что в договоре?",
		Document: &tgbotapi.Document{FileID: "doc1", FileUniqueID: "u1", FileName: "d.pdf"}})
	ups, err := api.GetUpdates(tgbotapi.UpdateConfig{})
	if err != nil || len(ups) != 1 {
		t.Fatalf("getUpdates = %+v, %v", ups, err)
	}
	m := ups[0].Message
	want := []tgbotapi.MessageEntity{{Type: "mention", Offset: 0, Length: 16}}
	if m.Document == nil || m.Document.FileID != "doc1" || m.Text != "" || m.Caption != "@finbot_test_bot что в договоре?" ||
		len(m.Entities) != 0 || !cmp.Equal(m.CaptionEntities, want) {
		t.Errorf("message = %+v, want the document captioned, caption entities %+v", m, want)
	}
}
