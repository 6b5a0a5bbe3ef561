package bot

import (
	"context"
	"math"
	"net/http"
	"sync/atomic"
	"time"
)

// Native draft streaming: Bot API 9.5 opened sendMessageDraft to every bot. A private chat
// shows the draft as a bubble that grows (animated) and that the client drops when the bot's
// next message arrives or 30 s pass without an update; the final answer is then an ordinary
// message, with its formatting and buttons, and there is nothing to edit or delete. Drafts are
// no messages: they cost nothing of the chat's send budget. Wire format and errors:
// testdata/send_message_draft.md.

// StreamMode says how an answer shows while it is written.
type StreamMode string

const (
	// StreamAuto streams private chats as native drafts, and with edits where the Bot API
	// refuses them (an older server, an emulator). The default.
	StreamAuto StreamMode = "auto"
	// StreamDraft streams private chats as native drafts only: nothing where they are refused.
	StreamDraft StreamMode = "draft"
	// StreamEdit streams private chats as a message edited at most once a second (the way
	// before Bot API 9.5).
	StreamEdit StreamMode = "edit"
	// StreamOff shows only the final answer.
	StreamOff StreamMode = "off"
)

// Streaming's pace.
const (
	// draftInterval is the least time between two native drafts: smooth enough to read, few
	// enough calls (Telegram leaves their limit unspecified; others use 250 ms – 1 s).
	draftInterval = 300 * time.Millisecond
	// draftRefresh renews a draft whose text has not changed, before the client drops it (30 s).
	draftRefresh = 20 * time.Second
	// draftTimeout bounds one sendMessageDraft: the final answer waits for the call in flight.
	draftTimeout = 5 * time.Second
	// editInterval is the least time between two edits in a private chat.
	editInterval = time.Second
)

// streamConfigFor is the pace of a mode; "" and unknown modes are StreamAuto. Groups never
// stream (see defaultStreamConfig).
func streamConfigFor(m StreamMode) streamConfig {
	c := streamConfig{interval: editInterval, groupInterval: -1, minChars: 20, native: true, draftInterval: draftInterval}
	switch m {
	case StreamDraft:
		c.interval = -1
	case StreamEdit:
		c.native = false
	case StreamOff:
		c.interval, c.native = -1, false
	}
	return c
}

// nativeDrafter is a front end that can show native drafts. Telegram can.
type nativeDrafter interface {
	// sendDraft shows text as the draft draftID in the private chat chatID.
	sendDraft(ctx context.Context, chatID int64, draftID int, text string) error
}

// nativeDrafts is what a bot knows of sendMessageDraft: the draft ids it handed out, whether
// the Bot API refused the method, after which the bot does not try it again, and whether it
// refused the stop button (can_stop, drafts.go).
type nativeDrafts struct {
	last    atomic.Uint32
	refused atomic.Bool
	noStop  atomic.Bool
}

// next is a new draft_id: 1, 2, … (never 0, which Telegram refuses).
func (n *nativeDrafts) next() int { return int((n.last.Add(1)-1)%math.MaxInt32) + 1 }

// refuse records that the Bot API refused drafts; it reports whether this is news.
func (n *nativeDrafts) refuse() bool { return n.refused.CompareAndSwap(false, true) }

// nativeFor is the native drafter for a question, nil when its answer is not to stream as a
// native draft: a group, a front end without drafts, StreamEdit or StreamOff, or a Bot API
// that refused them.
func (c *core) nativeFor(in incoming) nativeDrafter {
	nd, ok := c.out.(nativeDrafter)
	if !ok || !c.stream.native || in.group || c.natives.refused.Load() {
		return nil
	}
	return nd
}

// native shows the latest text as the answer's draft, at most once per draftEvery; renew
// re-sends an unchanged text before the client drops it. When the Bot API refuses drafts the
// bot remembers it and the answer goes on with edits (if allowed). It reports false when
// streaming ends.
func (s *streamer) native(next *time.Time, renew bool) bool {
	if t := s.text(); t == "" || t == s.shown && !renew {
		return true
	}
	if !s.sleepUntil(*next) {
		return false
	}
	text := s.text()
	select {
	case <-s.quit: // the answer is ready: it clears the draft when it arrives
		return false
	default:
	}
	if s.ctx.Err() != nil {
		return false
	}
	// Not cancelled with the answer: a draft must be settled before the reply that follows it
	// (the answer, or the notice of a cancelled one) is sent, or it could show up after it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), draftTimeout)
	err := s.nd.sendDraft(ctx, s.chatID, s.nativeID, text)
	cancel()
	if err == nil {
		s.drafts.Inc()
		s.shown, *next = text, time.Now().Add(s.draftEvery)
		s.armRefresh()
		return true
	}
	refused, wait, retry := draftFailure(err)
	switch {
	case refused:
		if s.natives.refuse() {
			s.log.WarnContext(s.ctx, "sendMessageDraft refused: streaming with edits from now on", "chat_id", s.chatID, "err", err)
		}
		s.nd, s.shown, *next = nil, "", time.Time{}
		s.stopRefresh()
		if s.interval < 0 {
			return false
		}
	case !retry || s.ctx.Err() != nil:
		s.log.DebugContext(s.ctx, "streaming: drafts stopped", "chat_id", s.chatID, "err", err)
		return false
	default:
		// What the chat shows now is unknown: the latest text is sent after the wait.
		s.shown, *next = "", time.Now().Add(max(wait, s.draftEvery))
	}
	s.poke()
	return true
}

// draftFailure reads a failed sendMessageDraft: refused (the Bot API lacks the method or does
// not allow it: 404, 400, or an answer that is no Bot API object, as emulators give), worth a
// retry after wait (flood control, server and transport errors), or neither (401, 403: the
// answer's delivery will tell).
func draftFailure(err error) (refused bool, wait time.Duration, retry bool) {
	e, ok := apiError(err)
	switch {
	case !ok:
		return false, time.Second, true
	case e.Code == http.StatusTooManyRequests:
		return false, time.Duration(max(e.RetryAfter, 1)) * time.Second, true
	case e.Code == 0 || e.Code == http.StatusBadRequest || e.Code == http.StatusNotFound:
		return true, 0, false
	case e.Code < 500:
		return false, 0, false
	default:
		return false, time.Second, true
	}
}

// armRefresh (re)starts the timer that renews the draft.
func (s *streamer) armRefresh() {
	if s.refresh == nil {
		s.refresh = time.NewTimer(draftRefresh)
		return
	}
	s.refresh.Reset(draftRefresh)
}

func (s *streamer) stopRefresh() {
	if s.refresh != nil {
		s.refresh.Stop()
	}
}

// refreshC fires when the native draft needs renewing; nil (never) without one.
func (s *streamer) refreshC() <-chan time.Time {
	if s.refresh == nil || s.nd == nil {
		return nil
	}
	return s.refresh.C
}
