package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

// ledgerAgent is buttonsAgent with the results kept in memory, as an agent without a store keeps them.
func ledgerAgent(t *testing.T, access func(u, c int64) bool) *Agent {
	return buttonsAgent(t, nil, access)
}

func TestLedgerAccess(t *testing.T) {
	a := ledgerAgent(t, func(u, c int64) bool { return u == 7 || c == -100 })
	for _, tt := range []struct {
		req     Request
		allowed bool
	}{
		{Request{UserID: 7, ChatID: 7, Text: "кто нам должен на 31.03.2026"}, true},
		{Request{UserID: 8, ChatID: 8, Text: "кто нам должен на 31.03.2026"}, false},
		{Request{UserID: 8, ChatID: -100, Group: true, Text: "кто нам должен на 31.03.2026"}, true},
		{Request{UserID: 8, ChatID: -200, Group: true, Command: "debts"}, false},
	} {
		ans, err := a.Answer(t.Context(), tt.req)
		if err != nil {
			t.Fatal(err)
		}
		hasFigures := strings.Contains(ans.Text, "₽")
		if hasFigures != tt.allowed || (!tt.allowed && !strings.Contains(ans.Text, "только сотрудникам с доступом")) {
			t.Errorf("user %d chat %d: allowed=%v but answer %q", tt.req.UserID, tt.req.ChatID, tt.allowed, ans.Text)
		}
	}
}

func TestLedgerAnswerCarriesDebugButtonsAndExport(t *testing.T) {
	a := ledgerAgent(t, func(int64, int64) bool { return true })
	ctx := context.Background()
	req := Request{UserID: 1, ChatID: 1, Text: "кто нам должен на 31.03.2026"}
	ans, err := a.Answer(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	dbg := ledgerOf(ans)
	if ans.Scenario != OneC || dbg == nil || dbg.SelectedRecipe != "address.receivables.counterparty_totals" || dbg.RowsMatched != 18 {
		t.Fatalf("scenario %s debug %+v", ans.Scenario, dbg)
	}
	var drill, export string
	for _, b := range ans.Buttons {
		switch {
		case runner.IsDrill(b.Data) && drill == "":
			drill = b.Data
		case strings.HasPrefix(b.Data, ledger.ExportPrefix):
			export = b.Data
		}
	}
	if drill == "" || export == "" {
		t.Fatalf("buttons = %+v, want a drilldown and the export", ans.Buttons)
	}
	next, _ := a.Answer(ctx, Request{UserID: 1, ChatID: 1, Command: "drill", Text: drill})
	if ledgerOf(next) == nil || ledgerOf(next).SelectedRecipe != "address.open_items.by_counterparty" {
		t.Errorf("drilldown answer = %q", next.Text)
	}
	// The export is of the answer the button sits under, not of the drilldown asked since.
	file, _ := a.Answer(ctx, Request{UserID: 1, ChatID: 1, Command: "drill", Text: export})
	if file.Document == nil || file.Document.Name != "Дебиторка на 31.03.2026.xlsx" || len(file.Document.Bytes) < 1000 {
		t.Errorf("export = %+v", file)
	}
	// Another chat has nothing to export: data never crosses conversations.
	other, _ := a.Answer(ctx, Request{UserID: 2, ChatID: 2, Command: "drill", Text: export})
	if other.Document != nil {
		t.Error("another user's chat exported the first user's result")
	}
	forged, _ := a.Answer(ctx, Request{UserID: 1, ChatID: 1, Command: "drill", Text: "b:op:deadbeef0000:20260331:34adc550-78a:"})
	if !strings.Contains(forged.Text, "устарела или повреждена") {
		t.Errorf("forged drilldown = %q", forged.Text)
	}
}

// A drilldown button of before ("a:", which named the recipe and the organization by position)
// is refused as stale, with a question to ask again, even where its positions still resolve.
func TestLegacyDrillButtonIsStale(t *testing.T) {
	a := ledgerAgent(t, func(int64, int64) bool { return true })
	for _, data := range []string{"a:4:cb61f26c-a4d:20260331:1:", "a:4:cb61f26c-a4d:20260331:0:", "a:11:p20260101:20260331:1:62", "a:"} {
		ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Command: "drill", Text: data})
		if err != nil {
			t.Fatal(err)
		}
		if !isStale(ans) || !strings.Contains(ans.Text, "прежней версии") || ledgerOf(ans) != nil {
			t.Errorf("%q: %q, buttons %+v; want «кнопка устарела … прежней версии … Задайте вопрос заново»", data, ans.Text, ans.Buttons)
		}
	}
}

