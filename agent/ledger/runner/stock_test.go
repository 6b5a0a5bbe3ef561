package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	md2 "github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
	"github.com/finbot/finbot/integrations/onec/onectest"
	"github.com/finbot/finbot/internal/golden"
)

// The stock through the lane on the realistic base (the default one keeps no quantities), its
// figures against a calculation of plain loops over the generated ledger: per item, the
// records of the head organization and its division on the quantity accounts before the day
// after the date, the sum and the quantity added up apart from any template.

var realisticStock struct {
	once sync.Once
	l    *onec.Ledger
	d    *onec.Demo
}

func realisticForStock(t *testing.T) (*onec.Ledger, *onec.Demo) {
	t.Helper()
	if testing.Short() {
		t.Skip("the realistic base takes a few seconds to generate")
	}
	realisticStock.once.Do(func() {
		realisticStock.l = ledgergen.Realistic(ledgergen.DefaultSeed)
		realisticStock.d = onec.NewNamedDemo(realisticStock.l, ledgergen.RealisticName)
	})
	return realisticStock.l, realisticStock.d
}

// stockCalc is the calculation: per item's name and account, its quantity and sum, for the
// organization org (and the divisions whose head it is), on the accounts under token that the
// chart marks quantity ones ("" for all).
func stockCalc(l *onec.Ledger, org, token string, asOf time.Time) map[[2]string]Qty {
	quantity, names, units, heads := map[string]bool{}, map[string]string{}, map[string]string{}, map[string]string{}
	for _, a := range l.Accounts {
		quantity[a.Code] = a.Quantity
	}
	for _, it := range l.Items {
		names[it.Ref], units[it.Ref] = it.Name, it.Unit
	}
	for _, o := range l.Organizations {
		heads[o.Ref] = o.HeadRef
	}
	posted := map[string]bool{}
	for _, d := range l.Documents {
		posted[d.Ref] = d.Posted
	}
	out, sums := map[[2]string]Qty{}, map[[2]string]onec.Kopecks{}
	end := asOf.AddDate(0, 0, 1)
	for _, m := range l.Movements {
		if !posted[m.RecorderRef] || m.OrganizationRef != org && heads[m.OrganizationRef] != org || !m.Period.Before(end) {
			continue
		}
		for s, acc := range []string{m.AccountDr, m.AccountCr} {
			if !quantity[acc] || token != "" && acc != token && !strings.HasPrefix(acc, token+".") {
				continue
			}
			subs, q, sum := m.SubcontoDr, m.QuantityDr, m.Amount
			if s == 1 {
				subs, q, sum = m.SubcontoCr, -m.QuantityCr, -m.Amount
			}
			k := [2]string{names[subs[0].Ref], acc}
			x := out[k]
			x.Value += q
			x.Unit = units[subs[0].Ref]
			out[k] = x
			sums[k] += sum
		}
	}
	for k, x := range out {
		if x.Value == 0 && sums[k] == 0 {
			delete(out, k)
		}
	}
	return out
}

// linesOf reads a stock's lines as the calculation keeps them.
func linesOf(t *testing.T, st *Stock) map[[2]string]Qty {
	t.Helper()
	out := map[[2]string]Qty{}
	for _, row := range st.Lines {
		if row.Qty == nil {
			t.Fatalf("%s %s: no quantity", row.Account, row.Name)
		}
		out[[2]string{row.Name, row.Account}] = *row.Qty
	}
	return out
}

