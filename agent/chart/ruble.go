package chart

import (
	"math"
	"strings"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// rubleSign is U+20BD. The Liberation fonts bundled with gonum/plot have
// Cyrillic but no ruble sign, so rubleHandler draws it as a Cyrillic "Р"
// with the sign's horizontal bar added as a filled rectangle.
const (
	rubleSign = '₽'
	cyrillicR = "Р" // U+0420
)

// rubleHandler is text.Plain that can draw "₽".
type rubleHandler struct {
	text.Plain
}

var _ text.Handler = rubleHandler{}

// Box implements text.Handler; "₽" is as wide as "Р".
func (h rubleHandler) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	return h.Plain.Box(strings.ReplaceAll(txt, string(rubleSign), cyrillicR), fnt)
}

// Draw implements text.Handler. It mirrors text.Plain.Draw, drawing each
// "₽" as "Р" plus a bar.
func (h rubleHandler) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	if !strings.ContainsRune(txt, rubleSign) {
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	txt = strings.TrimRight(txt, "\n")
	face := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		defer c.Pop()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin

	lines := h.Lines(txt)
	ht := sty.Height(txt)
	pt.Y += ht*vg.Length(sty.YAlign) - face.Extents().Ascent
	for i, line := range lines {
		sub := strings.ReplaceAll(line, string(rubleSign), cyrillicR)
		xoffs := vg.Length(sty.XAlign) * face.Width(sub)
		n := vg.Length(len(lines) - i)
		base := pt.Add(vg.Point{X: xoffs, Y: n * sty.Font.Size})
		c.FillString(face, base, sub)

		rw := face.Width(cyrillicR)
		for j, r := range line {
			if r != rubleSign {
				continue
			}
			prefix := strings.ReplaceAll(line[:j], string(rubleSign), cyrillicR)
			x := face.Width(prefix+cyrillicR) - rw
			rubleBar(c, face, base.Add(vg.Point{X: x}))
		}
	}
}

// rubleBar fills the horizontal bar of a ruble sign whose "Р" is drawn with
// its origin at o. The geometry comes from the font's own "I" (stem width)
// and "Р" (stem position, cap height, width) outlines.
func rubleBar(c vg.Canvas, face font.Face, o vg.Point) {
	if face.Face == nil {
		return
	}
	var buf sfnt.Buffer
	upem := face.Face.UnitsPerEm()
	ppem := fixed.Int26_6(upem) // bounds then come out in font units
	bounds := func(r rune) (fixed.Rectangle26_6, bool) {
		idx, err := face.Face.GlyphIndex(&buf, r)
		if err != nil || idx == 0 {
			return fixed.Rectangle26_6{}, false
		}
		b, _, err := face.Face.GlyphBounds(&buf, idx, ppem, xfont.HintingNone)
		return b, err == nil
	}
	rb, ok := bounds('Р')
	if !ok {
		return
	}
	stem := vg.Length(0.1) * face.Font.Size
	if ib, ok := bounds('I'); ok {
		stem = vg.Length(ib.Max.X-ib.Min.X) * face.Font.Size / vg.Length(upem)
	}
	scale := face.Font.Size / vg.Length(upem)
	left := o.X + vg.Length(rb.Min.X)*scale
	width := vg.Length(rb.Max.X-rb.Min.X) * scale
	capH := vg.Length(-rb.Min.Y) * scale // sfnt's Y axis points down

	thick := stem * 0.8
	cy := o.Y + capH*0.22
	x0 := left - stem*0.75
	x1 := left + width*0.68
	var p vg.Path
	p.Move(vg.Point{X: x0, Y: cy - thick/2})
	p.Line(vg.Point{X: x1, Y: cy - thick/2})
	p.Line(vg.Point{X: x1, Y: cy + thick/2})
	p.Line(vg.Point{X: x0, Y: cy + thick/2})
	p.Close()
	c.Fill(p)
}
