package app

import (
	"context"
	"io"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/bot"
)

// Chat is the console front end: it reads questions from in, a line each, and writes the
// answers to out as user 1 in their private chat, until in ends or ctx is done.
func (a *App) Chat(ctx context.Context, in io.Reader, out io.Writer) error {
	c := bot.NewConsole(a.answerer, out, bot.ConsoleOptions{UserID: 1, Logger: a.log, Status: a.status})
	return c.Run(ctx, in)
}

// Ask answers one message from userID in chatID (0: the user's private chat; negative: a
// group) and writes the replies to out as the user would read them. It returns the answer
// (nil for what the front end answers itself, such as /help) and the replies.
func (a *App) Ask(ctx context.Context, out io.Writer, userID, chatID int64, text string) (*api.Answer, []string) {
	c := bot.NewConsole(a.answerer, out, bot.ConsoleOptions{UserID: userID, ChatID: chatID, Group: chatID < 0, Logger: a.log, Status: a.status})
	return c.Ask(ctx, text)
}
