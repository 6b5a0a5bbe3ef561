// Package bot is finbot's front end: Telegram (long polling or webhook) and the console. It
// turns updates into agent requests, keeps per-chat order and per-user limits, formats answers
// for Telegram, and is the one place where errors become user text.
package bot

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/bot/tgmd"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Deduper makes sure an update is answered once, even when Telegram delivers it again and even
// across a restart between receiving it and replying. *history.RedisDedupe and
// *history.MemoryDedupe satisfy it (see their package for the states an update goes through).
type Deduper interface {
	// Claim takes updateID for this instance for lease. ok means the caller answers it.
	// Otherwise wait is zero when the update is answered or is being answered by this instance
	// (drop it), and how long another instance's claim still holds when there is one (claim
	// again after that: the other instance has answered it by then, or it died).
	Claim(ctx context.Context, updateID int64, lease time.Duration) (ok bool, wait time.Duration, err error)
	// Done marks updateID answered.
	Done(ctx context.Context, updateID int64) error
	// Release gives up this instance's claim on updateID, unanswered.
	Release(ctx context.Context, updateID int64) error
}

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

	Access         Access
	UserRatePerMin int // 0 disables the flood guard
	UserRateBurst  int

	AnswerTimeout   time.Duration // ceiling per answer (default 90s)
	ShutdownTimeout time.Duration // how long Run waits for answers in flight (default 30s)
	TypingInterval  time.Duration // default 4s
	StreamMode      StreamMode    // how answers show while written; "" = StreamAuto

	Dedupe Deduper // nil: no de-duplication
	// ClaimLease is how long this instance's claim on an update holds without Done: when it
	// dies, another instance may answer the update that much later. It must cover queueing,
	// the answer and its delivery; default AnswerTimeout + 1 minute.
	ClaimLease time.Duration

	Metrics *Metrics
	Logger  *slog.Logger
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
		files:  b,
		access: o.Access, perMin: o.UserRatePerMin, burst: o.UserRateBurst,
		answerTimeout: o.AnswerTimeout, typingInterval: o.TypingInterval, status: o.Status,
	})
	b.core.stream = streamConfigFor(o.StreamMode)
	if b.opts.ClaimLease <= 0 {
		b.opts.ClaimLease = b.core.answerTimeout + time.Minute
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

	var err error
	if b.opts.WebhookURL != "" {
		err = b.serveWebhook(ctx, work)
	} else {
		err = b.poll(ctx, work)
	}

	done := make(chan struct{})
	go func() { b.disp.wait(); b.side.Wait(); close(done) }()
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

// dedupeTimeout bounds each call to the deduper: a slow store must not stall the poll loop.
const dedupeTimeout = time.Second

// dedupeCooldown is how long the bot answers updates without claiming them after the deduper
// failed. While its store is down every claim would stall the poll loop for dedupeTimeout.
const dedupeCooldown = 5 * time.Second

// maxClaimWaits bounds how many times an update claimed by another instance is waited for.
const maxClaimWaits = 3

// claimResult is a claim taken ahead of accept, for a whole batch at once.
type claimResult struct {
	ok   bool
	wait time.Duration
	// held: the store granted the claim (ok is also true when the store failed and the update
	// is answered unclaimed); only a held claim is released.
	held bool
}

// maxConcurrentClaims bounds the claims of one batch in flight at once.
const maxConcurrentClaims = 16

// preclaim claims the updates of a batch that will be answered, concurrently: one by one, a
// slow store would hold up intake for every chat by a round trip per update (up to
// dedupeTimeout each, 100 updates a batch).
// The result is indexed like ups (an update may come twice in one batch); nil where none was
// taken.
func (b *Bot) preclaim(ctx context.Context, ups []tgbotapi.Update) []*claimResult {
	if b.opts.Dedupe == nil || len(ups) < 2 {
		return nil
	}
	var (
		out = make([]*claimResult, len(ups))
		wg  sync.WaitGroup
		sem = make(chan struct{}, maxConcurrentClaims)
	)
	for i, u := range ups {
		if u.InlineQuery != nil {
			continue
		}
		in, ok := parseUpdate(u, b.me, b.core.known)
		if !ok {
			continue
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			ok, wait, held := b.claim(ctx, in)
			out[i] = &claimResult{ok: ok, wait: wait, held: held} // each goroutine writes its own element
		})
	}
	wg.Wait()
	return out
}