func TestStockOnTheRealisticBase(t *testing.T) {
	l, d := realisticForStock(t)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: onec.MaxProxyRows})
	head := l.Organizations[0].Ref
	asOf := time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)

	t.Run("«остаток по 41»: the balance with its items", func(t *testing.T) {
		res := lane.Run(t.Context(), ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "41"}))
		if res.Stock == nil || res.ResultMode == Limited {
			t.Fatalf("%s %q: no stock lines", res.ResultMode, res.Message)
		}
		if diff := cmp.Diff(stockCalc(l, head, "41", asOf), linesOf(t, res.Stock)); diff != "" {
			t.Errorf("items (-calculation +lane):\n%s", diff)
		}
		if res.Stock.Total != res.Summary.TotalAmount {
			t.Errorf("the items add up to %s, the account's balance is %s", res.Stock.Total, res.Summary.TotalAmount)
		}
		md := res.Markdown()
		first := res.Stock.Lines[0]
		if !strings.Contains(md, fmt.Sprintf("По номенклатуре — %d позиций", len(res.Stock.Lines))) ||
			!strings.Contains(md, first.Name+" — "+first.Qty.String()) || !strings.Contains(md, "Выгрузить в Excel") {
			t.Errorf("the answer does not show the items with their quantities:\n%s", md)
		}
	})
	t.Run("«сколько штук бумаги на складе»: every paper, its packs added", func(t *testing.T) {
		res := lane.Run(t.Context(), ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31", Item: "бумаги"}))
		if res.Stock == nil {
			t.Fatalf("%s %q", res.ResultMode, res.Message)
		}
		want := map[[2]string]Qty{}
		var total onec.Quantity
		for k, q := range stockCalc(l, head, "", asOf) {
			if strings.HasPrefix(k[0], "Бумага") {
				want[k] = q
				total += q.Value
			}
		}
		if len(want) != 2 {
			t.Fatalf("the calculation finds %d papers: %v", len(want), want)
		}
		if diff := cmp.Diff(want, linesOf(t, res.Stock)); diff != "" {
			t.Errorf("papers (-calculation +lane):\n%s", diff)
		}
		if res.Stock.Quantity == nil || res.Stock.Quantity.Value != total || res.Stock.Quantity.Unit != "пачк" {
			t.Errorf("total quantity %+v, want %s пачк", res.Stock.Quantity, total)
		}
		if md := res.Markdown(); !strings.HasPrefix(md, md2.Escape("Бумага — 2 позиции, остаток на 31.03.2026: ")+"**"+(Qty{total, "пачк"}).String()+"**") {
			t.Errorf("headline:\n%s", md)
		}
	})
	t.Run("one item in tonnes, to the kilogram", func(t *testing.T) {
		res := lane.Run(t.Context(), ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31", Item: "цемента"}))
		want := stockCalc(l, head, "", asOf)[[2]string{"Цемент М500", "41.01"}]
		if res.Stock == nil || res.Stock.Quantity == nil || *res.Stock.Quantity != want || want.Value%onec.QuantityScale == 0 {
			t.Fatalf("%s %q: %+v; the calculation %s (want a fraction of a tonne)", res.ResultMode, res.Message, res.Stock, want)
		}
		if md := res.Markdown(); !strings.Contains(md, "**"+md2.Escape(want.String())+"**") || !strings.Contains(md, md2.Escape("счёт 41.01")) {
			t.Errorf("answer:\n%s", md)
		}
	})
	t.Run("an item 1C does not have", func(t *testing.T) {
		res := lane.Run(t.Context(), ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31", Item: "снегоходов"}))
		if res.ResultMode != Limited || res.LimitedReason != ReasonMissingAnchor || !strings.Contains(res.Message, "Не нашёл в 1С номенклатуру «снегоходов»") {
			t.Errorf("%s %s %q", res.ResultMode, res.LimitedReason, res.Message)
		}
	})
	t.Run("an account without quantity accounting", func(t *testing.T) {
		res := lane.Run(t.Context(), ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "51"}))
		if res.ResultMode != Limited || !strings.Contains(res.Message, "По счёту 51 в 1С количественный учёт не ведётся") ||
			!strings.Contains(res.Message, "10.01, 41.01") {
			t.Errorf("%s %q", res.ResultMode, res.Message)
		}
		// and its balance says nothing of quantities
		bal := lane.Run(t.Context(), ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "51"}))
		if bal.Stock != nil || strings.Contains(bal.Markdown(), "номенклатур") {
			t.Errorf("51's balance speaks of items:\n%s", bal.Markdown())
		}
	})
	t.Run("the export has the quantities as numbers", func(t *testing.T) {
		res := lane.Run(t.Context(), ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31"}))
		data, err := res.XLSX()
		if err != nil {
			t.Fatal(err)
		}
		f, err := excelize.OpenReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.GetRows("Результат", excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"Номенклатура", "Счёт", "Количество", "Ед. изм.", "Сумма, ₽"}; !slices.Equal(rows[3], want) {
			t.Fatalf("header %q, want %q", rows[3], want)
		}
		calc := stockCalc(l, head, "", asOf)
		if len(rows) != 4+len(calc)+2 {
			t.Errorf("%d rows for %d lines", len(rows), len(calc))
		}
		for _, r := range rows[4 : 4+len(calc)] {
			q := calc[[2]string{r[0], r[1]}]
			if got, err := onec.ParseQuantity(r[2]); err != nil || got != q.Value || r[3] != q.Unit {
				t.Errorf("%s on %s: %s %s, want %s", r[0], r[1], r[2], r[3], q)
			}
		}
	})
}

