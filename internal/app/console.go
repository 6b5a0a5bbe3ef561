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
	return a.console(out, 1, 0).Run(ctx, in)
}

// Ask answers one message from userID in chatID (0: the user's private chat; negative: a
// group) and writes the replies to out as the user would read them. It returns the answer
// (nil for what the front end answers itself, such as /help) and the replies.
func (a *App) Ask(ctx context.Context, out io.Writer, userID, chatID int64, text string) (*api.Answer, []string) {
	return a.console(out, userID, chatID).Ask(ctx, text)
}

// AskFile sends the file at path from userID in chatID as a Telegram message carries one,
// with caption under it (bot.Console.SendFile: a document stored and its caption answered, an
// audio file transcribed and answered), and writes the replies to out.
func (a *App) AskFile(ctx context.Context, out io.Writer, userID, chatID int64, path, caption string) (bot.Sent, error) {
	return a.console(out, userID, chatID).SendFile(ctx, path, caption)
}

// console is a console session as userID in chatID, writing to out.
func (a *App) console(out io.Writer, userID, chatID int64) *bot.Console {
	o := bot.ConsoleOptions{UserID: userID, ChatID: chatID, Group: chatID < 0, Logger: a.log, Status: a.status}
	if a.speech != nil {
		o.Transcriber = a.speech // a nil *llm.Transcriber in the interface would not read as "none"
	}
	return bot.NewConsole(a.answerer, out, o)
}
