package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/internal/fakes"
)

// «Ещё ▸» (pages.go) against the fake Bot API: an answer of ten buttons shows three rows, and its
// pages turn in place with editMessageReplyMarkup.

// tenButtons are a receivables answer's: nine drilldowns, then the Excel export.
func tenButtons() []api.Button {
	var bs []api.Button
	for i := 1; i <= 9; i++ {
		bs = append(bs, api.Button{Text: fmt.Sprintf("ДП-10%d/2024 · 0,%d млн ₽", i, i), Data: fmt.Sprintf("b:op:cb61f26ca4d1:20260331:34adc550-78%d:", i)})
	}
	return append(bs, api.Button{Text: "Выгрузить в Excel", Data: "x:abcdefgh2345"})
}

// markupOf decodes a reply_markup.
func markupOf(t *testing.T, markup string) [][]inlineButton {
	t.Helper()
	var kb inlineKeyboard
	if err := json.Unmarshal([]byte(markup), &kb); err != nil {
		t.Fatalf("reply_markup %s: %v", markup, err)
	}
	return kb.InlineKeyboard
}

// navOf is the navigation row's buttons of a page by label, and the page's other buttons' texts.
func navOf(rows [][]inlineButton) (nav map[string]string, texts []string) {
	nav = map[string]string{}
	for _, row := range rows {
		for _, b := range row {
			if b.Text == moreLabel || b.Text == backLabel {
				nav[b.Text] = b.CallbackData
				continue
			}
			texts = append(texts, b.Text)
		}
	}
	return nav, texts
}

// TestKeyboardOverflow: an answer's ten buttons show as at most three rows each time — the first
// drilldown, the export (the main action, blue, on the first page although it is the agent's
// last), «Ещё ▸» — and «Ещё ▸» turns through the rest in place, «◂ Назад» back; every button
// shows on exactly one page; every callback_data fits 64 bytes; each press is acknowledged.
func TestKeyboardOverflow(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
		return api.Answer{Text: "Нам должны 4 500 000 ₽.", Buttons: tenButtons()}, nil
	}}
	b := startBot(t, f, a, Options{})
	f.Push(privateText(10, "кто нам должен?"))
	sent := f.WaitSent(t, 1)[0]
	msgID := strconv.Itoa(sent.ID)

	first := markupOf(t, sent.Markup)
	nav, _ := navOf(first)
	id, _, ok := parsePage(nav[moreLabel])
	if !ok {
		t.Fatalf("first page %+v: no «Ещё ▸» with page data", first)
	}
	wantFirst := [][]inlineButton{
		{{Text: "ДП-101/2024 · 0,1 млн ₽", CallbackData: "b:op:cb61f26ca4d1:20260331:34adc550-781:"}},
		{{Text: "Выгрузить в Excel", CallbackData: "x:abcdefgh2345", Style: "primary"}},
		{{Text: "Ещё ▸", CallbackData: "k:" + id + ":1"}},
	}
	if diff := cmp.Diff(wantFirst, first); diff != "" {
		t.Errorf("first page (-want +got):\n%s", diff)
	}

	seen := map[string]int{}
	var pages [][][]inlineButton
	rows := first
	for pressed := 1; ; pressed++ {
		pages = append(pages, rows)
		if len(rows) > maxKeyboardRows {
			t.Errorf("page %d has %d rows: %+v", len(pages), len(rows), rows)
		}
		nav, texts := navOf(rows)
		for _, text := range texts {
			seen[text]++
		}
		for _, row := range rows {
			for _, b := range row {
				if n := len(b.CallbackData); n == 0 || n > maxCallbackData {
					t.Errorf("button %q: callback_data of %d bytes", b.Text, n)
				}
			}
		}
		if len(pages) > 1 && nav[backLabel] != pageData(id, len(pages)-2) {
			t.Errorf("page %d: «◂ Назад» = %q, want the page before", len(pages), nav[backLabel])
		}
		more, ok := nav[moreLabel]
		if !ok {
			break
		}
		f.Push(press(10, 10, sent.ID, more))
		f.WaitCalls(t, "editMessageReplyMarkup", pressed)
		edit := f.MarkupEdits()[pressed-1]
		if edit.ChatID != "10" || edit.MessageID != msgID {
			t.Fatalf("editMessageReplyMarkup %+v, want message %s in chat 10", edit, msgID)
		}
		rows = markupOf(t, edit.Markup)
		if len(pages) > 10 {
			t.Fatal("«Ещё ▸» never ends")
		}
	}
	want := map[string]int{}
	for _, bt := range tenButtons() {
		want[bt.Text] = 1
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("buttons across the pages (-want +got):\n%s", diff)
	}
	if len(pages) != 5 {
		t.Errorf("%d pages, want 5: two rows of ten above the navigation", len(pages))
	}

	// «◂ Назад» from the last page shows the one before it again.
	nav, _ = navOf(rows)
	f.Push(press(10, 10, sent.ID, nav[backLabel]))
	f.WaitCalls(t, "editMessageReplyMarkup", len(pages))
	if diff := cmp.Diff(pages[len(pages)-2], markupOf(t, f.MarkupEdits()[len(pages)-1].Markup)); diff != "" {
		t.Errorf("back from the last page (-want +got):\n%s", diff)
	}
	if shown := f.Chat(10)[0].Markup; shown != f.MarkupEdits()[len(pages)-1].Markup {
		t.Errorf("the message shows %s, want the page turned to", shown)
	}
	settle(t, f, b)
	for _, c := range f.Calls("answerCallbackQuery") {
		if c.Form["text"] != "" {
			t.Errorf("a page turn was acknowledged with %q", c.Form["text"])
		}
	}
	if n, want := f.Count("answerCallbackQuery"), len(pages); n != want {
		t.Errorf("answerCallbackQuery %d times, want %d: each press once", n, want)
	}
}

