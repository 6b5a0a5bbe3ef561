package onec_test

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/qlang"
	"github.com/finbot/finbot/internal/golden"
)

// The recipe IDs of agent/ledger/runner/catalog.go (integrations never import agent, so they are
// repeated here) and the catalog lookups.
var wantIDs = []string{
	"address.open_contracts.by_asof", "address.payables.counterparty_totals", "address.receivables.counterparty_totals",
	"address.account.balance_snapshot", "address.open_items.by_counterparty", "address.open_items.by_contract",
	"address.documents.by_counterparty", "address.bank_ops.by_counterparty", "address.documents.by_contract",
	"address.balance.drilldown_documents",
	"catalog.organizations", "catalog.counterparties", "catalog.contracts", "catalog.accounts", "catalog.bank_accounts",
	"address.turnover_sheet.by_account", "address.turnover_sheet.by_counterparty", "address.turnover_sheet.by_contract",
	"address.account_card.movements", "address.account_card.balances",
	"register.first_posting", "register.movements",
	"address.aging.receivables", "address.aging.payables",
	"address.reconciliation.balances", "address.reconciliation.lines", "address.offsets.candidates",
	"address.stock.balance", "catalog.nomenclature",
}

// quantityTemplates answer nothing on the default demo, which keeps no quantities: their rows
// are read on the hand-made ledger with quantity accounts (onec.QuantityLedger).
var quantityTemplates = map[string]bool{"address.stock.balance": true, "catalog.nomenclature": true}

// wantParams and the row keys of each template: the contract with the runtime.
var wantParams = map[string][]string{
	"address.turnover_sheet.by_account":       reportParams,
	"address.turnover_sheet.by_counterparty":  reportParams,
	"address.turnover_sheet.by_contract":      reportParams,
	"address.account_card.movements":          reportParams,
	"address.account_card.balances":           reportParams,
	"address.open_contracts.by_asof":          {"НаДату", "Организация", "Контрагент"},
	"address.payables.counterparty_totals":    {"НаДату", "Организация", "СчетКод", "СчетМаска"},
	"address.receivables.counterparty_totals": {"НаДату", "Организация", "СчетКод", "СчетМаска"},
	"address.account.balance_snapshot":        {"НаДату", "Организация", "СчетКод", "СчетМаска"},
	"address.open_items.by_counterparty":      {"НаДату", "Организация", "Контрагент", "Договор"},
	"address.open_items.by_contract":          {"НаДату", "Организация", "Договор", "Контрагент"},
	"address.documents.by_counterparty":       {"НачалоПериода", "КонецПериода", "Организация", "Контрагент", "ТипДокумента"},
	"address.bank_ops.by_counterparty":        {"НачалоПериода", "КонецПериода", "Организация", "Контрагент"},
	"address.documents.by_contract":           {"НачалоПериода", "КонецПериода", "Организация", "Договор", "ТипДокумента"},
	"address.balance.drilldown_documents":     {"НаДату", "Организация", "СчетКод", "СчетМаска", "Контрагент", "Договор"},
	"catalog.organizations":                   {},
	"catalog.counterparties":                  {"ПослеКода"},
	"catalog.contracts":                       {"ПослеКода"},
	"catalog.accounts":                        {},
	"catalog.bank_accounts":                   {},
	"register.first_posting":                  {},
	"register.movements":                      {"НаДату", "Организация", "СчетКод", "СчетМаска", "Контрагент", "Договор"},
	"address.aging.receivables":               agingParams,
	"address.aging.payables":                  agingParams,
	"address.reconciliation.balances":         reconcileParams,
	"address.reconciliation.lines":            reconcileParams,
	"address.offsets.candidates":              {"НаДату", "Организация", "Контрагент"},
	"address.stock.balance":                   {"НаДату", "Организация", "СчетКод", "СчетМаска", "Номенклатура"},
	"catalog.nomenclature":                    {"ПослеКода"},
}

