package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/bot/tgmd"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/golden"
)

// Tables as Telegram's own (rich.go) against the fake Bot API.

// debtsTable is an answer with a table, as the ledger writes one.
const debtsTable = "Нам должны **7 009 082,37 ₽** на 31.03.2026 — 2 контрагента. [1]\n" +
	"_ООО «Северный ветер» · сч\\. 62_\n\n" +
	"| Контрагент | Сумма, ₽ |\n|:--|--:|\n| ООО «СтройМаркет» | 4 105 745,02 |\n| ООО «Гранит\\-М» | 2 903 337,35 |\n\n" +
	"…и ещё 0."

// debtsShown is debtsTable as the fake's rich message shows it without formatting.
const debtsShown = "Нам должны 7 009 082,37 ₽ на 31.03.2026 — 2 контрагента. [1]\nООО «Северный ветер» · сч. 62\n\n" +
	"Контрагент │ Сумма, ₽\nООО «СтройМаркет» │ 4 105 745,02\nООО «Гранит-М» │ 2 903 337,35\n\n…и ещё 0.\n\n" +
	"Источники\n\n[1] 1С: Кто должен нам"

// tableAgent answers every question with debtsTable, its source and, when buttons, an export.
func tableAgent(buttons bool) *fakeAgent {
	return &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		ans := api.Answer{Scenario: api.S2General, Text: debtsTable, Sources: []api.Source{{Title: "1С: Кто должен нам"}}}
		if buttons {
			ans.Buttons = []api.Button{{Text: "Выгрузить в Excel", Data: "x:abcdefgh2345"}}
		}
		return ans, nil
	}}
}

// richBlocks are the types of a rich message's blocks, and its table's rows as cell texts.
func richBlocks(t *testing.T, field string) (types []string, rows [][]string) {
	t.Helper()
	var m struct {
		Blocks []struct {
			Type  string `json:"type"`
			Cells [][]struct {
				Text json.RawMessage `json:"text"`
			} `json:"cells"`
		} `json:"blocks"`
		Skip bool `json:"skip_entity_detection"`
	}
	if err := json.Unmarshal([]byte(field), &m); err != nil {
		t.Fatalf("rich_message %s: %v", field, err)
	}
	if !m.Skip {
		t.Errorf("rich_message without skip_entity_detection: %s", field)
	}
	for _, b := range m.Blocks {
		types = append(types, b.Type)
		for _, row := range b.Cells {
			var cells []string
			for _, c := range row {
				var s string
				json.Unmarshal(c.Text, &s)
				cells = append(cells, s)
			}
			rows = append(rows, cells)
		}
	}
	return types, rows
}

// TestRichAnswer: an answer with a table is one sendRichMessage — paragraphs and the table as
// blocks — in a private chat; in a group it replies to the question (reply_parameters); its
// keyboard goes with it, styles and all. No sendMessage, nothing edited.
func TestRichAnswer(t *testing.T) {
	tests := []struct {
		name    string
		chat    int64
		text    string
		buttons bool
		replyTo string
	}{
		{name: "private chat", chat: 10, text: "кто нам должен?"},
		{name: "private chat with buttons", chat: 10, text: "кто нам должен?", buttons: true},
		{name: "group", chat: -100, text: "@finbot_test_bot кто нам должен?", buttons: true, replyTo: "1001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI(t)
			b := startBot(t, f, tableAgent(tt.buttons), Options{StreamMode: StreamOff})
			chatType := "private"
			if tt.chat < 0 {
				chatType = "supergroup"
			}
			f.Say(fakes.Text{ChatID: tt.chat, ChatType: chatType, UserID: 7, Text: tt.text})
			got := f.WaitSent(t, 1)
			settle(t, f, b)
			if n := f.Count("sendMessage"); n != 0 {
				t.Errorf("sendMessage %d times, want none: the answer is the rich message", n)
			}
			if len(got) != 1 || got[0].Method != "sendRichMessage" {
				t.Fatalf("sent %+v, want one rich message", got)
			}
			m := got[0]
			if m.Text != debtsShown {
				t.Errorf("the rich message shows\n%s\nwant\n%s", m.Text, debtsShown)
			}
			types, rows := richBlocks(t, m.Rich)
			if diff := cmp.Diff([]string{"paragraph", "table", "paragraph", "paragraph", "paragraph"}, types); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
			wantRows := [][]string{{"Контрагент", "Сумма, ₽"}, {"ООО «СтройМаркет»", "4 105 745,02"}, {"ООО «Гранит-М»", "2 903 337,35"}}
			if diff := cmp.Diff(wantRows, rows); diff != "" {
				t.Errorf("table rows (-want +got):\n%s", diff)
			}
			if m.ReplyTo != tt.replyTo {
				t.Errorf("replies to %q, want %q (reply_parameters %s)", m.ReplyTo, tt.replyTo, m.ReplyParameters)
			}
			if tt.replyTo != "" && !strings.Contains(m.ReplyParameters, `"allow_sending_without_reply":true`) {
				t.Errorf("reply_parameters %s: a deleted question must not lose the answer", m.ReplyParameters)
			}
			wantMarkup := ""
			if tt.buttons {
				wantMarkup = `{"inline_keyboard":[[{"text":"Выгрузить в Excel","callback_data":"x:abcdefgh2345","style":"primary"}]]}`
			}
			if m.Markup != wantMarkup {
				t.Errorf("reply_markup %s, want %s", m.Markup, wantMarkup)
			}
		})
	}
}

