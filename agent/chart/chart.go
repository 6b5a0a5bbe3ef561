// Package chart renders small time-series charts (exchange rates, the key
// rate) as PNG images suitable for sending as a Telegram photo.
//
// The output is designed to be read on a phone: large Russian labels in
// Liberation Sans, dates on the X axis ("dd.mm" for short ranges, "янв 2025"
// style month labels for longer ones), a light grid, a Y range padded by 5 %
// and the last observation marked with a tag showing its value in Russian
// notation ("81,1234").
//
// Rendering uses gonum.org/v1/plot and its vgimg back end. Everything is
// scaled from a 1200×675 reference layout, so other sizes keep the same
// proportions.
package chart

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"
	"strings"
	"time"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Point is one observation. Values are float64 here only because plotting
// needs them; sums are never computed from them.
type Point struct {
	Date  time.Time
	Value float64
}

// Spec describes one chart.
type Spec struct {
	// Title is drawn bold at the top left, e.g.
	// "Курс USD, ₽ за 1 единицу — март 2026". It is shrunk or wrapped onto
	// two lines when it does not fit. Empty means no title.
	Title string
	// YLabel is the unit of the Y axis, e.g. "₽" or "%". It is drawn
	// horizontally above the Y tick labels. Empty means no unit label.
	YLabel string
	// Points are the observations, ascending by date; at least one point is
	// required. (Points are sorted by date before drawing, so a caller that
	// passes them out of order still gets a correct chart.)
	Points []Point
	// Step draws the series as a step function: each value holds until the
	// next point (the key rate). To show the last value holding until some
	// date, add a final point with that date and the same value.
	Step bool
	// Width and Height are the image size in pixels. Zero means the default
	// 1200×675 (16:9, Telegram's photo preview ratio). Each must lie in
	// [MinSize, MaxSize] when set.
	Width, Height int
}

// Default and allowed image sizes, in pixels.
const (
	DefaultWidth  = 1200
	DefaultHeight = 675
	MinSize       = 200
	MaxSize       = 4096
)

// Errors returned by PNG; test with errors.Is.
var (
	// ErrNoPoints is returned when Spec.Points is empty.
	ErrNoPoints = errors.New("chart: no points")
	// ErrBadValue is returned for a NaN or infinite value, or for a value
	// range too wide to be represented.
	ErrBadValue = errors.New("chart: non-finite value")
	// ErrBadSize is returned when Width or Height is out of range.
	ErrBadSize = errors.New("chart: bad image size")
)

// Reference layout: all sizes below are pixels of a 1200×675 image and are
// scaled for other sizes.
const (
	refWidth  = 1200.0
	refHeight = 675.0
	dpi       = 96

	marginPx      = 28
	titleSizePx   = 36
	titleGapPx    = 14
	unitSizePx    = 22
	unitGapPx     = 10
	tickSizePx    = 24
	tagSizePx     = 26
	lineWidthPx   = 4
	markerRadPx   = 5
	lastRadPx     = 10
	lastRingPx    = 3.5
	gridWidthPx   = 1.5
	axisWidthPx   = 1.5
	tickLenPx     = 8
	axisPadPx     = 10
	dayLabelPx    = 110 // horizontal room per "dd.mm" label
	monthLabelPx  = 75  // horizontal room per month label
	maxDaySpan    = 120 // days; longer ranges get month labels
	fewPoints     = 31  // up to this many points get individual markers
	yPadFraction  = 0.05
	flatPadFactor = 0.05 // flat series: ±5 % of |value| (±1 for zero)
)

var (
	colLine  = color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}
	colTitle = color.RGBA{R: 0x1a, G: 0x1a, B: 0x1a, A: 0xff}
	colText  = color.RGBA{R: 0x44, G: 0x44, B: 0x44, A: 0xff}
	colMuted = color.RGBA{R: 0x70, G: 0x70, B: 0x70, A: 0xff}
	colGrid  = color.RGBA{R: 0xe3, G: 0xe6, B: 0xea, A: 0xff}
	colAxis  = color.RGBA{R: 0xa0, G: 0xa4, B: 0xaa, A: 0xff}

	fontRegular = font.Font{Typeface: "Liberation", Variant: "Sans"}
	fontBold    = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}
)

// size is a chart's width and height in pixels, the defaults for zero; an error for a side out
// of [MinSize, MaxSize].
func size(w, h int) (int, int, error) {
	if w == 0 {
		w = DefaultWidth
	}
	if h == 0 {
		h = DefaultHeight
	}
	if w < MinSize || w > MaxSize || h < MinSize || h > MaxSize {
		return 0, 0, fmt.Errorf("%w: %d×%d, each side must be in [%d, %d]", ErrBadSize, w, h, MinSize, MaxSize)
	}
	return w, h, nil
}

