package bot

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/internal/fakes"
)

// Inline keyboards (keyboard.go): rows, styles (Bot API 9.4) and their fallback.

// styledAnswer is a 1C answer's keyboard: a drilldown, the export, and a button the agent styled.
var styledAnswer = []api.Button{
	{Text: "ДП-107/2024 · 0,9 млн ₽", Data: "b:op:cb61f26ca4d1:20260331:34adc550-78a:"},
	{Text: "Выгрузить в Excel", Data: "x:abcdefgh2345"},
	{Text: "Да, удалить", Data: "d:X:abcdefghijklmnop", SameRow: true},
	skill.Button{Text: "Подтвердить", Data: "q:Подтвердить"}.Styled(skill.StyleSuccess),
	{Text: "Как в приложении", Style: "blink", SameRow: true}, // a style Telegram does not know
}

// styledMarkup is styledAnswer's reply_markup, exactly as InlineKeyboardButton describes it.
const styledMarkup = `{"inline_keyboard":[` +
	`[{"text":"ДП-107/2024 · 0,9 млн ₽","callback_data":"b:op:cb61f26ca4d1:20260331:34adc550-78a:"}],` +
	`[{"text":"Выгрузить в Excel","callback_data":"x:abcdefgh2345","style":"primary"},` +
	`{"text":"Да, удалить","callback_data":"d:X:abcdefghijklmnop","style":"danger"}],` +
	`[{"text":"Подтвердить","callback_data":"q:Подтвердить","style":"success"},` +
	`{"text":"Как в приложении","callback_data":"q:Как в приложении"}]]}`

func TestKeyboardStyles(t *testing.T) {
	got, err := json.Marshal(keyboard(styledAnswer, true))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(styledMarkup, string(got)); diff != "" {
		t.Errorf("keyboard (-want +got):\n%s", diff)
	}
	plain, _ := json.Marshal(keyboard(styledAnswer, false))
	if strings.Contains(string(plain), "style") {
		t.Errorf("keyboard without styles = %s", plain)
	}
	if unstyled, _ := json.Marshal(keyboard(styledAnswer, true).unstyled()); string(unstyled) != string(plain) {
		t.Errorf("unstyled() = %s, want %s", unstyled, plain)
	}
}

// TestStyledButtonsSent: the answer's keyboard reaches Telegram with the styles; the Excel export
// stands out as the main action.
func TestStyledButtonsSent(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
		return api.Answer{Text: "Нам должны **1 200 000 ₽**.", Buttons: styledAnswer}, nil
	}}
	startBot(t, f, a, Options{})
	f.Push(privateText(10, "кто нам должен?"))
	if got := f.WaitSent(t, 1); got[0].Markup != styledMarkup {
		t.Errorf("reply_markup = %s, want %s", got[0].Markup, styledMarkup)
	}
}

// TestStylesRefused: a Bot API that refuses button styles (400) gets the same answer with the
// keyboard unstyled at once, and every later keyboard unstyled; each answer arrives once.
func TestStylesRefused(t *testing.T) {
	f := newFakeAPI(t)
	f.SetFault(fakes.Refuse("sendMessage", http.StatusBadRequest, "Bad Request: can't parse inline keyboard button: Field \"style\" must be absent",
		func(form map[string]string) bool { return strings.Contains(form["reply_markup"], `"style"`) }))
	a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
		return api.Answer{Text: "Нам должны 1 200 000 ₽.", Buttons: styledAnswer}, nil
	}}
	b := startBot(t, f, a, Options{})
	f.Push(privateText(10, "кто нам должен?"))
	f.WaitSent(t, 1)
	f.Push(privateText(10, "а на 30 апреля?"))
	got := f.WaitSent(t, 2)
	b.disp.wait()
	var statuses []int
	for _, c := range f.Calls("sendMessage") {
		statuses = append(statuses, c.Status)
	}
	if diff := cmp.Diff([]int{400, 200, 200}, statuses); diff != "" {
		t.Errorf("sendMessage statuses (-want +got):\n%s", diff)
	}
	for _, m := range got {
		if strings.Contains(m.Markup, "style") || !strings.Contains(m.Markup, "Выгрузить в Excel") {
			t.Errorf("reply_markup = %s, want the keyboard without styles", m.Markup)
		}
	}
}