// TestRichAnswerWithoutTable: an answer without a table goes as text, as before.
func TestRichAnswerWithoutTable(t *testing.T) {
	f := newFakeAPI(t)
	b := startBot(t, f, echoAgent(), Options{StreamMode: StreamOff})
	f.Push(privateText(10, "привет"))
	got := f.WaitSent(t, 1)
	settle(t, f, b)
	if len(got) != 1 || got[0].Method != "sendMessage" || f.Count("sendRichMessage") != 0 {
		t.Errorf("sent %+v, %d rich; want the text", got, f.Count("sendRichMessage"))
	}
}

// TestRichRefused: where the Bot API refuses rich messages — an older one (404), one that cannot
// take this one (400), an emulator that answers no Bot API object — the answer comes as text,
// its table a monospace block, with its keyboard; the bot remembers, and the next answer with a
// table goes as text without asking again.
func TestRichRefused(t *testing.T) {
	tests := []struct {
		name  string
		opts  fakes.BotAPIOptions
		fault fakes.Fault
	}{
		{name: "Bot API older than 10.1", opts: fakes.BotAPIOptions{NoRichMessages: true}},
		{name: "400", fault: fakes.Refuse("sendRichMessage", http.StatusBadRequest, "Bad Request: can't parse rich message", nil)},
		{name: "not a Bot API object", fault: func(method string, _ map[string]string) (int, string, bool) {
			return http.StatusInternalServerError, `{"message":"API method 'sendRichMessage' is not supported"}`, method == "sendRichMessage"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.opts
			o.Token, o.MaxPoll = testToken, 200*time.Millisecond
			f := fakes.NewTestBotAPI(t, o)
			f.SetFault(tt.fault)
			metrics := NewMetrics(nil)
			b := startBot(t, f, tableAgent(true), Options{StreamMode: StreamOff, Metrics: metrics})
			f.Push(privateText(10, "кто нам должен?"))
			first := f.WaitSent(t, 1)
			settle(t, f, b)
			f.Push(privateText(10, "а на 30 апреля?"))
			got := f.WaitSent(t, 2)
			settle(t, f, b)

			if n := f.Count("sendRichMessage"); n != 1 {
				t.Errorf("sendRichMessage asked %d times, want once: the refusal is remembered", n)
			}
			if len(got) != 2 {
				t.Fatalf("sent %+v, want two answers", got)
			}
			for i, m := range got {
				if m.Method != "sendMessage" || !strings.Contains(m.Entities, `"pre"`) || !strings.Contains(m.Text, "ООО «СтройМаркет» │ 4 105 745,02") ||
					!strings.Contains(m.Markup, "Выгрузить в Excel") {
					t.Errorf("answer %d: %+v, want the text with its monospace table and the keyboard", i+1, m)
				}
			}
			if first[0].Method != "sendMessage" {
				t.Errorf("the first answer went as %s", first[0].Method)
			}
			if n := testutil.ToFloat64(metrics.errors.WithLabelValues("rich_refused")); n != 1 {
				t.Errorf("finbot_errors_total{kind=rich_refused} = %v, want 1", n)
			}
		})
	}
}

// TestRichRefusedWithTheText: a refusal the text meets as well says nothing of rich messages.
// A press's answer in a group goes to the presser alone; where Telegram refuses that for the
// rich message and for its text, the text goes to the group — the rich message was refused for
// its receiver, not for being rich — and the next table, typed in the group, is a rich message.
func TestRichRefusedWithTheText(t *testing.T) {
	f := newFakeAPI(t)
	toOne := func(form map[string]string) bool { return form["ephemeral_message_parameters"] != "" }
	rich := fakes.Refuse("sendRichMessage", http.StatusBadRequest, "Bad Request: EPHEMERAL_MESSAGES_UNSUPPORTED", toOne)
	text := fakes.Refuse("sendMessage", http.StatusBadRequest, "Bad Request: EPHEMERAL_MESSAGES_UNSUPPORTED", toOne)
	f.SetFault(func(method string, form map[string]string) (int, string, bool) {
		if status, body, ok := rich(method, form); ok {
			return status, body, ok
		}
		return text(method, form)
	})
	b := startBot(t, f, tableAgent(false), Options{StreamMode: StreamOff})
	const group = -100
	f.Push(press(group, 7, 2001, "b:op:cb61f26ca4d1:20260331:34adc550-78a:"))
	f.WaitSent(t, 1)
	settle(t, f, b)
	_, question := f.Say(fakes.Text{ChatID: group, ChatType: "supergroup", UserID: 7, Text: "@finbot_test_bot кто нам должен?"})
	got := f.WaitSent(t, 2)
	settle(t, f, b)

	var methods []string
	for _, m := range got {
		methods = append(methods, m.Method+" to "+m.ReplyTo)
	}
	if diff := cmp.Diff([]string{"sendMessage to 2001", "sendRichMessage to " + strconv.Itoa(question)}, methods); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if b.noRich.Load() {
		t.Error("rich messages are off after a refusal of the receiver")
	}
}

