package reconcile

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// actOf returns a fixed act, or a refusal, whatever is asked; it keeps the query.
type actOf struct {
	act   Act
	err   error
	asked []ActQuery
}

func (a *actOf) Act(_ context.Context, q ActQuery) (Act, error) {
	a.asked = append(a.asked, q)
	return a.act, a.err
}

func pday(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }

// TestMatchPrimary: the seller known or not, the document posted or not, paid, partly or not —
// first in, first out over our act with the seller.
func TestMatchPrimary(t *testing.T) {
	them := Party{Name: "ООО «Бумага и Ко»", INN: "2196164974"}
	purchase := func(m time.Month, d int, n string, k onec.Kopecks) Line {
		return Line{Date: pday(m, d), Kind: KindPurchase, Number: n, Credit: k}
	}
	pay := func(m time.Month, d int, k onec.Kopecks) Line {
		return Line{Date: pday(m, d), Kind: KindPayment, Number: "п", Debit: k}
	}
	doc := Primary{UserID: 1, ChatID: 1, Seller: Party{Name: "ООО «Бумага и Ко» (misread)", INN: "2196164974"}, Number: "28", Date: pday(3, 2),
		Total: 100_00, HasTotal: true}
	tests := []struct {
		name string
		act  Act
		err  error
		want []string
	}{
		{"paid", Act{Theirs: them, Opening: -50_00, Lines: []Line{purchase(3, 2, "СВ-28", 100_00), pay(3, 20, 150_00)}},
			nil, []string{"✓ Контрагент в 1С: ООО «Бумага и Ко» (ИНН 2196164974)", "✓ Проведён: поступление № СВ-28 от 02.03.2026 на 100,00 ₽", "✓ Оплачен"}},
		{"partly", Act{Theirs: them, Opening: -50_00, Closing: -70_00, Lines: []Line{purchase(3, 2, "28", 100_00), pay(3, 20, 80_00)}},
			nil, []string{"✓ Проведён", "✗ Оплачен частично: 30,00 ₽ из 100,00 ₽, остаток 70,00 ₽"}},
		{"unpaid", Act{Theirs: them, Closing: -100_00, Lines: []Line{purchase(3, 4, "31", 100_00)}},
			nil, []string{"✓ Проведён: поступление № 31 от 04.03.2026", "✗ Не оплачен: долг перед ООО «Бумага и Ко» на 30.04.2026 — 100,00 ₽"}},
		{"the number decides between two", Act{Theirs: them, Closing: -200_00, Lines: []Line{purchase(3, 3, "27", 100_00), purchase(3, 3, "28", 100_00)}},
			nil, []string{"✓ Проведён: поступление № 28 от 03.03.2026"}},
		{"not posted", Act{Theirs: them, Lines: []Line{purchase(3, 2, "28", 99_00)}},
			nil, []string{"✗ Поступления на 100,00 ₽ около 02.03.2026 в 1С нет — документ не проведён", "✓ Долга перед ООО «Бумага и Ко» на 30.04.2026 нет"}},
		{"posted too far", Act{Theirs: them, Closing: -100_00, Lines: []Line{purchase(4, 2, "28", 100_00)}},
			nil, []string{"✗ Поступления на 100,00 ₽ около 02.03.2026 в 1С нет", "✗ Долг перед ООО «Бумага и Ко» на 30.04.2026: 100,00 ₽"}},
		{"unknown", Act{}, &Refusal{Text: "В 1С нет контрагента с ИНН 2196164974."},
			[]string{"✗ Продавца ООО «Бумага и Ко» (misread) (ИНН 2196164974) в 1С нет — новый контрагент?"}},
	}
	for _, tt := range tests {
		acts := &actOf{act: tt.act, err: tt.err}
		m, err := MatchPrimary(t.Context(), acts, doc, pday(4, 30))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var b strings.Builder
		for _, p := range m.Points {
			if p.OK {
				b.WriteString("✓ ")
			} else {
				b.WriteString("✗ ")
			}
			b.WriteString(strings.ReplaceAll(p.Text, "\u00a0", " ") + "\n")
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", tt.name, w, b.String())
			}
		}
		if q := acts.asked[0]; q.Counterparty.INN != "2196164974" || q.Counterparty.Name != "" || !q.From.Equal(pday(2, 2)) || !q.To.Equal(pday(4, 30)) {
			t.Errorf("%s: asked %+v (by ИНН only, from a month before the document)", tt.name, q)
		}
	}
	// Another refusal (no access) is the caller's to say.
	if _, err := MatchPrimary(t.Context(), &actOf{err: &Refusal{Text: "Нет доступа к 1С."}}, doc, pday(4, 30)); err == nil {
		t.Error("no access: no error")
	}
}
