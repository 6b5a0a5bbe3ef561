package chart

import (
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"testing"
)

// agingBars are the intervals of the demo's aging of receivables on 31.03.2026, in millions.
func agingBars() []Bar {
	return []Bar{
		{Label: "Не наступил", Value: 2.89, Text: "2,9 млн"},
		{Label: "1–30 дн.", Value: 4.53, Text: "4,5 млн", Alert: true},
		{Label: "31–60 дн.", Value: 3.13, Text: "3,1 млн", Alert: true},
		{Label: "61–90 дн.", Value: 2.96, Text: "3,0 млн", Alert: true},
		{Label: "Более 90 дн.", Value: 24.2, Text: "24,2 млн", Alert: true},
	}
}

func TestBars(t *testing.T) {
	for _, tt := range []struct {
		name string
		spec BarSpec
	}{
		{"aging", BarSpec{Title: "Дебиторка по срокам долга на 31.03.2026", YLabel: "млн ₽", Bars: agingBars()}},
		{"one bar", BarSpec{Bars: []Bar{{Label: "Не наступил", Value: 1}}}},
		{"all zero", BarSpec{Title: "Просрочки нет", Bars: []Bar{{Label: "a", Value: 0}, {Label: "b", Value: 0}}}},
		{"square", BarSpec{Title: "Кредиторка по срокам долга", YLabel: "млн ₽", Bars: agingBars(), Width: 600, Height: 600}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := BarsPNG(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			img := decode(t, b)
			checkNotBlank(t, img)
			want := tt.spec.Width
			if want == 0 {
				want = DefaultWidth
			}
			if got := img.Bounds().Dx(); got != want {
				t.Errorf("width %d, want %d", got, want)
			}
		})
	}
	// the overdue bars are drawn in the alert colour, the one not due in the plain one
	img := decode(t, mustBars(t, BarSpec{Title: "t", Bars: agingBars()}))
	alert, plain := 0, 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 3 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 3 {
			switch rgbaAt(img, x, y) {
			case color.RGBA(colAlert):
				alert++
			case color.RGBA(colBar):
				plain++
			}
		}
	}
	if alert == 0 || plain == 0 || alert < plain {
		t.Errorf("%d alert and %d plain pixels sampled: want both, more alert (four bars of five, the highest among them)", alert, plain)
	}
}

func mustBars(t *testing.T, s BarSpec) []byte {
	t.Helper()
	b, err := BarsPNG(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBarsErrors(t *testing.T) {
	for _, tt := range []struct {
		spec BarSpec
		want error
	}{
		{BarSpec{}, ErrNoBars},
		{BarSpec{Bars: []Bar{{Label: "a", Value: -1}}}, ErrBadValue},
		{BarSpec{Bars: []Bar{{Label: "a", Value: 1}}, Width: 100}, ErrBadSize},
	} {
		if _, err := BarsPNG(tt.spec); !errors.Is(err, tt.want) {
			t.Errorf("BarsPNG(%+v) = %v, want %v", tt.spec, err, tt.want)
		}
	}
}

// TestWriteBarSamples writes the bar charts to $CHART_SAMPLES_DIR for a visual check.
func TestWriteBarSamples(t *testing.T) {
	dir := os.Getenv("CHART_SAMPLES_DIR")
	if dir == "" {
		t.Skip("CHART_SAMPLES_DIR not set")
	}
	for name, s := range map[string]BarSpec{
		"aging":        {Title: "Дебиторка по срокам долга на 31.03.2026 — просрочено 34,8 млн ₽ из 37,7 млн ₽", YLabel: "млн ₽", Bars: agingBars()},
		"aging_square": {Title: "Дебиторка по срокам долга на 31.03.2026", YLabel: "млн ₽", Bars: agingBars(), Width: 600, Height: 600},
	} {
		if err := os.WriteFile(filepath.Join(dir, name+".png"), mustBars(t, s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
