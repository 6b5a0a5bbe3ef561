package runner

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

func kop(t *testing.T, s string) onec.Kopecks {
	t.Helper()
	k, err := onec.ParseKopecks(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Amounts whose float64 sum is not exact add up to the kopeck, per type, with unposted ones
// counted apart.
func TestTypeSubtotalsAreExact(t *testing.T) {
	in, out, sale := "ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета", "РеализацияТоваровУслуг"
	rows := []Row{
		{Type: sale, Amount: kop(t, "0.10"), Posted: ptr(true)},
		{Type: in, Amount: kop(t, "0.10"), Posted: ptr(true)},
		{Type: in, Amount: kop(t, "0.20"), Posted: ptr(true)},
		{Type: in, Amount: kop(t, "9007199254740.99"), Posted: ptr(true)}, // beyond float64's exact integers in kopecks
		{Type: out, Amount: kop(t, "500.05"), Posted: ptr(false)},
		{Type: out, Amount: kop(t, "1.01"), Posted: ptr(true)},
		{Type: sale, Amount: kop(t, "0.20"), Posted: ptr(true)},
	}
	got := typeSubtotals(rows)
	want := []Subtotal{
		{Key: in, Rows: 3, Amount: kop(t, "9007199254741.29")},
		{Key: out, Rows: 1, Amount: kop(t, "1.01"), Unposted: 1, UnpostedAmount: kop(t, "500.05")},
		{Key: sale, Rows: 2, Amount: kop(t, "0.30")},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("typeSubtotals mismatch (-want +got):\n%s", diff)
	}
}

func TestBankOpsTotal(t *testing.T) {
	in, out := "ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета"
	tests := []struct {
		name string
		all  int
		subs []Subtotal
		want []string
		not  []string
	}{
		{"incoming only", 7, []Subtotal{{Key: in, Rows: 7, Amount: kop(t, "4625926.24")}},
			[]string{"**Поступило от контрагента: 7 проведённых операций на 4\u00a0625\u00a0926,24\u00a0₽.**"},
			[]string{"списано"}},
		{"outgoing only", 2, []Subtotal{{Key: out, Rows: 2, Amount: kop(t, "387271.05")}},
			[]string{"**Списано контрагенту: 2 проведённые операции на 387\u00a0271,05\u00a0₽.**"},
			[]string{"оступило"}},
		{"both directions", 4, []Subtotal{{Key: in, Rows: 1, Amount: kop(t, "0.01")}, {Key: out, Rows: 3, Amount: kop(t, "100")}},
			[]string{"**Поступило от контрагента: 1 проведённая операция на 0,01\u00a0₽; списано контрагенту: 3 на 100,00\u00a0₽.**"},
			nil},
		{"unposted left out", 3, []Subtotal{{Key: in, Rows: 2, Amount: kop(t, "10"), Unposted: 1, UnpostedAmount: kop(t, "5")}},
			[]string{"Проведено: 2, не проведено: 1.", "на 10,00\u00a0₽", "Не проведены и в суммы не вошли: поступления — 1 на 5,00\u00a0₽."},
			[]string{"15,00"}},
		{"nothing posted", 1, []Subtotal{{Key: out, Unposted: 1, UnpostedAmount: kop(t, "5")}},
			[]string{"Проведённых операций нет.", "списания — 1 на 5,00\u00a0₽"},
			[]string{"Списано контрагенту"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bankOpsTotal(tt.all, tt.subs)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("bankOpsTotal() = %q, want it to contain %q", got, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("bankOpsTotal() = %q, must not contain %q", got, n)
				}
			}
		})
	}
}

func TestDocumentsTotal(t *testing.T) {
	sale, in := "РеализацияТоваровУслуг", "ПоступлениеНаРасчетныйСчет"
	tests := []struct {
		name string
		all  int
		subs []Subtotal
		want string
	}{
		{"one type", 2, []Subtotal{{Key: sale, Rows: 2, Amount: kop(t, "0.30")}},
			"**Всего: 2 документа.**\nСумма проведённых: **0,30\u00a0₽**."},
		{"per type, no sum of sales and payments", 5, []Subtotal{{Key: in, Rows: 2, Amount: kop(t, "1")}, {Key: sale, Rows: 3, Amount: kop(t, "2.50")}},
			"**Всего: 5 документов.**\nСумма проведённых по видам — Поступление на расчётный счёт: 2 на **1,00\u00a0₽**; Реализация товаров и услуг: 3 на **2,50\u00a0₽**."},
		{"unposted type named by count only", 3, []Subtotal{{Key: in, Rows: 2, Amount: kop(t, "1")}, {Key: sale, Unposted: 1, UnpostedAmount: kop(t, "7")}},
			"**Всего: 3 документа.** Проведено: 2, не проведено: 1.\nСумма проведённых по видам — Поступление на расчётный счёт: 2 на **1,00\u00a0₽**."},
		{"nothing posted", 1, []Subtotal{{Key: "АктСверкиВзаиморасчетов", Unposted: 1}},
			"**Всего: 1 документ.** Проведено: 0, не проведено: 1.\nПроведённых среди них нет, поэтому суммы нет."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := documentsTotal(tt.all, tt.subs); got != tt.want {
				t.Errorf("documentsTotal() = %q, want %q", got, tt.want)
			}
		})
	}
}