// The default base keeps no quantities: its answers are as they were, and a stock question says
// why it has no answer.
func TestStockOnTheDefaultBase(t *testing.T) {
	d, _ := demo(t)
	lane := NewLane(d, Options{Now: fixedNow, Organization: mainOrg})
	bal := lane.Run(t.Context(), ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "41"}))
	if bal.Stock != nil || strings.Contains(bal.Markdown(), "номенклатур") || !strings.Contains(bal.Markdown(), "2\u00a0771\u00a0908,74") {
		t.Errorf("41 on the default base:\n%s", bal.Markdown())
	}
	res := lane.Run(t.Context(), ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31", Item: "бумага"}))
	if res.ResultMode != Limited || !strings.Contains(res.Message, "нет счетов с количественным учётом") {
		t.Errorf("%s %q", res.ResultMode, res.Message)
	}
}

// The stock answers as they read: golden files of the rendered answer, the export's cells and
// the unified result.
func TestStockGolden(t *testing.T) {
	_, d := realisticForStock(t)
	for _, tt := range []struct{ name, question string }{
		{"stock_paper", "сколько штук бумаги на складе на 31.03.2026"},
		{"stock_cement", "сколько кг цемента осталось на 31.03.2026"},
		{"stock_all", "складские остатки на 31.03.2026"},
		{"stock_balance_41", "остаток по 41 на 31.03.2026"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := recipe.Filters{AsOfDate: "2026-03-31"}
			intent := recipe.StockBalance
			switch tt.name {
			case "stock_paper":
				f.Item = "бумаги"
			case "stock_cement":
				f.Item = "цемента"
			case "stock_balance_41":
				intent, f.Account = recipe.AccountBalance, "41"
			}
			res := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: onec.MaxProxyRows}).Run(t.Context(), ask(intent, f))
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

// A user restricted by RLS to ООО «Северный ветер Трейд», on the realistic base: the stock of
// what the user may see, exactly what full rights give for that organization, the note said
// when the operator says so.
func TestRestrictedStock(t *testing.T) {
	l, d := realisticForStock(t)
	trade := l.Organizations[1]
	srv := onectest.NewServer(t, onectest.NewRestricted(l, trade.Ref))
	proxy, err := onec.NewProxy(onec.ProxyOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	full := NewLane(d, Options{Now: fixedNow, Organization: trade.INN, MaxRows: onec.MaxProxyRows})
	for _, q := range []Decomposition{
		ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31"}),
		ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31", Item: "кабель"}),
		ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "41"}),
	} {
		want := full.Run(t.Context(), q)
		if want.Stock == nil || len(want.Stock.Lines) == 0 {
			t.Fatalf("%s %+v under full rights: no stock (%q)", q.Intent, q.Filters, want.Message)
		}
		for _, restricted := range []bool{true, false} {
			res := NewLane(proxy, Options{Now: fixedNow, RestrictedRights: restricted, MaxRows: onec.MaxProxyRows}).Run(t.Context(), q)
			if res.Organization != trade.Name || res.Stock == nil {
				t.Fatalf("%s restricted=%v: %s for %q", q.Intent, restricted, res.Message, res.Organization)
			}
			if diff := cmp.Diff(want.Stock, res.Stock); diff != "" {
				t.Errorf("%s restricted=%v: stock (-full rights +restricted):\n%s", q.Intent, restricted, diff)
			}
			if got := slices.Contains(res.Notes, RightsNote); got != restricted {
				t.Errorf("%s: rights note %v with restricted=%v", q.Intent, got, restricted)
			}
		}
	}
}

