package agent

import (
	"os"
	"strings"
	"testing"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/internal/testdocs"
)

// supplyOpening is how a contract starts: its parties and their roles, every word of which a
// question about the contract shares («договор», «Покупатель», «Поставщик»).
const supplyOpening = "ДОГОВОР ПОСТАВКИ № 15/2026\n\nг. Москва, 12 января 2026 г.\n\n" +
	"ООО «Северный ветер», именуемое в дальнейшем «Поставщик», в лице генерального директора Иванова И. И., " +
	"действующего на основании Устава, с одной стороны, и ООО «Альфа», именуемое в дальнейшем «Покупатель», " +
	"в лице директора Петрова П. П., с другой стороны, заключили настоящий договор о нижеследующем."

// supplySections are a supply contract's numbered clauses.
var supplySections = []testdocs.Section{
	{Heading: "1. Предмет договора", Body: "1.1. Поставщик обязуется передать в собственность Покупателя товар (строительные материалы), " +
		"а Покупатель обязуется принять и оплатить его на условиях настоящего договора.\n\n" +
		"1.2. Наименование, количество и цена товара указываются в спецификациях, являющихся неотъемлемой частью договора."},
	{Heading: "2. Цена и порядок расчётов", Body: "2.1. Цена договора составляет 1 250 000,00 руб., в том числе НДС 20%.\n\n" +
		"2.2. Покупатель оплачивает товар в течение 20 (двадцати) банковских дней с даты подписания универсального передаточного документа (УПД).\n\n" +
		"2.3. Обязательство по оплате считается исполненным с даты зачисления денежных средств на расчётный счёт Поставщика."},
	{Heading: "3. Поставка", Body: "3.1. Поставщик поставляет товар в течение 10 (десяти) рабочих дней с даты согласования спецификации.\n\n" +
		"3.2. Доставка товара осуществляется транспортом Поставщика до склада Покупателя по адресу: г. Москва, ул. Складская, д. 5."},
	{Heading: "4. Приёмка товара", Body: "4.1. Покупатель проверяет количество и качество товара при приёмке и подписывает УПД.\n\n" +
		"4.2. Претензии по качеству предъявляются в течение 5 рабочих дней с даты приёмки."},
	{Heading: "5. Ответственность сторон", Body: "5.1. За просрочку поставки Поставщик уплачивает Покупателю пени в размере 0,1% " +
		"от стоимости недопоставленного товара за каждый день просрочки.\n\n" +
		"5.2. За просрочку оплаты Покупатель уплачивает Поставщику пени в размере 0,1% от неоплаченной суммы за каждый день просрочки, " +
		"но не более 10% от суммы задолженности.\n\n" +
		"5.3. Уплата неустойки не освобождает стороны от исполнения обязательств."},
	{Heading: "6. Срок действия договора", Body: "6.1. Договор вступает в силу с даты подписания и действует до 31 декабря 2026 г."},
}

// supplyContract is the contract as a user sends it: a Word file (one page, chunks spanning
// sections), a PDF (a section a page) or plain text.
func supplyContract(format string) []byte {
	all := append([]testdocs.Section{{Heading: "Договор поставки № 15/2026", Body: supplyOpening}}, supplySections...)
	switch format {
	case "docx":
		return testdocs.DOCX("Договор поставки № 15/2026", all...)
	case "pdf":
		return testdocs.PDF("Договор поставки № 15/2026", all...)
	}
	text := supplyOpening + "\n\n"
	for _, s := range supplySections {
		text += s.Heading + "\n\n" + s.Body + "\n\n"
	}
	return []byte(text)
}

// servicesContract has no clause on penalties, delivery or warranties.
var servicesContract = []byte("ДОГОВОР ОКАЗАНИЯ УСЛУГ № 7\n\n1. Предмет договора\n\n1.1. Исполнитель оказывает Заказчику услуги по уборке помещений.\n\n" +
	"2. Стоимость и оплата\n\n2.1. Стоимость услуг составляет 50 000,00 руб. в месяц.\n\n" +
	"2.2. Заказчик оплачивает услуги в течение 5 рабочих дней с даты подписания акта.\n\n" +
	"3. Прочие условия\n\n3.1. Споры решаются в Арбитражном суде г. Москвы.\n")