func TestClarificationChoice(t *testing.T) {
	a := ledgerAgent(t, func(int64, int64) bool { return true })
	ctx := context.Background()
	req := Request{UserID: 1, ChatID: 1, Text: "открытые позиции по Сев на 31.03.2026"}
	ans, _ := a.Answer(ctx, req)
	if len(ans.Buttons) < 2 || !strings.HasPrefix(ans.Buttons[1].Data, "c:") || !strings.HasSuffix(ans.Buttons[1].Data, ":1") || len(ans.Buttons[1].Data) > 64 {
		t.Fatalf("buttons = %+v", ans.Buttons)
	}
	picked, _ := a.Answer(ctx, Request{UserID: 1, ChatID: 1, Command: "drill", Text: ans.Buttons[1].Data})
	if ledgerOf(picked) == nil || ledgerOf(picked).SelectedRecipe != "address.open_items.by_counterparty" ||
		!strings.Contains(picked.Text, "Северсталь") {
		t.Errorf("choice answer:\n%s", picked.Text)
	}
	stale, _ := a.Answer(ctx, Request{UserID: 2, ChatID: 2, Command: "drill", Text: ans.Buttons[0].Data})
	if !strings.Contains(stale.Text, "устарела") {
		t.Errorf("another chat's choice = %q", stale.Text)
	}
}

// A question for one kind of a counterparty's documents gets that kind only, and says so: an
// empty answer about goods received must not read as «no documents at all».
func TestDocumentsOfOneKind(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	tests := []struct{ q, want, not string }{
		{"поступления товаров от ромашки за март", "Поступлений товаров и услуг по ООО \"Ромашка\" за 01.03.2026 – 31.03.2026 не найдено.", "Документов по"},
		{"отгрузки гранита за март", "Реализации товаров и услуг ООО «Гранит» за 01.03.2026 – 31.03.2026", "ПТиУ"},
		{"документы ромашки за март", " за 01.03.2026 – 31.03.2026: ", ""},
	}
	for i, tt := range tests {
		ans := ask(t, a, Request{UserID: int64(800 + i), ChatID: int64(800 + i)}, tt.q)
		if !strings.Contains(ans.Text, tt.want) || tt.not != "" && strings.Contains(ans.Text, tt.not) {
			t.Errorf("%q:\n%s\nwant %q, not %q", tt.q, ans.Text, tt.want, tt.not)
		}
	}
}

// How much tax to pay is computed by no recipe: the answer says so and offers what 1C has
// (account 68), never the card of 51 or an article in its place; its buttons are questions the
// agent answers. A question about the deadline stays the knowledge base's.
func TestTaxAmountIsNotComputed(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 810, ChatID: 810}
	ans := ask(t, a, me, "сколько ндс платить за 1 квартал")
	if !strings.Contains(ans.Text, "не рассчитываю") || strings.Contains(ans.Text, "Карточка счёта 51") {
		t.Fatalf("answer:\n%s", ans.Text)
	}
	var labels []string
	for _, b := range ans.Buttons {
		labels = append(labels, b.Text)
	}
	want := []string{"Сальдо 68 на 31.03.2026", "Карточка счёта 68 за 01.01.2026 – 31.03.2026"}
	if !slices.Equal(labels, want) {
		t.Fatalf("buttons %q, want %q", labels, want)
	}
	for _, l := range labels {
		if got := ask(t, a, me, l); got.Debug.Route.Kind != understand.KindLedger || !strings.Contains(got.Text, "68") {
			t.Errorf("button %q: %s/%s\n%s", l, got.Debug.Route.Kind, got.Debug.Route.Rule, got.Text)
		}
	}
	if d := ask(t, a, Request{UserID: 811, ChatID: 811}, "до какого числа платить ндфл"); d.Debug.Route.Rule == "tax_amount" {
		t.Errorf("a deadline question read as a tax amount: %s", d.Text)
	}
}

