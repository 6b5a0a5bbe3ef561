package digest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/testredis"
)

// The scheduler's tests run in a testing/synctest bubble: its clock starts at 2000-01-01 and
// moves only when every goroutine of the bubble is durably blocked (a timer, a channel), so a
// test sleeps through days in milliseconds and every tick happens at its exact minute. The store
// is the real Redis (internal/testredis): a goroutine waiting on its socket is not durably
// blocked, so the fake clock stands still while a command is on the wire, and a tick's whole
// work — claims, producing, sending, finishing — happens at the tick's instant. The one thing
// the bubble does not move is Redis's own clock: a lease's PX runs in real time, so nothing
// here waits for a lease to lapse (that is history's TestSlotRunFenced); runs end by finishing
// or releasing their leases.

// msk is the zone of the tests' dates.
var msk = func() *time.Location { l, _ := time.LoadLocation("Europe/Moscow"); return l }()

// start is Monday, 2 March 2026, 08:00 in Moscow.
var start = time.Date(2026, 3, 2, 8, 0, 0, 0, msk)

// delivery is one message a fake sender received.
type delivery struct {
	chat int64
	text string
	at   time.Time
}

// recorder is a Sender that keeps what it is given; chats in blocked answer api.ErrBlocked.
type recorder struct {
	mu      sync.Mutex
	got     []delivery
	blocked map[int64]bool
}

func (r *recorder) Deliver(_ context.Context, chatID, _ int64, ans api.Answer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.blocked[chatID] {
		return fmt.Errorf("telegram: 403 Forbidden: bot was blocked by the user: %w", api.ErrBlocked)
	}
	r.got = append(r.got, delivery{chat: chatID, text: ans.Text, at: time.Now()})
	return nil
}

func (r *recorder) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// lines are the deliveries as "chat text @ Moscow time".
func (r *recorder) lines() []string {
	var out []string
	for _, d := range r.deliveries() {
		out = append(out, fmt.Sprintf("%d %s @ %s", d.chat, d.text, d.at.In(msk).Format("02.01 15:04")))
	}
	return out
}

// producer is a Producer whose deliveries name their subscription and their day; a function
// of the test's may take over.
type producer struct {
	mu    sync.Mutex
	calls int
	fn    func(sub Subscription, state []byte) (Outcome, error)
}

func (p *producer) Digest(_ context.Context, sub Subscription, state []byte) (Outcome, error) {
	p.mu.Lock()
	p.calls++
	fn := p.fn
	p.mu.Unlock()
	if fn != nil {
		return fn(sub, state)
	}
	return Outcome{Send: true, Answer: api.Answer{Text: sub.ID + " " + time.Now().In(msk).Format("02.01")}}, nil
}

// subscribe stores sub as the skill does.
func subscribe(t *testing.T, store Store, sub Subscription) {
	t.Helper()
	sub.ID = IDOf(sub)
	data, err := Encode(sub)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Put(t.Context(), sub.ChatID, sub.ID, data, 10); err != nil {
		t.Fatal(err)
	}
}

// replica runs a scheduler over its own store on the test's Redis until stop is called.
func replica(t *testing.T, prefix string, prod Producer, send Sender, o SchedulerOptions) (stop func()) {
	t.Helper()
	store := history.NewRedisSubscriptions(testredis.Client(t), prefix)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		NewScheduler(store, prod, send, o).Run(ctx)
	}()
	return func() { cancel(); <-done }
}

// bubble runs test in a synctest bubble whose clock is at start, with a Redis store under a
// fresh prefix.
func bubble(t *testing.T, test func(t *testing.T, store *history.RedisSubscriptions, prefix string)) {
	synctest.Test(t, func(t *testing.T) {
		// The clock first: a Redis client's goroutines tick (go-redis's maintenance
		// notifications clean up every 5 minutes), and 26 years of their ticks take seconds.
		time.Sleep(time.Until(start))
		rdb := testredis.Client(t)
		prefix := testredis.Prefix(t, rdb)
		test(t, history.NewRedisSubscriptions(rdb, prefix), prefix)
	})
}

