package agent

import (
	"strings"
	"testing"
)

// TestRegularTermBeforeOneMonths: «когда платим постоянку» is answered by the monthly term in
// the wording its supplementary agreement set, not by the clause on the first month's payment
// nor by the deposit's offset against January's.
func TestRegularTermBeforeOneMonths(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads a document set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	ans := ask(t, a, Request{UserID: 40000, ChatID: 40600}, "когда платим постоянку по складу")
	first := strings.SplitN(ans.Text, "\n", 2)[0]
	if !strings.Contains(first, "п. 4.3") || !strings.Contains(ans.Text, "не позднее 25 (двадцать пятого) числа месяца, предшествующего оплачиваемому") {
		t.Errorf("not the monthly term, in its new wording:\n%s", ans.Text)
	}
	if strings.Contains(ans.Text, "4.4. Постоянная часть за март") {
		t.Errorf("the first month's payment quoted:\n%s", ans.Text)
	}
}

// TestMonthlyWithFee: «сколько в месяц … вместе с тко» adds the monthly payment, in the wording
// its supplementary agreement set, and the fee the question names with it.
func TestMonthlyWithFee(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads a document set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	ans := ask(t, a, Request{UserID: 40000, ChatID: 40700}, "сколько в месяц отдаем складлогистик за склад вместе с тко")
	text := strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(ans.Text)
	want := "В месяц: 600 118,00 ₽ (п. 4.2 в редакции «ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2 от 14.09.2026») + 6 100,00 ₽ (п. 4.8) = **606 218,00 ₽**."
	if !strings.Contains(text, want) {
		t.Errorf("no %q in\n%s", want, text)
	}
}
