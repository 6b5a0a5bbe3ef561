// Package testscans renders primary documents — a счёт на оплату, a УПД, an акт, a till receipt —
// to images a phone camera or a scanner could have made (noise, blur, a small skew), so that the
// OCR tests know exactly what each picture says. The images are made here, in Go, with the
// Liberation fonts; the fixtures under testdata/ are rendered by TestFixtures -update.
package testscans

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"

	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Party is a seller or a buyer as the document prints it.
type Party struct{ Role, Name, INN, KPP string }

// Line is a goods line's cells as printed (strings, so that a wrong figure can be planted).
type Line struct{ No, Name, Unit, Qty, Price, Net, Rate, VAT, Gross string }

// Doc is a document's printed content, top to bottom.
type Doc struct {
	Head    []string // lines above the title (the seller's letterhead)
	Title   string   // «СЧЁТ НА ОПЛАТУ № 28 от 02.03.2026»
	Parties []Party
	// Header are the table's column titles; Lines its rows (none: no table).
	Header Line
	Lines  []Line
	Totals []string // lines under the table
	Foot   []string // signatures and the like
	// Text is a free-form document (a till receipt): its lines only, no table.
	Text []string
	// Sub are lines under the title (an act's period and parties).
	Sub []string
	// Grid is a table of any columns (an act of reconciliation), drawn after the parties.
	Grid *Grid
}

// Grid is a table whose columns are placed by Cols: its first row is the header (bold, smaller).
type Grid struct {
	Cols []GridCol
	Rows [][]string
}

// GridCol is a column: its left edge (or right edge, for figures) in thousandths of the width.
type GridCol struct {
	At    int
	Right bool
}

// Look is how the picture was taken.
type Look struct {
	Width  int     // pixels (default 1500)
	Size   float64 // the font's size in pixels (default 26)
	Skew   float64 // degrees, counter-clockwise
	Blur   int     // box-blur passes (0: none)
	Noise  float64 // share of pixels turned to random grey (0..1)
	Seed   uint64
	JPEG   bool // encode as JPEG (quality 80) instead of PNG
	Scrawl bool // no text at all: a dark blurry photo of nothing (an unreadable picture)
}

var faces = map[bool]*opentype.Font{}

func face(bold bool, size float64) font.Face {
	f := faces[bold]
	if f == nil {
		data := liberationsansregular.TTF
		if bold {
			data = liberationsansbold.TTF
		}
		var err error
		if f, err = opentype.Parse(data); err != nil {
			panic(err)
		}
		faces[bold] = f
	}
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	return fc
}

