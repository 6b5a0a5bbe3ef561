package bot

import (
	"context"
	"sync"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
)

// listingAgent answers with a list of companies (its dialog state lists them) and records the
// messages the bot reports them sent as, and the replies it is asked.
type listingAgent struct {
	fakeAgent
	mu         sync.Mutex
	remembered map[int]bool
	replyTo    []int
}

func (a *listingAgent) RememberAnswer(_ context.Context, _ api.Request, messageID int, ans api.Answer) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.remembered[messageID] = ans.State != nil && len(ans.State.Listed) == 2
	return nil
}

// A list of companies goes out and the bot reports its message to the agent (a reply to it
// continues that answer); a reply to the bot's message carries the message's id.
func TestListedAnswerRemembered(t *testing.T) {
	f := newFakeAPI(t)
	a := &listingAgent{remembered: map[int]bool{}}
	a.AnswerFunc = func(_ context.Context, r api.Request) (api.Answer, error) {
		a.mu.Lock()
		a.replyTo = append(a.replyTo, r.ReplyTo)
		a.mu.Unlock()
		st := &understand.State{Kind: understand.KindLedger, Recipe: recipe.Receivables,
			Listed: []recipe.Entity{{Ref: "r1", Name: "ООО «Альфа»"}, {Ref: "r2", Name: "ООО «Бета»"}}}
		if r.ReplyTo != 0 {
			st = nil // an answer that lists nobody is not remembered
		}
		return api.Answer{Scenario: api.OneC, Text: "Нам должны: Альфа, Бета.", State: st}, nil
	}
	b := startBot(t, f, a, Options{})
	f.Push(privateText(60, "кто нам должен"))
	f.WaitSent(t, 1)
	settle(t, f, b)
	// The fake numbers the messages of each chat from 1001 on: the list is message 1001.
	reply := privateText(60, "карточка 2")
	reply.Message.ReplyToMessage = &tgbotapi.Message{MessageID: 1001, From: &tgbotapi.User{ID: 777, IsBot: true}, Chat: reply.Message.Chat}
	f.Push(reply)
	f.WaitSent(t, 2)
	settle(t, f, b)
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.remembered) != 1 || !a.remembered[1001] {
		t.Errorf("remembered %v; want the list's message 1001 with its companies", a.remembered)
	}
	if len(a.replyTo) != 2 || a.replyTo[0] != 0 || a.replyTo[1] != 1001 {
		t.Errorf("the agent was asked with replies to %v; want 0, then 1001", a.replyTo)
	}
}
