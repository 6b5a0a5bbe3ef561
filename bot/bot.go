// Package bot is finbot's front end: Telegram (long polling or webhook) and the console. It
// turns updates into agent requests, keeps per-chat order and per-user limits, formats answers
// for Telegram, and is the one place where errors become user text.
package bot

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Options configure the Telegram bot.
type Options struct {
	Token      string
	APIURL     string       // Bot API base; https://api.telegram.org when empty
	HTTPClient *http.Client // optional

	PollTimeout time.Duration // long-poll timeout (default 30s)
	// PollIdle is the pause after an empty getUpdates answer that came back at once (a server
	// that ignores the long-poll timeout, such as an emulator); default 1s.
	PollIdle time.Duration

	WebhookURL    string // set = webhook mode
	WebhookListen string // address of the webhook server (default :8443)
	WebhookSecret string // expected X-Telegram-Bot-Api-Secret-Token
	// WebhookTimeouts bound every connection to the webhook server; zero fields take the
	// defaults (ServerTimeouts).
	WebhookTimeouts ServerTimeouts

	Access         Access
	UserRatePerMin int // 0 disables the flood guard
	UserRateBurst  int

	AnswerTimeout   time.Duration // ceiling per answer (default 90s)
	ShutdownTimeout time.Duration // how long Run waits for answers in flight (default 30s)
	TypingInterval  time.Duration // default 4s
	StreamMode      StreamMode    // how answers show while written; "" = StreamAuto

	Dedupe Deduper // nil: no de-duplication
	// ClaimLease is how long this instance's claim on an update holds unless renewed: claims
	// are renewed every third of it while their answers run, so it bounds how long an update
	// of an instance that died waits to be taken over (default 30s).
	ClaimLease time.Duration
	// Inbox keeps webhook updates from the 200 until they are answered (webhook mode with a
	// Dedupe only); nil: an instance that dies loses the updates it acknowledged.
	Inbox Inbox
	// InboxSweep is how often the inbox is swept for updates whose claims lapsed, and how old
	// an entry must be to be looked at (default ClaimLease/3).
	InboxSweep time.Duration

	// Keyboards keeps the pages of answers' keyboards longer than three rows («Ещё ▸»); nil keeps
	// them in process, for this instance only and until it stops.
	Keyboards KeyboardStore

	// Transcriber turns voice messages and audio files into questions (voice.go); nil refuses
	// them with a message saying no speech-to-text service is configured.
	Transcriber Transcriber
	// VoiceMaxDuration is the longest recording transcribed (default DefaultVoiceMaxDuration).
	VoiceMaxDuration time.Duration

	Metrics *Metrics
	Logger  *slog.Logger
	// Redact removes every configured secret from what the bot sends (answers, drafts, service
	// replies, debug files); nil sends text as it is.
	Redact func(string) string
	// Status adds lines to /status (dependency health); optional.
	Status func(ctx context.Context) []string
}

// Bot is the Telegram front end.
type Bot struct {
	tg     *telegram
	core   *core
	disp   *dispatcher
	limits *sendLimits
	opts   Options
	log    *slog.Logger
	me     identity
	// side tracks goroutines outside the dispatcher (/cancel replies, inline answers, updates
	// waiting for another instance's claim).
	side sync.WaitGroup
	// polled is the offset of the latest getUpdates sent: Telegram counts every update below it
	// as delivered and will not deliver it again.
	polled atomic.Int64
	// dedupeDown is when (Unix ns) the bot may try the deduper again after it failed.
	dedupeDown atomic.Int64
	// held are the claims this instance holds or is taking, renewed by keepClaims.
	held heldClaims
	// noStyles: the Bot API refused a keyboard with button styles; keyboards go without them.
	noStyles atomic.Bool
	// noRich: the Bot API refused rich messages; answers with tables go as text (rich.go).
	noRich atomic.Bool
}

