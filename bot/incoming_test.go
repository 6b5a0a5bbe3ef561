package bot

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/finbot/finbot/agent/api"
)

func u16(s string) int { return len(utf16.Encode([]rune(s))) }

func TestParseUpdate(t *testing.T) {
	me := identity{id: 777, username: "finbot_test_bot"}
	known := func(name string) bool { return name == "help" || name == "reset" || name == "rate" }
	user := &tgbotapi.User{ID: 5, FirstName: "Ольга"}
	group := &tgbotapi.Chat{ID: -100, Type: "supergroup", Title: "Бухгалтерия"}
	private := &tgbotapi.Chat{ID: 5, Type: "private"}
	msg := func(chat *tgbotapi.Chat, text string, ents ...tgbotapi.MessageEntity) tgbotapi.Update {
		return tgbotapi.Update{UpdateID: 1, Message: &tgbotapi.Message{MessageID: 9, From: user, Chat: chat, Text: text, Entities: ents}}
	}
	mention := "@finbot_test_bot"
	prefix := "📈 Коллеги, " // an emoji (2 UTF-16 units) and Cyrillic before the mention
	tests := []struct {
		name   string
		update tgbotapi.Update
		want   *incoming // nil: ignored
	}{
		{"private text", msg(private, "Курс евро"), &incoming{text: "Курс евро"}},
		{"private command", msg(private, "/reset", tgbotapi.MessageEntity{Type: "bot_command", Length: 6}), &incoming{command: "reset"}},
		{"command with args", msg(private, "/help сейчас", tgbotapi.MessageEntity{Type: "bot_command", Length: 5}), &incoming{command: "help", text: "сейчас"}},
		{"private command for another bot", msg(private, "/start@OtherBot", tgbotapi.MessageEntity{Type: "bot_command", Length: 15}), nil},
		{"group chatter", msg(group, "Кто брал степлер?"), nil},
		{"group mention after emoji and Cyrillic", msg(group, prefix+mention+", курс евро",
			tgbotapi.MessageEntity{Type: "mention", Offset: u16(prefix), Length: u16(mention)}),
			&incoming{group: true, text: "📈 Коллеги, курс евро"}},
		{"group mention in the middle", msg(group, "Скажи "+mention+": кто нам должен?",
			tgbotapi.MessageEntity{Type: "mention", Offset: u16("Скажи "), Length: u16(mention)}),
			&incoming{group: true, text: "Скажи кто нам должен?"}},
		{"group mention of someone else", msg(group, "@ivan курс евро", tgbotapi.MessageEntity{Type: "mention", Offset: 0, Length: 5}), nil},
		{"group text_mention", msg(group, "Финбот, привет", tgbotapi.MessageEntity{Type: "text_mention", Offset: 0, Length: 6, User: &tgbotapi.User{ID: 777}}),
			&incoming{group: true, text: "привет"}},
		{"group /cmd@thisbot", msg(group, "/help@finbot_test_bot", tgbotapi.MessageEntity{Type: "bot_command", Length: u16("/help@finbot_test_bot")}),
			&incoming{group: true, command: "help"}},
		{"group /cmd@otherbot", msg(group, "/help@OtherBot", tgbotapi.MessageEntity{Type: "bot_command", Length: 14}), nil},
		{"group bare known command", msg(group, "/help", tgbotapi.MessageEntity{Type: "bot_command", Length: 5}), &incoming{group: true, command: "help"}},
		{"group bare unknown command", msg(group, "/roll", tgbotapi.MessageEntity{Type: "bot_command", Length: 5}), nil},
		{"message from a bot", tgbotapi.Update{Message: &tgbotapi.Message{From: &tgbotapi.User{ID: 8, IsBot: true}, Chat: private, Text: "x"}}, nil},
		{"channel post", tgbotapi.Update{ChannelPost: &tgbotapi.Message{Chat: &tgbotapi.Chat{ID: -5, Type: "channel"}, Text: "x"}}, nil},
		{"edited message", tgbotapi.Update{EditedMessage: &tgbotapi.Message{From: user, Chat: private, Text: "x"}}, nil},
		{"sticker without text", msg(private, ""), nil},
		// A zero-width space inside the command cut Telegram's entity at «/de» (issue #19).
		{"command with an invisible character", msg(private, "/de\u200bbts 31.03", tgbotapi.MessageEntity{Type: "bot_command", Length: 3}),
			&incoming{command: "debts", text: "31.03"}},
		{"group command with a soft hyphen", msg(group, "/he\u00adlp", tgbotapi.MessageEntity{Type: "bot_command", Length: 3}),
			&incoming{group: true, command: "help"}},
		// A BOM, a fullwidth slash or a NUL (issue #26): the command as its sender meant it, or
		// plain text; never a NUL further.
		{"fullwidth slash", msg(private, "／rate USD"), &incoming{command: "rate", text: "USD"}},
		{"fullwidth slash and letters", msg(private, "／ｒａｔｅ　USD"), &incoming{command: "rate", text: "USD"}},
		{"fullwidth slash in a group", msg(group, "／rate@finbot_test_bot EUR"), &incoming{group: true, command: "rate", text: "EUR"}},
		{"fullwidth slash, another bot's command", msg(group, "／rate@OtherBot"), nil},
		{"fullwidth slash, no command of ours", msg(private, "／roll 2d6"), &incoming{text: "／roll 2d6"}},
		{"fullwidth slash, no command of ours in a group", msg(group, "／roll 2d6"), nil},
		{"BOM before the slash, marked after it", msg(private, "\ufeff/rate USD", tgbotapi.MessageEntity{Type: "bot_command", Offset: 1, Length: 5}),
			&incoming{command: "rate", text: "USD"}},
		{"BOM before the slash, unmarked", msg(group, "\ufeff/help"), &incoming{group: true, command: "help"}},
		{"zero-width space and BOM before the slash", msg(private, "\u200b\ufeff/reset"), &incoming{command: "reset"}},
		{"NUL inside the command", msg(private, "/ra\x00te USD", tgbotapi.MessageEntity{Type: "bot_command", Length: 3}),
			&incoming{command: "rate", text: "USD"}},
		{"NUL inside an unmarked command", msg(private, "/ra\x00te USD"), &incoming{text: "/rate USD"}},
		{"NUL in the arguments", msg(private, "/rate U\x00SD\x07", tgbotapi.MessageEntity{Type: "bot_command", Length: 5}),
			&incoming{command: "rate", text: "USD"}},
		{"NUL in a question", msg(private, "курс\x00 евро\x00"), &incoming{text: "курс евро"}},
		{"NUL before a mention", msg(group, "\x00"+mention+" курс евро", tgbotapi.MessageEntity{Type: "mention", Offset: 1, Length: u16(mention)}),
			&incoming{group: true, text: "курс евро"}},
		{"only control characters", msg(private, "\x00\x1b"), &incoming{}},
		{"line breaks and tabs stay", msg(private, "/rate USD\n\tEUR", tgbotapi.MessageEntity{Type: "bot_command", Length: 5}),
			&incoming{command: "rate", text: "USD\n\tEUR"}},
	}
	reply := msg(group, "а в долларах?")
	reply.Message.ReplyToMessage = &tgbotapi.Message{From: &tgbotapi.User{ID: 777, IsBot: true}}
	tests = append(tests, struct {
		name   string
		update tgbotapi.Update
		want   *incoming
	}{"group reply to the bot", reply, &incoming{group: true, text: "а в долларах?"}})
	doc := msg(private, "")
	doc.Message.Document = &tgbotapi.Document{FileID: "f1", FileName: "акт\x00\x1b.pdf"}
	doc.Message.Caption = "/rate\x00"
	tests = append(tests, struct {
		name   string
		update tgbotapi.Update
		want   *incoming
	}{"NUL in a file's name and caption", doc, &incoming{text: "/rate", file: &fileRef{id: "f1", name: "акт.pdf"}}})

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseUpdate(tt.update, me, known)
			if tt.want == nil {
				if ok {
					t.Errorf("parseUpdate accepted %+v, want it ignored", got)
				}
				return
			}
			if !ok {
				t.Fatal("parseUpdate ignored the update")
			}
			want := *tt.want
			want.updateID, want.messageID, want.userID = 1, 9, 5
			want.chatID = tt.update.Message.Chat.ID
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(incoming{}, fileRef{})); diff != "" {
				t.Errorf("parseUpdate (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUTF16Helpers(t *testing.T) {
	s := "💶 Счёт №62"
	if got := utf16Slice(s, 3, 4); got != "Счёт" {
		t.Errorf("utf16Slice = %q", got)
	}
	if got := utf16Cut(s, 0, 3); got != "Счёт №62" {
		t.Errorf("utf16Cut = %q", got)
	}
	if got := utf16Slice(s, 50, 10); got != "" {
		t.Errorf("out of range slice = %q", got)
	}
	if got := utf16Slice(s, -3, 2); got != "" {
		t.Errorf("negative offset slice = %q", got)
	}
}

func TestKeepTyping(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		sends, done := 0, make(chan struct{})
		go func() { keepTyping(ctx, 4*time.Second, func(context.Context) { sends++ }); close(done) }()
		time.Sleep(10 * time.Second)
		cancel()
		<-done
		if sends != 3 { // at 0s, 4s and 8s
			t.Errorf("keepTyping sent %d times in 10s, want 3", sends)
		}
	})
}

func TestSendLimitsPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newSendLimits()
		start := time.Now()
		for range 6 {
			if err := l.wait(t.Context(), 10); err != nil {
				t.Fatal(err)
			}
		}
		// Burst 2, then one a second: the 6th message goes out 4s after the first.
		if got := time.Since(start); got != 4*time.Second {
			t.Errorf("6 messages to one chat took %s, want 4s", got)
		}
		start = time.Now()
		for range 7 {
			if err := l.wait(t.Context(), -100); err != nil {
				t.Fatal(err)
			}
		}
		// Groups: one, then 20 in 61 s (one per 3.05 s; the second is the window's guard).
		if got, want := time.Since(start), 6*(61*time.Second/20); got < want-time.Millisecond || got > want+time.Millisecond {
			t.Errorf("7 messages to one group took %s, want %s", got, want)
		}
	})
}

// sendTimes runs n senders at once, each to chatOf(i), and returns when each was let through.
func sendTimes(t *testing.T, l *sendLimits, n int, chatOf func(i int) int64) []time.Time {
	t.Helper()
	var mu sync.Mutex
	var times []time.Time
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := l.wait(t.Context(), chatOf(i)); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			times = append(times, time.Now())
			mu.Unlock()
		})
	}
	wg.Wait()
	return times
}

