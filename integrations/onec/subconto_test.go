package onec

import (
	"context"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
)

// A hand-made ledger with subconto of the kinds the default demo has none of: employees on
// 71.01 (РаботникиОрганизаций, the catalog ФизическиеЛица), and 98.01 whose counterparty is its
// second subconto. Its records list 98.01's subconto in another order than the chart, which
// the demo must put in the chart's.
const (
	hmOrg      = "00000000-0000-0000-0000-0000000000a1"
	hmAlfa     = "00000000-0000-0000-0000-0000000000c1"
	hmBeta     = "00000000-0000-0000-0000-0000000000c2"
	hmContract = "00000000-0000-0000-0000-0000000000d1"
	hmIvanov   = "00000000-0000-0000-0000-0000000000e1"
	hmPetrova  = "00000000-0000-0000-0000-0000000000e2"
	hmSidorov  = "00000000-0000-0000-0000-0000000000e3"
	hmRent     = "00000000-0000-0000-0000-0000000000f1"
	hmSale     = "00000000-0000-0000-0000-0000000000b1"
)

func handMadeLedger() *Ledger {
	at := func(s string) LocalTime {
		t, err := time.Parse("2006-01-02T15:04:05", s)
		if err != nil {
			panic(err)
		}
		return LocalTime{t}
	}
	emp := func(ref, name string) []Subconto {
		return []Subconto{{Kind: "РаботникиОрганизаций", Ref: ref, Name: name}}
	}
	deferred := []Subconto{{Kind: "Контрагенты", Ref: hmAlfa}, {Kind: "ДоходыБудущихПериодов", Ref: hmRent, Name: "Аренда склада, предоплата"}}
	settlement := []Subconto{{Kind: "Контрагенты", Ref: hmAlfa}, {Kind: "ДоговорыКонтрагентов", Ref: hmContract},
		{Kind: "ДокументыРасчетовСКонтрагентами", Ref: hmSale}}
	mv := func(period, rec string, line int, dr string, sdr []Subconto, cr string, scr []Subconto, amount Kopecks) Movement {
		return Movement{Period: at(period), RecorderRef: rec, RecorderType: "ОперацияБух", Line: line, OrganizationRef: hmOrg,
			AccountDr: dr, AccountCr: cr, SubcontoDr: sdr, SubcontoCr: scr, Amount: amount}
	}
	const (
		opening = "00000000-0000-0000-0000-000000000101"
		jan     = "00000000-0000-0000-0000-000000000102"
	)
	return &Ledger{
		Organizations:  []Organization{{Ref: hmOrg, Name: "ООО «Ромашка»", INN: "7700000001", Default: true}},
		Counterparties: []Counterparty{{Ref: hmAlfa, Name: "ООО «Альфа»", Kind: "legal"}, {Ref: hmBeta, Name: "ООО «Бета»", Kind: "legal"}},
		Contracts:      []Contract{{Ref: hmContract, OwnerRef: hmAlfa, OrganizationRef: hmOrg, Number: "1", Date: "2024-01-10", Name: "Договор № 1", Kind: "with_customer", Currency: "RUB"}},
		Accounts: []Account{
			{Code: "000", Name: "Вспомогательный счет", Type: "active_passive", Subconto: []string{}},
			{Code: "50.01", Name: "Касса организации", Type: "active", Subconto: []string{}},
			{Code: "62.01", Name: "Расчеты с покупателями и заказчиками", Type: "active",
				Subconto: []string{"Контрагенты", "ДоговорыКонтрагентов", "ДокументыРасчетовСКонтрагентами"}},
			{Code: "71.01", Name: "Расчеты с подотчетными лицами", Type: "active_passive", Subconto: []string{"РаботникиОрганизаций"}},
			{Code: "90.01.1", Name: "Выручка", Type: "passive", Subconto: []string{}},
			{Code: "91.01", Name: "Прочие доходы", Type: "passive", Subconto: []string{}},
			{Code: "98.01", Name: "Доходы, полученные в счет будущих периодов", Type: "passive",
				Subconto: []string{"ДоходыБудущихПериодов", "Контрагенты"}},
		},
		Movements: []Movement{
			// Opening balances: Иванов owes 5 000,00, the company owes Петрова 3 000,00.
			mv("2024-12-31T23:59:59", opening, 1, "71.01", emp(hmIvanov, "Иванов Иван Иванович"), "000", nil, 500000),
			mv("2024-12-31T23:59:59", opening, 2, "000", nil, "71.01", emp(hmPetrova, "Петрова Анна Сергеевна"), 300000),
			mv("2025-01-15T10:00:00", jan, 1, "71.01", emp(hmPetrova, ""), "50.01", nil, 300000),
			mv("2025-01-15T10:00:00", jan, 2, "50.01", nil, "71.01", emp(hmIvanov, ""), 100000),
			mv("2025-01-20T10:00:00", jan, 3, "50.01", nil, "71.01", emp(hmSidorov, "Сидоров Пётр"), 70000),
			// Alfa pays rent ahead (98.01, the counterparty second) and is billed on 62.01.
			mv("2025-01-10T12:00:00", jan, 4, "50.01", nil, "98.01", deferred, 1200000),
			mv("2025-01-31T12:00:00", jan, 5, "98.01", deferred, "91.01", nil, 100000),
			mv("2025-01-31T12:00:00", jan, 6, "62.01", settlement, "90.01.1", nil, 50000),
		},
	}
}

