package fakes_test

import (
	"encoding/json"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/internal/fakes"
)

// Telegram's own controls as the fake answers them (issue #28).

// sendMessage with ephemeral_message_parameters (Bot API 10.3): an EphemeralMessageParameters
// with a receiver is recorded with the message; anything else is a 400.
func TestBotAPIEphemeral(t *testing.T) {
	f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
	api := botClient(t, f)
	send := func(params string) error {
		_, err := api.MakeRequest("sendMessage", tgbotapi.Params{"chat_id": "-100", "text": "только вам", "ephemeral_message_parameters": params})
		return err
	}
	const good = `{"receiver_user_id":7,"callback_query_id":"cb-1"}`
	if err := send(good); err != nil {
		t.Fatalf("sendMessage to one member: %v", err)
	}
	for _, bad := range []string{`{"callback_query_id":"cb-1"}`, `{"receiver_user_id":"7"}`, `{"receiver_user_id":7,"receiver":7}`, `[7]`} {
		if err := send(bad); !isAPIError(err, 400, "ephemeral message parameters") {
			t.Errorf("ephemeral_message_parameters %s: %v, want 400", bad, err)
		}
	}
	if got := f.Sent(); len(got) != 1 || got[0].Ephemeral != good {
		t.Errorf("sent %+v, want the one message with its parameters", got)
	}
}

// A stopped_message_generation update (Bot API 10.3) goes to a bot that asks for it, and only
// to one that does.
func TestBotAPIStopGeneration(t *testing.T) {
	f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
	api := botClient(t, f)
	poll := func(allowed string) []map[string]json.RawMessage {
		t.Helper()
		resp, err := api.MakeRequest("getUpdates", tgbotapi.Params{"allowed_updates": allowed})
		if err != nil {
			t.Fatalf("getUpdates: %v", err)
		}
		var ups []map[string]json.RawMessage
		if err := json.Unmarshal(resp.Result, &ups); err != nil {
			t.Fatal(err)
		}
		return ups
	}
	f.StopGeneration(10, 3, 0)
	if ups := poll(`["message","callback_query"]`); len(ups) != 0 {
		t.Errorf("a bot that did not ask got %d updates", len(ups))
	}
	id := f.StopGeneration(10, 4, 5)
	ups := poll(`["message","stopped_message_generation"]`)
	if len(ups) != 1 {
		t.Fatalf("got %d updates, want the second stop", len(ups))
	}
	var u struct {
		UpdateID int `json:"update_id"`
		Stopped  struct {
			Chat struct {
				ID   int64  `json:"id"`
				Type string `json:"type"`
			} `json:"chat"`
			ThreadID int `json:"message_thread_id"`
			DraftID  int `json:"draft_id"`
		} `json:"stopped_message_generation"`
	}
	raw, _ := json.Marshal(ups[0])
	if err := json.Unmarshal(raw, &u); err != nil {
		t.Fatal(err)
	}
	want := u
	want.UpdateID, want.Stopped.Chat.ID, want.Stopped.Chat.Type, want.Stopped.ThreadID, want.Stopped.DraftID = id, 10, "private", 5, 4
	if diff := cmp.Diff(want, u); diff != "" {
		t.Errorf("update (-want +got):\n%s", diff)
	}
}

// An inline keyboard as Telegram checks it: styles "danger", "success", "primary" (Bot API 9.4),
// callback data of 1-64 bytes.
func TestBotAPIKeyboards(t *testing.T) {
	f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
	api := botClient(t, f)
	send := func(markup string) error {
		_, err := api.MakeRequest("sendMessage", tgbotapi.Params{"chat_id": "10", "text": "ответ", "reply_markup": markup})
		return err
	}
	for _, style := range []string{"danger", "success", "primary"} {
		if err := send(`{"inline_keyboard":[[{"text":"Да","callback_data":"q:да","style":"` + style + `"}]]}`); err != nil {
			t.Errorf("style %s: %v", style, err)
		}
	}
	for markup, want := range map[string]string{
		`{"inline_keyboard":[[{"text":"Да","callback_data":"q:да","style":"blue"}]]}`:             "unknown style",
		`{"inline_keyboard":[[{"text":"Да","callback_data":"` + strings.Repeat("x", 65) + `"}]]}`: "BUTTON_DATA_INVALID",
		`{"inline_keyboard":[[{"text":"Да","callback_data":""}]]}`:                                "BUTTON_DATA_INVALID",
		`{"inline_keyboard":[[{"text":"","callback_data":"q:да"}]]}`:                              "no text",
		`{"inline_keyboard":"no"}`: "can't parse",
	} {
		if err := send(markup); !isAPIError(err, 400, want) {
			t.Errorf("reply_markup %s: %v, want 400 %q", markup, err, want)
		}
	}
}
