package app

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/digest"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/cbr/cbrtest"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/testredis"
	"github.com/finbot/finbot/ru"
)

// The digests end to end on a fake clock: subscribed with the agent's /subscribe, made by the agent from the
// demo ledger and the Bank of Russia's stand-in, delivered by digest.Scheduler over the real
// Redis, in a testing/synctest bubble whose clock the test moves (agent/digest's
// scheduler_test.go says how the bubble and Redis get along). What the bubble must not hold is
// a server: a goroutine waiting on a socket is never durably blocked, so cbrtest's server is
// started outside the bubble and the client talks to it without keep-alive connections.

// moscow is the zone of the tests' dates.
var moscow = ru.Moscow

// digestDay is the test's day at the Moscow hour and minute.
func digestDay(day, hour, minute int) time.Time {
	return time.Date(2026, 3, day, hour, minute, 0, 0, moscow)
}

// delivered is one message a replica's sender received.
type delivered struct {
	chat int64
	ans  api.Answer
	at   time.Time
}

// outbox is a digest.Sender that keeps what the replicas deliver. The bot's own Deliver (its
// rendering, limits and 403) is tested in bot.
type outbox struct {
	mu  sync.Mutex
	got []delivered
}

func (o *outbox) Deliver(_ context.Context, chatID, _ int64, ans api.Answer) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.got = append(o.got, delivered{chat: chatID, ans: ans, at: time.Now()})
	return nil
}

func (o *outbox) all() []delivered {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.got)
}

// bankStandIn is the Bank of Russia with rates set from Tuesday to Saturday in February and
// March 2026 (the dollar at 80 roubles and the date as its fraction: 80.0303 on 3 March) and the key rate: 16.00 from 22.12.2025, 15.50 from
// 04.03.2026.
func bankStandIn(t *testing.T) *cbrtest.Server {
	bank := cbrtest.New(t)
	for on := time.Date(2026, 2, 20, 0, 0, 0, 0, cbrtest.Moscow); on.Month() <= time.March; on = on.AddDate(0, 0, 1) {
		if w := on.Weekday(); w == time.Sunday || w == time.Monday {
			continue // Saturday's rates hold on Sunday and Monday
		}
		bank.Publish(on, cbrtest.Quote{Code: "USD", Nominal: 1, Value: "80." + on.Format("0102")},
			cbrtest.Quote{Code: "EUR", Nominal: 1, Value: "92.5000"}, cbrtest.Quote{Code: "CNY", Nominal: 1, Value: "11.2000"})
	}
	bank.SetKeyRate(time.Date(2025, 12, 22, 0, 0, 0, 0, cbrtest.Moscow), "16.00")
	bank.SetKeyRate(time.Date(2026, 3, 4, 0, 0, 0, 0, cbrtest.Moscow), "15.50")
	return bank
}

// replicaAgent is one replica's agent: its own Bank of Russia client and 1C lane over the demo
// ledger, and its own handle on the subscriptions in Redis.
func replicaAgent(t *testing.T, bank *cbrtest.Server, store digest.Store, access func(userID, chatID int64) bool) *agent.Agent {
	t.Helper()
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	return agent.New(agent.Deps{History: history.NewMemory(100, history.Limits{MaxTurns: 20, MaxChars: 8000, TTL: time.Hour}),
		Rates: cbr.New(cbr.Options{BaseURL: bank.URL, HTTPClient: client}), Digests: store,
		Ledger: runner.NewLane(d, runner.Options{Organization: d.MainOrganization()})},
		agent.Options{LedgerAccess: access})
}

func openToAll(int64, int64) bool { return true }

// command sends /cmd text to a as user in chat and returns the answer's text.
func command(t *testing.T, a *agent.Agent, chat, user int64, cmd, text string) string {
	t.Helper()
	ans, err := a.Answer(t.Context(), api.Request{ChatID: chat, UserID: user, Group: chat < 0, Command: cmd, Text: text})
	if err != nil {
		t.Fatalf("/%s %s: %v", cmd, text, err)
	}
	return ans.Text
}

