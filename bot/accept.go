package bot

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// Intake: an update from the poll loop or the webhook is claimed, queued in its conversation's
// order (the dispatcher), answered, and its claim settled.

// accept de-duplicates and queues one update. pre is its claim when preclaim took it.
func (b *Bot) accept(ctx, work context.Context, u update, pre *claimResult) {
	if q := u.InlineQuery; q != nil && q.From != nil {
		b.core.metrics.updates.WithLabelValues("inline").Inc()
		b.side.Go(func() { b.answerInline(work, q) })
		return
	}
	in, ok := u.parse(b.me, b.core.known)
	if !ok {
		b.core.metrics.updates.WithLabelValues("ignored").Inc()
		return
	}
	b.acceptParsed(ctx, work, in, pre)
}

// acceptParsed de-duplicates and queues one parsed update.
func (b *Bot) acceptParsed(ctx, work context.Context, in incoming, pre *claimResult) {
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
			if in.inboxed && !b.held.has(in.updateID) {
				// Answered already: this delivery's Put stored it again.
				b.settleInbox(ctx, in.updateID)
			}
			return
		}
	}
	b.start(ctx, work, in)
}

// start queues an accepted, claimed update in its conversation (the dispatcher bounds each
// conversation's queue).
func (b *Bot) start(ctx, work context.Context, in incoming) {
	b.core.metrics.updates.WithLabelValues("accepted").Inc()
	// A pressed button is answered (answerCallbackQuery) in its conversation's turn, behind the
	// flood guard, like a message: here, on the poll loop, one user pressing fast would hold
	// up every chat by a Telegram round trip per press.
	if in.command == "cancel" {
		// /cancel jumps the queue: it must reach the request it stops.
		b.disp.dropPending(in)
		b.side.Go(func() { b.handle(work, in) })
		return
	}
	if !b.disp.submit(work, in) {
		b.core.metrics.updates.WithLabelValues("overflow").Inc()
		level := slog.LevelWarn
		if in.callbackID != "" {
			level = slog.LevelInfo // a user pressing buttons faster than their answers come
		}
		b.log.Log(ctx, level, "chat queue full; update dropped", "chat_id", in.chatID, "update_id", in.updateID)
		b.settle(ctx, in, true)
	}
}

// handle answers one update and settles its claim. An answer that shutdown cancelled before
// anything was sent is left to the next instance when Telegram will deliver the update again
// (the offset that confirms it was never sent); otherwise the user is told to ask again.
func (b *Bot) handle(ctx context.Context, in incoming) {
	abandoned := errors.Is(context.Cause(ctx), errShutdown) || b.core.handle(b.watchHeavy(ctx, in), in)
	if abandoned && !b.delivered(in) {
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
