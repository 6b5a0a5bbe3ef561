package main

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/finbot/finbot/config"
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

	llmCalls, cbrCalls map[string]int
	conns              map[string]int64
	metrics            map[string]float64
	logs               []countedLine

	goroutinesBefore, goroutinesAfter int
	leftover                          []countedLine
	peaks                             peaks
	peakRSSKB                         int64
	cpuBefore, cpu                    time.Duration
}

// Telegram's published limits (core.telegram.org/bots/faq) and the bot's own buckets
// (bot/ratelimit.go), for the limits table.
type limit struct {
	name      string
	window    time.Duration
	telegram  int     // messages per window
	rate      float64 // the bot's bucket: tokens per second
	burst     int
	bucketFor func(sendRecord) (key int64, ok bool)
}

// allows is the most sends the bot's bucket lets through in one window: a full bucket, then
// what refills during the window.
func (l limit) allows() int { return l.burst + int(l.rate*l.window.Seconds()) }

var limits = []limit{
	{"per private chat, any 1 s", time.Second, 1, 1, 3, func(s sendRecord) (int64, bool) { return s.chatID, !s.group }},
	{"per group, any 60 s", time.Minute, 20, 20.0 / 60, 5, func(s sendRecord) (int64, bool) { return s.chatID, s.group }},
	{"global, any 1 s", time.Second, 30, 30, 30, func(sendRecord) (int64, bool) { return 0, true }},
}

type limitResult struct {
	limit
	maxInWindow int
	over        int // sends that made a window exceed Telegram's figure by more than one
	outside     int // sends the bot's own bucket (replayed, with the jitter allowed) would not have allowed
	// outsideStalls is outside when sends may be as late as the worst scheduling delay the
	// driver saw: what is left is not explained by the process being stalled.
	outsideStalls int
	worstKey      int64
	worstAt       time.Time // the last send of the fullest window
}

func (r *result) limitResults() []limitResult {
	var out []limitResult
	for _, l := range limits {
		byKey := map[int64][]time.Time{}
		for _, s := range r.rec.sends {
			if k, ok := l.bucketFor(s); ok {
				byKey[k] = append(byKey[k], s.at)
			}
		}
		lr := limitResult{limit: l}
		// A send may arrive at the fake Bot API up to jitter later than the bot's limiter
		// released it (HTTP, scheduling): the replay allows that many tokens more.
		extra := max(1, int(math.Ceil(l.rate*r.s.jitter.Seconds())))
		for k, ts := range byKey {
			sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
			i := 0
			for j := range ts {
				for ts[j].Sub(ts[i]) >= l.window {
					i++
				}
				n := j - i + 1
				if n > l.telegram+1 { // one more is where a window's edge falls, not a burst
					lr.over++
				}
				if n > lr.maxInWindow {
					lr.maxInWindow, lr.worstAt, lr.worstKey = n, ts[j], k
				}
			}
			lr.outside += outsideBucket(ts, l.rate, l.burst+extra)
			lr.outsideStalls += outsideBucket(ts, l.rate, l.burst+max(extra, int(math.Ceil(l.rate*r.peaks.lateMax.Seconds()))))
		}
		out = append(out, lr)
	}
	return out
}

// outsideBucket replays a token bucket over the (sorted) send times and counts the sends it
// would not have allowed.
func outsideBucket(ts []time.Time, rate float64, burst int) int {
	n := 0
	tokens, last := float64(burst), ts[0]
	for _, t := range ts {
		tokens = math.Min(float64(burst), tokens+t.Sub(last).Seconds()*rate)
		last = t
		if tokens < 1 {
			n++
			tokens = 0
			continue
		}
		tokens--
	}
	return n
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
}

func (r *result) counts() counts {
	c := counts{errorsBy: map[string]int{}}
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	for _, m := range r.rec.byUpdate {
		if m.chatter {
			c.chatter++
		}
	}
	for _, m := range r.messages() {
		c.total++
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
// bot should not have given, a send no message accounts for, a send outside the bot's own
// buckets, a malformed send.
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
		if lr.outside > 0 {
			out = append(out, fmt.Sprintf("%s: %d sends outside the bot's own bucket", lr.name, lr.outside))
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
		out = append(out, "bot.Run: "+r.runErr.Error())
	}
	sort.Strings(out)
	return out
}
