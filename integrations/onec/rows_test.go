package onec_test

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
)

// Rows as the MCP toolkit writes them (testdata/toolkit/README.md): dates end in Z and the
// empty date is "Z", a query NULL is "", an empty reference null, numbers have no trailing
// zeros. Each is decoded into its template's typed row, once, here.
func TestDecodeReadsTheToolkitsForms(t *testing.T) {
	ref := func(typ, id, name string) map[string]any {
		return map[string]any{"_objectRef": true, "УникальныйИдентификатор": id, "ТипОбъекта": typ, "Представление": name}
	}
	party := ref(onec.TypeCounterparty, "b5df193a-0940-4afc-991f-43edb57e86ec", "АО «Вектор»")
	doc := ref("ДокументСсылка.ВводНачальныхОстатков", "3a57c56f-3325-462c-b2e6-b0030ce0fbb2", "Ввод остатков СВ00-000003 от 31.12.2024 23:59:59")
	decode := func(id string, rows ...map[string]any) *onec.Result {
		t.Helper()
		res, err := onec.Decode(id, rows)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	docs := decode("address.documents.by_counterparty",
		map[string]any{"Ссылка": doc, "Номер": "СВ00-000003", "Дата": "2024-12-31T23:59:59Z", "Проведен": true, "ПометкаУдаления": false,
			"Контрагент": party, "Договор": nil, "СуммаДокумента": json.Number("1000.5"), "БанковскийСчет": "", "НазначениеПлатежа": ""},
		map[string]any{"Ссылка": doc, "Номер": "1", "Дата": "Z", "СуммаДокумента": json.Number("1")}, // no date: no document row
		nil,
	)
	if len(docs.Documents) != 1 || docs.Dropped[onec.DropUnknownShape] != 1 || docs.Fetched != 3 || docs.Received != 2 {
		t.Fatalf("documents: %+v", docs)
	}
	if got := docs.Documents[0]; !got.Date.Equal(time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC)) || got.Amount != 100050 ||
		got.BankAccount != "" || got.Contract.UUID != "" || got.Counterparty.Presentation != "АО «Вектор»" || !got.Posted {
		t.Errorf("document row = %+v", got)
	}
	if len(docs.Columns) != 10 || !sort.StringsAreSorted(docs.Columns) {
		t.Errorf("columns = %v", docs.Columns)
	}

	items := decode("address.open_items.by_counterparty",
		map[string]any{"Счет": "62.01", "Контрагент": party, "Договор": "", "ДокументРасчетов": doc, "ДокументРасчетовДата": "2024-12-31T23:59:59Z",
			"ДокументРасчетовНомер": "СВ00-000003", "СуммаОстатокДт": json.Number("100"), "СуммаОстатокКт": json.Number("0")},
		map[string]any{"Счет": "62.02", "Контрагент": party, "Договор": "", "ДокументРасчетов": "", "ДокументРасчетовДата": "",
			"ДокументРасчетовНомер": "", "СуммаОстатокДт": json.Number("0"), "СуммаОстатокКт": json.Number("0.5")},
	).Balances
	if len(items) != 2 {
		t.Fatalf("open items: %+v", items)
	}
	if !items[0].DocumentDate.Equal(time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC)) || items[0].Debit != 10000 || items[0].DocumentNumber != "СВ00-000003" ||
		items[0].SettlementDocument.Type != "ДокументСсылка.ВводНачальныхОстатков" {
		t.Errorf("open item row 0 = %+v", items[0])
	}
	if !items[1].DocumentDate.IsZero() || items[1].SettlementDocument.UUID != "" || items[1].Credit != 50 {
		t.Errorf("open item without a settlement document = %+v", items[1])
	}

	// A balance whose amounts are NULL ("") is no balance row; one with a NULL side is.
	bal := decode("address.receivables.counterparty_totals",
		map[string]any{"Счет": "51", "СуммаОстатокДт": "", "СуммаОстатокКт": ""},
		map[string]any{"Счет": "62.01", "Контрагент": party, "СуммаОстатокДт": json.Number("5"), "СуммаОстатокКт": ""},
		map[string]any{"Счет": "62.01", "СуммаОстатокДт": "пять", "СуммаОстатокКт": ""},
	)
	if len(bal.Balances) != 1 || bal.Balances[0].Debit != 500 || bal.Balances[0].Credit != 0 || bal.Dropped[onec.DropUnknownShape] != 2 {
		t.Errorf("balances = %+v", bal)
	}

	moves := decode("register.movements",
		map[string]any{"Период": "2025-01-31T23:59:59Z", "Регистратор": doc, "РегистраторНомер": "", "СчетДт": "62.01", "СчетКт": "90.01.1",
			"Сумма": json.Number("9"), "КонтрагентДт": party, "КонтрагентКт": "", "ДоговорДт": "", "ДоговорКт": ""},
		map[string]any{"Период": "Z", "Регистратор": doc, "Сумма": json.Number("1")},
		map[string]any{"Период": "2025-01-31T23:59:59Z", "Регистратор": nil, "Сумма": json.Number("1")},
		map[string]any{"Период": "", "Регистратор": nil},
		map[string]any{"Период": "2025-01-31T23:59:59Z", "Регистратор": doc, "Сумма": json.Number("0.001")},
	)
	want := map[string]int{onec.DropNoPeriod: 1, onec.DropNoRegistrar: 1, onec.DropNoPeriodRegistrar: 1, onec.DropUnknownShape: 1}
	if len(moves.Movements) != 1 || !reflect.DeepEqual(moves.Dropped, want) ||
		!moves.Movements[0].Period.Equal(time.Date(2025, 1, 31, 23, 59, 59, 0, time.UTC)) || moves.Movements[0].PartyCr.UUID != "" {
		t.Errorf("movements = %+v", moves)
	}

	sheet := decode("address.turnover_sheet.by_account",
		map[string]any{"Счет": "60.01", "Забалансовый": false, "НачальныйОстатокДт": "", "НачальныйОстатокКт": json.Number("10"),
			"ОборотДт": json.Number("1.5"), "ОборотКт": json.Number("0"), "КонечныйОстатокДт": json.Number("0"), "КонечныйОстатокКт": json.Number("8.5")},
		map[string]any{"Счет": "60.02", "ОборотДт": "x"},
	)
	if len(sheet.Sheet) != 1 || sheet.Sheet[0].OpenCredit != 1000 || sheet.Sheet[0].Debit != 150 || sheet.Sheet[0].CloseCredit != 850 ||
		sheet.Dropped[onec.DropUnknownShape] != 1 {
		t.Errorf("sheet = %+v", sheet)
	}

	// Catalog rows are never dropped: an unreadable value reads as empty.
	accs := decode("catalog.accounts",
		map[string]any{"Код": "62.01", "Наименование": "Расчеты с покупателями", "Вид": "Активный",
			"ВидыСубконто": "Контрагенты, Договоры,ДокументыРасчетовСКонтрагентами", "УчетПоДокументамРасчетов": true},
		nil,
	).Accounts
	if len(accs) != 2 || !reflect.DeepEqual(accs[0].Subconto, []string{"Контрагенты", "Договоры", "ДокументыРасчетовСКонтрагентами"}) ||
		!accs[0].ByDocuments || !accs[0].HasSubconto("Контрагенты") || accs[1].Code != "" {
		t.Errorf("accounts = %+v", accs)
	}
	ctrs := decode("catalog.contracts", map[string]any{"Ссылка": ref(onec.TypeContract, "c1", "Договор П-1"), "Код": "0001", "Дата": "Z",
		"Владелец": party, "Организация": nil}).Contracts
	if len(ctrs) != 1 || !ctrs[0].Date.IsZero() || ctrs[0].Owner.UUID == "" || ctrs[0].Organization.UUID != "" || ctrs[0].Code != "0001" {
		t.Errorf("contracts = %+v", ctrs)
	}

	if _, err := onec.Decode("catalog.passwords", nil); err == nil {
		t.Error("a query outside the whitelist decoded")
	}
}

