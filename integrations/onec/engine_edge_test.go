package onec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
)

// A hand-made ledger for what the demo data never exercises: a record exactly at НаДату, a
// stray record of an unposted document, a counterparty missing from the catalog, an account
// that merely starts with the same digits, a sub-sub-account.
const (
	orgUUID     = "11111111-1111-4111-8111-111111111111"
	custUUID    = "22222222-2222-4222-8222-222222222222"
	ghostUUID   = "33333333-3333-4333-8333-333333333333"
	ctrUUID     = "44444444-4444-4444-8444-444444444444"
	lastDayDoc  = "55555555-5555-4555-8555-555555555555"
	midnightDoc = "66666666-6666-4666-8666-666666666666"
	unpostedDoc = "77777777-7777-4777-8777-777777777777"
)

func edgeLedger(t *testing.T) *onec.Ledger {
	t.Helper()
	at := func(s string) onec.LocalTime {
		var lt onec.LocalTime
		if err := json.Unmarshal([]byte(`"`+s+`"`), &lt); err != nil {
			t.Fatal(err)
		}
		return lt
	}
	settle := func(doc string) []onec.Subconto {
		return []onec.Subconto{{Kind: "Контрагенты", Ref: custUUID}, {Kind: "ДоговорыКонтрагентов", Ref: ctrUUID}, {Kind: "ДокументыРасчетовСКонтрагентами", Ref: doc}}
	}
	account := "40702810900000000001" // only bank documents show it
	doc := func(ref, date string, posted bool, number string) onec.Document {
		return onec.Document{Ref: ref, Type: "РеализацияТоваровУслуг", Number: number, Date: at(date), Posted: posted,
			OrganizationRef: orgUUID, CounterpartyRef: custUUID, ContractRef: ctrUUID, Amount: 10000, BankAccount: &account}
	}
	move := func(rec, period string, line int, dr string, sdr []onec.Subconto, amount onec.Kopecks) onec.Movement {
		return onec.Movement{Period: at(period), RecorderRef: rec, RecorderType: "РеализацияТоваровУслуг", Line: line,
			OrganizationRef: orgUUID, AccountDr: dr, AccountCr: "90.01.1", SubcontoDr: sdr, Amount: amount}
	}
	return &onec.Ledger{
		Organizations:  []onec.Organization{{Ref: orgUUID, Name: "ООО «Тест»", Default: true}},
		Counterparties: []onec.Counterparty{{Ref: custUUID, Name: "ООО «Покупатель»", Kind: "legal"}},
		Contracts:      []onec.Contract{{Ref: ctrUUID, OwnerRef: custUUID, OrganizationRef: orgUUID, Number: "1", Date: "2025-01-01", Name: "Договор № 1"}},
		Documents: []onec.Document{
			doc(lastDayDoc, "2025-01-31T23:59:59", true, "СВ00-000001"),
			doc(midnightDoc, "2025-02-01T00:00:00", true, "СВ00-000002"),
			doc(unpostedDoc, "2025-01-15T10:00:00", false, "СВ00-000003"),
		},
		Movements: []onec.Movement{
			move(lastDayDoc, "2025-01-31T23:59:59", 1, "62.01", settle(lastDayDoc), 10000),
			move(lastDayDoc, "2025-01-31T23:59:59", 2, "62.01", []onec.Subconto{{Kind: "Контрагенты", Ref: ghostUUID}}, 500),
			move(lastDayDoc, "2025-01-31T23:59:59", 3, "620", settle(lastDayDoc), 700),
			move(lastDayDoc, "2025-01-31T23:59:59", 4, "62.01.1", settle(lastDayDoc), 900),
			move(midnightDoc, "2025-02-01T00:00:00", 1, "62.01", settle(midnightDoc), 5000),
			move(unpostedDoc, "2025-01-15T10:00:00", 1, "62.01", settle(unpostedDoc), 7000), // must never count
		},
		Accounts: []onec.Account{{Code: "62", Type: "active_passive"}, {Code: "62.01", Type: "active"}, {Code: "90.01.1", Type: "passive"}},
	}
}

