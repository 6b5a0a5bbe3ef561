package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/finbot/finbot/integrations/onec"
)

func TestLedgerExport(t *testing.T) {
	noEnv := func(string) (string, bool) { return "", false }
	for _, tt := range []struct {
		name    string
		args    []string // DIR is appended where "DIR" stands
		wantErr bool
		wantOut string
	}{
		{"default", []string{"ledger", "export", "--demo", "default", "DIR"}, false, "контрагентов 33"},
		{"default when not named", []string{"ledger", "export", "DIR"}, false, "контрагентов 33"},
		{"help", []string{"ledger", "export", "--help"}, false, "независимым расчётом"},
		{"unknown base", []string{"ledger", "export", "--demo", "real", "DIR"}, true, ""},
		{"no directory", []string{"ledger", "export"}, true, "использование"},
		{"unknown subcommand", []string{"ledger", "import", "DIR"}, true, "использование"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = strings.ReplaceAll(a, "DIR", dir)
			}
			var out, errOut bytes.Buffer
			err := run(context.Background(), args, noEnv, strings.NewReader(""), &out, &errOut)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if !strings.Contains(out.String(), tt.wantOut) {
				t.Errorf("output %q lacks %q", out.String(), tt.wantOut)
			}
			if tt.wantErr || tt.name == "help" {
				return
			}
			l, err := onec.LoadLedger(os.DirFS(dir))
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Counterparties) != 33 || len(l.Movements) != 2277 {
				t.Errorf("exported %d counterparties, %d records", len(l.Counterparties), len(l.Movements))
			}
		})
	}
}