// The report templates' parameters and the six sums of a turnover sheet row.
var (
	reportParams = []string{"НачалоПериода", "КонецПериода", "Организация", "СчетКод", "СчетМаска", "Контрагент"}
	sheetSumKeys = []string{"НачальныйОстатокДт", "НачальныйОстатокКт", "ОборотДт", "ОборотКт", "КонечныйОстатокДт", "КонечныйОстатокКт"}
)

// agingParams are the aging templates' parameters; agingKeys their columns.
var (
	agingParams = []string{"НаДату", "Организация", "СчетКод", "СчетМаска", "Контрагент", "СрокОплатыПоУмолчанию", "Разрез",
		"Граница0", "Граница1", "Граница2", "Граница3", "Граница4", "Граница5", "Граница6"}
	agingKeys = []string{"Контрагент", "КонтрагентНаименование", "Договор", "ДоговорНаименование", "СрокОплатыДней", "СрокПоДоговору",
		"Долг", "Интервал0", "Интервал1", "Интервал2", "Интервал3", "Интервал4", "Интервал5", "Интервал6", "Интервал7",
		"КоличествоДокументов", "СамыйРаннийСрок"}
)

// reconcileParams are the parameters of the act of reconciliation's templates.
var reconcileParams = []string{"НачалоПериода", "КонецПериода", "Организация", "Контрагент", "Договор"}

var movementKeys = []string{"ДоговорДт", "ДоговорКт", "КонтрагентДт", "КонтрагентКт", "НомерСтроки", "Период", "Регистратор",
	"РегистраторНомер", "Сумма", "СчетДт", "СчетКт"}

var wantKeys = map[string][]string{
	"address.turnover_sheet.by_account":      append([]string{"Счет", "Забалансовый"}, sheetSumKeys...),
	"address.turnover_sheet.by_counterparty": append([]string{"Контрагент", "КонтрагентНаименование"}, sheetSumKeys...),
	"address.turnover_sheet.by_contract":     append([]string{"Контрагент", "КонтрагентНаименование", "Договор", "ДоговорНаименование"}, sheetSumKeys...),
	"address.account_card.movements": {"КонтрагентДт", "КонтрагентКт", "НомерСтроки", "Период", "Регистратор", "РегистраторНомер", "Сумма", "СчетДт", "СчетКт",
		"НоменклатураДт", "НоменклатураКт", "ЕдиницаДт", "ЕдиницаКт", "КоличествоДт", "КоличествоКт"},
	"address.account_card.balances":           {"НачальноеСальдо", "ОборотДт", "ОборотКт", "КонечноеСальдо"},
	"address.open_contracts.by_asof":          balanceKeys,
	"address.payables.counterparty_totals":    append([]string{"КоличествоДокументов"}, balanceKeys...),
	"address.receivables.counterparty_totals": append([]string{"КоличествоДокументов"}, balanceKeys...),
	"address.account.balance_snapshot":        append([]string{"КоличествоДокументов"}, balanceKeys...),
	"address.open_items.by_counterparty":      balanceKeys,
	"address.open_items.by_contract":          balanceKeys,
	"address.documents.by_counterparty":       documentKeys,
	"address.bank_ops.by_counterparty":        documentKeys,
	"address.documents.by_contract":           documentKeys,
	"address.balance.drilldown_documents":     balanceKeys,
	"register.movements":                      movementKeys,
	"catalog.organizations":                   {"ГоловнаяОрганизация", "ИНН", "КПП", "Наименование", "Ссылка"},
	"catalog.counterparties":                  {"ИНН", "КПП", "Код", "Наименование", "НаименованиеПолное", "ПометкаУдаления", "Ссылка", "ЮрФизЛицо"},
	"catalog.contracts": {"ВалютаВзаиморасчетов", "ВидДоговора", "Владелец", "Дата", "Код", "Наименование", "Номер",
		"Организация", "ПометкаУдаления", "СрокОплаты", "Ссылка", "УстановленСрокОплаты"},
	"catalog.accounts":                {"Вид", "ВидыСубконто", "Код", "Количественный", "Наименование", "УчетПоДокументамРасчетов"},
	"catalog.bank_accounts":           {"Банк", "ВалютаДенежныхСредств", "Владелец", "ВладелецНаименование", "НомерСчета", "ПометкаУдаления", "Ссылка"},
	"register.first_posting":          {"Период"},
	"address.aging.receivables":       agingKeys,
	"address.aging.payables":          agingKeys,
	"address.reconciliation.balances": {"НачальноеСальдо", "ОборотДт", "ОборотКт", "КонечноеСальдо"},
	"address.reconciliation.lines":    {"Регистратор", "Дата", "Номер", "Счет", "Дебет", "Кредит", "НомерВходящегоДокумента", "ДатаВходящегоДокумента"},
	"address.offsets.candidates":      balanceKeys,
	"address.stock.balance":           {"ЕдиницаИзмерения", "КоличествоОстаток", "Номенклатура", "НоменклатураНаименование", "Счет", "СуммаОстаток"},
	"catalog.nomenclature":            {"ЕдиницаИзмерения", "Код", "Наименование", "НаименованиеПолное", "ПометкаУдаления", "Ссылка"},
}

