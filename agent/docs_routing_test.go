package agent

import (
	"slices"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/understand"
)

// TestNoArticleAsksTheDocuments: a message the parser could not place, which the knowledge base
// has no article on, is asked of the user's documents — their answer replaces «Не понял
// вопрос» when they state one («что истекает в январе 27»: the contracts' register, the short
// year read as 2027), and the refusal stands when they only come close or there are none.
func TestNoArticleAsksTheDocuments(t *testing.T) {
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	me := Request{UserID: 40000, ChatID: 40000}
	ans := ask(t, a, me, "что истекает в январе 27")
	if ans.Kind != understand.KindDocs || !strings.HasPrefix(ans.Text, "Истекают за 01.01.2027–31.01.2027:") {
		t.Fatalf("kind %s: %q", ans.Kind, ans.Text)
	}
	ends, rest, _ := strings.Cut(ans.Text, "Остальные:")
	for _, c := range []string{"СА-14/26", "SL-2026/118"} {
		if !strings.Contains(ends, c) {
			t.Errorf("%s (ends 31.01.2027) not among those that end in January 2027: %q", c, ans.Text)
		}
	}
	for _, c := range []string{"ТЭ-305/26", "АГ-09/2026"} {
		if !strings.Contains(rest, c) {
			t.Errorf("%s not among the others: %q", c, ans.Text)
		}
	}
	if !strings.Contains(strings.Join(ans.Debug.Route.Reasons, "; "), "в базе знаний статьи нет") {
		t.Errorf("the route does not say why the documents answered: %v", ans.Debug.Route.Reasons)
	}

	// The documents state nothing of it: the clause that comes closest is no answer — it is
	// offered only as the closest, after «не нашёл» (the message names the licence's program),
	// or the refusal stands.
	ans = ask(t, a, me, "можно ставить программу в минском филиале")
	if !strings.HasPrefix(ans.Text, "Не понял вопрос") && !strings.HasPrefix(ans.Text, "Прямого ответа в ваших документах не нашёл") {
		t.Errorf("kind %s: %q", ans.Kind, ans.Text)
	}

	// No documents: the refusal.
	other := Request{UserID: 40500, ChatID: 40500}
	if ans := ask(t, a, other, "что истекает в январе 27"); !strings.HasPrefix(ans.Text, "Не понял вопрос") {
		t.Errorf("without documents: %q", ans.Text)
	}
}

