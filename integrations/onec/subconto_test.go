package onec

import (
	"context"
	"fmt"
	"strings"
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

// sheetCalc is the turnover sheet computed from the hand-made ledger's records directly, by
// BP's expanded-balance rules: per account, a cell is a combination of all its subconto on 68,
// 69, 70, 71 and 73.03, a counterparty and contract on 60, 62 and 76, the account itself
// elsewhere; a cell's net balance goes to Дт when positive and to Кт when negative.
func sheetCalc(l *Ledger, from, to time.Time, party string) map[string][6]Kopecks {
	type key struct{ acc, cell string }
	type figs struct{ open, dt, kt Kopecks }
	cells := map[key]*figs{}
	expanded := func(acc string) bool {
		for _, p := range []string{"68", "69", "70", "71", "73.03"} {
			if acc == p || strings.HasPrefix(acc, p+".") {
				return true
			}
		}
		return false
	}
	for _, m := range l.Movements {
		for s, acc := range []string{m.AccountDr, m.AccountCr} {
			subs := [][]Subconto{m.SubcontoDr, m.SubcontoCr}[s]
			cell := ""
			hasParty := false
			for _, sc := range subs {
				hasParty = hasParty || sc.Kind == "Контрагенты" && sc.Ref == party
				switch {
				case expanded(acc):
					cell += sc.Kind + "=" + sc.Ref + ";"
				case sc.Kind == "Контрагенты" || sc.Kind == "ДоговорыКонтрагентов":
					cell += sc.Ref + ";"
				}
			}
			if party != "" && !hasParty {
				continue
			}
			k := key{acc, cell}
			f := cells[k]
			if f == nil {
				f = &figs{}
				cells[k] = f
			}
			sign := Kopecks(1 - 2*s)
			switch p := m.Period.Time; {
			case p.Before(from):
				f.open += sign * m.Amount
			case p.After(to):
			case s == 0:
				f.dt += m.Amount
			default:
				f.kt += m.Amount
			}
		}
	}
	split := func(net Kopecks) (Kopecks, Kopecks) { return max(net, 0), max(-net, 0) }
	out := map[string][6]Kopecks{}
	for k, f := range cells {
		if f.open == 0 && f.dt == 0 && f.kt == 0 {
			continue
		}
		r := out[k.acc]
		od, ok := split(f.open)
		cd, ck := split(f.open + f.dt - f.kt)
		r[0], r[1], r[2], r[3], r[4], r[5] = r[0]+od, r[1]+ok, r[2]+f.dt, r[3]+f.kt, r[4]+cd, r[5]+ck
		out[k.acc] = r
	}
	return out
}

func sheetOf(t *testing.T, d *Demo, id, account, party string) map[string][6]Kopecks {
	t.Helper()
	code, mask := account, account+".%"
	if account == "" {
		code, mask = "", "%"
	}
	var cp any
	if party != "" {
		cp = Ref{UUID: party, Type: TypeCounterparty}.Param()
	}
	q, _ := Query(id)
	rows, err := d.Execute(context.Background(), q, map[string]any{"НачалоПериода": "2025-01-01T00:00:00",
		"КонецПериода": "2025-01-31T23:59:59", "Организация": Ref{UUID: hmOrg, Type: TypeOrganization}.Param(),
		"СчетКод": code, "СчетМаска": mask, "Контрагент": cp}, MaxDemoRows)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][6]Kopecks{}
	for _, r := range rows {
		var f [6]Kopecks
		for i, col := range []string{"НачальныйОстатокДт", "НачальныйОстатокКт", "ОборотДт", "ОборотКт", "КонечныйОстатокДт", "КонечныйОстатокКт"} {
			f[i] = mustKopecks(t, fmt.Sprint(r[col]))
		}
		key, _ := r["Счет"].(string)
		if id == idSheetByCounterparty {
			key = fmt.Sprint(r["КонтрагентНаименование"])
		}
		out[key] = f
	}
	return out
}