// runReplica runs a's scheduler over store until the returned function is called.
func runReplica(a *agent.Agent, store digest.Store, out digest.Sender) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		digest.NewScheduler(store, a, out, digest.SchedulerOptions{}).Run(ctx)
	}()
	return func() { cancel(); <-done }
}

// inBubble runs test in a synctest bubble whose clock starts at start, with the Redis prefix of
// the test.
func inBubble(t *testing.T, start time.Time, test func(t *testing.T, open func() *history.RedisSubscriptions)) {
	synctest.Test(t, func(t *testing.T) {
		time.Sleep(time.Until(start)) // before a Redis client ticks (agent/digest's tests)
		rdb := testredis.Client(t)
		prefix := testredis.Prefix(t, rdb)
		test(t, func() *history.RedisSubscriptions { return history.NewRedisSubscriptions(testredis.Client(t), prefix) })
	})
}

// The morning digest, subscribed with /subscribe утро 9:00, is the day's /rate and /keyrate at
// 9:00 Moscow, once a day: with two replicas on one Redis, and across a restart that replaces
// both with a third.
func TestMorningDigestEndToEnd(t *testing.T) {
	bank := bankStandIn(t)
	inBubble(t, digestDay(2, 8, 0), func(t *testing.T, open func() *history.RedisSubscriptions) {
		out := &outbox{}
		sa, sb := open(), open()
		a, b := replicaAgent(t, bank, sa, openToAll), replicaAgent(t, bank, sb, openToAll)
		if got := command(t, a, 1, 1, "subscribe", "утро 9:00"); !strings.Contains(got, "Ближайшая — пн 02.03.2026 в 09:00") {
			t.Fatalf("/subscribe утро 9:00 = %q", got)
		}
		stopA, stopB := runReplica(a, sa, out), runReplica(b, sb, out)
		time.Sleep(time.Until(digestDay(3, 12, 0)))
		stopA()
		stopB()
		sc := open()
		c := replicaAgent(t, bank, sc, openToAll)
		stopC := runReplica(c, sc, out)
		time.Sleep(time.Until(digestDay(5, 12, 0)))
		stopC()

		got := out.all()
		if len(got) != 4 {
			t.Fatalf("%d digests in four days, want 4", len(got))
		}
		for i, d := range got {
			day := 2 + i
			if !d.at.Equal(digestDay(day, 9, 0)) || d.chat != 1 {
				t.Errorf("digest %d to %d at %v, want at 9:00 on the %dth", i, d.chat, d.at, day)
			}
			dollar := fmt.Sprintf("80,03%02d", day)
			if day == 2 {
				dollar = "80,0228" // Monday's rates are the ones set on Saturday
			}
			for _, w := range []string{fmt.Sprintf("**Утренняя сводка, %02d.03.2026**", day), dollar, "Ключевая ставка Банка России"} {
				if !strings.Contains(d.ans.Text, w) {
					t.Errorf("digest of the %dth lacks %q:\n%s", day, w, d.ans.Text)
				}
			}
			if len(d.ans.Sources) < 2 {
				t.Errorf("digest of the %dth cites %d sources", day, len(d.ans.Sources))
			}
		}
		// The key rate with its change: 15.50 from the 4th, 16.00 before.
		if !strings.Contains(got[2].ans.Text, "15,50%") || !strings.Contains(got[2].ans.Text, "До этого — 16,00%") {
			t.Errorf("the 4th's key rate:\n%s", got[2].ans.Text)
		}
	})
}

