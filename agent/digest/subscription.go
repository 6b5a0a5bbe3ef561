// Package digest is the skill of subscriptions: digests a chat receives on a schedule in its
// own time zone (the morning's rates and key rate, the week's receivables) and alerts it
// receives when something changed (the key rate, a debtor past a threshold, a payment overdue
// past a number of days). /subscribe, /subscriptions, /unsubscribe and /digest are its commands;
// the Scheduler delivers the subscriptions, each scheduled slot once across replicas, with what
// the agent's own answers say (Producer) through the bot's send path (Sender).
//
// What a digest says is never made here: the agent produces it from the same skills and
// answers a question gets, and the skill only decides what is due, and when.
package digest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/ru"
)

// Kind is what a subscription delivers.
type Kind string

// The kinds of subscription.
const (
	// Morning: the Bank of Russia's rates and key rate with their change, every day (or every
	// working day) at the chat's hour.
	Morning Kind = "morning"
	// Weekly: the receivables — who owes us, the largest debtors, the debt by days overdue —
	// on a weekday at the chat's hour.
	Weekly Kind = "weekly"
	// KeyRate: an alert when the key rate changed.
	KeyRate Kind = "keyrate"
	// Debtor: an alert when a counterparty's debt to us passed a threshold.
	Debtor Kind = "debtor"
	// Overdue: an alert when a payment due to us became more than a number of days overdue.
	Overdue Kind = "overdue"
)

// Alert reports whether k is checked every hour for a change rather than delivered on a
// schedule.
func (k Kind) Alert() bool { return k == KeyRate || k == Debtor || k == Overdue }

// Ledger reports whether k shows 1C figures: a chat that may not see them may not subscribe.
func (k Kind) Ledger() bool { return k == Weekly || k == Debtor || k == Overdue }

// The hours alerts are checked at, in the chat's time zone: every hour from AlertFirst to
// AlertLast, so that an alert never wakes anyone.
const (
	AlertFirst = 9
	AlertLast  = 21
)

// Subscription is one thing a chat subscribed to.
type Subscription struct {
	ChatID int64  `json:"-"`
	ID     string `json:"-"`
	Kind   Kind   `json:"kind"`
	// UserID is who subscribed: the digest is made with their access to 1C, as their question
	// would be (in a group, the group's access counts).
	UserID int64 `json:"user"`
	Group  bool  `json:"group,omitempty"`
	// Hour and Minute are the time of a digest in the chat's time zone.
	Hour   int `json:"hour,omitempty"`
	Minute int `json:"minute,omitempty"`
	// Weekday is the day of the weekly digest.
	Weekday time.Weekday `json:"weekday,omitempty"`
	// Workdays: the morning digest on Monday to Friday only.
	Workdays bool `json:"workdays,omitempty"`
	// Threshold is a debtor alert's threshold, in kopecks.
	Threshold int64 `json:"threshold,omitempty"`
	// Days is an overdue alert's number of days.
	Days int `json:"days,omitempty"`
	// Since is when it was subscribed: a digest's slots before it are not due.
	Since time.Time `json:"since"`
}

// IDOf is the id a subscription of s's kind and parameters is kept under in its chat: one of
// each kind, and one per threshold or number of days.
func IDOf(s Subscription) string {
	switch s.Kind {
	case Debtor:
		r := strconv.FormatInt(s.Threshold/100, 10)
		if k := s.Threshold % 100; k != 0 {
			r += fmt.Sprintf(".%02d", k)
		}
		return string(Debtor) + ":" + r
	case Overdue:
		return string(Overdue) + ":" + strconv.Itoa(s.Days)
	}
	return string(s.Kind)
}

// Encode is s as it is stored.
func Encode(s Subscription) ([]byte, error) { return json.Marshal(s) }

// Decode reads a stored subscription of chatID under id.
func Decode(chatID int64, id string, data []byte) (Subscription, error) {
	var s Subscription
	if err := json.Unmarshal(data, &s); err != nil {
		return Subscription{}, fmt.Errorf("digest: subscription %d/%s: %w", chatID, id, err)
	}
	s.ChatID, s.ID = chatID, id
	if IDOf(s) != id {
		return Subscription{}, fmt.Errorf("digest: subscription %d/%s holds %s", chatID, id, IDOf(s))
	}
	return s, nil
}

// Latest is the latest slot of s at or before now: a digest's scheduled time, or an alert's
// hourly check, in loc. Slots are times of the chat's own calendar made with time.Date, so a
// day's slot is one instant however the zone shifts its clocks: a time repeated by a change is
// one of the two, a time skipped by one is where time.Date puts it (2:30 on a night that jumps
// from 2:00 to 3:00 is read with the new offset, 1:30 of the old).
func (s Subscription) Latest(now time.Time, loc *time.Location) time.Time {
	local := now.In(loc)
	y, m, d := local.Date()
	if s.Kind.Alert() {
		for i := 0; i < 48; i++ {
			t := time.Date(y, m, d, local.Hour()-i, 0, 0, 0, loc)
			if h := t.In(loc).Hour(); !t.After(now) && h >= AlertFirst && h <= AlertLast {
				return t
			}
		}
		return time.Time{}
	}
	for i := 0; i <= 7; i++ {
		t := time.Date(y, m, d-i, s.Hour, s.Minute, 0, 0, loc)
		if !t.After(now) && s.onDay(time.Date(y, m, d-i, 12, 0, 0, 0, loc).Weekday()) {
			return t
		}
	}
	return time.Time{}
}

