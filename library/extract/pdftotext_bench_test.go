package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkPDFReaders measures our reader and pdftotext on ordinary and hostile PDFs: time,
// throughput (MB/s of input), allocations (ours) and peak memory — for ours the memory the Go
// runtime holds (as BenchmarkHostile), for pdftotext the child's peak RSS (getrusage). Both are
// bounded as the bot would bound them: the default Limits for ours; for pdftotext a 30 s timeout
// and the output bounded at 4 × DefaultMaxChars bytes. Run with -benchtime 1x for the hostile
// ones; docs/benchmarks.md has the table.
func BenchmarkPDFReaders(b *testing.B) {
	type input struct {
		name string
		make func(testing.TB) []byte // made in its sub-benchmark, so that no other input counts in its peak
	}
	var inputs []input
	supply, err := os.ReadFile(filepath.Join("..", "..", "agent", "documents", "testdata", "docset", "02_supply.md"))
	if err != nil {
		b.Fatal(err)
	}
	inputs = append(inputs, input{"ordinary/supply-contract", func(t testing.TB) []byte {
		data, _, _ := printedPDF(t, string(supply))
		return data
	}})
	// The whole first docset printed as one long document.
	var all strings.Builder
	files, _ := filepath.Glob(filepath.Join("..", "..", "agent", "documents", "testdata", "docset*", "0*.md"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		all.Write(raw)
		all.WriteString("\n\n")
	}
	inputs = append(inputs, input{"ordinary/docsets-x4", func(t testing.TB) []byte {
		data, _, _ := printedPDF(t, strings.Repeat(all.String(), 4))
		return data
	}})
	for _, h := range hostileShapes() {
		if strings.HasPrefix(h.name, "pdf/") {
			inputs = append(inputs, input{"hostile/" + strings.TrimPrefix(h.name, "pdf/"), h.make})
		}
	}
	bin := ""
	if p, err := lookPDFToText(); err == nil {
		bin = p
	} else if os.Getenv("FINBOT_REQUIRE_OCR") == "1" {
		b.Fatal(err)
	}
	var wrap []string // GNU time, for pdftotext's own peak RSS (see runPDFToTextIn)
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		wrap = []string{"/usr/bin/time", "-f", "maxrss=%M"}
	}
	for _, in := range inputs {
		b.Run("ours/"+in.name, func(b *testing.B) {
			data := in.make(b)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var peak float64
			var err error
			for b.Loop() {
				p := startPeak()
				_, err = Extract(context.Background(), "x.pdf", data, Limits{})
				peak = max(peak, p.Stop())
			}
			b.ReportMetric(peak, "peak-MiB")
			b.Logf("%s: %d bytes, %s, peak %.0f MiB", in.name, len(data), outcome(err), peak)
		})
		if bin == "" {
			continue
		}
		for _, m := range popplerModes {
			if m.args != nil && strings.HasPrefix(in.name, "hostile/") {
				continue // the modes share the parser: one is enough for the hostile files
			}
			b.Run(strings.ReplaceAll(m.name, " ", "")+"/"+in.name, func(b *testing.B) {
				data := in.make(b)
				b.SetBytes(int64(len(data)))
				var peak int64
				var err error
				var chars int
				for b.Loop() {
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					var r popplerRun
					r, err = runPDFToTextIn(ctx, wrap, bin, data, 4*DefaultMaxChars, m.args...)
					cancel()
					peak = max(peak, r.maxRSS)
					chars = len(popplerText(r.pages))
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
				res := "extracted"
				if err != nil {
					res = err.Error()
				}
				b.Logf("%s: %d bytes, %s (%d bytes of text), peak RSS %.0f MiB", in.name, len(data), res, chars, float64(peak)/(1<<20))
			})
		}
	}
}
