package bot

import (
	"context"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

const (
	floodOK     floodVerdict = iota // answer it
	floodNotify                     // over the limit: say so, once
	floodSilent                     // still over the limit: already said
)

// SendLimit is one of Telegram's limits on what a bot sends (core.telegram.org/bots/faq): at
// most Max messages in any Window. The bot paces its sends with a token bucket of Rate and
// Burst (smooth, first come first served) and, at the moment of sending, checks an exact
// sliding window of Max sends per Window, so that neither a bucket's burst nor a stalled
// process (every overdue sender waking at once) can exceed the limit.
type SendLimit struct {
	Name   string
	Window time.Duration
	Max    int
	// Guard lengthens the window the bot keeps: a send may reach Telegram a few milliseconds
	// later than the one before it (scheduling, the network), and a window measured on
	// arrival must still hold at most Max.
	Guard time.Duration
	Rate  rate.Limit // bucket refill, tokens per second
	Burst int
}

// Telegram's limits as the bot keeps them. The buckets refill at the rate the guarded windows
// allow, so that sends are spread evenly. Their bursts are small: two in a private chat (a
// long answer's two parts), one in a group, five overall (answers that finish together go out
// together instead of 35 ms apart). The windows, which are exact, hold back whatever a burst,
// rounding or a stall would put over the limit.
var (
	// PrivateChatLimit: about one message a second per chat; Telegram tolerates short bursts,
	// so the two parts of a long answer go out together.
	PrivateChatLimit = SendLimit{Name: "per private chat", Window: time.Second, Max: 2, Guard: 50 * time.Millisecond, Rate: 1, Burst: 2}
	// GroupLimit: 20 messages a minute per group.
	GroupLimit = SendLimit{Name: "per group", Window: time.Minute, Max: 20, Guard: time.Second, Rate: rate.Limit(20.0 / 61), Burst: 1}
	// GlobalLimit: 30 messages a second over all chats.
	GlobalLimit = SendLimit{Name: "global", Window: time.Second, Max: 30, Guard: 50 * time.Millisecond, Rate: 28.5, Burst: 5}
)

// actionsPerSecond bounds sendChatAction calls overall. "typing…" is repeated every few seconds
// while an answer is prepared and delivered; when answers queue for the send budget, thousands
// of chats would repeat it at once. It is a nicety: a refresh over the budget is skipped.
const actionsPerSecond = 10

// sendLimits keeps outgoing messages within Telegram's limits, per chat, per group and
// overall, and chat actions within their own budget.
type sendLimits struct {
	// aborted ends every wait for the send budget: shutdown's last resort, when replies
	// still queue for it after the deadline.
	aborted context.Context
	abort   context.CancelFunc
	actions *rate.Limiter
	global  *gate
	mu      sync.Mutex
	chats   *lru.Cache[int64, *gate]
	// private and group are the per-chat limits; tests widen them.
	private, group SendLimit
}

func newSendLimits() *sendLimits {
	chats, _ := lru.New[int64, *gate](100_000) // size > 0: cannot fail
	aborted, abort := context.WithCancel(context.Background())
	return &sendLimits{aborted: aborted, abort: abort, actions: rate.NewLimiter(actionsPerSecond, actionsPerSecond),
		global: newGate(GlobalLimit), chats: chats, private: PrivateChatLimit, group: GroupLimit}
}

func (l *sendLimits) chat(chatID int64) *gate {
	l.mu.Lock()
	defer l.mu.Unlock()
	g, ok := l.chats.Get(chatID)
	if !ok {
		if chatID < 0 { // groups and channels have negative IDs
			g = newGate(l.group)
		} else {
			g = newGate(l.private)
		}
		l.chats.Add(chatID, g)
	}
	return g
}

// wait blocks until a message may be sent to chatID now, and counts it as sent. It returns
// early when ctx is done or the waits are aborted.
func (l *sendLimits) wait(ctx context.Context, chatID int64) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(l.aborted, cancel)()
	c := l.chat(chatID)
	if err := c.bucket.Wait(ctx); err != nil {
		return err
	}
	if err := l.global.bucket.Wait(ctx); err != nil {
		return err
	}
	// The windows are taken together, at the moment of sending: a send counted in the chat's
	// window while it still waits for the global one would hold back the chat's next message
	// for nothing.
	for {
		now := time.Now()
		d := max(c.win.delay(now), l.global.win.delay(now))
		if d == 0 && l.takeBoth(c, now) {
			return nil
		}
		if err := sleepCtx(ctx, max(d, time.Millisecond)); err != nil {
			return err
		}
	}
}

// takeBoth records a send in the chat's and the global window if both have room at now.
func (l *sendLimits) takeBoth(c *gate, now time.Time) bool {
	// Lock order: the chat's window, then the global one.
	c.win.mu.Lock()
	defer c.win.mu.Unlock()
	l.global.win.mu.Lock()
	defer l.global.win.mu.Unlock()
	if c.win.delayLocked(now) > 0 || l.global.win.delayLocked(now) > 0 {
		return false
	}
	c.win.addLocked(now)
	l.global.win.addLocked(now)
	return true
}

// idle reports whether a message to chatID could go out now without waiting: streaming
// drafts are a nicety, sent only while the bot is not queueing real answers.
func (l *sendLimits) idle(chatID int64) bool {
	c := l.chat(chatID)
	now := time.Now()
	// Busy overall: half the global budget of the last second is spent.
	return c.bucket.TokensAt(now) >= 1 && c.win.delay(now) == 0 && l.global.win.count(now) < l.global.win.len()/2
}

// gate is one limit's bucket and window.
type gate struct {
	bucket *rate.Limiter
	win    *window
}

func newGate(s SendLimit) *gate {
	return &gate{bucket: rate.NewLimiter(s.Rate, max(s.Burst, 1)), win: newWindow(s.Max, s.Window+s.Guard)}
}

// window counts sends exactly: at most n in any span, kept as the times of the last n sends.
type window struct {
	mu    sync.Mutex
	span  time.Duration
	times []time.Time // a ring; times[next] is the oldest
	next  int
}

func newWindow(n int, span time.Duration) *window {
	return &window{span: span, times: make([]time.Time, max(n, 1))}
}

// delay is how long until a send fits in the window; 0 if it fits now.
func (w *window) delay(now time.Time) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.delayLocked(now)
}

func (w *window) delayLocked(now time.Time) time.Duration {
	oldest := w.times[w.next]
	if oldest.IsZero() {
		return 0
	}
	return max(0, oldest.Add(w.span).Sub(now))
}

// count is how many sends the window holds at now.
func (w *window) count(now time.Time) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, t := range w.times {
		if !t.IsZero() && now.Sub(t) < w.span {
			n++
		}
	}
	return n
}

func (w *window) len() int { return len(w.times) }

func (w *window) addLocked(now time.Time) {
	w.times[w.next] = now
	w.next = (w.next + 1) % len(w.times)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}
