package onec

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// paymentTermFields are the contracts' payment terms (Contract.PaymentTermSet, PaymentTermDays),
// which the embedded copy has and the shared demo ledger predates.
var paymentTermFields = regexp.MustCompile(`,"payment_term_set":true|,"payment_term_days":\d+`)

// The embedded copy must stay identical to the shared demo ledger, when that is present — but
// for the contracts' payment terms, which only the embedded copy (and ledgergen) has: without
// them its contracts.json is the shared one byte for byte.
func TestDemoCopyMatchesShared(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared", "demo-ledger", "data")
	entries, err := os.ReadDir(shared)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI runs with ../shared beside the repo, but %s is unreadable: %v", shared, err)
		}
		t.Skipf("shared demo ledger not present (%v); nothing to compare", err)
	}
	embedded, err := fs.ReadDir(DemoFiles(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(embedded) {
		t.Errorf("shared has %d files, embedded copy has %d", len(entries), len(embedded))
	}
	for _, e := range entries {
		want, err := os.ReadFile(filepath.Join(shared, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := fs.ReadFile(DemoFiles(), e.Name())
		if err != nil {
			t.Errorf("embedded copy lacks %s: %v", e.Name(), err)
			continue
		}
		if e.Name() == "contracts.json" {
			got = paymentTermFields.ReplaceAll(got, nil)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("embedded %s differs from shared (%d vs %d bytes): copy it again", e.Name(), len(got), len(want))
		}
	}
}

func TestLoadDemo(t *testing.T) {
	l, err := LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	if got := l.DefaultOrganization().Name; got != "ООО «Северный ветер»" {
		t.Errorf("default organization = %q", got)
	}
	if len(l.Movements) < 1000 || len(l.Documents) < 1000 || len(l.Counterparties) < 20 {
		t.Errorf("ledger looks truncated: %d movements, %d documents, %d counterparties",
			len(l.Movements), len(l.Documents), len(l.Counterparties))
	}
	// Sums are exact: the total of all movements equals the sum read as decimal strings.
	var total Kopecks
	for _, m := range l.Movements {
		total += m.Amount
	}
	if total <= 0 {
		t.Errorf("movement total = %s", total.Decimal())
	}
}

func TestParseKopecks(t *testing.T) {
	tests := []struct {
		in      string
		want    Kopecks
		wantErr bool
	}{
		{"148530.91", 14853091, false},
		{"0.1", 10, false},
		{"-5", -500, false},
		{"0.0", 0, false},
		{"12.340", 1234, false},
		{"1.005", 0, true},
		{"abc", 0, true},
		{"", 0, true},
		{"1e5", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseKopecks(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseKopecks(%q) = %d, %v; want %d, err=%v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
	if got := Kopecks(123456789).String(); got != "1\u00a0234\u00a0567,89\u00a0₽" {
		t.Errorf("String() = %q", got)
	}
	if got := Kopecks(-5).Decimal(); got != "-0.05" {
		t.Errorf("Decimal() = %q", got)
	}
}
