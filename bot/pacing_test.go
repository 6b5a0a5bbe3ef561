package bot

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/finbot/finbot/agent/api"
)

// slowChat makes one message a second the most a private chat may get, so that a second reply
// right after a first has to wait for the chat's send budget.
func slowChat(b *Bot) {
	b.limits.mu.Lock()
	defer b.limits.mu.Unlock()
	b.limits.private = SendLimit{Name: "slow", Window: time.Second, Max: 1, Rate: 1, Burst: 1}
}

// TestTypingStaysOnUntilDelivered: an answer that is ready but waits for Telegram's send
// budget keeps "typing…" on until it is sent, instead of leaving the user looking at nothing.
// The bot runs on synctest's fake clock (the fake Bot API in process): on a loaded machine the
// second question could otherwise reach the bot so late that its reply no longer waits.
func TestTypingStaysOnUntilDelivered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		b := startBot(t, f, echoAgent(), Options{TypingInterval: 100 * time.Millisecond})
		slowChat(b)
		f.Push(privateText(10, "первый"))
		f.WaitSent(t, 1)
		before := f.Count("sendChatAction")
		f.Push(privateText(10, "второй")) // its reply waits about a second for the chat's budget
		got := f.WaitSent(t, 2)
		if got[1].Text != "эхо: второй" {
			t.Fatalf("second reply = %q", got[1].Text)
		}
		// Every 100 ms while it waited; the answer itself took no time, so with the indicator
		// stopped when the answer was ready there would be one at most.
		if n := f.Count("sendChatAction") - before; n < 3 {
			t.Errorf("%d typing actions while the reply waited about a second, want at least 3", n)
		}
	})
}

// TestTypingStartsWithTheWork: "typing…" goes out the moment the answer starts being worked on,
// not after a delay (how long an answer will take is not known in advance), and before the
// reply. On the fake clock: the agent notes when it was asked, and no time passes until
// every goroutine waits, so "at once" is exact.
func TestTypingStartsWithTheWork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		asked := make(chan time.Time, 1)
		a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
			asked <- time.Now()
			time.Sleep(15 * time.Second) // a long answer (WaitSent waits 20 s at most)
			return api.Answer{Text: "эхо: " + r.Text}, nil
		}}
		startBot(t, f, a, Options{})
		f.Push(privateText(10, "вопрос"))
		f.WaitSent(t, 1)
		at := <-asked
		actions := f.Calls("sendChatAction")
		if len(actions) == 0 {
			t.Fatal("no typing action for a 15-second answer")
		}
		if first := actions[0].Arrived; first.After(at) {
			t.Errorf("the first typing action came %v after the work started, want at once", first.Sub(at))
		}
		// Every 4 s (the default interval) while the answer was written: at 0, 4, 8 and 12 s.
		if n := len(actions); n < 4 {
			t.Errorf("%d typing actions during a 15-second answer, want 4", n)
		}
	})
}

// TestNoDraftWhileSendsQueue: when the chat's send budget is spent, a streamed answer sends no
// draft (it would only wait, then cost an edit too); the final answer goes out as one message.
// On the fake clock: on a loaded machine the second answer could come after the budget was back.
func TestNoDraftWhileSendsQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
			if r.Text == "второй" && r.Progress != nil {
				r.Progress("Дебиторская задолженность на 31 марта составляет")
			}
			return api.Answer{Scenario: api.S2General, Text: "эхо: " + r.Text}, nil
		}}
		b := startStreamBot(t, f, a, streamConfig{interval: 0, groupInterval: 0, minChars: 20})
		slowChat(b)
		f.Push(privateText(10, "первый"))
		f.Push(privateText(10, "второй"))
		got := f.WaitSent(t, 2)
		settle(t, f, b)
		sent, edits := f.Sent(), f.Edits()
		if got[1].Text != "эхо: второй" || len(sent) != 2 || len(edits) != 0 {
			t.Errorf("sent %+v and %d edits, want the two answers as plain messages and no draft", sent, len(edits))
		}
	})
}

// TestTypingWithinItsBudget: fifty answers being prepared at once refresh "typing…" within the
// bot's budget for chat actions, not fifty times per interval. On the fake clock, "a second" is
// one: on a loaded machine a real second can stretch past what the bound allows.
func TestTypingWithinItsBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		release := make(chan struct{})
		slow := &fakeAgent{AnswerFunc: func(ctx context.Context, r api.Request) (api.Answer, error) {
			<-release
			return api.Answer{Text: "эхо: " + r.Text}, nil
		}}
		startBot(t, f, slow, Options{TypingInterval: 100 * time.Millisecond})
		const chats = 50
		for i := range chats {
			f.Push(privateText(int64(300+i), "вопрос"))
		}
		time.Sleep(time.Second)
		n := f.Count("sendChatAction")
		close(release)
		f.WaitSent(t, chats)
		// 50 chats × 10 refreshes a second unbounded; the budget lets through its burst and rate.
		if limit := 2*actionsPerSecond + 2; n > limit || n == 0 {
			t.Errorf("%d typing actions in about a second for %d chats, want 1 to %d", n, chats, limit)
		}
	})
}

// TestSendWaitsAbort: shutdown's last resort ends every wait for the send budget, even one
// whose context cannot be cancelled (a ready reply is sent with context.WithoutCancel).
func TestSendWaitsAbort(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newSendLimits()
		ctx := context.WithoutCancel(t.Context())
		if err := l.wait(ctx, -100); err != nil { // the group's one send for the next 3 s
			t.Fatal(err)
		}
		errc := make(chan error, 1)
		go func() { errc <- l.wait(ctx, -100) }()
		time.Sleep(time.Second)
		synctest.Wait()
		select {
		case err := <-errc:
			t.Fatalf("the second send to the group did not wait: %v", err)
		default:
		}
		start := time.Now()
		l.abort()
		if err := <-errc; err == nil {
			t.Error("an aborted wait reported success")
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("the aborted wait returned after %s, want at once", d)
		}
	})
}

// A group member's questions are a conversation of their own; what changes the group's shared
// documents stays in the group's one queue.
func TestConversationOf(t *testing.T) {
	file := &fileRef{id: "f", name: "dogovor.pdf"}
	tests := []struct {
		name string
		in   incoming
		want conversation
	}{
		{"private question", incoming{chatID: 10, userID: 10}, conversation{chatID: 10}},
		{"private upload", incoming{chatID: 10, userID: 10, file: file}, conversation{chatID: 10}},
		{"group question", incoming{chatID: -100, userID: 7, group: true}, conversation{-100, 7}},
		{"group command", incoming{chatID: -100, userID: 7, group: true, command: "rate"}, conversation{-100, 7}},
		{"group upload", incoming{chatID: -100, userID: 7, group: true, file: file}, conversation{chatID: -100}},
		{"group /docs", incoming{chatID: -100, userID: 7, group: true, command: "docs"}, conversation{chatID: -100}},
		{"group document button", incoming{chatID: -100, userID: 8, group: true, command: "doc"}, conversation{chatID: -100}},
	}
	for _, tt := range tests {
		if got := conversationOf(tt.in); got != tt.want {
			t.Errorf("%s: conversation %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