// TestWordsOf1CStayWith1C: questions in 1C's own words stay with 1C beside documents that share
// some of them — «сколько денег на счетах» (51's balance; the loan's «денежные средства на
// счёт»), «платежи поставщикам за март» (51 — 60; the supply contract's payments), «сколько
// заплатили меридиану за октябрь» (ООО «Меридиан» in 1C, «Меридиан Недвижимость» the lessor: the
// name written whole, in another case); what the lease states is the lease's.
func TestWordsOf1CStayWith1C(t *testing.T) {
	a := docsetAgent(t, "", docsetFiles(t), 27000)
	for _, tt := range []struct {
		q    string
		kind understand.Kind
		want string
	}{
		{"сколько денег на счетах", understand.KindLedger, "Остаток по счёту 51"},
		{"платежи поставщикам за март", understand.KindLedger, "Перечислено поставщикам (сч. 51 — 60)"},
		{"сколько заплатили меридиану за октябрь", understand.KindLedger, "ООО «Меридиан»"},
		{"сколько платим меридиану в месяц за офис", understand.KindDocs, "п. 3.1"},
	} {
		ans := ask(t, a, Request{UserID: 27000, ChatID: 27000}, tt.q)
		if ans.Debug.Route.Kind != tt.kind || !strings.Contains(ans.Text, tt.want) {
			t.Errorf("%q: route %s/%s: %q", tt.q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
		}
	}
}

// TestOneMonthsTermIsNotTheMonthly: «когда платить аренду» is the monthly term, not the
// February payment's «в течение 5 банковских дней с даты подписания», which answers only when
// February is asked — nor the deposit's, counted from the same day, unless the deposit is asked.
func TestOneMonthsTermIsNotTheMonthly(t *testing.T) {
	a := docsetAgent(t, "", docsetFiles(t), 27000)
	me := Request{UserID: 27000, ChatID: 27000}
	if ans := ask(t, a, me, "когда платить аренду"); strings.Contains(ans.Text, "02.02.2026") || !strings.Contains(ans.Text, "п. 3.5") {
		t.Errorf("the monthly term: %q", ans.Text)
	}
	if ans := ask(t, a, me, "когда платить аренду за февраль"); !strings.Contains(ans.Text, "**02.02.2026**") {
		t.Errorf("February's: %q", ans.Text)
	}
	// …nor the deposit's «в течение 5 банковских дней с даты подписания», unless it is asked
	if ans := ask(t, a, me, "аренда сколько и до какого числа платить"); strings.Contains(ans.Text, "02.02.2026") {
		t.Errorf("the deposit's term for the rent's: %q", ans.Text)
	}
	if ans := ask(t, a, me, "когда вносить обеспечительный платеж"); !strings.Contains(ans.Text, "**02.02.2026**") || !strings.Contains(ans.Text, "п. 5.1") {
		t.Errorf("the deposit's: %q", ans.Text)
	}
}

// TestDocumentFollowUpStaysInItsDocument: a follow-up that names no document is answered from
// the one the dialog is about — the agency contract's report day for «за ноябрь значит когда»,
// computed; and never from another document's clause («а за декабрь значит до» after the
// services contract's payment day is not the loan's December repayment).
func TestDocumentFollowUpStaysInItsDocument(t *testing.T) {
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	me := Request{UserID: 40000, ChatID: 40100}
	if ans := ask(t, a, me, "агентский отчет до какого числа сдают"); !strings.Contains(ans.Text, "5.1") {
		t.Fatalf("first question: %q", ans.Text)
	}
	ans := ask(t, a, me, "за ноябрь значит когда")
	if ans.Debug.Route.Rule != "follow_up_docs" || !strings.Contains(ans.Text, "**07.12.2026**") || !strings.Contains(ans.Text, "АГЕНТСКИЙ ДОГОВОР") {
		t.Errorf("route %s: %q", ans.Debug.Route.Rule, ans.Text)
	}

	b := docsetAgent(t, "", docsetFiles(t), 27000)
	me = Request{UserID: 27000, ChatID: 27100}
	for _, q := range []string{"абонентка сетевым решениям сколько в месяц", "а до какого числа платим"} {
		if ans := ask(t, b, me, q); !strings.Contains(ans.Text, "47/У") {
			t.Fatalf("%q: %q", q, ans.Text)
		}
	}
	ans = ask(t, b, me, "а за декабрь значит до")
	if strings.Contains(ans.Text, "ЗАЙМА") || strings.Contains(ans.Text, "ПОСТАВКИ") || ans.Debug.Route.Kind != understand.KindDocs {
		t.Errorf("answered from another document: %q", ans.Text)
	}
}

// TestRateOfADocumentIsNoKeyRate: «ставка» alone, beside a sublease whose rates are indexed,
// is the sublease's; the Bank of Russia's rate is asked by its name.
func TestRateOfADocumentIsNoKeyRate(t *testing.T) {
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	me := Request{UserID: 40000, ChatID: 40000}
	ans := ask(t, a, me, "до какого они обязаны сообщить новую ставку на 27 год")
	if ans.Debug.Route.Kind != understand.KindDocs || !strings.Contains(ans.Text, "СА-14/26") {
		t.Errorf("route %s/%s: %q", ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
	}
	// «кс» is the key rate only as a word of its own, not inside «индексация» or «такси»
	if namesKeyRate.MatchString("ставка после индексации какая") || !namesKeyRate.MatchString("кс на сегодня") {
		t.Error("«кс» read inside a word, or not as one")
	}
	for _, q := range []string{"какая ключевая ставка", "ставка цб сегодня"} {
		if ans := ask(t, a, me, q); ans.Debug.Route.Kind != understand.KindKeyRate {
			t.Errorf("%q: route %s/%s: %q", q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
		}
	}
}

// TestWhichContractsHaveIt: «в каких договорах есть пени» lists every contract whose clause sets
// a penalty — not only the one whose short clause scores highest beside a table that says
// «пени по договору» — and a contract with none is named as such; when no contract's clause says
// all that is asked («штраф за разглашение»), no list is stated, the nearest clause is shown.
func TestWhichContractsHaveIt(t *testing.T) {
	a := docsetAgent(t, "", docsetFiles(t), 27000)
	me := Request{UserID: 27000, ChatID: 27000}
	ans := ask(t, a, me, "в каких договорах есть пени")
	for _, c := range []string{"А-07/26**, п. 7.1", "318-П**, п. 7.1", "03/ВГЗ-26**, п. 6.1", "47/У**, п. 5.1"} {
		if !strings.Contains(ans.Text, c) {
			t.Errorf("%s missing: %q", c, ans.Text)
		}
	}
	if strings.Contains(ans.Text, "ничего не сказано") {
		t.Errorf("a contract with penalties said to have none: %q", ans.Text)
	}
	ans = ask(t, a, me, "в каких договорах есть штраф за разглашение")
	if !strings.HasPrefix(ans.Text, "Ни в одном договоре не нашёл пункта") {
		t.Errorf("a list of late-payment penalties for a disclosure fine: %q", ans.Text)
	}
	ans = ask(t, a, me, "в каких договорах есть обеспечительный платеж")
	if !strings.Contains(ans.Text, "А-07/26**, п. 5.1") || !strings.Contains(ans.Text, "318-П") || !strings.Contains(ans.Text, "ничего не сказано") {
		t.Errorf("the lease's deposit, the others named without: %q", ans.Text)
	}
}

// TestPartyLineOnlyForWho: the line naming a side («**Исполнитель** — ООО …») answers who it is,
// not a question of the side's amount («на какую сумму максимум отвечает исполнитель»).
func TestPartyLineOnlyForWho(t *testing.T) {
	a := docsetAgent(t, "", docsetFiles(t), 27000)
	me := Request{UserID: 27000, ChatID: 27000}
	if ans := ask(t, a, me, "кто исполнитель по ит договору"); !strings.HasPrefix(ans.Text, "**Исполнитель** — ООО «Сетевые Решения»") {
		t.Errorf("who: %q", ans.Text)
	}
	if ans := ask(t, a, me, "на какую сумму максимум отвечает исполнитель по ит договору"); strings.Contains(ans.Text, "**Исполнитель** —") {
		t.Errorf("an amount answered with who the side is: %q", ans.Text)
	}
}

// TestInvoiceSumIsItsTotal: a sum or VAT asked of a primary document the question names, and of
// no line of it, is the document's total row, its sum asked stated first — not another document's clause that mentions such
// a paper («представляет … УПД на сумму вознаграждения»), nor the first line's VAT.
func TestInvoiceSumIsItsTotal(t *testing.T) {
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	me := Request{UserID: 40000, ChatID: 40000}
	// the sum asked first, read by the row's columns, then the row itself
	for q, lead := range map[string]string{
		"какая сумма по упд": "Сумма «УПД 1452 от 27.11.2026»: **448\u00a0371,96\u00a0₽** с НДС, в т.ч. НДС 80\u00a0853,96\u00a0₽",
		"какой ндс в упд":    "НДС по «УПД 1452 от 27.11.2026»: **80\u00a0853,96\u00a0₽**",
	} {
		ans := ask(t, a, me, q)
		if !strings.HasPrefix(ans.Text, lead) || !strings.Contains(ans.Text, "**УПД 1452 от 27.11.2026**, таблица, строка «Всего…»") ||
			!strings.Contains(ans.Text, "80 853,96") || !strings.Contains(ans.Text, "448 371,96") {
			t.Errorf("%q: %q", q, ans.Text)
		}
	}
	// a line named: that line
	if ans := ask(t, a, me, "сколько стоит пленка по упд"); !strings.Contains(ans.Text, "строка 1") || strings.Contains(ans.Text, "Всего…") {
		t.Errorf("a line: %q", ans.Text)
	}
}

// TestWhoSignedIt: «кто подписал агентский договор» names each side and who signs for it, as
// the preamble says («(далее — «Принципал»), в лице генерального директора …»), not the clause on
// who signs its reports.
func TestWhoSignedIt(t *testing.T) {
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	ans := ask(t, a, Request{UserID: 40000, ChatID: 40000}, "кто подписал агентский договор")
	if !strings.HasPrefix(ans.Text, "**Принципал** — ООО «Альтаир Трейд»") || !strings.Contains(ans.Text, "Воронцовой Марины Алексеевны") ||
		!strings.Contains(ans.Text, "**Агент** — ООО «Маркет Партнёр»") || !strings.Contains(ans.Text, "Зайцева Артёма Олеговича") {
		t.Errorf("%q", ans.Text)
	}
}

// TestAcrossDocumentsCurrentWording: a list across the contracts quotes a clause a supplementary
// agreement set anew in its new wording (the sublease's penalty 0,05 %, not the original 0,1 %).
func TestAcrossDocumentsCurrentWording(t *testing.T) {
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	ans := ask(t, a, Request{UserID: 40000, ChatID: 40000}, "в каких договорах есть штрафы")
	if !strings.Contains(ans.Text, "п. 8.1 — в редакции «ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2") || strings.Contains(ans.Text, "0,1 % (ноль целых одна") {
		t.Errorf("%q", ans.Text)
	}
}

// TestUnknownNameOfADocumentsParty: a company 1C does not know, typed in a hurry with a capital
// inside («векторТранс»), is read as a name — never dropped to answer the whole account 51 — and
// said back as typed; the user's contract with that company is offered by a button.
func TestUnknownNameOfADocumentsParty(t *testing.T) {
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40100)
	for i, q := range []string{"сколько заплатили векторТранс в ноябре", "сколько заплатили ВекторТранс в ноябре"} {
		ans := ask(t, a, Request{UserID: 40100, ChatID: 40101 + int64(i)}, q)
		name := strings.Fields(q)[2]
		if ans.Kind != understand.KindUnknownEntity || !strings.Contains(ans.Text, "«"+name+"»") {
			t.Errorf("%q: %s, want the unknown name «%s» said back: %q", q, ans.Kind, name, ans.Text)
		}
		if !slices.ContainsFunc(ans.Buttons, func(b Button) bool { return b.Text == docsOfferPrefix+q }) {
			t.Errorf("%q: the forwarding contract with ООО «ВекторТранс» is not offered: %+v", q, ans.Buttons)
		}
	}
	// A name neither 1C nor the documents know gets no such button.
	ans := ask(t, a, Request{UserID: 40100, ChatID: 40110}, "сколько заплатили ГрузЭкспресс в ноябре")
	if slices.ContainsFunc(ans.Buttons, func(b Button) bool { return strings.HasPrefix(b.Text, docsOfferPrefix) }) {
		t.Errorf("a name no document holds: %+v", ans.Buttons)
	}
}

// TestOwedByWhenIsTheAgreements: «надо было до 5го заплатить?» asks what was owed by when — a
// term only an agreement states; 1C keeps what was paid, and its card of 51 for the month would
// answer another question. A number with its case ending («5го») is the number the clause writes.
func TestOwedByWhenIsTheAgreements(t *testing.T) {
	lease := "ДОГОВОР АРЕНДЫ ОФИСА № 44/26\n\n1. ПРЕДМЕТ ДОГОВОРА\n1.1. Арендодатель передаёт Арендатору офис площадью 18 кв. м.\n\n" +
		"2. ПЛАТЕЖИ\n2.1. Арендная плата составляет 54 000,00 рублей в месяц.\n" +
		"2.2. Арендная плата за март вносится по новой ставке не позднее 5-го числа текущего месяца.\n" +
		"2.3. Коммунальные платежи возмещаются по счетам Арендодателя.\n"
	a := docsetAgent(t, "", []File{{Name: "lease44.md", Data: []byte(lease)}}, 41000)
	me := Request{UserID: 41000, ChatID: 41000}
	ans := ask(t, a, me, "за март по новой ставке надо было до 5го оплатить?")
	if ans.Kind != understand.KindDocs || !strings.Contains(ans.Text, "2.2") {
		t.Errorf("kind %s (%s): %q", ans.Kind, ans.Debug.Route.Rule, ans.Text)
	}
	// «заплатить», a word the lease does not write («вносится»), asks the lease as «оплатить»
	// does.
	if ans := ask(t, a, me, "за март по новой ставке надо было до 5го заплатить?"); ans.Kind != understand.KindDocs || !strings.Contains(ans.Text, "2.2") {
		t.Errorf("kind %s (%s): %q", ans.Kind, ans.Debug.Route.Rule, ans.Text)
	}
	// What was paid in March stays 1C's.
	if ans := ask(t, a, me, "сколько заплатили за март"); ans.Kind == understand.KindDocs {
		t.Errorf("what was paid went to the documents: %q", ans.Text)
	}
}