// accept de-duplicates and queues one update. pre is its claim when preclaim took it.
func (b *Bot) accept(ctx, work context.Context, u tgbotapi.Update, pre *claimResult) {
	if q := u.InlineQuery; q != nil && q.From != nil {
		b.core.metrics.updates.WithLabelValues("inline").Inc()
		b.side.Go(func() { b.answerInline(work, q) })
		return
	}
	in, ok := parseUpdate(u, b.me, b.core.known)
	if !ok {
		b.core.metrics.updates.WithLabelValues("ignored").Inc()
		return
	}
	if b.opts.Dedupe != nil {
		var ok bool
		var wait time.Duration
		if pre != nil {
			ok, wait = pre.ok, pre.wait
		} else {
			ok, wait, _ = b.claim(ctx, in)
		}
		switch {
		case wait > 0:
			// Another instance claimed it: it is answering, or it died. Dropping the update now
			// would lose it in the second case (it counts as delivered once we poll again).
			b.core.metrics.updates.WithLabelValues("deferred").Inc()
			b.log.InfoContext(ctx, "update claimed by another instance; waiting for its claim", "update_id", in.updateID, "wait", wait)
			b.side.Go(func() { b.awaitClaim(ctx, work, in, wait) })
			return
		case !ok:
			b.core.metrics.updates.WithLabelValues("duplicate").Inc()
			return
		}
	}
	b.start(ctx, work, in)
}

// claim claims an update. When the deduper fails, the update is answered anyway: better to risk
// a second answer than to lose the message.
// held reports that the store granted the claim.
func (b *Bot) claim(ctx context.Context, in incoming) (ok bool, wait time.Duration, held bool) {
	if time.Now().UnixNano() < b.dedupeDown.Load() {
		return true, 0, false
	}
	// Not cancelled by shutdown: an update taken from a batch is claimed properly.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dedupeTimeout)
	defer cancel()
	ok, wait, err := b.opts.Dedupe.Claim(dctx, in.updateID, b.opts.ClaimLease)
	if err != nil {
		b.dedupeDown.Store(time.Now().Add(dedupeCooldown).UnixNano())
		b.core.metrics.errors.WithLabelValues("dedupe").Inc()
		b.log.WarnContext(ctx, "dedupe unavailable; answering updates unclaimed for a while",
			"update_id", in.updateID, "for", dedupeCooldown, "err", err)
		return true, 0, false
	}
	return ok, wait, ok
}

// awaitClaim waits out another instance's claim on an update, then claims it again: it is done
// by then (drop it) or its claim lapsed because that instance died (answer it).
func (b *Bot) awaitClaim(ctx, work context.Context, in incoming, wait time.Duration) {
	for range maxClaimWaits {
		sleep(ctx, wait+50*time.Millisecond) // a little past the lease, so that it has lapsed
		if ctx.Err() != nil {
			b.log.WarnContext(ctx, "stopped while waiting for another instance's claim; update not answered here",
				"update_id", in.updateID)
			return
		}
		ok, next, _ := b.claim(ctx, in)
		switch {
		case ok:
			b.log.InfoContext(ctx, "took over an update whose claim lapsed", "update_id", in.updateID)
			b.core.metrics.updates.WithLabelValues("accepted").Inc()
			// Answered here rather than queued: on shutdown, Run may be done waiting for the
			// dispatcher but still waits for this goroutine.
			b.handle(work, in)
			return
		case next == 0:
			b.core.metrics.updates.WithLabelValues("duplicate").Inc()
			return
		}
		wait = next
	}
	b.log.WarnContext(ctx, "another instance keeps claiming an update; leaving it to that instance", "update_id", in.updateID)
}

