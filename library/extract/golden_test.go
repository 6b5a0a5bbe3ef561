package extract

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/ordinary.golden.json")

// Ordinary documents extract exactly as they did before the hostile-file bounds (issue #19):
// the golden file was written by the code before them.
func TestOrdinaryGolden(t *testing.T) {
	files := []struct {
		name string
		data []byte
	}{
		{"договор.docx", fixtureDOCX(t)},
		{"bench.docx", benchDOCX(t)},
		{"реестр.xlsx", fixtureXLSX(t)},
		{"a.pdf", fixturePDF(t, pdfOpts{})},
		{"c.pdf", fixturePDF(t, pdfOpts{compress: true})},
		{"min.pdf", minimalPDF("BT /F1 12 Tf 72 700 Td (Hello, world: this is the first page.) Tj 0 -14 Td [(Second) -300 (line.)] TJ ET",
			"BT /F1 12 Tf 72 700 Td (The second page text, long enough to count.) Tj ET")},
		{"a.txt", []byte(sampleText)},
		{"w.txt", cp1251(t, sampleText)},
		{"a.md", []byte("# Заголовок\n\nтекст\n\n## Раздел\n\nещё текст")},
		{"a.csv", []byte("a;b\n1;\"2\"\n")},
	}
	for _, f := range []string{"aes128_owner.pdf", "rc4_128_owner.pdf"} {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, struct {
			name string
			data []byte
		}{f, data})
	}
	// Small documents are kept whole; a large one by its digest.
	type entry struct {
		Doc    *Document `json:",omitempty"`
		Chars  int       `json:",omitempty"`
		SHA256 string    `json:",omitempty"`
	}
	got := map[string]entry{}
	for _, f := range files {
		d, err := Extract(context.Background(), f.name, f.data, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if d.Chars < 20_000 {
			got[f.name] = entry{Doc: &d}
			continue
		}
		js, _ := json.Marshal(d)
		sum := sha256.Sum256(js)
		got[f.name] = entry{Chars: d.Chars, SHA256: hex.EncodeToString(sum[:])}
	}
	out, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "ordinary.golden.json")
	if *updateGolden {
		if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(want), bytes.TrimSpace(out)) {
		t.Errorf("extraction of ordinary documents changed; see %s (rewrite with -update-golden only if intended)", path)
		var w map[string]entry
		if json.Unmarshal(want, &w) == nil {
			for name, d := range got {
				a, _ := json.Marshal(d)
				b, _ := json.Marshal(w[name])
				if !bytes.Equal(a, b) {
					t.Errorf("%s differs", name)
				}
			}
		}
	}
}