func TestEdgeCasesOfTheRegister(t *testing.T) {
	d := onec.NewDemo(edgeLedger(t))
	org := onec.Ref{UUID: orgUUID, Type: onec.TypeOrganization, Presentation: "ООО «Тест»"}
	cust := onec.Ref{UUID: custUUID, Type: onec.TypeCounterparty, Presentation: "ООО «Покупатель»"}
	ghost := onec.Ref{UUID: ghostUUID, Type: onec.TypeCounterparty, Presentation: "<Объект не найден> (" + ghostUUID + ")"}
	full := func(r onec.Ref) map[string]any {
		m := r.Param()
		m["Представление"] = r.Presentation
		return m
	}
	params := map[string]any{"НаДату": "2025-02-01T00:00:00", "Организация": org.Param(), "СчетКод": "62", "СчетМаска": "62.%"}

	// Balances at the end of 31 January: the 23:59:59 record counts, the midnight one and the
	// unposted one do not; 620 is not a sub-account of 62, 62.01.1 is.
	q, _ := onec.Query("address.account.balance_snapshot")
	got, err := d.Execute(context.Background(), q, params, 1000)
	if err != nil {
		t.Fatal(err)
	}
	// The toolkit's forms: NULL is "" (a missing analytic, the name of an object this base
	// lacks), a date ends in Z, a number has no trailing zeros. The snapshot sums a
	// counterparty's lines in 1C — 62.01 and 62.01.1, its contract — into one row under the
	// account asked, with its open settlement documents counted.
	row := func(cp onec.Ref, amount string, docs int) map[string]any {
		r := map[string]any{"Счет": "62", "Организация": full(org), "ОрганизацияНаименование": "ООО «Тест»",
			"Контрагент": full(cp), "КонтрагентНаименование": "",
			"Договор": "", "ДоговорНаименование": "", "ДокументРасчетов": "", "ДокументРасчетовДата": "", "ДокументРасчетовНомер": "",
			"СуммаОстатокДт": json.Number(amount), "СуммаОстатокКт": json.Number("0"), "КоличествоДокументов": json.Number(fmt.Sprint(docs)),
			// 62 keeps no currency (its chart has no «Валютный»): NULL, all three
			"Валюта": "", "ВалютнаяСуммаОстатокДт": "", "ВалютнаяСуммаОстатокКт": ""}
		if cp != ghost {
			r["КонтрагентНаименование"] = cp.Presentation
		}
		return r
	}
	want := []map[string]any{
		row(ghost, "5", 0),  // its name is NULL, which sorts first; no contract, no document
		row(cust, "109", 1), // 100,00 on 62.01 and 9,00 on 62.01.1, one document
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("balance at 2025-01-31 (-want +got):\n%s", diff)
	}

	// A day later the midnight record counts too.
	params["НаДату"] = "2025-02-02T00:00:00"
	got, _ = d.Execute(context.Background(), q, params, 1000)
	want[1]["СуммаОстатокДт"] = json.Number("159") // the midnight document's 50,00 joins its contract's balance
	want[1]["КоличествоДокументов"] = json.Number("2")
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("balance at 2025-02-01 (-want +got):\n%s", diff)
	}

	// Open items, the balance's documents and the register records share the boundary. Open
	// items read only the settlement accounts (620 is none); the documents behind 62's balance
	// are its open settlement documents per sub-account.
	params["НаДату"], params["Контрагент"], params["Договор"] = "2025-02-01T00:00:00", cust.Param(), nil
	lines := func(id string, line func(map[string]any) string) []string {
		q, _ := onec.Query(id)
		rows, err := d.Execute(context.Background(), q, params, 1000)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		var out []string
		for _, r := range rows {
			out = append(out, line(r))
		}
		return out
	}
	balanceLine := func(r map[string]any) string {
		doc, _ := onec.RefOf(r["ДокументРасчетов"])
		return r["Счет"].(string) + " " + doc.UUID + " " + r["СуммаОстатокДт"].(json.Number).String()
	}
	for _, tt := range []struct {
		id   string
		line func(map[string]any) string
		want []string
	}{
		{"address.open_items.by_counterparty", balanceLine, []string{"62.01 " + lastDayDoc + " 100", "62.01.1 " + lastDayDoc + " 9"}},
		{"address.balance.drilldown_documents", balanceLine, []string{"62.01 " + lastDayDoc + " 100", "62.01.1 " + lastDayDoc + " 9"}},
		{"register.movements", func(r map[string]any) string {
			return r["СчетДт"].(string) + "#" + r["НомерСтроки"].(json.Number).String()
		}, []string{"62.01#1", "62.01.1#4"}},
	} {
		if diff := gocmp.Diff(tt.want, lines(tt.id, tt.line)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.id, diff)
		}
	}

	// Open contracts leave out analytics without a contract (the ghost's record).
	params["Контрагент"] = nil
	q, _ = onec.Query("address.open_contracts.by_asof")
	contracts, _ := d.Execute(context.Background(), q, params, 1000)
	var contractRows []string
	for _, r := range contracts {
		cp, _ := onec.RefOf(r["Контрагент"])
		contractRows = append(contractRows, r["Счет"].(string)+" "+cp.Presentation+" "+r["СуммаОстатокДт"].(json.Number).String())
	}
	if diff := gocmp.Diff([]string{"62.01 ООО «Покупатель» 100", "62.01.1 ООО «Покупатель» 9"}, contractRows); diff != "" {
		t.Errorf("open contracts (-want +got):\n%s", diff)
	}

	// A sale is no bank document: no bank account, whatever the document holds.
	q, _ = onec.Query("address.documents.by_counterparty")
	docs, _ := d.Execute(context.Background(), q, map[string]any{"НачалоПериода": "2025-01-01T00:00:00", "КонецПериода": "2025-01-31T23:59:59",
		"Организация": org.Param(), "Контрагент": cust.Param(), "ТипДокумента": ""}, 1000)
	if len(docs) != 2 || docs[0]["БанковскийСчет"] != onec.WireNull || docs[0]["Проведен"] != true || docs[1]["Проведен"] != false {
		t.Errorf("documents of January = %v; want the posted sale, then the unposted one, without bank accounts", docs)
	}
	// A period starting 1 February includes the document of 00:00:00 that day.
	docs, _ = d.Execute(context.Background(), q, map[string]any{"НачалоПериода": "2025-02-01T00:00:00", "КонецПериода": "2025-02-01T23:59:59",
		"Организация": org.Param(), "Контрагент": cust.Param(), "ТипДокумента": ""}, 1000)
	if len(docs) != 1 || docs[0]["Номер"] != "СВ00-000002" {
		t.Errorf("documents of 1 February = %v; want the midnight document", docs)
	}
}
