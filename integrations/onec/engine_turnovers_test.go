package onec_test

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
)

// turnoversOf reads TURNOVER rows, checking keys and the settlement document's columns.
func turnoversOf(t testing.TB, o *oracle, rows []map[string]any) map[settlement]turnover {
	t.Helper()
	got := map[settlement]turnover{}
	for _, row := range rows {
		if diff := gocmp.Diff(sortedKeys(turnoverKeys), rowKeys(row)); diff != "" {
			t.Fatalf("turnover row keys (-want +got):\n%s", diff)
		}
		k := settlementOf(t, row)
		if _, dup := got[k]; dup {
			t.Fatalf("two rows for %+v", k)
		}
		got[k] = turnover{money(t, row["СуммаОборотДт"]), money(t, row["СуммаОборотКт"])}
		wantDate, wantNumber := any(onec.WireNull), any(onec.WireNull) // ДокументРасчетов.Дата of NULL is NULL
		if doc, ok := o.docs[k.Doc]; ok {
			wantDate, wantNumber = doc.Date.Format("2006-01-02T15:04:05")+"Z", doc.Number
		}
		if row["ДокументРасчетовДата"] != wantDate || row["ДокументРасчетовНомер"] != wantNumber {
			t.Errorf("document %s: date %v number %v, want %v %v", k.Doc, row["ДокументРасчетовДата"], row["ДокументРасчетовНомер"], wantDate, wantNumber)
		}
	}
	return got
}

func TestOpenItemsByCounterparty(t *testing.T) {
	l, d, o := fixture(t)
	for _, org := range l.Organizations {
		for _, ds := range testDays {
			for _, cp := range l.Counterparties {
				rows := run(t, d, "address.open_items.by_counterparty", map[string]any{
					"НаДату": onec.AsOfParam(day(t, ds)), "Организация": ref(onec.TypeOrganization, org.Ref),
					"Контрагент": ref(onec.TypeCounterparty, cp.Ref), "Договор": nil,
				})
				want := o.turnovers(org.Ref, day(t, ds), func(s side) bool { return s.cp == cp.Ref }, false)
				if diff := gocmp.Diff(want, turnoversOf(t, o, rows)); diff != "" {
					t.Errorf("%s %s %s (-oracle +demo):\n%s", org.Name, ds, cp.Name, diff)
				}
				checkSettlementOrder(t, o, rows)
			}
		}
	}
	// With a contract anchor: only that contract's rows (19.03 carries no contract).
	for _, ctr := range l.Contracts {
		rows := run(t, d, "address.open_items.by_counterparty", map[string]any{
			"НаДату": onec.AsOfParam(day(t, "2026-03-31")), "Организация": ref(onec.TypeOrganization, ctr.OrganizationRef),
			"Контрагент": ref(onec.TypeCounterparty, ctr.OwnerRef), "Договор": ref(onec.TypeContract, ctr.Ref),
		})
		want := o.turnovers(ctr.OrganizationRef, day(t, "2026-03-31"), func(s side) bool { return s.cp == ctr.OwnerRef && s.ctr == ctr.Ref }, false)
		if diff := gocmp.Diff(want, turnoversOf(t, o, rows)); diff != "" {
			t.Errorf("contract %s (-oracle +demo):\n%s", ctr.Name, diff)
		}
	}
}

// openItems are the README's open items: per settlement document on 60 and 62, debit −
// credit when not zero.
func openItems(turnovers map[settlement]turnover) map[string]onec.Kopecks {
	out := map[string]onec.Kopecks{}
	for k, v := range turnovers {
		if accountMatches(k.Acc, "60") || accountMatches(k.Acc, "62") {
			out[k.Doc] += v.Dt - v.Kt
		}
	}
	for doc, v := range out {
		if v == 0 {
			delete(out, doc)
		}
	}
	return out
}

func TestOpenItemsWithPrepayment(t *testing.T) {
	l, d, o := fixture(t)
	// A customer that pays in advance: its 62.02 rows carry credit turnovers.
	var prepaidSeen bool
	for _, cp := range l.Counterparties {
		for _, org := range l.Organizations {
			for _, ds := range testDays {
				rows := run(t, d, "address.open_items.by_counterparty", map[string]any{
					"НаДату": onec.AsOfParam(day(t, ds)), "Организация": ref(onec.TypeOrganization, org.Ref),
					"Контрагент": ref(onec.TypeCounterparty, cp.Ref), "Договор": nil,
				})
				got := turnoversOf(t, o, rows)
				want := o.turnovers(org.Ref, day(t, ds), func(s side) bool { return s.cp == cp.Ref }, false)
				if diff := gocmp.Diff(openItems(want), openItems(got)); diff != "" {
					t.Errorf("%s %s %s open items (-oracle +demo):\n%s", cp.Name, org.Name, ds, diff)
				}
				for k, v := range got {
					if k.Acc == "62.02" && v.Kt > v.Dt && openItems(got)[k.Doc] < 0 {
						prepaidSeen = true
					}
				}
			}
		}
	}
	if !prepaidSeen {
		t.Error("no open advance on 62.02 found: the prepayment case is untested")
	}
}

