package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/finbot/finbot/bot/tgmd"
)

// drafter is a front end that can show an answer while the agent writes it. Telegram can; the
// console cannot and prints only the final answer.
type drafter interface {
	// draft sends text as a new plain message and returns its id.
	draft(ctx context.Context, chatID int64, replyTo int, text string) (int, error)
	// redraft replaces the text of message messageID with plain text. An unchanged text is
	// not an error.
	redraft(ctx context.Context, chatID int64, messageID int, text string) error
	// sendOver delivers out with its first part replacing message messageID; when that edit
	// fails the whole reply is sent anew, so the answer is never lost.
	sendOver(ctx context.Context, out outgoing, messageID int) error
	// discard deletes message messageID; failures are only logged.
	discard(ctx context.Context, chatID int64, messageID int)
}

// streamConfig paces streaming. Telegram allows about one message a second per chat and 20 a
// minute per group, and edits count against both; native drafts count against neither.
type streamConfig struct {
	interval      time.Duration // between edits in private chats; negative turns edits off there
	groupInterval time.Duration // between edits in groups; negative turns streaming off there
	minChars      int           // visible characters before the first draft is worth showing
	// native streams private chats as a native draft (sendMessageDraft) at most once per
	// draftInterval; edits take over where the Bot API refuses it (native.go).
	native        bool
	draftInterval time.Duration
}

// defaultStreamConfig is StreamAuto: native drafts in private chats, edits where the Bot API
// has none, and no streaming in groups: there a draft and its final edit cost two of the
// group's 20 messages a minute, which its members' next answers need more.
func defaultStreamConfig() streamConfig { return streamConfigFor(StreamAuto) }

// streamer shows one answer while it is written: as a native draft that grows (private chats,
// native.go), or as a plain message that the first progress sends and later ones edit at most
// once per interval. Progress never blocks the agent: it stores the text and wakes the
// streamer's own goroutine, which does the sending and which stop ends and waits for.
type streamer struct {
	d        drafter
	ctx      context.Context
	log      *slog.Logger
	edits    prometheus.Counter
	chatID   int64
	replyTo  int
	interval time.Duration // between edits; negative: no edits (native drafts only)
	minChars int

	// Native drafts; nd is nil once the Bot API refused them (or from the start).
	nd         nativeDrafter
	natives    *nativeDrafts
	drafts     prometheus.Counter
	nativeID   int // draft_id, the same for the whole answer
	draftEvery time.Duration

	mu      sync.Mutex
	latest  string
	started bool // run is running or has run
	stopped bool

	wake chan struct{} // buffered 1: "there is a newer text"
	quit chan struct{} // closed by stop
	done chan struct{} // closed when run returns

	// Owned by run; readable by others once done is closed.
	messageID int         // the draft message, 0 while none
	shown     string      // the text it shows now
	refresh   *time.Timer // native: renews the draft before the client drops it
}

// newStreamer returns the streamer for one question, or nil when the front end cannot show
// drafts or streaming is off. ctx bounds its sends and edits.
func (c *core) newStreamer(ctx context.Context, in incoming) *streamer {
	d, ok := c.out.(drafter)
	if !ok {
		return nil
	}
	interval := c.stream.interval
	if in.group {
		interval = c.stream.groupInterval
	}
	nd := c.nativeFor(in)
	if nd == nil && interval < 0 {
		return nil
	}
	s := &streamer{
		d: d, ctx: ctx, log: c.log, edits: c.metrics.streamEdits,
		chatID: in.chatID, interval: interval, minChars: c.stream.minChars,
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}),
	}
	if in.group {
		s.replyTo = in.messageID // as the final reply will
	}
	if nd != nil {
		s.nd, s.natives, s.drafts = nd, &c.natives, c.metrics.streamDrafts
		s.nativeID, s.draftEvery = c.natives.next(), c.stream.draftInterval
	}
	return s
}

// progress is api.Request.Progress: it records partial, the whole answer so far, and
// returns at once.
func (s *streamer) progress(partial string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.latest = partial
	if !s.started {
		if visibleChars(partial) < s.minChars {
			return
		}
		s.started = true
		go s.run()
	}
	select {
	case s.wake <- struct{}{}:
	default: // already pending; run reads the latest text anyway
	}
}

// stop ends streaming and waits until no send or edit is in flight. It is idempotent and
// nil-safe.
func (s *streamer) stop() {
	if s == nil {
		return
	}
	s.mu.Lock()
	first, started := !s.stopped, s.started
	s.stopped = true
	s.mu.Unlock()
	if first && started {
		close(s.quit)
	}
	if started {
		<-s.done
	}
}

