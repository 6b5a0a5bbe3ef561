package understand

import (
	"testing"
	"time"

	"github.com/finbot/finbot/agent/recipe"
)

// Decision.Duty and Decision.Money are what the message says, whatever it is understood as
// (the knowledge base's refusal reads them).
func TestDutyAndMoney(t *testing.T) {
	p := NewParser()
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text        string
		duty, money bool
	}{
		{"до какого числа сдавать 6-НДФЛ", true, false},
		{"когда платить аванс по зарплате", true, true},
		{"сколько дней больничного оплачивает работодатель", true, false},
		{"в какие сроки перечислить НДФЛ", true, true},
		{"как рассчитать отпускные", false, false},
		{"что с деньгами", false, true},
		{"сколько наличных в кассе", false, true},
		{"оплаты от ромашки за март", false, true},
		{"какая ставка НДС", false, false},
	} {
		d := p.Parse(Input{Text: tt.text, Now: now})
		if d.Duty != tt.duty || d.Money != tt.money {
			t.Errorf("%q: Duty %v, Money %v; want %v, %v", tt.text, d.Duty, d.Money, tt.duty, tt.money)
		}
		if u := p.Understand(Input{Text: tt.text, Now: now}, &State{Kind: KindKB, Question: "ставка НДС"}, func() *recipe.Catalogs { return nil }); u.Duty != tt.duty || u.Money != tt.money {
			t.Errorf("%q after a question: Duty %v, Money %v; want %v, %v", tt.text, u.Duty, u.Money, tt.duty, tt.money)
		}
	}
}
