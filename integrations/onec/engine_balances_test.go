package onec_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
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
	settlementKeys = []string{"Договор", "ДоговорНаименование", "ДокументРасчетов", "ДокументРасчетовДата", "ДокументРасчетовНомер",
		"Контрагент", "КонтрагентНаименование", "Организация", "ОрганизацияНаименование", "Счет"}
	balanceKeys = append([]string{"СуммаОстатокДт", "СуммаОстатокКт", "Валюта", "ВалютнаяСуммаОстатокДт", "ВалютнаяСуммаОстатокКт"}, settlementKeys...)
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

// snapshotOf reads the balance snapshot's rows: one per counterparty or per sub-account, its
// Дт, Кт and open settlement documents, the contract and document columns NULL.
func snapshotOf(t testing.TB, rows []map[string]any) map[settlement]snap {
	t.Helper()
	got := map[settlement]snap{}
	for _, row := range rows {
		if diff := gocmp.Diff(sortedKeys(append([]string{"КоличествоДокументов"}, balanceKeys...)), rowKeys(row)); diff != "" {
			t.Fatalf("snapshot row keys (-want +got):\n%s", diff)
		}
		k := settlementOf(t, row)
		if k.Ctr != "" || k.Doc != "" {
			t.Errorf("a snapshot row per contract or document: %+v", k)
		}
		if _, dup := got[k]; dup {
			t.Fatalf("two rows for %+v", k)
		}
		n, err := strconv.Atoi(fmt.Sprint(row["КоличествоДокументов"]))
		if err != nil {
			t.Errorf("КоличествоДокументов = %v", row["КоличествоДокументов"])
		}
		got[k] = snap{money(t, row["СуммаОстатокДт"]), money(t, row["СуммаОстатокКт"]), n}
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
		{"address.account.balance_snapshot", []string{"51", "60", "62", "62.02", "19.03", "41.01", "68.02", "90", "000", "76", "84.01"}, false},
	}
	for _, tt := range tests {
		for _, org := range l.Organizations {
			for _, ds := range testDays {
				for _, token := range tt.tokens {
					t.Run(strings.Join([]string{tt.id, org.Name, ds, token}, "/"), func(t *testing.T) {
						rows := run(t, d, tt.id, balanceParams(org.Ref, day(t, ds), token))
						want := o.snapshot(org.Ref, day(t, ds), token)
						if tt.counterpartyOnly {
							maps.DeleteFunc(want, func(k settlement, _ snap) bool { return k.Cp == "" })
						}
						if diff := gocmp.Diff(want, snapshotOf(t, rows)); diff != "" {
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

// debtorsFromRows reads the grouped rows of the counterparty totals (one per counterparty,
// its open settlement documents counted in 1C); sign is +1 for receivables, -1 for payables.
func debtorsFromRows(t testing.TB, rows []map[string]any, sign onec.Kopecks) map[string]debtor {
	t.Helper()
	out := map[string]debtor{}
	for _, r := range partyRowsOf(t, rows) {
		if a := sign * (r.Dt - r.Kt); a > 0 {
			out[r.cp] = debtor{Amount: a, DocCount: r.docs}
		}
	}
	return out
}

// partyRow is one row of the counterparty totals.
type partyRow struct {
	cp     string
	Dt, Kt onec.Kopecks
	docs   int
}

// partyRowsOf reads the counterparty totals' rows: one per counterparty, the settlement
// columns empty.
func partyRowsOf(t testing.TB, rows []map[string]any) map[string]partyRow {
	t.Helper()
	out := map[string]partyRow{}
	for _, r := range rows {
		cp, _ := onec.RefOf(r["Контрагент"])
		if _, dup := out[cp.UUID]; dup || cp.UUID == "" {
			t.Errorf("counterparty %q twice or empty", cp.UUID)
		}
		for _, k := range []string{"Договор", "ДокументРасчетов", "ДокументРасчетовДата"} {
			if r[k] != onec.WireNull {
				t.Errorf("%s = %v, want NULL on a counterparty's total", k, r[k])
			}
		}
		dt, _ := onec.AmountOf(r["СуммаОстатокДт"])
		kt, _ := onec.AmountOf(r["СуммаОстатокКт"])
		n, err := strconv.Atoi(fmt.Sprint(r["КоличествоДокументов"]))
		if err != nil {
			t.Errorf("КоличествоДокументов = %v", r["КоличествоДокументов"])
		}
		out[cp.UUID] = partyRow{cp: cp.UUID, Dt: dt, Kt: kt, docs: n}
	}
	return out
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
					// BP's split: the debit balances of the counterparty's (sub-account,
					// contract) lines added up apart from the credit ones.
					lines := map[[3]string]onec.Kopecks{}
					for k, v := range o.balanceSums(org.Ref, day(t, ds), tt.token) {
						if k.Cp != "" {
							lines[[3]string{k.Acc, k.Cp, k.Ctr}] += v
						}
					}
					wantSplit := map[string][2]onec.Kopecks{}
					for k, v := range lines {
						x := wantSplit[k[1]]
						if v > 0 {
							x[0] += v
						} else {
							x[1] -= v
						}
						wantSplit[k[1]] = x
					}
					maps.DeleteFunc(wantSplit, func(_ string, x [2]onec.Kopecks) bool { return x == [2]onec.Kopecks{} })
					gotSplit := map[string][2]onec.Kopecks{}
					for cp, r := range partyRowsOf(t, run(t, d, tt.id, balanceParams(org.Ref, day(t, ds), tt.token))) {
						gotSplit[cp] = [2]onec.Kopecks{r.Dt, r.Kt}
					}
					if diff := gocmp.Diff(wantSplit, gotSplit); diff != "" {
						t.Errorf("expanded Дт/Кт per counterparty (-oracle +demo):\n%s", diff)
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
					for k, v := range snapshotOf(t, rows) {
						per[k.Cp] += v.Dt - v.Kt
					}
					got = split(per)
				} else { // collapsed: the net on the side it falls
					var net onec.Kopecks
					for k, v := range snapshotOf(t, rows) {
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
