package onec_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
)

var scale50 struct {
	once sync.Once
	l    *onec.Ledger
	d    *onec.Demo
}

// bigDemo generates the ledger at scale 50 once per test binary (about 113k movements, the
// same ledger as the shared generate.py --scale 50 writes).
func bigDemo(testing.TB) (*onec.Ledger, *onec.Demo) {
	scale50.once.Do(func() {
		scale50.l = ledgergen.Generate(50, ledgergen.DefaultSeed)
		scale50.d = onec.NewDemo(scale50.l)
	})
	return scale50.l, scale50.d
}

func benchmarkReceivables(b *testing.B, l *onec.Ledger, d *onec.Demo) {
	q, _ := onec.Query("address.receivables.counterparty_totals")
	params := map[string]any{
		"НаДату":      "2026-04-01T00:00:00", // late: nearly every record counts
		"Организация": onec.Ref{UUID: l.DefaultOrganization().Ref, Type: onec.TypeOrganization}.Param(),
		"СчетКод":     "62",
		"СчетМаска":   "62.%",
	}
	b.ReportAllocs()
	var rows []map[string]any
	for b.Loop() {
		var err error
		if rows, err = d.Execute(context.Background(), q, params, 1000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(l.Movements)), "movements")
	b.ReportMetric(float64(len(rows)), "rows")
}

func BenchmarkReceivablesScale50(b *testing.B) {
	l, d := bigDemo(b)
	benchmarkReceivables(b, l, d)
}

func BenchmarkReceivablesDemo(b *testing.B) {
	l, d, _ := fixture(b)
	benchmarkReceivables(b, l, d)
}

// The scaled ledger the benchmarks run on gives the same figures on the engine as the oracle
// computes from the README's definitions (oracle_test.go), as the demo ledger does
// (TestReceivablesAndPayablesFigures, TestBalancesMatchOracle): receivables and payables per
// counterparty, and balances per settlement. Scale 5 keeps it quick; -bench runs don't need it.
func TestScaledLedgerMatchesOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and checks a ledger at scale 5")
	}
	l := ledgergen.Generate(5, ledgergen.DefaultSeed)
	d := onec.NewDemo(l)
	o := newOracle(l)
	exec := func(t *testing.T, id string, params map[string]any) []map[string]any {
		t.Helper()
		q, ok := onec.Query(id)
		if !ok {
			t.Fatalf("no template %s", id)
		}
		rows, err := d.Execute(context.Background(), q, params, 1_000_000)
		if err != nil {
			t.Fatalf("%s %v: %v", id, params, err)
		}
		return rows
	}
	days := []string{"2024-12-31", "2025-06-30", "2026-03-31"}
	for _, org := range l.Organizations {
		for _, ds := range days {
			for _, tt := range []struct {
				id    string
				token string
				sign  onec.Kopecks
			}{
				{"address.receivables.counterparty_totals", "62", 1},
				{"address.payables.counterparty_totals", "60", -1},
			} {
				t.Run(strings.Join([]string{tt.id, org.Name, ds}, "/"), func(t *testing.T) {
					rows := exec(t, tt.id, balanceParams(org.Ref, day(t, ds), tt.token))
					saldo, docs := o.counterpartySaldo(org.Ref, day(t, ds), tt.token)
					want := debtorsFrom(saldo, docs, tt.sign)
					if diff := gocmp.Diff(want, debtorsFromRows(t, rows, tt.sign)); diff != "" {
						t.Errorf("per counterparty (-oracle +demo):\n%s", diff)
					}
					if len(want) == 0 && ds != "2024-12-31" {
						t.Error("no counterparties at all: the test proves nothing")
					}
				})
			}
			for _, token := range []string{"51", "60.02", "62", "000"} {
				t.Run(strings.Join([]string{"balance_snapshot", org.Name, ds, token}, "/"), func(t *testing.T) {
					rows := exec(t, "address.account.balance_snapshot", balanceParams(org.Ref, day(t, ds), token))
					want := o.snapshot(org.Ref, day(t, ds), token)
					if diff := gocmp.Diff(want, snapshotOf(t, rows)); diff != "" {
						t.Errorf("balances (-oracle +demo):\n%s", diff)
					}
				})
			}
		}
	}
}

// newOracle is fixture's oracle over another ledger.
func newOracle(l *onec.Ledger) *oracle {
	o := &oracle{l: l, posted: map[string]bool{}, docs: map[string]onec.Document{}, chart: map[string]onec.Account{}}
	for _, d := range l.Documents {
		o.posted[d.Ref] = d.Posted
		o.docs[d.Ref] = d
	}
	for _, a := range l.Accounts {
		o.chart[a.Code] = a
	}
	for _, m := range l.Movements {
		o.sides = append(o.sides, sides(m))
	}
	return o
}
