package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/integrations/history"
)

// Restarts between receiving an update and replying: the update is answered once, by the next
// instance when Telegram delivers it again, or the user is told to ask again when Telegram will
// not. Instances share a real Redis (REDIS_URL) and one fake Bot API.

// stopOnClaim is a deduper that stops its bot right after claiming update id: the SIGTERM (or
// the crash) comes while the batch that carried the update is being accepted, before the poll
// that would confirm it, so Telegram delivers it again. With crash, the claim stays behind: a
// process that dies releases nothing.
type stopOnClaim struct {
	Deduper
	id    int64
	stop  context.CancelFunc
	crash bool
}

func (d *stopOnClaim) Claim(ctx context.Context, id int64, lease time.Duration) (bool, time.Duration, error) {
	ok, wait, err := d.Deduper.Claim(ctx, id, lease)
	if id == d.id {
		d.stop()
	}
	return ok, wait, err
}

func (d *stopOnClaim) Release(ctx context.Context, id int64) error {
	if d.crash {
		return nil
	}
	return d.Deduper.Release(ctx, id)
}

// claimsAfter is a deduper whose claims after the first `first` ones wait for wait() first.
type claimsAfter struct {
	Deduper
	first int
	wait  func()

	mu     sync.Mutex
	claims int
}

func (d *claimsAfter) Claim(ctx context.Context, id int64, lease time.Duration) (bool, time.Duration, error) {
	d.mu.Lock()
	d.claims++
	n := d.claims
	d.mu.Unlock()
	if n > d.first {
		d.wait()
	}
	return d.Deduper.Claim(ctx, id, lease)
}

// hangingAgent blocks every answer until ctx is done; started is closed at the first call.
func hangingAgent() (*fakeAgent, <-chan struct{}) {
	started := make(chan struct{})
	var once sync.Once
	return &fakeAgent{AnswerFunc: func(ctx context.Context, _ api.Request) (api.Answer, error) {
		once.Do(func() { close(started) })
		<-ctx.Done()
		return api.Answer{}, ctx.Err()
	}}, started
}

func waitClosed(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(30 * time.Second): // a generous ceiling, not a timing assertion
		t.Fatalf("timed out waiting for %s", what)
	}
}

func TestRestartBeforeReplyAnswersOnce(t *testing.T) {
	for _, tt := range []struct {
		name  string
		crash bool
		lease time.Duration // A's claim lease
	}{
		{"graceful stop releases the claim", false, time.Minute},
		{"crash leaves the claim until its lease lapses", true, 1500 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			began := time.Now()
			rdb, prefix := sharedRedis(t)
			f := newFakeAPI(t)
			id := f.Push(privateText(10, "вопрос"))

			// Instance A takes the update and stops before answering it.
			hang, started := hangingAgent()
			ctxA, stopA := context.WithCancel(context.Background())
			defer stopA()
			dedupeA := &stopOnClaim{Deduper: history.NewRedisDedupe(rdb, prefix, time.Hour), id: int64(id), stop: stopA, crash: tt.crash}
			a, err := New(t.Context(), hang, Options{Token: testToken, APIURL: f.URL(), PollTimeout: time.Second,
				ShutdownTimeout: 200 * time.Millisecond, Dedupe: dedupeA, ClaimLease: tt.lease})
			if err != nil {
				t.Fatal(err)
			}
			runA := make(chan error, 1)
			go func() { runA <- a.Run(ctxA) }()
			waitClosed(t, started, "A to start answering")
			if err := <-runA; err != nil {
				t.Fatalf("A: Run: %v", err)
			}
			if n := f.Count("getUpdates"); n != 1 {
				t.Fatalf("A polled %d times, want 1: it must stop before the poll that confirms the update", n)
			}
			if sent := sentTo(f, 10); len(sent) != 0 {
				t.Fatalf("A sent %q; it stopped before answering and must send nothing", sent)
			}
			key := prefix + "upd:" + strconv.Itoa(id)
			state := rdb.Get(t.Context(), key).Val()
			if tt.crash != strings.HasPrefix(state, "processing:") {
				t.Fatalf("after A stopped the update's state is %q", state)
			}
			if tt.crash {
				// A "crashes" now: its claim holds for its whole lease from here, however long
				// A's shutdown took on a loaded machine, so B finds it live.
				if err := rdb.PExpire(t.Context(), key, tt.lease).Err(); err != nil {
					t.Fatal(err)
				}
			}

			// Instance B gets the update again from Telegram and answers it, once.
			b := startBot(t, f, echoAgent(), Options{Dedupe: history.NewRedisDedupe(rdb, prefix, time.Hour), PollIdle: 10 * time.Millisecond})
			got := f.WaitSent(t, 1)
			settle(t, f, b)
			b.side.Wait()
			if sent := sentTo(f, 10); len(sent) != 1 || got[0].Text != "эхо: вопрос" {
				t.Errorf("the user got %q, want exactly one answer, from B", sent)
			}
			if state := rdb.Get(t.Context(), key).Val(); state != "done" {
				t.Errorf("after B answered the update's state is %q, want done", state)
			}
			deferred := outcomes(b.core.metrics, "deferred")
			if want := map[bool]float64{false: 0, true: 1}[tt.crash]; deferred != want {
				t.Errorf("B deferred %v updates to a live claim, want %v", deferred, want)
			}
			t.Logf("took %v", time.Since(began).Round(time.Millisecond))
		})
	}
}

