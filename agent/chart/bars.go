package chart

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Bar is one bar of a bar chart: its label under it, its height and the figure written above
// it (already formatted, e.g. "24,2 млн"; empty: none).
type Bar struct {
	Label string
	Value float64
	Text  string
	// Alert draws the bar in the alert colour (an overdue debt).
	Alert bool
}

// BarSpec describes a bar chart of a few categories (the intervals of an aging).
type BarSpec struct {
	// Title and YLabel are as in Spec.
	Title, YLabel string
	// Bars, left to right; at least one, none negative.
	Bars []Bar
	// Width and Height are as in Spec.
	Width, Height int
}

// ErrNoBars is returned when BarSpec.Bars is empty.
var ErrNoBars = errors.New("chart: no bars")

var (
	colBar   = color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}
	colAlert = color.RGBA{R: 0xc6, G: 0x3b, B: 0x2f, A: 0xff}
)

// barWidthShare is the share of a category's width its bar takes.
const barWidthShare = 0.62

// BarsPNG renders a bar chart. It returns an error (never panics) for no bars, a negative or
// non-finite value or an out-of-range size.
func BarsPNG(s BarSpec) (out []byte, err error) {
	w, h, err := size(s.Width, s.Height)
	if err != nil {
		return nil, err
	}
	if len(s.Bars) == 0 {
		return nil, ErrNoBars
	}
	for _, b := range s.Bars {
		if math.IsNaN(b.Value) || math.IsInf(b.Value, 0) || b.Value < 0 {
			return nil, fmt.Errorf("%w: %v for %q", ErrBadValue, b.Value, b.Label)
		}
	}
	defer func() { // gonum/plot panics on some degenerate inputs; BarsPNG must not
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("chart: render failed: %v", r)
		}
	}()
	img, err := renderBars(s, w, h)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("chart: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

func renderBars(s BarSpec, w, h int) (image.Image, error) {
	l := layout{scale: math.Min(float64(w)/refWidth, float64(h)/refHeight)}
	hdlr := rubleHandler{Plain: text.Plain{Fonts: font.DefaultCache}}
	p := plot.New()
	p.TextHandler = hdlr
	p.BackgroundColor = color.White
	styleAxis(&p.X, l, hdlr)
	styleAxis(&p.Y, l, hdlr)
	p.Y.Tick.Label.XAlign, p.Y.Tick.Label.YAlign = draw.XRight, draw.YCenter
	p.Y.Tick.Length = 0
	p.Y.LineStyle.Color = color.Transparent
	p.Y.Tick.Marker = valueTicker{}

	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Transparent
	grid.Horizontal = draw.LineStyle{Color: colGrid, Width: l.px(gridWidthPx)}
	p.Add(grid)

	n := len(s.Bars)
	plotWidth := float64(w) - 2*l.scale*marginPx - 150*l.scale // minus the Y labels, roughly
	width := vg.Length(plotWidth/float64(n)*barWidthShare) * vg.Inch / dpi
	top := 0.0
	labels := plotter.XYLabels{}
	for i, b := range s.Bars {
		bc, err := plotter.NewBarChart(plotter.Values{b.Value}, width)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadValue, err)
		}
		bc.XMin = float64(i)
		bc.Color = colBar
		if b.Alert {
			bc.Color = colAlert
		}
		bc.LineStyle.Width = 0
		p.Add(bc)
		top = math.Max(top, b.Value)
		if b.Text != "" {
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(i), Y: b.Value})
			labels.Labels = append(labels.Labels, b.Text)
		}
	}
	if len(labels.Labels) > 0 {
		lb, err := plotter.NewLabels(labels)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadValue, err)
		}
		for i := range lb.TextStyle {
			st := text.Style{Color: colTitle, Font: fontBold, Handler: hdlr, XAlign: draw.XCenter, YAlign: draw.YBottom}
			st.Font.Size = l.px(tagSizePx * 0.85)
			lb.TextStyle[i] = st
		}
		lb.Offset = vg.Point{Y: l.px(6)}
		p.Add(lb)
	}
	names := make([]string, n)
	for i, b := range s.Bars {
		names[i] = strings.Join(strings.Fields(b.Label), " ")
	}
	p.NominalX(names...)
	p.X.Tick.Label.Font.Size = l.px(tickSizePx * 0.9)
	if top == 0 {
		top = 1
	}
	p.X.Min, p.X.Max = -0.6, float64(n)-0.4
	p.Y.Min, p.Y.Max = 0, top*1.18 // room for the figures above the bars

	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	vc := vgimg.NewWith(vgimg.UseImage(rgba), vgimg.UseDPI(dpi))
	dc := draw.New(vc)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	m := l.px(marginPx)
	area := draw.Crop(dc, m, -m, m, -m)
	area = drawHeader(area, Spec{Title: s.Title, YLabel: s.YLabel}, l, hdlr)
	data := p.DataCanvas(area)
	if !(float64(data.Max.X-data.Min.X) >= float64(area.Max.X-area.Min.X)/4) || !(float64(data.Max.Y-data.Min.Y) >= float64(area.Max.Y-area.Min.Y)/4) {
		return nil, fmt.Errorf("%w: labels leave no room for the bars", ErrBadValue)
	}
	p.Draw(area)
	return vc.Image(), nil
}
