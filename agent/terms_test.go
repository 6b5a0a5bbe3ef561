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
