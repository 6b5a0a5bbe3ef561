package runner

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// TestExportCaptionPlurals: the caption counts the sheet's rows in Russian and states the total
// only where the sheet has one.
func TestExportCaptionPlurals(t *testing.T) {
	rows := func(n int) []Row {
		out := make([]Row, n)
		for i := range out {
			out[i] = Row{Name: "ООО «Альфа»", Amount: 100}
		}
		return out
	}
	for _, tt := range []struct {
		intent recipe.Name
		n      int
		want   string
	}{
		{recipe.Receivables, 1, "Выгрузка в Excel: 1 строка, 1,00 ₽."},
		{recipe.Receivables, 3, "Выгрузка в Excel: 3 строки, 3,00 ₽."},
		{recipe.Receivables, 11, "Выгрузка в Excel: 11 строк, 11,00 ₽."},
		{recipe.Receivables, 21, "Выгрузка в Excel: 21 строка, 21,00 ₽."},
		{recipe.Payables, 44, "Выгрузка в Excel: 44 строки, 44,00 ₽."},
		{recipe.DocumentsByParty, 31, "Выгрузка в Excel: 31 строка; общей суммы нет — в списке документы разных видов."},
		{recipe.BankOpsByParty, 112, "Выгрузка в Excel: 112 строк; общей суммы нет — в списке документы разных видов."},
	} {
		all := rows(tt.n)
		res := Result{Intent: tt.intent, ResultMode: FactualSummary, All: all, Rows: all[:min(tt.n, 10)],
			Summary: Summary{Rows: tt.n, TotalAmount: 100 * onec.Kopecks(tt.n)}}
		if got := strings.ReplaceAll(res.ExportCaption(), "\u00a0", " "); got != tt.want {
			t.Errorf("%s × %d: %q, want %q", tt.intent, tt.n, got, tt.want)
		}
	}
}