// The key-rate alert reports the change once, on the day it took effect, at the first hourly
// check (9:00), with the rate before it.
func TestKeyRateAlertOnce(t *testing.T) {
	bank := bankStandIn(t)
	inBubble(t, digestDay(2, 8, 0), func(t *testing.T, open func() *history.RedisSubscriptions) {
		out := &outbox{}
		s := open()
		a := replicaAgent(t, bank, s, openToAll)
		command(t, a, 5, 5, "subscribe", "ставка")
		stop := runReplica(a, s, out)
		time.Sleep(time.Until(digestDay(5, 22, 0)))
		stop()
		got := out.all()
		if len(got) != 1 {
			for _, d := range got {
				t.Logf("%v: %s", d.at, d.ans.Text)
			}
			t.Fatalf("%d alerts, want 1", len(got))
		}
		text := got[0].ans.Text
		if !got[0].at.Equal(digestDay(4, 9, 0)) || !strings.HasPrefix(text, "**Банк России изменил ключевую ставку**") ||
			!strings.Contains(text, "**Ключевая ставка Банка России на 04.03.2026: 15,50%** [1] — действует с 04.03.2026.") ||
			!strings.Contains(text, "До этого — 16,00% (с 22.12.2025).") {
			t.Errorf("alert at %v:\n%s", got[0].at, text)
		}
	})
}

// receivablesOn is «кто нам должен» computed from the demo ledger's movements by plain loops: the
// balance of account 62 (every sub-account) per counterparty of the main organization, every
// movement of the day included — not through the template, the engine or the runner.
func receivablesOn(t *testing.T, day time.Time) map[string]onec.Kopecks {
	t.Helper()
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	main := l.DefaultOrganization().Ref
	last := day.Format(time.DateOnly)
	bal := map[string]onec.Kopecks{}
	party := func(sc []onec.Subconto) string {
		for _, s := range sc {
			if s.Kind == "Контрагенты" {
				return s.Ref
			}
		}
		return ""
	}
	for _, m := range l.Movements {
		if m.OrganizationRef != main || m.Period.Format(time.DateOnly) > last {
			continue
		}
		if strings.HasPrefix(m.AccountDr, "62") {
			bal[party(m.SubcontoDr)] += m.Amount
		}
		if strings.HasPrefix(m.AccountCr, "62") {
			bal[party(m.SubcontoCr)] -= m.Amount
		}
	}
	names := map[string]string{}
	for _, c := range l.Counterparties {
		names[c.Ref] = c.Name
	}
	out := map[string]onec.Kopecks{}
	for ref, b := range bal {
		out[names[ref]] = b
	}
	return out
}

