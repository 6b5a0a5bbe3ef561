package onec

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// The demo base reads the text it is sent, so a template that would misbehave on a real base
// misbehaves here too. Each case sends a variant of a whitelisted template (the defect the
// templates once had, or a shape the demo must refuse) through the same path Execute takes.

var (
	standinOnce sync.Once
	standinDemo *Demo
	standinErr  error
)

func standin(t *testing.T) *Demo {
	t.Helper()
	standinOnce.Do(func() {
		l, err := LoadDemo()
		if err != nil {
			standinErr = err
			return
		}
		standinDemo = NewDemo(l)
	})
	if standinErr != nil {
		t.Fatal(standinErr)
	}
	return standinDemo
}

// demoParams are parameters under which every template has rows: the main organization, its
// busiest customer contract and that contract's owner.
func demoParams(d *Demo) map[string]any {
	org := d.l.DefaultOrganization()
	docs := map[string]int{}
	for _, doc := range d.l.Documents {
		docs[doc.ContractRef]++
	}
	var ctr Contract
	for _, c := range d.l.Contracts {
		if c.OrganizationRef == org.Ref && c.Kind == "with_customer" && docs[c.Ref] > docs[ctr.Ref] {
			ctr = c
		}
	}
	ref := func(typ, uuid string) map[string]any { return Ref{UUID: uuid, Type: typ}.Param() }
	return map[string]any{
		"НаДату": "2026-04-01T00:00:00", "НачалоПериода": "2024-01-01T00:00:00", "КонецПериода": "2026-12-31T23:59:59",
		"Организация": ref(TypeOrganization, org.Ref), "Контрагент": ref(TypeCounterparty, ctr.OwnerRef),
		"Договор": ref(TypeContract, ctr.Ref), "СчетКод": "62", "СчетМаска": "62.%", "ТипДокумента": "",
	}
}

