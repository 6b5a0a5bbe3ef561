package bot

import (
	"context"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/bot/tgmd"
	"github.com/finbot/finbot/internal/fakes"
)

// The integration tests below run the bot against the fake Bot API. Their pacing is either 0
// (every change is edited at once, and the fake agent waits for each edit before going on) or
// an hour (no edit can happen before the answer is final), so nothing depends on timing. The
// pacing itself is tested on a fake clock with synctest further down.

func TestStreamingEditsOneMessage(t *testing.T) {
	f := newFakeAPI(t)
	const start = "Дебиторская задолженность на 31 марта"
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		if r.Progress == nil {
			t.Error("Request.Progress is nil: the Telegram front end streams")
			return api.Answer{}, nil
		}
		r.Progress("Дебиторская") // too short to be worth a message
		r.Progress(start)
		waitUntil(t, "the draft is sent", func() bool { return f.Count("sendMessage") == 1 })
		r.Progress(start + " составляет")
		waitUntil(t, "1st edit", func() bool { return len(f.Edits()) == 1 })
		r.Progress(start + " составляет  ") // the same text to a reader: no edit
		r.Progress(start + " составляет 1 200 000 ₽.")
		waitUntil(t, "2nd edit", func() bool { return len(f.Edits()) == 2 })
		return api.Answer{
			Text:    start + " составляет **1 200 000 ₽**.",
			Buttons: []api.Button{{Text: "По контрагентам"}},
		}, nil
	}}
	b := startStreamBot(t, f, a, streamConfig{interval: 0, groupInterval: 0, minChars: 20})
	f.Push(privateText(10, "кто нам должен?"))
	waitUntil(t, "the final edit", func() bool { return len(f.Edits()) == 3 })
	b.disp.wait()

	sent, edits := f.Sent(), f.Edits()
	if len(sent) != 1 {
		t.Fatalf("sendMessage %d times, want 1 (the draft only): %+v", len(sent), sent)
	}
	if d := sent[0]; d.Text != start || hasEntities(d.Entities) || d.ReplyTo != "" {
		t.Errorf("draft = %+v, want the first long enough text, plain, no reply-to in a private chat", d)
	}
	wantTexts := []string{start + " составляет", start + " составляет 1 200 000 ₽.", start + " составляет 1 200 000 ₽."}
	var texts []string
	for _, e := range edits {
		texts = append(texts, e.Text)
		if e.MessageID != "1001" || e.ChatID != "10" {
			t.Errorf("edit of message %s in chat %s, want the draft 1001 in chat 10", e.MessageID, e.ChatID)
		}
	}
	if diff := cmp.Diff(wantTexts, texts); diff != "" {
		t.Errorf("edited texts (-want +got):\n%s", diff)
	}
	for _, e := range edits[:2] {
		if hasEntities(e.Entities) || e.Markup != "" {
			t.Errorf("streaming edit %q carries formatting %s %s, want plain text", e.Text, e.Entities, e.Markup)
		}
	}
	final := edits[2]
	if !strings.Contains(final.Entities, `"bold"`) {
		t.Errorf("final edit entities = %s, want the bold amount", final.Entities)
	}
	if !strings.Contains(final.Markup, "По контрагентам") {
		t.Errorf("final edit markup = %q, want the answer's button", final.Markup)
	}
	if n := counterValue(t, b.opts.Metrics, "finbot_stream_edits_total"); n != 3 {
		t.Errorf("finbot_stream_edits_total = %v, want 3", n)
	}
	waitNoStreamers(t)
}

func TestStreamingEditsAreThrottled(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		r.Progress("Курс доллара на сегодня по данным ЦБ")
		waitUntil(t, "the draft is sent", func() bool { return f.Count("sendMessage") == 1 })
		for _, more := range []string{" —", " — 90", " — 90,50 ₽"} {
			r.Progress("Курс доллара на сегодня по данным ЦБ" + more)
		}
		return api.Answer{Text: "Курс доллара на сегодня по данным ЦБ — **90,50 ₽**."}, nil
	}}
	b := startStreamBot(t, f, a, streamConfig{interval: time.Hour, groupInterval: time.Hour, minChars: 20})
	f.Push(privateText(10, "курс доллара"))
	waitUntil(t, "the final edit", func() bool { return len(f.Edits()) == 1 })
	b.disp.wait()

	sent, edits := f.Sent(), f.Edits()
	if len(sent) != 1 || f.Count("editMessageText") != 1 {
		t.Errorf("sendMessage %d, editMessageText %d; want 1 and 1 (no edit before the interval passed)",
			len(sent), f.Count("editMessageText"))
	}
	if e := edits[0]; e.Text != "Курс доллара на сегодня по данным ЦБ — 90,50 ₽." || !hasEntities(e.Entities) {
		t.Errorf("final edit = %+v, want the formatted answer", e)
	}
	waitNoStreamers(t)
}

