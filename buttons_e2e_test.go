package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/finbot/finbot/internal/testredis"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/internal/fakes"
)

// The buttons of a 1C answer act on that answer (issue #18), through the real `serve` wiring
// with the demo ledger and Redis: a clarification button pressed under an older message picks
// from that message's list (through the Bot API emulator, across a restart), and each export
// button exports its own message's rows (through internal/fakes' Bot API: the emulator has no
// sendDocument).

// inlineButtons reads the callback data of a sent message's inline keyboard, by label.
func inlineButtons(t *testing.T, markup json.RawMessage) map[string]string {
	t.Helper()
	var kb struct {
		InlineKeyboard [][]struct {
			Text         string `json:"text"`
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	if len(markup) > 0 && markup[0] == '"' { // a form field holds the JSON as a string
		var s string
		json.Unmarshal(markup, &s)
		markup = json.RawMessage(s)
	}
	if err := json.Unmarshal(markup, &kb); err != nil {
		t.Fatalf("reply_markup %s: %v", markup, err)
	}
	out := map[string]string{}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if len(b.CallbackData) > 64 {
				t.Errorf("button %q: %d bytes of callback data", b.Text, len(b.CallbackData))
			}
			out[b.Text] = b.CallbackData
		}
	}
	return out
}

// dataFor is the data of the button whose label contains label.
func dataFor(t *testing.T, buttons map[string]string, label string) string {
	t.Helper()
	for text, data := range buttons {
		if strings.Contains(text, label) {
			return data
		}
	}
	t.Fatalf("no button %q among %v", label, buttons)
	return ""
}

// press sends a button press under the bot's message msgID in chat.
func (e *emulator) press(t *testing.T, from tgUser, chat tgChat, msgID int, data string) {
	t.Helper()
	e.post(t, "/sendCallback", map[string]any{"botToken": e2eToken, "from": from, "data": data,
		"message": map[string]any{"message_id": msgID, "chat": chat, "date": time.Now().Unix(), "text": "…"}}, nil)
}

func TestE2EStaleClarificationButton(t *testing.T) {
	emu := startEmulator(t)
	rdb, redisURL := testredis.Client(t), testredis.URL()
	prefix := fmt.Sprintf("e2e-buttons:%d:", time.Now().UnixNano())
	t.Cleanup(func() {
		if keys, _ := rdb.Keys(context.Background(), prefix+"*").Result(); len(keys) > 0 {
			rdb.Del(context.Background(), keys...)
		}
	})
	env := map[string]string{
		"TELEGRAM_TOKEN": e2eToken, "TELEGRAM_API_URL": emu.url, "TELEGRAM_POLL_TIMEOUT": "1s",
		"REDIS_URL": redisURL, "REDIS_PREFIX": prefix, "METRICS_ADDR": "127.0.0.1:0",
	}
	logs := &syncBuffer{}
	stop := startBot(t, env, logs)

	alice := tgUser{ID: 2001, FirstName: "Алиса"}
	chat := tgChat{ID: alice.ID, Type: "private"}
	emu.say(t, alice, chat, "открытые позиции по Сев на 31.03.2026")
	first := emu.replies(t, chat.ID, 1)[0]
	emu.say(t, alice, chat, "открытые позиции по Век на 31.03.2026")
	second := emu.replies(t, chat.ID, 1)[0]
	firstButtons, secondButtons := inlineButtons(t, first.Markup), inlineButtons(t, second.Markup)

	// The first list's button, pressed after the second list was asked for: the first list's company.
	emu.press(t, alice, chat, first.ID, dataFor(t, firstButtons, "Северсталь"))
	got := emu.replies(t, chat.ID, 1)[0].Text
	if !strings.Contains(got, "ПАО «Северсталь-Логистик»") || !strings.Contains(strings.ReplaceAll(got, "\u00a0", " "), "1 980 696,00 ₽") || strings.Contains(got, "Вектор") {
		t.Errorf("the first list's button answered:\n%s", got)
	}
	// The result lives in Redis: after a restart the second list's button still picks from it.
	stop()
	startBot(t, env, logs)
	emu.press(t, alice, chat, second.ID, dataFor(t, secondButtons, "АО «Вектор»"))
	got = emu.replies(t, chat.ID, 1)[0].Text
	if !strings.Contains(got, "АО «Вектор»") || !strings.Contains(strings.ReplaceAll(got, "\u00a0", " "), "3 176 820,73 ₽") {
		t.Errorf("the second list's button after a restart answered:\n%s", got)
	}
	// A button of before, pointing at «the last result», is stale.
	emu.press(t, alice, chat, first.ID, "c:1")
	if got := emu.replies(t, chat.ID, 1)[0].Text; !strings.Contains(got, "кнопка устарела") {
		t.Errorf("the old form of the button answered:\n%s", got)
	}
}