// TestKeyboardPageStale: a press on a page of a keyboard the bot does not keep — an id it never
// gave, one of another chat, a page past the last — gets a toast and changes nothing.
func TestKeyboardPageStale(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
		return api.Answer{Text: "Нам должны 4 500 000 ₽.", Buttons: tenButtons()}, nil
	}}
	b := startBot(t, f, a, Options{})
	f.Push(privateText(10, "кто нам должен?"))
	sent := f.WaitSent(t, 1)[0]
	nav, _ := navOf(markupOf(t, sent.Markup))
	id, _, _ := parsePage(nav[moreLabel])
	f.Push(press(10, 10, sent.ID, "k:aaaaaaaaaaaa:1"))
	f.Push(press(20, 20, sent.ID, nav[moreLabel]))
	f.Push(press(10, 10, sent.ID, pageData(id, 9)))
	f.Push(press(10, 10, sent.ID, "k:"+id+":x"))
	settle(t, f, b)
	var toasts []string
	for _, c := range f.Calls("answerCallbackQuery") {
		toasts = append(toasts, c.Form["text"])
	}
	if diff := cmp.Diff([]string{stalePage, stalePage, stalePage, stalePage}, toasts); diff != "" {
		t.Errorf("toasts (-want +got):\n%s", diff)
	}
	if n := f.Count("editMessageReplyMarkup"); n != 0 {
		t.Errorf("editMessageReplyMarkup %d times, want none", n)
	}
	if n := len(f.Sent()); n != 1 {
		t.Errorf("%d messages sent, want the answer alone", n)
	}
}

// failingKeyboards is a keyboard store that is down.
type failingKeyboards struct{}

func (failingKeyboards) Put(context.Context, string, []byte) error { return errors.New("store down") }
func (failingKeyboards) Get(context.Context, string) ([]byte, bool, error) {
	return nil, false, errors.New("store down")
}