func TestQueryRegistry(t *testing.T) {
	if diff := gocmp.Diff(wantIDs, onec.QueryIDs()); diff != "" {
		t.Fatalf("QueryIDs() (-want +got):\n%s", diff)
	}
	paramRef := regexp.MustCompile(`&([\p{L}\p{N}_]+)`)
	seen := map[string]string{}
	for _, id := range wantIDs {
		text, ok := onec.Query(id)
		if !ok {
			t.Fatalf("Query(%q) missing", id)
		}
		if got, ok := onec.QueryID(text); !ok || got != id {
			t.Errorf("QueryID(Query(%q)) = %q, %v", id, got, ok)
		}
		if other, dup := seen[text]; dup {
			t.Errorf("%s and %s share a text", id, other)
		}
		seen[text] = id
		if !strings.HasPrefix(text, "// finbot: "+id+"\n") || strings.TrimSpace(text) != text {
			t.Errorf("%s: text must start with its header line and carry no outer whitespace", id)
		}
		// Parameters are bound, never spliced in: no concatenation next to a parameter.
		if regexp.MustCompile(`\+\s*&|&[\p{L}_]+\s*\+`).MatchString(text) {
			t.Errorf("%s concatenates a parameter", id)
		}
		params, _ := onec.QueryParams(id)
		if diff := gocmp.Diff(wantParams[id], params, cmpEmpty); diff != "" {
			t.Errorf("QueryParams(%s) (-want +got):\n%s", id, diff)
		}
		var used []string
		for _, m := range paramRef.FindAllStringSubmatch(text, -1) {
			if !slices.Contains(used, m[1]) {
				used = append(used, m[1])
			}
		}
		slices.Sort(used)
		declared := slices.Sorted(slices.Values(params))
		if diff := gocmp.Diff(declared, used, cmpEmpty); diff != "" {
			t.Errorf("%s: &parameters in the text differ from QueryParams (-declared +used):\n%s", id, diff)
		}
		for _, key := range wantKeys[id] {
			if !strings.Contains(text, "КАК "+key+",") && !strings.Contains(text, "КАК "+key+"\n") {
				t.Errorf("%s: no column aliased КАК %s", id, key)
			}
		}
	}
	if _, ok := onec.Query("address.nonexistent"); ok {
		t.Error("Query of an unknown ID succeeded")
	}
	if _, ok := onec.QueryID("ВЫБРАТЬ 1"); ok {
		t.Error("QueryID of an unknown text succeeded")
	}
}

var cmpEmpty = gocmp.Transformer("nilToEmpty", func(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
})

// The templates as reviewers read them: go test -update rewrites testdata/queries.golden.
func TestQueryTextsGolden(t *testing.T) {
	var b strings.Builder
	for _, id := range onec.QueryIDs() {
		text, _ := onec.Query(id)
		params, _ := onec.QueryParams(id)
		b.WriteString("==== " + id + " (" + strings.Join(params, ", ") + ")\n" + text + "\n\n")
	}
	golden.Check(t, filepath.Join("testdata", "queries.golden"), b.String())
}