// A morning digest at 9:00 Moscow goes out at 9:00:00 each day, once.
func TestMorningDigestOnceADay(t *testing.T) {
	bubble(t, func(t *testing.T, store *history.RedisSubscriptions, prefix string) {
		subscribe(t, store, Subscription{ChatID: 1, UserID: 1, Kind: Morning, Hour: 9, Since: time.Now()})
		rec := &recorder{}
		stop := replica(t, prefix, &producer{}, rec, SchedulerOptions{})
		time.Sleep(3 * 24 * time.Hour)
		stop()
		want := []string{"1 morning 02.03 @ 02.03 09:00", "1 morning 03.03 @ 03.03 09:00", "1 morning 04.03 @ 04.03 09:00"}
		if got := rec.lines(); !slices.Equal(got, want) {
			t.Errorf("deliveries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, d := range rec.deliveries() {
			if d.at.Second() != 0 || d.at.Nanosecond() != 0 {
				t.Errorf("delivered at %v, not on the minute", d.at)
			}
		}
	})
}

// A restart — the scheduler stopped and a new one, a new instance, started on the same Redis —
// neither repeats a slot delivered before it nor skips one: stopped after 9:00, the next one
// starts at noon and sends the next days'; stopped at 8:50 and started at 9:40, the new one
// sends the missed slot at once, within DIGEST_CATCHUP; down past it, that slot is skipped.
func TestRestartNeitherRepeatsNorSkips(t *testing.T) {
	bubble(t, func(t *testing.T, store *history.RedisSubscriptions, prefix string) {
		subscribe(t, store, Subscription{ChatID: 1, UserID: 1, Kind: Morning, Hour: 9, Since: time.Now()})
		subscribe(t, store, Subscription{ChatID: 2, UserID: 2, Kind: Weekly, Weekday: time.Tuesday, Hour: 10, Since: time.Now()})
		rec, prod := &recorder{}, &producer{}
		o := SchedulerOptions{CatchUp: 3 * time.Hour}
		run := func(until time.Time) {
			stop := replica(t, prefix, prod, rec, o)
			time.Sleep(time.Until(until))
			stop()
		}
		run(time.Date(2026, 3, 2, 12, 0, 0, 0, msk))                    // Monday's 9:00 delivered
		time.Sleep(time.Minute)                                         // restarted at 12:01
		run(time.Date(2026, 3, 3, 8, 50, 0, 0, msk))                    // then down over Tuesday's 9:00 and 10:00
		time.Sleep(time.Until(time.Date(2026, 3, 3, 9, 40, 0, 0, msk))) // back at 9:40: 9:00 is late, 10:00 on time
		run(time.Date(2026, 3, 4, 8, 0, 0, 0, msk))                     // down over Wednesday's 9:00 past the catch-up
		time.Sleep(time.Until(time.Date(2026, 3, 4, 13, 30, 0, 0, msk)))
		run(time.Date(2026, 3, 5, 12, 0, 0, 0, msk))
		want := []string{
			"1 morning 02.03 @ 02.03 09:00",
			"1 morning 03.03 @ 03.03 09:40",
			"2 weekly 03.03 @ 03.03 10:00",
			"1 morning 05.03 @ 05.03 09:00",
		}
		if got := rec.lines(); !slices.Equal(got, want) {
			t.Errorf("deliveries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// Two replicas on one Redis, each with its own scheduler, deliver each slot of each
// subscription once: chats in three zones, digests and an hourly alert, over three days.
func TestTwoReplicasDeliverEachSlotOnce(t *testing.T) {
	bubble(t, func(t *testing.T, store *history.RedisSubscriptions, prefix string) {
		ctx := t.Context()
		now := time.Now()
		subscribe(t, store, Subscription{ChatID: 1, UserID: 1, Kind: Morning, Hour: 9, Since: now})
		subscribe(t, store, Subscription{ChatID: 2, UserID: 2, Kind: Morning, Hour: 9, Workdays: true, Since: now})
		store.SetZone(ctx, 2, "Asia/Yekaterinburg")
		subscribe(t, store, Subscription{ChatID: -3, UserID: 3, Group: true, Kind: Weekly, Weekday: time.Wednesday, Hour: 10, Minute: 30, Since: now})
		store.SetZone(ctx, -3, "Asia/Vladivostok")
		subscribe(t, store, Subscription{ChatID: 4, UserID: 4, Kind: KeyRate, Since: now})
		rec := &recorder{}
		prod := &producer{}
		a := replica(t, prefix, prod, rec, SchedulerOptions{Workers: 3})
		b := replica(t, prefix, prod, rec, SchedulerOptions{Workers: 1})
		time.Sleep(time.Until(time.Date(2026, 3, 5, 0, 0, 0, 0, msk)))
		a()
		b()
		count := map[string]int{}
		for _, l := range rec.lines() {
			count[l]++
		}
		for l, n := range count {
			if n != 1 {
				t.Errorf("%q delivered %d times", l, n)
			}
		}
		// Moscow: 2, 3, 4 March at 9:00; Yekaterinburg's 9:00 is 7:00 in Moscow; Vladivostok's
		// Wednesday 10:30 is 3:30 in Moscow; the alert every hour from 9:00 to 21:00, three days
		// (the first check at 8:00, the evening before's 21:00 slot).
		for _, want := range []string{
			"1 morning 02.03 @ 02.03 09:00", "1 morning 04.03 @ 04.03 09:00",
			"2 morning 03.03 @ 03.03 07:00", "2 morning 04.03 @ 04.03 07:00",
			"-3 weekly 04.03 @ 04.03 03:30",
			"4 keyrate 02.03 @ 02.03 08:00", "4 keyrate 02.03 @ 02.03 09:00", "4 keyrate 04.03 @ 04.03 21:00",
		} {
			if count[want] != 1 {
				t.Errorf("missing %q", want)
			}
		}
		// chat 1 three days; chat 2 two (Monday's 7:00 was before it subscribed); the group once;
		// the alert at 8:00 (the evening's slot) and 13 a day.
		const total = 3 + 2 + 1 + (1 + 3*13)
		if n := len(rec.deliveries()); n != total {
			t.Errorf("%d deliveries, want %d:\n%s", n, total, strings.Join(rec.lines(), "\n"))
		}
		if prod.calls != len(rec.deliveries()) {
			t.Errorf("produced %d times for %d deliveries: a slot was made twice", prod.calls, len(rec.deliveries()))
		}
	})
}

// A chat that blocked the bot (Telegram's 403) loses every subscription and its zone; the others
// go on.
func TestBlockedChatUnsubscribed(t *testing.T) {
	bubble(t, func(t *testing.T, store *history.RedisSubscriptions, prefix string) {
		ctx := t.Context()
		subscribe(t, store, Subscription{ChatID: 1, UserID: 1, Kind: Morning, Hour: 9, Since: time.Now()})
		subscribe(t, store, Subscription{ChatID: 2, UserID: 2, Kind: Morning, Hour: 9, Since: time.Now()})
		subscribe(t, store, Subscription{ChatID: 2, UserID: 2, Kind: Weekly, Weekday: time.Friday, Hour: 9, Since: time.Now()})
		store.SetZone(ctx, 2, "Europe/Moscow")
		rec := &recorder{blocked: map[int64]bool{2: true}}
		prod := &producer{}
		stop := replica(t, prefix, prod, rec, SchedulerOptions{})
		time.Sleep(2 * 24 * time.Hour)
		stop()
		if got := rec.lines(); !slices.Equal(got, []string{"1 morning 02.03 @ 02.03 09:00", "1 morning 03.03 @ 03.03 09:00"}) {
			t.Errorf("deliveries = %q", got)
		}
		if subs, _ := store.Chat(ctx, 2); len(subs) != 0 {
			t.Errorf("the blocked chat's subscriptions: %v", subs)
		}
		if z, _ := store.Zone(ctx, 2); z != "" {
			t.Errorf("the blocked chat's zone stayed: %q", z)
		}
		if prod.calls != 3 {
			t.Errorf("produced %d times, want 3 (chat 2 once, then never again)", prod.calls)
		}
	})
}

// A subscriber who may no longer see the data is told once and unsubscribed from that
// subscription only.
func TestDeniedSubscriptionCancelledWithNotice(t *testing.T) {
	bubble(t, func(t *testing.T, store *history.RedisSubscriptions, prefix string) {
		subscribe(t, store, Subscription{ChatID: -5, UserID: 5, Group: true, Kind: Weekly, Weekday: time.Monday, Hour: 10, Since: time.Now()})
		subscribe(t, store, Subscription{ChatID: -5, UserID: 5, Group: true, Kind: Morning, Hour: 9, Since: time.Now()})
		rec := &recorder{}
		prod := &producer{}
		prod.fn = func(sub Subscription, _ []byte) (Outcome, error) {
			if sub.Kind.Ledger() {
				return Outcome{}, ErrDenied
			}
			return Outcome{Send: true, Answer: api.Answer{Text: sub.ID}}, nil
		}
		stop := replica(t, prefix, prod, rec, SchedulerOptions{})
		time.Sleep(8 * 24 * time.Hour)
		stop()
		got := rec.lines()
		notice := "-5 Подписка «Недельная сводка по дебиторке» отменена: у этого чата больше нет доступа к данным 1С. Подписки чата — /subscriptions. @ 02.03 10:00"
		if len(got) != 9 || got[1] != notice {
			t.Errorf("deliveries:\n%s", strings.Join(got, "\n"))
		}
		subs, _ := store.Chat(t.Context(), -5)
		if len(subs) != 1 || subs[0].ID != "morning" {
			t.Errorf("subscriptions left: %v", subs)
		}
	})
}

// A delivery that fails is tried again a minute later, then five minutes after that, and
// delivered once when it succeeds; one that fails every time is given up after the third try
// and the next day's goes on.
func TestFailedDeliveryRetried(t *testing.T) {
	bubble(t, func(t *testing.T, store *history.RedisSubscriptions, prefix string) {
		subscribe(t, store, Subscription{ChatID: 1, UserID: 1, Kind: Morning, Hour: 9, Since: time.Now()})
		rec := &recorder{}
		prod := &producer{}
		tries := 0
		prod.fn = func(sub Subscription, _ []byte) (Outcome, error) {
			tries++
			day := time.Now().In(msk).Day()
			if day == 2 && tries <= 2 || day == 3 {
				return Outcome{}, fmt.Errorf("%w: 1C timed out", ErrUnavailable)
			}
			return Outcome{Send: true, Answer: api.Answer{Text: "morning"}}, nil
		}
		stop := replica(t, prefix, prod, rec, SchedulerOptions{})
		time.Sleep(3 * 24 * time.Hour)
		stop()
		want := []string{"1 morning @ 02.03 09:06", "1 morning @ 04.03 09:00"}
		if got := rec.lines(); !slices.Equal(got, want) {
			t.Errorf("deliveries = %q, want %q", got, want)
		}
		if tries != 3+3+1 {
			t.Errorf("tries = %d, want 7 (three on the 2nd, three on the 3rd given up, one on the 4th)", tries)
		}
	})
}

// An alert's state goes from one check to the next through the store: each change is sent once,
// and a replica that starts later reads the state the other kept.
func TestAlertStateCarried(t *testing.T) {
	bubble(t, func(t *testing.T, store *history.RedisSubscriptions, prefix string) {
		subscribe(t, store, Subscription{ChatID: 7, UserID: 7, Kind: KeyRate, Since: time.Now()})
		rate := "21"
		var mu sync.Mutex
		prod := &producer{fn: func(sub Subscription, state []byte) (Outcome, error) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case state == nil:
				return Outcome{State: []byte(rate)}, nil
			case string(state) == rate:
				return Outcome{}, nil
			}
			return Outcome{Send: true, Answer: api.Answer{Text: string(state) + "→" + rate}, State: []byte(rate)}, nil
		}}
		rec := &recorder{}
		stop := replica(t, prefix, prod, rec, SchedulerOptions{})
		time.Sleep(time.Until(time.Date(2026, 3, 2, 13, 30, 0, 0, msk)))
		mu.Lock()
		rate = "20"
		mu.Unlock()
		time.Sleep(time.Until(time.Date(2026, 3, 3, 12, 20, 0, 0, msk))) // between ticks that check
		stop()
		stop = replica(t, prefix, prod, rec, SchedulerOptions{})
		mu.Lock()
		rate = "19"
		mu.Unlock()
		time.Sleep(time.Until(time.Date(2026, 3, 4, 12, 0, 0, 0, msk)))
		stop()
		want := []string{"7 21→20 @ 02.03 14:00", "7 20→19 @ 03.03 13:00"}
		if got := rec.lines(); !slices.Equal(got, want) {
			t.Errorf("alerts = %q, want %q", got, want)
		}
	})
}

// The store down: the scheduler delivers nothing and goes on; when it answers again, the slot
// due is delivered.
func TestStoreDownThenUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		time.Sleep(time.Until(start))
		mem := history.NewMemorySubscriptions()
		subscribe(t, mem, Subscription{ChatID: 1, UserID: 1, Kind: Morning, Hour: 9, Since: time.Now()})
		flaky := &flakyStore{Store: mem, down: true}
		rec := &recorder{}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); NewScheduler(flaky, &producer{}, rec, SchedulerOptions{}).Run(ctx) }()
		time.Sleep(time.Until(time.Date(2026, 3, 2, 9, 30, 30, 0, msk))) // between two ticks
		flaky.setDown(false)
		time.Sleep(time.Hour)
		cancel()
		<-done
		if got := rec.lines(); !slices.Equal(got, []string{"1 morning 02.03 @ 02.03 09:31"}) {
			t.Errorf("deliveries = %q", got)
		}
	})
}

// flakyStore is a store whose listing fails while down.
type flakyStore struct {
	Store
	mu   sync.Mutex
	down bool
}

func (f *flakyStore) setDown(d bool) { f.mu.Lock(); f.down = d; f.mu.Unlock() }

func (f *flakyStore) All(ctx context.Context) ([]history.Subscription, error) {
	f.mu.Lock()
	down := f.down
	f.mu.Unlock()
	if down {
		return nil, errors.New("redis: connection refused")
	}
	return f.Store.All(ctx)
}