// The debtor alert names, on the day a counterparty's debt passes the threshold, that
// counterparty and its debt — as a calculation from the ledger's movements finds it — once, at
// the first check of that day; the counterparties above it at the first check are not news. The
// replica is stopped for eleven days and another one started: its first check compares with the
// last one before the stop, whose state it reads from Redis.
func TestDebtorAlertMatchesLedger(t *testing.T) {
	const threshold = 3_000_000_00
	// The days of the checks that see a new date: the first at 20:30 on the 4th (the 20:00 slot),
	// then 9:00 on the 5th; after the restart, 08:00 on the 17th (the evening's slot) and 9:00
	// on the 18th. (Every check of a day reads the same figures in the demo ledger, which has no
	// clock: the test keeps few of them.)
	checks := []int{4, 5, 17, 18}
	above := func(day int) map[string]onec.Kopecks {
		out := map[string]onec.Kopecks{}
		for name, b := range receivablesOn(t, digestDay(day, 0, 0)) {
			if b > threshold {
				out[name] = b
			}
		}
		return out
	}
	want := map[int][]string{}
	prev := above(checks[0])
	for _, day := range checks[1:] {
		now := above(day)
		for _, name := range slices.Sorted(maps.Keys(now)) {
			if _, was := prev[name]; !was {
				want[day] = append(want[day], fmt.Sprintf("%s — %s", name, now[name]))
			}
		}
		prev = now
	}
	if len(want) < 2 {
		t.Fatalf("the demo ledger gives %d days with a debtor past %s at the checks; the test needs two", len(want), ru.Money(threshold))
	}
	bank := bankStandIn(t)
	inBubble(t, digestDay(4, 20, 30), func(t *testing.T, open func() *history.RedisSubscriptions) {
		out := &outbox{}
		s := open()
		a := replicaAgent(t, bank, s, openToAll)
		command(t, a, 9, 9, "subscribe", "должник 3 млн")
		stop := runReplica(a, s, out)
		time.Sleep(time.Until(digestDay(5, 9, 30)))
		stop()
		time.Sleep(time.Until(digestDay(17, 8, 0)))
		s = open()
		stop = runReplica(replicaAgent(t, bank, s, openToAll), s, out)
		time.Sleep(time.Until(digestDay(18, 9, 30)))
		stop()
		got := map[int][]string{}
		for _, d := range out.all() {
			at := d.at.In(moscow)
			if at.Minute() != 0 || at.Hour() != 9 && !(at.Hour() == 8 && at.Day() == 17) {
				t.Errorf("an alert at %v: the day's figures change overnight, the first check of the day finds them", at)
			}
			head := fmt.Sprintf("**Долг перед нами превысил %s** — на %s [1]:", ru.Money(threshold), at.Format("02.01.2006"))
			if !strings.HasPrefix(d.ans.Text, head) || len(d.ans.Sources) != 1 || !strings.HasPrefix(d.ans.Sources[0].Title, "1С: Кто должен нам") {
				t.Errorf("alert of %v:\n%s\n%v", at, d.ans.Text, d.ans.Sources)
			}
			for _, line := range strings.Split(d.ans.Text, "\n")[2:] {
				got[at.Day()] = append(got[at.Day()], strings.TrimPrefix(line, "- "))
			}
		}
		for day := range got {
			slices.Sort(got[day])
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("alerts by day:\n%v\nwant (from the movements):\n%v", got, want)
		}
	})
}

// The overdue alert names each debt overdue by more than 30 days when it becomes so, and again
// only when more of it becomes overdue, with the amounts the aging past 30 days («кто должен нам
// больше 30 дней») gives that day and the day before — the aging's own figures are checked
// against a calculation from the ledger in agent/ledger/runner.
func TestOverdueAlertFollowsAging(t *testing.T) {
	const days = 30
	first, last := 6, 8
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	lane := runner.NewLane(d, runner.Options{Organization: d.MainOrganization()})
	past := func(day int) map[string]onec.Kopecks {
		res := lane.Run(t.Context(), runner.Decomposition{QuestionMode: runner.ModeLedger, Intent: recipe.ReceivablesAging, OverdueDays: days,
			Filters: recipe.Filters{AsOfDate: digestDay(day, 0, 0).Format(time.DateOnly)}})
		rows := res.All
		if len(rows) == 0 {
			rows = res.Rows
		}
		out := map[string]onec.Kopecks{}
		for _, r := range rows {
			if p := r.Ages.Asked(res.Aging); p > 0 {
				out[r.Name+", "+r.Deal] = p
			}
		}
		return out
	}
	want := map[int][]string{}
	prev := past(first)
	for day := first + 1; day <= last; day++ {
		now := past(day)
		for _, k := range slices.Sorted(maps.Keys(now)) {
			if now[k] > prev[k] {
				line := k + ": " + now[k].String()
				if prev[k] > 0 {
					line += " (было " + prev[k].String() + ")"
				}
				want[day] = append(want[day], line)
			}
		}
		prev = now
	}
	if len(want) == 0 {
		t.Fatal("no debt passes 30 days overdue in the window: the test proves nothing")
	}
	bank := bankStandIn(t)
	inBubble(t, digestDay(first, 20, 30), func(t *testing.T, open func() *history.RedisSubscriptions) {
		out := &outbox{}
		s := open()
		a := replicaAgent(t, bank, s, openToAll)
		command(t, a, 11, 11, "subscribe", "просрочка 30")
		stop := runReplica(a, s, out)
		time.Sleep(time.Until(digestDay(last, 9, 30))) // each day's figures are the 9:00 check's
		stop()
		got := map[int][]string{}
		for _, d := range out.all() {
			lines := strings.Split(d.ans.Text, "\n")
			if !strings.HasPrefix(lines[0], "**Просрочено больше чем на 30 дней** — новое на ") || d.at.In(moscow).Hour() != 9 {
				t.Errorf("alert at %v:\n%s", d.at, d.ans.Text)
			}
			for _, line := range lines[2:] {
				if strings.HasPrefix(line, "- …") {
					t.Fatalf("the alert of %v was cut; the window has too many", d.at)
				}
				got[d.at.In(moscow).Day()] = append(got[d.at.In(moscow).Day()], strings.ReplaceAll(strings.TrimPrefix(line, "- "), "\\", ""))
			}
		}
		for day := range got {
			slices.Sort(got[day])
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("alerts by day:\n%v\nwant (the aging of each day):\n%v", got, want)
		}
	})
}