// A 1C figure asked in the future tense is a forecast no source holds: a past January's
// balance («в январе» read as January 2026 on 7 December) or a past year's receivables would be
// a confident answer to another question. The reply says so, its button — the figure as posted
// today — is answered, and a fresh question in the future tense after a company's debt does not
// inherit the company (it had listed Вектор's bank operations for «сколько налога на прибыль
// заплатим за год»).
func TestForecastIsAskedBack(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	for i, c := range []struct{ q, button string }{
		{"какой будет остаток на 51 в январе", "Остаток по счёту 51 на сегодня"},
		{"сколько будет дебиторки на конец года", "Кто нам должен?"},
		{"сколько нам заплатит вектор в январе", "Расчёты с АО «Вектор»"},
		{"когда получим деньги от альфы", "Расчёты с ООО «Альфа»"},
	} {
		me := Request{UserID: int64(830 + i), ChatID: int64(830 + i)}
		ans := ask(t, a, me, c.q)
		if ans.Debug.Route.Rule != "forecast" || !strings.Contains(ans.Text, "Прогнозов я не делаю") || strings.Contains(ans.Text, "₽") {
			t.Errorf("%q: %s/%s\n%s", c.q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
			continue
		}
		if len(ans.Buttons) == 0 || ans.Buttons[0].Text != c.button {
			t.Errorf("%q: buttons %v, want %q first", c.q, ans.Buttons, c.button)
			continue
		}
		if got := ask(t, a, me, c.button); got.Debug.Route.Kind != understand.KindLedger || !strings.Contains(got.Text, "₽") {
			t.Errorf("button %q: %s/%s\n%s", c.button, got.Debug.Route.Kind, got.Debug.Route.Rule, got.Text)
		}
	}
	me := Request{UserID: 840, ChatID: 840}
	ask(t, a, me, "долг вектора")
	if ans := ask(t, a, me, "сколько налога на прибыль заплатим за год"); ans.Debug.Route.Rule != "tax_amount" {
		t.Errorf("a tax amount after a company's debt: %s/%s\n%s", ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
	}
	// the past tense and a date to come stay 1C's: what was posted, said to be no forecast
	for _, q := range []string{"сколько заплатил вектор в марте", "остаток на 51 на 31.01.2027"} {
		if ans := ask(t, a, Request{UserID: 841, ChatID: 841}, q); ans.Debug.Route.Kind != understand.KindLedger {
			t.Errorf("%q: %s/%s\n%s", q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
		}
	}
}

// A company's bank operations asked in one direction open with that direction's sum, zero said
// as zero: «сколько заплатили вектору в марте» had been answered «поступило 1 056 147,99 ₽» — what
// Вектор paid us, read as what we paid it.
func TestBankOpsInTheDirectionAsked(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	for i, c := range []struct{ q, want, not string }{
		{"сколько заплатили вектору в марте", "Платежей АО «Вектор» за 01.03.2026 – 31.03.2026 нет: проведённых списаний ему не было. Поступило от него — ", "Банковские операции"},
		{"сколько вектор заплатил нам в марте", "Поступило от АО «Вектор» за 01.03.2026 – 31.03.2026: ", "Платежей"},
		{"сколько получили от вектора в марте", "Поступило от АО «Вектор» за 01.03.2026 – 31.03.2026: ", ""},
		{"платежи вектора за март", "Банковские операции АО «Вектор» за 01.03.2026 – 31.03.2026: поступило ", ""},
		// none either way: said of payments, never «Документов … не найдено»
		{"сколько заплатили альфа поставке в марте", "Платежей по ООО «Альфа Поставка» за 01.03.2026 – 31.03.2026 в 1С нет", "Документов"},
	} {
		ans := ask(t, a, Request{UserID: int64(850 + i), ChatID: int64(850 + i)}, c.q)
		text := strings.ReplaceAll(ans.Text, "**", "")
		if !strings.Contains(text, c.want) || c.not != "" && strings.Contains(text, c.not) {
			t.Errorf("%q:\n%s\nwant %q, not %q", c.q, ans.Text, c.want, c.not)
		}
	}
}

// TestPaymentsNarrowedByAnUnreadWord: payments narrowed by a purpose («за аренду») or a payee
// 1C does not know («грузэкспрессу») are never answered with the whole of 51's payments; the
// reply says what it can do, and its button — the period's payments — is answered. The
// period's own words and a side the statement knows («поставщикам», «зарплаты») narrow as
// before.
func TestPaymentsNarrowedByAnUnreadWord(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	for i, c := range []struct{ q, want string }{
		{"сколько заплатили за аренду в марте", "Отобрать платежи «за аренду» по выписке 1С не могу"},
		{"сколько заплатили за тко в ноябре", "Отобрать платежи «за тко»"},
		{"сколько перечислили грузэкспрессу в ноябре", "По слову «грузэкспрессу» платежи по выписке 1С не отобрать"},
		// what was paid, written before the verb and its period
		{"коммуналку за август оплатили?", "По слову «коммуналку»"},
		{"аренду в марте перечислили", "По слову «аренду»"},
	} {
		me := Request{UserID: 840 + int64(i), ChatID: 840 + int64(i)}
		ans := ask(t, a, me, c.q)
		if ans.Debug.Route.Rule != "payment_scope" || !strings.Contains(ans.Text, c.want) || strings.Contains(ans.Text, "Списано со счёта 51") {
			t.Errorf("%q: %s/%s\n%s", c.q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
			continue
		}
		if len(ans.Buttons) != 1 || !strings.HasPrefix(ans.Buttons[0].Text, "Все списания за ") {
			t.Errorf("%q: buttons %+v", c.q, ans.Buttons)
			continue
		}
		if got := ask(t, a, me, ans.Buttons[0].Text); got.Debug.Route.Rule != "bank_statement" || !strings.Contains(got.Text, "Списано со счёта 51") {
			t.Errorf("button %q: %s/%s\n%s", ans.Buttons[0].Text, got.Debug.Route.Kind, got.Debug.Route.Rule, got.Text)
		}
	}
	for i, q := range []string{"сколько заплатили за прошлый месяц", "сколько всего заплатили в марте", "сколько заплатили поставщикам в марте",
		"сколько перечислили зарплаты в марте", "списания за 1 квартал", "уже оплатили за март?", "налоги за март заплатили?",
		"поставщикам за март оплатили?"} {
		if got := ask(t, a, Request{UserID: 850 + int64(i), ChatID: 850 + int64(i)}, q); got.Debug.Route.Rule != "bank_statement" {
			t.Errorf("%q: %s/%s\n%s", q, got.Debug.Route.Kind, got.Debug.Route.Rule, got.Text)
		}
	}
}

// A contract number three counterparties share is asked back — whose? — naming them, and each
// button (its question with the name) answers for that counterparty's contract.
func TestSharedContractNumber(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 830, ChatID: 830}
	ans := ask(t, a, me, "долг по договору ДП-68/2024")
	if !strings.Contains(ans.Text, "Договор № ДП-68/2024 есть у нескольких контрагентов") || len(ans.Buttons) != 3 {
		t.Fatalf("answer:\n%s\nbuttons %+v", ans.Text, ans.Buttons)
	}
	for _, name := range []string{"Энергия", "Техснаб", "КанцТорг"} {
		if !strings.Contains(ans.Text, name) {
			t.Errorf("the question back does not name %s:\n%s", name, ans.Text)
		}
	}
	got := ask(t, a, me, ans.Buttons[1].Text) // what the button sends
	if got.Debug.Route.Kind != understand.KindLedger || !strings.Contains(got.Text, "Техснаб") || !strings.Contains(got.Text, "ДП-68/2024") {
		t.Errorf("after the button: %s/%s\n%s", got.Debug.Route.Kind, got.Debug.Route.Rule, got.Text)
	}
}

// A contract named by its bare number («по договору 178») is the one whose number it is; a
// number no contract has is said so — never answered as if the message had not named it — with
// the counterparty's contracts to pick, and that number is no account («по договору 41»).
func TestContractByBareOrUnknownNumber(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 850, ChatID: 850}
	cases := []struct {
		q, rule string
		want    []string
	}{
		{"сколько нам должны по договору 178", "open_items_by_contract", []string{"по договору поставки № 178/2024", "ООО «Альфа»"}},
		{"сколько мы должны по договору 41", "open_items_by_contract", []string{"№ 41/2024", "сч. 60, 62"}},
		{"задолженность по договору 999/2024", "unknown_contract", []string{"Договора № 999/2024 в справочнике 1С не нашёл"}},
		{"долг альфы по договору 555", "unknown_contract", []string{"Договора № 555 в справочнике 1С не нашёл", "Договоры ООО «Альфа»: Договор поставки № П-77/2024"}},
	}
	for _, c := range cases {
		got := ask(t, a, me, c.q)
		if got.Debug.Route.Rule != c.rule {
			t.Errorf("%q: rule %s/%s, want %s\n%s", c.q, got.Debug.Route.Kind, got.Debug.Route.Rule, c.rule, got.Text)
		}
		for _, w := range c.want {
			if !strings.Contains(got.Text, w) {
				t.Errorf("%q: answer lacks %q:\n%s", c.q, w, got.Text)
			}
		}
	}
	got := ask(t, a, me, "долг альфы по договору 555")
	if len(got.Buttons) == 0 || !strings.Contains(got.Buttons[0].Text, "П-77/2024") {
		t.Fatalf("buttons %+v", got.Buttons)
	}
	if b := ask(t, a, me, got.Buttons[0].Text); b.Debug.Route.Rule != "open_items_by_contract" {
		t.Errorf("the button %q: %s\n%s", got.Buttons[0].Text, b.Debug.Route.Rule, b.Text)
	}
}

// A command leaves the dialog what the typed question would: «а поставщикам?» and «а на 1
// апреля?» after /debts continue it.
func TestCommandLeavesDialogState(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 840, ChatID: 840}
	cmd := me
	cmd.Command, cmd.Text = "debts", "31.03"
	if _, err := a.Answer(t.Context(), cmd); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ q, want string }{
		{"а поставщикам?", "на 31.03.2026 — 12 контрагентам"},
		{"а на 1 апреля?", "на 01.04.2026 — 12 контрагентам"},
	} {
		if ans := ask(t, a, me, tt.q); !strings.Contains(ans.Text, tt.want) {
			t.Errorf("%q after /debts 31.03: %s/%s\n%s", tt.q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
		}
	}
}

// «Кто нам должен больше миллиона» lists only those debts, says how many of the whole list
// they are, and a threshold nobody reaches is said so with the largest debt.
func TestDebtsAboveAThreshold(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 870, ChatID: 870}
	all := ask(t, a, me, "кто нам должен")
	got := ask(t, a, me, "кто нам должен больше миллиона")
	if !strings.HasPrefix(nbspToSpace(got.Text), "Нам должны от 1 000 000,00 ₽ — ") || !strings.Contains(got.Text, "весь список — 18 контрагентов") {
		t.Fatalf("answer:\n%s", got.Text)
	}
	for _, line := range strings.Split(got.Text, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 2 || !strings.Contains(cells[1], ",") {
			continue
		}
		if k, ok := kopecksOf(cells[1]); ok && k < 100_000_000 {
			t.Errorf("a row under a million: %q", line)
		}
	}
	if strings.Count(all.Text, "\n|") <= strings.Count(got.Text, "\n|") && !strings.Contains(all.Text, "ещё 13") {
		t.Errorf("the whole list:\n%s", all.Text)
	}
	none := ask(t, a, me, "кто должен больше 100 млн")
	if !strings.HasPrefix(nbspToSpace(none.Text), "Долгов от 100 000 000,00 ₽ нет: самый крупный — ООО «СтройМаркет»") {
		t.Errorf("nobody above the threshold:\n%s", none.Text)
	}
}