func TestStreamedLongAnswerEditsFirstPartAndSendsTheRest(t *testing.T) {
	f := newFakeAPI(t)
	para := "**Итого** " + strings.Repeat("очень длинный ответ ", 100)
	ans := api.Answer{Text: strings.Join([]string{para, para, para}, "\n\n"), Buttons: []api.Button{{Text: "Ещё"}}}
	parts := render(ans)
	if len(parts) < 2 {
		t.Fatalf("the answer renders to %d parts; the test needs more than one", len(parts))
	}
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		r.Progress(strings.Repeat("очень длинный ответ ", 300)) // longer than a message
		waitUntil(t, "the draft is sent", func() bool { return f.Count("sendMessage") == 1 })
		return ans, nil
	}}
	b := startStreamBot(t, f, a, streamConfig{interval: time.Hour, groupInterval: time.Hour, minChars: 20})
	f.Push(privateText(10, "подробно"))
	f.WaitSent(t, len(parts))
	b.disp.wait()

	sent, edits := f.Sent(), f.Edits()
	if n := tgmd.UTF16Len(sent[0].Text); n > maxMessageUnits || !strings.HasSuffix(sent[0].Text, "…") {
		t.Errorf("draft of a too long text: %d UTF-16 units, ends %q; want ≤ %d ending with …",
			n, sent[0].Text[len(sent[0].Text)-10:], maxMessageUnits)
	}
	if len(edits) != 1 || edits[0].Text != parts[0].Text || !hasEntities(edits[0].Entities) {
		t.Fatalf("edits = %d, want one: the first part, formatted", len(edits))
	}
	if edits[0].Markup != "" {
		t.Errorf("first part carries the keyboard %s; it belongs on the last part", edits[0].Markup)
	}
	rest := sent[1:]
	if len(rest) != len(parts)-1 {
		t.Fatalf("sent %d more messages after the edit, want %d", len(rest), len(parts)-1)
	}
	for i, m := range rest {
		if m.Text != parts[i+1].Text || m.ReplyTo != "" {
			t.Errorf("part %d = %q (reply to %q), want %q", i+2, m.Text, m.ReplyTo, parts[i+1].Text)
		}
	}
	if !strings.Contains(rest[len(rest)-1].Markup, "Ещё") {
		t.Errorf("last part markup = %q, want the keyboard", rest[len(rest)-1].Markup)
	}
	waitNoStreamers(t)
}

func TestStreamedFinalEditFailureSendsAnew(t *testing.T) {
	f := newFakeAPI(t)
	// The draft was deleted by hand, say.
	f.SetFault(fakes.Refuse("editMessageText", 400, "Bad Request: message to edit not found", nil))
	b := startStreamBot(t, f, balanceAgent(t, f), streamConfig{interval: time.Hour, groupInterval: time.Hour, minChars: 20})
	f.Push(privateText(10, "остаток 51"))
	got := f.WaitSent(t, 2)
	b.disp.wait()

	if m := got[1]; m.Text != "Остаток на счёте 51 на 1 апреля — 5 000 ₽." || !hasEntities(m.Entities) {
		t.Errorf("fallback message = %+v, want the formatted answer", m)
	}
	if d := f.Deleted(); !cmp.Equal(d, []string{"1001"}) {
		t.Errorf("deleted %v, want the stale draft 1001", d)
	}
	waitNoStreamers(t)
}

// balanceAgent streams a draft of the balance on account 51, waits until the draft is sent,
// then answers with the balance formatted.
func balanceAgent(t *testing.T, f *fakes.BotAPI) *fakeAgent {
	return &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		r.Progress("Остаток на счёте 51 на 1 апреля")
		waitUntil(t, "the draft is sent", func() bool { return f.Count("sendMessage") == 1 })
		return api.Answer{Text: "Остаток на счёте 51 на 1 апреля — **5 000 ₽**."}, nil
	}}
}

