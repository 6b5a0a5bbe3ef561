package agent

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/ru"
)

// laneActs is the real adapter (ledger.Acts) over the default demo ledger, open to everyone.
func laneActs(t *testing.T) reconcile.OurActs {
	t.Helper()
	return ledger.NewActs(demoLane(t), ledger.Options{LedgerAccess: everyone})
}

// TestUploadedActsAgainstTheLane: each fixture act of ООО «Альфа» uploaded through the agent is
// compared with our act the lane builds from the demo ledger (the act recipe, both templates):
// every planted difference is said with its amounts, the balances' gap adds up, the identical act
// has none; the footnote of our side is the lane's source.
func TestUploadedActsAgainstTheLane(t *testing.T) {
	a := actsAgent(t, laneActs(t), true)
	const ourSource = "1С: Акт сверки, ООО «Северный ветер», демо-база (встроенная)"
	for _, tt := range []struct {
		file  string
		wants []string
	}{
		{"alfa_bp.pdf", []string{
			"Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: 4 расхождения",
			"**Нет у них**: Реализация (акт, накладная) № 50 от 18.03.2026 — 461 036,40 ₽ по дебету.",
			"**Нет у нас**: Оплата (25.03.2026 № 633) аванс по счёту 112 — 50 000,00 ₽ по кредиту.",
			"**Другая сумма**: Реализация (акт, накладная) № 14 от 19.01.2026 — у нас 414 417,35 ₽ по дебету, у них 414 471,35 ₽ по дебету — разница −54,00 ₽.",
			"**Другая дата**: Оплата № 3 от 16.01.2026, 566 682,67 ₽ — у них 15.01.2026; на сальдо не влияет.",
			"Разница сальдо (у нас минус у них) +510 982,40 ₽", "— сходится.",
			"Документов сопоставлено: 8 из 9 наших и 9 их."}},
		{"alfa_handmade.xlsx", []string{
			"Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: 3 расхождения",
			"**Сальдо начальное**: у нас 1 930 644,06 ₽ в нашу пользу, у них 1 903 644,06 ₽ в нашу пользу — разница +27 000,00 ₽.",
			"**Нет у них**: Оплата № 21 от 09.03.2026 — 118 251,11 ₽ по кредиту.",
			"**Другая сумма**: Реализация (акт, накладная) № 28 от 09.02.2026 — у нас 685 570,14 ₽ по дебету, у них 685 750,14 ₽ по дебету — разница −180,00 ₽.",
			"Разница сальдо (у нас минус у них) −91 431,11 ₽", "— сходится."}},
		{"alfa_monthly.xlsx", []string{
			"Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: 2 расхождения",
			"**Февраль 2026**: у нас дебет 685 570,14 ₽, кредит 714 465,33 ₽, у них дебет 685 570,14 ₽, кредит 590 140,13 ₽ — разница −124 325,20 ₽.",
			"**Март 2026**: у нас дебет 461 036,40 ₽, кредит 118 251,11 ₽, у них дебет 416 036,40 ₽, кредит 118 251,11 ₽ — разница +45 000,00 ₽.",
			"Разница сальдо (у нас минус у них) −79 325,20 ₽", "— сходится."}},
		{"alfa_identical.pdf", []string{
			"Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: расхождений нет",
			"Сальдо на начало — 1 930 644,06 ₽ в нашу пользу, на конец — 3 076 579,33 ₽ в нашу пользу по обоим актам; все документы совпали: 9 из 9 наших и 9 их."}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile("reconcile/testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			rc := upload(t, a, Request{UserID: 7, ChatID: 7}, tt.file, data)
			text := strings.ReplaceAll(rc.Text, "\u00a0", " ")
			for _, want := range tt.wants {
				if !strings.Contains(text, want) {
					t.Errorf("the receipt lacks %q:\n%s", want, text)
				}
			}
			if tt.file == "alfa_identical.pdf" && strings.Contains(text, "**Нет у") {
				t.Errorf("differences in the identical act:\n%s", text)
			}
			if len(rc.Sources) != 2 || rc.Sources[1].Title != ourSource {
				t.Errorf("sources %+v, want [2] %q", rc.Sources, ourSource)
			}
			if rc.Document == nil || !strings.HasPrefix(rc.Document.Name, "Сверка с ООО «Альфа»") {
				t.Errorf("the comparison's workbook: %+v", rc.Document)
			}
		})
	}
}

// TestOwnActUploadedBack: the act the lane renders (its PDF, as «акт сверки» sends it) uploaded
// back is ours with their half blank: refused as not filled in by the counterparty, not compared.
func TestOwnActUploadedBack(t *testing.T) {
	acts := laneActs(t)
	d := func(m time.Month, day int) time.Time { return time.Date(2026, m, day, 0, 0, 0, 0, ru.Moscow) }
	ours, err := acts.Act(t.Context(), reconcile.ActQuery{UserID: 8, ChatID: 8, Counterparty: reconcile.Party{INN: "9366414049"}, From: d(1, 1), To: d(3, 31)})
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := ours.PDF()
	if err != nil {
		t.Fatal(err)
	}
	a := actsAgent(t, acts, true)
	rc := upload(t, a, Request{UserID: 8, ChatID: 8}, "our_act.pdf", pdf)
	if !strings.Contains(rc.Text, "акт сверки, но сверить его не получится") || !strings.Contains(rc.Text, "не заполнена половина «По данным ООО «Альфа»»") ||
		strings.Contains(rc.Text, "расхожден") || rc.Document != nil {
		t.Errorf("our own act uploaded back:\n%s", rc.Text)
	}
}

// TestLaneActsRefusals: what our act cannot be built for is said, not failed: a counterparty 1C
// lacks, a contract it lacks, an asker without access to 1C.
func TestLaneActsRefusals(t *testing.T) {
	d := func(m time.Month, day int) time.Time { return time.Date(2026, m, day, 0, 0, 0, 0, ru.Moscow) }
	q := reconcile.ActQuery{UserID: 9, ChatID: 9, From: d(1, 1), To: d(3, 31)}
	for _, tt := range []struct {
		acts reconcile.OurActs
		set  func(*reconcile.ActQuery)
		want string
	}{
		{laneActs(t), func(q *reconcile.ActQuery) {
			q.Counterparty = reconcile.Party{Name: "ООО «Несуществующая»"}
		}, "В 1С нет контрагента"},
		{laneActs(t), func(q *reconcile.ActQuery) {
			q.Counterparty, q.Contract = reconcile.Party{Name: "ООО «Альфа»"}, "№ 999-НЕТ от 01.01.2020"
		}, "нет договора «№ 999-НЕТ от 01.01.2020»"},
		{ledger.NewActs(demoLane(t), ledger.Options{}), func(q *reconcile.ActQuery) { q.Counterparty = reconcile.Party{Name: "ООО «Альфа»"} }, ledger.DeniedText},
	} {
		q := q
		tt.set(&q)
		_, err := tt.acts.Act(t.Context(), q)
		refusal, ok := err.(*reconcile.Refusal)
		if !ok || !strings.Contains(refusal.Text, tt.want) {
			t.Errorf("%+v: %v, want a refusal with %q", q, err, tt.want)
		}
	}
}