func with(p map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(p))
	for k, v := range p {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// mutate replaces old by repl in a template's text, once at least.
func mutate(t *testing.T, id, old, repl string) (*template, string) {
	t.Helper()
	tpl := templateByID[id]
	if !strings.Contains(tpl.text, old) {
		t.Fatalf("%s has no %q", id, old)
	}
	return tpl, strings.ReplaceAll(tpl.text, old, repl)
}

// Under 1C's Null semantics an absent anchor passed as null is never Неопределено: the old guard
// (&X = НЕОПРЕДЕЛЕНО ИЛИ …) filters by Поле = Null and finds nothing, while ЕСТЬ NULL lets
// every row through. Both texts run; the figures differ exactly as they would on a real base.
func TestStandInNullSemanticsOfGuards(t *testing.T) {
	d := standin(t)
	p := demoParams(d)
	tests := []struct {
		id, param string
		old, repl string
	}{
		{idOpenContracts, "Контрагент", "&Контрагент ЕСТЬ NULL", "&Контрагент = НЕОПРЕДЕЛЕНО"},
		{idOpenItemsByParty, "Договор", "&Договор ЕСТЬ NULL", "&Договор = НЕОПРЕДЕЛЕНО"},
		{idOpenItemsByTreaty, "Контрагент", "&Контрагент ЕСТЬ NULL", "&Контрагент = НЕОПРЕДЕЛЕНО"},
		{idBalanceDrilldown, "Контрагент", "&Контрагент ЕСТЬ NULL", "&Контрагент = НЕОПРЕДЕЛЕНО"},
		{idBalanceDrilldown, "Договор", "&Договор ЕСТЬ NULL", "&Договор = НЕОПРЕДЕЛЕНО"},
		{idBankOpsByParty, "НачалоПериода", "&НачалоПериода ЕСТЬ NULL", "&НачалоПериода = НЕОПРЕДЕЛЕНО"},
		{idBankOpsByParty, "КонецПериода", "&КонецПериода ЕСТЬ NULL", "&КонецПериода = НЕОПРЕДЕЛЕНО"},
	}
	for _, tt := range tests {
		t.Run(tt.id+"/"+tt.param, func(t *testing.T) {
			absent := with(p, tt.param, nil)
			tpl, broken := mutate(t, tt.id, tt.old, tt.repl)
			good, err := d.query(context.Background(), tpl, tpl.text, absent, MaxDemoRows)
			if err != nil || len(good) == 0 {
				t.Fatalf("ЕСТЬ NULL guard, %s null: %d rows, %v; want rows", tt.param, len(good), err)
			}
			bad, err := d.query(context.Background(), tpl, broken, absent, MaxDemoRows)
			if err != nil || len(bad) != 0 {
				t.Errorf("НЕОПРЕДЕЛЕНО guard, %s null: %d rows, %v; want none (Null is not Неопределено)", tt.param, len(bad), err)
			}
			// With the parameter given, the two guards agree.
			g, err1 := d.query(context.Background(), tpl, tpl.text, p, MaxDemoRows)
			b, err2 := d.query(context.Background(), tpl, broken, p, MaxDemoRows)
			if err1 != nil || err2 != nil || len(g) != len(b) || len(g) == 0 {
				t.Errorf("%s given: %d rows (%v) vs %d rows (%v); want the same, non-zero", tt.param, len(g), err1, len(b), err2)
			}
		})
	}
}

// A filter by a Null (Поле = &X with X null, no guard) matches nothing; an unguarded required
// anchor passed as null empties the answer, as on a real base.
func TestStandInFilterByNullMatchesNothing(t *testing.T) {
	d := standin(t)
	p := demoParams(d)
	for _, id := range []string{idReceivables, idOpenItemsByParty, idDocumentsByParty, idBalanceDrilldown} {
		tpl := templateByID[id]
		rows, err := d.query(context.Background(), tpl, tpl.text, with(p, "Организация", nil), MaxDemoRows)
		if err != nil || len(rows) != 0 {
			t.Errorf("%s with Организация null: %d rows, %v; want none", id, len(rows), err)
		}
	}
}

// The demo refuses what BP 3.0 lacks and what the ledger does not keep, loudly. (Conditions and
// orders the old per-template engine refused are now run as written: eval_test.go.)
func TestStandInRefuses(t *testing.T) {
	d := standin(t)
	p := demoParams(d)
	tests := []struct {
		name, id, old, repl, want string
	}{
		{"a document BP 3.0 lacks", idDocumentsByParty, "Документ.ВводНачальныхОстатков.РасчетыСКонтрагентами", "Документ.ВводОстатков",
			`Таблица не найдена "Документ.ВводОстатков"`},
		{"a header field the act of reconciliation lacks", idDocumentsByParty, "0 КАК СуммаДокумента", "Док.СуммаДокумента КАК СуммаДокумента",
			`Поле не найдено "Док.СуммаДокумента"`},
		{"a header field of the opening balances", idDocumentsByTreaty, "Стр.Ссылка.Организация КАК", "Стр.Ссылка.Контрагент КАК",
			`Поле не найдено "Стр.Ссылка.Контрагент"`},
		{"a line field the settlement lines lack", idDocumentsByParty, "Строки.СуммаКт", "Строки.СуммаДокумента",
			`Поле не найдено "Строки.СуммаДокумента"`},
		{"order by a field of a column", idBalanceDrilldown, "\tКонтрагентНаименование,\n\tДоговорНаименование,\n\tДокументРасчетовДата",
			"\tКонтрагент.Наименование,\n\tДоговорНаименование,\n\tДокументРасчетовДата", "только по выбранным колонкам"},
		{"a column the demo base does not keep", idCatalogOrgs, "Организации.КПП КАК КПП", "Организации.КПП КАК КПП,\n\tОрганизации.Код КАК Код",
			`Поле не найдено "Организации.Код"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, text := mutate(t, tt.id, tt.old, tt.repl)
			rows, err := d.query(context.Background(), tpl, text, p, 100)
			var qe *QueryError
			if !errors.As(err, &qe) || !strings.Contains(qe.Message, tt.want) {
				t.Fatalf("query = %d rows, %v; want a QueryError with %q", len(rows), err, tt.want)
			}
			if !strings.HasPrefix(qe.Message, "{(") {
				t.Errorf("message %q lacks 1C's {(line, column)} position", qe.Message)
			}
		})
	}
}

// A constant column is answered as written: NULL as the toolkit writes it (""), a number as a
// number; Предопределенный of an organization is false, as in every BP 3.0 base.
func TestStandInConstantColumns(t *testing.T) {
	d := standin(t)
	p := demoParams(d)
	tpl, text := mutate(t, idDocumentsByParty, "0 КАК СуммаДокумента", "NULL КАК СуммаДокумента")
	rows, err := d.query(context.Background(), tpl, text, p, MaxDemoRows)
	if err != nil {
		t.Fatal(err)
	}
	acts := 0
	for _, r := range rows {
		if ref, _ := RefOf(r["Ссылка"]); ref.Type == TypeDocumentPrefix+reconciliationType {
			acts++
			if r["СуммаДокумента"] != WireNull {
				t.Errorf("act %v: СуммаДокумента = %#v, want the toolkit's NULL \"\"", ref.Presentation, r["СуммаДокумента"])
			}
		}
	}
	if acts == 0 {
		t.Fatal("no act of reconciliation among the rows; pick another counterparty")
	}

	tpl, text = mutate(t, idCatalogOrgs, "Организации.КПП КАК КПП", "Организации.КПП КАК КПП,\n\tОрганизации.Предопределенный КАК Основная")
	rows, err = d.query(context.Background(), tpl, text, nil, 10)
	if err != nil || len(rows) != len(d.l.Organizations) {
		t.Fatalf("organizations with Предопределенный: %d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		if r["Основная"] != false {
			t.Errorf("%v: Основная = %v, want false (BP has no predefined organizations)", r["Наименование"], r["Основная"])
		}
	}
}