// start queues an accepted, claimed update.
func (b *Bot) start(ctx, work context.Context, in incoming) {
	b.core.metrics.updates.WithLabelValues("accepted").Inc()
	if in.callbackID != "" {
		b.answerCallback(ctx, in.callbackID)
	}
	if in.command == "cancel" {
		// /cancel jumps the queue: it must reach the request it stops.
		b.disp.dropPending(in)
		b.side.Go(func() { b.handle(work, in) })
		return
	}
	if !b.disp.submit(work, in) {
		b.core.metrics.updates.WithLabelValues("overflow").Inc()
		b.log.WarnContext(ctx, "chat queue full; message dropped", "chat_id", in.chatID, "update_id", in.updateID)
		b.settle(ctx, in, true)
	}
}

// handle answers one update and settles its claim. An answer that shutdown cancelled before
// anything was sent is left to the next instance when Telegram will deliver the update again
// (the offset that confirms it was never sent); otherwise the user is told to ask again.
func (b *Bot) handle(ctx context.Context, in incoming) {
	abandoned := errors.Is(context.Cause(ctx), errShutdown) || b.core.handle(ctx, in)
	if abandoned && !b.delivered(in.updateID) {
		b.core.metrics.updates.WithLabelValues("released").Inc()
		b.log.InfoContext(ctx, "shutdown: update left to the next instance", "update_id", in.updateID)
		b.settle(ctx, in, false)
		return
	}
	if abandoned {
		b.core.reply(context.WithoutCancel(ctx), in, userMessage(errShutdown))
	}
	b.settle(ctx, in, true)
}

// delivered reports whether Telegram counts the update as delivered, so that it will not
// deliver it again. Webhook updates are delivered once the handler has answered; polled ones
// once a getUpdates with a higher offset was sent (whether or not it arrived: when in doubt,
// the user is asked to repeat rather than left waiting).
func (b *Bot) delivered(updateID int64) bool {
	return b.opts.WebhookURL != "" || updateID < b.polled.Load()
}

// settle marks an update done, or releases this instance's claim on it.
func (b *Bot) settle(ctx context.Context, in incoming, done bool) {
	if b.opts.Dedupe == nil {
		return
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dedupeTimeout)
	defer cancel()
	op, settle := "done", b.opts.Dedupe.Done
	if !done {
		op, settle = "release", b.opts.Dedupe.Release
	}
	if err := settle(dctx, in.updateID); err != nil {
		b.log.WarnContext(ctx, "dedupe unavailable", "op", op, "update_id", in.updateID, "err", err)
	}
}

// poll is the long-polling loop over getUpdates; it owns the offset and backs off on errors.
func (b *Bot) poll(ctx, work context.Context) error {
	if _, err := b.tg.call(ctx, "deleteWebhook", nil); err != nil && ctx.Err() == nil {
		b.log.WarnContext(ctx, "deleteWebhook failed", "err", err)
	}
	b.log.InfoContext(ctx, "polling for updates", "bot", b.me.username)
	offset, failures := 0, 0
	for ctx.Err() == nil {
		started := time.Now()
		b.polled.Store(int64(offset))
		ups, err := b.tg.getUpdates(ctx, offset, b.opts.PollTimeout)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			failures++
			delay := backoff(failures)
			if e, ok := apiError(err); ok && e.RetryAfter > 0 {
				delay = time.Duration(e.RetryAfter) * time.Second
			}
			b.core.metrics.errors.WithLabelValues("poll").Inc()
			b.log.WarnContext(ctx, "getUpdates failed", "err", err, "retry_in", delay)
			sleep(ctx, delay)
			continue
		}
		failures = 0
		claims := b.preclaim(ctx, ups)
		for i, u := range ups {
			if ctx.Err() != nil {
				// Stopping: the rest of the batch stays unconfirmed, and Telegram delivers it to
				// the next instance, which must be able to claim it.
				b.releaseClaims(work, ups[i:], claims[min(i, len(claims)):])
				break
			}
			if u.UpdateID >= offset {
				offset = u.UpdateID + 1
			}
			var pre *claimResult
			if i < len(claims) {
				pre = claims[i]
			}
			b.accept(ctx, work, u, pre)
		}
		if len(ups) == 0 && time.Since(started) < b.opts.PollIdle {
			sleep(ctx, b.opts.PollIdle) // the server did not long-poll: do not spin
		}
	}
	return nil
}

