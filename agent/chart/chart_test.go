package chart

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var msk = time.FixedZone("MSK", 3*60*60)

// usdMarch2026 is a USD series over March 2026 on working days.
func usdMarch2026() []Point {
	var pts []Point
	v := 81.1234
	for d := time.Date(2026, 3, 1, 0, 0, 0, 0, msk); d.Month() == time.March; d = d.AddDate(0, 0, 1) {
		if wd := d.Weekday(); wd == time.Sunday || wd == time.Monday {
			continue
		}
		v += 0.6*math.Sin(float64(d.Day())/3) - 0.15
		pts = append(pts, Point{Date: d, Value: math.Round(v*1e4) / 1e4})
	}
	return pts
}

// keyRate2025 is the Bank of Russia key rate over 2025 as a step series.
func keyRate2025() []Point {
	return []Point{
		{time.Date(2025, 1, 1, 0, 0, 0, 0, msk), 21},
		{time.Date(2025, 6, 9, 0, 0, 0, 0, msk), 20},
		{time.Date(2025, 7, 28, 0, 0, 0, 0, msk), 18},
		{time.Date(2025, 9, 15, 0, 0, 0, 0, msk), 17},
		{time.Date(2025, 10, 27, 0, 0, 0, 0, msk), 16.5},
		{time.Date(2025, 12, 22, 0, 0, 0, 0, msk), 16},
		{time.Date(2025, 12, 31, 0, 0, 0, 0, msk), 16},
	}
}

func series(n int, start time.Time, stepDays int, f func(i int) float64) []Point {
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = Point{Date: start.AddDate(0, 0, i*stepDays), Value: f(i)}
	}
	return pts
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("png.Decode: %v", err)
	}
	return img
}

func TestSizes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		w, h       int
		wantW, wan int
	}{
		{"default", 0, 0, 1200, 675},
		{"custom", 800, 600, 800, 600},
		{"odd", 1001, 333, 1001, 333},
		{"large", 2560, 1440, 2560, 1440},
		{"small", 200, 200, 200, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := PNG(Spec{Title: "Курс USD, ₽ за 1 единицу — март 2026", YLabel: "₽", Points: usdMarch2026(), Width: tc.w, Height: tc.h})
			if err != nil {
				t.Fatal(err)
			}
			img := decode(t, b)
			if got := img.Bounds(); got.Dx() != tc.wantW || got.Dy() != tc.wan {
				t.Fatalf("size %dx%d, want %dx%d", got.Dx(), got.Dy(), tc.wantW, tc.wan)
			}
		})
	}
}

func TestSeriesShapes(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 3, 0, 0, 0, 0, msk)
	cases := []struct {
		name string
		spec Spec
	}{
		{"one point", Spec{Title: "Курс EUR на 03.03.2026", YLabel: "₽", Points: []Point{{day, 90.5012}}}},
		{"two points", Spec{Title: "Курс CNY", YLabel: "₽", Points: []Point{{day, 11.2}, {day.AddDate(0, 0, 1), 11.25}}}},
		{"300 points", Spec{Title: "Курс USD за 300 дней", YLabel: "₽", Points: series(300, day, 1, func(i int) float64 { return 80 + 5*math.Sin(float64(i)/20) })}},
		{"step", Spec{Title: "Ключевая ставка Банка России — 2025", YLabel: "%", Points: keyRate2025(), Step: true}},
		{"flat", Spec{Title: "Курс без изменений", YLabel: "₽", Points: series(10, day, 1, func(int) float64 { return 81.1234 })}},
		{"flat zero", Spec{Title: "Ноль", Points: series(5, day, 1, func(int) float64 { return 0 })}},
		{"two years", Spec{Title: "Курс USD, 2024–2025", YLabel: "₽", Points: series(104, time.Date(2024, 1, 9, 0, 0, 0, 0, msk), 7, func(i int) float64 { return 90 + 10*math.Cos(float64(i)/15) })}},
		{"ten years", Spec{Title: "Длинный ряд", Points: series(520, time.Date(2016, 1, 1, 0, 0, 0, 0, msk), 7, func(i int) float64 { return float64(i) })}},
		{"negative and large", Spec{Title: "Сальдо", Points: series(20, day, 1, func(i int) float64 { return -50000 + float64(i)*7000.5 })}},
		{"unsorted", Spec{Points: []Point{{day.AddDate(0, 0, 2), 3}, {day, 1}, {day.AddDate(0, 0, 1), 2}}}},
		{"no title", Spec{Points: usdMarch2026()}},
		{"very long title", Spec{Title: strings.Repeat("Очень длинный заголовок графика ", 6), Points: usdMarch2026(), Width: 400, Height: 300}},
		{"same date twice", Spec{Points: []Point{{day, 1}, {day, 2}}}},
		{"tiny values", Spec{Points: series(10, day, 1, func(i int) float64 { return 1e-9 * float64(i) })}},
		{"huge values", Spec{Points: series(10, day, 1, func(i int) float64 { return 1e300 * float64(i) })}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := PNG(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			img := decode(t, b)
			if img.Bounds().Dx() == 0 {
				t.Fatal("empty image")
			}
			checkNotBlank(t, img)
		})
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 3, 0, 0, 0, 0, msk)
	cases := []struct {
		name string
		spec Spec
		want error
	}{
		{"nil points", Spec{Title: "x"}, ErrNoPoints},
		{"empty points", Spec{Points: []Point{}}, ErrNoPoints},
		{"NaN", Spec{Points: []Point{{day, 1}, {day.AddDate(0, 0, 1), math.NaN()}}}, ErrBadValue},
		{"+Inf", Spec{Points: []Point{{day, math.Inf(1)}}}, ErrBadValue},
		{"-Inf", Spec{Points: []Point{{day, 1}, {day.AddDate(0, 0, 1), math.Inf(-1)}}}, ErrBadValue},
		{"range overflow", Spec{Points: []Point{{day, -math.MaxFloat64}, {day.AddDate(0, 0, 1), math.MaxFloat64}}}, ErrBadValue},
		{"negative width", Spec{Points: usdMarch2026(), Width: -1}, ErrBadSize},
		{"too small", Spec{Points: usdMarch2026(), Width: 50, Height: 50}, ErrBadSize},
		{"too large", Spec{Points: usdMarch2026(), Width: 100000}, ErrBadSize},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := PNG(tc.spec)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if b != nil {
				t.Fatalf("got %d bytes with an error", len(b))
			}
		})
	}
}

