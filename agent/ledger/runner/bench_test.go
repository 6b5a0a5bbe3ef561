package runner

import (
	"slices"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
)

// scale50 is the demo company at scale 50 (about 60,000 documents and 113,000 movements),
// generated in process: the same ledger as the shared generate.py --scale 50 writes.
func scale50(b *testing.B) *onec.Demo {
	b.Helper()
	l := ledgergen.Generate(50, ledgergen.DefaultSeed)
	b.Logf("scale 50: %d movements, %d documents, %d counterparties", len(l.Movements), len(l.Documents), len(l.Counterparties))
	return onec.NewDemo(l)
}

// BenchmarkLaneReceivables is one whole answer to «кто нам должен на 31.03.2026» in process,
// from its decomposition: catalogs (cached after the first answer, as in the bot), resolve, the
// recipe's query on the demo engine, the runtime stages and the Markdown. It reports p50 and p95.
func BenchmarkLaneReceivables(b *testing.B) {
	for _, tc := range []struct {
		name string
		src  func(b *testing.B) *onec.Demo
	}{
		{"scale1", func(b *testing.B) *onec.Demo { d, _ := demo(b); return d }},
		{"scale50", scale50},
	} {
		b.Run(tc.name, func(b *testing.B) {
			lane := NewLane(tc.src(b), Options{Now: fixedNow, MaxRows: onec.MaxDemoRows, Organization: mainOrg})
			d := ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"})
			warm := lane.Run(b.Context(), d)
			if warm.ResultMode == Limited {
				b.Fatalf("no answer: %s", warm.Message)
			}
			durations := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				res := lane.Run(b.Context(), d)
				_ = res.Markdown()
				durations = append(durations, time.Since(start))
			}
			slices.Sort(durations)
			b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(durations[len(durations)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}
