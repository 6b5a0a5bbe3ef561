package testscans

import (
	"bytes"
	"embed"
	"fmt"
	"image"
	_ "image/jpeg" // DecodeConfig of the pages
	_ "image/png"

	"codeberg.org/go-pdf/fpdf"
)

// Fixture is how one committed picture is made.
type Fixture struct {
	Name string
	Doc  Doc
	Look Look
}

// Fixtures are the committed pictures: what each says is its Doc.
func Fixtures() []Fixture {
	inv1, inv2 := Pages(Invoice())
	return []Fixture{
		{"invoice.png", Invoice(), Look{Skew: 0.8, Blur: 1, Noise: 0.004, Seed: 1}},
		{"upd.jpg", UPD(), Look{Skew: -0.6, Blur: 1, Noise: 0.003, Seed: 2, JPEG: true}},
		{"act.png", Act(), Look{Skew: 0.4, Noise: 0.004, Seed: 3}},
		{"receipt.png", Receipt(), Look{Width: 800, Seed: 4, Blur: 1}},
		{"unreadable.jpg", Doc{}, Look{Width: 600, Scrawl: true, Seed: 5, JPEG: true}},
		{"album-1.jpg", inv1, Look{Skew: 0.5, Blur: 1, Noise: 0.003, Seed: 6, JPEG: true}},
		{"album-2.jpg", inv2, Look{Skew: -0.7, Blur: 1, Noise: 0.003, Seed: 7, JPEG: true}},
		{"reconciliation.png", ReconciliationAct(), Look{Skew: 0.5, Blur: 1, Noise: 0.003, Seed: 10}},
	}
}

//go:embed testdata
var files embed.FS

// Read is a committed fixture's bytes: a picture of Fixtures, or «scan.pdf» (the invoice
// scanned as two pages, no text layer).
func Read(name string) []byte {
	b, err := files.ReadFile("testdata/" + name)
	if err != nil {
		panic(fmt.Sprintf("testscans: %v (render the fixtures: go test ./internal/testscans -update)", err))
	}
	return b
}

// ScanPDF is a PDF of the given JPEG or PNG pages, each an A4 page wholly covered by its image:
// a scan with no text layer.
func ScanPDF(pages ...[]byte) []byte {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCompression(true)
	for i, p := range pages {
		cfg, format, err := image.DecodeConfig(bytes.NewReader(p))
		if err != nil {
			panic(err)
		}
		name := fmt.Sprintf("page%d", i)
		pdf.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: format}, bytes.NewReader(p))
		pdf.AddPage()
		w := 190.0
		pdf.ImageOptions(name, 10, 10, w, w*float64(cfg.Height)/float64(cfg.Width), false, fpdf.ImageOptions{ImageType: format}, 0, "")
	}
	var b bytes.Buffer
	if err := pdf.Output(&b); err != nil {
		panic(err)
	}
	return b.Bytes()
}