func TestStreamedFinalEditParseErrorGoesPlain(t *testing.T) {
	f := newFakeAPI(t)
	f.SetFault(fakes.Refuse("editMessageText", 400, "Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 5",
		func(form map[string]string) bool { return hasEntities(form["entities"]) }))
	b := startStreamBot(t, f, balanceAgent(t, f), streamConfig{interval: time.Hour, groupInterval: time.Hour, minChars: 20})
	f.Push(privateText(10, "остаток 51"))
	waitUntil(t, "the plain final edit", func() bool { return len(f.Edits()) == 1 })
	b.disp.wait()

	sent, edits := f.Sent(), f.Edits()
	if len(sent) != 1 || edits[0].Text != "Остаток на счёте 51 на 1 апреля — 5 000 ₽." || hasEntities(edits[0].Entities) {
		t.Errorf("sent %d, edits %+v; want the draft edited once more, as plain text", len(sent), edits)
	}
}

func TestAnswerWithoutProgressIsSentAsBefore(t *testing.T) {
	f := newFakeAPI(t)
	b := startStreamBot(t, f, echoAgent(), defaultStreamConfig())
	f.Push(privateText(10, "привет"))
	got := f.WaitSent(t, 1)
	b.disp.wait()
	if got[0].Text != "эхо: привет" || f.Count("editMessageText") != 0 || f.Count("deleteMessage") != 0 {
		t.Errorf("sent %+v, editMessageText %d, deleteMessage %d; want one plain send",
			got, f.Count("editMessageText"), f.Count("deleteMessage"))
	}
}

// TestStreamedAnswerThatFailsDeletesTheDraft: with edits (native drafts vanish by themselves:
// native_test.go).
func TestStreamedAnswerThatFailsDeletesTheDraft(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		r.Progress("Сейчас посмотрю данные 1С за март")
		waitUntil(t, "the draft is sent", func() bool { return f.Count("sendMessage") == 1 })
		return api.Answer{}, api.ErrUnavailable
	}}
	b := startStreamBot(t, f, a, streamConfigFor(StreamEdit))
	f.Push(privateText(10, "выручка за март"))
	got := f.WaitSent(t, 2)
	b.disp.wait()
	if want := userMessage(api.ErrUnavailable); got[1].Text != want {
		t.Errorf("error reply = %q, want %q", got[1].Text, want)
	}
	if d := f.Deleted(); !cmp.Equal(d, []string{"1001"}) {
		t.Errorf("deleted %v, want the partial draft 1001", d)
	}
	waitNoStreamers(t)
}

func TestConsoleDoesNotStream(t *testing.T) {
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		if r.Progress != nil {
			r.Progress("промежуточный текст ответа, который не печатается")
		}
		return api.Answer{Text: "Готово: **42**."}, nil
	}}
	var out strings.Builder
	c := NewConsole(a, &out, ConsoleOptions{UserID: 1})
	_, replies := c.Ask(t.Context(), "вопрос")
	if diff := cmp.Diff([]string{"Готово: 42."}, replies); diff != "" {
		t.Errorf("console replies (-want +got):\n%s", diff)
	}
	if strings.Contains(out.String(), "промежуточный") {
		t.Errorf("console printed streamed text:\n%s", out.String())
	}
}

// TestStreamerPacing runs the streamer on synctest's fake clock: the draft goes out at once,
// then at most one edit per interval (1 s in private chats, 3 s in groups), none for an
// unchanged text.
func TestStreamerPacing(t *testing.T) {
	tests := []struct {
		name        string
		in          incoming
		interval    time.Duration
		wantReplyTo int
	}{
		{"private", incoming{chatID: 10, userID: 10, messageID: 7}, time.Second, 0},
		{"group", incoming{chatID: -100, userID: 10, messageID: 7, group: true}, 3 * time.Second, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := &fakeDrafter{}
				c := newTestCore(d)
				c.stream.groupInterval = 3 * time.Second // off by default
				s := c.newStreamer(t.Context(), tt.in)
				text := func(n int) string {
					return "Ответ растёт понемногу:" + strings.Repeat(" слово", n)
				}

				s.progress("Ответ растёт") // under 20 visible characters
				synctest.Wait()
				d.check(t, "a short text", nil, nil)

				s.progress(text(1))
				synctest.Wait()
				d.check(t, "the first long enough text", []string{text(1)}, nil)
				if d.replyTo != tt.wantReplyTo {
					t.Errorf("draft replies to %d, want %d", d.replyTo, tt.wantReplyTo)
				}

				s.progress(text(2))
				time.Sleep(tt.interval - time.Millisecond)
				synctest.Wait()
				d.check(t, "just before the interval", []string{text(1)}, nil)
				time.Sleep(time.Millisecond)
				synctest.Wait()
				d.check(t, "at the interval", []string{text(1)}, []string{text(2)})

				s.progress(text(2) + "\n") // unchanged once trimmed
				time.Sleep(2 * tt.interval)
				synctest.Wait()
				d.check(t, "an unchanged text", []string{text(1)}, []string{text(2)})

				s.progress(text(3)) // the interval has long passed: at once
				synctest.Wait()
				d.check(t, "a change after a pause", []string{text(1)}, []string{text(2), text(3)})

				s.progress(text(4))
				s.stop() // before the interval: the last text is left to the final answer
				d.check(t, "after stop", []string{text(1)}, []string{text(2), text(3)})
				if id := s.draftID(); id != 1 {
					t.Errorf("draftID = %d, want 1", id)
				}
				s.progress(text(5)) // late calls are ignored
				synctest.Wait()
				d.check(t, "progress after stop", []string{text(1)}, []string{text(2), text(3)})
			})
		})
	}
}

