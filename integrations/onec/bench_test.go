package onec_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/finbot/finbot/integrations/onec"
)

var scale50 struct {
	once sync.Once
	l    *onec.Ledger
	d    *onec.Demo
	skip string
	err  error
}

// bigDemo generates the ledger at --scale 50 once per test binary (about 110k movements),
// loads it and deletes the files; it skips when python3 or the generator is missing.
func bigDemo(b *testing.B) (*onec.Ledger, *onec.Demo) {
	scale50.once.Do(func() {
		script := filepath.Join("..", "..", "..", "shared", "demo-ledger", "generate.py")
		if _, err := os.Stat(script); err != nil {
			scale50.skip = fmt.Sprintf("generator not present: %v", err)
			return
		}
		python, err := exec.LookPath("python3")
		if err != nil {
			scale50.skip = "python3 not found"
			return
		}
		dir, err := os.MkdirTemp("", "onec-scale50-")
		if err != nil {
			scale50.err = err
			return
		}
		defer os.RemoveAll(dir)
		if out, err := exec.Command(python, script, "--scale", "50", "--out", dir).CombinedOutput(); err != nil {
			scale50.err = fmt.Errorf("generate.py: %v: %s", err, out)
			return
		}
		scale50.l, scale50.err = onec.LoadLedger(os.DirFS(dir))
		if scale50.err == nil {
			scale50.d = onec.NewDemo(scale50.l)
		}
	})
	if scale50.skip != "" {
		b.Skip(scale50.skip)
	}
	if scale50.err != nil {
		b.Fatal(scale50.err)
	}
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