// boldFigure is the first amount in bold of an answer («**4 105 745,02 ₽**»), in kopecks.
func boldFigure(t *testing.T, s string) int64 {
	t.Helper()
	i := strings.Index(s, "**")
	j := strings.Index(s[i+2:], "**")
	if i < 0 || j < 0 {
		t.Fatalf("no figure in bold in %q", s)
	}
	k, ok := kopecksOf(strings.TrimSuffix(s[i+2:i+2+j], "\u00a0₽"))
	if !ok {
		t.Fatalf("no amount in bold in %q", s)
	}
	return k
}

// kopecksOf reads «4 105 745,02» as kopecks.
func kopecksOf(s string) (int64, bool) {
	s = strings.NewReplacer(" ", "", "\u00a0", "", ",", "").Replace(strings.TrimSpace(s))
	var k int64
	if _, err := fmt.Sscan(s, &k); err != nil {
		return 0, false
	}
	return k, true
}

// A debt question that also names VAT is the company's debt, not a rules topic (the catalogs
// are read for a rules topic too: «вектор» is a company); asked without VAT, the answer says
// right under the figure that 1C keeps settlements with VAT.
func TestDebtWithVATWords(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 880, ChatID: 880}
	for _, q := range []string{"сколько нам должен вектор с ндс", "долг вектора без ндс"} {
		got := ask(t, a, me, q)
		if got.Debug.Route.Rule != "open_items_by_counterparty" || !strings.Contains(got.Text, "АО «Вектор»") {
			t.Errorf("%q: %s/%s\n%s", q, got.Debug.Route.Kind, got.Debug.Route.Rule, got.Text)
		}
		net := strings.Contains(got.Text, "_Суммы с НДС: расчёты с контрагентами в 1С ведутся с НДС")
		if net != strings.Contains(q, "без ндс") {
			t.Errorf("%q: the VAT note %v:\n%s", q, net, got.Text)
		}
	}
	if kb := ask(t, a, me, "что такое ндс"); kb.Debug.Route.Kind != understand.KindKB {
		t.Errorf("«что такое ндс»: %s/%s", kb.Debug.Route.Kind, kb.Debug.Route.Rule)
	}
}

