package understand

import (
	"testing"
	"time"

	"github.com/finbot/finbot/agent/recipe"
)

// Days overdue are an aging's condition wherever they are written: «старше 90 дней» is no
// company «старше», «просрочка свыше 30 дней» asks whose, and a follow-up «а больше 30 дней?»
// sets them while «а на 1 апреля?» keeps them — they had been dropped, the whole overdue debt
// answered.
func TestAgingDaysAreKept(t *testing.T) {
	p := NewParser()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	none := func() *recipe.Catalogs { return nil }
	for _, tt := range []struct {
		text string
		rule string
		days int
	}{
		{"долги старше 90 дней", "aging_direction", 90},
		{"просрочка свыше 30 дней", "aging_direction", 30},
		{"дебиторка старше 60 дней", "", 60},
	} {
		d := p.Understand(Input{Text: tt.text, Now: now}, nil, none)
		if d.Unknown != "" || d.OverdueDays != tt.days || tt.rule != "" && d.Rule != tt.rule {
			t.Errorf("%q: %s/%s, unknown %q, days %d; want rule %q, days %d", tt.text, d.Kind, d.Rule, d.Unknown, d.OverdueDays, tt.rule, tt.days)
		}
	}
	first := p.Understand(Input{Text: "дебиторка старше 60 дней", Now: now}, nil, none)
	st, ok := StateOf(first, "дебиторка старше 60 дней")
	if !ok || st.OverdueDays != 60 {
		t.Fatalf("state %+v", st)
	}
	if d := p.Understand(Input{Text: "а больше 30 дней?", Now: now}, &st, none); d.Recipe != recipe.ReceivablesAging || d.OverdueDays != 30 {
		t.Errorf("«а больше 30 дней?»: %s, days %d", d.Recipe, d.OverdueDays)
	}
	if d := p.Understand(Input{Text: "а больше 90?", Now: now}, &st, none); d.Recipe != recipe.ReceivablesAging || d.OverdueDays != 90 {
		t.Errorf("«а больше 90?»: %s, days %d", d.Recipe, d.OverdueDays)
	}
	if d := p.Understand(Input{Text: "а на 1 апреля?", Now: now}, &st, none); d.Recipe != recipe.ReceivablesAging || d.OverdueDays != 60 || !d.Date.Set {
		t.Errorf("«а на 1 апреля?»: %s, days %d, date %v", d.Recipe, d.OverdueDays, d.Date)
	}
}

// A list's threshold and its top count stay with a follow-up that moves the date or the side
// («кто нам должен больше миллиона» → «а на 1 апреля?»; «топ 3 должников» → «а кому мы?»).
func TestListConditionsAreKept(t *testing.T) {
	p := NewParser()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	none := func() *recipe.Catalogs { return nil }
	for _, tt := range []struct{ first, next string }{
		{"кто нам должен больше миллиона", "а на 1 апреля?"},
		{"топ 3 должников", "а кому мы?"},
	} {
		d := p.Understand(Input{Text: tt.first, Now: now}, nil, none)
		st, ok := StateOf(d, tt.first)
		if !ok || st.AtLeast != d.AtLeast || st.Top != d.Top || d.AtLeast == 0 && d.Top == 0 {
			t.Fatalf("%q: state %+v of %+v", tt.first, st, d)
		}
		if n := p.Understand(Input{Text: tt.next, Now: now}, &st, none); n.AtLeast != d.AtLeast || n.Top != d.Top {
			t.Errorf("%q after %q: at least %d, top %d; want %d, %d", tt.next, tt.first, n.AtLeast, n.Top, d.AtLeast, d.Top)
		}
	}
}

// After the card of 51, «а поступления?» is the card's debit, not a company's bank operations
// (whose?); the side and the corresponding account stay with «а за апрель?».
func TestCardFollowUpsKeepTheSide(t *testing.T) {
	p := NewParser()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	none := func() *recipe.Catalogs { return nil }
	card := p.Understand(Input{Text: "карточка 51 за март", Now: now}, nil, none)
	st, ok := StateOf(card, "карточка 51 за март")
	if !ok || card.Recipe != recipe.AccountCard {
		t.Fatalf("card: %+v", card)
	}
	in := p.Understand(Input{Text: "а поступления?", Now: now}, &st, none)
	if in.Recipe != recipe.AccountCard || in.Turnover != "debit" || in.Account.Value != "51" {
		t.Fatalf("«а поступления?»: %s, turnover %q, account %q", in.Recipe, in.Turnover, in.Account.Value)
	}
	st, _ = StateOf(in, "а поступления?")
	if apr := p.Understand(Input{Text: "а за апрель?", Now: now}, &st, none); apr.Turnover != "debit" || !apr.Period.Set || apr.Period.Value.From.Month() != time.April {
		t.Errorf("«а за апрель?»: turnover %q, period %+v", apr.Turnover, apr.Period)
	}
	pay := p.Understand(Input{Text: "платежи поставщикам за март", Now: now}, nil, none)
	st, _ = StateOf(pay, "платежи поставщикам за март")
	if feb := p.Understand(Input{Text: "а за февраль?", Now: now}, &st, none); feb.Turnover != pay.Turnover || feb.Corr != pay.Corr || pay.Corr == "" {
		t.Errorf("«а за февраль?» after payments to suppliers: %q/%q, want %q/%q", feb.Turnover, feb.Corr, pay.Turnover, pay.Corr)
	}
}

// «долги старше 90 дней» after a company's payments is that company's aging past 90 days, never
// its payments again; «карточка 51 за март» after a list of 15 is the account's card, not row 51.
func TestFollowUpsOfOtherSubjects(t *testing.T) {
	p := NewParser()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	none := func() *recipe.Catalogs { return nil }
	vector := recipe.Entity{Ref: "v", Name: "АО «Вектор»"}
	st := State{Kind: KindLedger, Recipe: recipe.BankOpsByParty, Counterparty: &vector, Question: "сколько заплатили вектору в марте"}
	if d := p.Understand(Input{Text: "долги старше 90 дней", Now: now}, &st, none); d.Recipe != recipe.ReceivablesAging || d.OverdueDays != 90 || d.Counterparty.Value.Name != vector.Name {
		t.Errorf("«долги старше 90 дней» after Вектор's payments: %s, days %d, %q", d.Recipe, d.OverdueDays, d.Counterparty.Value.Name)
	}
	listed := make([]recipe.Entity, 15)
	list := State{Kind: KindLedger, Recipe: recipe.Receivables, Listed: listed, Question: "кто нам должен больше миллиона"}
	if d := p.Understand(Input{Text: "карточка 51 за март", Now: now}, &list, none); d.Recipe != recipe.AccountCard || d.Account.Value != "51" {
		t.Errorf("«карточка 51 за март» after a list of 15: %s/%s %s, account %q", d.Kind, d.Rule, d.Recipe, d.Account.Value)
	}
	if d := p.Understand(Input{Text: "карточка 3", Now: now}, &list, none); d.Recipe != recipe.CounterpartyCard {
		t.Errorf("«карточка 3» after a list of 15: %s/%s %s", d.Kind, d.Rule, d.Recipe)
	}
}