// Every template answers with exactly its declared row keys.
func TestRowKeys(t *testing.T) {
	l, d, _ := fixture(t)
	org := l.DefaultOrganization()
	// The busiest customer contract of the default organization, so that every template has rows.
	docs := map[string]int{}
	for _, doc := range l.Documents {
		docs[doc.ContractRef]++
	}
	var ctr onec.Contract
	for _, c := range l.Contracts {
		if c.OrganizationRef == org.Ref && c.Kind == "with_customer" && docs[c.Ref] > docs[ctr.Ref] {
			ctr = c
		}
	}
	params := map[string]any{ // a template ignores the parameters it does not use, as 1C does
		"НаДату": "2026-01-01T00:00:00", "НачалоПериода": "2025-01-01T00:00:00", "КонецПериода": "2025-12-31T23:59:59",
		"Организация": ref(onec.TypeOrganization, org.Ref), "Контрагент": ref(onec.TypeCounterparty, ctr.OwnerRef),
		"Договор": ref(onec.TypeContract, ctr.Ref), "СчетКод": "62", "СчетМаска": "62.%", "ТипДокумента": "", "ПослеКода": "",
		"СрокОплатыПоУмолчанию": 0, "Разрез": onec.AgingByContract, "Номенклатура": nil,
	}
	for i, d := range []string{"2026-01-01", "2025-12-02", "2025-11-02", "2025-10-03", "2025-10-03", "2025-10-03", "2025-10-03"} {
		params[onec.AgingBoundParam(i)] = d + "T00:00:00"
	}
	qd := onec.NewDemo(onec.QuantityLedger())
	qparams := map[string]any{"НаДату": "2025-03-01T00:00:00", "Организация": ref(onec.TypeOrganization, onec.QuantityLedger().DefaultOrganization().Ref),
		"СчетКод": "", "СчетМаска": "%", "Номенклатура": nil, "ПослеКода": ""}
	for _, id := range wantIDs {
		p := params
		if id == "address.offsets.candidates" {
			// the customer with the most documents sells us nothing: every counterparty on both sides
			p = maps.Clone(params)
			p["Контрагент"] = nil
		}
		rows := run(t, d, id, p)
		if quantityTemplates[id] {
			if len(rows) != 0 {
				t.Errorf("%s: %d rows on the default demo, which keeps no quantities", id, len(rows))
			}
			rows = run(t, qd, id, qparams)
		}
		if len(rows) == 0 {
			t.Errorf("%s: no rows; pick another anchor", id)
			continue
		}
		for _, row := range rows {
			if diff := gocmp.Diff(sortedKeys(wantKeys[id]), rowKeys(row)); diff != "" {
				t.Fatalf("%s keys (-want +got):\n%s", id, diff)
			}
		}
	}
}

func TestDemoRejectsAnyOtherText(t *testing.T) {
	_, d, _ := fixture(t)
	receivables, _ := onec.Query("address.receivables.counterparty_totals")
	catalog, _ := onec.Query("catalog.organizations")
	tests := []struct {
		name, text string
	}{
		{"foreign query", "ВЫБРАТЬ * ИЗ Справочник.Пользователи"},
		{"one extra space", strings.Replace(receivables, "ИЗ\n", "ИЗ \n", 1)},
		{"trailing space", catalog + " "},
		{"leading newline", "\n" + catalog},
		{"truncated", catalog[:len(catalog)-5]},
		{"a write", "УДАЛИТЬ ИЗ Справочник.Контрагенты"},
		{"case changed", strings.Replace(catalog, "ВЫБРАТЬ", "выбрать", 1)},
		{"template plus a second query", catalog + ";\nВЫБРАТЬ * ИЗ Справочник.Пользователи"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := d.Execute(context.Background(), tt.text, nil, 10)
			var qe *onec.QueryError
			if !errors.As(err, &qe) || !strings.Contains(qe.Message, "Синтаксическая ошибка") || rows != nil {
				t.Fatalf("Execute = %d rows, %v; want a syntax QueryError", len(rows), err)
			}
			if !regexp.MustCompile(`^\{\(\d+, \d+\)\}: `).MatchString(qe.Message) {
				t.Errorf("message %q lacks 1C's {(line, column)} position", qe.Message)
			}
		})
	}
}

