package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testnet"
	"github.com/finbot/finbot/library"
)

// inboxBot starts a webhook bot with a Redis dedupe and inbox under prefix, with a short claim
// lease and sweep, and returns its webhook address.
func inboxBot(t *testing.T, f *fakes.BotAPI, a Answerer, rdb redis.UniversalClient, prefix string, o Options) (*Bot, string) {
	t.Helper()
	addr := testnet.Addr(t)
	o.WebhookURL, o.WebhookListen, o.WebhookSecret = "http://"+addr+"/hook", addr, "hook_secret"
	o.Dedupe = history.NewRedisDedupe(rdb, prefix, time.Hour)
	o.Inbox = history.NewRedisInbox(rdb, prefix, 100*time.Millisecond)
	o.ClaimLease, o.InboxSweep = 600*time.Millisecond, 100*time.Millisecond
	b := startBot(t, f, a, o)
	return b, addr
}

// waitInboxEmpty waits until the inbox under prefix holds nothing.
func waitInboxEmpty(t *testing.T, rdb redis.UniversalClient, prefix string) {
	t.Helper()
	in := history.NewRedisInbox(rdb, prefix, time.Second)
	deadline := time.Now().Add(30 * time.Second) // a generous ceiling, not a timing assertion
	for {
		n, err := in.Len(t.Context())
		if err == nil && n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("inbox still holds %d updates (%v)", n, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// postHook delivers one update to the webhook at url as Telegram does and wants 200.
func postHook(t *testing.T, url string, body []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", "hook_secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("webhook: %s", resp.Status)
	}
}

// An update a replica acknowledged and died with (in the inbox, its claim held by the dead
// instance until the lease lapses) is answered once by a live replica's sweeper, and leaves the
// inbox.
func TestInboxTakesOverDeadReplicasUpdate(t *testing.T) {
	rdb, prefix := sharedRedis(t)
	f := newFakeAPI(t)
	u := privateText(10, "вопрос")
	u.UpdateID = 71
	body, _ := json.Marshal(u)
	dead := history.NewRedisDedupe(rdb, prefix, time.Hour)
	if ok, _, err := dead.Claim(t.Context(), 71, 300*time.Millisecond); err != nil || !ok {
		t.Fatalf("dead replica's claim: %v, %v", ok, err)
	}
	if err := history.NewRedisInbox(rdb, prefix, time.Second).Put(t.Context(), 71, body); err != nil {
		t.Fatal(err)
	}
	b, _ := inboxBot(t, f, echoAgent(), rdb, prefix, Options{})
	f.WaitCalls(t, "setWebhook", 1)
	waitInboxEmpty(t, rdb, prefix)
	if sent := sentTo(f, 10); len(sent) != 1 || sent[0] != "эхо: вопрос" {
		t.Errorf("the user got %q, want the one answer", sent)
	}
	if got := outcomes(b.core.metrics, "taken_over"); got != 1 {
		t.Errorf("taken over %v times, want 1", got)
	}
	if state := rdb.Get(t.Context(), prefix+"upd:71").Val(); state != "done" {
		t.Errorf("update state %q, want done", state)
	}
}

// An update every replica that took it died on is not taken over again: its user is told, the
// agent is not asked, and it leaves the inbox.
func TestInboxGivesUpAfterTakeovers(t *testing.T) {
	rdb, prefix := sharedRedis(t)
	f := newFakeAPI(t)
	u := privateText(11, "отчёт, который роняет сервер")
	u.UpdateID = 72
	body, _ := json.Marshal(u)
	in := history.NewRedisInbox(rdb, prefix, time.Second)
	if err := in.Put(t.Context(), 72, body); err != nil {
		t.Fatal(err)
	}
	for range maxInboxTakeovers {
		in.TookOver(t.Context(), 72)
	}
	asked := false
	a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
		asked = true
		return api.Answer{Text: "ответ"}, nil
	}}
	b, _ := inboxBot(t, f, a, rdb, prefix, Options{})
	f.WaitSent(t, 1)
	waitInboxEmpty(t, rdb, prefix)
	b.side.Wait()
	if sent := sentTo(f, 11); len(sent) != 1 || sent[0] != userMessage(errGaveUp) {
		t.Errorf("the user got %q, want the notice %q", sent, userMessage(errGaveUp))
	}
	if asked {
		t.Error("the agent was asked again")
	}
}