// A document answer quotes the numbered clause that holds the answer, with its number — not the contract's opening, whose words every question about it shares — and
// footnotes only what it quotes.
func TestDocumentAnswerQuotesTheClause(t *testing.T) {
	questions := []struct {
		q       string
		clauses []string // quoted, in order
		not     []string
	}{
		{"какой срок оплаты по договору",
			[]string{"2.2. Покупатель оплачивает товар в течение 20 (двадцати) банковских дней"}, []string{"именуемое", "1.1.", "5.2."}},
		{"когда платить по договору",
			[]string{"2.2. Покупатель оплачивает товар в течение 20"}, []string{"именуемое"}},
		// the clauses that state a rate; «5.3. Уплата неустойки не освобождает…» states none
		{"какая неустойка",
			[]string{"5.1. За просрочку поставки", "5.2. За просрочку оплаты Покупатель уплачивает Поставщику пени"}, []string{"именуемое"}},
		{"какая неустойка за просрочку оплаты",
			[]string{"5.2. За просрочку оплаты Покупатель уплачивает Поставщику пени в размере 0,1%"}, []string{"5.1.", "именуемое"}},
		{"какой срок поставки",
			[]string{"3.1. Поставщик поставляет товар в течение 10 (десяти) рабочих дней"}, []string{"именуемое", "2.2.", "4.2."}},
		{"до какого числа действует договор",
			[]string{"6.1. Договор вступает в силу с даты подписания и действует до 31 декабря 2026 г."}, []string{"именуемое"}},
	}
	for _, format := range []string{"txt", "docx", "pdf"} {
		t.Run(format, func(t *testing.T) {
			a := docAgent(t, docstore.NewMemory(), nil)
			me := Request{UserID: 20, ChatID: 20}
			upload(t, a, me, "dogovor."+format, supplyContract(format))
			for _, tt := range questions {
				ans := ask(t, a, me, tt.q)
				// Quoted with its number: «**dogovor**, п. 2.2:» and the clause.
				quote := "п. " + strings.SplitN(tt.clauses[0], ". ", 2)[0] + ":\n> " + tt.clauses[0]
				if !strings.Contains(ans.Text, quote) {
					t.Errorf("%q: want %q quoted with its number:\n%s", tt.q, tt.clauses[0], ans.Text)
				}
				for i := 1; i < len(tt.clauses); i++ {
					if !strings.Contains(ans.Text, tt.clauses[i]) || strings.Index(ans.Text, tt.clauses[i]) < strings.Index(ans.Text, tt.clauses[i-1]) {
						t.Errorf("%q: want %q after %q:\n%s", tt.q, tt.clauses[i], tt.clauses[i-1], ans.Text)
					}
				}
				for _, n := range tt.not {
					if strings.Contains(ans.Text, n) {
						t.Errorf("%q: the answer quotes %q:\n%s", tt.q, n, ans.Text)
					}
				}
				checkCited(t, ans)
				if len(ans.Sources) != 1 {
					t.Errorf("%q: sources %+v, want the quoted page only", tt.q, ans.Sources)
				}
			}
		})
	}
}