// amountColumns are the money columns of the templates: never NULL, which the toolkit would send
// as "" (a missing amount is selected as 0).
var amountColumns = []string{"СуммаОстатокДт", "СуммаОстатокКт", "СуммаОборотДт", "СуммаОборотКт", "Сумма", "СуммаДокумента"}

func TestAmountsAreNumbers(t *testing.T) {
	l, d, _ := fixture(t)
	calls := sampleCalls(l)
	type call struct {
		id     string
		params map[string]any
	}
	var all []call
	for _, id := range wantIDs {
		all = append(all, call{id, calls[id]})
	}
	// Every counterparty's documents: the acts of reconciliation and the opening balances too.
	for _, cp := range l.Counterparties {
		all = append(all, call{"address.documents.by_counterparty", map[string]any{"НачалоПериода": "2024-01-01T00:00:00",
			"КонецПериода": "2026-12-31T23:59:59", "Организация": ref(onec.TypeOrganization, l.DefaultOrganization().Ref),
			"Контрагент": ref(onec.TypeCounterparty, cp.Ref), "ТипДокумента": ""}})
	}
	seen := map[string]bool{}
	for _, c := range all {
		q, _ := onec.Query(c.id)
		rows, err := d.Execute(context.Background(), q, c.params, onec.MaxProxyRows)
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		for _, row := range rows {
			if r, ok := onec.RefOf(row["Ссылка"]); ok {
				seen[r.Type] = true
			}
			for _, col := range amountColumns {
				if v, has := row[col]; has {
					money(t, v) // fails unless a json.Number in the toolkit's form
				}
			}
		}
	}
	for _, typ := range []string{"АктСверкиВзаиморасчетов", "ВводНачальныхОстатков"} {
		if !seen[onec.TypeDocumentPrefix+typ] {
			t.Errorf("no %s among the documents read; widen the sample", typ)
		}
	}
}

