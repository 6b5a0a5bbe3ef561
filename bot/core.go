package bot

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/bot/tgmd"
)

// Answerer is the agent as the bot uses it. *agent.Agent satisfies it.
type Answerer interface {
	Answer(ctx context.Context, req api.Request) (api.Answer, error)
	Reset(ctx context.Context, req api.Request) error
	Inline(ctx context.Context, query string) ([]api.InlineResult, error)
	Upload(ctx context.Context, req api.Request, f api.File) (api.Answer, error)
	RememberReceipt(ctx context.Context, req api.Request, messageID int, docID string) error
}

// answerRememberer is an Answerer that continues a reply to one of its answers (*agent.Agent):
// the front end reports the message an answer listing companies went out as.
type answerRememberer interface {
	RememberAnswer(ctx context.Context, req api.Request, messageID int, ans api.Answer) error
}

// fetcher downloads files users send. The Telegram front end implements it.
type fetcher interface {
	fetch(ctx context.Context, fileID string, limit int64) ([]byte, error)
}

// outgoing is one reply, ready for any front end.
type outgoing struct {
	chatID  int64
	replyTo int // message to reply to in groups; 0 = none
	parts   []tgmd.Message
	buttons []api.Button
	// answer is the agent's answer behind the reply, when there is one (for `ask --json`).
	answer *api.Answer
	// photo is a chart sent after the text.
	photo *photo
	// documents are files sent after the text (an Excel export, debug.json).
	documents []document
	// sent, when set, learns the id of the last text message delivered (an upload receipt).
	sent func(messageID int)
	// ephemeral, when set, delivers the reply to one member of a group only (ephemeral.go); it
	// goes to the whole chat where Telegram refuses that.
	ephemeral *ephemeral
	// rich, when set, is the reply's one part as a rich message, for its table (rich.go); the
	// part is what goes where Telegram refuses it.
	rich *tgmd.RichMessage
	// unasked: the reply is a delivery nobody asked for just now (a digest, Bot.Deliver): a chat
	// that blocked the bot is reported (api.ErrBlocked) rather than ignored.
	unasked bool
}

// document is a file with its caption.
type document struct {
	name    string
	caption tgmd.Message
	data    []byte
}

// photo is a PNG with its caption.
type photo struct {
	png     []byte
	caption tgmd.Message
}

// sender delivers replies. The Telegram and console front ends implement it.
type sender interface {
	send(ctx context.Context, out outgoing) error
	typing(ctx context.Context, chatID int64)
}

// core handles messages the same way for every front end: access, flood control, commands,
// questions, formatting and the one error-to-text mapping.
type core struct {
	answerer Answerer
	redact   func(string) string // every configured secret out of what is sent
	out      sender
	files    fetcher // nil: this front end cannot receive files
	log      *slog.Logger
	metrics  *Metrics
	access   Access
	flood    *floodGuard
	users    *userSlots
	commands []command
	// status reports the health of dependencies for /status.
	status         func(ctx context.Context) []string
	typingInterval time.Duration
	answerTimeout  time.Duration
	started        time.Time
	stream         streamConfig
	natives        nativeDrafts // what the Bot API said to sendMessageDraft (native.go)

	debugMu    sync.Mutex
	debugChats map[int64]bool // chats where admins turned /debug on

	// transcriber turns voice messages into questions; nil: they are refused with a message.
	transcriber Transcriber
	voiceMax    time.Duration // the longest recording transcribed
}

type coreOptions struct {
	files          fetcher
	transcriber    Transcriber
	voiceMax       time.Duration
	access         Access
	perMin, burst  int
	answerTimeout  time.Duration
	typingInterval time.Duration
	status         func(ctx context.Context) []string
	redact         func(string) string
}

func newCore(a Answerer, out sender, log *slog.Logger, m *Metrics, o coreOptions) *core {
	if o.answerTimeout <= 0 {
		o.answerTimeout = 90 * time.Second
	}
	if o.typingInterval <= 0 {
		o.typingInterval = 4 * time.Second
	}
	if o.redact == nil {
		o.redact = func(s string) string { return s }
	}
	if o.voiceMax <= 0 {
		o.voiceMax = DefaultVoiceMaxDuration
	}
	return &core{redact: o.redact, transcriber: o.transcriber, voiceMax: o.voiceMax,
		answerer: a, out: out, files: o.files, log: log, metrics: m, access: o.access,
		flood: newFloodGuard(o.perMin, o.burst), users: newUserSlots(), commands: commands(),
		status: o.status, typingInterval: o.typingInterval, answerTimeout: o.answerTimeout, started: time.Now(),
		debugChats: map[int64]bool{}, stream: defaultStreamConfig(),
	}
}

func (c *core) debugOn(chatID int64) bool {
	c.debugMu.Lock()
	defer c.debugMu.Unlock()
	return c.debugChats[chatID]
}

// reply sends a short service text (Markdown).
func (c *core) reply(ctx context.Context, in incoming, markdown string) {
	out := outgoing{chatID: in.chatID, parts: tgmd.Split(tgmd.Convert(c.redact(markdown)), maxMessageUnits), ephemeral: toPresser(in)}
	if in.group {
		out.replyTo = in.messageID
	}
	if err := c.send(ctx, out); err != nil {
		c.log.Log(ctx, logLevel(err), "send reply", "chat_id", in.chatID, "err", err)
	}
}

func (c *core) send(ctx context.Context, out outgoing) error {
	if err := c.out.send(ctx, out); err != nil {
		c.metrics.errors.WithLabelValues("send").Inc()
		return fmt.Errorf("send: %w", err)
	}
	c.metrics.replies.Add(float64(len(out.parts)))
	return nil
}

// clean removes every configured secret from what an answer shows: its text, footnotes,
// button labels and captions (button data is ours and carries none).
func (c *core) clean(ans *api.Answer) {
	ans.Text = c.redact(ans.Text)
	for i := range ans.Sources {
		ans.Sources[i].Title, ans.Sources[i].URL = c.redact(ans.Sources[i].Title), c.redact(ans.Sources[i].URL)
	}
	for i := range ans.Buttons {
		ans.Buttons[i].Text = c.redact(ans.Buttons[i].Text)
	}
	if ans.Chart != nil {
		ans.Chart.Caption = c.redact(ans.Chart.Caption)
	}
	if ans.Document != nil {
		ans.Document.Caption, ans.Document.Name = c.redact(ans.Document.Caption), c.redact(ans.Document.Name)
	}
	for i := range ans.Attachments {
		ans.Attachments[i].Caption, ans.Attachments[i].Name = c.redact(ans.Attachments[i].Caption), c.redact(ans.Attachments[i].Name)
	}
}
