package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// TestBPSplitAgainstOracle: the debt and advances each receivables and payables row carries
// beside its netted balance are those of BP's reports, per sub-account and contract, as the
// independent Python oracle computes them over the demo ledger
// (agent/testdata/answers/oracle.py bp-split; bp_split.json is its output).
func TestBPSplitAgainstOracle(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/answers/bp_split.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Date, Account string
		Split         map[string]struct{ Debt, Advance, Saldo string }
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	l, _ := newTestLane(t)
	for _, c := range cases {
		t.Run(c.Date+"/"+c.Account, func(t *testing.T) {
			intent := map[string]recipe.Name{"62": recipe.Receivables, "60": recipe.Payables}[c.Account]
			res := l.Run(t.Context(), ask(intent, recipe.Filters{AsOfDate: c.Date, Limit: recipe.MaxLimit}))
			if len(res.All) == 0 {
				t.Fatalf("no rows: %s", res.Message)
			}
			got, want := map[string]string{}, map[string]string{}
			for _, r := range res.All {
				if r.Advance != 0 {
					got[r.Name] = fmt.Sprintf("debt %s advance %s saldo %s", r.Debt, r.Advance, r.Amount)
				}
			}
			for name, s := range c.Split {
				if kop(t, s.Saldo) > 0 { // owed on balance: listed with its split
					want[name] = fmt.Sprintf("debt %s advance %s saldo %s", kop(t, s.Debt), kop(t, s.Advance), kop(t, s.Saldo))
				}
			}
			if len(want) == 0 {
				t.Fatal("the oracle found no advances offsetting debt: the case tests nothing")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("BP split (-oracle +lane):\n%s", diff)
			}
		})
	}
}

// The example: debt 100 on one contract and an advance of 80 on another is a balance of
// 20, which BP shows as 100 / 80; an advance of 150 instead leaves nothing owed on balance, and
// the counterparty is named apart because BP still shows its debt of 100.
func TestPartyTotalsSplit(t *testing.T) {
	alfa, beta := Ref{UUID: "a", Presentation: "Альфа"}, Ref{UUID: "b", Presentation: "Бета"}
	// The template's rows: one per counterparty, its (account, contract) lines' debit balances
	// and credit balances added up apart in 1C, its open settlement documents counted there.
	rows := []onec.BalanceRow{
		{Account: "62", Counterparty: alfa, Debit: kop(t, "100.00"), Credit: kop(t, "80.00"), Documents: 2},
		{Account: "62", Counterparty: beta, Debit: kop(t, "100.00"), Credit: kop(t, "150.00"), Documents: 2},
	}
	out, hidden, _ := partyTotals(rows, false)
	want := []Row{{Ref: "a", Name: "Альфа", Amount: kop(t, "20.00"), Count: 2, Debt: kop(t, "100.00"), Advance: kop(t, "80.00")}}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
	wantHidden := []Row{{Ref: "b", Name: "Бета", Amount: kop(t, "-50.00"), Count: 2, Debt: kop(t, "100.00"), Advance: kop(t, "150.00")}}
	if diff := cmp.Diff(wantHidden, hidden); diff != "" {
		t.Errorf("hidden (-want +got):\n%s", diff)
	}
	note := hiddenDebtNote(hidden, false)
	if want := "Бета — долг 100,00 ₽, полученные авансы 150,00 ₽"; !containsNBSP(note, want) {
		t.Errorf("note = %q, want it to name %q", note, want)
	}
}

func containsNBSP(s, sub string) bool {
	norm := func(x string) string { return strings.ReplaceAll(x, "\u00a0", " ") }
	return strings.Contains(norm(s), norm(sub))
}

// The balance of 60 and 62 on a date carries, beside the demo ledger's per-counterparty figure,
// the expansion the turnover sheet shows for the period ending that day: the two answers to «осв
// по 62» agree.
func TestSnapshotAgreesWithTheSheet(t *testing.T) {
	l, _ := newTestLane(t)
	for _, account := range []string{"60", "62"} {
		for _, end := range []string{"2025-12-31", "2026-03-31"} {
			snap := l.Run(t.Context(), ask(recipe.AccountBalance, recipe.Filters{AsOfDate: end, Account: account}))
			sheet := l.Run(t.Context(), ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: end[:8] + "01", PeriodTo: end, Account: account}))
			if len(snap.All) != 1 || sheet.Report == nil {
				t.Fatalf("%s %s: snapshot %d rows, sheet %+v", account, end, len(snap.All), sheet.Message)
			}
			row, total := snap.All[0], sheet.Report.Total
			dt, kt := row.Debit, row.Credit
			if row.Debt != 0 || row.Advance != 0 {
				dt, kt = row.Debt, row.Advance
			}
			if dt != total.CloseDebit || kt != total.CloseCredit || row.Amount != total.CloseNet() {
				t.Errorf("%s on %s: snapshot Дт %s Кт %s (net %s), the sheet closes Дт %s Кт %s", account, end, dt, kt, row.Amount, total.CloseDebit, total.CloseCredit)
			}
		}
	}
}