// TestRichAfterNativeDraft: an answer streamed as a native draft ends as one rich message, which
// takes the draft's place; nothing is edited or deleted.
func TestRichAfterNativeDraft(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
		progress(r)("Нам должны 7 009 082,37 ₽ на 31.03.2026")
		waitUntil(t, "the draft is shown", func() bool { _, shown := f.ShownDraft(10); return shown })
		return tableAgent(true).Answer(ctx, r)
	}}
	b := startModeBot(t, f, a, StreamAuto)
	f.Push(privateText(10, "кто нам должен?"))
	got := f.WaitSent(t, 1)
	b.disp.wait()
	if len(got) != 1 || got[0].Method != "sendRichMessage" || !strings.Contains(got[0].Markup, "Выгрузить в Excel") {
		t.Fatalf("sent %+v, want the rich message with its keyboard", got)
	}
	if len(f.Drafts()) == 0 {
		t.Error("no draft: the answer did not stream")
	}
	if d, shown := f.ShownDraft(10); shown {
		t.Errorf("the chat still shows the draft %+v after the answer", d)
	}
	if n := f.Count("editMessageText") + f.Count("deleteMessage") + f.Count("sendMessage"); n != 0 {
		t.Errorf("%d edits, deletions and text messages; want none", n)
	}
	waitNoStreamers(t)
}

// TestRichNotOverEdits: an answer streamed with edits (STREAM_MODE=edit) ends as the edited
// message, its table a monospace block: the user keeps the message they watched grow.
func TestRichNotOverEdits(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
		r.Progress("Нам должны 7 009 082,37 ₽ на 31.03.2026")
		waitUntil(t, "the draft message", func() bool { return f.Count("sendMessage") == 1 })
		return tableAgent(true).Answer(ctx, r)
	}}
	b := startStreamBot(t, f, a, streamConfig{interval: 0, groupInterval: -1, minChars: 20})
	f.Push(privateText(10, "кто нам должен?"))
	waitUntil(t, "the final edit", func() bool { return len(f.Edits()) == 1 })
	b.disp.wait()
	edits := f.Edits()
	if len(edits) != 1 || !strings.Contains(edits[0].Entities, `"pre"`) || !strings.Contains(edits[0].Markup, "Выгрузить в Excel") {
		t.Errorf("edits %+v, want the draft turned into the answer, its table monospace, with the keyboard", edits)
	}
	if n := f.Count("sendRichMessage"); n != 0 {
		t.Errorf("sendRichMessage %d times, want none", n)
	}
}

// TestRichLongAnswerIsText: an answer with a table too long for one message goes as text in
// parts, as before.
func TestRichLongAnswerIsText(t *testing.T) {
	long := strings.Repeat("Длинное пояснение к расчёту. ", 200)
	ans := api.Answer{Text: long + "\n\n" + debtsTable + "\n\n" + long}
	parts := render(ans)
	if len(parts) < 2 {
		t.Fatalf("%d parts, want a longer answer", len(parts))
	}
	if r := richAnswer(ans, parts); r != nil {
		t.Errorf("a rich message for an answer of %d parts", len(parts))
	}
	if r := richAnswer(api.Answer{Text: debtsTable}, render(api.Answer{Text: debtsTable})); r == nil {
		t.Error("no rich message for a table that fits")
	}
}

// TestRichShapes: real 1C answers with tables as the rich messages they are sent as (golden files
// in testdata/rich).
func TestRichShapes(t *testing.T) {
	a, _ := hostileAgent(t)
	for i, tt := range []struct{ name, q string }{
		{"receivables", "кто нам должен на 31.03.2026"},
		{"card_51", "карточка 51 за март 2026"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ans, err := a.Answer(t.Context(), api.Request{UserID: int64(9200 + i), ChatID: int64(9200 + i), Text: tt.q})
			if err != nil {
				t.Fatal(err)
			}
			r := richAnswer(ans, render(ans))
			if r == nil {
				t.Fatalf("%q: no rich message for\n%s", tt.q, markdown(ans))
			}
			golden.Check(t, filepath.Join("testdata", "rich", tt.name+".golden"), "Q: "+tt.q+"\n\n"+indentJSON(t, r))
		})
	}
}

// indentJSON is v as indented JSON, "&" and "<" as they are.
func indentJSON(t *testing.T, v *tgmd.RichMessage) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
