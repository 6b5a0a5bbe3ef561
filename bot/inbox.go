package bot

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/finbot/finbot/library"
)

// The webhook inbox: an update acknowledged to Telegram is kept until it is answered, so that a
// replica that dies does not take it along; claims are renewed while answers run.

// Inbox keeps webhook updates from the moment the webhook acknowledges them until they are
// answered. *history.RedisInbox satisfies it (its package documents the keys and the fencing).
type Inbox interface {
	// Put stores an update as Telegram sent it, before the webhook answers 200.
	Put(ctx context.Context, updateID int64, body []byte) error
	// Remove forgets an answered (or deliberately unanswered) update.
	Remove(ctx context.Context, updateID int64) error
	// TookOver counts a takeover of an update from an instance that died with it.
	TookOver(ctx context.Context, updateID int64) error
	// Begin records that this instance begins heavy work for an update (library.HeavyWatcher):
	// if its claim lapses before End or Remove, the instance died in that work.
	Begin(ctx context.Context, updateID int64) error
	// End records that the heavy work for an update ended, or that this instance gives the
	// update back, alive (it shuts down).
	End(ctx context.Context, updateID int64) error
	// DiedOn reports whether an instance began heavy work for an update that did not end.
	DiedOn(ctx context.Context, updateID int64) (bool, error)
	// Due calls take for each update stored or last looked at olderThan ago or earlier, at most
	// limit of them, when this instance is the inbox's sweeper (one instance at a time is).
	Due(ctx context.Context, olderThan time.Duration, limit int, take func(updateID int64, body []byte, takeovers int)) error
}

// maxInboxTakeovers: an update taken over this many times (every instance that took it died
// with it) is settled with a notice to its user instead of being taken over again. One that
// an instance died on in the middle of heavy work is not taken over at all (see takeOver).
const maxInboxTakeovers = 3

// sweepBatch bounds the updates one sweep takes over.
const sweepBatch = 100

// heldClaims counts the claims this instance holds or is taking, by update. A count, not a set:
// one update delivered twice to this instance is claimed twice, and the second, refused, claim
// must not forget the first.
type heldClaims struct {
	mu  sync.Mutex
	ids map[int64]int
}

func (h *heldClaims) add(id int64) {
	h.mu.Lock()
	if h.ids == nil {
		h.ids = make(map[int64]int)
	}
	h.ids[id]++
	h.mu.Unlock()
}

func (h *heldClaims) remove(id int64) {
	h.mu.Lock()
	if h.ids[id] <= 1 {
		delete(h.ids, id)
	} else {
		h.ids[id]--
	}
	h.mu.Unlock()
}

func (h *heldClaims) has(id int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ids[id] > 0
}

func (h *heldClaims) list() []int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]int64, 0, len(h.ids))
	for id := range h.ids {
		out = append(out, id)
	}
	return out
}

// keepClaims renews this instance's claims every third of their lease until ctx is done, so
// that only a claim whose instance died lapses.
func (b *Bot) keepClaims(ctx context.Context) {
	every(ctx, b.opts.ClaimLease/3, func() {
		ids := b.held.list()
		if len(ids) == 0 {
			return
		}
		dctx, cancel := context.WithTimeout(ctx, dedupeTimeout)
		defer cancel()
		if err := b.opts.Dedupe.Extend(dctx, ids, b.opts.ClaimLease); err != nil {
			b.log.WarnContext(ctx, "dedupe unavailable; claims not renewed", "claims", len(ids), "err", err)
		} else {
			b.log.DebugContext(ctx, "claims renewed", "claims", len(ids))
		}
	})
}

// every calls fn every period until ctx is done.
func every(ctx context.Context, period time.Duration, fn func()) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}

// putInbox stores a webhook update in the inbox before it is acknowledged. It reports whether
// the update is there; when the inbox fails the update is answered all the same, only without
// the guarantee that it outlives this instance.
func (b *Bot) putInbox(ctx context.Context, in incoming, body []byte) bool {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dedupeTimeout)
	defer cancel()
	if err := b.opts.Inbox.Put(dctx, in.updateID, body); err != nil {
		b.core.metrics.errors.WithLabelValues("inbox").Inc()
		b.log.WarnContext(ctx, "inbox unavailable; update answered without it", "update_id", in.updateID, "err", err)
		return false
	}
	return true
}

// sweepInbox takes over, every InboxSweep until ctx is done, the inbox updates whose claims
// lapsed: their instance died after acknowledging them.
func (b *Bot) sweepInbox(ctx, work context.Context) {
	type due struct {
		id        int64
		body      []byte
		takeovers int
	}
	every(ctx, b.opts.InboxSweep, func() {
		var batch []due
		dctx, cancel := context.WithTimeout(ctx, dedupeTimeout)
		err := b.opts.Inbox.Due(dctx, b.opts.InboxSweep, sweepBatch, func(id int64, body []byte, takeovers int) {
			batch = append(batch, due{id, body, takeovers})
		})
		cancel()
		if err != nil {
			b.log.WarnContext(ctx, "inbox unavailable; sweep skipped", "err", err)
			return
		}
		for _, d := range batch {
			if ctx.Err() != nil {
				return
			}
			b.takeOver(ctx, work, d.id, d.body, d.takeovers)
		}
	})
}