// BP's «развёрнутое сальдо»: two employees on 71.01, one owing 5 000,00 and one owed
// 3 000,00, open the month at Дт 5 000,00 and Кт 3 000,00, not at Дт 2 000,00; a third
// employee's overspending closes it at Кт 700,00 beside Иванов's Дт 4 000,00.
func TestTurnoverSheetExpandedBySubconto(t *testing.T) {
	l := handMadeLedger()
	d := NewDemo(l)
	from, to := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 1, 31, 23, 59, 59, 0, time.UTC)
	got := sheetOf(t, d, idSheetByAccount, "", "")
	if diff := gocmp.Diff(sheetCalc(l, from, to, ""), got); diff != "" {
		t.Errorf("sheet (-calculation +demo):\n%s", diff)
	}
	want71 := [6]Kopecks{500000, 300000, 300000, 170000, 400000, 70000}
	if got["71.01"] != want71 {
		t.Errorf("71.01 = %v, want %v", got["71.01"], want71)
	}
	if got := sheetOf(t, d, idSheetByAccount, "71", ""); got["71.01"] != want71 {
		t.Errorf("sheet of 71: 71.01 = %v, want %v", got["71.01"], want71)
	}
}

// The counterparty's sheet finds it whichever subconto holds it: 98.01 keeps it second.
func TestTurnoverSheetOfCounterpartyInAnySubconto(t *testing.T) {
	l := handMadeLedger()
	d := NewDemo(l)
	from, to := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 1, 31, 23, 59, 59, 0, time.UTC)
	got := sheetOf(t, d, idSheetByAccount, "", hmAlfa)
	want := sheetCalc(l, from, to, hmAlfa)
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("sheet of ООО «Альфа» (-calculation +demo):\n%s", diff)
	}
	if w := [6]Kopecks{0, 0, 100000, 1200000, 0, 1100000}; got["98.01"] != w {
		t.Errorf("98.01 of ООО «Альфа» = %v, want %v", got["98.01"], w)
	}
	if got := sheetOf(t, d, idSheetByAccount, "", hmBeta); len(got) != 0 {
		t.Errorf("sheet of ООО «Бета»: %v, want none", got)
	}
	byParty := sheetOf(t, d, idSheetByCounterparty, "98.01", "")
	if diff := gocmp.Diff(map[string][6]Kopecks{"ООО «Альфа»": {0, 0, 100000, 1200000, 0, 1100000}}, byParty); diff != "" {
		t.Errorf("98.01 by counterparty (-want +got):\n%s", diff)
	}
}

// BP's «развёрнутое сальдо» on 62 is by counterparty and contract, not by settlement document
// (the preset of Reports/ОборотноСальдоваяВедомость, «Сч 62 по субконто "Контрагенты и
// договоры"», Субконто1 and Субконто2): under contract № 1 a sale owed 1 000,00 and a payment
// that overpaid another sale by 300,00 net to Дт 700,00; contract № 2's advance of 500,00 stays
// apart, Кт 500,00. Expanded by document the sheet would show Дт 1 000,00 and Кт 800,00.
func TestTurnoverSheetExpandsSettlementsByContract(t *testing.T) {
	const (
		contract2 = "00000000-0000-0000-0000-0000000000d2"
		sale2     = "00000000-0000-0000-0000-0000000000b2"
		advance   = "00000000-0000-0000-0000-0000000000b3"
	)
	l := handMadeLedger()
	l.Contracts = append(l.Contracts, Contract{Ref: contract2, OwnerRef: hmAlfa, OrganizationRef: hmOrg, Number: "2",
		Date: "2024-06-01", Name: "Договор № 2", Kind: "with_customer", Currency: "RUB"})
	on := func(ctr, doc string) []Subconto {
		return []Subconto{{Kind: "Контрагенты", Ref: hmAlfa}, {Kind: "ДоговорыКонтрагентов", Ref: ctr},
			{Kind: "ДокументыРасчетовСКонтрагентами", Ref: doc}}
	}
	day, err := time.Parse("2006-01-02T15:04:05", "2024-12-20T10:00:00")
	if err != nil {
		t.Fatal(err)
	}
	mv := func(line int, dr string, sdr []Subconto, cr string, scr []Subconto, amount Kopecks) Movement {
		return Movement{Period: LocalTime{day}, RecorderRef: "00000000-0000-0000-0000-000000000103", RecorderType: "ОперацияБух",
			Line: line, OrganizationRef: hmOrg, AccountDr: dr, AccountCr: cr, SubcontoDr: sdr, SubcontoCr: scr, Amount: amount}
	}
	// Only 62.01 is asked, so the hand-made ledger's other records stay out of the figures;
	// its sale of 500,00 under contract № 1 on 31.01.2025 adds to the turnover and the cell.
	l.Movements = append(l.Movements,
		mv(1, "62.01", on(hmContract, sale2), "90.01.1", nil, 100000),
		mv(2, "50.01", nil, "62.01", on(hmContract, advance), 30000),
		mv(3, "50.01", nil, "62.01", on(contract2, advance), 50000),
	)
	got := sheetOf(t, NewDemo(l), idSheetByAccount, "62.01", "")
	want := [6]Kopecks{70000, 50000, 50000, 0, 120000, 50000}
	if got["62.01"] != want {
		t.Errorf("62.01 = %v, want %v (opening Дт, Кт, turnovers Дт, Кт, closing Дт, Кт)", got["62.01"], want)
	}
	from, to := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 1, 31, 23, 59, 59, 0, time.UTC)
	if calc := sheetCalc(l, from, to, "")["62.01"]; calc != want {
		t.Errorf("the calculation: 62.01 = %v, want %v", calc, want)
	}
}

