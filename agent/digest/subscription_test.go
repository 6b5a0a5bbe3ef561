package digest

import (
	"testing"
	"time"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// slotsOver are the distinct latest slots of s seen every 5 minutes from from to to.
func slotsOver(s Subscription, loc *time.Location, from, to time.Time) []time.Time {
	var out []time.Time
	for now := from; now.Before(to); now = now.Add(5 * time.Minute) {
		slot := s.Latest(now, loc)
		if slot.After(now) {
			panic("a slot after now: " + slot.String() + " at " + now.String())
		}
		if len(out) == 0 || !out[len(out)-1].Equal(slot) {
			out = append(out, slot)
		}
	}
	return out
}

// A daily digest has one slot a day at its wall-clock time, across both changes of clocks;
// on the day a change skips its time, the slot is where time.Date puts it (Go reads 2:30 with
// the offset after the change: 1:30 EST), and on the day a change repeats it, it is one instant.
func TestDailySlotsAcrossDST(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	tests := []struct {
		name       string
		hour, min  int
		from, to   time.Time
		wantLocals []string
	}{
		{"spring forward, 9:00", 9, 0, time.Date(2026, 3, 6, 12, 0, 0, 0, ny), time.Date(2026, 3, 10, 12, 0, 0, 0, ny),
			[]string{"2026-03-06 09:00 EST", "2026-03-07 09:00 EST", "2026-03-08 09:00 EDT", "2026-03-09 09:00 EDT", "2026-03-10 09:00 EDT"}},
		{"spring forward, 2:30 skipped", 2, 30, time.Date(2026, 3, 7, 12, 0, 0, 0, ny), time.Date(2026, 3, 9, 12, 0, 0, 0, ny),
			[]string{"2026-03-07 02:30 EST", "2026-03-08 01:30 EST", "2026-03-09 02:30 EDT"}},
		{"fall back, 1:30 repeated", 1, 30, time.Date(2026, 10, 31, 12, 0, 0, 0, ny), time.Date(2026, 11, 2, 12, 0, 0, 0, ny),
			[]string{"2026-10-31 01:30 EDT", "2026-11-01 01:30 EDT", "2026-11-02 01:30 EST"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subscription{Kind: Morning, Hour: tt.hour, Minute: tt.min}
			got := slotsOver(s, ny, tt.from, tt.to)
			var locals []string
			for _, g := range got {
				locals = append(locals, g.In(ny).Format("2006-01-02 15:04 MST"))
			}
			if len(locals) != len(tt.wantLocals) {
				t.Fatalf("slots = %q, want %q", locals, tt.wantLocals)
			}
			for i := range locals {
				if locals[i] != tt.wantLocals[i] {
					t.Errorf("slot %d = %s, want %s", i, locals[i], tt.wantLocals[i])
				}
			}
			// Next names the slot Latest reaches once it is due.
			for now := tt.from; now.Before(tt.to); now = now.Add(time.Hour) {
				next := s.Next(now, ny)
				if !next.After(now) || !s.Latest(next, ny).Equal(next) {
					t.Fatalf("Next(%s) = %s, not the latest slot at its time", now, next)
				}
			}
		})
	}
}

// The workdays' digest skips the weekend; the weekly one comes on its day; Moscow's slot is 9:00
// at +03:00, and another zone's is its own 9:00.
func TestSlotsOfWeekdays(t *testing.T) {
	msk := mustZone(t, "Europe/Moscow")
	ekb := mustZone(t, "Asia/Yekaterinburg")
	from := time.Date(2026, 3, 2, 0, 0, 0, 0, msk) // Monday
	to := from.AddDate(0, 0, 14)
	if got := slotsOver(Subscription{Kind: Morning, Hour: 9, Workdays: true}, msk, from, to); len(got) != 11 {
		// the Friday before from (27.02) and ten working days
		t.Errorf("workdays' slots = %d, want 11: %v", len(got), got)
	} else if got[1] != time.Date(2026, 3, 2, 9, 0, 0, 0, msk) || got[1].UTC().Hour() != 6 {
		t.Errorf("the first Monday's slot = %v", got[1])
	}
	weekly := slotsOver(Subscription{Kind: Weekly, Weekday: time.Friday, Hour: 17, Minute: 30}, msk, from, to)
	if len(weekly) != 3 || weekly[1].Weekday() != time.Friday || weekly[1].Day() != 6 || weekly[1].Hour() != 17 || weekly[1].Minute() != 30 {
		t.Errorf("weekly slots = %v", weekly)
	}
	if got := (Subscription{Kind: Morning, Hour: 9}).Latest(time.Date(2026, 3, 2, 9, 0, 0, 0, ekb), ekb); got.UTC().Hour() != 4 {
		t.Errorf("Yekaterinburg's 9:00 = %v UTC, want 04:00", got.UTC())
	}
}

// Alerts are checked every hour from 9:00 to 21:00 in the chat's zone, never at night.
func TestAlertSlots(t *testing.T) {
	msk := mustZone(t, "Europe/Moscow")
	from := time.Date(2026, 3, 2, 0, 0, 0, 0, msk)
	got := slotsOver(Subscription{Kind: KeyRate}, msk, from, from.AddDate(0, 0, 2))
	// the evening before (21:00) and 13 checks a day
	if len(got) != 1+2*13 {
		t.Fatalf("alert slots = %d: %v", len(got), got)
	}
	for _, s := range got {
		if h := s.In(msk).Hour(); h < AlertFirst || h > AlertLast || s.Minute() != 0 {
			t.Errorf("an alert slot at %v", s)
		}
	}
	if next := (Subscription{Kind: Debtor}).Next(time.Date(2026, 3, 2, 22, 10, 0, 0, msk), msk); !next.Equal(time.Date(2026, 3, 3, 9, 0, 0, 0, msk)) {
		t.Errorf("Next at 22:10 = %v", next)
	}
}
