package cbr

import (
	"slices"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/cbr/cbrtest"
)

// cbrtest, the stand-in other packages test against, answers what the recorded responses of
// testdata answer, read by the same parsers: an empty table for a day without rates (as
// curs_on_date_empty.xml), the publication carried over a holiday with its own date, a
// currency's history ascending with the +03:00 dates.
func TestCBRTestSpeaksTheWireFormat(t *testing.T) {
	recorded, err := parseCursOnDate(fixture(t, "curs_on_date_empty.xml"), day(2026, 3, 20))
	if err != nil {
		t.Fatal(err)
	}
	s := cbrtest.New(t)
	s.Publish(day(2025, 12, 31), cbrtest.Quote{Code: "USD", Nominal: 1, Value: "78.2000"}, cbrtest.Quote{Code: "JPY", Nominal: 100, Value: "50.1000"})
	s.Empty(day(2026, 1, 1))
	c := New(Options{BaseURL: s.URL, HTTPClient: s.Client, Now: func() time.Time { return testNow }})

	empty, err := c.DailyRates(t.Context(), day(2026, 1, 1))
	if err != nil || len(empty.Rates) != 0 || !empty.OnDate.Equal(day(2026, 1, 1)) || len(recorded.Rates) != 0 || !recorded.OnDate.Equal(day(2026, 3, 20)) {
		t.Errorf("empty day: stand-in %+v (%v), recorded %+v", empty, err, recorded)
	}
	carried, err := c.DailyRates(t.Context(), day(2026, 1, 3))
	if err != nil || !carried.OnDate.Equal(day(2025, 12, 31)) || len(carried.Rates) != 2 {
		t.Fatalf("holiday: %+v, %v", carried, err)
	}
	if jpy, _ := carried.Find("JPY"); jpy.Name != "Японских иен" || jpy.Nominal != 100 || jpy.Value.String() != "50.1" || jpy.UnitRate.String() != "0.501" || jpy.NumCode != 392 {
		t.Errorf("JPY = %+v", jpy)
	}
	dyn, err := c.Dynamic(t.Context(), "USD", day(2025, 12, 1), day(2026, 1, 10))
	if err != nil || len(dyn.Points) != 1 || !dyn.Points[0].Date.Equal(day(2025, 12, 31)) || dyn.Points[0].Value.String() != "78.2" {
		t.Errorf("dynamic = %+v, %v", dyn, err)
	}
	if got := s.Calls(); !slices.Contains(got, "GetCursDynamic 2025-12-01T00:00:00 2026-01-10T00:00:00 R01235") || !slices.Contains(got, "EnumValutes false") {
		t.Errorf("calls = %q", got)
	}
}

// cbrtest's KeyRate reads as the recorded key_rate.xml does: the rate in force on each day asked,
// ascending once parsed, a decision taking effect on its date.
func TestCBRTestKeyRate(t *testing.T) {
	recorded, err := parseKeyRate(fixture(t, "key_rate.xml"))
	if err != nil || len(recorded) == 0 {
		t.Fatalf("recorded: %v, %v", recorded, err)
	}
	s := cbrtest.New(t)
	s.SetKeyRate(day(2025, 12, 19), "16.50")
	s.SetKeyRate(day(2026, 2, 16), "15.50")
	c := New(Options{BaseURL: s.URL, HTTPClient: s.Client, Now: func() time.Time { return testNow }})
	kr, err := c.KeyRate(t.Context(), day(2026, 2, 14), day(2026, 2, 17))
	if err != nil || len(kr.Points) != 4 {
		t.Fatalf("KeyRate = %+v, %v", kr, err)
	}
	var got []string
	for _, p := range kr.Points {
		got = append(got, p.Date.Format(time.DateOnly)+" "+p.Rate.StringFixed(2))
	}
	want := []string{"2026-02-14 16.50", "2026-02-15 16.50", "2026-02-16 15.50", "2026-02-17 15.50"}
	if !slices.Equal(got, want) {
		t.Errorf("points = %q, want %q", got, want)
	}
	if !slices.Contains(s.Calls(), "KeyRate 2026-02-14T00:00:00 2026-02-17T00:00:00") {
		t.Errorf("calls = %q", s.Calls())
	}
}
