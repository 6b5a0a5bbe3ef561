package library

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// contractText is a contract as a PDF's text layer or a plain-text file gives it: the opening,
// numbered sections and clauses, a reference to a clause inside another («п. 5.2»).
const contractText = `ДОГОВОР ПОСТАВКИ № 15/2026
г. Москва, 12 января 2026 г.
ООО «Северный ветер», именуемое в дальнейшем «Поставщик», и ООО «Альфа», именуемое в дальнейшем «Покупатель», заключили настоящий договор о нижеследующем.
1. Предмет договора
1.1. Поставщик обязуется передать Покупателю товар, а Покупатель обязуется принять и оплатить его на условиях настоящего договора.
2. Цена и порядок расчётов
2.1. Цена договора составляет 1 250 000,00 руб.
2.2. Покупатель оплачивает товар в течение 20 (двадцати) банковских дней с даты подписания УПД.
3. Поставка
3.1. Поставщик поставляет товар в течение 10 рабочих дней с даты согласования
спецификации; за нарушение срока — пени по п. 5.1 Договора.
5. Ответственность сторон
5.1. За просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки.
5.2. За просрочку оплаты Покупатель уплачивает пени 0,1% от неоплаченной суммы за каждый день просрочки.
Конфиденциальность
6.1. Стороны не раскрывают условия договора третьим лицам.`

func TestClause(t *testing.T) {
	tests := []struct {
		query  string
		asking Asking
		want   Quote
	}{
		{"какой срок оплаты по договору", asksDeadline(""), Quote{Section: "2. Цена и порядок расчётов", Clause: "2.2", Score: 2,
			Text: "2.2. Покупатель оплачивает товар в течение 20 (двадцати) банковских дней с даты подписания УПД."}},
		{"когда платить", asksDeadline(""), Quote{Section: "2. Цена и порядок расчётов", Clause: "2.2", Score: 2,
			Text: "2.2. Покупатель оплачивает товар в течение 20 (двадцати) банковских дней с даты подписания УПД."}},
		{"какой срок поставки", Asking{When: true, Term: true}, Quote{Section: "3. Поставка", Clause: "3.1", Score: 2,
			Text: "3.1. Поставщик поставляет товар в течение 10 рабочих дней с даты согласования спецификации; за нарушение срока — пени по п. 5.1 Договора."}},
		{"какая неустойка", Asking{}, Quote{Section: "5. Ответственность сторон", Clause: "5.1", Score: 1,
			Text: "5.1. За просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки. " +
				"5.2. За просрочку оплаты Покупатель уплачивает пени 0,1% от неоплаченной суммы за каждый день просрочки."}},
		{"пени за просрочку оплаты", Asking{}, Quote{Section: "5. Ответственность сторон", Clause: "5.2", Score: 3.5,
			Text: "5.2. За просрочку оплаты Покупатель уплачивает пени 0,1% от неоплаченной суммы за каждый день просрочки."}},
		{"условия конфиденциальности", Asking{}, Quote{Section: "Конфиденциальность", Clause: "6.1", Score: 1.5,
			Text: "6.1. Стороны не раскрывают условия договора третьим лицам."}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Clause(contractText, tt.query, tt.asking, 450)); diff != "" {
				t.Errorf("Clause(%q) mismatch (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}

func TestClauseUnits(t *testing.T) {
	// One line, as a PDF with no line breaks gives it: clauses after a sentence's end, a
	// section title before its first subclause, «п. 5.2» and a date left alone.
	got := clauseUnits("Общие условия договора. 1. Оплата 1.1. Покупатель платит по п. 5.2. Договора до 12.01.2026 г. 1.2. Аванс — 30%. 2. Прочее. Споры — в суде.")
	want := []clauseUnit{
		{text: "Общие условия договора."},
		{number: "1", text: "1. Оплата", heading: true},
		{number: "1.1", text: "1.1. Покупатель платит по п. 5.2. Договора до 12.01.2026 г."},
		{number: "1.2", text: "1.2. Аванс — 30%."},
		{number: "2", text: "2. Прочее. Споры — в суде."},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(clauseUnit{})); diff != "" {
		t.Errorf("clauseUnits mismatch (-want +got):\n%s", diff)
	}
}

// A passage without numbered clauses is quoted by sentences, as before; one clause longer
// than the budget is cut and marked.
func TestClauseWithoutClauses(t *testing.T) {
	text := "Арендатор вносит плату ежемесячно. Пени за просрочку составляют 0,5% в день. Споры решаются в суде."
	if got := Clause(text, "пени", Asking{}, 40); got.Clause != "" || got.Text != Excerpt(text, "пени", 40) || got.Score != 1 {
		t.Errorf("Clause without clauses = %+v, want Excerpt's %q", got, Excerpt(text, "пени", 40))
	}
	if got := Clause(contractText, "пени за просрочку оплаты", Asking{}, 30); got.Clause != "5.2" || got.Text != "5.2. За просрочку оплаты Покуп…" {
		t.Errorf("Clause over the budget = %+v", got)
	}
}

func TestTopicOf(t *testing.T) {
	when := Asking{When: true, Term: true}
	tests := []struct {
		query  string
		asking Asking
		want   string
	}{
		{"какая неустойка", Asking{}, "о неустойке"},
		{"неустойка за просрочку оплаты", Asking{}, "о неустойке"},
		{"какой срок оплаты по договору", when, "о сроке оплаты"},
		{"когда платить", when, "о сроке оплаты"},
		{"какой срок поставки", when, "о сроке поставки"},
		{"до какого числа действует договор", when, "о сроке действия договора"},
		{"где решаются споры", Asking{}, "о разрешении споров"},
		{"какая цена договора", Asking{}, "о цене"},
		{"кто подписал договор", Asking{}, ""},
		{"реквизиты поставщика", Asking{}, ""},
		// «оплата» asks for the payment term only when the question asks for a time limit.
		{"порядок оплаты по договору", Asking{}, ""},
	}
	for _, tt := range tests {
		got, ok := TopicOf(tt.query, tt.asking)
		if got.About != tt.want || ok != (tt.want != "") {
			t.Errorf("TopicOf(%q) = %q, %v; want %q", tt.query, got.About, ok, tt.want)
		}
	}
	penalty, _ := TopicOf("какая неустойка", Asking{})
	if !penalty.In(contractText) || penalty.In("1.1. Исполнитель оказывает услуги. 2.1. Оплата в течение 5 дней.") {
		t.Error("Topic.In: the penalty clause is in the supply contract only")
	}
	term, _ := TopicOf("до какого числа действует договор", when)
	if !term.In("Договор вступает в силу с даты подписания.") || term.In(contractText) {
		t.Error("Topic.In: a contract's term is said by «вступает в силу», «действует до»")
	}
}
