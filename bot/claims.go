package bot

import (
	"context"
	"sync"
	"time"
)

// Claims: each update is answered once, across instances and restarts (the Deduper's lease).

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
	// Extend renews this instance's claims on updateIDs for lease: an answer may take longer
	// than one lease, and a claim that lapses is taken over by another instance.
	Extend(ctx context.Context, updateIDs []int64, lease time.Duration) error
}

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
func (b *Bot) preclaim(ctx context.Context, ups []update) []*claimResult {
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
		in, ok := u.parse(b.me, b.core.known)
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
	// Counted as held before the store is asked, so that the inbox sweeper never takes a claim
	// this instance is taking for its own (see sweepInbox).
	b.held.add(in.updateID)
	ok, wait, err := b.opts.Dedupe.Claim(dctx, in.updateID, b.opts.ClaimLease)
	if err != nil || !ok {
		b.held.remove(in.updateID)
	}
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
			// Queued like any update, in its conversation's order and behind its limits. On
			// shutdown Run waits for this goroutine before it waits for the dispatcher.
			b.start(ctx, work, in)
			return
		case next == 0:
			b.core.metrics.updates.WithLabelValues("duplicate").Inc()
			return
		}
		wait = next
	}
	b.log.WarnContext(ctx, "another instance keeps claiming an update; leaving it to that instance", "update_id", in.updateID)
}

// delivered reports whether the update will not come again if it is left unanswered. An update
// in the inbox comes again (a sweeper takes it over); otherwise Telegram counts webhook updates
// as delivered once the handler has answered, and polled ones once a getUpdates with a higher
// offset was sent (whether or not it arrived: when in doubt, the user is asked to repeat rather
// than left waiting).
func (b *Bot) delivered(in incoming) bool {
	if in.inboxed {
		return false
	}
	return b.opts.WebhookURL != "" || in.updateID < b.polled.Load()
}

// settle marks an update done, or releases this instance's claim on it.
func (b *Bot) settle(ctx context.Context, in incoming, done bool) {
	if b.opts.Dedupe == nil {
		return
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dedupeTimeout)
	defer cancel()
	defer b.held.remove(in.updateID)
	if !done && in.inboxed {
		// Given back before the claim is released: whoever claims it next must not take this
		// instance, alive, for one that died in heavy work for it.
		if err := b.opts.Inbox.End(dctx, in.updateID); err != nil {
			b.log.WarnContext(ctx, "inbox unavailable", "op", "end", "update_id", in.updateID, "err", err)
		}
	}
	op, settle := "done", b.opts.Dedupe.Done
	if !done {
		op, settle = "release", b.opts.Dedupe.Release
	}
	if err := settle(dctx, in.updateID); err != nil {
		b.log.WarnContext(ctx, "dedupe unavailable", "op", op, "update_id", in.updateID, "err", err)
	}
	if done && in.inboxed {
		b.settleInbox(ctx, in.updateID)
	}
}

// settleInbox removes an answered (or deliberately unanswered) update from the inbox.
func (b *Bot) settleInbox(ctx context.Context, updateID int64) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dedupeTimeout)
	defer cancel()
	if err := b.opts.Inbox.Remove(dctx, updateID); err != nil {
		b.log.WarnContext(ctx, "inbox unavailable", "op", "remove", "update_id", updateID, "err", err)
	}
}

// releaseClaims gives up the claims preclaim took on updates that will not be accepted here,
// concurrently: each release is bounded by dedupeTimeout, and stopping waits for them.
func (b *Bot) releaseClaims(ctx context.Context, ups []update, claims []*claimResult) {
	var wg sync.WaitGroup
	for i, u := range ups {
		if i < len(claims) && claims[i] != nil && claims[i].held {
			wg.Go(func() { b.settle(ctx, incoming{updateID: int64(u.UpdateID)}, false) })
		}
	}
	wg.Wait()
}
