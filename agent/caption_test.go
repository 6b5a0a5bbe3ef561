package agent

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/internal/testdocs"
)

// A question in a file's caption is about that file: «сколько оплачено за период по акту
// сверки?» under an uploaded act is answered from the act, not from 1C's bank operations; a
// caption that names a company of the catalogs still asks 1C.
func TestCaptionAsksAboutItsFile(t *testing.T) {
	a := noLLMAgent(t)
	me := Request{UserID: 41, ChatID: 41}
	act := testdocs.PDF("Акт сверки взаимных расчётов за 1 квартал 2026 г.",
		testdocs.Section{Heading: "Акт сверки", Body: "Между ООО «Северный ветер» и ООО «Лесторг». Сальдо на начало периода 120 000,00 руб. " +
			"За период оплачено 480 000,00 руб., отгружено 500 000,00 руб. Сальдо на конец периода 140 000,00 руб."})
	up := upload(t, a, me, "akt_sverki.pdf", act)
	if up.Receipt == "" {
		t.Fatalf("upload: %q, no receipt", up.Text)
	}
	req := me
	req.OnlyDoc = up.Receipt
	ans := ask(t, a, req, "сколько оплачено за период по акту сверки?")
	if ans.Scenario != S3Full && ans.Scenario != S4Retrieve || !strings.Contains(ans.Text, "480") {
		t.Errorf("caption under the act: %s/%s\n%s\nwant the act's figure", ans.Scenario, ans.Kind, ans.Text)
	}
	ans = ask(t, a, req, "сколько нам должна Альфа на 31.03.2026?")
	if ans.Scenario != OneC {
		t.Errorf("a caption naming a company of 1C: %s/%s, want 1C", ans.Scenario, ans.Kind)
	}
}

// A short question that names nothing the bot knows is looked up in the user's own documents
// first: someone who uploaded a contract asks about it in few words. Without documents, or with
// none that has a passage on it, the question is asked back as before.
func TestShortQuestionSearchesOwnDocuments(t *testing.T) {
	a := noLLMAgent(t)
	me := Request{UserID: 51, ChatID: 51}
	upload(t, a, me, "dogovor.pdf", testdocs.PDF("Договор поставки № 15-П",
		testdocs.Section{Heading: "2. Порядок расчетов", Body: "2.1. Покупатель оплачивает 30% аванса в течение 5 банковских дней с даты подписания договора."}))
	ans := ask(t, a, me, "какой аванс по договору?")
	if ans.Scenario != S1Search || !strings.Contains(ans.Text, "30%") || len(ans.Sources) == 0 {
		t.Errorf("with a contract uploaded: %s/%s\n%s\nwant its penalty clause", ans.Scenario, ans.Kind, ans.Text)
	}
	other := ask(t, a, Request{UserID: 52, ChatID: 52}, "какой аванс по договору?")
	if other.Scenario == S1Search || strings.Contains(other.Text, "30%") {
		t.Errorf("another user, no documents: %s/%s\n%s", other.Scenario, other.Kind, other.Text)
	}
}
