package passages

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

func TestMostOf(t *testing.T) {
	docs := []docstore.Doc{{Meta: docstore.Meta{Title: "Аренда"}}, {Meta: docstore.Meta{Title: "Поставка"}}, {Meta: docstore.Meta{Title: "Заём"}}}
	clause := func(doc int, n, text string) library.ClauseHit {
		return library.ClauseHit{Doc: doc, Unit: library.Unit{Kind: library.UnitClause, Number: n, Text: text}}
	}
	kept := []library.ClauseHit{
		clause(0, "7.1", "7.1. За просрочку Арендатор уплачивает пени 0,1 % за каждый день."),
		clause(1, "7.1", "7.1. Пени 0,05 % за каждый день, но не более 5 % от суммы."),
		clause(2, "6.1", "6.1. Пени в размере 0,03 % за каждый день просрочки."),
	}
	tests := []struct {
		q, want string
	}{
		{"в каком договоре пени больше", "Больше всего — в «Аренда»: **0,1 %** \\(п\\. 7\\.1\\); у остальных меньше: «Поставка» — 0,05 %"},
		{"где пени меньше", "Меньше всего — в «Заём»: **0,03 %**"},
		{"в каком договоре сумма больше", ""}, // a sum: its clause's first per cent is no answer
		{"пени по договорам", ""}, // no comparison asked
	}
	for _, tt := range tests {
		got := mostOf(Question{Text: tt.q}, kept, docs)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("mostOf(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}