// blockedStore is a document store whose index loads never finish: an index build that
// runs until its context ends.
type blockedStore struct {
	library.Store
	entered chan struct{} // closed when a load starts
	once    sync.Once
}

func (s *blockedStore) LoadChunks(ctx context.Context, _ string, _ []string) ([]docstore.Doc, error) {
	s.once.Do(func() { close(s.entered) })
	<-ctx.Done()
	return nil, ctx.Err()
}

// heavyAgent answers by searching a library whose index build never finishes: it is in the
// middle of heavy work (library.HeavyWatcher) once started is closed.
func heavyAgent(t *testing.T) (*fakeAgent, <-chan struct{}) {
	t.Helper()
	mem := docstore.NewMemory()
	if _, err := library.New(mem, nil, library.Options{}).Add(t.Context(), "u:14", 14, "акт.txt",
		[]byte("Акт сверки с ООО «Альфа» на 31.03.2026: сальдо 120 000 руб.")); err != nil {
		t.Fatal(err)
	}
	store := &blockedStore{Store: mem, entered: make(chan struct{})}
	lib := library.New(store, nil, library.Options{})
	return &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
		_, _, err := lib.Search(ctx, "u:14", library.Query{Text: r.Text})
		return api.Answer{}, err
	}}, store.entered
}

// A replica that dies (SIGKILL, out of memory: it renews no claim, settles nothing) in the
// middle of heavy work for an update — an index build — does not hand the update to the next
// replica unchanged: the next replica's sweeper takes the lapsed claim, finds the heavy work
// marked, tells the user the message took too much, settles it answered and never asks its
// own agent. A replica that dies answering an update without heavy work in progress hands it
// over as before, and the next replica answers it.
func TestInboxFailsUpdateAReplicaDiedOn(t *testing.T) {
	tests := []struct {
		name  string
		agent func(t *testing.T) (*fakeAgent, <-chan struct{})
		heavy bool
	}{
		{"in heavy work", heavyAgent, true},
		{"waiting on something else", func(*testing.T) (*fakeAgent, <-chan struct{}) { return hangingAgent() }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rdb, prefix := sharedRedis(t)
			f := newFakeAPI(t)
			// Replica A talks to Redis over a client of its own: closing it is A dying.
			opts := *rdb.Options()
			dying := redis.NewClient(&opts)
			t.Cleanup(func() { dying.Close() })
			a, started := tt.agent(t)
			_, addr := inboxBot(t, f, a, dying, prefix, Options{ShutdownTimeout: 100 * time.Millisecond})
			f.WaitCalls(t, "setWebhook", 1)
			u := privateText(14, "сальдо по акту сверки с Альфой")
			u.UpdateID = 75
			body, _ := json.Marshal(u)
			postHook(t, "http://"+addr+"/hook", body)
			waitClosed(t, started, "A to start answering")
			dying.Close()

			asked := make(chan struct{}, 1)
			next := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
				asked <- struct{}{}
				return api.Answer{Text: "ответ"}, nil
			}}
			b, _ := inboxBot(t, f, next, rdb, prefix, Options{})
			waitInboxEmpty(t, rdb, prefix)
			b.side.Wait()
			want, diedOn, takenOver := "ответ", 0.0, 1.0
			if tt.heavy {
				want, diedOn, takenOver = userMessage(errDiedOn), 1, 0
			}
			if sent := sentTo(f, 14); len(sent) != 1 || sent[0] != want {
				t.Errorf("the user got %q, want %q", sent, want)
			}
			if tt.heavy && len(asked) != 0 {
				t.Error("the next replica asked its agent: the update that killed A ran again")
			}
			if got := outcomes(b.core.metrics, "died_on"); got != diedOn {
				t.Errorf("died_on counted %v times, want %v", got, diedOn)
			}
			if got := outcomes(b.core.metrics, "taken_over"); got != takenOver {
				t.Errorf("taken over %v times, want %v", got, takenOver)
			}
			if state := rdb.Get(t.Context(), prefix+"upd:75").Val(); state != "done" {
				t.Errorf("update state %q, want done (a re-delivery is not answered)", state)
			}
		})
	}
}

