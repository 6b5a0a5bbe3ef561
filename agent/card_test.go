package agent

import (
	"strings"
	"testing"
)

// The counterparty card through the agent: a list's rows, the dialog and a reply to an older
// list. «карточка 3» after the debts list is the card of the list's third company on the list's
// day; a reply «2» to that list, asked after other questions, is its second company's, on that
// list's day, whatever the dialog's last answer was; /card and /offsets answer as the questions
// do; the card's buttons ask for the act of reconciliation, open the aging and export.
func TestCardOfAListsRow(t *testing.T) {
	a := noLLMAgent(t)
	req := Request{UserID: 81, ChatID: 81}
	list := ask(t, a, req, "кто нам должен на 31.03.2026")
	if list.State == nil || len(list.State.Listed) < 3 {
		t.Fatalf("the debts list keeps no rows: %+v", list.State)
	}
	third := list.State.Listed[2].Name
	card := ask(t, a, req, "карточка 3")
	if card.Recipe != "counterparty_card" || !strings.HasPrefix(card.Text, "**"+third+"**") || !strings.Contains(card.Text, "на 31.03.2026") {
		t.Fatalf("«карточка 3» after the list (%s):\n%s\nwant the card of %s on 31.03.2026", card.Recipe, card.Text, third)
	}
	if len(card.Sources) < 2 {
		t.Errorf("the card cites %d sources: %v", len(card.Sources), card.Sources)
	}
	var labels []string
	for _, b := range card.Buttons {
		labels = append(labels, b.Text)
	}
	for _, want := range []string{"Акт сверки с ", "Просрочка", "Выгрузить в Excel"} {
		if !strings.Contains(strings.Join(labels, "|"), want) {
			t.Errorf("no button %q among %q", want, labels)
		}
	}

	// The list went out as message 500; two other questions later, a reply to it names a row.
	if err := a.RememberAnswer(t.Context(), req, 500, list); err != nil {
		t.Fatal(err)
	}
	ask(t, a, req, "курс евро на 01.04.2026")
	ask(t, a, req, "кому мы должны на 28.02.2026")
	reply := req
	reply.ReplyTo = 500
	second := list.State.Listed[1].Name
	got := ask(t, a, reply, "2")
	if got.Recipe != "counterparty_card" || !strings.HasPrefix(got.Text, "**"+second+"**") || !strings.Contains(got.Text, "на 31.03.2026") {
		t.Errorf("a reply «2» to the list (%s):\n%s\nwant the card of %s on 31.03.2026", got.Recipe, got.Text, second)
	}
	// Not a reply: a bare «2» is no row.
	if bare := ask(t, a, req, "2"); bare.Recipe == "counterparty_card" {
		t.Errorf("a bare «2» in the dialog opened a card:\n%s", bare.Text)
	}
	// A reply to a message the bot does not remember is an ordinary message.
	other := req
	other.ReplyTo = 501
	if got := ask(t, a, other, "подробнее"); got.Recipe == "counterparty_card" && strings.Contains(got.Text, second) {
		t.Errorf("a reply to an unknown message continued the list:\n%s", got.Text)
	}

	for _, c := range []struct{ cmd, args, recipe, head string }{
		{"card", "Универсал 31.03.2026", "counterparty_card", "**ООО «Универсал»**, ИНН 5214649585 на 31.03.2026: в целом должен нам **"},
		{"card", "5214649585", "counterparty_card", "**ООО «Универсал»**, ИНН 5214649585"},
		{"card", "7701234567", "", "«7701234567» — не ИНН"},
		{"card", "7707083893", "counterparty_card", "Контрагента с ИНН 7707083893 в справочнике 1С нет"},
		{"offsets", "31.03.2026", "offset_candidates", "На 31.03.2026 встречные долги есть у 1 контрагента: зачесть можно до **1"},
		{"offsets", "31.01.2025", "offset_candidates", "На 31.01.2025 встречных долгов нет"},
	} {
		r := req
		r.Command, r.Text = c.cmd, c.args
		ans, err := a.Answer(t.Context(), r)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(strings.ReplaceAll(ans.Text, "\u00a0", " "), `\`, "")
		if !strings.HasPrefix(text, c.head) || c.recipe != "" && ans.Recipe != c.recipe {
			t.Errorf("/%s %s (%s):\n%s\nwant it to open with %q", c.cmd, c.args, ans.Recipe, text, c.head)
		}
	}
}
