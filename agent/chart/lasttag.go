package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// lastTag is a plot.Plotter that marks the last point with a ringed dot and
// a filled tag with its value to the right of it, outside the data area.
// Its glyph boxes make gonum/plot shrink the data area so the tag fits.
type lastTag struct {
	X, Y  float64
	Label string
	Font  font.Font
	Size  vg.Length
	Color color.Color
	// Radius is the dot's outer radius; Ring the width of its white ring.
	Radius, Ring vg.Length
	// Gap separates the dot from the tag's arrow tip; PadX and PadY pad the
	// text; Arrow is the length of the arrow pointing at the dot.
	Gap, PadX, PadY, Arrow vg.Length
	Cache                  *font.Cache
}

var (
	_ plot.Plotter    = (*lastTag)(nil)
	_ plot.GlyphBoxer = (*lastTag)(nil)
)

func (t *lastTag) face() font.Face {
	f := t.Font
	f.Size = t.Size
	return t.Cache.Lookup(f, t.Size)
}

// size returns the tag body size and the text's cap height.
func (t *lastTag) size() (w, h, capH vg.Length) {
	capH = t.Size * 0.72 // Liberation Sans digits
	face := t.face()
	w = face.Width(t.Label) + 2*t.PadX
	h = capH + 2*t.PadY + t.Size*0.35
	return w, h, capH
}

// Plot implements plot.Plotter.
func (t *lastTag) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	pt := vg.Point{X: trX(t.X), Y: trY(t.Y)}

	c.SetColor(color.White)
	c.Fill(circle(pt, t.Radius))
	c.SetColor(t.Color)
	c.Fill(circle(pt, t.Radius-t.Ring))

	w, h, capH := t.size()
	tip := pt.X + t.Radius + t.Gap
	x1 := tip + t.Arrow
	x2 := x1 + w
	top, bot := pt.Y+h/2, pt.Y-h/2
	r := h * 0.22
	ah := min(t.Arrow*0.9, h/2-r)
	const q = math.Pi / 2

	var p vg.Path
	p.Move(vg.Point{X: tip, Y: pt.Y})
	p.Line(vg.Point{X: x1, Y: pt.Y + ah})
	p.Line(vg.Point{X: x1, Y: top - r})
	p.Arc(vg.Point{X: x1 + r, Y: top - r}, r, 2*q, -q)
	p.Line(vg.Point{X: x2 - r, Y: top})
	p.Arc(vg.Point{X: x2 - r, Y: top - r}, r, q, -q)
	p.Line(vg.Point{X: x2, Y: bot + r})
	p.Arc(vg.Point{X: x2 - r, Y: bot + r}, r, 0, -q)
	p.Line(vg.Point{X: x1 + r, Y: bot})
	p.Arc(vg.Point{X: x1 + r, Y: bot + r}, r, -q, -q)
	p.Line(vg.Point{X: x1, Y: pt.Y - ah})
	p.Close()
	c.SetColor(t.Color)
	c.Fill(p)

	c.SetColor(color.White)
	c.FillString(t.face(), vg.Point{X: x1 + t.PadX, Y: pt.Y - capH/2}, t.Label)
}

// GlyphBoxes implements plot.GlyphBoxer: the dot and the tag.
func (t *lastTag) GlyphBoxes(plt *plot.Plot) []plot.GlyphBox {
	w, h, _ := t.size()
	x, y := plt.X.Norm(t.X), plt.Y.Norm(t.Y)
	r := t.Radius
	return []plot.GlyphBox{
		{X: x, Y: y, Rectangle: vg.Rectangle{Min: vg.Point{X: -r, Y: -r}, Max: vg.Point{X: r, Y: r}}},
		{X: x, Y: y, Rectangle: vg.Rectangle{
			Min: vg.Point{X: r + t.Gap, Y: -h / 2},
			Max: vg.Point{X: r + t.Gap + t.Arrow + w, Y: h / 2},
		}},
	}
}

// circle returns a closed circular path.
func circle(c vg.Point, r vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: c.X + r, Y: c.Y})
	p.Arc(c, r, 0, 2*math.Pi)
	p.Close()
	return p
}