// A saldo is said with who owes whom: the sign alone means nothing to a reader.
func TestSaldoMeaning(t *testing.T) {
	tests := []struct {
		account, saldo, want string
	}{
		{"62", "2030506.93", "нам должны 2\u00a0030\u00a0506,93\u00a0₽"},
		{"62", "-35544.24", "аванс получен 35\u00a0544,24\u00a0₽"},
		{"62.02", "-1", "аванс получен 1,00\u00a0₽"},
		{"60", "-582629.54", "мы должны 582\u00a0629,54\u00a0₽"},
		{"60", "63389.76", "аванс выдан 63\u00a0389,76\u00a0₽"},
		{"60.02", "0.01", "аванс выдан 0,01\u00a0₽"},
		{"76", "5", "дебетовое сальдо 5,00\u00a0₽"},
		{"76.05", "-5", "кредитовое сальдо 5,00\u00a0₽"},
		{"62", "0", "сальдо 0,00\u00a0₽"},
	}
	for _, tt := range tests {
		if got := saldoMeaning(tt.account, kop(t, tt.saldo)); got != tt.want {
			t.Errorf("saldoMeaning(%s, %s) = %q, want %q", tt.account, tt.saldo, got, tt.want)
		}
	}
}

func TestOpenItemsTotalPerAccount(t *testing.T) {
	rows := []Row{
		{Account: "62", Amount: kop(t, "190280.90")},
		{Account: "60", Amount: kop(t, "-732937.53")},
		{Account: "62", Amount: kop(t, "-0.01")},
		{Account: "60", Amount: kop(t, "63389.76")},
	}
	subs := accountSubtotals(rows, map[string]string{"60": "Расчеты с поставщиками и подрядчиками"})
	want := []Subtotal{
		{Key: "60", Name: "Расчеты с поставщиками и подрядчиками", Rows: 2, Amount: kop(t, "-669547.77")},
		{Key: "62", Rows: 2, Amount: kop(t, "190280.89")},
	}
	if diff := cmp.Diff(want, subs); diff != "" {
		t.Fatalf("accountSubtotals mismatch (-want +got):\n%s", diff)
	}
}

