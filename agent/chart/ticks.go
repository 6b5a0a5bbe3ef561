package chart

import (
	"math"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"

	"github.com/finbot/finbot/ru"
)

const secondsPerDay = 24 * 60 * 60

// maxTicks bounds every tick loop, whatever the input.
const maxTicks = 500

// wallSeconds returns the wall-clock time of t (in its own location) read as
// UTC, in Unix seconds. Plotting in this coordinate keeps a publication date
// on its calendar day regardless of time zones and DST.
func wallSeconds(t time.Time) float64 {
	y, m, d := t.Date()
	hh, mm, ss := t.Clock()
	return float64(time.Date(y, m, d, hh, mm, ss, 0, time.UTC).Unix())
}

// utc converts a plot X coordinate back to a time.
func utc(x float64) time.Time {
	return time.Unix(int64(math.Floor(x)), 0).UTC()
}

// dayLabel formats x as "dd.mm".
func dayLabel(x float64) string {
	return utc(x).Format("02.01")
}

// newTimeTicker chooses the X axis ticks for the data range [lo, hi] and a
// plot about widthRef reference pixels wide: "dd.mm" labels every few days
// for ranges up to maxDaySpan days, month labels otherwise.
func newTimeTicker(lo, hi, widthRef float64) plot.Ticker {
	spanDays := (hi - lo) / secondsPerDay
	if spanDays <= maxDaySpan {
		maxLabels := max(2, int(widthRef/dayLabelPx))
		step := 0
		for _, s := range []int{1, 2, 3, 4, 5, 7, 10, 14, 21, 28, 30, 60} {
			if int(spanDays)/s+1 <= maxLabels {
				step = s
				break
			}
		}
		if step == 0 {
			step = 60
		}
		return plot.TimeTicks{
			Ticker: dayTicks{step: step, anchor: int64(math.Floor(hi / secondsPerDay))},
			Format: "02.01",
			Time:   plot.UTCUnixTime,
		}
	}

	maxLabels := max(2, int(widthRef/monthLabelPx))
	months := monthIndex(utc(hi)) - monthIndex(utc(lo)) + 1
	step := 0
	for _, s := range []int{1, 2, 3, 4, 6, 12} {
		if months/s+1 <= maxLabels {
			step = s
			break
		}
	}
	if step == 0 { // many years: whole numbers of years
		years := (months/maxLabels + 11) / 12
		step = 12 * max(1, years)
	}
	return monthTicks{step: step}
}

// dayTicks puts a labelled tick every step days counted back from the anchor
// day (the last data point, so the latest date is always labelled), with daily minor ticks for short steps. Labels are
// placeholders; plot.TimeTicks formats them.
type dayTicks struct {
	step   int
	anchor int64 // day number since the Unix epoch
}

// Ticks implements plot.Ticker.
func (t dayTicks) Ticks(lo, hi float64) []plot.Tick {
	d0 := int64(math.Ceil(lo / secondsPerDay))
	d1 := int64(math.Floor(hi / secondsPerDay))
	step := int64(max(1, t.step))
	var ticks []plot.Tick
	for d := d0; d <= d1 && len(ticks) < maxTicks; d++ {
		major := floorMod(d-t.anchor, step) == 0
		switch {
		case major:
			ticks = append(ticks, plot.Tick{Value: float64(d * secondsPerDay), Label: "-"})
		case step <= 7:
			ticks = append(ticks, plot.Tick{Value: float64(d * secondsPerDay)})
		}
	}
	return ticks
}

// monthTicks puts a labelled tick on the first day of every step-th month
// (aligned to January), labelled "янв 2025" for the first label and for
// January and with the month alone otherwise.
type monthTicks struct {
	step int
}

// Ticks implements plot.Ticker.
func (t monthTicks) Ticks(lo, hi float64) []plot.Tick {
	start := utc(lo)
	m0 := monthIndex(start)
	if start.Day() != 1 || start.Hour() != 0 || start.Minute() != 0 || start.Second() != 0 {
		m0++
	}
	m1 := monthIndex(utc(hi))
	step := max(1, t.step)
	var ticks []plot.Tick
	labelled := false
	for m := m0; m <= m1 && len(ticks) < maxTicks; m++ {
		x := float64(time.Date(m/12, time.Month(m%12+1), 1, 0, 0, 0, 0, time.UTC).Unix())
		if m%step != 0 {
			if step <= 6 {
				ticks = append(ticks, plot.Tick{Value: x})
			}
			continue
		}
		label := ru.MonthAbbr(time.Month(m%12 + 1))
		if !labelled || m%12 == 0 {
			label += " " + strconv.Itoa(m/12)
		}
		labelled = true
		ticks = append(ticks, plot.Tick{Value: x, Label: label})
	}
	return ticks
}

// monthIndex returns year*12 + month-1.
func monthIndex(t time.Time) int {
	return t.Year()*12 + int(t.Month()) - 1
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// valueTicker places about six labelled ticks at "nice" values (1, 2, 2.5
// or 5 times a power of ten) and labels them Russian-style.
type valueTicker struct{}

// Ticks implements plot.Ticker.
func (valueTicker) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) || math.IsInf(span, 0) {
		return []plot.Tick{{Value: lo, Label: formatValue(lo, 2)}}
	}
	raw := span / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	var step float64
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		step = f * mag
		if step >= raw {
			break
		}
	}
	dec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	if frac := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9)); math.Abs(frac-2.5) < 1e-9 {
		dec++
	}
	k0 := math.Ceil(lo/step - 1e-9)
	var ticks []plot.Tick
	for i := 0; i < maxTicks; i++ {
		v := (k0 + float64(i)) * step
		if v > hi+step*1e-9 {
			break
		}
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: formatValue(v, dec)})
	}
	return ticks
}

// valueDecimals returns how many decimals the tag on the last point shows:
// as many as the most precise value in the series needs, between 2 and 4
// (exchange rates are published with 4, the key rate with 2).
func valueDecimals(pts []Point) int {
	dec := 2
	for _, p := range pts {
		dec = max(dec, decimalsOf(p.Value))
		if dec == 4 {
			break
		}
	}
	return dec
}

// decimalsOf returns the number of decimals (0..4) v needs.
func decimalsOf(v float64) int {
	for d := 0; d < 4; d++ {
		s := v * math.Pow10(d)
		if math.Abs(s-math.Round(s)) <= 1e-6*math.Max(1, math.Abs(s)) {
			return d
		}
	}
	return 4
}

// formatValue formats v with dec decimals the Russian way: a comma as the
// decimal separator, a no-break space between thousands (from 10 000 up),
// and a real minus sign.
func formatValue(v float64, dec int) string {
	if a := math.Abs(v); a >= 1e15 {
		// Not a plausible rate; keep the label short.
		s := strings.Replace(strconv.FormatFloat(a, 'e', 3, 64), ".", ",", 1)
		if v < 0 {
			s = "−" + s
		}
		return s
	}
	s := strconv.FormatFloat(math.Abs(v), 'f', dec, 64)
	out := strings.Replace(s, ".", ",", 1)
	if intPart, _, _ := strings.Cut(s, "."); len(intPart) > 4 {
		out = ru.Decimal(s) // four-digit values stay whole: «9999,5», «10 000»
	}
	if v < 0 && strings.ContainsAny(s, "123456789") {
		out = "−" + out
	}
	return out
}