// releaseClaims gives up the claims preclaim took on updates that will not be accepted here,
// concurrently: each release is bounded by dedupeTimeout, and stopping waits for them.
func (b *Bot) releaseClaims(ctx context.Context, ups []tgbotapi.Update, claims []*claimResult) {
	var wg sync.WaitGroup
	for i, u := range ups {
		if i < len(claims) && claims[i] != nil && claims[i].held {
			wg.Go(func() { b.settle(ctx, incoming{updateID: int64(u.UpdateID)}, false) })
		}
	}
	wg.Wait()
}

// backoff is exponential with full jitter, capped at 30 s.
func backoff(failures int) time.Duration {
	d := time.Second << min(failures-1, 5)
	d = min(d, 30*time.Second)
	return d/2 + rand.N(d/2+1)
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// serveWebhook registers the webhook and serves it until ctx is done.
func (b *Bot) serveWebhook(ctx, work context.Context) error {
	u, err := url.Parse(b.opts.WebhookURL)
	if err != nil {
		return fmt.Errorf("webhook url: %w", err)
	}
	path := u.Path
	if path == "" {
		path = "/"
	}
	mux := http.NewServeMux()
	mux.Handle("POST "+path, b.webhookHandler(ctx, work))
	srv := &http.Server{Addr: b.opts.WebhookListen, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", b.opts.WebhookListen)
	if err != nil {
		return fmt.Errorf("webhook listen: %w", err)
	}
	if _, err := b.tg.call(ctx, "setWebhook", map[string]string{
		"url":             b.opts.WebhookURL,
		"secret_token":    b.opts.WebhookSecret,
		"allowed_updates": `["message","callback_query","inline_query"]`,
	}); err != nil {
		ln.Close()
		return fmt.Errorf("setWebhook: %w", err)
	}
	b.log.InfoContext(ctx, "serving webhook", "listen", ln.Addr().String(), "path", path)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("webhook server: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("webhook shutdown: %w", err)
	}
	return nil
}

// webhookHandler accepts updates POSTed by Telegram. It answers 200 as soon as the update is
// queued; a re-delivered update is recognised by the deduper.
func (b *Bot) webhookHandler(ctx, work context.Context) http.Handler {
	secret := []byte(b.opts.WebhookSecret)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("X-Telegram-Bot-Api-Secret-Token"))
		if subtle.ConstantTimeCompare(got, secret) != 1 {
			b.core.metrics.updates.WithLabelValues("forbidden").Inc()
			http.Error(w, "forbidden", http.StatusUnauthorized)
			return
		}
		var u tgbotapi.Update
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&u); err != nil {
			http.Error(w, "bad update", http.StatusBadRequest)
			return
		}
		b.accept(ctx, work, u, nil)
		w.WriteHeader(http.StatusOK)
	})
}

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

// inlineTimeout bounds an inline answer: Telegram drops answers that come too late.
const inlineTimeout = 8 * time.Second