// ResolveItems: an item by its exact name, by the words of a question in any case (every match,
// so «бумага» is every paper), never a deletion-marked one, nothing for words no name holds.
func TestResolveItems(t *testing.T) {
	all := []item{
		{ref: "1", code: "1", name: "Бумага офисная А4 «Снегурочка»", unit: "пачк"},
		{ref: "2", code: "2", name: "Бумага офисная А3", unit: "пачк"},
		{ref: "3", code: "3", name: "Картридж HP 85A", unit: "шт"},
		{ref: "4", code: "4", name: "Кабель ВВГнг 3х2,5", unit: "м"},
		{ref: "5", code: "5", name: "Бумага А4 (не использовать)", deleted: true},
		{ref: "6", code: "6", name: "Мышь Logitech M90", unit: "шт"},
	}
	names := func(its []item) []string {
		var out []string
		for _, it := range its {
			out = append(out, it.name)
		}
		return out
	}
	for _, tt := range []struct {
		q    string
		want []string
	}{
		{"бумаги", []string{"Бумага офисная А3", "Бумага офисная А4 «Снегурочка»"}},
		{"бумагу А4", []string{"Бумага офисная А4 «Снегурочка»"}},
		{"Бумага офисная А3", []string{"Бумага офисная А3"}},
		{"картриджей hp", []string{"Картридж HP 85A"}},
		{"картриж", []string{"Картридж HP 85A"}}, // a typo
		{"кабеля", []string{"Кабель ВВГнг 3х2,5"}},
		{"мышек", nil}, // a diminutive is another word
		{"мыши", []string{"Мышь Logitech M90"}},
		{"товара кабель", []string{"Кабель ВВГнг 3х2,5"}},
		{"снегоход", nil},
		{"", nil},
	} {
		if got := names(ResolveItems(tt.q, all)); !slices.Equal(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.q, got, tt.want)
		}
	}
}