// takeOver answers an inbox update if its claim lapsed, and forgets it if it was answered.
func (b *Bot) takeOver(ctx, work context.Context, id int64, body []byte, takeovers int) {
	if b.held.has(id) {
		return // this instance is answering it
	}
	forget := func() { b.settleInbox(ctx, id) }
	var u update
	if json.Unmarshal(body, &u) != nil || int64(u.UpdateID) != id {
		b.log.WarnContext(ctx, "inbox entry does not decode; dropped", "update_id", id)
		forget()
		return
	}
	in, ok := u.parse(b.me, b.core.known)
	if !ok {
		forget()
		return
	}
	in.inboxed = true
	ok, wait, held := b.claim(ctx, in)
	switch {
	case ok && !held:
		return // the deduper is down: claims cannot be trusted, so nothing is taken over now
	case wait > 0:
		return // another instance holds it, alive: it renews its claim
	case !ok:
		if !b.held.has(id) { // answered (not being answered here after all)
			forget()
		}
		return
	}
	if b.diedOn(ctx, id) {
		// The instance before died in the middle of heavy work for it (a document index, a
		// file): the likeliest cause is the update itself, which took all the memory and
		// would kill this instance too. Its user is told, once, and it is settled answered.
		b.core.metrics.updates.WithLabelValues("died_on").Inc()
		b.log.ErrorContext(ctx, "an instance died in heavy work for this update; not answered again, its user is told",
			"update_id", id, "chat_id", in.chatID, "takeovers", takeovers)
		b.side.Go(func() {
			b.core.reply(work, in, userMessage(errDiedOn))
			b.settle(work, in, true)
		})
		return
	}
	if takeovers >= maxInboxTakeovers {
		b.core.metrics.updates.WithLabelValues("abandoned").Inc()
		b.log.ErrorContext(ctx, "update taken over too many times; its user is told", "update_id", id, "takeovers", takeovers)
		b.side.Go(func() {
			b.core.reply(work, in, userMessage(errGaveUp))
			b.settle(work, in, true)
		})
		return
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dedupeTimeout)
	err := b.opts.Inbox.TookOver(dctx, id)
	cancel()
	if err != nil {
		b.log.WarnContext(ctx, "inbox unavailable", "op", "took_over", "update_id", id, "err", err)
	}
	b.core.metrics.updates.WithLabelValues("taken_over").Inc()
	b.log.InfoContext(ctx, "took over an update from an instance that stopped answering it", "update_id", id, "takeovers", takeovers+1)
	b.start(ctx, work, in)
}

// diedOn reports whether the instance that held an update this instance just claimed died in
// the middle of heavy work for it. Asked after the claim: an instance that stops alive ends
// the work before it releases its claim. When the inbox cannot say, the update is taken over
// as before (its takeovers are still bounded).
func (b *Bot) diedOn(ctx context.Context, id int64) bool {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dedupeTimeout)
	defer cancel()
	died, err := b.opts.Inbox.DiedOn(dctx, id)
	if err != nil {
		b.log.WarnContext(ctx, "inbox unavailable", "op", "died_on", "update_id", id, "err", err)
		return false
	}
	return died
}

// watchHeavy returns ctx with a library.HeavyWatcher that marks an inboxed update in the
// inbox while heavy work for it runs (Inbox.Begin … Inbox.End; concurrent work counted), so
// that the instance that takes the update over, should this one die, knows whether it died in
// such work. When the inbox fails the work runs all the same; should this instance then die
// in it, the next one answers the update again, as before.
func (b *Bot) watchHeavy(ctx context.Context, in incoming) context.Context {
	if !in.inboxed || b.opts.Inbox == nil {
		return ctx
	}
	var (
		mu      sync.Mutex
		running int
	)
	mark := func(begin bool) { // under mu: a Begin is in Redis before its End
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dedupeTimeout)
		defer cancel()
		op, f := "begin", b.opts.Inbox.Begin
		if !begin {
			op, f = "end", b.opts.Inbox.End
		}
		if err := f(dctx, in.updateID); err != nil {
			b.log.WarnContext(ctx, "inbox unavailable", "op", op, "update_id", in.updateID, "err", err)
		}
	}
	return library.WithHeavyWatcher(ctx, func() func() {
		mu.Lock()
		defer mu.Unlock()
		if running++; running == 1 {
			mark(true)
		}
		var once sync.Once
		return func() {
			once.Do(func() {
				mu.Lock()
				defer mu.Unlock()
				if running--; running == 0 {
					mark(false)
				}
			})
		}
	})
}
