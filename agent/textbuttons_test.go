package agent

import (
	"strings"
	"testing"
)

// A question button longer than Telegram's 64 bytes of callback data is kept server-side and
// asks its whole question when pressed — in its own chat only.
func TestLongQuestionButtons(t *testing.T) {
	a := noLLMAgent(t)
	me := Request{UserID: 61, ChatID: 61}
	ans := Answer{Buttons: []Button{{Text: "Кто должен нам"}, {Text: "Документы ПАО «Северсталь-Логистик» за прошлый месяц"}}}
	a.bindLongButtons(t.Context(), me, &ans)
	if len(ans.Buttons) != 2 || ans.Buttons[0].Data != "" || !strings.HasPrefix(ans.Buttons[1].Data, TextButtonPrefix) ||
		len(ans.Buttons[1].Data) > 64 { // Telegram's limit on callback data
		t.Fatalf("buttons %+v: the short one as text, the long one kept", ans.Buttons)
	}
	press := me
	press.Command = "drill"
	got := ask(t, a, press, ans.Buttons[1].Data)
	if !strings.Contains(got.Text, "Северсталь-Логистик") || strings.Contains(got.Text, "устарела") {
		t.Errorf("pressed: %q, want the documents of Северсталь-Логистик", got.Text)
	}
	other := Request{UserID: 62, ChatID: 62, Command: "drill"}
	if got := ask(t, a, other, ans.Buttons[1].Data); !strings.Contains(got.Text, "устарела") {
		t.Errorf("pressed in another chat: %q, want «кнопка устарела»", got.Text)
	}
	if got := ask(t, a, press, TextButtonPrefix+"../../x"); !strings.Contains(got.Text, "устарела") {
		t.Errorf("a forged id: %q", got.Text)
	}
}