// TestKeyboardWholeWhenUnkept: when the pages cannot be kept, the whole keyboard is shown rather
// than buttons lost; the document manager's own keyboard (it pages itself) is never cut.
func TestKeyboardWholeWhenUnkept(t *testing.T) {
	docs := []api.Button{{Text: "Выбрать для вопросов", Data: "d:s:a"}}
	for i := range 5 {
		docs = append(docs, api.Button{Text: fmt.Sprintf("%d. Договор", i+1), Data: fmt.Sprintf("d:s:%d", i)},
			api.Button{Text: "🗑", Data: fmt.Sprintf("d:x:%d", i), SameRow: true})
	}
	for _, tt := range []struct {
		name    string
		store   KeyboardStore
		buttons []api.Button
		rows    int
	}{
		{"store down", failingKeyboards{}, tenButtons(), 10},
		{"document manager", nil, docs, 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI(t)
			a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
				return api.Answer{Text: "Ответ", Buttons: tt.buttons}, nil
			}}
			startBot(t, f, a, Options{Keyboards: tt.store})
			f.Push(privateText(10, "вопрос"))
			rows := markupOf(t, f.WaitSent(t, 1)[0].Markup)
			if len(rows) != tt.rows || strings.Contains(fmt.Sprint(rows), moreLabel) {
				t.Errorf("keyboard of %d rows %v, want all %d rows, no «Ещё ▸»", len(rows), rows, tt.rows)
			}
		})
	}
}

func TestPaginate(t *testing.T) {
	row := func(s string, styled bool) []inlineButton {
		b := inlineButton{Text: s, CallbackData: "q:" + s}
		if styled {
			b.Style = "primary"
		}
		return []inlineButton{b}
	}
	rows := func(spec string) [][]inlineButton {
		var out [][]inlineButton
		for _, s := range strings.Fields(spec) {
			name, styled := strings.CutSuffix(s, "*")
			out = append(out, row(name, styled))
		}
		return out
	}
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"a b c d", []string{"a b", "c d"}},
		{"a b c d e", []string{"a b", "c d", "e"}},
		{"a b c d*", []string{"a d*", "b c"}},
		{"a* b c d", []string{"a* b", "c d"}},
		{"a b* c d", []string{"a b*", "c d"}},
		{"a b c d* e*", []string{"a d*", "b c", "e*"}}, // one main action is pinned, the next stays in order
	} {
		var got []string
		for _, page := range paginate(rows(tt.in)) {
			var names []string
			for _, r := range page {
				name := r[0].Text
				if r[0].Style != "" {
					name += "*"
				}
				names = append(names, name)
			}
			got = append(got, strings.Join(names, " "))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("paginate(%s) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestKeyboardPageStylesRefused: a page turn whose keyboard has styles the Bot API refuses (400)
// shows the page without them, and keyboards go without styles from then on.
func TestKeyboardPageStylesRefused(t *testing.T) {
	f := newFakeAPI(t)
	f.SetFault(fakes.Refuse("editMessageReplyMarkup", http.StatusBadRequest, "Bad Request: can't parse inline keyboard button",
		func(form map[string]string) bool { return strings.Contains(form["reply_markup"], `"style"`) }))
	a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
		return api.Answer{Text: "Нам должны 4 500 000 ₽.", Buttons: tenButtons()}, nil
	}}
	startBot(t, f, a, Options{})
	f.Push(privateText(10, "кто нам должен?"))
	sent := f.WaitSent(t, 1)[0]
	nav, _ := navOf(markupOf(t, sent.Markup))
	f.Push(press(10, 10, sent.ID, nav[moreLabel]))
	f.WaitCalls(t, "editMessageReplyMarkup", 1)
	nav, _ = navOf(markupOf(t, f.MarkupEdits()[0].Markup))
	f.Push(press(10, 10, sent.ID, nav[backLabel])) // the first page, with the blue export
	f.WaitCalls(t, "editMessageReplyMarkup", 3)
	edits := f.MarkupEdits()
	if len(edits) != 2 || strings.Contains(edits[1].Markup, "style") || !strings.Contains(edits[1].Markup, "Выгрузить в Excel") {
		t.Fatalf("markup edits %+v, want the first page shown again without styles", edits)
	}
	f.Push(privateText(10, "а на 30 апреля?"))
	if got := f.WaitSent(t, 2); strings.Contains(got[1].Markup, "style") {
		t.Errorf("the next answer's keyboard %s, want it without styles", got[1].Markup)
	}
}
