package understand_test

import (
	"testing"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

// TestCardOfARow: after an answer that lists companies (its rows in the state's Listed), a
// message naming a row — «карточка 3», «подробнее по второй», «досье 1» — asks for that company's
// card on the list's day; in reply to the list (Replied) a bare «2» does too, not in the dialog;
// «подробнее» alone picks the only company, or asks which of several; a row past the list is
// asked back; «карточка 60» is still the account's card, and a company named wins.
func TestCardOfARow(t *testing.T) {
	cats := demoCatalogs(t)
	p := understand.NewParser()
	byName := map[string]recipe.Entity{}
	for _, e := range cats.Counterparties {
		byName[e.Name] = e
	}
	day := time.Date(2026, 3, 31, 0, 0, 0, 0, ru.Moscow)
	list := understand.State{Kind: understand.KindLedger, Recipe: recipe.Receivables, Date: &day, DateText: "на 31.03",
		Question: "кто нам должен на 31.03",
		Listed:   []recipe.Entity{byName["ООО «СтройМаркет»"], byName["ООО «Гранит»"], byName["АО «Вектор»"]}}
	one := list
	one.Listed = list.Listed[:1]
	replied := list
	replied.Replied = true
	debt := understand.State{Kind: understand.KindLedger, Recipe: recipe.OpenItemsByParty, Date: &day, Question: "долг беты на 31.03",
		Counterparty: ptr(byName["ООО «Бета Групп»"])}
	sheet := understand.State{Kind: understand.KindLedger, Recipe: recipe.TurnoverSheet, Account: "62", Question: "осв по 62 за март",
		Period: &ru.Period{From: time.Date(2026, 3, 1, 0, 0, 0, 0, ru.Moscow), To: day}}
	for _, tt := range []struct {
		q         string
		prev      understand.State
		kind      understand.Kind
		recipe    recipe.Name
		party     string
		continues bool
	}{
		{"карточка 3", list, understand.KindLedger, recipe.CounterpartyCard, "АО «Вектор»", true},
		{"подробнее по второй", list, understand.KindLedger, recipe.CounterpartyCard, "ООО «Гранит»", true},
		{"досье 1", list, understand.KindLedger, recipe.CounterpartyCard, "ООО «СтройМаркет»", true},
		{"подробнее", one, understand.KindLedger, recipe.CounterpartyCard, "ООО «СтройМаркет»", true},
		{"подробнее", list, understand.KindClarify, recipe.CounterpartyCard, "", true},
		{"карточка 7", list, understand.KindClarify, recipe.Receivables, "", true}, // asked back: «в том списке 3 строки»
		{"2", replied, understand.KindLedger, recipe.CounterpartyCard, "ООО «Гранит»", true},
		{"а карточку?", debt, understand.KindLedger, recipe.CounterpartyCard, "ООО «Бета Групп»", true},
		{"подробнее", debt, understand.KindLedger, recipe.CounterpartyCard, "ООО «Бета Групп»", true},
		{"а карточку?", sheet, understand.KindLedger, recipe.AccountCard, "", true},
		{"карточка альфы", list, understand.KindLedger, recipe.CounterpartyCard, "ООО «Альфа»", false},
	} {
		in := understand.Input{Text: tt.q, Now: corpusToday, Catalogs: cats}
		d := p.Parse(in)
		f, ok := p.FollowUp(in, d, tt.prev)
		if ok {
			d = f
		}
		if ok != tt.continues || d.Kind != tt.kind || d.Recipe != tt.recipe || d.Counterparty.Value.Name != tt.party {
			t.Errorf("%q after %q (listed %d, replied %v): continues %v, %s %s %q; want %v, %s %s %q", tt.q, tt.prev.Question,
				len(tt.prev.Listed), tt.prev.Replied, ok, d.Kind, d.Recipe, d.Counterparty.Value.Name, tt.continues, tt.kind, tt.recipe, tt.party)
		}
		if ok && d.Recipe == recipe.CounterpartyCard && d.Kind == understand.KindLedger && (!d.Date.Set || !d.Date.Value.Equal(day)) {
			t.Errorf("%q: the card on %v, want the list's day", tt.q, d.Date)
		}
		if tt.kind == understand.KindClarify && tt.recipe == recipe.CounterpartyCard && len(d.Candidates) != len(list.Listed) {
			t.Errorf("%q: offered %d companies, want the list's %d", tt.q, len(d.Candidates), len(list.Listed))
		}
	}
	// A bare number in the dialog is no row: «2» might be anything.
	in := understand.Input{Text: "2", Now: corpusToday, Catalogs: cats}
	if f, ok := p.FollowUp(in, p.Parse(in), list); ok && f.Recipe == recipe.CounterpartyCard {
		t.Errorf("a bare «2» in the dialog read as row 2: %+v", f)
	}
}

func ptr[T any](v T) *T { return &v }
