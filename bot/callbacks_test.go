package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/finbot/finbot/agent/api"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// press is a user pressing a button with data under the bot's message messageID in chat
// (a group when chat is negative).
func press(chat, user int64, messageID int, data string) tgbotapi.Update {
	typ := "private"
	if chat < 0 {
		typ = "supergroup"
	}
	return tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{
		ID: fmt.Sprintf("cb-%d-%d-%s", chat, user, data), From: &tgbotapi.User{ID: user, FirstName: "U"}, Data: data,
		Message: &tgbotapi.Message{MessageID: messageID, From: &tgbotapi.User{ID: 777, IsBot: true}, Chat: &tgbotapi.Chat{ID: chat, Type: typ}},
	}}
}

// TestCallbackFloodDoesNotStallOtherChats: one user pressing a button 150 times while Telegram
// is slow to take answerCallbackQuery (here: it does not answer at all until released) holds up
// nobody else. Another user's message is fetched and answered while not one press has been
// acknowledged: the acknowledgements run in the presser's own conversation, not on the poll
// loop. The presses are bounded by the conversation's queue (the rest dropped), and those over
// the flood limit cost an acknowledgement with a toast, not a message. On the fake clock.
func TestCallbackFloodDoesNotStallOtherChats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		release := make(chan struct{})
		f.SetFault(func(method string, _ map[string]string) (int, string, bool) {
			if method == "answerCallbackQuery" {
				<-release
			}
			return 0, "", false
		})
		a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
			return api.Answer{Text: "эхо: " + r.Text}, nil
		}}
		b := startBot(t, f, a, Options{UserRatePerMin: 20, UserRateBurst: 5}) // the production defaults
		const presses = 150
		for range presses {
			f.Push(press(10, 10, 1001, "b:op:cb61f26ca4d1:20260331:34adc550-78a:"))
		}
		f.Push(privateText(20, "курс евро"))
		waitFor(t, "the other user's reply", func() bool { return len(sentTo(f, 20)) == 1 })
		if n := len(f.Calls("answerCallbackQuery")); n != 0 || b.disp.pending() == 0 {
			t.Fatalf("before the other user's reply: %d presses acknowledged, %d queued; want none acknowledged, the presses still queued", n, b.disp.pending())
		}

		close(release)
		settle(t, f, b)
		acks := f.Calls("answerCallbackQuery")
		toasts := 0
		for _, c := range acks {
			if c.Form["text"] == floodToast {
				toasts++
			}
		}
		if len(acks) != maxQueuedPerChat || toasts != 1 {
			t.Errorf("%d presses acknowledged, %d with the flood toast; want the %d the queue held, 1 toast", len(acks), toasts, maxQueuedPerChat)
		}
		if got := outcomes(b.core.metrics, "overflow"); got != presses-maxQueuedPerChat {
			t.Errorf("%v presses dropped, want %d", got, presses-maxQueuedPerChat)
		}
		// The burst of 5 is answered; the rest get no message (no «Слишком много» either).
		if got := sentTo(f, 10); len(got) != 5 {
			t.Errorf("the presser got %d messages, want 5: %q", len(got), got)
		}
	})
}

// TestCallbackWaitsItsTurn: a press is answered in its conversation's order, after the message
// before it; and acknowledged before its own answer is worked on.
func TestCallbackWaitsItsTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		release := make(chan struct{})
		a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
			if r.Text == "долгий вопрос" {
				<-release
			}
			return api.Answer{Text: "эхо: " + r.Text}, nil
		}}
		b := startBot(t, f, a, Options{})
		f.Push(privateText(10, "долгий вопрос"))
		f.Push(press(10, 10, 1001, "q:Ключевая ставка"))
		waitFor(t, "the question and the press fetched", func() bool { return b.disp.pending() == 2 })
		if n := f.Count("answerCallbackQuery"); n != 0 {
			t.Errorf("the press was acknowledged %d times before its turn", n)
		}
		close(release)
		settle(t, f, b)
		if got := sentTo(f, 10); strings.Join(got, "|") != "эхо: долгий вопрос|эхо: Ключевая ставка" {
			t.Errorf("replies %q, want the question's then the press's", got)
		}
		if n := f.Count("answerCallbackQuery"); n != 1 {
			t.Errorf("answerCallbackQuery called %d times, want 1", n)
		}
	})
}

// TestButtonCommand: the button data the agent reads back goes to its hidden commands, verbatim:
// documents to "doc"; drilldowns ("b:"), those of before ("a:", which the agent refuses as stale
// rather than let them become a question), exports, choices and kept questions to "drill".
func TestButtonCommand(t *testing.T) {
	for data, want := range map[string]string{
		"d:s:abcdefghijklmnop":                     "doc",
		"b:op:cb61f26ca4d1:20260331:34adc550-78a:": "drill",
		"b:ac:p20260101:20260331:8188789b-128:62":  "drill",
		"a:4:cb61f26ca4d1:20260331:0:":             "drill",
		"x:abcdefgh2345":                           "drill",
		"c:abcdefgh2345:1":                         "drill",
		"t:abcdefgh2345":                           "drill",
		"k:abcdefgh2345:1":                         "page",
		"base:north":                               "base",
		"q:Ключевая ставка":                        "",
		"кто нам должен":                           "",
		"B:op:cb61f26ca4d1:20260331:34adc550-78a:": "",
		"": "",
	} {
		if got := buttonCommand(data); got != want {
			t.Errorf("buttonCommand(%q) = %q, want %q", data, got, want)
		}
	}
}
