package onec_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

func TestWireForms(t *testing.T) {
	day := time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)
	dates := []struct {
		sec  int64
		want string
	}{
		{day.Unix(), "2026-03-31T00:00:00Z"},
		{day.Add(23*time.Hour + 59*time.Minute + 59*time.Second).Unix(), "2026-03-31T23:59:59Z"},
		{onec.EmptyDateSec, "Z"},
	}
	for _, tt := range dates {
		if got := onec.WireDate(tt.sec); got != tt.want {
			t.Errorf("WireDate(%d) = %q, want %q", tt.sec, got, tt.want)
		}
	}
	numbers := []struct {
		k    onec.Kopecks
		want string
	}{{100050, "1000.5"}, {10000, "100"}, {0, "0"}, {-5, "-0.05"}, {14853091, "148530.91"}, {-100, "-1"}, {10, "0.1"}}
	for _, tt := range numbers {
		if got := onec.WireNumber(tt.k); got != json.Number(tt.want) {
			t.Errorf("WireNumber(%d) = %q, want %q", tt.k, got, tt.want)
		}
	}
}

func TestDateOf(t *testing.T) {
	tests := []struct {
		in     any
		want   time.Time
		wantOK bool
	}{
		{"2026-03-31T00:00:00Z", time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC), true},
		{"2024-12-31T23:59:59Z", time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC), true},
		{"2024-12-31T23:59:59", time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC), true}, // zone-less, as 1C reads it in
		{"Z", time.Time{}, false},                    // the empty date
		{"0001-01-01T00:00:00Z", time.Time{}, false}, // the same, spelled out
		{"", time.Time{}, false},                     // NULL
		{nil, time.Time{}, false},
		{"2026-02-30T00:00:00Z", time.Time{}, false},
		{"31.03.2026", time.Time{}, false},
		{json.Number("20260331"), time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := onec.DateOf(tt.in)
		if ok != tt.wantOK || !got.Equal(tt.want) {
			t.Errorf("DateOf(%#v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestAmountOf(t *testing.T) {
	tests := []struct {
		in      any
		want    onec.Kopecks
		wantErr bool
	}{
		{json.Number("1000.5"), 100050, false},
		{json.Number("0"), 0, false},
		{json.Number("-148530.91"), -14853091, false},
		{"", 0, false},  // NULL, as the toolkit writes it
		{nil, 0, false}, // NULL as JSON null
		{"12.5", 0, true},
		{1000.5, 0, true}, // a float64 has lost exactness already
		{json.Number("1e+16"), 0, true},
	}
	for _, tt := range tests {
		got, err := onec.AmountOf(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("AmountOf(%#v) = %v, %v; want %v, err=%v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}