// The card and the register records find a counterparty in whichever subconto holds it: on
// 98.01 ООО «Альфа» is Субконто2, and its two records (12 000,00 of rent paid ahead, 1 000,00
// recognised) are its card, with the card's totals; the counterparty columns name it. Before,
// the condition read Субконто1 only: no rows, while the totals (any subconto) had them.
func TestCardFindsTheCounterpartyInAnySubconto(t *testing.T) {
	d := NewDemo(handMadeLedger())
	alfa := Ref{UUID: hmAlfa, Type: TypeCounterparty}.Param()
	org := Ref{UUID: hmOrg, Type: TypeOrganization}.Param()
	type rec struct {
		Dt, Kt, Party string
		Sum           any
	}
	for _, tt := range []struct {
		id     string
		params map[string]any
		want   []rec
	}{
		{idCardMovements, map[string]any{"НачалоПериода": "2025-01-01T00:00:00", "КонецПериода": "2025-01-31T23:59:59",
			"Организация": org, "СчетКод": "98.01", "СчетМаска": "98.01.%", "Контрагент": alfa},
			[]rec{{"50.01", "98.01", "ООО «Альфа»", WireNumber(1200000)}, {"98.01", "91.01", "ООО «Альфа»", WireNumber(100000)}}},
		{idRegisterRecords, map[string]any{"НаДату": "2025-02-01T00:00:00", "Организация": org, "СчетКод": "98.01",
			"СчетМаска": "98.01.%", "Контрагент": alfa, "Договор": nil},
			[]rec{{"98.01", "91.01", "ООО «Альфа»", WireNumber(100000)}, {"50.01", "98.01", "ООО «Альфа»", WireNumber(1200000)}}}, // newest first
	} {
		t.Run(tt.id, func(t *testing.T) {
			q, _ := Query(tt.id)
			rows, err := d.Execute(context.Background(), q, tt.params, MaxDemoRows)
			if err != nil {
				t.Fatal(err)
			}
			var got []rec
			for _, r := range rows {
				party := r["КонтрагентДт"]
				if r["СчетКт"] == "98.01" {
					party = r["КонтрагентКт"]
				}
				p, _ := RefOf(party)
				got = append(got, rec{fmt.Sprint(r["СчетДт"]), fmt.Sprint(r["СчетКт"]), p.Presentation, r["Сумма"]})
			}
			if diff := gocmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records of 98.01 of ООО «Альфа» (-want +got):\n%s", diff)
			}
		})
	}
	// the card's totals over the same records agree with its rows
	q, _ := Query(idCardBalances)
	bal, err := d.Execute(context.Background(), q, map[string]any{"НачалоПериода": "2025-01-01T00:00:00", "КонецПериода": "2025-01-31T23:59:59",
		"Организация": org, "СчетКод": "98.01", "СчетМаска": "98.01.%", "Контрагент": alfa}, MaxDemoRows)
	if err != nil || len(bal) != 1 {
		t.Fatalf("%v, %v", bal, err)
	}
	if bal[0]["ОборотДт"] != WireNumber(100000) || bal[0]["ОборотКт"] != WireNumber(1200000) {
		t.Errorf("card totals %v, want Дт 1 000,00 Кт 12 000,00", bal[0])
	}
}
