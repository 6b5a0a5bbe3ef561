package fakes_test

import (
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/internal/fakes"
)

// sendMessageDraft as Bot API 9.5 answers it: true; private chats only; a non-zero draft_id;
// the text checked as a message's. The chat shows the draft until the bot's next message or 30 s
// without an update. On the fake clock, so that the 30 s take none.
func TestBotAPIDrafts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token, InProcess: true})
		api := botClient(t, f)
		draft := func(chat, id, text string) error {
			resp, err := api.MakeRequest("sendMessageDraft", tgbotapi.Params{"chat_id": chat, "draft_id": id, "text": text})
			if err == nil && string(resp.Result) != "true" {
				t.Errorf("sendMessageDraft result = %s, want true", resp.Result)
			}
			return err
		}
		if err := draft("10", "7", "Дебиторская"); err != nil {
			t.Fatalf("sendMessageDraft: %v", err)
		}
		if err := draft("10", "7", "Дебиторская задолженность"); err != nil {
			t.Fatalf("sendMessageDraft: %v", err)
		}
		if d, ok := f.ShownDraft(10); !ok || d.Text != "Дебиторская задолженность" || d.DraftID != "7" {
			t.Errorf("ShownDraft(10) = %+v, %v; want the latest text of draft 7", d, ok)
		}
		for _, tt := range []struct {
			name, chat, id, text, want string
		}{
			{"a group", "-100", "7", "текст", "TEXTDRAFT_PEER_INVALID"},
			{"draft_id 0", "10", "0", "текст", "draft_id"},
			{"no draft_id", "10", "", "текст", "draft_id"},
			{"an empty text", "10", "7", "", "message text is empty"},
			{"4097 characters", "10", "7", strings.Repeat("я", 4097), "message is too long"},
		} {
			if err := draft(tt.chat, tt.id, tt.text); !isAPIError(err, 400, tt.want) {
				t.Errorf("%s: %v, want 400 %q", tt.name, err, tt.want)
			}
		}
		want := []fakes.Draft{{ChatID: "10", DraftID: "7", Text: "Дебиторская"}, {ChatID: "10", DraftID: "7", Text: "Дебиторская задолженность"}}
		if diff := cmp.Diff(want, f.Drafts()); diff != "" {
			t.Errorf("Drafts (-want +got):\n%s", diff)
		}
		if len(f.Sent()) != 0 || len(f.Chat(10)) != 0 {
			t.Error("a draft became a message")
		}

		if _, err := api.Send(tgbotapi.NewMessage(10, "Дебиторская задолженность — 5 000 ₽.")); err != nil {
			t.Fatal(err)
		}
		if d, ok := f.ShownDraft(10); ok {
			t.Errorf("after the bot's message the chat still shows the draft %+v", d)
		}
		draft("10", "8", "Следующий ответ")
		time.Sleep(29 * time.Second)
		if _, ok := f.ShownDraft(10); !ok {
			t.Error("a draft is gone after 29 s")
		}
		time.Sleep(time.Second)
		if d, ok := f.ShownDraft(10); ok {
			t.Errorf("a draft not updated for 30 s still shows: %+v", d)
		}
	})
}

// An older Bot API server, and one that refuses drafts to a peer.
func TestBotAPIDraftsRefused(t *testing.T) {
	f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token, NoDrafts: true})
	api := botClient(t, f)
	params := tgbotapi.Params{"chat_id": "10", "draft_id": "1", "text": "текст"}
	if _, err := api.MakeRequest("sendMessageDraft", params); !isAPIError(err, 404, "Not Found") {
		t.Errorf("NoDrafts: %v, want 404 Not Found", err)
	}
	g := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
	g.SetFault(fakes.Refuse("sendMessageDraft", http.StatusBadRequest, "Bad Request: TEXTDRAFT_PEER_INVALID", nil))
	if _, err := botClient(t, g).MakeRequest("sendMessageDraft", params); !isAPIError(err, 400, "TEXTDRAFT_PEER_INVALID") {
		t.Errorf("refused: %v", err)
	}
	if n := len(f.Drafts()) + len(g.Drafts()); n != 0 {
		t.Errorf("%d refused drafts recorded", n)
	}
	if c := g.Calls("sendMessageDraft"); len(c) != 1 || c[0].Status != 400 {
		t.Errorf("calls = %+v, want the refused one", c)
	}
}
