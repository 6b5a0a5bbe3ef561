package digest

import (
	"testing"
	"time"
)

func TestParseSubscribe(t *testing.T) {
	tests := []struct {
		in      string
		want    request // zone compared by name
		problem string
	}{
		{in: "утро", want: request{kind: Morning, hour: 9}},
		{in: "утро 9:00", want: request{kind: Morning, hour: 9, timeSet: true}},
		{in: "утро 8.30 будни", want: request{kind: Morning, hour: 8, minute: 30, timeSet: true, workdays: true}},
		{in: "Утренняя сводка в 7", want: request{kind: Morning, hour: 7, timeSet: true}},
		{in: "курсы 10", want: request{kind: Morning, hour: 10, timeSet: true}},
		{in: "утро 9 вечера", want: request{kind: Morning, hour: 21, timeSet: true}},
		{in: "утро 25:00", problem: badTime},
		{in: "утро пн", want: request{kind: Morning, hour: 9, weekday: time.Monday, weekdaySet: true}},
		{in: "неделя", want: request{kind: Weekly, hour: 10, weekday: time.Monday}},
		{in: "неделя пн 10:00", want: request{kind: Weekly, hour: 10, weekday: time.Monday, weekdaySet: true, timeSet: true}},
		{in: "дебиторка по пятницам в 17:30", want: request{kind: Weekly, hour: 17, minute: 30, weekday: time.Friday, weekdaySet: true, timeSet: true}},
		{in: "неделя ср 9:15", want: request{kind: Weekly, hour: 9, minute: 15, weekday: time.Wednesday, weekdaySet: true, timeSet: true}},
		{in: "ставка", want: request{kind: KeyRate}},
		{in: "ключевая ставка", want: request{kind: KeyRate}},
		{in: "ставка 9:00", problem: timeNotAnAlert},
		{in: "должник 1000000", want: request{kind: Debtor, threshold: 100_000_000}},
		{in: "должник 1 000 000", want: request{kind: Debtor, threshold: 100_000_000}},
		{in: "должник 1,5 млн", want: request{kind: Debtor, threshold: 150_000_000}},
		{in: "долг 500 тыс", want: request{kind: Debtor, threshold: 50_000_000}},
		{in: "должник 1 000 000,50", want: request{kind: Debtor, threshold: 100_000_050}},
		{in: "должник", problem: needThreshold},
		{in: "должник 0", problem: badThreshold},
		{in: "просрочка 30", want: request{kind: Overdue, days: 30}},
		{in: "просрочка больше 45 дней", want: request{kind: Overdue, days: 45}},
		{in: "просроченный долг 60", want: request{kind: Overdue, days: 60}},
		{in: "просрочка", problem: needDays},
		{in: "просрочка 0", problem: badDays},
		{in: "просрочка 5000", problem: badDays},
		{in: "пояс Asia/Yekaterinburg", want: request{zoneName: "Asia/Yekaterinburg"}},
		{in: "часовой пояс екатеринбург", want: request{zoneName: "Asia/Yekaterinburg"}},
		{in: "пояс asia/novosibirsk", want: request{zoneName: "Asia/Novosibirsk"}},
		{in: "пояс мск+2", want: request{zoneName: "Asia/Yekaterinburg"}},
		{in: "пояс america/new_york", want: request{zoneName: "America/New_York"}},
		{in: "пояс Марс", problem: badZone},
		{in: "утро 9:00 Asia/Omsk", want: request{kind: Morning, hour: 9, timeSet: true, zoneName: "Asia/Omsk"}},
		{in: "утро и ставка", want: request{kind: Morning, hour: 9}}, // the morning digest has the key rate
		{in: "неделя и ставка", problem: oneAtATime},
		{in: "погода", problem: notUnderstood},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, problem := parseSubscribe(tt.in)
			if problem != tt.problem {
				t.Fatalf("problem = %q, want %q", problem, tt.problem)
			}
			if problem != "" {
				return
			}
			got.zone = nil
			if got != tt.want {
				t.Errorf("parseSubscribe(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestZone(t *testing.T) {
	for in, want := range map[string]string{
		"Europe/Moscow": "Europe/Moscow", "europe/moscow": "Europe/Moscow", "Москва": "Europe/Moscow",
		"МСК+7": "Asia/Vladivostok", "мск + 2": "Asia/Yekaterinburg", "Калининград": "Europe/Kaliningrad",
		"utc": "UTC", "America/Port-au-Prince": "America/Port-au-Prince", "asia/ho_chi_minh": "Asia/Ho_Chi_Minh",
	} {
		if _, got, ok := Zone(in); !ok || got != want {
			t.Errorf("Zone(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "Local", "Марс", "Europe/Atlantis", "../etc/passwd", "9:00"} {
		if _, got, ok := Zone(in); ok {
			t.Errorf("Zone(%q) = %q; want none", in, got)
		}
	}
}

func TestParseUnsubscribe(t *testing.T) {
	have := []Subscription{
		{ID: "morning", Kind: Morning}, {ID: "debtor:1000000", Kind: Debtor, Threshold: 100_000_000},
		{ID: "debtor:5000000", Kind: Debtor, Threshold: 500_000_000}, {ID: "overdue:30", Kind: Overdue, Days: 30},
	}
	tests := []struct {
		in      string
		ids     []string
		all     bool
		problem bool
	}{
		{in: ""},
		{in: "все", all: true},
		{in: "утро", ids: []string{"morning"}},
		{in: "должник", ids: []string{"debtor:1000000", "debtor:5000000"}},
		{in: "должник 5 млн", ids: []string{"debtor:5000000"}},
		{in: "просрочка 30", ids: []string{"overdue:30"}},
		{in: "просрочка 60"},
		{in: "ставка"},
		{in: "погода", problem: true},
	}
	for _, tt := range tests {
		ids, all, problem := parseUnsubscribe(tt.in, have)
		if (problem != "") != tt.problem || all != tt.all || len(ids) != len(tt.ids) {
			t.Errorf("parseUnsubscribe(%q) = %q, %v, %q", tt.in, ids, all, problem)
			continue
		}
		for i := range ids {
			if ids[i] != tt.ids[i] {
				t.Errorf("parseUnsubscribe(%q) = %q, want %q", tt.in, ids, tt.ids)
			}
		}
	}
}

func TestIDRoundTrip(t *testing.T) {
	for _, s := range []Subscription{
		{Kind: Morning, Hour: 9, UserID: 1}, {Kind: Weekly, Weekday: time.Friday, Hour: 17}, {Kind: KeyRate},
		{Kind: Debtor, Threshold: 100_000_050}, {Kind: Overdue, Days: 45},
	} {
		id := IDOf(s)
		data, err := Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(7, id, data)
		if err != nil || got.ID != id || got.ChatID != 7 || got.Kind != s.Kind || got.Threshold != s.Threshold || got.Days != s.Days {
			t.Errorf("round trip of %+v = %+v, %v", s, got, err)
		}
	}
	if _, err := Decode(7, "debtor:5", []byte(`{"kind":"debtor","threshold":100}`)); err == nil {
		t.Error("a subscription kept under another's id was read")
	}
	if got := IDOf(Subscription{Kind: Debtor, Threshold: 100_000_050}); got != "debtor:1000000.50" {
		t.Errorf("IDOf = %q", got)
	}
}
