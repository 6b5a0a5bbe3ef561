package reconcile_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

func TestPrintNumber(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"СВ00-000015", "15"},    // the organization's and the base's prefix
		{"00-000102", "102"},     // the base's prefix alone
		{"СВ00-000100", "100"},   // zeros inside the number stay
		{"Р000123", "Р123"},      // a user's prefix stays, its zeros go
		{"Р123", "Р123"},         // the realistic base's numbers
		{"  СТ00-000001 ", "1"},  // spaces around
		{"126/2024", "126/2024"}, // no standard prefix, no leading zeros
		{"СВ-12", "12"},          // BP's prefix of two characters, the base's
		{"А-12-3", "А-12-3"},     // a dash elsewhere is no prefix
		{"", ""},
	} {
		if got := reconcile.PrintNumber(tt.in); got != tt.want {
			t.Errorf("PrintNumber(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// doc is a registrar of the given type.
func doc(typ, uuid string) onec.Ref {
	return onec.Ref{UUID: uuid, Type: onec.TypeDocumentPrefix + typ}
}

func TestBuild(t *testing.T) {
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }
	h := reconcile.Heading{Ours: reconcile.Party{Name: "ООО «Северный ветер»", INN: "1031699119", KPP: "776601001"},
		Theirs: reconcile.Party{Name: "ООО «Универсал»", INN: "5214649585", KPP: "786701001"}, From: day(1, 1), To: day(3, 31)}
	rows := []onec.ReconciliationRow{
		{Registrar: doc("РеализацияТоваровУслуг", "1"), Date: day(1, 5).Add(9 * time.Hour), Number: "СВ00-000007", Account: "62.01", Debit: 100_00},
		{Registrar: doc("ПоступлениеНаРасчетныйСчет", "2"), Date: day(1, 16), Number: "СВ00-000003", Account: "62.02", Credit: 50_00},
		{Registrar: doc("ПоступлениеТоваровУслуг", "3"), Date: day(2, 1), Number: "СВ00-000010", Account: "60.01", Credit: 70_00},
		{Registrar: doc("СписаниеСРасчетногоСчета", "4"), Date: day(2, 3), Number: "СВ00-000011", Account: "60.02", Debit: 70_00},
		{Registrar: doc("СписаниеСРасчетногоСчета", "5"), Date: day(2, 4), Number: "СВ00-000012", Account: "62.02", Debit: 5_00},
		{Registrar: doc("ПоступлениеНаРасчетныйСчет", "6"), Date: day(2, 5), Number: "СВ00-000013", Account: "60.01", Credit: 1_00},
		{Registrar: doc("КорректировкаПоступления", "7"), Date: day(2, 6), Number: "Р77", Account: "60.01", Credit: -3_00},
		{Registrar: doc("ВводНачальныхОстатков", "8"), Date: day(3, 1), Number: "СВ00-000001", Account: "62.01", Debit: 2_00},
		{Registrar: doc("ОперацияБух", "9"), Date: day(3, 2), Number: "", Account: "76.05", Debit: 1_00},
	}
	// Loans (BP's ПредставлениеХозяйственнойОперации): by the account and the side, whatever
	// the registrar; they net to zero so the sums below stand.
	loans := []onec.ReconciliationRow{
		{Registrar: doc("ПоступлениеНаРасчетныйСчет", "l1"), Date: day(3, 3), Number: "Р1", Account: "66.03", Credit: 40_00},
		{Registrar: doc("ОперацияБух", "l2"), Date: day(3, 4), Number: "Р2", Account: "66.04", Credit: 1_00},
		{Registrar: doc("СписаниеСРасчетногоСчета", "l3"), Date: day(3, 5), Number: "Р3", Account: "67.03", Debit: 11_00},
		{Registrar: doc("СписаниеСРасчетногоСчета", "l4"), Date: day(3, 6), Number: "Р4", Account: "58.03", Debit: 20_00},
		{Registrar: doc("ПоступлениеНаРасчетныйСчет", "l5"), Date: day(3, 7), Number: "Р5", Account: "58.03", Credit: 10_00},
	}
	loanKinds := []string{reconcile.KindLoan, reconcile.KindLoan, reconcile.KindLoanReturn, reconcile.KindLoan, reconcile.KindLoanReturn}
	for i, l := range reconcile.Build(h, onec.CardTotalsRow{}, loans).Lines {
		if l.Kind != loanKinds[i] {
			t.Errorf("%s on %s: %q, want %q", loans[i].Registrar.Kind(), loans[i].Account, l.Kind, loanKinds[i])
		}
	}
	got := reconcile.Build(h, onec.CardTotalsRow{Opening: 10_00, Debit: 999, Credit: 999, Closing: 69_00}, rows)
	msk := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, ru.Moscow) }
	want := reconcile.Act{Ours: h.Ours, Theirs: h.Theirs, From: msk(1, 1), To: msk(3, 31), Opening: 10_00, Closing: 69_00,
		Lines: []reconcile.Line{
			{Date: msk(1, 5), Kind: reconcile.KindSale, Number: "7", Debit: 100_00},
			{Date: msk(1, 16), Kind: reconcile.KindPayment, Number: "3", Credit: 50_00},
			{Date: msk(2, 1), Kind: reconcile.KindPurchase, Number: "10", Credit: 70_00},
			{Date: msk(2, 3), Kind: reconcile.KindPayment, Number: "11", Debit: 70_00},
			{Date: msk(2, 4), Kind: reconcile.KindRefund, Number: "12", Debit: 5_00},
			{Date: msk(2, 5), Kind: reconcile.KindRefund, Number: "13", Credit: 1_00},
			{Date: msk(2, 6), Kind: reconcile.KindBuyCorrection, Number: "Р77", Credit: -3_00},
			{Date: msk(3, 1), Kind: reconcile.KindOpening, Number: "1", Debit: 2_00},
			{Date: msk(3, 2), Kind: reconcile.KindOperation, Number: "", Debit: 1_00},
		}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Build (-want +got):\n%s", diff)
	}
	d, c := got.Turnovers()
	if d != 178_00 || c != 118_00 {
		t.Errorf("Turnovers = %s, %s; want 178,00 and 118,00", d, c)
	}
	if !got.Balanced() { // 10 + 178 − 118 = 70, but 1C said 69
		t.Log("as expected")
	} else {
		t.Error("Balanced with a closing 1,00 short of the lines")
	}
	got.Closing = 70_00
	if !got.Balanced() {
		t.Error("not Balanced with the closing the lines give")
	}
}