// A debt asked in a foreign currency is answered in roubles, saying so right under the figure,
// with the Bank of Russia's rate a button away.
func TestDebtInACurrency(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 890, ChatID: 890}
	got := ask(t, a, me, "долг гранита в долларах")
	if !strings.Contains(got.Text, "ООО «Гранит»") || !strings.Contains(got.Text, "_Суммы в рублях: ответы из 1С даются в рублях") {
		t.Fatalf("answer:\n%s", got.Text)
	}
	i := slices.IndexFunc(got.Buttons, func(b api.Button) bool { return b.Text == "курс USD на сегодня" })
	if i < 0 {
		t.Fatalf("no rate button: %+v", got.Buttons)
	}
	if rate := ask(t, a, me, got.Buttons[i].Text); rate.Debug.Route.Kind != understand.KindRate {
		t.Errorf("the button: %s/%s\n%s", rate.Debug.Route.Kind, rate.Debug.Route.Rule, rate.Text)
	}
}

// A snapshot asked on two days («долг альфы на 1 марта и на 1 апреля», «сравни дебиторку на 1
// января и 1 марта») is two runs of the same recipe: the change opens the answer, each day's line
// follows, then the later day's answer whole — no LLM, and the second day is never dropped.
func TestSnapshotOnTwoDays(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 900, ChatID: 900}
	first := ask(t, a, me, "долг альфы на 1 марта")
	second := ask(t, a, me, "долг альфы на 1 апреля")
	both := ask(t, a, me, "долг альфы на 1 марта и на 1 апреля")
	head := func(s string) string { h, _, _ := strings.Cut(s, " [1]"); return h }
	if !strings.HasPrefix(both.Text, "Изменение с 01.03.2026 по 01.04.2026: **+") ||
		!strings.Contains(both.Text, "- "+head(first.Text)+"\n- "+head(second.Text)) {
		t.Fatalf("two days:\n%s\nfirst:\n%s\nsecond:\n%s", both.Text, first.Text, second.Text)
	}
	cmp := ask(t, a, me, "сравни дебиторку на 1 января и 1 марта")
	if !strings.HasPrefix(cmp.Text, "Изменение с 01.01.2026 по 01.03.2026:") || strings.Contains(cmp.Text, "языковая модель") {
		t.Errorf("a comparison of two days:\n%s", cmp.Text)
	}
}