// Every side keeps its subconto typed by the chart's kinds, in the chart's order: an employee
// is a Справочник.ФизическиеЛица with the name the record gives, 98.01's counterparty is its
// Субконто2 although the record lists it first.
func TestSubcontoOfAnyKind(t *testing.T) {
	d := NewDemo(handMadeLedger())
	type got struct {
		Acc  string
		Subs [3]any
	}
	var rows []got
	for i := range d.movs {
		m := &d.movs[i]
		for s := dt; s <= kt; s++ {
			g := got{Acc: d.accounts[m.acc[s]]}
			for p := range 3 {
				v, err := d.wire(d.subconto(m, s, p, nil))
				if err != nil {
					t.Fatal(err)
				}
				if r, ok := RefOf(v); ok {
					v = r.Type + " " + r.Presentation
				}
				g.Subs[p] = v
			}
			rows = append(rows, g)
		}
	}
	find := func(acc string) []got {
		var out []got
		for _, r := range rows {
			if r.Acc == acc {
				out = append(out, r)
			}
		}
		return out
	}
	employees := []got{
		{"71.01", [3]any{"СправочникСсылка.ФизическиеЛица Иванов Иван Иванович", WireNull, WireNull}},
		{"71.01", [3]any{"СправочникСсылка.ФизическиеЛица Петрова Анна Сергеевна", WireNull, WireNull}},
		{"71.01", [3]any{"СправочникСсылка.ФизическиеЛица Петрова Анна Сергеевна", WireNull, WireNull}},
		{"71.01", [3]any{"СправочникСсылка.ФизическиеЛица Иванов Иван Иванович", WireNull, WireNull}},
		{"71.01", [3]any{"СправочникСсылка.ФизическиеЛица Сидоров Пётр", WireNull, WireNull}},
	}
	if diff := gocmp.Diff(employees, find("71.01")); diff != "" {
		t.Errorf("71.01 subconto (-want +got):\n%s", diff)
	}
	deferred := got{"98.01", [3]any{"СправочникСсылка.ДоходыБудущихПериодов Аренда склада, предоплата",
		"СправочникСсылка.Контрагенты ООО «Альфа»", WireNull}}
	if diff := gocmp.Diff([]got{deferred, deferred}, find("98.01")); diff != "" {
		t.Errorf("98.01 subconto (-want +got):\n%s", diff)
	}

	// ССЫЛКА and the fields of a reference of a kind the ledger keeps no catalog of.
	emp := d.subconto(&d.movs[0], dt, 0, nil)
	for _, tc := range []struct {
		table string
		want  bool
	}{{"Справочник.ФизическиеЛица", true}, {"Справочник.Контрагенты", false}, {"Справочник.РаботникиОрганизаций", false}} {
		if got := emp.t == tOther && foldName(emp.s) == foldName(tc.table); got != tc.want {
			t.Errorf("employee ССЫЛКА %s = %v, want %v", tc.table, got, tc.want)
		}
	}
	if v, err := d.field(emp, "НАИМЕНОВАНИЕ"); err != nil || v != strVal("Иванов Иван Иванович") {
		t.Errorf("employee Наименование = %v, %v", v, err)
	}
	// Through a query: the sheet by counterparty, its ССЫЛКА test turned to employees, reads
	// them and their names.
	tpl, text := mutate(t, idSheetByCounterparty, "ОиО.Субконто1 ССЫЛКА Справочник.Контрагенты", "ОиО.Субконто1 ССЫЛКА Справочник.ФизическиеЛица")
	params := map[string]any{"НачалоПериода": "2025-01-01T00:00:00", "КонецПериода": "2025-01-31T23:59:59",
		"Организация": Ref{UUID: hmOrg, Type: TypeOrganization}.Param(), "СчетКод": "71.01", "СчетМаска": "71.01.%", "Контрагент": nil}
	out, err := d.query(context.Background(), tpl, text, params, MaxDemoRows)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		Name                                     any
		OpenDt, OpenKt, Dt, Kt, CloseDt, CloseKt any
	}
	var gotLines []line
	for _, r := range out {
		gotLines = append(gotLines, line{r["КонтрагентНаименование"], r["НачальныйОстатокДт"], r["НачальныйОстатокКт"],
			r["ОборотДт"], r["ОборотКт"], r["КонечныйОстатокДт"], r["КонечныйОстатокКт"]})
	}
	n := func(s string) any { return WireNumber(mustKopecks(t, s)) }
	want := []line{
		{"Иванов Иван Иванович", n("5000"), n("0"), n("0"), n("1000"), n("4000"), n("0")},
		{"Петрова Анна Сергеевна", n("0"), n("3000"), n("3000"), n("0"), n("0"), n("0")},
		{"Сидоров Пётр", n("0"), n("0"), n("0"), n("700"), n("0"), n("700")},
	}
	if diff := gocmp.Diff(want, gotLines); diff != "" {
		t.Errorf("71.01 by employee (-want +got):\n%s", diff)
	}
}

func mustKopecks(t *testing.T, s string) Kopecks {
	t.Helper()
	k, err := ParseKopecks(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
