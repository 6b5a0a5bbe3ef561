package load

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/internal/app"
)

// result is everything a run measured.
type result struct {
	s     settings
	cfg   config.Config
	store string
	pop   population
	rec   *recorder

	started, usersDone, drained, stopped time.Time
	runErr                               error

	llmCalls, cbrCalls, tavilyCalls map[string]int
	downloads                       int64 // files the bot fetched from the fake Bot API
	conns                           map[string]int64
	metrics                         map[string]float64
	logs                            []countedLine

	goroutinesBefore, goroutinesAfter int
	leftover                          []countedLine
	peaks                             peaks
	peakRSSKB                         int64
	cpuBefore, cpu                    time.Duration
}

// limit is one of the limits the bot keeps its sends within (app.SendLimits, the bot's own
// from bot/ratelimit.go, so the check moves with the bot), beside Telegram's published figure
// (core.telegram.org/bots/faq) for the report.
type limit struct {
	app.SendLimit
	telegram string                                // Telegram's figure, as the FAQ gives it
	keyOf    func(sendRecord) (key int64, ok bool) // the chat (or 0) whose window a send counts in; ok false if none
}

var limits = []limit{ // in the order of the report
	// The FAQ says to avoid more than one message a second per chat and that short bursts
	// are tolerated; the bot promises PrivateChatLimit.Max in any second (the parts of a
	// long answer go out together), and that promise is what the run checks.
	{app.SendLimits().PrivateChat, "about 1 a second, short bursts tolerated", func(s sendRecord) (int64, bool) { return s.chatID, !s.group }},
	{app.SendLimits().Group, "20 a minute", func(s sendRecord) (int64, bool) { return s.chatID, s.group }},
	{app.SendLimits().Global, "about 30 a second", func(sendRecord) (int64, bool) { return 0, true }},
}

type limitResult struct {
	limit
	// At receipt: the moment the fake Bot API got the request, which is what Telegram counts.
	maxAtReceipt  int
	overAtReceipt int // sends that made a window at receipt exceed Max
	worstKey      int64
	worstAt       time.Time // the last send of the fullest window at receipt
	// At hand-off: the moment the bot's HTTP client was handed the request, a few
	// microseconds of request building after the limiter let it go.
	maxAtHandoff int
	// unexplained are sends that made a window of Window − tolerance at hand-off exceed Max:
	// more than the limiter allows even granting every send the tolerance of delay after it
	// was let go. Any of them fails the run.
	unexplained int
}

// tolerance is how late after the limiter let a send go its hand-off may be stamped: the
// -jitter flag, or the worst scheduling delay the run measured if that was larger (a process
// that did not get the CPU stamps late whatever the limiter did).
func (r *result) tolerance() time.Duration { return max(r.s.jitter, r.peaks.lateMax) }

func (r *result) limitResults() []limitResult {
	var out []limitResult
	tol := r.tolerance()
	for _, l := range limits {
		type times struct{ at, handoff []time.Time }
		byKey := map[int64]*times{}
		for _, s := range r.rec.sends {
			if k, ok := l.keyOf(s); ok {
				t := byKey[k]
				if t == nil {
					t = &times{}
					byKey[k] = t
				}
				t.at, t.handoff = append(t.at, s.at), append(t.handoff, s.handoff)
			}
		}
		lr := limitResult{limit: l}
		for k, t := range byKey {
			n, over, last := windows(t.at, l.Window, l.Max)
			lr.overAtReceipt += over
			if n > lr.maxAtReceipt {
				lr.maxAtReceipt, lr.worstAt, lr.worstKey = n, last, k
			}
			n, _, _ = windows(t.handoff, l.Window, l.Max)
			lr.maxAtHandoff = max(lr.maxAtHandoff, n)
			_, over, _ = windows(t.handoff, l.Window-tol, l.Max)
			lr.unexplained += over
		}
		out = append(out, lr)
	}
	return out
}

// windows slides a window of length w over ts (sorted in place) and returns the most times in
// one window, how many times made their window hold more than limit, and the last time of
// the fullest window. A window of w holds the times t with last − w < t ≤ last; w ≤ 0 holds
// only equal times.
func windows(ts []time.Time, w time.Duration, limit int) (most, over int, lastOfMost time.Time) {
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	i := 0
	for j := range ts {
		for ts[j].Sub(ts[i]) >= max(w, 1) {
			i++
		}
		n := j - i + 1
		if n > limit {
			over++
		}
		if n > most {
			most, lastOfMost = n, ts[j]
		}
	}
	return most, over, lastOfMost
}

// lags are the hand-off → receipt delays of the sends, sorted.
func (r *result) lags() []time.Duration {
	out := make([]time.Duration, 0, len(r.rec.sends))
	for _, s := range r.rec.sends {
		out = append(out, s.at.Sub(s.handoff))
	}
	return out
}