// A SIGTERM after the poll that confirmed the update: Telegram will not deliver it again, so A
// tells the user rather than leaving them waiting, and the next instance stays silent.
func TestRestartAfterConfirmingPollTellsUser(t *testing.T) {
	began := time.Now()
	rdb, prefix := sharedRedis(t)
	f := newFakeAPI(t)
	id := f.Push(privateText(10, "вопрос"))
	hang, started := hangingAgent()
	a, err := New(t.Context(), hang, Options{Token: testToken, APIURL: f.URL(), PollTimeout: time.Second,
		ShutdownTimeout: 100 * time.Millisecond, Dedupe: history.NewRedisDedupe(rdb, prefix, time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	ctxA, stopA := context.WithCancel(context.Background())
	runA := make(chan error, 1)
	go func() { runA <- a.Run(ctxA) }()
	waitClosed(t, started, "A to start answering")
	f.WaitCalls(t, "getUpdates", 2) // the poll with offset id+1 went out
	stopA()
	if err := <-runA; err != nil {
		t.Fatal(err)
	}
	b := startBot(t, f, echoAgent(), Options{Dedupe: history.NewRedisDedupe(rdb, prefix, time.Hour), PollIdle: 10 * time.Millisecond})
	settle(t, f, b)
	sent := sentTo(f, 10)
	if len(sent) != 1 || !strings.Contains(sent[0], "перезапускается") {
		t.Errorf("the user got %q, want one message saying the bot restarted", sent)
	}
	if state := rdb.Get(t.Context(), prefix+"upd:"+strconv.Itoa(id)).Val(); state != "done" {
		t.Errorf("update state %q, want done", state)
	}
	t.Logf("took %v", time.Since(began).Round(time.Millisecond))
}

// A delivery of an update that another, live instance is answering waits for that claim and is
// dropped once the update is done: one answer.
func TestLiveClaimIsNotAnsweredTwice(t *testing.T) {
	began := time.Now()
	rdb, prefix := sharedRedis(t)
	f := newFakeAPI(t)
	gate := make(chan struct{})
	started := make(chan struct{})
	slow := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		close(started)
		<-gate
		return api.Answer{Text: "ответ A: " + r.Text}, nil
	}}
	const lease = time.Second
	startBot(t, f, slow, Options{Dedupe: history.NewRedisDedupe(rdb, prefix, time.Hour), ClaimLease: lease})
	u := privateText(10, "вопрос")
	u.UpdateID = f.Push(u)
	key := prefix + "upd:" + strconv.Itoa(u.UpdateID)
	waitClosed(t, started, "A to start answering")

	// B (not polling: the fake Bot API serves one poller) gets the same update. A answers well
	// within its lease: B claims again (once A's lease has run out) only after A marked the
	// update done, however slow a loaded machine makes A.
	aDone := func() {
		deadline := time.Now().Add(30 * time.Second)
		for rdb.Get(context.Background(), key).Val() != "done" {
			if time.Now().After(deadline) {
				t.Error("A never marked the update done")
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	b, err := New(t.Context(), echoAgent(), Options{Token: testToken, APIURL: f.URL(),
		Dedupe: &claimsAfter{Deduper: history.NewRedisDedupe(rdb, prefix, time.Hour), first: 1, wait: aDone}})
	if err != nil {
		t.Fatal(err)
	}
	// A's claim holds for its whole lease from now, however long A took to get here on a
	// loaded machine: B's first claim finds it live.
	if err := rdb.PExpire(t.Context(), key, lease).Err(); err != nil {
		t.Fatal(err)
	}
	b.accept(t.Context(), t.Context(), update{Update: u}, nil)
	close(gate)
	f.WaitSent(t, 1)
	b.side.Wait() // B waited for A's claim, then found the update done
	b.disp.wait()
	if sent := sentTo(f, 10); len(sent) != 1 || sent[0] != "ответ A: вопрос" {
		t.Errorf("the user got %q, want A's answer only", sent)
	}
	for outcome, want := range map[string]float64{"deferred": 1, "duplicate": 1, "accepted": 0} {
		if got := outcomes(b.core.metrics, outcome); got != want {
			t.Errorf("B: updates{outcome=%q} = %v, want %v", outcome, got, want)
		}
	}
	t.Logf("took %v", time.Since(began).Round(time.Millisecond))
}

// A rolling restart while messages keep coming: instance A gets SIGTERM mid-stream with answers
// queued and in flight, finishes them within its shutdown timeout, and instance B takes over
// the stream. Every message gets exactly one reply, its answer: none is lost, none is answered
// twice, nobody is asked to repeat.
func TestRestartWhileMessagesFlow(t *testing.T) {
	began := time.Now()
	rdb, prefix := sharedRedis(t)
	f := newFakeAPI(t)
	slow := &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
		select {
		case <-ctx.Done():
			return api.Answer{}, ctx.Err()
		case <-time.After(40 * time.Millisecond):
			return api.Answer{Text: "эхо: " + r.Text}, nil
		}
	}}
	ctxA, stopA := context.WithCancel(context.Background())
	defer stopA()
	a, err := New(t.Context(), slow, Options{Token: testToken, APIURL: f.URL(), PollTimeout: time.Second, PollIdle: 10 * time.Millisecond,
		ShutdownTimeout: 10 * time.Second, Dedupe: history.NewRedisDedupe(rdb, prefix, time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	unpace(a)
	runA := make(chan error, 1)
	go func() { runA <- a.Run(ctxA) }()

	const chats, total = 4, 80
	text := func(i int) string { return fmt.Sprintf("вопрос %d", i) }
	var pushed atomic.Int32
	wait := flow(f, total, 25*time.Millisecond, func(i int) tgbotapi.Update {
		pushed.Add(1)
		return privateText(int64(200+i%chats), text(i))
	})
	waitFor(t, "A to answer part of the stream", func() bool { return len(f.WaitSent(t, 0)) >= 10 })
	stopA()
	if err := <-runA; err != nil {
		t.Fatalf("A: Run: %v", err)
	}
	stoppedAt := pushed.Load()
	b := startBot(t, f, slow, Options{Dedupe: history.NewRedisDedupe(rdb, prefix, time.Hour), PollIdle: 10 * time.Millisecond})
	wait()
	f.WaitSent(t, total)
	settle(t, f, b)
	b.side.Wait()

	answers, notices := 0, 0
	replies := sentTexts(f)
	for i := range total {
		chat := strconv.Itoa(200 + i%chats)
		switch n := replies[chat+"|эхо: "+text(i)]; n {
		case 0:
		case 1:
			answers++
		default:
			t.Errorf("%q answered %d times", text(i), n)
		}
	}
	for key, n := range replies {
		if strings.HasSuffix(key, "|"+userMessage(errShutdown)) {
			notices += n
		}
	}
	if answers+notices != total || len(f.WaitSent(t, 0)) != total {
		t.Errorf("%d messages: %d answers, %d asked to repeat, %d sends in all; want one reply each",
			total, answers, notices, len(f.WaitSent(t, 0)))
	}
	if notices > 0 {
		t.Errorf("%d users asked to repeat; A had time to finish what it had taken", notices)
	}
	t.Logf("A stopped after %d of %d messages; %d answered, %d asked to repeat; took %v",
		stoppedAt, total, answers, notices, time.Since(began).Round(time.Millisecond))
}