// Next is the first slot of s after now, in loc.
func (s Subscription) Next(now time.Time, loc *time.Location) time.Time {
	local := now.In(loc)
	y, m, d := local.Date()
	if s.Kind.Alert() {
		for i := 1; i <= 48; i++ {
			t := time.Date(y, m, d, local.Hour()+i, 0, 0, 0, loc)
			if h := t.In(loc).Hour(); t.After(now) && h >= AlertFirst && h <= AlertLast {
				return t
			}
		}
		return time.Time{}
	}
	for i := 0; i <= 8; i++ {
		t := time.Date(y, m, d+i, s.Hour, s.Minute, 0, 0, loc)
		if t.After(now) && s.onDay(time.Date(y, m, d+i, 12, 0, 0, 0, loc).Weekday()) {
			return t
		}
	}
	return time.Time{}
}

// onDay reports whether a digest of s goes out on a day of weekday w.
func (s Subscription) onDay(w time.Weekday) bool {
	switch {
	case s.Kind == Weekly:
		return w == s.Weekday
	case s.Workdays:
		return w != time.Saturday && w != time.Sunday
	}
	return true
}

// kindOrder is the order the kinds are listed in.
func kindOrder(k Kind) int {
	for i, x := range []Kind{Morning, Weekly, KeyRate, Debtor, Overdue} {
		if x == k {
			return i
		}
	}
	return 99
}

// Roubles is a sum as a question or a command writes it: «1 000 000», «1 000 000,50».
func Roubles(kopecks int64) string {
	return strings.TrimSuffix(strings.TrimSuffix(ru.Money(kopecks), "\u00a0₽"), ",00")
}

// weekdays name the days of the week: «по понедельникам», «пн».
var (
	weekdaysDative = [...]string{"воскресеньям", "понедельникам", "вторникам", "средам", "четвергам", "пятницам", "субботам"}
	weekdaysShort  = [...]string{"вс", "пн", "вт", "ср", "чт", "пт", "сб"}
)

// Title names s: «Утренняя сводка», «Долг больше 1 000 000,00 ₽».
func (s Subscription) Title() string {
	switch s.Kind {
	case Morning:
		return "Утренняя сводка"
	case Weekly:
		return "Недельная сводка по дебиторке"
	case KeyRate:
		return "Ключевая ставка"
	case Debtor:
		return "Долг контрагента больше " + ru.Money(s.Threshold)
	case Overdue:
		return "Просрочка оплаты больше " + ru.Count(s.Days, "дня", "дней", "дней")
	}
	return string(s.Kind)
}

// Short names s on a button: «утро», «должник 1 000 000».
func (s Subscription) Short() string {
	switch s.Kind {
	case Morning:
		return "утро"
	case Weekly:
		return "неделя"
	case KeyRate:
		return "ставка"
	case Debtor:
		return "должник " + Roubles(s.Threshold)
	case Overdue:
		return "просрочка " + strconv.Itoa(s.Days)
	}
	return string(s.Kind)
}

// Schedule says when s is delivered: «каждый день в 09:00», «по понедельникам в 10:00», «при
// изменении».
func (s Subscription) Schedule() string {
	at := fmt.Sprintf("%02d:%02d", s.Hour, s.Minute)
	switch {
	case s.Kind == Weekly:
		return "по " + weekdaysDative[s.Weekday] + " в " + at
	case s.Kind == Morning && s.Workdays:
		return "по будням в " + at
	case s.Kind == Morning:
		return "каждый день в " + at
	case s.Kind == KeyRate:
		return "когда Банк России изменит ставку"
	case s.Kind == Debtor:
		return "когда долг контрагента перед нами превысит порог"
	case s.Kind == Overdue:
		return "когда долг по договору окажется просрочен дольше, — о каждом договоре один раз"
	}
	return ""
}

// Contents says what a digest of s holds.
func (s Subscription) Contents() string {
	switch s.Kind {
	case Morning:
		return "официальные курсы ЦБ и ключевая ставка с изменением"
	case Weekly:
		return "кто нам должен, крупнейшие должники и просрочка по срокам долга"
	}
	return ""
}

// when is a slot as the chat reads it: «вт 08.12.2026 в 09:00».
func when(t time.Time, loc *time.Location) string {
	l := t.In(loc)
	return fmt.Sprintf("%s %s в %s", weekdaysShort[l.Weekday()], l.Format("02.01.2006"), l.Format("15:04"))
}