// maxIn is the most records in any window of length w.
func maxIn(recs []sendRecord, w time.Duration) int {
	ts := make([]time.Time, len(recs))
	for i, r := range recs {
		ts[i] = r.at
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	best, i := 0, 0
	for j := range ts {
		for ts[j].Sub(ts[i]) >= w {
			i++
		}
		best = max(best, j-i+1)
	}
	return best
}

// messages are the addressed messages of the run (chatter excluded).
func (r *result) messages() []*message {
	var out []*message
	for _, u := range r.pop.users {
		out = append(out, u.msgs...)
	}
	return out
}

type timing struct {
	e2e, stand, own, queue, agent, pickup, afterAgent, complete []time.Duration
}

func (t *timing) add(m *message) {
	e2e := m.firstReply.Sub(m.handedOut)
	stand := covered(m.standIn, m.handedOut, m.firstReply)
	t.e2e = append(t.e2e, e2e)
	t.stand = append(t.stand, stand)
	t.own = append(t.own, e2e-stand)
	t.pickup = append(t.pickup, m.handedOut.Sub(m.queued))
	t.complete = append(t.complete, m.lastSend.Sub(m.handedOut))
	if !m.answerStart.IsZero() {
		t.queue = append(t.queue, m.answerStart.Sub(m.handedOut))
	}
	if !m.answerEnd.IsZero() {
		t.agent = append(t.agent, m.answerEnd.Sub(m.answerStart))
		if !m.firstReply.Before(m.answerEnd) { // not streamed: the reply waited for the whole answer
			t.afterAgent = append(t.afterAgent, m.firstReply.Sub(m.answerEnd))
		}
	}
}

// covered is how much of [from, to] the spans cover (overlapping calls count once).
func covered(spans []span, from, to time.Time) time.Duration {
	ss := append([]span(nil), spans...)
	sort.Slice(ss, func(i, j int) bool { return ss[i].from.Before(ss[j].from) })
	var total time.Duration
	var curFrom, curTo time.Time
	flush := func() {
		a, b := maxTime(curFrom, from), minTime(curTo, to)
		if b.After(a) {
			total += b.Sub(a)
		}
	}
	for i, s := range ss {
		if i == 0 || s.from.After(curTo) {
			if i > 0 {
				flush()
			}
			curFrom, curTo = s.from, s.to
			continue
		}
		curTo = maxTime(curTo, s.to)
	}
	if len(ss) > 0 {
		flush()
	}
	return total
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// counts summarises the outcome of every addressed message.
type counts struct {
	total, queued, handed, answered, replied, errors, gaveUp, chatter int
	errorsBy                                                          map[string]int
	byScenario                                                        map[string]int // messages of each kind
}

func (r *result) counts() counts {
	c := counts{errorsBy: map[string]int{}, byScenario: map[string]int{}}
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	for _, m := range r.rec.byUpdate {
		if m.chatter {
			c.chatter++
		}
	}
	for _, m := range r.messages() {
		c.total++
		c.byScenario[m.scenario]++
		if m.updateID != 0 {
			c.queued++
		}
		if !m.handedOut.IsZero() {
			c.handed++
		}
		if !m.answerStart.IsZero() {
			c.answered++
		}
		if !m.firstReply.IsZero() {
			c.replied++
		}
		if m.gaveUp {
			c.gaveUp++
		}
		if m.answerErr != nil {
			c.errors++
			c.errorsBy[m.answerErr.Error()]++
		}
	}
	return c
}

// problems are the reasons the run failed its bar: a message without a reply, an answer the
// bot should not have given, a send no message accounts for, a window of sends over one of
// the bot's limits (app.SendLimit), a malformed send.
func (r *result) problems() []string {
	var out []string
	c := r.counts()
	if c.replied < c.total {
		out = append(out, fmt.Sprintf("%d of %d messages got no reply", c.total-c.replied, c.total))
	}
	if c.errors > 0 {
		out = append(out, fmt.Sprintf("%d answers were error messages", c.errors))
	}
	if n := len(r.rec.unexpected); n > 0 {
		out = append(out, fmt.Sprintf("%d Answer calls matched no message (first: %s)", n, r.rec.unexpected[0]))
	}
	if r.rec.orphanSend > 0 {
		out = append(out, fmt.Sprintf("%d sends while no message of that chat was being answered", r.rec.orphanSend))
	}
	if r.rec.replyToBad > 0 {
		out = append(out, fmt.Sprintf("%d group replies quote another message than the one answered", r.rec.replyToBad))
	}
	for _, lr := range r.limitResults() {
		// What Telegram counts: the bot's windows carry a guard (app.SendLimit.Guard) for
		// exactly this, so a send arriving over the limit is a failure too.
		if lr.overAtReceipt > 0 && lr.unexplained == 0 {
			out = append(out, fmt.Sprintf("%s: %d sends over the limit of %d per %s at receipt (most in a window: %d); the limiter's guard of %s did not cover the delay to the Bot API",
				lr.Name, lr.overAtReceipt, lr.Max, lr.Window, lr.maxAtReceipt, lr.Guard))
		}
		if lr.unexplained > 0 {
			out = append(out, fmt.Sprintf("%s: %d sends over the limit of %d per %s (most in a window: %d at receipt, %d at hand-off; allowing %s of delay after the limiter)",
				lr.Name, lr.unexplained, lr.Max, lr.Window, lr.maxAtReceipt, lr.maxAtHandoff, dur(r.tolerance())))
		}
	}
	for what, n := range r.rec.rejected {
		if !strings.Contains(what, "not modified") && !strings.Contains(what, "not found") {
			out = append(out, fmt.Sprintf("Bot API rejected %d× %s", n, what))
		}
	}
	for m, n := range r.rec.unknown {
		out = append(out, fmt.Sprintf("bot called %s %d× (not served by the fake)", m, n))
	}
	if r.runErr != nil {
		out = append(out, "Run: "+r.runErr.Error())
	}
	sort.Strings(out)
	return out
}
