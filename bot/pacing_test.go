package bot

import (
	"context"
	"testing"
	"time"

	"github.com/finbot/finbot/agent"
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
func TestTypingStaysOnUntilDelivered(t *testing.T) {
	f := newFakeAPI(t)
	b := startBot(t, f, echoAgent(), Options{TypingInterval: 100 * time.Millisecond})
	b.core.typingDelay = 0
	slowChat(b)
	f.push(privateText(10, "первый"))
	f.waitSent(1)
	before := f.count("sendChatAction")
	f.push(privateText(10, "второй")) // its reply waits about a second for the chat's budget
	got := f.waitSent(2)
	if got[1].Text != "эхо: второй" {
		t.Fatalf("second reply = %q", got[1].Text)
	}
	// Every 100 ms while it waited; the answer itself took no time, so with the indicator
	// stopped when the answer was ready there would be one at most.
	if n := f.count("sendChatAction") - before; n < 3 {
		t.Errorf("%d typing actions while the reply waited about a second, want at least 3", n)
	}
}

// TestNoTypingForFastAnswers: an answer out within the typing delay costs no sendChatAction.
func TestNoTypingForFastAnswers(t *testing.T) {
	f := newFakeAPI(t)
	b := startBot(t, f, echoAgent(), Options{})
	f.push(privateText(10, "вопрос"))
	f.waitSent(1)
	f.settle(b)
	if n := f.count("sendChatAction"); n != 0 {
		t.Errorf("%d typing actions for an instant answer, want 0", n)
	}
}

// TestNoDraftWhileSendsQueue: when the chat's send budget is spent, a streamed answer sends no
// draft (it would only wait, then cost an edit too); the final answer goes out as one message.
func TestNoDraftWhileSendsQueue(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r agent.Request) (agent.Answer, error) {
		if r.Text == "второй" && r.Progress != nil {
			r.Progress("Дебиторская задолженность на 31 марта составляет")
		}
		return agent.Answer{Scenario: agent.S2General, Text: "эхо: " + r.Text}, nil
	}}
	b := startStreamBot(t, f, a, streamConfig{interval: 0, groupInterval: 0, minChars: 20})
	slowChat(b)
	f.push(privateText(10, "первый"))
	f.push(privateText(10, "второй"))
	got := f.waitSent(2)
	f.settle(b)
	snap := f.snapshot()
	if got[1].Text != "эхо: второй" || len(snap.sent) != 2 || len(snap.edits) != 0 {
		t.Errorf("sent %+v and %d edits, want the two answers as plain messages and no draft", snap.sent, len(snap.edits))
	}
}

// TestTypingWithinItsBudget: fifty answers being prepared at once refresh "typing…" within the
// bot's budget for chat actions, not fifty times per interval.
func TestTypingWithinItsBudget(t *testing.T) {
	f := newFakeAPI(t)
	release := make(chan struct{})
	slow := &fakeAgent{AnswerFunc: func(ctx context.Context, r agent.Request) (agent.Answer, error) {
		<-release
		return agent.Answer{Text: "эхо: " + r.Text}, nil
	}}
	b := startBot(t, f, slow, Options{TypingInterval: 100 * time.Millisecond})
	b.core.typingDelay = 0
	const chats = 50
	for i := range chats {
		f.push(privateText(int64(300+i), "вопрос"))
	}
	time.Sleep(time.Second)
	n := f.count("sendChatAction")
	close(release)
	f.waitSent(chats)
	// 50 chats × 10 refreshes a second unbounded; the budget lets through its burst and rate.
	if limit := 2*actionsPerSecond + 2; n > limit || n == 0 {
		t.Errorf("%d typing actions in about a second for %d chats, want 1 to %d", n, chats, limit)
	}
}