// rgbaAt reads a pixel without the interface allocations of image.At when
// the decoder returned *image.RGBA (it does for our opaque PNGs).
func rgbaAt(img image.Image, x, y int) color.RGBA {
	if m, ok := img.(*image.RGBA); ok {
		i := m.PixOffset(x, y)
		return color.RGBA{m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3]}
	}
	r, g, b, a := img.At(x, y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// checkNotBlank checks the image has more than one colour and non-white
// pixels in the middle of the plot area.
func checkNotBlank(t *testing.T, img image.Image) {
	t.Helper()
	b := img.Bounds()
	colours := map[color.RGBA]bool{}
	nonWhite := 0
	for y := b.Min.Y + b.Dy()/5; y < b.Max.Y-b.Dy()/5; y++ {
		for x := b.Min.X + b.Dx()/5; x < b.Max.X-b.Dx()/5; x++ {
			c := rgbaAt(img, x, y)
			colours[c] = true
			if c != (color.RGBA{255, 255, 255, 255}) {
				nonWhite++
			}
		}
	}
	if len(colours) < 2 {
		t.Fatalf("plot area has %d colour(s)", len(colours))
	}
	if nonWhite < 100 {
		t.Fatalf("plot area has only %d non-white pixels", nonWhite)
	}
}

func TestPixels(t *testing.T) {
	t.Parallel()
	b, err := PNG(Spec{Title: "Курс USD, ₽ за 1 единицу — март 2026", YLabel: "₽", Points: usdMarch2026()})
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, b)
	checkNotBlank(t, img)

	// The series colour must be present: the line is drawn.
	found := 0
	bb := img.Bounds()
	for y := bb.Min.Y; y < bb.Max.Y; y++ {
		for x := bb.Min.X; x < bb.Max.X; x++ {
			if c := rgbaAt(img, x, y); c.R == colLine.R && c.G == colLine.G && c.B == colLine.B {
				found++
			}
		}
	}
	if found < 500 {
		t.Fatalf("only %d pixels of the line colour", found)
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	s := Spec{Title: "Ключевая ставка — 2025", YLabel: "%", Points: keyRate2025(), Step: true}
	a, err := PNG(s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := PNG(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("same input gave different PNGs")
	}
}

func TestDoesNotModifyInput(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 3, 0, 0, 0, 0, msk)
	pts := []Point{{day.AddDate(0, 0, 1), 2}, {day, 1}}
	if _, err := PNG(Spec{Points: pts}); err != nil {
		t.Fatal(err)
	}
	if pts[0].Value != 2 {
		t.Fatal("input slice was reordered")
	}
}

func TestFormatValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    float64
		dec  int
		want string
	}{
		{81.1234, 4, "81,1234"},
		{21, 2, "21,00"},
		{16.5, 2, "16,50"},
		{0, 0, "0"},
		{-0.00001, 2, "0,00"},
		{-3.5, 1, "−3,5"},
		{1234.5, 1, "1234,5"},
		{12345.678, 2, "12\u00a0345,68"},
		{1234567, 0, "1\u00a0234\u00a0567"},
	} {
		if got := formatValue(tc.v, tc.dec); got != tc.want {
			t.Errorf("formatValue(%v, %d) = %q, want %q", tc.v, tc.dec, got, tc.want)
		}
	}
}