// «Дебиторка по обеим организациям» answers each organization — its own line, cited — and
// their sum; a button asks each one's answer whole. «обеим» is no company's name.
func TestEveryOrganization(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 910, ChatID: 910}
	got := ask(t, a, me, "дебиторка по обеим организациям на 31.03")
	if got.Debug.Route.Kind != understand.KindLedger || len(got.Buttons) != 2 || len(got.Sources) != 2 {
		t.Fatalf("%s/%s buttons %+v sources %+v\n%s", got.Debug.Route.Kind, got.Debug.Route.Rule, got.Buttons, got.Sources, got.Text)
	}
	var sum int64
	for i, org := range []string{"Северный ветер Трейд", "Северный ветер"} {
		one := ask(t, a, me, got.Buttons[i].Text) // «… по организации ООО «…»»: our organization, not the counterparty of its name
		if !strings.Contains(got.Buttons[i].Text, "по организации ООО «"+org+"»") {
			t.Errorf("button %d: %q", i, got.Buttons[i].Text)
		}
		head, _, _ := strings.Cut(one.Text, " [1]")
		if !strings.Contains(got.Text, "**ООО «"+org+"»**: "+head) {
			t.Errorf("no line of %s (%q):\n%s", org, head, got.Text)
		}
		sum += boldFigure(t, head)
	}
	want := fmt.Sprintf("Всего по 2 организациям на 31.03.2026: **%s**.", ru.Money(sum))
	if !strings.HasPrefix(got.Text, want) {
		t.Errorf("want %q first:\n%s", want, got.Text)
	}
}

