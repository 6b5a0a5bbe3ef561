package runner

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/golden"
)

// The aging on the demo ledger, as the lane answers it: golden files of the rendered answer,
// the unified result and the Excel export's cells.
func TestAgingGolden(t *testing.T) {
	d, _ := demo(t)
	tests := []struct {
		name, question string
		d              Decomposition
		o              Options
	}{
		{"aging_receivables_2026_03_31", "просрочка по покупателям на 31 марта 2026",
			ask(recipe.ReceivablesAging, recipe.Filters{AsOfDate: "2026-03-31"}), Options{}},
		{"aging_payables_2026_03_31", "просроченная кредиторка на 31.03.2026",
			ask(recipe.PayablesAging, recipe.Filters{AsOfDate: "2026-03-31"}), Options{}},
		{"aging_alfa_2026_01_31", "старение долга альфы на 31.01.2026",
			ask(recipe.ReceivablesAging, recipe.Filters{AsOfDate: "2026-01-31", Counterparty: "Альфа"}), Options{}},
		{"aging_own_bounds", "дебиторка по срокам на 30.06.2025 (ONEC_AGING_BUCKETS=15,45, ONEC_DEFAULT_PAYMENT_DAYS=10)",
			ask(recipe.ReceivablesAging, recipe.Filters{AsOfDate: "2025-06-30"}), Options{AgingBounds: []int{15, 45}, DefaultPaymentDays: 10}},
		{"aging_nobody_owes", "просроченная кредиторка перед Вектор Плюс на 31.03.2026",
			ask(recipe.PayablesAging, recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "ООО «Вектор Плюс»"}), Options{}},
		{"aging_before_data", "просроченная дебиторка на 1 января 2024",
			ask(recipe.ReceivablesAging, recipe.Filters{AsOfDate: "2024-01-01"}), Options{}},
		{"aging_past_45_days", "кто должен нам больше 45 дней на 31.03.2026",
			Decomposition{QuestionMode: ModeLedger, Intent: recipe.ReceivablesAging, Filters: recipe.Filters{AsOfDate: "2026-03-31"}, OverdueDays: 45},
			Options{}},
		{"aging_trade_org", "старение кредиторки по организации Северный ветер Трейд на 31.12.2025",
			ask(recipe.PayablesAging, recipe.Filters{AsOfDate: "2025-12-31", Organization: "Северный ветер Трейд"}), Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.o
			o.Now, o.Organization = fixedNow, d.MainOrganization()
			lane := NewLane(d, o)
			res := lane.Run(t.Context(), tt.d)
			unified, _ := json.MarshalIndent(res, "", "  ")
			header, cells := res.table()
			got := fmt.Sprintf("Q: %s\n\n%s\n\n--- export %s\n%q\n", tt.question, res.Markdown(), res.ExportName(), header)
			for _, c := range cells {
				got += fmt.Sprintf("%v\n", c)
			}
			got += res.ExportCaption() + "\n\n--- result\n" + string(unified) + "\n"
			golden.Check(t, filepath.Join("testdata", "lane", tt.name+".golden"), got)
		})
	}
}

// More contracts in debt than one answer of 1C holds: the same figures per counterparty, said so.
func TestAgingByCounterpartyWhenContractsDoNotFit(t *testing.T) {
	d, _ := demo(t)
	q := ask(recipe.ReceivablesAging, recipe.Filters{AsOfDate: "2026-03-31"})
	whole := NewLane(d, Options{Now: fixedNow, Organization: mainOrg}).Run(t.Context(), q)
	src := &recordingSource{Source: d}
	res := NewLane(src, Options{Now: fixedNow, Organization: mainOrg, MaxRows: 20}).Run(t.Context(), q) // 25 contracts, 18 counterparties
	if res.ResultMode == Limited || res.Aging.ByContract || res.Summary.Rows != 18 {
		t.Fatalf("%s %q: by contract %v, %d rows; want 18 counterparties", res.ResultMode, res.Message, res.Aging != nil && res.Aging.ByContract, res.Summary.Rows)
	}
	if res.Summary.TotalAmount != whole.Summary.TotalAmount || fmt.Sprint(res.Aging.Totals) != fmt.Sprint(whole.Aging.Totals) {
		t.Errorf("per counterparty: debt %s, intervals %v; per contract %s, %v", res.Summary.TotalAmount, res.Aging.Totals,
			whole.Summary.TotalAmount, whole.Aging.Totals)
	}
	if !strings.Contains(res.Markdown(), "поэтому по контрагентам") {
		t.Errorf("the answer does not say why it is per counterparty:\n%s", res.Markdown())
	}
	aging, _ := onec.Query("address.aging.receivables")
	if n := strings.Count(strings.Join(src.queries, "\x00"), aging); n != 2 {
		t.Errorf("the aging template ran %d times; want 2 (by contract, then by counterparty)", n)
	}
}

// The intervals as the configuration gives them, and what a wrong configuration falls back to.
func TestAgingBounds(t *testing.T) {
	for _, tc := range []struct {
		bounds []int
		ok     bool
		names  string
	}{
		{[]int{30, 60, 90}, true, "[Не наступил срок 1–30 дн. 31–60 дн. 61–90 дн. Более 90 дн.]"},
		{[]int{15}, true, "[Не наступил срок 1–15 дн. Более 15 дн.]"},
		{[]int{10, 20, 30, 60, 90, 180}, true, "[Не наступил срок 1–10 дн. 11–20 дн. 21–30 дн. 31–60 дн. 61–90 дн. 91–180 дн. Более 180 дн.]"},
		{[]int{10, 20, 30, 60, 90, 180, 365}, false, ""},
		{[]int{60, 30}, false, ""},
		{[]int{0, 30}, false, ""},
		{nil, false, ""},
	} {
		err := CheckAgingBounds(tc.bounds)
		if (err == nil) != tc.ok {
			t.Errorf("CheckAgingBounds(%v) = %v, want ok %v", tc.bounds, err, tc.ok)
		}
		if tc.ok {
			if got := fmt.Sprint(IntervalNames(tc.bounds)); got != tc.names {
				t.Errorf("IntervalNames(%v) = %s, want %s", tc.bounds, got, tc.names)
			}
		}
	}
	if got := (&Lane{opts: Options{AgingBounds: []int{60, 30}}}).agingBounds(); fmt.Sprint(got) != fmt.Sprint(DefaultAgingBounds) {
		t.Errorf("invalid bounds fall back to %v, want %v", got, DefaultAgingBounds)
	}
	// the days a question asks past join the bounds: «больше 45 дней» between 30 and 60
	for _, tc := range []struct {
		bounds []int
		n      int
		want   string
	}{
		{[]int{30, 60, 90}, 45, "[30 45 60 90]"},
		{[]int{30, 60, 90}, 90, "[30 60 90]"},
		{[]int{30, 60, 90}, 0, "[30 60 90]"},
		{[]int{10, 20, 30, 60, 90, 180}, 45, "[10 20 30 45 60 90]"},
		{[]int{10, 20, 30, 60, 90, 180}, 365, "[10 20 30 60 90 365]"},
	} {
		if got := fmt.Sprint(withBound(tc.bounds, tc.n)); got != tc.want {
			t.Errorf("withBound(%v, %d) = %s, want %s", tc.bounds, tc.n, got, tc.want)
		}
	}
}
