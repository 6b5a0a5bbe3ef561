package cbr

import (
	"testing"
	"time"
)

// BenchmarkParseCursOnDate parses a full daily publication (43 currencies).
func BenchmarkParseCursOnDate(b *testing.B) {
	body := fixture(b, "curs_on_date_full.xml")
	d, err := parseCursOnDate(body, testNow)
	if err != nil || len(d.Rates) != 43 {
		b.Fatalf("parse: %d rates, %v", len(d.Rates), err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseCursOnDate(body, testNow); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDailyRatesCached measures a cache hit.
func BenchmarkDailyRatesCached(b *testing.B) {
	s := newStandIn(b)
	c, _ := newTestClient(b, s)
	date := day(2026, time.March, 15)
	if _, err := c.DailyRates(b.Context(), date); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.DailyRates(b.Context(), date); err != nil {
			b.Fatal(err)
		}
	}
	if n := s.count(""); n != 1 {
		b.Errorf("upstream calls = %d, want 1", n)
	}
}