// A company that is both our customer and our supplier: its debt on 62 and ours on 60 are
// stated apart, each equal to the saldo the README defines, never netted into one figure.
func TestOpenItemsOfCustomerAndSupplier(t *testing.T) {
	lane, _ := newTestLane(t)
	tests := []struct {
		date string
		want []string
	}{
		{"2026-04-25", []string{"нам должны **2\u00a0030\u00a0506,93\u00a0₽** (сч. 62)",
			"мы должны **1\u00a0267\u00a0034,81\u00a0₽** (сч. 60)"}},
		{"2025-12-31", []string{"мы должны **582\u00a0629,54\u00a0₽** (сч. 60)",
			"нам должны **398\u00a0343,08\u00a0₽** (сч. 62)"}},
	}
	for _, tt := range tests {
		res := lane.Run(t.Context(), ask(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: tt.date, Counterparty: "Универсал", Status: "open"}))
		got := res.Markdown()
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: answer lacks %q:\n%s", tt.date, w, got)
			}
		}
		if strings.Contains(got, "Итого открыто") {
			t.Errorf("%s: 60 and 62 netted into one figure:\n%s", tt.date, got)
		}
		if !strings.Contains(got, "| Счёт 60: документ |") || !strings.Contains(got, "| Счёт 62: документ |") {
			t.Errorf("%s: rows of two accounts do not say whose they are:\n%s", tt.date, got)
		}
	}
}

// Per-account open items add up to the counterparty's saldo on that account, for every
// counterparty and several dates, by an independent computation over the movements.
func TestOpenItemsPerAccountMatchTheSaldo(t *testing.T) {
	lane, _ := newTestLane(t)
	_, l := demo(t)
	org := l.DefaultOrganization().Ref
	both := 0 // counterparties with open items on 60 and 62 at once: the case that matters
	for _, date := range []string{"2025-06-30", "2025-12-31", "2026-04-25"} {
		asOf, _ := time.ParseInLocation(time.DateOnly, date, ru.Moscow)
		saldo := map[string]map[string]onec.Kopecks{"60": oracle(l, org, "60", asOf), "62": oracle(l, org, "62", asOf)}
		for _, cp := range l.Counterparties {
			if cp.DeletionMark {
				continue
			}
			res := lane.Run(t.Context(), ask(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: date, Counterparty: cp.INN, INN: cp.INN, Status: "open"}))
			got := map[string]onec.Kopecks{}
			for _, s := range res.Summary.Subtotals {
				got[s.Key] = s.Amount
			}
			want := map[string]onec.Kopecks{}
			for acc, by := range saldo {
				if v := by[cp.Ref]; v != 0 {
					want[acc] = v
				}
			}
			for acc, v := range got { // an account whose open items net to zero is still listed
				if v == 0 && want[acc] == 0 {
					delete(got, acc)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s %s: per-account open items (-saldo +got):\n%s", cp.Name, date, diff)
			}
			if len(want) == 2 {
				both++
			}
		}
	}
	if both == 0 {
		t.Error("no counterparty had open items on both 60 and 62: the test proved nothing")
	}
	t.Logf("%d answers with open items on both 60 and 62", both)
}