// PNG renders the chart. It returns an error (never panics) for no points,
// a non-finite value or an out-of-range size.
func PNG(s Spec) (out []byte, err error) {
	w, h, err := size(s.Width, s.Height)
	if err != nil {
		return nil, err
	}
	if len(s.Points) == 0 {
		return nil, ErrNoPoints
	}
	pts := slices.Clone(s.Points)
	slices.SortStableFunc(pts, func(a, b Point) int { return a.Date.Compare(b.Date) })
	for _, p := range pts {
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
			return nil, fmt.Errorf("%w: %v on %s", ErrBadValue, p.Value, p.Date.Format("02.01.2006"))
		}
	}

	// gonum/plot panics on some degenerate inputs; PNG must not.
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("chart: render failed: %v", r)
		}
	}()

	img, err := render(s, pts, w, h)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(64 << 10)
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("chart: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// layout converts reference pixels into vg lengths for the actual size.
type layout struct {
	scale float64 // actual pixels per reference pixel
}

// px returns the length of v reference pixels.
func (l layout) px(v float64) vg.Length {
	return vg.Length(v*l.scale) * vg.Inch / dpi
}

func render(s Spec, pts []Point, w, h int) (image.Image, error) {
	l := layout{scale: math.Min(float64(w)/refWidth, float64(h)/refHeight)}
	// Package plot's init adds the Liberation fonts to font.DefaultCache.
	hdlr := rubleHandler{Plain: text.Plain{Fonts: font.DefaultCache}}

	// Data in plot coordinates: X is the wall-clock time read as UTC, in
	// seconds, so that calendar days never shift with time zones or DST.
	xys := make(plotter.XYs, len(pts))
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for i, p := range pts {
		xys[i].X = wallSeconds(p.Date)
		xys[i].Y = p.Value
		ymin = math.Min(ymin, p.Value)
		ymax = math.Max(ymax, p.Value)
	}
	yLo, yHi, err := paddedRange(ymin, ymax)
	if err != nil {
		return nil, err
	}
	xLo, xHi := xys[0].X, xys[len(xys)-1].X

	p := plot.New()
	p.TextHandler = hdlr
	p.BackgroundColor = color.White
	styleAxis(&p.X, l, hdlr)
	styleAxis(&p.Y, l, hdlr)
	p.X.Tick.Label.XAlign = draw.XCenter
	p.X.Tick.Label.YAlign = draw.YTop
	p.Y.Tick.Label.XAlign = draw.XRight
	p.Y.Tick.Label.YAlign = draw.YCenter
	p.Y.Tick.Length = 0
	p.Y.LineStyle.Color = color.Transparent

	plotWidthRef := float64(w)/l.scale - 2*marginPx - 150 // minus Y labels and the tag, roughly
	// One point, or all points on the same date: show a day either side.
	if xLo == xHi {
		xLo, xHi = xLo-secondsPerDay, xHi+secondsPerDay
		p.X.Tick.Marker = plot.ConstantTicks{{Value: xys[0].X, Label: dayLabel(xys[0].X)}}
	} else {
		p.X.Tick.Marker = newTimeTicker(xLo, xHi, plotWidthRef)
	}
	p.Y.Tick.Marker = valueTicker{}

	grid := plotter.NewGrid()
	grid.Vertical = draw.LineStyle{Color: colGrid, Width: l.px(gridWidthPx)}
	grid.Horizontal = grid.Vertical
	p.Add(grid)

	if len(xys) > 1 {
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadValue, err)
		}
		line.LineStyle = draw.LineStyle{Color: colLine, Width: l.px(lineWidthPx)}
		if s.Step {
			line.StepStyle = plotter.PostStep
		}
		p.Add(line)
	}
	if len(xys) > 1 && len(xys) <= fewPoints {
		sc, err := plotter.NewScatter(xys[:len(xys)-1])
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadValue, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colLine, Radius: l.px(markerRadPx), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	}
	last := xys[len(xys)-1]
	p.Add(&lastTag{
		X: last.X, Y: last.Y,
		Label:  formatValue(last.Y, valueDecimals(pts)),
		Font:   fontBold,
		Size:   l.px(tagSizePx),
		Color:  colLine,
		Radius: l.px(lastRadPx),
		Ring:   l.px(lastRingPx),
		Gap:    l.px(10),
		PadX:   l.px(10),
		PadY:   l.px(6),
		Arrow:  l.px(8),
		Cache:  hdlr.Fonts,
	})

	// Plot.Add widened the ranges to the data; set the final ones.
	p.X.Min, p.X.Max = xLo, xHi
	p.Y.Min, p.Y.Max = yLo, yHi

	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	vc := vgimg.NewWith(vgimg.UseImage(rgba), vgimg.UseDPI(dpi))
	dc := draw.New(vc)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())

	m := l.px(marginPx)
	area := draw.Crop(dc, m, -m, m, -m)
	area = drawHeader(area, s, l, hdlr)

	// Extreme values give long labels; refuse rather than draw into a
	// degenerate (or negative) data area.
	data := p.DataCanvas(area)
	dw, dh := float64(data.Max.X-data.Min.X), float64(data.Max.Y-data.Min.Y)
	if !(dw >= float64(area.Max.X-area.Min.X)/4) || !(dh >= float64(area.Max.Y-area.Min.Y)/4) {
		return nil, fmt.Errorf("%w: labels leave no room for the plot", ErrBadValue)
	}
	p.Draw(area)
	return vc.Image(), nil
}

