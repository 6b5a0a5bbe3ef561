package agent

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// fixedActs is our act with ООО «Альфа» for the first quarter of 2026 as the demo ledger holds it
// (reconcile's tests compute it from the raw data); asked counts the acts built.
type fixedActs struct{ asked []reconcile.ActQuery }

func (f *fixedActs) Act(_ context.Context, q reconcile.ActQuery) (reconcile.Act, error) {
	f.asked = append(f.asked, q)
	d := func(m time.Month, day int) time.Time { return time.Date(2026, m, day, 0, 0, 0, 0, ru.Moscow) }
	sale, pay := "Реализация (акт, накладная)", "Поступление на расчётный счёт"
	a := reconcile.Act{Ours: reconcile.Party{Name: "ООО «Северный ветер»", INN: "1031699119"},
		Theirs: reconcile.Party{Name: "ООО «Альфа»", INN: "9366414049"}, From: q.From, To: q.To, Opening: 193064406,
		Lines: []reconcile.Line{
			{Date: d(1, 5), Kind: sale, Number: "7", Debit: 39417036},
			{Date: d(1, 16), Kind: pay, Number: "3", Credit: 56668267},
			{Date: d(1, 19), Kind: sale, Number: "14", Debit: 41441735},
			{Date: d(1, 23), Kind: sale, Number: "20", Debit: 59014013},
			{Date: d(2, 6), Kind: pay, Number: "28", Credit: 12432520},
			{Date: d(2, 9), Kind: sale, Number: "28", Debit: 68557014},
			{Date: d(2, 9), Kind: pay, Number: "31", Credit: 59014013},
			{Date: d(3, 9), Kind: pay, Number: "21", Credit: 11825111},
			{Date: d(3, 18), Kind: sale, Number: "50", Debit: 46103640},
		}}
	dt, ct := a.Turnovers()
	a.Closing = a.Opening + dt - ct
	return a, nil
}

func actsAgent(t *testing.T, acts reconcile.OurActs, access bool) *Agent {
	t.Helper()
	return New(Deps{History: history.NewMemory(100, history.Limits{}), Ledger: demoLane(t), Acts: acts,
		Library: library.New(docstore.NewMemory(), nil, library.Options{})},
		Options{LedgerAccess: func(int64, int64) bool { return access }})
}

// TestUploadedActCompared: a counterparty's act uploaded without a caption is compared with ours
// in the receipt, the matched table sent with it; with a caption it is kept, and «сверь» — the
// caption, or a reply to the receipt — compares it.
func TestUploadedActCompared(t *testing.T) {
	pdf, err := os.ReadFile("reconcile/testdata/alfa_bp.pdf")
	if err != nil {
		t.Fatal(err)
	}
	acts := &fixedActs{}
	a := actsAgent(t, acts, true)
	me := Request{UserID: 5, ChatID: 5}

	rc := upload(t, a, me, "alfa_bp.pdf", pdf)
	text := unescape(rc.Text)
	if !strings.HasPrefix(text, "📄 Загрузил") || !strings.Contains(text, "Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: 4 расхождения** [1][2]") ||
		!strings.Contains(text, "**Нет у нас**: Оплата (25.03.2026 № 633) аванс по счёту 112 — 50\u00a0000,00\u00a0₽ по кредиту") {
		t.Errorf("receipt:\n%s", text)
	}
	if rc.Document == nil || !strings.HasPrefix(rc.Document.Name, "Сверка с ООО «Альфа»") || len(rc.Sources) != 2 || rc.Receipt == "" {
		t.Errorf("document %v, sources %+v, receipt %q", rc.Document, rc.Sources, rc.Receipt)
	}
	if len(acts.asked) != 1 || acts.asked[0].Organization.INN != "1031699119" || acts.asked[0].Counterparty.Name != "ООО «Альфа»" {
		t.Fatalf("our acts asked %+v", acts.asked)
	}

	// With a caption: the receipt is only the receipt; the caption «сверь» compares.
	ans, err := a.Upload(t.Context(), me, File{Name: "again.pdf", Size: int64(len(pdf)), Data: append([]byte(nil), pdf...), Captioned: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ans.Text, "Сверка") || len(acts.asked) != 1 {
		t.Errorf("captioned upload compared: %s", ans.Text)
	}
	req := me
	req.OnlyDoc = rc.Receipt
	if got := ask(t, a, req, "сверь"); !strings.Contains(got.Text, "4 расхождения") || got.Kind != "reconcile" || got.Document == nil {
		t.Errorf("caption «сверь»: kind %s\n%s", got.Kind, got.Text)
	}

	// A reply «сверь» to the receipt.
	if err := a.RememberReceipt(t.Context(), me, 901, rc.Receipt); err != nil {
		t.Fatal(err)
	}
	req = me
	req.ReplyTo = 901
	if got := ask(t, a, req, "сверь с 1С"); !strings.Contains(got.Text, "Разница сальдо (у нас минус у них) +510\u00a0982,40\u00a0₽") {
		t.Errorf("reply «сверь»: %s", got.Text)
	}
	if len(acts.asked) != 3 {
		t.Errorf("our acts asked %d times, want 3", len(acts.asked))
	}
}

// TestUploadedActWithout1C: without access to 1C the act is a document like any other.
func TestUploadedActWithout1C(t *testing.T) {
	pdf, err := os.ReadFile("reconcile/testdata/alfa_bp.pdf")
	if err != nil {
		t.Fatal(err)
	}
	acts := &fixedActs{}
	a := actsAgent(t, acts, false)
	rc := upload(t, a, Request{UserID: 6, ChatID: 6}, "alfa_bp.pdf", pdf)
	if strings.Contains(rc.Text, "Сверка") || rc.Document != nil || len(acts.asked) != 0 {
		t.Errorf("receipt without 1C access:\n%s", rc.Text)
	}
}