// Render draws d as look says and returns the encoded image.
func Render(d Doc, look Look) []byte {
	if look.Width == 0 {
		look.Width = 1800
	}
	if look.Size == 0 {
		look.Size = 26
	}
	lh := int(look.Size * 1.55)
	rows := len(d.Head) + 2 + len(d.Parties)*2 + len(d.Lines) + 2 + len(d.Totals) + len(d.Foot) + len(d.Text) + 4 + len(d.Sub)
	if d.Grid != nil {
		rows += len(d.Grid.Rows) + 2
	}
	if len(d.Lines) > 0 {
		rows += 2
	}
	h := rows*lh + 120
	img := image.NewGray(image.Rect(0, 0, look.Width, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.Gray{Y: 250}), image.Point{}, draw.Src)
	rng := rand.New(rand.NewPCG(look.Seed, 31))
	if !look.Scrawl {
		reg, bold := face(false, look.Size), face(true, look.Size)
		big := face(true, look.Size*1.25)
		x0, y := 70, 80
		put := func(f font.Face, x int, s string) {
			dr := font.Drawer{Dst: img, Src: image.NewUniform(color.Gray{Y: 20}), Face: f, Dot: fixed.P(x, y)}
			dr.DrawString(s)
		}
		right := func(f font.Face, x int, s string) { // s ends at x
			w := font.MeasureString(f, s).Round()
			put(f, x-w, s)
		}
		for _, s := range d.Head {
			put(bold, x0, s)
			y += lh
		}
		if d.Title != "" {
			y += lh / 2
			put(big, x0, d.Title)
			y += lh + lh/2
		}
		for _, s := range d.Sub {
			put(reg, x0, s)
			y += lh
		}
		if g := d.Grid; g != nil {
			y += lh / 2
			small := face(true, look.Size*0.85)
			for i, r := range g.Rows {
				f := reg
				if i == 0 {
					f = small
				}
				for j, s := range r {
					if j >= len(g.Cols) {
						break
					}
					at := g.Cols[j].At * look.Width / 1000
					if g.Cols[j].Right {
						right(f, at, s)
					} else {
						put(f, at, s)
					}
				}
				if i == 0 {
					for x := x0; x < look.Width-70; x++ {
						img.SetGray(x, y+10, color.Gray{Y: 60})
					}
				}
				y += lh
			}
			y += lh / 2
		}
		for _, p := range d.Parties {
			put(bold, x0, p.Role+":")
			put(reg, x0+210, p.Name)
			y += lh
			details := "ИНН " + p.INN
			if p.KPP != "" {
				details += "    КПП " + p.KPP
			}
			put(reg, x0+210, details)
			y += lh
		}
		if len(d.Lines) > 0 {
			y += lh / 2
			// Columns: №, name (left), unit, then right-aligned figures.
			cols := []int{x0, x0 + 45, 0, 0, 0, 0, 0, 0, 0}
			ends := []int{0, 0, 0, 0, 0, 0, 0, 0, 0}
			w := look.Width - 70
			// right edges of qty, price, net, rate, vat, gross; unit left-aligned before qty
			ends[8] = w
			ends[7] = w - 185
			ends[6] = ends[7] - 185
			ends[5] = ends[6] - 150
			ends[4] = ends[5] - 210
			ends[3] = ends[4] - 185
			cols[2] = ends[3] - 160
			row := func(l Line, f font.Face) {
				put(f, cols[0], l.No)
				put(f, cols[1], l.Name)
				put(f, cols[2], l.Unit)
				for i, s := range []string{l.Qty, l.Price, l.Net, l.Rate, l.VAT, l.Gross} {
					right(f, ends[3+i], s)
				}
				y += lh
			}
			small := face(true, look.Size*0.8)
			row(d.Header, small)
			for x := x0; x < w; x++ {
				img.SetGray(x, y-lh+8, color.Gray{Y: 60})
			}
			for _, l := range d.Lines {
				row(l, reg)
			}
			y += lh / 2
		}
		for _, s := range d.Totals {
			right(bold, look.Width-70, s)
			y += lh
		}
		for _, s := range d.Text {
			put(reg, x0, s)
			y += lh
		}
		y += lh
		for _, s := range d.Foot {
			put(reg, x0, s)
			y += lh
		}
	} else {
		for i := range img.Pix {
			img.Pix[i] = uint8(60 + rng.IntN(60))
		}
		for range 40 {
			x, yy, r := rng.IntN(look.Width), rng.IntN(h), 20+rng.IntN(120)
			g := uint8(rng.IntN(255))
			for dy := -r; dy <= r; dy++ {
				for dx := -r; dx <= r; dx++ {
					if dx*dx+dy*dy <= r*r && image.Pt(x+dx, yy+dy).In(img.Bounds()) {
						img.SetGray(x+dx, yy+dy, color.Gray{Y: g})
					}
				}
			}
		}
		look.Blur += 6
	}
	var out image.Image = img
	if look.Skew != 0 {
		out = rotate(img, look.Skew)
	}
	g := out.(*image.Gray)
	for range look.Blur {
		g = blur(g)
	}
	if look.Noise > 0 {
		n := int(float64(len(g.Pix)) * look.Noise)
		for range n {
			g.Pix[rng.IntN(len(g.Pix))] = uint8(rng.IntN(256))
		}
	}
	var b bytes.Buffer
	var err error
	if look.JPEG {
		err = jpeg.Encode(&b, g, &jpeg.Options{Quality: 80})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, g)
	}
	if err != nil {
		panic(fmt.Sprintf("testscans: encode: %v", err))
	}
	return b.Bytes()
}

// rotate turns src by deg degrees around its centre (bilinear), the corners paper-white.
func rotate(src *image.Gray, deg float64) *image.Gray {
	b := src.Bounds()
	dst := image.NewGray(b)
	s, c := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(b.Dx())/2, float64(b.Dy())/2
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			fx, fy := float64(x)-cx, float64(y)-cy
			sx, sy := c*fx-s*fy+cx, s*fx+c*fy+cy
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			if x0 < 0 || y0 < 0 || x0+1 >= b.Dx() || y0+1 >= b.Dy() {
				dst.Pix[y*dst.Stride+x] = 250
				continue
			}
			ax, ay := sx-float64(x0), sy-float64(y0)
			at := func(x, y int) float64 { return float64(src.Pix[y*src.Stride+x]) }
			v := at(x0, y0)*(1-ax)*(1-ay) + at(x0+1, y0)*ax*(1-ay) + at(x0, y0+1)*(1-ax)*ay + at(x0+1, y0+1)*ax*ay
			dst.Pix[y*dst.Stride+x] = uint8(v + 0.5)
		}
	}
	return dst
}

// blur is one pass of a 3×3 box blur.
func blur(src *image.Gray) *image.Gray {
	b := src.Bounds()
	dst := image.NewGray(b)
	copy(dst.Pix, src.Pix)
	for y := 1; y < b.Dy()-1; y++ {
		for x := 1; x < b.Dx()-1; x++ {
			sum := 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					sum += int(src.Pix[(y+dy)*src.Stride+x+dx])
				}
			}
			dst.Pix[y*dst.Stride+x] = uint8(sum / 9)
		}
	}
	return dst
}
