package onec_test

import (
	"os"
	"reflect"
	"testing"

	"github.com/finbot/finbot/integrations/onec"
)

// The default demo written out and read back is the same ledger: an independent calculation
// over the exported files sees exactly what the demo answers from.
func TestWriteLedgerRoundTrip(t *testing.T) {
	want, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := onec.WriteLedger(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := onec.LoadLedger(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"organizations", got.Organizations, want.Organizations},
		{"counterparties", got.Counterparties, want.Counterparties},
		{"contracts", got.Contracts, want.Contracts},
		{"documents", got.Documents, want.Documents},
		{"movements", got.Movements, want.Movements},
		{"chart", got.Accounts, want.Accounts},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			t.Errorf("%s differ after export", f.name)
		}
	}
}
