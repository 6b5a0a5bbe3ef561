package ledgergen

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/finbot/finbot/integrations/onec"
)

// files lists a ledger's records by the file generate.py writes them to.
func files(l *onec.Ledger) map[string][]any {
	out := map[string][]any{}
	add := func(name string, n int, at func(int) any) {
		rows := make([]any, n)
		for i := range rows {
			rows[i] = at(i)
		}
		out[name] = rows
	}
	add("organizations.json", len(l.Organizations), func(i int) any { return l.Organizations[i] })
	add("counterparties.json", len(l.Counterparties), func(i int) any { return l.Counterparties[i] })
	add("contracts.json", len(l.Contracts), func(i int) any { return l.Contracts[i] })
	add("documents.json", len(l.Documents), func(i int) any { return l.Documents[i] })
	add("movements.json", len(l.Movements), func(i int) any { return l.Movements[i] })
	add("chart_of_accounts.json", len(l.Accounts), func(i int) any { return l.Accounts[i] })
	return out
}

// sameLedger reports the first few records that differ, file by file, after the counts.
func sameLedger(t *testing.T, want, got *onec.Ledger) {
	t.Helper()
	wf, gf := files(want), files(got)
	for name, w := range wf {
		g := gf[name]
		if len(g) != len(w) {
			t.Errorf("%s: %d records, want %d", name, len(g), len(w))
		}
		bad := 0
		for i := range min(len(w), len(g)) {
			wj, err := json.Marshal(w[i])
			if err != nil {
				t.Fatal(err)
			}
			gj, err := json.Marshal(g[i])
			if err != nil {
				t.Fatal(err)
			}
			if string(wj) != string(gj) {
				t.Errorf("%s[%d]:\n got %s\nwant %s", name, i, gj, wj)
				if bad++; bad == 3 {
					break
				}
			}
		}
	}
}

// Scale 1 is the embedded demo data, record for record (not only the counts by file).
func TestScale1IsTheDemoData(t *testing.T) {
	want, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	sameLedger(t, want, Generate(1, DefaultSeed))
}

// Any scale equals the Python generator's output, when the shared generator is present.
func TestMatchesGeneratePy(t *testing.T) {
	script := filepath.Join("..", "..", "..", "..", "shared", "demo-ledger", "generate.py")
	if _, err := os.Stat(script); err != nil {
		t.Skipf("generate.py not present (%v)", err)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	if out, err := exec.Command(python, script, "--scale", "3", "--seed", "7", "--out", dir).CombinedOutput(); err != nil {
		t.Fatalf("generate.py: %v\n%s", err, out)
	}
	want, err := onec.LoadLedger(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	PaymentTerms(want.Contracts) // generate.py predates the contracts' payment terms
	sameLedger(t, want, Generate(3, 7))
}

// The README's invariants hold at a larger scale, checked directly rather than against
// Python.
func TestInvariants(t *testing.T) {
	const scale = 5
	l := Generate(scale, DefaultSeed)

	if n, want := len(l.Counterparties), 32*scale+1; n != want {
		t.Errorf("%d counterparties, want %d (32 per copy and the deletion-marked duplicate)", n, want)
	}
	names := map[string]bool{}
	marked := 0
	for _, cp := range l.Counterparties {
		names[cp.Name] = true
		if cp.DeletionMark {
			marked++
		}
		if !validINN(cp.INN) {
			t.Errorf("counterparty %q: INN %s has wrong check digits", cp.Name, cp.INN)
		}
		if (cp.Kind == "individual_entrepreneur") != (len(cp.INN) == 12) {
			t.Errorf("counterparty %q (%s): INN %s", cp.Name, cp.Kind, cp.INN)
		}
	}
	for _, o := range l.Organizations {
		if !validINN(o.INN) {
			t.Errorf("organization %q: INN %s has wrong check digits", o.Name, o.INN)
		}
	}
	if marked != 1 {
		t.Errorf("%d deletion-marked counterparties, want 1", marked)
	}
	for _, n := range []string{"АО «Вектор»", "ООО «Вектор Плюс»", "ООО «Гранит-М»", "ООО «Альфа Поставка»", `ООО "Ромашка"`,
		"ООО «Delta Trade»", l.DefaultOrganization().Name, "ООО «Гранит» (5)"} {
		if !names[n] {
			t.Errorf("no counterparty named %q", n)
		}
	}

	docs := map[string]onec.Document{}
	unposted, deleted := 0, 0
	for _, d := range l.Documents {
		if _, dup := docs[d.Ref]; dup {
			t.Fatalf("document ref %s twice", d.Ref)
		}
		docs[d.Ref] = d
		if !d.Posted {
			unposted++
		}
		if d.DeletionMark {
			deleted++
			if d.Posted {
				t.Errorf("document %s is deletion-marked but posted", d.Number)
			}
		}
	}
	if unposted == 0 || deleted == 0 {
		t.Errorf("%d unposted and %d deletion-marked documents: the filters go untested", unposted, deleted)
	}
	opening := 0
	for _, m := range l.Movements {
		d, ok := docs[m.RecorderRef]
		switch {
		case !ok:
			t.Fatalf("movement of unknown document %s", m.RecorderRef)
		case !d.Posted:
			t.Fatalf("movement of unposted document %s %s", d.Type, d.Number)
		case !m.Period.Equal(d.Date.Time):
			t.Fatalf("movement of %s dated %s, document %s", d.Number, m.Period, d.Date)
		}
		if d.Type == "ВводОстатков" {
			opening++
			if m.AccountDr != "000" && m.AccountCr != "000" || m.Period.Format("2006-01-02") != "2024-12-31" {
				t.Errorf("opening balance %s: %s/%s on %s, want against 000 on 2024-12-31", d.Number, m.AccountDr, m.AccountCr, m.Period)
			}
		}
		for _, side := range []struct {
			acc  string
			subs []onec.Subconto
		}{{m.AccountDr, m.SubcontoDr}, {m.AccountCr, m.SubcontoCr}} {
			settlement := strings.HasPrefix(side.acc, "60") || strings.HasPrefix(side.acc, "62")
			if settlement && len(side.subs) != 3 {
				t.Fatalf("settlement side %s of %s without counterparty, contract and document: %+v", side.acc, d.Number, m)
			}
			for _, s := range side.subs {
				if s.Ref == "" {
					t.Fatalf("empty %s subconto in %+v", s.Kind, m)
				}
			}
		}
	}
	if opening == 0 {
		t.Error("no opening balances")
	}
	if len(l.Movements) < 2000*scale/2 {
		t.Errorf("%d movements at scale %d: the ledger does not grow with the scale", len(l.Movements), scale)
	}
}

// validINN checks the check digits of a 10- or 12-digit INN.
func validINN(inn string) bool {
	d := make([]int, len(inn))
	for i, r := range inn {
		if r < '0' || r > '9' {
			return false
		}
		d[i] = int(r - '0')
	}
	switch len(d) {
	case 10:
		return checkDigit(d, []int{2, 4, 10, 3, 5, 9, 4, 6, 8}) == d[9]
	case 12:
		return checkDigit(d, []int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == d[10] &&
			checkDigit(d, []int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == d[11]
	}
	return false
}

func BenchmarkGenerateScale50(b *testing.B) {
	for b.Loop() {
		Generate(50, DefaultSeed)
	}
}