// mostInWindow is the most times in any half-open window of length w.
func mostInWindow(times []time.Time, w time.Duration) int {
	slices.SortFunc(times, time.Time.Compare)
	best, i := 0, 0
	for j := range times {
		for times[j].Sub(times[i]) >= w {
			i++
		}
		best = max(best, j-i+1)
	}
	return best
}

func TestSendLimitsWindows(t *testing.T) {
	tests := []struct {
		name   string
		open   func(l *sendLimits) // widen the buckets: only the windows are left to hold
		n      int
		chatOf func(i int) int64
		window time.Duration
		max    int
	}{
		{"global, buckets as configured", func(*sendLimits) {}, 200, func(i int) int64 { return int64(i + 1) }, time.Second, 30},
		// A stalled process wakes every overdue sender at once: the buckets have already let
		// them all through. The window still holds the line.
		{"global, after a stall", func(l *sendLimits) { l.global.bucket.SetLimit(rate.Inf) }, 200,
			func(i int) int64 { return int64(i + 1) }, time.Second, 30},
		{"one group, buckets as configured", func(*sendLimits) {}, 45, func(int) int64 { return -100 }, time.Minute, 20},
		{"one group, after a stall", func(l *sendLimits) { l.group.Rate, l.group.Burst = rate.Inf, 100 }, 45,
			func(int) int64 { return -100 }, time.Minute, 20},
		{"one private chat, after a stall", func(l *sendLimits) { l.private.Rate, l.private.Burst = rate.Inf, 100 }, 10,
			func(int) int64 { return 7 }, time.Second, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l := newSendLimits()
				tt.open(l)
				times := sendTimes(t, l, tt.n, tt.chatOf)
				if len(times) != tt.n {
					t.Fatalf("%d of %d sends went out", len(times), tt.n)
				}
				// At most the limit, and not far below it: pacing must not waste the budget.
				if got := mostInWindow(times, tt.window); got > tt.max || got < tt.max-1 {
					t.Errorf("most sends in any %s = %d, want %d or %d", tt.window, got, tt.max-1, tt.max)
				}
			})
		})
	}
}

func TestSendLimitsIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newSendLimits()
		if !l.idle(5) {
			t.Fatal("a fresh bot is not idle")
		}
		for range 2 {
			if err := l.wait(t.Context(), 5); err != nil {
				t.Fatal(err)
			}
		}
		if l.idle(5) {
			t.Error("idle right after the chat's burst: a draft would wait")
		}
		if !l.idle(6) {
			t.Error("another chat is not idle")
		}
		sendTimes(t, l, 15, func(i int) int64 { return int64(100 + i) }) // half the global second is used
		if l.idle(6) {
			t.Error("idle while sends queue for the global budget")
		}
		time.Sleep(time.Second)
		if !l.idle(5) || !l.idle(6) {
			t.Error("not idle a second later")
		}
	})
}

func TestFloodGuard(t *testing.T) {
	g := newFloodGuard(60, 2) // one a second, burst 2
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var got []floodVerdict
	for range 5 {
		got = append(got, g.allow(1, now))
	}
	got = append(got, g.allow(2, now))                  // another user is unaffected
	got = append(got, g.allow(1, now.Add(time.Second))) // a token came back
	want := []floodVerdict{floodOK, floodOK, floodNotify, floodSilent, floodSilent, floodOK, floodOK}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
}

// The console reads a command as Telegram messages are read: after a BOM, with a fullwidth
// slash, without a NUL.
func TestConsoleReadsCommandsLikeTelegram(t *testing.T) {
	var got []api.Request
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		got = append(got, r)
		return api.Answer{Text: "ok"}, nil
	}}
	c := NewConsole(a, &strings.Builder{}, ConsoleOptions{UserID: 1})
	for _, tt := range []struct{ in, command, text string }{
		{"／rate USD", "rate", "USD"},
		{"\ufeff/rate EUR", "rate", "EUR"},
		{"/ra\x00te CNY", "rate", "CNY"},
		{"курс\x00 евро", "", "курс евро"},
	} {
		got = nil
		c.Ask(t.Context(), tt.in)
		if len(got) != 1 || got[0].Command != tt.command || got[0].Text != tt.text {
			t.Errorf("Ask(%q): the agent was asked %+v, want command %q with %q", tt.in, got, tt.command, tt.text)
		}
	}
}