// A group that may not see 1C is refused the weekly digest at /subscribe; a chat whose access is
// taken away after it subscribed gets, at the next slot, the notice that the subscription is
// cancelled instead of the figures, and the subscription is gone.
func TestLedgerDigestObeysAccess(t *testing.T) {
	bank := bankStandIn(t)
	inBubble(t, digestDay(2, 8, 0), func(t *testing.T, open func() *history.RedisSubscriptions) {
		var mu sync.Mutex
		allowed := map[int64]bool{-100: true}
		access := func(_, chatID int64) bool {
			mu.Lock()
			defer mu.Unlock()
			return allowed[chatID]
		}
		out := &outbox{}
		s := open()
		a := replicaAgent(t, bank, s, access)
		if got := command(t, a, -200, 7, "subscribe", "неделя пн 10:00"); !strings.Contains(got, "нет доступа к данным учёта") {
			t.Errorf("a group without 1C subscribed: %q", got)
		}
		if got := command(t, a, -100, 7, "subscribe", "неделя пн 10:00"); !strings.HasPrefix(got, "Готово") {
			t.Fatalf("a group with 1C: %q", got)
		}
		stop := runReplica(a, s, out)
		time.Sleep(time.Until(digestDay(2, 12, 0)))
		mu.Lock()
		allowed[-100] = false
		mu.Unlock()
		time.Sleep(time.Until(digestDay(9, 12, 0)))
		stop()
		got := out.all()
		if len(got) != 2 {
			t.Fatalf("%d deliveries, want the digest and the notice", len(got))
		}
		if !strings.HasPrefix(got[0].ans.Text, "**Сводка по дебиторке на 02.03.2026**") || !strings.Contains(got[0].ans.Text, "Нам должны") ||
			!strings.Contains(got[0].ans.Text, "из них просрочено") || !got[0].at.Equal(digestDay(2, 10, 0)) {
			t.Errorf("the digest at %v:\n%s", got[0].at, got[0].ans.Text)
		}
		if got[1].ans.Text != "Подписка «Недельная сводка по дебиторке» отменена: у этого чата больше нет доступа к данным 1С. Подписки чата — /subscriptions." ||
			!got[1].at.Equal(digestDay(9, 10, 0)) {
			t.Errorf("the notice at %v: %q", got[1].at, got[1].ans.Text)
		}
		if subs, _ := s.Chat(t.Context(), -100); len(subs) != 0 {
			t.Errorf("the subscription stayed: %v", subs)
		}
		for _, d := range got[1:] {
			if strings.Contains(d.ans.Text, "₽") {
				t.Errorf("a ledger figure reached a chat without access: %s", d.ans.Text)
			}
		}
	})
}
