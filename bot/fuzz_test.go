package bot

import (
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// FuzzParseUpdate feeds the update parser messages with arbitrary text and one arbitrary
// entity, and callback queries with arbitrary data. It runs on the poll loop, outside any
// recover, so it must never panic. Callback data only ever selects the "doc" and "drill"
// routes by prefix, carrying the data verbatim, or becomes a question: it grants nothing.
func FuzzParseUpdate(f *testing.F) {
	for _, s := range []struct {
		text, kind string
		off, n     int
		chat       string
		data       string
	}{
		{"/rate@otherbot USD", "bot_command", 0, 14, "group", "d:s:abcdefghijklmnop"},
		{"/rate@finbot_test_bot", "bot_command", 0, 21, "private", "x:last"},
		{"/help", "bot_command", 0, 5, "supergroup", "c:0"},
		{"@finbot_test_bot, курс евро", "mention", 0, 16, "group", "a:4:cb61f26ca4d1:20260331:0:"},
		{"кто нам должен", "mention", 0, 3, "private", "b:op:cb61f26ca4d1:20260331:34adc550-78a:"},
		{"📈 Коллеги, @finbot_test_bot: кто нам должен?", "mention", 12, 16, "group", "q:Ключевая ставка"},
		{"Финбот, привет", "text_mention", 0, 6, "group", "d:X:../../etc"},
		{"\u200b\u2060\ufeff\u202eкто нам должен на 31 марта", "mention", -5, 1 << 30, "private", "\xff\xfe"},
		{strings.Repeat("*_[", 1365) + "*", "bold", 0, 4096, "private", ""},
		{"\xff\xfe\xfd", "bot_command", 0, 3, "private", "d:"},
		{"\ufeff/rate USD", "bot_command", 1, 5, "private", "q:курс\x00"},
		{"／rate@finbot_test_bot", "mention", 5, 16, "group", "q:\x00"},
		{"/ra\x00te USD", "bot_command", 0, 3, "supergroup", "\x00q:x"},
	} {
		f.Add(s.text, s.kind, s.off, s.n, s.chat, s.data)
	}
	me := identity{id: 777, username: "finbot_test_bot"}
	known := func(name string) bool { return name == "help" || name == "rate" || name == "docs" }

	f.Fuzz(func(t *testing.T, text, kind string, off, n int, chat, data string) {
		for _, doc := range []bool{false, true} {
			m := &tgbotapi.Message{MessageID: 9, From: &tgbotapi.User{ID: 5}, Chat: &tgbotapi.Chat{ID: 5, Type: chat}, Text: text,
				Entities: []tgbotapi.MessageEntity{{Type: kind, Offset: off, Length: n, User: &tgbotapi.User{ID: 777}}}}
			if doc {
				m.Document = &tgbotapi.Document{FileID: "f", FileName: text}
				m.Caption, m.CaptionEntities, m.Text, m.Entities = m.Text, m.Entities, "", nil
			}
			in, ok := parseUpdate(tgbotapi.Update{UpdateID: 1, Message: m}, me, known)
			if !ok {
				continue
			}
			if in.chatID != 5 || in.userID != 5 || (in.file != nil) != doc {
				t.Fatalf("parseUpdate mixed up the message: %+v", in)
			}
			if in.command != "" && (strings.Contains(in.command, "@") || in.command != strings.ToLower(in.command)) {
				t.Fatalf("command %q keeps its @suffix or case", in.command)
			}
			if s := in.command + in.text; strings.ContainsFunc(s, isDroppedControl) || (doc && strings.ContainsFunc(in.file.name, isDroppedControl)) {
				t.Fatalf("a control character passed: command %q, text %q", in.command, in.text)
			}
		}

		cq := &tgbotapi.CallbackQuery{ID: "cb", From: &tgbotapi.User{ID: 5}, Data: data,
			Message: &tgbotapi.Message{MessageID: 3, Chat: &tgbotapi.Chat{ID: 6, Type: chat}}}
		in, ok := parseUpdate(tgbotapi.Update{UpdateID: 2, CallbackQuery: cq}, me, known)
		if !ok {
			t.Fatal("a callback query with a sender and a message was ignored")
		}
		if in.userID != 5 || in.chatID != 6 || in.callbackID != "cb" {
			t.Fatalf("callback identity changed: %+v", in)
		}
		switch in.command {
		case "doc", "drill", "page", "base", "subscribe", "unsubscribe", "digest":
			// Every payload a button of ours can carry goes to the agent whole: it re-validates it.
			if in.text != data || buttonCommand(data) != in.command {
				t.Fatalf("button data %q routed to %q with %q", data, in.command, in.text)
			}
		case "":
			if in.text != strings.TrimSpace(dropControls(strings.TrimPrefix(data, callbackPrefix))) {
				t.Fatalf("question button %q became %q", data, in.text)
			}
		default:
			t.Fatalf("callback data %q reached command %q", data, in.command)
		}
	})
}
