package testscans

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "render the committed fixtures again")

// TestFixtures: the committed pictures are what Render makes of their documents (rendering is
// deterministic), so what each says is known. -update renders them again.
func TestFixtures(t *testing.T) {
	want := map[string][]byte{}
	for _, f := range Fixtures() {
		want[f.Name] = Render(f.Doc, f.Look)
	}
	want["scan.pdf"] = ScanPDF(
		Render(Fixtures()[5].Doc, Look{Skew: 0.3, Noise: 0.002, Seed: 8, JPEG: true}),
		Render(Fixtures()[6].Doc, Look{Skew: -0.3, Noise: 0.002, Seed: 9, JPEG: true}))
	for name, b := range want {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if name == "scan.pdf" {
			continue // fpdf stamps the creation date
		}
		if !bytes.Equal(Read(name), b) {
			t.Errorf("%s differs from what Render makes now: go test ./internal/testscans -update", name)
		}
	}
}
