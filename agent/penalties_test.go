package agent

import (
	"strings"
	"testing"
)

// TestPenaltyOfOwnFigures: a penalty asked with the user's own amount and days is computed by
// the contract that charges it — the payer's penalty for paying late when the user is the one
// late, every contract's when the question names none — and figures no computation takes are
// said not to be computed, never answered with a clause's own figure.
func TestPenaltyOfOwnFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads two document sets")
	}
	sets := map[string]*Agent{
		docsetDir:  docsetAgent(t, "", docsetFilesIn(t, docsetDir), 27000),
		docset3Dir: docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000),
	}
	users := map[string]int64{docsetDir: 27000, docset3Dir: 40000}
	for _, tt := range []struct {
		dir, q string
		want   []string
		not    []string
	}{
		// The services contract's penalty on an unpaid sum (5.1), from its monthly fee (3.1) — not
		// the contractor's fine for slow responses (5.2), which shares the question's «абонентской».
		{docsetDir, "пени если просрочим абонентку на 15 дней",
			[]string{"97 600,00 ₽ × 0,02 % × 15 дн. = **292,80 ₽**", "п. 5.1"}, []string{"п. 5.2:"}},
		// No contract named: each that charges a daily penalty on an unpaid sum, the sublease in
		// the wording its supplementary agreement set (0,05 %, not 0,1 %), the agreement itself
		// not as a contract of its own.
		{docset3Dir, "задолжали 240 000 на 12 дней сколько пени",
			[]string{"уточните", "**ДОГОВОР № СА-14/26**: Пени: 240 000,00 ₽ × 0,05 % × 12 дн. = **1 440,00 ₽**",
				"ТЭ-305/26**: Пени: 240 000,00 ₽ × 0,1 % × 12 дн. = **2 880,00 ₽**",
				"SL-2026/118**: Пени: 240 000,00 ₽ × 0,05 % × 12 дн. = **1 440,00 ₽**",
				"АГ-09/2026**: Пени: 240 000,00 ₽ × 0,03 % × 12 дн. = **864,00 ₽**"},
			[]string{"**ДС2 субаренда скан**: Пени"}},
		// Penalties compared: each contract's daily rate of late payment, highest first, the
		// sublease's as its supplementary agreement set it, and which is highest.
		{docset3Dir, "в каком договоре самые высокие пени",
			[]string{"от высоких к низким", "ТЭ-305/26**: 0,1 % в день, не более 10 % (п. 5.5)",
				"СА-14/26**: 0,05 % в день, не более 10 % (п. 8.1 в новой редакции)", "АГ-09/2026**: 0,03 % в день (п. 7.1)",
				"Выше всего — по «ДОГОВОР ТРАНСПОРТНОЙ ЭКСПЕДИЦИИ № ТЭ-305/26»: в 2 раза выше"}, []string{"ДС2 субаренда скан**: 0"}},
		// …and the lowest, as a follow-up; the loan's penalty on an overdue sum is one of them.
		{docsetDir, "где у нас самые высокие пени за просрочку оплаты",
			[]string{"от высоких к низким", "А-07/26**: 0,1 % в день (п. 7.1)", "03/ВГЗ-26**: 0,03 % в день (п. 6.1)"}, nil},
		// Caps: one contract's, yes or no with its other penalty clauses; every contract's, capped
		// and not, each penalty with what it is for.
		{docsetDir, "пени по займу ограничены максимумом?",
			[]string{"Нет, предел пеней не установлен:", "за просрочку возврата суммы займа (её части) и/или уплаты процентов: 0,03 % в день, без предела (п. 6.1)",
				"6.2. Пени начисляются до дня фактического исполнения"}, []string{"318-П"}},
		{docsetDir, "в каких договорах пени ограничены максимумом",
			[]string{"Пени ограничены максимумом:", "318-П** — за нарушение сроков оплаты товара: 0,05 % в день, не более 5 % (п. 7.1)",
				"Без предела:", "А-07/26** — за просрочку передачи помещения: 0,1 % в день, без предела (п. 7.2)"}, nil},
		// An amount and days with no contract and no kind of delay: each contract's late-payment
		// penalty, not the best-scoring one's alone; a delivery's delay is the supply contract's.
		{docsetDir, "пени 100 тыс на 10 дней сколько",
			[]string{"по каждому договору", "А-07/26**: Пени: 100 000,00 ₽ × 0,1 % × 10 дн. = **1 000,00 ₽**", "47/У**: Пени: 100 000,00 ₽ × 0,02 % × 10 дн. = **200,00 ₽**"}, nil},
		{docsetDir, "просрочка поставки 100 тыс на 10 дней пени",
			[]string{"Пени: 100 000,00 ₽ × 0,2 % × 10 дн. = **2 000,00 ₽** (расчёт по п. 7.2)."}, []string{"по каждому договору"}},
		// Figures of the user's own that no computation takes: said so, then the clauses.
		{docset3Dir, "грузчики 2 чел на 2 часа почем",
			[]string{"Посчитать это по вашим цифрам не берусь", "650,00"}, nil},
	} {
		a := sets[tt.dir]
		ans := ask(t, a, Request{UserID: users[tt.dir], ChatID: users[tt.dir] + 500}, tt.q)
		text := strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(ans.Text) // money's narrow spaces
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%q: no %q in\n%s", tt.q, w, ans.Text)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(text, n) {
				t.Errorf("%q: %q in\n%s", tt.q, n, ans.Text)
			}
		}
	}
}

// TestRenewedEnd: a contract renewed automatically, whose last day to object has passed, is
// said to run on to the end its renewal clause sets («на следующий календарный год»).
func TestRenewedEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads a document set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	ans := ask(t, a, Request{UserID: 40000, ChatID: 40500}, "какие договоры у нас заканчиваются в этом году")
	for _, w := range []string{"ТЭ-305/26", "продлевается на следующий год", "не позднее 01.12.2026",
		"этот срок уже прошёл: если отказ не заявляли, договор продлится на 2027 год — до 31.12.2027"} {
		if !strings.Contains(ans.Text, w) {
			t.Errorf("no %q in\n%s", w, ans.Text)
		}
	}
}

// TestLowestPenaltyFollowUp: «а самые низкие» after «где самые высокие пени» lists the same
// rates from the lowest.
func TestLowestPenaltyFollowUp(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads a document set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docsetDir), 27000)
	req := Request{UserID: 27000, ChatID: 27700}
	ask(t, a, req, "где у нас самые высокие пени за просрочку оплаты")
	ans := ask(t, a, req, "а самые низкие")
	for _, w := range []string{"от низких к высоким", "Ниже всего — по «ДОГОВОР № 47/У»"} {
		if !strings.Contains(ans.Text, w) {
			t.Errorf("no %q in\n%s", w, ans.Text)
		}
	}
	if i, j := strings.Index(ans.Text, "47/У**: 0,02"), strings.Index(ans.Text, "А-07/26**: 0,1"); i < 0 || j < 0 || i > j {
		t.Errorf("not from the lowest:\n%s", ans.Text)
	}
}