// The totals of a bank-operations list cover every operation of the period, not only the rows
// shown under the limit.
func TestBankOpsTotalsCoverRowsNotShown(t *testing.T) {
	lane, _ := newTestLane(t)
	_, l := demo(t)
	res := lane.Run(t.Context(), ask(recipe.BankOpsByParty, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31", Counterparty: "Универсал", Limit: 3}))
	if len(res.Rows) != 3 || res.Summary.Rows <= 3 {
		t.Fatalf("rows shown %d of %d, want 3 of more", len(res.Rows), res.Summary.Rows)
	}
	var party string
	for _, c := range l.Counterparties {
		if c.Name == "ООО «Универсал»" {
			party = c.Ref
		}
	}
	org := l.DefaultOrganization().Ref
	want := map[string]Subtotal{}
	for _, d := range l.Documents {
		y := d.Date.Year()
		if d.CounterpartyRef != party || d.OrganizationRef != org || d.DeletionMark || y != 2025 ||
			(d.Type != "ПоступлениеНаРасчетныйСчет" && d.Type != "СписаниеСРасчетногоСчета") {
			continue
		}
		s := want[d.Type]
		s.Key = d.Type
		if d.Posted {
			s.Rows++
			s.Amount += d.Amount
		} else {
			s.Unposted++
			s.UnpostedAmount += d.Amount
		}
		want[d.Type] = s
	}
	got := map[string]Subtotal{}
	for _, s := range res.Summary.Subtotals {
		got[s.Key] = s
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bank subtotals (-ledger +got):\n%s", diff)
	}
	text := res.Markdown()
	for _, w := range []string{"Поступило от контрагента: " + strconv.Itoa(want["ПоступлениеНаРасчетныйСчет"].Rows),
		want["ПоступлениеНаРасчетныйСчет"].Amount.String(), want["СписаниеСРасчетногоСчета"].Amount.String()} {
		if !strings.Contains(text, w) {
			t.Errorf("answer lacks %q:\n%s", w, text)
		}
	}
}

// A question by contract number names the company and the contract's date; names are escaped.
func TestContractHeaderNamesCounterparty(t *testing.T) {
	lane, _ := newTestLane(t)
	res := lane.Run(t.Context(), ask(recipe.OpenItemsByContract, recipe.Filters{AsOfDate: "2026-04-25", Contract: "214/2024", Status: "open"}))
	if res.ContractParty != `ООО "Ромашка"` {
		t.Fatalf("contract counterparty = %q, want ООО \"Ромашка\"", res.ContractParty)
	}
	head, _, _ := strings.Cut(res.Markdown(), "\n")
	for _, w := range []string{`№ 214/2024`, `от 19\.01\.2024`, `Долг ООО "Ромашка" по договору поставки`} {
		if !strings.Contains(head, w) {
			t.Errorf("header %q lacks %q", head, w)
		}
	}
	bare := Result{Intent: recipe.DocumentsByContract, Contract: "Основной договор", ContractNumber: "ДП-1", ContractDate: "2025-02-03",
		ContractParty: "ООО «Гранит-М»", Organization: "ООО «Север»", Source: "demo", ResultMode: FactualList}
	if got, want := bare.contractLabel(), "Основной договор № ДП-1 от 03.02.2025 с ООО «Гранит-М»"; got != want {
		t.Errorf("contractLabel() = %q, want %q", got, want)
	}
	if head, _, _ := strings.Cut(bare.Markdown(), "\n"); !strings.Contains(head, `№ ДП\-1 от 03\.02\.2025 с ООО «Гранит\-М»`) {
		t.Errorf("header not escaped: %q", head)
	}
	undated := Result{Contract: "Договор № 5", ContractNumber: "5", ContractDate: "0001-01-01"}
	if got := undated.contractLabel(); got != "Договор № 5" {
		t.Errorf("contractLabel() of an undated contract = %q", got)
	}
}

// A LIMITED answer quotes names as the user wrote them: they are escaped like any other name.
func TestLimitedMessageIsEscaped(t *testing.T) {
	lane, _ := newTestLane(t)
	res := lane.Run(t.Context(), ask(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "ООО *Рога_и[Копыта]*", Status: "open"}))
	if res.ResultMode != Limited {
		t.Fatalf("result %s", res.ResultMode)
	}
	if got := res.Markdown(); !strings.Contains(got, `«ООО \*Рога\_и\[Копыта\]\*»`) {
		t.Errorf("name not escaped: %q", got)
	}
}

// A note is plain text, escaped once where the answer is rendered: a hidden debtor's name with
// Markdown's characters («Северсталь-Логистик» (47)) reaches the user as written, not with «\-».
func TestHiddenDebtNoteEscapedOnce(t *testing.T) {
	note := hiddenDebtNote([]Row{{Name: "ПАО «Северсталь-Логистик» (47)", Debit: 105389576, Credit: 142457691}}, false)
	if !strings.Contains(note, "ПАО «Северсталь-Логистик» (47) — ") || strings.Contains(note, `\`) {
		t.Errorf("note: %q", note)
	}
	res := Result{Intent: recipe.Receivables, Notes: []string{note}}
	if got := res.Markdown(); strings.Contains(got, `\\`) || !strings.Contains(got, `Северсталь\-Логистик» \(47\)`) {
		t.Errorf("rendered: %q", got)
	}
}
