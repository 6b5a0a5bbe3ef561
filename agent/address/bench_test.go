package address

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// scale50 generates the demo company at --scale 50 with the shared generator, once per run.
func scale50(b *testing.B) *onec.Demo {
	b.Helper()
	gen := filepath.Join("..", "..", "..", "shared", "demo-ledger", "generate.py")
	if _, err := os.Stat(gen); err != nil {
		b.Skipf("generator not present (%v)", err)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 not installed")
	}
	dir := b.TempDir()
	if out, err := exec.Command("python3", gen, "--scale", "50", "--out", dir).CombinedOutput(); err != nil {
		b.Fatalf("generate: %v\n%s", err, out)
	}
	l, err := onec.LoadLedger(os.DirFS(dir))
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("scale 50: %d movements, %d documents, %d counterparties", len(l.Movements), len(l.Documents), len(l.Counterparties))
	return onec.NewDemo(l)
}

// BenchmarkLaneReceivables is one whole answer to «кто нам должен на 31.03.2026» in process:
// decompose, catalogs (cached after the first answer, as in the bot), resolve, the recipe's
// query on the demo engine, the runtime stages and the Markdown. It reports p50 and p95.
func BenchmarkLaneReceivables(b *testing.B) {
	for _, tc := range []struct {
		name string
		src  func(b *testing.B) *onec.Demo
	}{
		{"scale1", func(b *testing.B) *onec.Demo { d, _ := demo(b); return d }},
		{"scale50", scale50},
	} {
		b.Run(tc.name, func(b *testing.B) {
			lane := NewLane(tc.src(b), nil, Options{Now: fixedNow, MaxRows: onec.MaxDemoRows})
			warm := lane.Answer(b.Context(), "кто нам должен на 31.03.2026")
			if warm.ResultMode == Limited {
				b.Fatalf("no answer: %s", warm.Message)
			}
			durations := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				res := lane.Answer(b.Context(), "кто нам должен на 31.03.2026")
				_ = res.Markdown()
				durations = append(durations, time.Since(start))
			}
			slices.Sort(durations)
			b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(durations[len(durations)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}