// TestNoStreamingInGroupsByDefault: a group's draft and final edit would cost two of its 20
// messages a minute.
func TestNoStreamingInGroupsByDefault(t *testing.T) {
	c := newTestCore(&fakeDrafter{})
	if s := c.newStreamer(t.Context(), incoming{chatID: -100, userID: 10, messageID: 7, group: true}); s != nil {
		t.Error("a group question gets a streamer by default")
	}
	if s := c.newStreamer(t.Context(), incoming{chatID: 10, userID: 10}); s == nil {
		t.Error("a private question gets no streamer by default")
	}
}

// TestProgressNeverBlocks: while the draft is being sent (Telegram is slow), the agent's
// calls return at once, and only the latest text is shown afterwards.
func TestProgressNeverBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &fakeDrafter{gate: make(chan struct{})}
		s := newTestCore(d).newStreamer(t.Context(), incoming{chatID: 10})
		long := "Ответ, который пишется медленно"
		s.progress(long)
		synctest.Wait() // the draft is stuck in "Telegram"
		for i := range 50 {
			s.progress(long + strings.Repeat(".", i)) // would deadlock the bubble if it blocked
		}
		close(d.gate)
		time.Sleep(time.Second)
		synctest.Wait()
		d.check(t, "after the slow draft", []string{long}, []string{long + strings.Repeat(".", 49)})
		s.stop()
	})
}

func TestStreamerBacksOffAndGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		flood := &tgbotapi.Error{Code: 429, Message: "Too Many Requests: retry after 5", ResponseParameters: tgbotapi.ResponseParameters{RetryAfter: 5}}
		gone := &tgbotapi.Error{Code: 400, Message: "Bad Request: message to edit not found"}
		d := &fakeDrafter{redraftErr: func(n int) error {
			switch n {
			case 1:
				return flood
			case 2:
				return nil
			default:
				return gone
			}
		}}
		s := newTestCore(d).newStreamer(t.Context(), incoming{chatID: 10})
		text := func(n int) string {
			return "Ответ растёт понемногу:" + strings.Repeat(" слово", n)
		}
		s.progress(text(1))
		synctest.Wait()
		s.progress(text(2))
		time.Sleep(time.Second)
		synctest.Wait()
		d.check(t, "a 429", []string{text(1)}, []string{text(2)})
		time.Sleep(5*time.Second - time.Millisecond)
		synctest.Wait()
		d.check(t, "before retry_after", []string{text(1)}, []string{text(2)})
		time.Sleep(time.Millisecond)
		synctest.Wait()
		d.check(t, "after retry_after", []string{text(1)}, []string{text(2), text(2)})
		s.progress(text(3))
		time.Sleep(time.Second)
		synctest.Wait()
		s.progress(text(4)) // streaming ended at the 400: no more edits
		time.Sleep(time.Minute)
		synctest.Wait()
		d.check(t, "after a 400", []string{text(1)}, []string{text(2), text(2), text(3)})
		s.stop()
		if id := s.draftID(); id != 1 {
			t.Errorf("draftID = %d, want 1: the final answer still replaces the draft", id)
		}
	})
}

func TestStreamingOffOrUnsupported(t *testing.T) {
	c := newTestCore(&fakeDrafter{})
	c.stream.interval = -1
	if s := c.newStreamer(t.Context(), incoming{chatID: 1}); s != nil {
		t.Error("newStreamer with a negative interval: want nil (off)")
	}
	con := NewConsole(echoAgent(), &strings.Builder{}, ConsoleOptions{UserID: 1})
	if s := con.core.newStreamer(t.Context(), incoming{chatID: 1}); s != nil {
		t.Error("newStreamer on the console: want nil")
	}
	var s *streamer // nil-safe: ask uses it without checks
	s.stop()
	s.discard(t.Context())
	if id := s.draftID(); id != 0 {
		t.Errorf("nil streamer draftID = %d", id)
	}
}