// New connects to the Bot API (getMe) and prepares the bot; Run starts it.
func New(ctx context.Context, a Answerer, o Options) (*Bot, error) {
	if o.PollTimeout <= 0 {
		o.PollTimeout = 30 * time.Second
	}
	if o.PollIdle <= 0 {
		o.PollIdle = time.Second
	}
	if o.WebhookListen == "" {
		o.WebhookListen = ":8443"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics(nil)
	}
	if o.Keyboards == nil {
		o.Keyboards = newMemoryKeyboards(keyboardsKept, keyboardsTTL)
	}
	client := o.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: o.PollTimeout + 15*time.Second}
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tg, err := newTelegram(cctx, o.Token, o.APIURL, client)
	if err != nil {
		return nil, err
	}
	b := &Bot{tg: tg, opts: o, log: o.Logger, limits: newSendLimits()}
	b.me = identity{id: tg.self().ID, username: tg.self().UserName}
	b.core = newCore(a, b, o.Logger, o.Metrics, coreOptions{
		files: b, transcriber: o.Transcriber, voiceMax: o.VoiceMaxDuration,
		access: o.Access, perMin: o.UserRatePerMin, burst: o.UserRateBurst,
		answerTimeout: o.AnswerTimeout, typingInterval: o.TypingInterval, status: o.Status, redact: o.Redact,
	})
	b.core.stream = streamConfigFor(o.StreamMode)
	if b.opts.ClaimLease <= 0 {
		b.opts.ClaimLease = 30 * time.Second
	}
	if b.opts.InboxSweep <= 0 {
		b.opts.InboxSweep = b.opts.ClaimLease / 3
	}
	if b.opts.WebhookURL == "" || b.opts.Dedupe == nil {
		b.opts.Inbox = nil // polled updates come again by themselves; the sweeper claims
	}
	b.disp = newDispatcher(b.handle)
	return b, nil
}

// Username returns the bot's @username (without @).
func (b *Bot) Username() string { return b.me.username }

// Run serves updates until ctx is done, then stops taking updates and waits up to
// ShutdownTimeout for answers in flight before cancelling them. The update of a cancelled
// answer is left to the next instance when Telegram will deliver it again; otherwise its user
// is told to ask again.
func (b *Bot) Run(ctx context.Context) error {
	b.setCommands(ctx)
	// Answers outlive ctx (SIGTERM) but not the shutdown deadline.
	work, stopWork := context.WithCancelCause(context.WithoutCancel(ctx))
	defer stopWork(errShutdown)

	// The claim keeper renews claims until the last answer is settled; the inbox sweeper stops
	// with intake.
	var loops sync.WaitGroup
	keep, stopKeep := context.WithCancel(context.WithoutCancel(ctx))
	defer func() { stopKeep(); loops.Wait() }()
	if b.opts.Dedupe != nil {
		loops.Go(func() { b.keepClaims(keep) })
	}
	if b.opts.Inbox != nil {
		loops.Go(func() { b.sweepInbox(ctx, work) })
	}
	var err error
	if b.opts.WebhookURL != "" {
		err = b.serveWebhook(ctx, work)
	} else {
		err = b.poll(ctx, work)
	}

	done := make(chan struct{})
	// The side goroutines first: a claim waiter may still queue its update in the dispatcher.
	go func() { b.side.Wait(); b.disp.wait(); close(done) }()
	timeout := b.opts.ShutdownTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	select {
	case <-done:
	case <-time.After(timeout):
		b.log.Warn("shutdown deadline passed; cancelling answers in flight", "pending", b.disp.pending())
		stopWork(errShutdown)
		select {
		case <-done:
		case <-time.After(sendGrace):
			// Ready replies and "ask again" notices still queue for the send budget (a group
			// allows one every 3 s): stop waiting for it rather than be killed mid-send.
			b.log.Warn("replies still waiting for Telegram's send budget; giving up on them", "pending", b.disp.pending())
			b.limits.abort()
			<-done
		}
	}
	return err
}

// sendGrace is how long Run waits, after the shutdown deadline cancelled the answers still
// running, for replies that queue for the send budget.
const sendGrace = 5 * time.Second

// setCommands publishes the command menu; failures only cost the menu.
func (b *Bot) setCommands(ctx context.Context) {
	var cmds []tgbotapi.BotCommand
	for _, c := range b.core.commands {
		if !c.adminOnly && !c.hidden {
			cmds = append(cmds, tgbotapi.BotCommand{Command: c.name, Description: c.description})
		}
	}
	if err := b.tg.request(ctx, tgbotapi.NewSetMyCommands(cmds...)); err != nil {
		b.log.WarnContext(ctx, "setMyCommands failed", "err", err)
	}
}

// fetch downloads a file a user sent, for the core.
func (b *Bot) fetch(ctx context.Context, fileID string, limit int64) ([]byte, error) {
	return b.tg.download(ctx, fileID, limit)
}
