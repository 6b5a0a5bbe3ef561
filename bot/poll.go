package bot

import (
	"context"
	"math/rand/v2"
	"time"
)

// Long polling: the getUpdates loop, its offset and back-off.

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