// The card of a quantity account: each posting with its item and what of it came (+) or went
// (−), as the records say — per item over the period the postings' quantities add up to the
// records' debit less credit on 41.01; nothing is added across items, and 51's card has no
// quantity.
func TestCardOfAQuantityAccount(t *testing.T) {
	l, d := realisticForStock(t)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: onec.MaxProxyRows})
	res := lane.Run(t.Context(), ask(recipe.AccountCard, recipe.Filters{Account: "41.01", PeriodFrom: "2026-03-02", PeriodTo: "2026-03-04"}))
	if res.Report == nil || res.Report.Cut || res.Report.Quantities == 0 || res.Report.Quantities != len(res.All) {
		t.Fatalf("%s %q: report %+v", res.ResultMode, res.Message, res.Report)
	}
	got := map[string]onec.Quantity{}
	for _, row := range res.All {
		if row.Qty == nil || row.Item == "" {
			t.Fatalf("a posting without its item or quantity: %+v", row)
		}
		got[row.Item] += row.Qty.Value
	}
	names, heads, posted := map[string]string{}, map[string]string{}, map[string]bool{}
	for _, it := range l.Items {
		names[it.Ref] = it.Name
	}
	for _, o := range l.Organizations {
		heads[o.Ref] = o.HeadRef
	}
	for _, doc := range l.Documents {
		posted[doc.Ref] = doc.Posted
	}
	head := l.Organizations[0].Ref
	from, to := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)
	want := map[string]onec.Quantity{}
	for _, m := range l.Movements {
		if !posted[m.RecorderRef] || m.OrganizationRef != head && heads[m.OrganizationRef] != head || m.Period.Before(from) || !m.Period.Before(to) {
			continue
		}
		if m.AccountDr == "41.01" {
			want[names[m.SubcontoDr[0].Ref]] += m.QuantityDr
		}
		if m.AccountCr == "41.01" {
			want[names[m.SubcontoCr[0].Ref]] -= m.QuantityCr
		}
	}
	for k, v := range want {
		if v == 0 {
			if _, moved := got[k]; !moved {
				delete(want, k)
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the period's quantities per item (-records +card):\n%s", diff)
	}
	md := res.Markdown()
	if !strings.Contains(md, md2.Escape("Количество — по каждой проводке")) || strings.Contains(md, "Количество: на начало") {
		t.Errorf("the card's quantities:\n%s", md)
	}
	if header, _ := res.table(); !slices.Contains(header, "Количество") {
		t.Errorf("export header %q", header)
	}
	bank := lane.Run(t.Context(), ask(recipe.AccountCard, recipe.Filters{Account: "51", PeriodFrom: "2026-03-02", PeriodTo: "2026-03-04"}))
	if bank.Report == nil || bank.Report.Quantities != 0 || strings.Contains(bank.Markdown(), "Количество") {
		t.Errorf("51's card speaks of quantities:\n%s", bank.Markdown())
	}
}

// A name that fits more items than buttons can offer is asked back with the first of them; a
// nomenclature longer than the lane reads is said so, never answered as «не нашёл».
func TestStockItemsAskedBack(t *testing.T) {
	l := &onec.Ledger{
		Organizations: []onec.Organization{{Ref: "00000000-0000-0000-0000-00000000e001", Name: "ООО «Склад»", INN: "7700000003", Default: true}},
		Accounts:      []onec.Account{{Code: "41.01", Name: "Товары на складах", Type: "active", Subconto: []string{"Номенклатура"}, Quantity: true}},
	}
	for i := range 2100 {
		l.Items = append(l.Items, onec.Item{Ref: fmt.Sprintf("00000000-0000-0000-0000-0000000e%04d", i), Code: fmt.Sprintf("00-%08d", i+1),
			Name: fmt.Sprintf("Бумага вид %04d", i), Unit: "пачк"})
	}
	d := onec.NewDemo(l)
	res := NewLane(d, Options{Now: fixedNow}).Run(t.Context(), ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31", Item: "бумага"}))
	if res.ResultMode != Limited || res.LimitedReason != ReasonMissingAnchor || res.AnchorType != "item" || len(res.Candidates) != resolveMaxCandidates ||
		!strings.Contains(res.Message, "Под «бумага» в номенклатуре 1С 2100 позиций") {
		t.Errorf("%s %s %q, %d candidates", res.ResultMode, res.LimitedReason, res.Message, len(res.Candidates))
	}
	// Pages of 20 rows: the 2,100 items are more than the lane reads (100 pages).
	res = NewLane(d, Options{Now: fixedNow, MaxRows: 20}).Run(t.Context(), ask(recipe.StockBalance, recipe.Filters{AsOfDate: "2026-03-31", Item: "бумага"}))
	if res.ResultMode != Limited || res.LimitedReason != ReasonVisibilityGap || !strings.Contains(res.Message, "Номенклатура в 1С длиннее") {
		t.Errorf("%s %s %q", res.ResultMode, res.LimitedReason, res.Message)
	}
}