// answerInline offers public figures (rates, key rate) for "@finbot usd" typed in any chat.
// Refused users and failures get an empty list: inline mode has no place for error text.
func (b *Bot) answerInline(ctx context.Context, q *tgbotapi.InlineQuery) {
	ctx, cancel := context.WithTimeout(ctx, inlineTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			b.log.ErrorContext(ctx, "inline panic", "panic", fmt.Sprint(p))
		}
	}()
	var results []any
	if b.core.access.allows(q.From.ID, 0) {
		offers, err := b.core.answerer.Inline(ctx, q.Query)
		if err != nil {
			b.log.WarnContext(ctx, "inline query", "err", err)
		}
		for _, o := range offers {
			msg := tgmd.Convert(o.Text)
			results = append(results, tgbotapi.InlineQueryResultArticle{
				Type: "article", ID: o.ID, Title: o.Title, Description: o.Description,
				InputMessageContent: tgbotapi.InputTextMessageContent{
					Text: msg.Text, Entities: toEntities(msg.Entities), DisableWebPagePreview: true,
				},
			})
		}
	}
	cfg := tgbotapi.InlineConfig{InlineQueryID: q.ID, Results: results, CacheTime: 60}
	if cfg.Results == nil {
		cfg.Results = []any{}
	}
	if err := b.tg.request(ctx, cfg); err != nil {
		b.log.WarnContext(ctx, "answerInlineQuery failed", "err", err)
	}
}

func (b *Bot) answerCallback(ctx context.Context, id string) {
	if err := b.tg.request(ctx, tgbotapi.NewCallback(id, "")); err != nil {
		b.log.DebugContext(ctx, "answerCallbackQuery failed", "err", err)
	}
}

// fetch downloads a file a user sent, for the core.
func (b *Bot) fetch(ctx context.Context, fileID string, limit int64) ([]byte, error) {
	return b.tg.download(ctx, fileID, limit)
}

// typing shows "typing…"; its failures never block a reply.
func (b *Bot) typing(ctx context.Context, chatID int64) {
	if !b.limits.actions.Allow() {
		return // a refresh over the budget is skipped: "typing…" shows 5 s anyway
	}
	if err := b.tg.request(ctx, tgbotapi.NewChatAction(chatID, tgbotapi.ChatTyping)); err != nil && ctx.Err() == nil {
		b.log.DebugContext(ctx, "sendChatAction failed", "chat_id", chatID, "err", err)
	}
}

// send delivers every part of a reply in order, then its chart, within Telegram's limits.
func (b *Bot) send(ctx context.Context, out outgoing) error {
	for i, p := range out.parts {
		cfg := tgbotapi.NewMessage(out.chatID, p.Text)
		cfg.DisableWebPagePreview = true
		cfg.Entities = toEntities(p.Entities)
		if i == 0 && out.replyTo != 0 {
			cfg.ReplyToMessageID = out.replyTo
			cfg.AllowSendingWithoutReply = true
		}
		last := i == len(out.parts)-1
		if last {
			if kb := keyboard(out.buttons); kb != nil {
				cfg.ReplyMarkup = kb
			}
		}
		plain := func() tgbotapi.Chattable { cfg.Entities = nil; return cfg }
		id, err := b.deliver(ctx, out.chatID, cfg, plain)
		if err != nil {
			return ignoreBlocked(err)
		}
		if last && out.sent != nil {
			out.sent(id)
		}
	}
	for _, d := range out.documents {
		dc := tgbotapi.NewDocument(out.chatID, tgbotapi.FileBytes{Name: d.name, Bytes: d.data})
		dc.Caption = d.caption
		if _, err := b.deliver(ctx, out.chatID, dc, func() tgbotapi.Chattable { return dc }); err != nil {
			return ignoreBlocked(err)
		}
	}
	if out.photo != nil {
		pc := tgbotapi.NewPhoto(out.chatID, tgbotapi.FileBytes{Name: "chart.png", Bytes: out.photo.png})
		pc.Caption = out.photo.caption.Text
		pc.CaptionEntities = toEntities(out.photo.caption.Entities)
		plain := func() tgbotapi.Chattable { pc.CaptionEntities = nil; return pc }
		if _, err := b.deliver(ctx, out.chatID, pc, plain); err != nil {
			return ignoreBlocked(err)
		}
	}
	return nil
}