func TestE2EExportPerMessage(t *testing.T) {
	rdb, redisURL := testredis.Client(t), testredis.URL()
	prefix := fmt.Sprintf("e2e-export:%d:", time.Now().UnixNano())
	t.Cleanup(func() {
		if keys, _ := rdb.Keys(context.Background(), prefix+"*").Result(); len(keys) > 0 {
			rdb.Del(context.Background(), keys...)
		}
	})
	const botName = "finbot_export_bot"
	tg := fakes.NewTestBotAPI(t, fakes.BotAPIOptions{Token: e2eToken, BotID: 4343, Username: botName, MaxPoll: 300 * time.Millisecond})
	env := map[string]string{
		"TELEGRAM_TOKEN": e2eToken, "TELEGRAM_API_URL": tg.URL(), "TELEGRAM_POLL_TIMEOUT": "1s",
		"REDIS_URL": redisURL, "REDIS_PREFIX": prefix, "METRICS_ADDR": "127.0.0.1:0",
	}
	startBot(t, env, &syncBuffer{})

	const group = -100777
	ask := func(user int64, text string) fakes.Message {
		t.Helper()
		before := len(tg.Chat(group))
		tg.Say(fakes.Text{ChatID: group, ChatType: "supergroup", Title: "Бухгалтерия", UserID: user, Text: "@" + botName + " " + text})
		tg.WaitSent(t, len(tg.Sent())+1)
		return tg.Chat(group)[before]
	}
	receivables := ask(3001, "кто нам должен на 31.03.2026")
	documents := ask(3001, "документы Гранита за 2025 год")

	for i, tt := range []struct {
		under fakes.Message
		title string
		rows  int
	}{
		{receivables, "Кто должен нам на 31.03.2026", 18}, // asked before the documents
		{documents, "Документы контрагента за 01.01.2025 – 31.12.2025: ООО «Гранит»", 50},
	} {
		data := dataFor(t, inlineButtons(t, json.RawMessage(tt.under.Markup)), "Выгрузить в Excel")
		// Another member of the group presses it. (A group's replies are paced at Telegram's 20
		// a minute: this test takes a few seconds.)
		tg.Push(tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{ID: fmt.Sprint("cb", i), Data: data,
			From:    &tgbotapi.User{ID: 3002, FirstName: "Борис"},
			Message: &tgbotapi.Message{MessageID: tt.under.ID, Chat: &tgbotapi.Chat{ID: group, Type: "supergroup"}}}})
		tg.WaitCalls(t, "sendDocument", i+1)
		doc := tg.Documents()[i]
		f, err := excelize.OpenReader(bytes.NewReader(doc.File))
		if err != nil {
			t.Fatal(err)
		}
		sheet, _ := f.GetRows("Результат")
		f.Close()
		if doc.ChatID != fmt.Sprint(group) || len(sheet) < 5 || sheet[0][0] != tt.title || len(sheet)-6 != tt.rows {
			t.Errorf("export %d: chat %s, %d sheet rows, title %q; want %q with %d rows", i, doc.ChatID, len(sheet), sheet[0][0], tt.title, tt.rows)
		}
	}
}