// Every optional parameter, given and absent (JSON null, 1C's Null): absent it filters nothing,
// given it filters. A guard that Null does not pass (= НЕОПРЕДЕЛЕНО) empties the absent case.
func TestOptionalParametersBothWays(t *testing.T) {
	l, d, _ := fixture(t)
	calls := sampleCalls(l)
	var ctr onec.Contract
	for _, c := range l.Contracts {
		if c.OrganizationRef == l.DefaultOrganization().Ref && c.Kind == "with_customer" {
			ctr = c
			break
		}
	}
	cp, contract := ref(onec.TypeCounterparty, ctr.OwnerRef), ref(onec.TypeContract, ctr.Ref)
	var stranger map[string]any // a counterparty with no business under ctr
	for _, c := range l.Counterparties {
		if c.Ref != ctr.OwnerRef {
			stranger = ref(onec.TypeCounterparty, c.Ref)
			break
		}
	}
	tests := []struct {
		id, param string
		given     any    // a value the rows may all carry
		other     any    // a value that must filter rows out
		column    string // a row column that must carry the given value ("" to skip)
	}{
		{"address.open_contracts.by_asof", "Контрагент", cp, stranger, "Контрагент"},
		{"address.open_items.by_counterparty", "Договор", contract, ref(onec.TypeContract, "00000000-0000-4000-8000-000000000000"), "Договор"},
		{"address.open_items.by_contract", "Контрагент", cp, stranger, "Контрагент"},
		{"address.bank_ops.by_counterparty", "НачалоПериода", "2024-01-01T00:00:00", "2025-07-01T00:00:00", ""},
		{"address.bank_ops.by_counterparty", "КонецПериода", "2026-12-31T23:59:59", "2025-03-31T23:59:59", ""},
		{"address.balance.drilldown_documents", "Контрагент", cp, stranger, ""},
		{"address.balance.drilldown_documents", "Договор", contract, stranger, ""},
	}
	for _, tt := range tests {
		t.Run(tt.id+"/"+tt.param, func(t *testing.T) {
			q, _ := onec.Query(tt.id)
			base := maps.Clone(calls[tt.id])
			base["Контрагент"], base["Договор"], base["НачалоПериода"], base["КонецПериода"] = nil, nil, nil, nil
			if tt.id == "address.open_items.by_counterparty" {
				base["Контрагент"] = cp
			}
			if tt.id == "address.open_items.by_contract" {
				base["Договор"] = contract
			}
			if tt.id == "address.bank_ops.by_counterparty" {
				base["Контрагент"] = cp
			}
			absent, err := d.Execute(context.Background(), q, base, onec.MaxDemoRows)
			if err != nil || len(absent) == 0 {
				t.Fatalf("%s null: %d rows, %v; want rows (null must mean no filter)", tt.param, len(absent), err)
			}
			given := maps.Clone(base)
			given[tt.param] = tt.other
			rows, err := d.Execute(context.Background(), q, given, onec.MaxDemoRows)
			if err != nil || len(rows) >= len(absent) {
				t.Fatalf("%s = %v: %d rows, %v; want fewer than the %d without it", tt.param, tt.other, len(rows), err, len(absent))
			}
			given[tt.param] = tt.given
			rows, err = d.Execute(context.Background(), q, given, onec.MaxDemoRows)
			if err != nil || len(rows) == 0 {
				t.Fatalf("%s given: %d rows, %v; want some", tt.param, len(rows), err)
			}
			if tt.column == "" {
				return
			}
			want, _ := onec.RefOf(map[string]any(tt.given.(map[string]any)))
			for _, row := range rows {
				if got, _ := onec.RefOf(row[tt.column]); got.UUID != want.UUID {
					t.Fatalf("row with %s %v, want %s", tt.column, row[tt.column], want.UUID)
				}
			}
		})
	}
}

// The register's records are filtered in 1C before they are ordered: the account, the
// counterparty and the contract stand in ДвиженияССубконто's condition parameter (no ГДЕ), and
// the order is BP's card's — Период, then the registrar itself, then the record's line —
// never a field dereferenced through Регистратор (Регистратор.Номер joins every document table
// of the register and is each document type's own numbering).
func TestRegisterRecordsFilteredAndOrderedInTheVirtualTable(t *testing.T) {
	for _, tt := range []struct {
		id    string
		order []string
	}{
		{"address.account_card.movements", []string{"Период", "Регистратор", "НомерСтроки"}},
		{"register.movements", []string{"Период УБЫВ", "Регистратор УБЫВ", "НомерСтроки"}},
	} {
		t.Run(tt.id, func(t *testing.T) {
			text, _ := onec.Query(tt.id)
			b, err := qlang.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			q := b.Queries[len(b.Queries)-1]
			var order []string
			for _, o := range q.OrderBy {
				s := qlang.Format(o.Expr)
				if o.Desc {
					s += " УБЫВ"
				}
				order = append(order, s)
			}
			if !slices.Equal(order, tt.order) {
				t.Errorf("УПОРЯДОЧИТЬ ПО %v, want %v", order, tt.order)
			}
			sel := q.Selects[0]
			if sel.Where != nil {
				t.Errorf("ГДЕ %s: the conditions belong in the virtual table's parameter", qlang.Format(sel.Where))
			}
			src := sel.Sources()[0]
			if len(src.Params) < 3 || src.Params[2] == nil {
				t.Fatalf("ДвиженияССубконто without a condition: %v", src.Params)
			}
			cond := qlang.Format(src.Params[2])
			for _, want := range []string{"СчетДт.Код", "СчетКт.Код", "СубконтоДт2 = &Контрагент", "СубконтоКт3 = &Контрагент"} {
				if !strings.Contains(cond, want) {
					t.Errorf("the condition has no %s: %s", want, cond)
				}
			}
		})
	}
}