func ignoreBlocked(err error) error {
	if errors.Is(err, errBlocked) {
		return nil
	}
	return err
}

// errBlocked means the user blocked the bot: nothing more can be delivered.
var errBlocked = errors.New("bot: blocked by the user")

const maxSendAttempts = 5

// deliver sends one message or photo: it waits for the chat's and the global send budget,
// waits out 429s, resends without formatting when Telegram cannot parse it (plain builds that
// version), drops what a user who blocked the bot can't receive, and retries server errors.
func (b *Bot) deliver(ctx context.Context, chatID int64, c tgbotapi.Chattable, plain func() tgbotapi.Chattable) (int, error) {
	formatted := true
	for attempt := 1; ; attempt++ {
		if err := b.limits.wait(ctx, chatID); err != nil {
			return 0, err
		}
		id, err := b.tg.send(ctx, c)
		if err == nil {
			return id, nil
		}
		if ctx.Err() != nil || attempt >= maxSendAttempts {
			return 0, err
		}
		e, isAPI := apiError(err)
		switch {
		case isAPI && e.Code == http.StatusTooManyRequests:
			wait := time.Duration(max(e.RetryAfter, 1)) * time.Second
			b.core.metrics.errors.WithLabelValues("telegram_429").Inc()
			b.log.WarnContext(ctx, "telegram flood control", "chat_id", chatID, "retry_after", wait)
			sleep(ctx, wait)
		case isAPI && e.Code == http.StatusBadRequest && formatted && isParseError(e.Message):
			b.log.WarnContext(ctx, "telegram rejected formatting; sending plain", "chat_id", chatID, "err", err)
			c, formatted = plain(), false
		case isAPI && e.Code == http.StatusForbidden:
			b.log.InfoContext(ctx, "cannot deliver: bot blocked or removed", "chat_id", chatID, "err", err)
			return 0, errBlocked
		case isAPI && e.Code >= 400 && e.Code < 500:
			return 0, err
		default: // 5xx, transport errors
			sleep(ctx, backoff(attempt))
		}
	}
}

func isParseError(description string) bool {
	// Telegram's only signal is its description text ("Bad Request: can't parse entities: …").
	return containsFold(description, "can't parse entities") || containsFold(description, "can't parse message text")
}

func toEntities(es []tgmd.Entity) []tgbotapi.MessageEntity {
	if len(es) == 0 {
		return nil
	}
	out := make([]tgbotapi.MessageEntity, len(es))
	for i, e := range es {
		out[i] = tgbotapi.MessageEntity{Type: e.Type, Offset: e.Offset, Length: e.Length, URL: e.URL, Language: e.Language}
	}
	return out
}

// keyboard turns suggested replies into an inline keyboard: one button per row unless a
// button asks to share the previous one's row. Buttons whose data does not fit Telegram's
// 64-byte callback data are left out.
func keyboard(buttons []agent.Button) *tgbotapi.InlineKeyboardMarkup {
	var rows [][]tgbotapi.InlineKeyboardButton
	for _, bt := range buttons {
		data := callbackPrefix + bt.Text
		if bt.Data != "" {
			data = bt.Data
		}
		if len(data) > 64 {
			continue
		}
		btn := tgbotapi.NewInlineKeyboardButtonData(bt.Text, data)
		if bt.SameRow && len(rows) > 0 && len(rows[len(rows)-1]) < 8 {
			rows[len(rows)-1] = append(rows[len(rows)-1], btn)
			continue
		}
		rows = append(rows, tgbotapi.NewInlineKeyboardRow(btn))
	}
	if len(rows) == 0 {
		return nil
	}
	kb := tgbotapi.NewInlineKeyboardMarkup(rows...)
	return &kb
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