func TestVerdict(t *testing.T) {
	ours := reconcile.Party{Name: "ООО «Северный ветер»", INN: "1031699119", KPP: "776601001"}
	theirs := reconcile.Party{Name: "ИП Смирнов Алексей Петрович", INN: "441706417669"}
	to := time.Date(2026, 3, 31, 0, 0, 0, 0, ru.Moscow)
	for _, tt := range []struct {
		closing onec.Kopecks
		want    string
	}{
		{307657933, "По данным ООО «Северный ветер» на 31.03.2026 задолженность в пользу ООО «Северный ветер» составляет 3\u00a0076\u00a0579,33 руб."},
		{-120000, "По данным ООО «Северный ветер» на 31.03.2026 задолженность в пользу ИП Смирнов Алексей Петрович составляет 1\u00a0200,00 руб."},
		{0, "По данным ООО «Северный ветер» на 31.03.2026 взаимная задолженность отсутствует."},
	} {
		a := reconcile.Act{Ours: ours, Theirs: theirs, To: to, Closing: tt.closing}
		if got := a.Verdict(); got != tt.want {
			t.Errorf("Verdict(%s) = %q, want %q", tt.closing, got, tt.want)
		}
	}
	if got, want := (reconcile.Act{Ours: ours, Theirs: theirs}).Between(),
		"между ООО «Северный ветер» (ИНН 1031699119, КПП 776601001) и ИП Смирнов Алексей Петрович (ИНН 441706417669)"; got != want {
		t.Errorf("Between = %q, want %q", got, want)
	}
}