// styleAxis applies the common axis look.
func styleAxis(a *plot.Axis, l layout, hdlr text.Handler) {
	a.LineStyle = draw.LineStyle{Color: colAxis, Width: l.px(axisWidthPx)}
	a.Padding = l.px(axisPadPx)
	a.Tick.Label.Font = fontRegular
	a.Tick.Label.Font.Size = l.px(tickSizePx)
	a.Tick.Label.Color = colText
	a.Tick.Label.Handler = hdlr
	a.Tick.LineStyle = draw.LineStyle{Color: colAxis, Width: l.px(axisWidthPx)}
	a.Tick.Length = l.px(tickLenPx)
	a.Label.TextStyle.Handler = hdlr
}

// drawHeader draws the title and the unit label at the top of c and returns
// the area left for the plot.
func drawHeader(c draw.Canvas, s Spec, l layout, hdlr text.Handler) draw.Canvas {
	avail := c.Max.X - c.Min.X
	if title := strings.Join(strings.Fields(s.Title), " "); title != "" {
		lines, sty := fitTitle(title, avail, l, hdlr)
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
		for _, line := range lines {
			c.FillText(sty, vg.Point{X: c.Min.X, Y: c.Max.Y}, line)
			c.Max.Y -= sty.Height(line) * 1.15
		}
		c.Max.Y -= l.px(titleGapPx)
	}
	if unit := strings.Join(strings.Fields(s.YLabel), " "); unit != "" {
		sty := text.Style{Color: colMuted, Font: fontRegular, Handler: hdlr, XAlign: draw.XLeft, YAlign: draw.YTop}
		sty.Font.Size = l.px(unitSizePx)
		c.FillText(sty, vg.Point{X: c.Min.X, Y: c.Max.Y}, unit)
		c.Max.Y -= sty.Height(unit) + l.px(unitGapPx)
	}
	return c
}

// fitTitle returns the title lines and the style to draw them with: the
// title is shrunk down to 80 % of its size, then split onto two lines, then
// shrunk further if a line still does not fit.
func fitTitle(title string, avail vg.Length, l layout, hdlr text.Handler) ([]string, text.Style) {
	sty := text.Style{Color: colTitle, Font: fontBold, Handler: hdlr}
	size := func(f float64) {
		sty.Font.Size = l.px(titleSizePx * f)
	}
	widest := func(lines []string) vg.Length {
		var m vg.Length
		for _, s := range lines {
			m = max(m, sty.Width(s))
		}
		return m
	}
	lines := []string{title}
	for _, f := range []float64{1, 0.9, 0.8} {
		size(f)
		if widest(lines) <= avail {
			return lines, sty
		}
	}
	lines = splitTitle(title)
	for f := 1.0; f > 0.3; f -= 0.05 {
		size(f)
		if widest(lines) <= avail {
			break
		}
	}
	return lines, sty
}

// splitTitle splits a title in two at the dash or the space nearest to its
// middle.
func splitTitle(title string) []string {
	if i := strings.Index(title, " — "); i > 0 {
		return []string{title[:i], title[i+len(" — "):]}
	}
	mid := len(title) / 2
	best := -1
	for i, r := range title {
		if r == ' ' && (best < 0 || absInt(i-mid) < absInt(best-mid)) {
			best = i
		}
	}
	if best <= 0 {
		return []string{title}
	}
	return []string{title[:best], title[best+1:]}
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// paddedRange returns the Y axis range: the data range padded by 5 % on each
// side, or ±5 % of the value for a flat series.
func paddedRange(lo, hi float64) (float64, float64, error) {
	span := hi - lo
	var pad float64
	switch {
	case math.IsInf(span, 0) || math.IsNaN(span):
		return 0, 0, fmt.Errorf("%w: value range [%g, %g] too wide", ErrBadValue, lo, hi)
	case span > math.Max(math.Abs(lo), math.Abs(hi))*1e-12:
		pad = span * yPadFraction
	case hi == 0:
		pad = 1
	default:
		pad = math.Abs(hi) * flatPadFactor
	}
	a, b := lo-pad, hi+pad
	if math.IsInf(a, 0) || math.IsInf(b, 0) || !(b > a) {
		return 0, 0, fmt.Errorf("%w: value range [%g, %g] cannot be drawn", ErrBadValue, lo, hi)
	}
	return a, b, nil
}