// draftID is the message that shows the streamed text, 0 if none (native drafts are no
// messages). Call it after stop.
func (s *streamer) draftID() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if !started {
		return 0
	}
	<-s.done
	return s.messageID
}

// discard deletes the draft, if any: after a failed answer its partial text must not stand
// as if it were one. Call it after stop.
func (s *streamer) discard(ctx context.Context) {
	if id := s.draftID(); id != 0 {
		s.d.discard(ctx, s.chatID, id)
	}
}

func (s *streamer) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return clipDraft(s.latest)
}

// run shows the text whenever it changed, as a native draft or an edited message, until stop.
// A draft that cannot be shown ends streaming; the final answer is delivered regardless.
func (s *streamer) run() {
	defer close(s.done)
	defer s.stopRefresh()
	var next time.Time // the earliest moment of the next draft or edit
	for {
		renew := false
		select {
		case <-s.quit:
			return
		case <-s.wake:
		case <-s.refreshC():
			renew = true
		}
		more := false
		if s.nd != nil {
			more = s.native(&next, renew)
		} else {
			more = s.edit(&next)
		}
		if !more {
			return
		}
	}
}

// edit sends the draft message, then edits it when the text changed and the interval has
// passed. It reports false when streaming ends.
func (s *streamer) edit(next *time.Time) bool {
	if s.messageID != 0 {
		if s.text() == s.shown {
			return true
		}
		if !s.sleepUntil(*next) {
			return false
		}
	}
	text := s.text()
	if text == "" || text == s.shown {
		return true
	}
	select {
	case <-s.quit: // the answer is ready: it is sent instead of one more draft or edit
		return false
	default:
	}
	if s.messageID == 0 {
		id, err := s.d.draft(s.ctx, s.chatID, s.replyTo, text)
		if err != nil {
			// Telegram may have created it anyway; then it stays as a partial message.
			s.log.DebugContext(s.ctx, "streaming: draft not sent", "chat_id", s.chatID, "err", err)
			return false
		}
		s.messageID, s.shown, *next = id, text, time.Now().Add(s.interval)
		return true
	}
	err := s.d.redraft(s.ctx, s.chatID, s.messageID, text)
	if err == nil {
		s.edits.Inc()
		s.shown, *next = text, time.Now().Add(s.interval)
		return true
	}
	if errors.Is(err, errBusy) {
		*next = time.Now().Add(s.interval) // skipped; the next progress tries again
		return true
	}
	wait, retry := retryDelay(err)
	if !retry || s.ctx.Err() != nil {
		s.log.DebugContext(s.ctx, "streaming: edits stopped", "chat_id", s.chatID, "message_id", s.messageID, "err", err)
		return false
	}
	*next = time.Now().Add(max(wait, s.interval))
	s.poke() // the text is still to be shown
	return true
}

// poke has run look at the text again.
func (s *streamer) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// sleepUntil waits until t or stop; it reports false on stop.
func (s *streamer) sleepUntil(t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-s.quit:
		return false
	case <-timer.C:
		return true
	}
}

// retryDelay says whether a failed edit is worth another try, and the least wait before it:
// Telegram's flood wait after a 429, none beyond the usual interval after a server or
// transport error. Other client errors (message deleted, chat gone) end streaming.
func retryDelay(err error) (time.Duration, bool) {
	e, ok := apiError(err)
	switch {
	case !ok:
		return 0, true
	case e.Code == http.StatusTooManyRequests:
		return time.Duration(max(e.RetryAfter, 1)) * time.Second, true
	case e.Code >= 400 && e.Code < 500:
		return 0, false
	default:
		return 0, true
	}
}

// clipDraft is the text a draft shows: trimmed (Telegram trims too, so untrimmed texts would
// look changed when they are not) and cut with "…" to one message.
func clipDraft(s string) string {
	s = strings.TrimSpace(s)
	if tgmd.UTF16Len(s) <= maxMessageUnits {
		return s
	}
	return strings.TrimRightFunc(tgmd.UTF16Slice(s, 0, maxMessageUnits-1), unicode.IsSpace) + "…"
}

func visibleChars(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// sendAnswer delivers a question's answer: over the streamed draft message when edits showed
// one, as new messages otherwise (a native draft vanishes when they arrive).
func (c *core) sendAnswer(ctx context.Context, out outgoing, s *streamer) error {
	id := s.draftID()
	if id == 0 {
		return c.send(ctx, out)
	}
	if err := s.d.sendOver(ctx, out, id); err != nil {
		c.metrics.errors.WithLabelValues("send").Inc()
		return fmt.Errorf("send: %w", err)
	}
	c.metrics.replies.Add(float64(len(out.parts)))
	return nil
}