func TestRowDatesAndAmounts(t *testing.T) {
	dates := []struct {
		in   any
		want string
	}{
		{"2026-03-31T00:00:00Z", "2026-03-31"}, {"2026-03-31T00:00:00", "2026-03-31"}, {"2026-03-31", "2026-03-31"},
		{"Z", ""}, {"", ""}, {nil, ""},
	}
	for _, tt := range dates {
		res, err := onec.Decode("catalog.contracts", []map[string]any{{"Дата": tt.in}})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if d := res.Contracts[0].Date; !d.IsZero() {
			got = d.Format(time.DateOnly)
		}
		if got != tt.want {
			t.Errorf("date %#v = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, in := range []any{"", nil, json.Number("0")} {
		res, _ := onec.Decode("address.account_card.balances", []map[string]any{{"НачальноеСальдо": in}})
		if len(res.CardTotals) != 1 || res.CardTotals[0].Opening != 0 {
			t.Errorf("amount %#v: %+v; want 0", in, res)
		}
	}
}

// Every whitelisted template answers in one family of typed rows, and the demo base's answers
// to each decode without a dropped row, over the wire as through the typed client.
func TestEveryTemplateHasTypedRows(t *testing.T) {
	for _, id := range onec.QueryIDs() {
		if kind, ok := onec.RowKindOf(id); !ok || kind == 0 {
			t.Errorf("%s: no row family", id)
		}
	}
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	srv := onectest.NewServer(t, d)
	proxy, err := onec.NewProxy(onec.ProxyOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	org := onec.Ref{UUID: mainOrgUUID(t, d), Type: onec.TypeOrganization}.Param()
	params := onec.Params{"Организация": org, "НаДату": "2026-04-01T00:00:00", "НачалоПериода": "2020-01-01T00:00:00",
		"КонецПериода": "2026-03-31T23:59:59", "СчетКод": "62", "СчетМаска": "62.%", "Контрагент": nil, "Договор": nil,
		"ТипДокумента": "", "ПослеКода": ""}
	// A counterparty and a contract with movements on 62, for the templates that need them.
	moves, err := d.Query(t.Context(), "register.movements", params, onec.MaxProxyRows)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves.Movements {
		if m.PartyDr.UUID != "" && m.ContractDr.UUID != "" {
			params["Контрагент"], params["Договор"] = m.PartyDr.Param(), m.ContractDr.Param()
			break
		}
	}
	seen := map[onec.RowKind]int{}
	for _, src := range []onec.Source{d, proxy, onec.NewClient(d)} {
		for _, id := range onec.QueryIDs() {
			names, _ := onec.QueryParams(id)
			p := onec.Params{}
			for _, n := range names {
				p[n] = params[n]
			}
			res, err := src.Query(t.Context(), id, p, onec.MaxProxyRows)
			if err != nil {
				var qe *onec.QueryError
				if errors.As(err, &qe) { // a template the demo refuses without an anchor is not this test's
					continue
				}
				t.Fatalf("%s via %s: %v", id, src.Name(), err)
			}
			n := len(res.Balances) + len(res.Movements) + len(res.Documents) + len(res.Sheet) + len(res.CardTotals) +
				len(res.FirstPosting) + len(res.Reconciliation) +
				len(res.Organizations) + len(res.Counterparties) + len(res.Contracts) + len(res.Accounts) + len(res.BankAccounts)
			seen[res.Kind] += res.Received
			if res.ID != id || len(res.Dropped) != 0 || n != res.Received {
				t.Errorf("%s via %s: %d typed rows of %d received, dropped %v", id, src.Name(), n, res.Received, res.Dropped)
			}
		}
	}
	for kind := onec.RowsBalance; kind <= onec.RowsBankAccount; kind++ {
		if seen[kind] == 0 {
			t.Errorf("row family %d: no template answered with a row", kind)
		}
	}
	if _, err := d.Query(context.Background(), "catalog.passwords", nil, 10); err == nil {
		t.Error("an ID outside the whitelist ran")
	}
}

func mainOrgUUID(t *testing.T, d *onec.Demo) string {
	t.Helper()
	res, err := d.Query(t.Context(), "catalog.organizations", nil, 10)
	if err != nil || len(res.Organizations) == 0 {
		t.Fatalf("organizations: %v", err)
	}
	return res.Organizations[0].Ref.UUID
}

// The boundary: nothing under agent/ handles the toolkit's wire rows. No code outside tests
// there mentions []map[string]any (a wire result), agent/ledger none of map[string]any at all
// (a row, or parameters not typed as onec.Params), and nothing calls Execute (the wire entry
// point); the lane's Source answers in onec.Result. A go/packages-free AST walk.
func TestNoWireRowsPastOnec(t *testing.T) {
	root := filepath.Join("..", "..", "agent")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.MapType:
				if ledger := strings.Contains(filepath.ToSlash(path), "agent/ledger/"); ledger && isIdent(x.Key, "string") && isAny(x.Value) {
					t.Errorf("%s: map[string]any in agent/ledger: a wire row, or parameters that are not onec.Params", fset.Position(x.Pos()))
				}
			case *ast.ArrayType:
				if m, ok := x.Elt.(*ast.MapType); ok && isIdent(m.Key, "string") && isAny(m.Value) {
					t.Errorf("%s: []map[string]any: wire rows belong in integrations/onec", fset.Position(x.Pos()))
				}
			case *ast.SelectorExpr:
				if x.Sel.Name == "Execute" && importsOnec(f) {
					t.Errorf("%s: .Execute: agent/ runs templates through onec's typed Query", fset.Position(x.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func isIdent(e ast.Expr, name string) bool { id, ok := e.(*ast.Ident); return ok && id.Name == name }

func isAny(e ast.Expr) bool {
	if isIdent(e, "any") {
		return true
	}
	it, ok := e.(*ast.InterfaceType)
	return ok && len(it.Methods.List) == 0
}

func importsOnec(f *ast.File) bool {
	for _, im := range f.Imports {
		if im.Path.Value == `"github.com/finbot/finbot/integrations/onec"` {
			return true
		}
	}
	return false
}
