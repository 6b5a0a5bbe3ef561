package kb_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

var now = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

func sampleKB(t *testing.T) *library.Library {
	t.Helper()
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	if _, _, err := kb.Ingest(t.Context(), lib, kb.Sample()); err != nil {
		t.Fatal(err)
	}
	return lib
}

// query is text asked by user id, read as the parser reads it.
func query(id int64, text string) skill.Query {
	return skill.Query{UserID: id, ChatID: id, Text: text, Decision: understand.NewParser().Parse(understand.Input{Text: text, Now: now})}
}

func TestAnswerFromTheKnowledgeBase(t *testing.T) {
	s := kb.New(sampleKB(t), nil, kb.Options{})
	r, err := s.Answer(t.Context(), query(1, "какая ставка НДС в 2026 году"))
	if err != nil || !strings.HasPrefix(r.Text, passages.KBPrefix) || len(r.Sources) == 0 || !strings.Contains(r.Sources[0].Title, "база знаний") {
		t.Fatalf("Answer() = %+v, %v; want a knowledge-base article", r, err)
	}
	dbg, ok := r.Trace["docs"].(*passages.Debug)
	if !ok || dbg.Owner != library.KBOwner || dbg.Gate == 0 {
		t.Errorf("Trace = %+v, want the gate", r.Trace)
	}
	if r, _ := kb.New(nil, nil, kb.Options{}).Answer(t.Context(), query(1, "ставка НДС")); r.Text != "Корпоративная база знаний в этой установке не подключена." {
		t.Errorf("Answer() without a knowledge base = %q", r.Text)
	}
	p, err := s.Facts(t.Context(), skill.Query{}, plan.ToolCall{Tool: plan.ToolSearchGeneralKB, Args: []byte(`{"query":"ставка НДС 2026"}`)})
	if err != nil || !p.Found {
		t.Errorf("Facts() = %+v, %v; want the article", p, err)
	}
}

// The refusal reads the decision: a question about rules (Decision.Duty), money
// (Decision.Money, accounts 50 and 51), nothing understood; what can be asked depends on the
// installation.
func TestRefusal(t *testing.T) {
	ledger := kb.New(sampleKB(t), nil, kb.Options{LedgerFor: func(int64, int64) bool { return true }, Rates: true})
	none := kb.New(sampleKB(t), nil, kb.Options{})
	tests := []struct {
		s       *kb.Skill
		q, lead string
		buttons []string
	}{
		{ledger, "что с деньгами", "Понял, что вопрос о деньгах", []string{"Остаток на расчётном счёте", "Кто нам должен?"}},
		{ledger, "как написать цикл for на python", "Не понял вопрос", []string{"Кто нам должен?", "Курс доллара сегодня"}},
		{ledger, "до какого числа перечислить алименты", "В базе знаний нет статьи", []string{"Кто нам должен?", "Курс доллара сегодня"}},
		{ledger, "сколько дней больничного оплачивает работодатель", "В базе знаний нет статьи", []string{"Кто нам должен?", "Курс доллара сегодня"}},
		{ledger, "до какого числа платить с 51 счета", "Понял, что вопрос о деньгах", []string{"Остаток на расчётном счёте", "Кто нам должен?"}},
		{none, "что с деньгами", "Не понял вопрос", nil},
	}
	for i, tt := range tests {
		r, err := tt.s.Answer(t.Context(), query(int64(100+i), tt.q))
		var got []string
		for _, b := range r.Buttons {
			got = append(got, b.Text)
		}
		if err != nil || !strings.HasPrefix(r.Text, tt.lead) || len(r.Sources) > 0 || !slices.Equal(got, tt.buttons) {
			t.Errorf("%q: %q %q, %v; want %q %q", tt.q, r.Text, got, err, tt.lead, tt.buttons)
		}
		if strings.HasPrefix(tt.lead, "Не понял") && tt.s == ledger && !strings.Contains(r.Text, "Спросить можно о таком:\n- данные 1С") {
			t.Errorf("%q does not say what can be asked:\n%s", tt.q, r.Text)
		}
	}
}

const contract = `# Договор поставки № 17

## 2. Оплата

2.1. Покупатель оплачивает товар в течение 20 рабочих дней после поставки.

## 3. Ответственность

3.1. За просрочку поставки Поставщик уплачивает пени в размере 0,1% от стоимости товара за каждый день просрочки.
`

// A rules question is answered from the user's own documents first, unless planned, a
// definition or handed over.
func TestOwnDocumentsFirst(t *testing.T) {
	user := library.New(docstore.NewMemory(), nil, library.Options{})
	if _, err := user.Add(t.Context(), "u:7", 7, "договор.md", []byte(contract)); err != nil {
		t.Fatal(err)
	}
	s := kb.New(sampleKB(t), user, kb.Options{})
	q := query(7, "какие пени за просрочку поставки?")
	r, err := s.Answer(t.Context(), q)
	if err != nil || r.Scenario != skill.S1Search || r.Kind != understand.KindDocs || len(r.Sources) == 0 ||
		!strings.HasPrefix(r.Sources[0].Title, "Договор поставки") {
		t.Fatalf("Answer() = %+v, %v; want the contract", r, err)
	}
	for _, q := range []skill.Query{{Plan: &plan.QueryPlan{}, Searches: []string{}}, {HandedOff: true}} {
		q.UserID, q.ChatID, q.Text = 7, 7, "какие пени за просрочку поставки?"
		if r, err := s.Answer(t.Context(), q); err != nil || r.Kind != "" || r.Scenario != "" {
			t.Errorf("planned or handed over: %+v, %v; want the knowledge base", r, err)
		}
	}
}

// A contract without the clause asked about is said to lack it, and what the knowledge base
// says follows, its footnotes numbered after the contract's.
func TestMissingClauseThenTheKnowledgeBase(t *testing.T) {
	user := library.New(docstore.NewMemory(), nil, library.Options{})
	if _, err := user.Add(t.Context(), "u:8", 8, "договор.md", []byte(contract)); err != nil {
		t.Fatal(err)
	}
	s := kb.New(sampleKB(t), user, kb.Options{})
	r, err := s.Answer(t.Context(), query(8, "какой порядок приемки товара"))
	head := "В договоре «Договор поставки № 17» [1] нет пункта о приёмке.\n\n" + passages.KBPrefix
	if err != nil || !strings.HasPrefix(r.Text, head) || len(r.Sources) != 2 || !strings.Contains(r.Text[len(head):], "[2]") ||
		strings.Contains(r.Text[len(head):], "[1]") || r.Scenario != "" {
		t.Errorf("Answer() = %q %+v, %v; want the clause missing, then the knowledge base as [2]", r.Text, r.Sources, err)
	}
	if _, ok := r.Trace["docs"].(*passages.Debug); !ok {
		t.Errorf("Trace = %+v, want the knowledge base's", r.Trace)
	}
}
