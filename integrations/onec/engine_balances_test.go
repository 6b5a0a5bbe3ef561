package onec_test

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
)

// The ledger runs from the opening balances of 2024-12-31 to April 2026.
var testDays = []string{"2024-12-31", "2025-01-31", "2025-06-30", "2025-12-31", "2026-03-31", "2026-04-30"}

func day(t testing.TB, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func ref(typ, uuid string) map[string]any { return onec.Ref{UUID: uuid, Type: typ}.Param() }

// nullable is a reference parameter, or nil for "".
func nullable(typ, uuid string) any {
	if uuid == "" {
		return nil
	}
	return ref(typ, uuid)
}

// run executes a template on the Demo with limit 1000 and fails if the answer may be truncated.
func run(t testing.TB, d *onec.Demo, id string, params map[string]any) []map[string]any {
	t.Helper()
	q, ok := onec.Query(id)
	if !ok {
		t.Fatalf("no template %s", id)
	}
	rows, err := d.Execute(context.Background(), q, params, 1000)
	if err != nil {
		t.Fatalf("%s %v: %v", id, params, err)
	}
	if len(rows) == 1000 {
		t.Fatalf("%s %v: 1000 rows, the answer may be truncated; narrow the test", id, params)
	}
	return rows
}

var (
	balanceKeys  = []string{"Договор", "ДокументРасчетов", "Контрагент", "Организация", "Счет", "СуммаОстатокДт", "СуммаОстатокКт"}
	turnoverKeys = []string{"Договор", "ДокументРасчетов", "ДокументРасчетовДата", "ДокументРасчетовНомер", "Контрагент", "Организация", "Счет", "СуммаОборотДт", "СуммаОборотКт"}
)

// balancesOf reads BALANCE rows into Дт/Кт per settlement, checking keys and uniqueness.
func balancesOf(t testing.TB, rows []map[string]any) map[settlement]turnover {
	t.Helper()
	got := map[settlement]turnover{}
	for _, row := range rows {
		if diff := gocmp.Diff(sortedKeys(balanceKeys), rowKeys(row)); diff != "" {
			t.Fatalf("balance row keys (-want +got):\n%s", diff)
		}
		k := settlementOf(t, row)
		if _, dup := got[k]; dup {
			t.Fatalf("two rows for %+v", k)
		}
		got[k] = turnover{money(t, row["СуммаОстатокДт"]), money(t, row["СуммаОстатокКт"])}
	}
	return got
}

// checkSettlementOrder checks "by account, then names": account code, organization,
// counterparty and contract presentations, then the settlement document's date and number.
func checkSettlementOrder(t testing.TB, o *oracle, rows []map[string]any) {
	t.Helper()
	key := func(row map[string]any) []string {
		pres := func(col string) string { r, _ := onec.RefOf(row[col]); return r.Presentation }
		doc := o.docs[uuidOf(t, row["ДокументРасчетов"], "")]
		return []string{row["Счет"].(string), pres("Организация"), pres("Контрагент"), pres("Договор"), doc.Date.Format(time.DateTime), doc.Number}
	}
	for i := 1; i < len(rows); i++ {
		if slices.Compare(key(rows[i-1]), key(rows[i])) > 0 {
			t.Fatalf("rows %d and %d out of order: %v then %v", i-1, i, key(rows[i-1]), key(rows[i]))
		}
	}
}

func balanceParams(org string, d time.Time, token string) map[string]any {
	return map[string]any{
		"НаДату":      onec.AsOfParam(d),
		"Организация": ref(onec.TypeOrganization, org),
		"СчетКод":     token,
		"СчетМаска":   token + ".%",
	}
}

func TestBalancesMatchOracle(t *testing.T) {
	l, d, o := fixture(t)
	tests := []struct {
		id               string
		tokens           []string
		counterpartyOnly bool
	}{
		{"address.receivables.counterparty_totals", []string{"62", "62.01", "62.02", "76"}, true},
		{"address.payables.counterparty_totals", []string{"60", "60.01", "60.02"}, true},
		{"address.account.balance_snapshot", []string{"51", "60", "62", "62.02", "19.03", "41.01", "68.02", "90", "000", "76", "84.01"}, false},
	}
	for _, tt := range tests {
		for _, org := range l.Organizations {
			for _, ds := range testDays {
				for _, token := range tt.tokens {
					t.Run(strings.Join([]string{tt.id, org.Name, ds, token}, "/"), func(t *testing.T) {
						rows := run(t, d, tt.id, balanceParams(org.Ref, day(t, ds), token))
						want := map[settlement]turnover{}
						for k, net := range o.balanceSums(org.Ref, day(t, ds), token) {
							switch {
							case tt.counterpartyOnly && k.Cp == "":
							case net > 0:
								want[k] = turnover{Dt: net}
							case net < 0:
								want[k] = turnover{Kt: -net}
							}
						}
						if diff := gocmp.Diff(want, balancesOf(t, rows)); diff != "" {
							t.Errorf("balances (-oracle +demo):\n%s", diff)
						}
						checkSettlementOrder(t, o, rows)
					})
				}
			}
		}
	}
}

// debtor is the README's receivables (or payables) figure of one counterparty.
type debtor struct {
	Amount   onec.Kopecks
	DocCount int
}

// debtorsFromRows aggregates BALANCE rows the way the runtime does; sign is +1 for
// receivables, -1 for payables.
func debtorsFromRows(t testing.TB, rows []map[string]any, sign onec.Kopecks) map[string]debtor {
	t.Helper()
	saldo, docs := map[string]onec.Kopecks{}, map[[2]string]onec.Kopecks{}
	for k, v := range balancesOf(t, rows) {
		saldo[k.Cp] += v.Dt - v.Kt
		if k.Doc != "" {
			docs[[2]string{k.Cp, k.Doc}] += v.Dt - v.Kt
		}
	}
	return debtorsFrom(saldo, docs, sign)
}

func debtorsFrom(saldo map[string]onec.Kopecks, docs map[[2]string]onec.Kopecks, sign onec.Kopecks) map[string]debtor {
	out := map[string]debtor{}
	for cp, s := range saldo {
		if sign*s > 0 {
			out[cp] = debtor{Amount: sign * s}
		}
	}
	for k, s := range docs {
		if r, ok := out[k[0]]; ok && s != 0 {
			r.DocCount++
			out[k[0]] = r
		}
	}
	return out
}

func TestReceivablesAndPayablesFigures(t *testing.T) {
	l, d, o := fixture(t)
	tests := []struct {
		id    string
		token string
		sign  onec.Kopecks
	}{
		{"address.receivables.counterparty_totals", "62", 1},
		{"address.payables.counterparty_totals", "60", -1},
	}
	for _, tt := range tests {
		for _, org := range l.Organizations {
			for _, ds := range testDays {
				t.Run(strings.Join([]string{tt.id, org.Name, ds}, "/"), func(t *testing.T) {
					got := debtorsFromRows(t, run(t, d, tt.id, balanceParams(org.Ref, day(t, ds), tt.token)), tt.sign)
					saldo, docs := o.counterpartySaldo(org.Ref, day(t, ds), tt.token)
					want := debtorsFrom(saldo, docs, tt.sign)
					if diff := gocmp.Diff(want, got); diff != "" {
						t.Errorf("per counterparty (-oracle +demo):\n%s", diff)
					}
					if len(want) == 0 && ds != "2024-12-31" {
						t.Errorf("no counterparties at all: the test proves nothing")
					}
				})
			}
		}
	}
}

// snapshot is the README's account balance snapshot.
type snapshot struct{ Debit, Credit onec.Kopecks }

func TestBalanceSnapshotExpandedAndCollapsed(t *testing.T) {
	l, d, o := fixture(t)
	withCounterparty := func(token string) bool {
		return slices.Contains(o.chart[token].Subconto, "Контрагенты")
	}
	var expandedSeen bool
	for _, token := range []string{"60", "62", "76", "51", "41.01", "000"} {
		for _, org := range l.Organizations {
			for _, ds := range testDays {
				rows := run(t, d, "address.account.balance_snapshot", balanceParams(org.Ref, day(t, ds), token))
				var got snapshot
				if withCounterparty(token) { // expanded: positive and negative counterparty saldos apart
					per := map[string]onec.Kopecks{}
					for k, v := range balancesOf(t, rows) {
						per[k.Cp] += v.Dt - v.Kt
					}
					got = split(per)
				} else { // collapsed: the net on the side it falls
					var net onec.Kopecks
					for k, v := range balancesOf(t, rows) {
						if k.Cp != "" || k.Doc != "" {
							t.Errorf("%s: row with analytics %+v", token, k)
						}
						net += v.Dt - v.Kt
					}
					if len(rows) > 1 {
						t.Errorf("%s %s %s: %d rows, want one collapsed row", token, org.Name, ds, len(rows))
					}
					got = split(map[string]onec.Kopecks{"": net})
				}
				saldo, _ := o.counterpartySaldo(org.Ref, day(t, ds), token)
				if !withCounterparty(token) {
					var net onec.Kopecks
					for _, v := range o.balanceSums(org.Ref, day(t, ds), token) {
						net += v
					}
					saldo = map[string]onec.Kopecks{"": net}
				}
				if diff := gocmp.Diff(split(saldo), got); diff != "" {
					t.Errorf("%s %s %s snapshot (-oracle +demo):\n%s", token, org.Name, ds, diff)
				}
				expandedSeen = expandedSeen || got.Debit > 0 && got.Credit > 0
			}
		}
	}
	if !expandedSeen {
		t.Error("no date shows both a debit and a credit balance; the expanded case is untested")
	}
}

func split(saldo map[string]onec.Kopecks) snapshot {
	var s snapshot
	for _, v := range saldo {
		if v > 0 {
			s.Debit += v
		} else {
			s.Credit -= v
		}
	}
	return s
}

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
		wantDate, wantNumber := any(nil), any(nil)
		if doc, ok := o.docs[k.Doc]; ok {
			wantDate, wantNumber = doc.Date.Format("2006-01-02T15:04:05"), doc.Number
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
			for _, cp := range []string{"", ctr.OwnerRef, other} {
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
	type anchors struct{ cp, ctr string }
	cases := []anchors{{}}
	for _, ctr := range l.Contracts[:4] {
		cases = append(cases, anchors{cp: ctr.OwnerRef}, anchors{ctr: ctr.Ref}, anchors{cp: ctr.OwnerRef, ctr: ctr.Ref})
	}
	for _, token := range []string{"60", "62", "62.02", "51", "19.03", "90"} {
		for _, org := range l.Organizations {
			for _, ds := range testDays {
				for _, a := range cases {
					params := balanceParams(org.Ref, day(t, ds), token)
					params["Контрагент"], params["Договор"] = nullable(onec.TypeCounterparty, a.cp), nullable(onec.TypeContract, a.ctr)
					rows := run(t, d, "address.balance.drilldown_documents", params)
					var got, want []movement
					for _, row := range rows {
						line, _ := row["НомерСтроки"].(interface{ Int64() (int64, error) }).Int64()
						got = append(got, movement{
							Period: row["Период"].(string), Recorder: uuidOf(t, row["Регистратор"], onec.TypeDocumentPrefix),
							Number: row["РегистраторНомер"].(string), Line: int(line),
							AccDr: row["СчетДт"].(string), AccCr: row["СчетКт"].(string), Amount: money(t, row["Сумма"]),
							CpDr: uuidOf(t, row["КонтрагентДт"], onec.TypeCounterparty), CpCr: uuidOf(t, row["КонтрагентКт"], onec.TypeCounterparty),
							CtrDr: uuidOf(t, row["ДоговорДт"], onec.TypeContract), CtrCr: uuidOf(t, row["ДоговорКт"], onec.TypeContract),
						})
					}
					for i, m := range l.Movements {
						if !o.counts(m, org.Ref, day(t, ds)) {
							continue
						}
						hit := false
						sd := o.sides[i]
						for _, s := range sd {
							hit = hit || accountMatches(s.acc, token) && (a.cp == "" || s.cp == a.cp) && (a.ctr == "" || s.ctr == a.ctr)
						}
						if hit {
							want = append(want, movement{
								Period: m.Period.Format("2006-01-02T15:04:05"), Recorder: m.RecorderRef, Number: o.docs[m.RecorderRef].Number,
								Line: m.Line, AccDr: m.AccountDr, AccCr: m.AccountCr, Amount: m.Amount,
								CpDr: sd[0].cp, CpCr: sd[1].cp, CtrDr: sd[0].ctr, CtrCr: sd[1].ctr,
							})
						}
					}
					// Newest first: date descending, then number descending, then line.
					order := func(x, y movement) int {
						return cmp.Or(strings.Compare(y.Period, x.Period), strings.Compare(y.Number, x.Number), cmp.Compare(x.Line, y.Line), strings.Compare(x.Recorder, y.Recorder))
					}
					if !slices.IsSortedFunc(got, order) {
						t.Errorf("%s %s %s: rows not newest first", token, org.Name, ds)
					}
					slices.SortFunc(want, order)
					if diff := gocmp.Diff(want, got); diff != "" {
						t.Errorf("%s %s %s %+v (-oracle +demo):\n%s", token, org.Name, ds, a, diff)
					}
				}
			}
		}
	}
}
