package agent

import (
	"strings"
	"testing"
)

// Both sides of the settlements asked at once are both answered, each list with its own
// footnote; a message that names neither side is asked back with both as buttons, never
// answered with a knowledge-base article that shares its words.
func TestSettlementsBothSidesAndQuestionBack(t *testing.T) {
	a := noLLMAgent(t)
	req := Request{UserID: 21, ChatID: 21}
	recv := ask(t, a, req, "кто нам должен на 31.03.2026")
	pay := ask(t, a, req, "кому мы должны на 31.03.2026")
	both := ask(t, a, req, "дебиторка и кредиторка на 31.03")
	for _, want := range []string{firstBold(t, recv.Text), firstBold(t, pay.Text), "[1]", "[2]"} {
		if !strings.Contains(both.Text, want) {
			t.Errorf("both lists lack %q:\n%s", want, both.Text)
		}
	}
	if len(both.Sources) != 2 || strings.Contains(both.Text, "«Выгрузить в Excel»") || len(both.Buttons) != 2 {
		t.Errorf("sources %v, buttons %v: want one source per list and a button for each list alone (no export it does not offer)",
			both.Sources, both.Buttons)
	}
	for i, q := range []string{"расчёты с контрагентами на 31 марта", "какая картина с расчётами на 31 марта"} {
		ans := ask(t, a, Request{UserID: int64(22 + i), ChatID: int64(22 + i)}, q) // a new dialog: not a follow-up
		if ans.Scenario == S2General || !strings.Contains(ans.Text, "кто должен нам") || len(ans.Buttons) != 3 ||
			!strings.Contains(ans.Buttons[0].Text, "31.03.2026") {
			t.Errorf("%q: %s/%s %q, buttons %v: want the question back with both sides on 31.03.2026", q, ans.Scenario, ans.Kind, ans.Text, ans.Buttons)
		}
	}
}

// firstBold is an answer's headline: the line that says who owes how much, the figure in bold.
func firstBold(t *testing.T, text string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "Нам должны **") || strings.HasPrefix(l, "Мы должны **") {
			return strings.TrimSuffix(l, " [1]") // the headline, the answer itself
		}
	}
	t.Fatalf("no headline in:\n%s", text)
	return ""
}

// A comparison or a trend with no LLM to plan it is answered with the report it builds on,
// and says so: never one date's list presented as the comparison asked for. A comparison of two
// days needs no LLM: both are run and their change opens the answer (TestSnapshotOnTwoDays).
func TestAnalysisWithoutLLMSaysWhatItShows(t *testing.T) {
	a := noLLMAgent(t)
	if ans := ask(t, a, Request{UserID: 29, ChatID: 29}, "сравни дебиторку на 31.03 и на 31.12"); !strings.HasPrefix(ans.Text, "Изменение с 31.12.2025 по 31.03.2026: **") {
		t.Errorf("two days compared:\n%s", ans.Text)
	}
	for i, q := range []string{"почему выросла кредиторка в марте"} {
		ans := ask(t, a, Request{UserID: int64(30 + i), ChatID: int64(30 + i)}, q)
		if !strings.HasPrefix(ans.Text, "_Сравнение, динамику и причины") || !strings.Contains(ans.Text, "₽") {
			t.Errorf("%q:\n%s\nwant the report with a note that the comparison was not made", q, ans.Text)
		}
	}
	for i, q := range []string{"кто нам должен на 31.03", "выручка за 1 кв"} { // «выручка» names 90.01.1 here
		if ans := ask(t, a, Request{UserID: int64(39 + i*10), ChatID: int64(39 + i*10)}, q); strings.Contains(ans.Text, "_Сравнение") {
			t.Errorf("%q: a plain report carries the comparison note:\n%s", q, ans.Text)
		}
	}
}

// «просроченная дебиторка»: the aging — the debt by days overdue from the contracts' payment
// terms — never all the receivables passed off as overdue; «а поставщикам?» turns it to ours.
func TestOverdueIsTheAging(t *testing.T) {
	a := noLLMAgent(t)
	req := Request{UserID: 71, ChatID: 71}
	ans := ask(t, a, req, "просроченная дебиторка на 31.03")
	ans.Text = strings.ReplaceAll(ans.Text, "\u00a0", " ")
	if ans.Recipe != "receivables_aging" || !strings.Contains(ans.Text, "из них просрочено **34 817 884,44 ₽**") || !strings.Contains(ans.Text, "| Более 90 дн") {
		t.Errorf("overdue receivables (%s):\n%s", ans.Recipe, ans.Text)
	}
	if ours := ask(t, a, req, "а поставщикам?"); ours.Recipe != "payables_aging" || !strings.HasPrefix(ours.Text, "Мы должны поставщикам") ||
		!strings.Contains(ours.Text, "на 31.03.2026") {
		t.Errorf("the follow-up (%s):\n%s", ours.Recipe, ours.Text)
	}
}

// The side of a company's debt asked is said back when the saldo is the other's: «сколько мы
// должны альфе» of a customer that owes us is «нашего долга нет — наоборот, …», never its debt
// read as ours; a name after «перед» is the company asked («долг перед итд»), so it is not
// inherited from the dialog's company.
func TestPartyDebtSideAsked(t *testing.T) {
	a := noLLMAgent(t)
	for i, c := range []struct{ q, prefix, not string }{
		{"сколько мы должны альфе", "Нашего долга перед ООО «Альфа» на ", ""},
		{"долг перед альфой на 31.03", "Нашего долга перед ООО «Альфа» на 31.03.2026 нет — наоборот, долг ООО «Альфа» перед нами **", ""},
		{"сколько нам должна промпоставка", "Долга ООО «ПромПоставка» перед нами на ", ""},
		{"долг альфы перед нами", "Долг ООО «Альфа» перед нами **", "наоборот"},
		{"мы должны промпоставке", "Мы должны ООО «ПромПоставка» **", "наоборот"},
		// owed to a company written in the dative, no «мы» — our debt to it
		{"сколько должны альфе", "Нашего долга перед ООО «Альфа» на ", ""},
		{"промпоставке сколько должны", "Мы должны ООО «ПромПоставка» **", "наоборот"},
		{"сколько должна альфа", "Долг ООО «Альфа» перед нами **", "наоборот"},
	} {
		ans := ask(t, a, Request{UserID: int64(31 + i), ChatID: int64(31 + i)}, c.q)
		if !strings.HasPrefix(ans.Text, c.prefix) || c.not != "" && strings.Contains(ans.Text, c.not) {
			t.Errorf("%q: %q, want it to open with %q", c.q, ans.Text, c.prefix)
		}
	}
	req := Request{UserID: 40, ChatID: 40}
	ask(t, a, req, "долг альфы")
	if ans := ask(t, a, req, "долг перед итд на сегодня какой"); !strings.Contains(ans.Text, "«итд»") || strings.Contains(ans.Text, "Альфа") {
		t.Errorf("a company named after «перед» inherited the dialog's: %q", ans.Text)
	}
}
