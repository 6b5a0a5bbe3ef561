package fakes_test

import (
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/internal/fakes"
)

// sendRichMessage (Bot API 10.1) as the fake answers it: the blocks form of InputRichMessage,
// checked field by field; what is sent is recorded with the text it shows.
func TestBotAPIRichMessage(t *testing.T) {
	const table = `{"type":"table","cells":[[{"text":"Счёт","is_header":true,"align":"left","valign":"top"},{"text":"Сумма","is_header":true,"align":"right","valign":"top"}],` +
		`[{"text":{"type":"bold","text":"51"},"align":"left","valign":"top"},{"text":"120 000","align":"right","valign":"top"}],` +
		`[{"text":"50","align":"left","valign":"top"},{"align":"right","valign":"top"}]],"is_bordered":true,"is_compact":true}`
	tests := []struct {
		name    string
		params  tgbotapi.Params
		problem string // "" = taken
		text    string // the message's Text when taken
		replyTo string
	}{
		{name: "paragraph and table", params: tgbotapi.Params{"chat_id": "10",
			"rich_message": `{"blocks":[{"type":"paragraph","text":["Остатки ",{"type":"url","text":"по счетам","url":"https://example.com"}]},` + table + `],"skip_entity_detection":true}`},
			text: "Остатки по счетам\n\nСчёт │ Сумма\n51 │ 120 000\n50"},
		{name: "list, quote, pre, divider", params: tgbotapi.Params{"chat_id": "10",
			"rich_message": `{"blocks":[{"type":"list","items":[{"blocks":[{"type":"paragraph","text":"раз"}],"value":3,"type":"1"},{"blocks":[{"type":"paragraph","text":"два"}],"has_checkbox":true}]},` +
				`{"type":"blockquote","blocks":[{"type":"paragraph","text":{"type":"italic","text":"цитата"}}]},{"type":"pre","text":"x := 1","language":"go"},{"type":"divider"}]}`},
			text: "3. раз\n☐ два\n\nцитата\n\nx := 1\n\n———"},
		{name: "reply, keyboard and one member", params: tgbotapi.Params{"chat_id": "-100",
			"rich_message":                 `{"blocks":[` + table + `]}`,
			"reply_parameters":             `{"message_id":5,"allow_sending_without_reply":true}`,
			"reply_markup":                 `{"inline_keyboard":[[{"text":"Excel","callback_data":"x:1","style":"primary"}]]}`,
			"ephemeral_message_parameters": `{"receiver_user_id":7,"callback_query_id":"cb"}`},
			text: "Счёт │ Сумма\n51 │ 120 000\n50", replyTo: "5"},
		{name: "no rich message", params: tgbotapi.Params{"chat_id": "10"}, problem: "rich_message is required"},
		{name: "no blocks", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[]}`}, problem: "RICH_MESSAGE_CONTENT_REQUIRED"},
		{name: "empty text", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"paragraph","text":" "}]}`}, problem: "RICH_MESSAGE_CONTENT_REQUIRED"},
		{name: "markdown", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"markdown":"| a |"}`}, problem: "blocks only"},
		{name: "unknown field", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"paragraph","text":"a","size":2}]}`}, problem: "unknown field"},
		{name: "unknown block", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"heading","text":"a","size":2}]}`}, problem: "not one the fake models"},
		{name: "cell without align", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"table","cells":[[{"text":"a","valign":"top"}]]}]}`}, problem: "align"},
		{name: "cell valign", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"table","cells":[[{"text":"a","align":"left","valign":"center"}]]}]}`}, problem: "valign"},
		{name: "url without url", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"paragraph","text":{"type":"url","text":"a"}}]}`}, problem: "no url"},
		{name: "rich text type", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"paragraph","text":{"type":"blink","text":"a"}}]}`}, problem: "not one the fake models"},
		{name: "rich text number", params: tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"paragraph","text":5}]}`}, problem: "string, an array or an object"},
		{name: "text is no parameter", params: tgbotapi.Params{"chat_id": "10", "text": "a", "rich_message": `{"blocks":[` + table + `]}`}, problem: "no parameter text"},
		{name: "reply_to_message_id is no parameter", params: tgbotapi.Params{"chat_id": "10", "reply_to_message_id": "5", "rich_message": `{"blocks":[` + table + `]}`}, problem: "no parameter reply_to_message_id"},
		{name: "reply parameters without a message", params: tgbotapi.Params{"chat_id": "10", "reply_parameters": `{"allow_sending_without_reply":true}`, "rich_message": `{"blocks":[` + table + `]}`}, problem: "message_id is required"},
		{name: "styled keyboard checked", params: tgbotapi.Params{"chat_id": "10", "reply_markup": `{"inline_keyboard":[[{"text":"a","callback_data":"a","style":"red"}]]}`, "rich_message": `{"blocks":[` + table + `]}`}, problem: "unknown style"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
			api := botClient(t, f)
			_, err := api.MakeRequest("sendRichMessage", tt.params)
			if tt.problem != "" {
				if !isAPIError(err, 400, tt.problem) {
					t.Fatalf("sendRichMessage: %v, want 400 %q", err, tt.problem)
				}
				if n := len(f.Sent()); n != 0 {
					t.Errorf("a refused message was recorded: %d", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("sendRichMessage: %v", err)
			}
			sent := f.Sent()
			if len(sent) != 1 {
				t.Fatalf("sent %d messages, want 1", len(sent))
			}
			m := sent[0]
			want := fakes.Message{Method: "sendRichMessage", ID: 1001, ChatID: tt.params["chat_id"], Text: tt.text, Rich: tt.params["rich_message"],
				ReplyTo: tt.replyTo, ReplyParameters: tt.params["reply_parameters"], Markup: tt.params["reply_markup"], Ephemeral: tt.params["ephemeral_message_parameters"]}
			if diff := cmp.Diff(want, m); diff != "" {
				t.Errorf("recorded (-want +got):\n%s", diff)
			}
		})
	}
}

// A rich message ends the chat's draft, as any message from the bot does; a Bot API older than
// 10.1 answers sendRichMessage 404.
func TestBotAPIRichMessageDraftAndOlderServer(t *testing.T) {
	f := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token})
	api := botClient(t, f)
	if _, err := api.MakeRequest("sendMessageDraft", tgbotapi.Params{"chat_id": "10", "draft_id": "1", "text": "пишу…"}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.MakeRequest("sendRichMessage", tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"paragraph","text":"готово"}]}`}); err != nil {
		t.Fatal(err)
	}
	if d, shown := f.ShownDraft(10); shown {
		t.Errorf("the chat still shows the draft %+v after the rich message", d)
	}

	old := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: token, NoRichMessages: true})
	_, err := botClient(t, old).MakeRequest("sendRichMessage", tgbotapi.Params{"chat_id": "10", "rich_message": `{"blocks":[{"type":"paragraph","text":"a"}]}`})
	if !isAPIError(err, 404, "Not Found") {
		t.Errorf("an older server: %v, want 404 Not Found", err)
	}
}