// A replica stopped (SIGTERM) while an acknowledged update's answer is still running does not
// tell its user to ask again: the update stays in the inbox, its claim released, and the next
// replica answers it.
func TestShutdownLeavesInboxedUpdateToNextReplica(t *testing.T) {
	rdb, prefix := sharedRedis(t)
	f := newFakeAPI(t)
	hang, started := hangingAgent()
	addr := testnet.Addr(t)
	a, err := New(t.Context(), hang, Options{Token: testToken, APIURL: f.URL(), HTTPClient: f.Client(),
		WebhookURL: "http://" + addr + "/hook", WebhookListen: addr, WebhookSecret: "hook_secret",
		Dedupe: history.NewRedisDedupe(rdb, prefix, time.Hour), Inbox: history.NewRedisInbox(rdb, prefix, time.Minute),
		ClaimLease: time.Minute, InboxSweep: time.Minute, ShutdownTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	runA := make(chan error, 1)
	go func() { runA <- a.Run(ctx) }()
	f.WaitCalls(t, "setWebhook", 1)
	u := privateText(12, "вопрос")
	u.UpdateID = 73
	body, _ := json.Marshal(u)
	postHook(t, "http://"+addr+"/hook", body)
	waitClosed(t, started, "A to start answering")
	stop()
	if err := <-runA; err != nil {
		t.Fatal(err)
	}
	if sent := sentTo(f, 12); len(sent) != 0 {
		t.Fatalf("A sent %q; the update is left to the next replica", sent)
	}
	if state := rdb.Get(t.Context(), prefix+"upd:73").Val(); state != "" {
		t.Fatalf("after A stopped the update's state is %q, want released", state)
	}

	inboxBot(t, f, echoAgent(), rdb, prefix, Options{})
	waitInboxEmpty(t, rdb, prefix)
	if sent := sentTo(f, 12); len(sent) != 1 || sent[0] != "эхо: вопрос" {
		t.Errorf("the user got %q, want one answer from the next replica", sent)
	}
}

// Telegram delivering an answered update again (its first webhook call timed out on its side)
// gets no second answer and leaves nothing in the inbox: the delivery's own copy is removed
// before the 200, not left for a sweep.
func TestInboxRedeliveryOfAnsweredUpdate(t *testing.T) {
	rdb, prefix := sharedRedis(t)
	f := newFakeAPI(t)
	_, addr := inboxBot(t, f, echoAgent(), rdb, prefix, Options{})
	f.WaitCalls(t, "setWebhook", 1)
	u := privateText(13, "вопрос")
	u.UpdateID = 74
	body, _ := json.Marshal(u)
	postHook(t, "http://"+addr+"/hook", body)
	f.WaitSent(t, 1)
	waitInboxEmpty(t, rdb, prefix)
	postHook(t, "http://"+addr+"/hook", body)
	if n, err := history.NewRedisInbox(rdb, prefix, time.Second).Len(t.Context()); err != nil || n != 0 {
		t.Errorf("after the re-delivery the inbox holds %d (%v), want 0", n, err)
	}
	if sent := sentTo(f, 13); len(sent) != 1 {
		t.Errorf("the user got %q, want one answer", sent)
	}
}