// A question naming several companies in full («альфе поставке и промпоставке») answers each —
// its own line, cited — and, for debts, their sum; «… или …» still asks which one.
func TestSeveralParties(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 930, ChatID: 930}
	got := ask(t, a, me, "сколько мы должны альфе поставке и промпоставке на 1 марта")
	if len(got.Sources) != 2 || len(got.Buttons) != 2 {
		t.Fatalf("sources %v buttons %+v\n%s", got.Sources, got.Buttons, got.Text)
	}
	var sum int64
	for i, name := range []string{"ООО «Альфа Поставка»", "ООО «ПромПоставка»"} {
		one := ask(t, a, me, got.Buttons[i].Text)
		head, _, _ := strings.Cut(one.Text, " [1]")
		if !strings.Contains(one.Text, name) || !strings.Contains(got.Text, "- "+head+" ["+fmt.Sprint(i+1)+"]") {
			t.Errorf("%s: button %q answers\n%s\nnot a line of\n%s", name, got.Buttons[i].Text, one.Text, got.Text)
		}
		sum += boldFigure(t, head)
	}
	if want := "2 контрагента на 01.03.2026: вместе мы должны им **" + ru.Money(sum) + "**."; !strings.HasPrefix(got.Text, want) {
		t.Errorf("want %q first:\n%s", want, got.Text)
	}
	if or := ask(t, a, Request{UserID: 931, ChatID: 931}, "долг вектора или вектор плюс"); or.Debug.Route.Rule != "ambiguous_counterparty" {
		t.Errorf("«или» asks which: %s\n%s", or.Debug.Route.Rule, or.Text)
	}
}

// «Долг альфы кроме договора 178/2024» is the company's settlements less that contract's — two
// runs and their difference, each said — never that contract alone (it had been answered so).
func TestDebtExceptAContract(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 950, ChatID: 950}
	all := ask(t, a, me, "долг альфы")
	one := ask(t, a, me, "долг по договору 178/2024")
	got := ask(t, a, me, "долг альфы кроме договора 178/2024")
	want := "Без договора № 178/2024: ООО «Альфа» должен нам **" + ru.Money(boldFigure(t, all.Text)-boldFigure(t, one.Text)) + "**"
	if !strings.HasPrefix(got.Text, want) {
		t.Errorf("want %q first:\n%s", want, got.Text)
	}
}

// «Когда передают ключи от склада» with no documents: «склад» is a word of ООО «Склад-Сервис»,
// but nothing of 1C's is asked — the company is offered with buttons, its debt is not stated as
// the answer; «долг склада» still is the company's debt.
func TestPartOfANameIsNoQuestionOfDebt(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	got := ask(t, a, Request{UserID: 960, ChatID: 960}, "когда передают ключи от склада")
	if got.Debug.Route.Rule != "part_of_name" || strings.Contains(got.Text, "₽") ||
		!strings.HasPrefix(got.Text, "В 1С есть контрагент ООО «Склад-Сервис»") || len(got.Buttons) < 2 {
		t.Fatalf("%s/%s buttons %+v\n%s", got.Debug.Route.Kind, got.Debug.Route.Rule, got.Buttons, got.Text)
	}
	if b := ask(t, a, Request{UserID: 960, ChatID: 960}, got.Buttons[0].Text); b.Debug.Route.Rule != "open_items_by_counterparty" {
		t.Errorf("the button %q: %s\n%s", got.Buttons[0].Text, b.Debug.Route.Rule, b.Text)
	}
	if d := ask(t, a, Request{UserID: 961, ChatID: 961}, "долг склада"); d.Debug.Route.Rule != "open_items_by_counterparty" {
		t.Errorf("«долг склада»: %s", d.Debug.Route.Rule)
	}
}