func TestClipDraft(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"cyrillic", strings.Repeat("я", 5000)},
		{"emoji", strings.Repeat("😀", 3000)}, // two UTF-16 units each: never split a pair
		{"spaces at the cut", strings.Repeat("a", 4090) + strings.Repeat(" ", 10) + "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := clipDraft(tt.in)
			if n := tgmd.UTF16Len(got); n > maxMessageUnits || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
				t.Errorf("clipDraft: %d UTF-16 units, valid %v, ends with … %v", n, utf8.ValidString(got), strings.HasSuffix(got, "…"))
			}
			if !strings.HasPrefix(tt.in, strings.TrimSuffix(got, "…")) {
				t.Error("clipDraft changed the text before the cut")
			}
		})
	}
	if got := clipDraft("  коротко \n"); got != "коротко" {
		t.Errorf("clipDraft(short) = %q, want it trimmed", got)
	}
}

// fakeDrafter is a front end that records drafts and edits (edit attempts, failed ones too).
type fakeDrafter struct {
	gate       chan struct{}     // when set, draft waits for it to close
	redraftErr func(n int) error // the error of the n-th edit attempt (from 1)

	mu      sync.Mutex
	drafts  []string
	edits   []string
	replyTo int
}

func (d *fakeDrafter) draft(_ context.Context, _ int64, replyTo int, text string) (int, error) {
	if d.gate != nil {
		<-d.gate
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.drafts, d.replyTo = append(d.drafts, text), replyTo
	return len(d.drafts), nil
}

func (d *fakeDrafter) redraft(_ context.Context, _ int64, _ int, text string) error {
	d.mu.Lock()
	d.edits = append(d.edits, text)
	n := len(d.edits)
	d.mu.Unlock()
	if d.redraftErr != nil {
		return d.redraftErr(n)
	}
	return nil
}

func (d *fakeDrafter) sendOver(context.Context, outgoing, int) error { return nil }
func (d *fakeDrafter) discard(context.Context, int64, int)           {}
func (d *fakeDrafter) send(context.Context, outgoing) error          { return nil }
func (d *fakeDrafter) typing(context.Context, int64)                 {}

func (d *fakeDrafter) check(t *testing.T, when string, drafts, edits []string) {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if diff := cmp.Diff(drafts, d.drafts); diff != "" {
		t.Errorf("%s: drafts (-want +got):\n%s", when, diff)
	}
	if diff := cmp.Diff(edits, d.edits); diff != "" {
		t.Errorf("%s: edits (-want +got):\n%s", when, diff)
	}
}

func newTestCore(out sender) *core {
	return newCore(echoAgent(), out, slog.New(slog.DiscardHandler), NewMetrics(nil), coreOptions{})
}

// startStreamBot is startBot with metrics of its own and the streaming pace set before the bot
// runs.
func startStreamBot(t *testing.T, f *fakes.BotAPI, a Answerer, cfg streamConfig) *Bot {
	t.Helper()
	return startBot(t, f, a, Options{Metrics: NewMetrics(prometheus.NewRegistry())}, func(b *Bot) { b.core.stream = cfg })
}

// waitUntil polls cond for up to 20 s. It may run on any goroutine: it reports a timeout
// with t.Errorf and returns false.
func waitUntil(t *testing.T, what string, cond func() bool) bool {
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Errorf("timed out waiting until %s", what)
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// waitNoStreamers checks that no streamer goroutine outlives its answer. ask waits for the
// streamer before replying, so any one left is a leak; the poll only covers the instant
// between a goroutine closing done and exiting.
func waitNoStreamers(t *testing.T) {
	t.Helper()
	buf := make([]byte, 1<<20)
	ok := waitUntil(t, "no streamer goroutine is left", func() bool {
		n := runtime.Stack(buf, true)
		return !strings.Contains(string(buf[:n]), "(*streamer).run")
	})
	if !ok {
		n := runtime.Stack(buf, true)
		t.Logf("goroutines:\n%s", buf[:n])
	}
}

// counterValue reads a counter the way Prometheus would scrape it.
func counterValue(t *testing.T, m *Metrics, name string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(m.streamEdits)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

func hasEntities(form string) bool { return form != "" && form != "null" && form != "[]" }