func TestValueDecimals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		vals []float64
		want int
	}{
		{[]float64{21, 20, 18}, 2},
		{[]float64{16.5, 17}, 2},
		{[]float64{81.1234, 80.5}, 4},
		{[]float64{11.123}, 3},
		{[]float64{1.0 / 3}, 4},
	} {
		var pts []Point
		for _, v := range tc.vals {
			pts = append(pts, Point{Value: v})
		}
		if got := valueDecimals(pts); got != tc.want {
			t.Errorf("valueDecimals(%v) = %d, want %d", tc.vals, got, tc.want)
		}
	}
}

func TestTimeTicks(t *testing.T) {
	t.Parallel()
	labels := func(lo, hi time.Time) []string {
		x0, x1 := wallSeconds(lo), wallSeconds(hi)
		var out []string
		for _, tk := range newTimeTicker(x0, x1, 1000).Ticks(x0, x1) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	got := labels(time.Date(2026, 3, 3, 0, 0, 0, 0, msk), time.Date(2026, 3, 31, 0, 0, 0, 0, msk))
	if want := "03.03 07.03 11.03 15.03 19.03 23.03 27.03 31.03"; strings.Join(got, " ") != want {
		t.Errorf("March ticks = %q, want %q", strings.Join(got, " "), want)
	}
	got = labels(time.Date(2026, 3, 3, 0, 0, 0, 0, msk), time.Date(2026, 3, 12, 0, 0, 0, 0, msk))
	if want := "04.03 06.03 08.03 10.03 12.03"; strings.Join(got, " ") != want {
		t.Errorf("10-day ticks = %q, want %q (the last date must be labelled)", strings.Join(got, " "), want)
	}
	got = labels(time.Date(2025, 1, 1, 0, 0, 0, 0, msk), time.Date(2025, 12, 31, 0, 0, 0, 0, msk))
	if want := "янв 2025 фев мар апр май июн июл авг сен окт ноя дек"; strings.Join(got, " ") != want {
		t.Errorf("2025 ticks = %q, want %q", strings.Join(got, " "), want)
	}
	got = labels(time.Date(2024, 1, 9, 0, 0, 0, 0, msk), time.Date(2025, 12, 30, 0, 0, 0, 0, msk))
	if want := "мар 2024 май июл сен ноя янв 2025 мар май июл сен ноя"; strings.Join(got, " ") != want {
		t.Errorf("2-year ticks = %q, want %q", strings.Join(got, " "), want)
	}
}

// TestWriteSamples writes sample charts to $CHART_SAMPLES_DIR for a visual
// check; it is skipped when the variable is unset.
func TestWriteSamples(t *testing.T) {
	dir := os.Getenv("CHART_SAMPLES_DIR")
	if dir == "" {
		t.Skip("CHART_SAMPLES_DIR not set")
	}
	day := time.Date(2026, 3, 3, 0, 0, 0, 0, msk)
	samples := map[string]Spec{
		"usd_march_2026": {Title: "Курс USD, ₽ за 1 единицу — март 2026", YLabel: "₽", Points: usdMarch2026()},
		"key_rate_2025":  {Title: "Ключевая ставка Банка России — 2025", YLabel: "%", Points: keyRate2025(), Step: true},
		"one_point":      {Title: "Курс EUR на 03.03.2026", YLabel: "₽", Points: []Point{{day, 90.5012}}},
		"flat":           {Title: "Курс без изменений", YLabel: "₽", Points: series(10, day, 1, func(int) float64 { return 81.1234 })},
		"two_years":      {Title: "Курс USD, ₽ — 2024–2025", YLabel: "₽", Points: series(104, time.Date(2024, 1, 9, 0, 0, 0, 0, msk), 7, func(i int) float64 { return 90 + 10*math.Cos(float64(i)/15) })},
		"small_square":   {Title: "Курс USD, ₽ за 1 единицу — март 2026", YLabel: "₽", Points: usdMarch2026(), Width: 600, Height: 600},
		"two_points":     {Title: "Курс CNY", YLabel: "₽", Points: []Point{{day, 11.2}, {day.AddDate(0, 0, 1), 11.2512}}},
		"same_date":      {Title: "Два значения за одну дату", Points: []Point{{day, 1}, {day, 2}}},
		"300_points":     {Title: "Курс USD за 300 дней", YLabel: "₽", Points: series(300, day, 1, func(i int) float64 { return 80 + 5*math.Sin(float64(i)/20) })},
	}
	for name, s := range samples {
		b, err := PNG(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func BenchmarkPNG30(b *testing.B) {
	s := Spec{
		Title:  "Курс USD, ₽ за 1 единицу — март 2026",
		YLabel: "₽",
		Points: series(30, time.Date(2026, 3, 1, 0, 0, 0, 0, msk), 1, func(i int) float64 { return 80 + 2*math.Sin(float64(i)/4) }),
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PNG(s); err != nil {
			b.Fatal(err)
		}
	}
}