// A document without a clause on what is asked says so, naming the document, whether the
// question is routed to the documents, asked of a selected document or (with a contract
// uploaded) to the knowledge base; a clause it has is quoted.
func TestDocumentWithoutTheClause(t *testing.T) {
	for name, store := range stores(t) {
		t.Run(name, func(t *testing.T) {
			a := docAgent(t, store(t), nil)
			me := Request{UserID: 21, ChatID: 21}
			rc := upload(t, a, me, "uslugi.txt", servicesContract)
			tests := []struct {
				q, want string
				kb      bool // the knowledge base follows
			}{
				{"какая неустойка по договору", "В договоре «ДОГОВОР ОКАЗАНИЯ УСЛУГ № 7» [1] нет пункта о неустойке.", false},
				// The knowledge base follows only when a passage passes its evidence gate: a bare
				// «какая неустойка» names too little of any article (agent/testdata/kbgate).
				{"какая неустойка", "В договоре «ДОГОВОР ОКАЗАНИЯ УСЛУГ № 7» [1] нет пункта о неустойке.", false},
				{"какой срок поставки по договору", "В договоре «ДОГОВОР ОКАЗАНИЯ УСЛУГ № 7» [1] нет пункта о сроке поставки.", false},
				{"какие гарантии по договору", "В договоре «ДОГОВОР ОКАЗАНИЯ УСЛУГ № 7» [1] нет пункта о гарантии.", false},
				{"какой срок оплаты по договору", "п. 2.2:\n> 2.2. Заказчик оплачивает услуги в течение 5 рабочих дней с даты подписания акта. [1]", false},
				{"где решаются споры по договору", "> 3.1. Споры решаются в Арбитражном суде г. Москвы. [1]", false},
			}
			for _, tt := range tests {
				ans := ask(t, a, me, tt.q)
				if !strings.HasPrefix(ans.Text, tt.want) && !strings.Contains(ans.Text, tt.want) {
					t.Errorf("%q:\n%s\nwant %q", tt.q, ans.Text, tt.want)
				}
				if len(ans.Sources) == 0 || ans.Sources[0].Title != "ДОГОВОР ОКАЗАНИЯ УСЛУГ № 7" {
					t.Errorf("%q: sources %+v, want the contract first", tt.q, ans.Sources)
				}
				if kb := strings.Contains(ans.Text, "базе знаний"); kb != tt.kb {
					t.Errorf("%q: knowledge base = %v, want %v:\n%s", tt.q, kb, tt.kb, ans.Text)
				}
				checkCited(t, ans)
			}
			// Selected, the document is what is asked about; the knowledge base may follow.
			press(t, a, me, "d:s:"+rc.Receipt)
			ans := ask(t, a, me, "какая неустойка")
			if !strings.HasPrefix(ans.Text, "В договоре «ДОГОВОР ОКАЗАНИЯ УСЛУГ № 7» [1] нет пункта о неустойке.") || strings.Contains(ans.Text, "ничего нет") {
				t.Errorf("selected:\n%s", ans.Text)
			}
			checkCited(t, ans)
		})
	}
}

// Several documents, none with the clause: each is named.
func TestDocumentsWithoutTheClause(t *testing.T) {
	a := docAgent(t, docstore.NewMemory(), nil)
	me := Request{UserID: 22, ChatID: 22}
	upload(t, a, me, "uslugi.txt", servicesContract)
	upload(t, a, me, "memo.docx", secret())
	ans := ask(t, a, me, "какая неустойка по договору")
	want := "Ни в одном из документов — «ДОГОВОР ОКАЗАНИЯ УСЛУГ № 7» [1], «Служебная записка о премии» [2] — нет пункта о неустойке."
	if !strings.Contains(ans.Text, want) && !strings.Contains(ans.Text, "«Служебная записка о премии» [1], «ДОГОВОР ОКАЗАНИЯ УСЛУГ № 7» [2]") {
		t.Errorf("answer:\n%s\nwant %q", ans.Text, want)
	}
	checkCited(t, ans)
	// With a contract that has one, its clause is quoted.
	upload(t, a, me, "dogovor.txt", supplyContract("txt"))
	ans = ask(t, a, me, "какая неустойка по договору")
	if !strings.Contains(ans.Text, "5.2. За просрочку оплаты") || strings.Contains(ans.Text, "нет пункта") {
		t.Errorf("with a penalty clause:\n%s", ans.Text)
	}
}

