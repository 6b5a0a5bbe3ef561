package passages

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/library"
)

func TestShareFor(t *testing.T) {
	agency := library.ClauseDoc{ID: "agency", Units: []library.Unit{
		{Index: 0, Number: "4.1", Text: "4.1. Вознаграждение Агента составляет 6 % (шесть процентов) от суммы денежных средств, поступивших от покупателей."},
		{Index: 1, Number: "4.2", Text: "4.2. Если такие поступления за отчётный месяц превышают 5 000 000,00 (пять миллионов) рублей 00 копеек, вознаграждение составляет 7 % (семь процентов) от всей суммы поступлений."},
		{Index: 2, Number: "4.5", Text: "4.5. На вознаграждение сверх него начисляется НДС по ставке 22 %."},
		{Index: 3, Number: "7.1", Text: "7.1. За просрочку Принципал уплачивает пени 0,03 % от невыплаченной суммы за каждый день, но не более 10 % от невыплаченной суммы."},
	}}
	cargo := library.ClauseDoc{ID: "cargo", Units: []library.Unit{
		{Index: 0, Number: "3.6", Text: "3.6. Страховая премия составляет 0,12 % от объявленной стоимости груза, но не менее 500,00 рублей за одну перевозку, и возмещается Клиентом без НДС."},
	}}
	cds := []library.ClauseDoc{agency, cargo}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	hit := func(doc, unit int, named bool) library.ClauseHit {
		return library.ClauseHit{Doc: doc, Unit: cds[doc].Units[unit], Score: 1, Named: named}
	}
	for _, tt := range []struct {
		name string
		q    Question
		hits []library.ClauseHit
		want string // "" = nothing computed
	}{
		{"below the threshold, VAT on top", Question{Text: "пришло 3 840 000 — сколько агенту"}, []library.ClauseHit{hit(0, 0, true)},
			"3 840 000,00 ₽ × 6 % = 230 400,00 ₽ + НДС 22 % 50 688,00 ₽ (п. 4.5) = **281 088,00 ₽**"},
		{"past the threshold", Question{Text: "а если было бы 5,2 млн", Continues: "сколько агенту", Prefer: []string{"agency"}}, []library.ClauseHit{hit(0, 1, true)},
			"5 200 000,00 ₽ × 7 % = 364 000,00 ₽ + НДС 22 % 80 080,00 ₽ (п. 4.5) = **444 080,00 ₽** (расчёт по п. 4.2)"},
		{"exactly the threshold is not past it", Question{Text: "а ровно 5 млн", Continues: "сколько агенту", Prefer: []string{"agency"}}, []library.ClauseHit{hit(0, 3, false)},
			"5 000 000,00 ₽ × 6 %"},
		{"the minimum", Question{Text: "страховка груза на 200 тыс сколько будет"}, []library.ClauseHit{hit(1, 0, false)},
			"200 000,00 ₽ × 0,12 % = 240,00 ₽, но не менее 500,00 ₽ = **500,00 ₽**, без НДС"},
		{"a penalty's cap is no fee", Question{Text: "а если 300 тыс", Continues: "сколько пени за 10 дней на 100 тыс", Prefer: []string{"agency"}}, []library.ClauseHit{hit(0, 3, true)}, ""},
		{"no sum named", Question{Text: "сколько получит агент"}, []library.ClauseHit{hit(0, 0, true)}, ""},
		{"a share of something else", Question{Text: "аренда офиса на 2 млн сколько будет"}, []library.ClauseHit{hit(1, 0, false)}, ""},
	} {
		got, _ := shareFor(tt.q, tt.hits, cds, place)
		got = strings.NewReplacer("\\", "", "\u00a0", " ", "\u202f", " ").Replace(got)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestMonthsOfPaymentFor(t *testing.T) {
	monthly := func(int) (int64, string, string, bool) {
		return 9_760_000, "п. 3.1", "3.1. Абонентская плата за Услуги составляет 97 600,00 рублей в месяц.", true
	}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	for _, tt := range []struct {
		q, clause, want string
	}{
		{"на какую сумму максимум отвечает исполнитель", "5.3. Совокупная ответственность Исполнителя ограничена суммой абонентской платы за 3 (три) месяца.",
			"3 × 97 600,00 ₽ (платёж в месяц, п. 3.1) = **292 800,00 ₽** (расчёт по п. 5.3)."},
		{"какой обеспечительный платёж", "6.1. Обеспечительный платёж вносится в размере месячной абонентской платы.",
			"1 × 97 600,00 ₽ (платёж в месяц, п. 3.1) = **97 600,00 ₽** (расчёт по п. 6.1)."},
		// a clause that states its own sum, and one counted in another payment, compute nothing
		{"какой обеспечительный платёж", "6.1. Обеспечительный платёж — 195 200,00 рублей (абонентская плата за 2 месяца).", ""},
		{"сколько неустойка максимум", "7.1. Неустойка не более арендной платы за 2 месяца.", ""},
		{"кто отвечает за сбои", "5.3. Ответственность ограничена суммой абонентской платы за 3 месяца.", ""},
	} {
		h := library.ClauseHit{Unit: library.Unit{Number: strings.SplitN(tt.clause, ". ", 2)[0], Text: tt.clause}}
		got := strings.NewReplacer("\\", "", "\u00a0", " ", "\u202f", " ").Replace(monthsOfPaymentFor(Question{Text: tt.q}, []library.ClauseHit{h}, place, monthly))
		if got != tt.want {
			t.Errorf("%q over %q: %q, want %q", tt.q, tt.clause, got, tt.want)
		}
	}
}

func TestIncreaseCap(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"4.1. Арендодатель вправе в одностороннем порядке увеличить размер постоянной части арендной платы не чаще одного раза в 12 (двенадцать) месяцев и не более чем на 6 (шесть) процентов от действующего размера.", "6"},
		{"5.1. Ставки, указанные в п. 4.1, индексируются с 01 января 2027 г. на индекс потребительских цен за 2026 год по данным Росстата, но не более чем на 8 (восемь) процентов.", "8"},
		{"3.3. Стоимость продления определяется по прайс-листу, но не может превышать действующую стоимость более чем на 10 %.", "10"},
		{"7.1. Пени 0,1 % в день, но не более 10 % от суммы задолженности.", ""},
	} {
		got := ""
		if m := increaseCap.FindStringSubmatch(c.text); m != nil {
			got = m[2]
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

// A share set by tiers of the sum under the clause that says what it is a share of: the tier
// the sum falls in, the contract's additional fee added, VAT on top.
func TestTieredShare(t *testing.T) {
	lead := "4.1. Вознаграждение Комиссионера определяется в процентах от выручки — стоимости Товара, реализованного за календарный месяц:"
	commission := library.ClauseDoc{ID: "commission", Units: []library.Unit{
		{Index: 0, Number: "4.1", Text: lead},
		{Index: 1, Number: "4.1.1", Lead: lead, Text: "4.1.1. при выручке за месяц до 2 500 000,00 (двух миллионов пятисот тысяч) рублей включительно — 6 (шесть) процентов;"},
		{Index: 2, Number: "4.1.2", Lead: lead, Text: "4.1.2. при выручке за месяц свыше 2 500 000,00 рублей — 7 (семь) процентов от всей суммы выручки за месяц."},
		{Index: 3, Number: "4.2", Text: "4.2. За ручательство (делькредере) Комиссионеру выплачивается дополнительное вознаграждение в размере 1,5 (одной целой пяти десятых) процента от выручки."},
		{Index: 4, Number: "4.3", Text: "4.3. Вознаграждение указано без НДС. НДС по ставке 22 % начисляется на сумму вознаграждения сверх неё."},
	}}
	cds := []library.ClauseDoc{commission}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	for _, tt := range []struct {
		q    string
		unit int
		want string
	}{
		{"продали на 2 830 400, комиссионные сколько", 2, "2 830 400,00 ₽ × (7 % (п. 4.1.2) + 1,5 % (п. 4.2)) = 240 584,00 ₽ + НДС 22 % 52 928,48 ₽ (п. 4.3) = **293 512,48 ₽**"},
		{"выручка 2,4 млн сколько комиссионеру", 0, "2 400 000,00 ₽ × (6 % (п. 4.1.1) + 1,5 % (п. 4.2)) = 180 000,00 ₽ + НДС 22 % 39 600,00 ₽ (п. 4.3) = **219 600,00 ₽**"},
		{"выручка ровно 2,5 млн сколько комиссионеру", 1, "2 500 000,00 ₽ × (6 % (п. 4.1.1)"},
	} {
		got, _ := shareFor(Question{Text: tt.q}, []library.ClauseHit{{Doc: 0, Unit: commission.Units[tt.unit], Score: 1, Named: true}}, cds, place)
		got = strings.NewReplacer("\\", "", "\u00a0", " ", "\u202f", " ").Replace(got)
		if !strings.Contains(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.q, got, tt.want)
		}
	}
}