func TestOpenItemsByContract(t *testing.T) {
	l, d, o := fixture(t)
	other := l.Counterparties[len(l.Counterparties)-2].Ref
	for _, ctr := range l.Contracts {
		for _, ds := range testDays {
			cps := []string{""}
			if ds == "2026-03-31" { // with a counterparty anchor, its own or another one
				cps = append(cps, ctr.OwnerRef, other)
			}
			for _, cp := range cps {
				rows := run(t, d, "address.open_items.by_contract", map[string]any{
					"НаДату": onec.AsOfParam(day(t, ds)), "Организация": ref(onec.TypeOrganization, ctr.OrganizationRef),
					"Договор": ref(onec.TypeContract, ctr.Ref), "Контрагент": nullable(onec.TypeCounterparty, cp),
				})
				want := o.turnovers(ctr.OrganizationRef, day(t, ds), func(s side) bool {
					return s.ctr == ctr.Ref && (cp == "" || s.cp == cp)
				}, false)
				if diff := gocmp.Diff(want, turnoversOf(t, o, rows)); diff != "" {
					t.Errorf("%s %s cp=%q (-oracle +demo):\n%s", ctr.Name, ds, cp, diff)
				}
			}
		}
	}
}

func TestOpenContracts(t *testing.T) {
	l, d, o := fixture(t)
	settlementAccount := func(acc string) bool {
		return accountMatches(acc, "60") || accountMatches(acc, "62") || accountMatches(acc, "76")
	}
	cps := []string{""}
	for _, cp := range l.Counterparties {
		cps = append(cps, cp.Ref)
	}
	for _, org := range l.Organizations {
		for _, ds := range testDays {
			for _, cp := range cps {
				rows := run(t, d, "address.open_contracts.by_asof", map[string]any{
					"НаДату": onec.AsOfParam(day(t, ds)), "Организация": ref(onec.TypeOrganization, org.Ref),
					"Контрагент": nullable(onec.TypeCounterparty, cp),
				})
				want := o.turnovers(org.Ref, day(t, ds), func(s side) bool {
					return settlementAccount(s.acc) && s.ctr != "" && (cp == "" || s.cp == cp)
				}, true)
				if diff := gocmp.Diff(want, turnoversOf(t, o, rows)); diff != "" {
					t.Errorf("%s %s cp=%q (-oracle +demo):\n%s", org.Name, ds, cp, diff)
				}
				checkSettlementOrder(t, o, rows)
			}
		}
	}
}

// movement is one MOVEMENT row.
type movement struct {
	Period, Recorder, Number string
	Line                     int
	AccDr, AccCr             string
	Amount                   onec.Kopecks
	CpDr, CpCr, CtrDr, CtrCr string
}

func TestDrilldownMatchesOracle(t *testing.T) {
	l, d, o := fixture(t)
	type drill struct{ token, org, day, cp, ctr string }
	var cases []drill
	for _, token := range []string{"60", "62", "62.02", "51", "19.03", "90"} {
		for _, org := range l.Organizations {
			for _, ds := range testDays {
				cases = append(cases, drill{token, org.Ref, ds, "", ""})
			}
		}
	}
	for _, ctr := range l.Contracts[:6] { // anchors, on the contract's own organization
		for _, token := range []string{"60", "62"} {
			for _, ds := range testDays {
				org := ctr.OrganizationRef
				cases = append(cases, drill{token, org, ds, ctr.OwnerRef, ""}, drill{token, org, ds, "", ctr.Ref}, drill{token, org, ds, ctr.OwnerRef, ctr.Ref})
			}
		}
	}
	// Newest first: date descending, then number descending, then line.
	order := func(x, y movement) int {
		return cmp.Or(strings.Compare(y.Period, x.Period), strings.Compare(y.Number, x.Number), cmp.Compare(x.Line, y.Line), strings.Compare(x.Recorder, y.Recorder))
	}
	for _, c := range cases {
		params := balanceParams(c.org, day(t, c.day), c.token)
		params["Контрагент"], params["Договор"] = nullable(onec.TypeCounterparty, c.cp), nullable(onec.TypeContract, c.ctr)
		var got, want []movement
		for _, row := range run(t, d, "address.balance.drilldown_documents", params) {
			line, err := row["НомерСтроки"].(json.Number).Int64()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, movement{
				Period: row["Период"].(string), Recorder: uuidOf(t, row["Регистратор"], onec.TypeDocumentPrefix),
				Number: row["РегистраторНомер"].(string), Line: int(line),
				AccDr: row["СчетДт"].(string), AccCr: row["СчетКт"].(string), Amount: money(t, row["Сумма"]),
				CpDr: uuidOf(t, row["КонтрагентДт"], onec.TypeCounterparty), CpCr: uuidOf(t, row["КонтрагентКт"], onec.TypeCounterparty),
				CtrDr: uuidOf(t, row["ДоговорДт"], onec.TypeContract), CtrCr: uuidOf(t, row["ДоговорКт"], onec.TypeContract),
			})
		}
		for i, m := range l.Movements {
			if !o.counts(m, c.org, day(t, c.day)) {
				continue
			}
			sd, hit := o.sides[i], false
			for _, s := range sd {
				hit = hit || accountMatches(s.acc, c.token) && (c.cp == "" || s.cp == c.cp) && (c.ctr == "" || s.ctr == c.ctr)
			}
			if hit {
				want = append(want, movement{
					Period: m.Period.Format("2006-01-02T15:04:05") + "Z", Recorder: m.RecorderRef, Number: o.docs[m.RecorderRef].Number,
					Line: m.Line, AccDr: m.AccountDr, AccCr: m.AccountCr, Amount: m.Amount,
					CpDr: sd[0].cp, CpCr: sd[1].cp, CtrDr: sd[0].ctr, CtrCr: sd[1].ctr,
				})
			}
		}
		if !slices.IsSortedFunc(got, order) {
			t.Errorf("%+v: rows not newest first", c)
		}
		slices.SortFunc(want, order)
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("%+v (-oracle +demo):\n%s", c, diff)
		}
	}
}