// TestHalfHeldClauseIsTheNearest: a clause quoted as the answer, with nothing computed from it,
// must hold most of the question; one that holds about half of it («коммуналка входит в
// аренду?» and the lease's clause on the variable part) is shown as the nearest, not stated as
// the answer — such quotes were right half the time on the document sets. A clause that holds
// the whole question is the answer.
func TestHalfHeldClauseIsTheNearest(t *testing.T) {
	a := docsetAgent(t, "", docsetFiles(t), 27000)
	me := Request{UserID: 27000, ChatID: 27000}
	ans := ask(t, a, me, "коммуналка входит в аренду?")
	if !strings.HasPrefix(ans.Text, "Прямого ответа в ваших документах не нашёл. Ближе всего по смыслу:") || !strings.Contains(ans.Text, "п. 3.4") {
		t.Errorf("half of the question held: %q", ans.Text)
	}
	ans = ask(t, a, me, "какая ставка процентов по займу")
	if strings.Contains(ans.Text, "не нашёл") || !strings.Contains(ans.Text, "п. 3.1") {
		t.Errorf("the whole question held: %q", ans.Text)
	}
}

// TestMostAfterIncreaseNotOfTheTax: the most a payment may come to under a cap on its increase
// is computed from the payment, never from the VAT stated first in the same clause («НДС …, что
// составляет 22 000,00»).
func TestMostAfterIncreaseNotOfTheTax(t *testing.T) {
	contract := "ДОГОВОР НА ОБСЛУЖИВАНИЕ № ОБ-3/26\n\n1. ПРЕДМЕТ\n1.1. Исполнитель обслуживает серверы Заказчика.\n\n" +
		"2. ЦЕНА\n2.1. На стоимость обслуживания 100 000,00 рублей в месяц начисляется НДС по ставке 22 %, что составляет 22 000,00 рублей; " +
		"стоимость с учётом НДС составляет 122 000,00 рублей в месяц.\n" +
		"2.2. При продлении Договора Исполнитель вправе увеличить стоимость обслуживания не более чем на 10 (десять) процентов.\n"
	a := docsetAgent(t, "", []File{{Name: "service.md", Data: []byte(contract)}}, 41100)
	ans := ask(t, a, Request{UserID: 41100, ChatID: 41100}, "максимум какая будет стоимость обслуживания при продлении")
	if text := docsetNorm(ans.Text); strings.Contains(text, "24200,00") || !strings.Contains(text, "134200,00") {
		t.Errorf("kind %s: %q", ans.Kind, ans.Text)
	}
}

// TestCleaningContractInEverydayWords: a services contract none of the question sets has, asked
// as an accountant types — «сколько стоит» is the «стоимость» the contract states, «клининг» and
// «генералка» its «уборка», a sum «в том числе НДС 22 %» without the tax's amount is netted by
// its rate, and a contract one may «отказаться от» has a clause on termination: never «нет пункта
// о расторжении».
func TestCleaningContractInEverydayWords(t *testing.T) {
	data, err := os.ReadFile("testdata/fresh/cleaning.md")
	if err != nil {
		t.Fatal(err)
	}
	a := docsetAgent(t, "", []File{{Name: "cleaning.md", Data: data}}, 41200)
	for i, c := range []struct{ q, want, deny string }{
		{"сколько стоит уборка в месяц", "84000,00", "не нашёл"},
		{"генералка сколько стоит без ндс", "30000,00", "36600,00 ₽**"},
		{"пени за просрочку оплаты клининга какие", "п. 3.1", "базе знаний"},
		{"максимальная ответственность клининга за ущерб", "500000,00", "не нашёл"},
		{"как расторгнуть договор с чистым домом", "", "нет пункта о расторжении"},
		// a time of day asked: the clause that states one («убираются» is the contract's «уборка»)
		{"во сколько убираются", "п. 1.2:\n> 1.2. уборка производится по рабочим дням с 19:00 до 22:00", ""},
	} {
		ans := ask(t, a, Request{UserID: 41200, ChatID: 41200 + int64(i)}, c.q)
		text := docsetNorm(ans.Text)
		if !strings.Contains(text, c.want) || c.deny != "" && strings.Contains(text, docsetNorm(c.deny)) {
			t.Errorf("%q (%s/%s):\n%s", c.q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
		}
	}
}
