package agent

import (
	"strings"
	"testing"
)

// TestRegularTermBeforeOneMonths: «когда платим постоянку» is answered by the monthly term in
// the wording its supplementary agreement set, not by the clause on the first month's payment
// nor by the deposit's offset against January's.
func TestRegularTermBeforeOneMonths(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads a document set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	ans := ask(t, a, Request{UserID: 40000, ChatID: 40600}, "когда платим постоянку по складу")
	first := strings.SplitN(ans.Text, "\n", 2)[0]
	if !strings.Contains(first, "п. 4.3") || !strings.Contains(ans.Text, "не позднее 25 (двадцать пятого) числа месяца, предшествующего оплачиваемому") {
		t.Errorf("not the monthly term, in its new wording:\n%s", ans.Text)
	}
	if strings.Contains(ans.Text, "4.4. Постоянная часть за март") {
		t.Errorf("the first month's payment quoted:\n%s", ans.Text)
	}
}

// TestMonthlyWithFee: «сколько в месяц … вместе с тко» adds the monthly payment, in the wording
// its supplementary agreement set, and the fee the question names with it.
func TestMonthlyWithFee(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads a document set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	ans := ask(t, a, Request{UserID: 40000, ChatID: 40700}, "сколько в месяц отдаем складлогистик за склад вместе с тко")
	text := strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(ans.Text)
	want := "В месяц: 600 118,00 ₽ (п. 4.2 в редакции «ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2 от 14.09.2026») + 6 100,00 ₽ (п. 4.8) = **606 218,00 ₽**."
	if !strings.Contains(text, want) {
		t.Errorf("no %q in\n%s", want, text)
	}
}

// TestOurSigners: «кто подписывал договоры с нашей стороны» names, document by document, who
// signed for the user's company — a supplementary agreement signed by proxy with its power of
// attorney; one document named, that one only.
func TestOurSigners(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads a document set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	for i, tt := range []struct {
		q    string
		want []string
		not  []string
	}{
		{"кто подписывал договоры с нашей стороны", []string{"Со стороны ООО «Альтаир Трейд» документы подписаны:",
			"**ДОГОВОР № СА-14/26** — в лице генерального директора Воронцовой Марины Алексеевны",
			"**АГЕНТСКИЙ ДОГОВОР № АГ-09/2026** — в лице генерального директора Воронцовой Марины Алексеевны",
			"(ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2)** — в лице коммерческого директора Лаптева Дениса Николаевича, по доверенности № 27 от 12.01.2026"},
			[]string{"ВекторТранс"}},
		{"кто от нас подписал договор экспедиции", []string{"документ подписан:", "ТЭ-305/26** — в лице генерального директора Воронцовой"},
			[]string{"СА-14/26"}},
	} {
		ans := ask(t, a, Request{UserID: 40000, ChatID: int64(40800 + i)}, tt.q)
		for _, w := range tt.want {
			if !strings.Contains(ans.Text, w) {
				t.Errorf("%q: no %q in\n%s", tt.q, w, ans.Text)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(ans.Text, n) {
				t.Errorf("%q: %q in\n%s", tt.q, n, ans.Text)
			}
		}
	}
}

// TestDeadlineThroughAnotherEvent: a payment due 10 working days after a report is approved,
// asked with the day the report arrives, is counted through the clause that sets approval's
// own term (5 working days after receipt) — not from the arrival, nor by a clause on sending
// originals that is no payment's.
func TestDeadlineThroughAnotherEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads a document set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	for i, tt := range []struct{ q, want, not string }{
		{"отчет за ноябрь придет 07.12, утвердим в последний день — крайний срок оплаты агенту",
			"Срок: до **28.12.2026** включительно (утверждение — не позднее 14.12.2026 (5 рабочих дн. с 07.12.2026, п. 5.3); затем 10 рабочих дн. с 14.12.2026 (п. 4.6)", "21.12.2026"},
		{"отчет утвердили 10.12 — до какого числа платить агенту", "Срок: до **24.12.2026** включительно (10 рабочих дн. с 10.12.2026", "утверждение —"},
	} {
		ans := ask(t, a, Request{UserID: 40000, ChatID: int64(40900 + i)}, tt.q)
		if !strings.Contains(ans.Text, tt.want) || strings.Contains(ans.Text, tt.not) {
			t.Errorf("%q: want %q, not %q, in\n%s", tt.q, tt.want, tt.not, ans.Text)
		}
	}
}

// TestPenaltyForAMonthPaidLate: a month's payment paid on the day the question names is late by
// the days after the month's term (as amended), and the penalty is computed from the monthly
// payment (as amended) at the daily rate (as amended); paid in time, there is none — and a
// penalty question is never read as a bank statement.
func TestPenaltyForAMonthPaidLate(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads a document set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	for i, tt := range []struct{ q, want string }{
		{"заплатили аренду склада за декабрь 04.12, пени скольо будет",
			"Пени: 600 118,00 ₽ × 0,05 % × 9 дн. (с 26.11.2026 по 04.12.2026; срок был 25.11.2026 по п. 4.3) = **2 700,53 ₽**"},
		{"заплатили постоянку за декабрь 20.11, пени будут?", "Пени нет: оплата 20.11.2026 — в срок (срок был 25.11.2026 по п. 4.3)."},
	} {
		ans := ask(t, a, Request{UserID: 40000, ChatID: int64(41000 + i)}, tt.q)
		if i == 0 {
			// …and the most they may come to: the clause's cap on the same month's payment
			ans := ask(t, a, Request{UserID: 40000, ChatID: int64(41000 + i)}, "а максимум сколько могут насчитать по этому платежу")
			want := "Не более 10 % от задолженности: 600 118,00 ₽ по п. 4.2 × 10 % = **60 011,80 ₽** (предел — п. 8.1)."
			if text := strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(ans.Text); !strings.Contains(text, want) {
				t.Errorf("the cap: no %q in\n%s", want, text)
			}
		}
		text := strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(ans.Text)
		if !strings.Contains(text, tt.want) {
			t.Errorf("%q: no %q in\n%s", tt.q, tt.want, text)
		}
	}
}

// TestNextPayment: «когда следующий платёж» dates the main monthly payment's next term from
// today — as amended, moved off a weekend — with its amount, in the document the question names.
func TestNextPayment(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads two document sets")
	}
	three := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	one := docsetAgent(t, "", docsetFilesIn(t, docsetDir), 27000)
	for i, tt := range []struct {
		a       *Agent
		user    int64
		q, want string
	}{
		{three, 40000, "когда следующий платеж по субаренде", "Следующий платёж — не позднее **25.12.2026** (за январь 2027; п. 4.3; сумма — 600 118,00 ₽ по п. 4.2)."},
		{three, 40000, "когда след платеж по складу", "Следующий платёж — не позднее **25.12.2026** (за январь 2027; п. 4.3; сумма — 600 118,00 ₽ по п. 4.2)."},
		{one, 27000, "ближайший платеж по ит договору когда", "Следующий платёж — не позднее **10.12.2026** (за декабрь 2026; п. 3.2; сумма — 97 600,00 ₽ по п. 3.1)."},
		// 05.12.2026 is a Saturday: the term moves to Monday (art. 193); the fixed rent, not the variable part
		{one, 27000, "когда следующий платеж по аренде офиса", "Следующий платёж — не позднее **07.12.2026** (за декабрь 2026; п. 3.5; сумма — 185 760,00 ₽ по п. 3.2)."},
	} {
		ans := ask(t, tt.a, Request{UserID: tt.user, ChatID: tt.user + int64(1100+i)}, tt.q)
		text := strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(ans.Text)
		if !strings.Contains(text, tt.want) {
			t.Errorf("%q: no %q in\n%s", tt.q, tt.want, text)
		}
	}
}

// TestMostAfterIncrease: «а максимум какая тогда будет плата в месяц» after a question on the
// rent's increase: the monthly payment grown by the most the contract allows.
func TestMostAfterIncrease(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads two document sets")
	}
	one := docsetAgent(t, "", docsetFilesIn(t, docsetDir), 27000)
	req := Request{UserID: 27000, ChatID: 27900}
	ask(t, one, req, "индексация аренды на сколько")
	ans := ask(t, one, req, "а максимум какая тогда будет плата в месяц")
	want := "Самое большее: 185 760,00 ₽ × (1 + 6 %) = **196 905,60 ₽** (рост не более 6 % — п. 4.1; сумма сейчас — п. 3.2)."
	if text := strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(ans.Text); !strings.Contains(text, want) {
		t.Errorf("no %q in\n%s", want, text)
	}
	three := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), 40000)
	ans = ask(t, three, Request{UserID: 40000, ChatID: 41200}, "какая максимальная аренда склада в 2027")
	want = "Самое большее: 600 118,00 ₽ × (1 + 8 %) = **648 127,44 ₽** (рост не более 8 % — п. 5.1; сумма сейчас — п. 4.2)."
	if text := strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(ans.Text); !strings.Contains(text, want) {
		t.Errorf("no %q in\n%s", want, text)
	}
}
