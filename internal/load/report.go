package load

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/finbot/finbot/internal/app"
	"github.com/finbot/finbot/ru"
)

func (r *result) markdown() string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	s := r.s
	c := r.counts()
	wall := r.drained.Sub(r.started)
	if n := len(r.rec.sends); n > 0 {
		wall = r.rec.sends[n-1].at.Sub(r.started)
	}

	p("# finbot load run: %d users × %d messages\n\n", s.users, s.messages)
	p("- Command: `%s`\n", s.command)
	p("- Date: %s\n", r.started.UTC().Format("2006-01-02 15:04 MST"))
	p("- Machine: %s, %d logical CPUs (GOMAXPROCS %d), %s %s/%s\n", cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0),
		runtime.Version(), runtime.GOOS, runtime.GOARCH)
	p("- Bot: built by `app.New` (internal/app), as `finbot serve` builds it (ops server on a loopback port), long polling an in-process fake Bot API\n")
	p("- History and de-duplication: %s\n", r.store)
	p("- Stand-ins: LLM %s to the first byte, streamed answers in %d chunks %s apart; Bank of Russia SOAP %s; Tavily /search %s; 1C: the embedded demo ledger\n",
		dur(s.llmLatency), s.llmChunks, dur(s.llmGap), dur(s.cbrLatency), dur(s.tavilyLatency))
	p("- Users: %d (%d in %d groups of %d, mentioning the bot; the rest in private chats); each waits for the first reply, thinks %s–%s, sends the next; starts spread over %s\n",
		s.users, r.pop.groups*s.groupSize, r.pop.groups, s.groupSize, dur(s.thinkMin), dur(s.thinkMax), dur(s.ramp))
	p("- Bot settings: USER_RATE_PER_MIN=%d, USER_RATE_BURST=%d, ANSWER_TIMEOUT=%s, LLM_TIMEOUT=%s\n\n",
		r.cfg.UserRatePerMin, r.cfg.UserRateBurst, r.cfg.AnswerTimeout, r.cfg.LLMTimeout)

	p("## Result\n\n| | |\n|---|---|\n")
	p("| Messages sent to the bot | %d (%d users × %d): %s |\n", c.queued, s.users, s.messages, joinCounts(c.byScenario))
	p("| **Replied (≥ 1 message back)** | **%d / %d = %.2f%%** |\n", c.replied, c.total, 100*float64(c.replied)/float64(max(c.total, 1)))
	p("| Answers that were error texts | %d |\n", c.errors)
	p("| Group chatter not addressed to the bot | %d messages, %d answered (must be 0) |\n", c.chatter, len(r.rec.unexpected))
	p("| Users who gave up waiting (%s) | %d |\n", dur(s.replyTimeout), c.gaveUp)
	var first []time.Duration
	for _, m := range r.messages() {
		if !m.firstReply.IsZero() && !m.handedOut.IsZero() {
			first = append(first, m.firstReply.Sub(m.handedOut))
		}
	}
	p("| **First reply** (hand-out → first send; below in detail) | **p50 %s, p95 %s, p99 %s** |\n", dur(pct(first, .5)), dur(pct(first, .95)), dur(pct(first, .99)))
	p("| **Peak memory** of the process (bot, fake Bot API, stand-ins, driver) | **RSS %s** (VmHWM; %s sampled); Go heap in use %s; held by the Go runtime %s |\n",
		mib(r.peakRSSKB), mib(r.peaks.rssKB), mibBytes(r.peaks.heapInuse), mibBytes(r.peaks.sys))
	p("| Documents uploaded (downloaded through getFile) | %d (%d) |\n", c.byScenario["upload"], r.downloads)
	p("| Run time (start to the last send) | %s |\n", dur(wall))
	p("| Shutdown (cancel to `Run` returning) | %s |\n", dur(r.stopped.Sub(r.drained)))
	sends := map[string]int{}
	for _, x := range r.rec.sends {
		sends[x.method]++
	}
	p("| Bot API sends | %d: %s |\n", len(r.rec.sends), joinCounts(sends))
	p("| Other Bot API calls | sendChatAction %d, deleteMessage %d |\n", len(r.rec.actions), r.rec.deletes)
	if len(r.rec.rejected) > 0 {
		p("| Bot API errors returned | %s |\n", joinCounts(r.rec.rejected))
	}
	p("| Telegram's floor for this many sends at 30/s | %s |\n\n", dur(time.Duration(float64(len(r.rec.sends))/30*float64(time.Second))))

	var all timing
	for _, m := range r.messages() {
		if !m.firstReply.IsZero() && !m.handedOut.IsZero() {
			all.add(m)
		}
	}
	p("## Latency of the first reply (%d messages)\n\n", len(all.e2e))
	p("Hand-out is the moment the fake Bot API returned the update from getUpdates; the first reply is the first sendMessage (a streamed draft counts) for that message.\n\n")
	p("| | p50 | p95 | p99 | max |\n|---|---|---|---|---|\n")
	row := func(name string, ds []time.Duration) {
		p("| %s | %s | %s | %s | %s |\n", name, dur(pct(ds, .5)), dur(pct(ds, .95)), dur(pct(ds, .99)), dur(pct(ds, 1)))
	}
	row("End to end: hand-out → first reply", all.e2e)
	row("End to end: hand-out → last send of the answer (final edit, last part)", all.complete)
	row("Stand-ins (LLM, Bank of Russia, Tavily) waited for in that time", all.stand)
	row("**Bot's own latency** = end to end − stand-ins", all.own)
	var private, group timing
	for _, m := range r.messages() {
		if m.firstReply.IsZero() || m.handedOut.IsZero() {
			continue
		}
		if m.chat.group {
			group.add(m)
		} else {
			private.add(m)
		}
	}
	row(fmt.Sprintf("… in private chats (%d)", len(private.own)), private.own)
	row(fmt.Sprintf("… in groups (%d; Telegram allows 20 messages a minute per group)", len(group.own)), group.own)
	row("… of which waiting for the chat's earlier messages (hand-out → agent called)", all.queue)
	row("Agent (`Answer` call, stand-ins included)", all.agent)
	row(fmt.Sprintf("Agent done → first reply, for the %d answers not streamed (formatting + the send limiter)", len(all.afterAgent)), all.afterAgent)
	row("Update waiting in getUpdates' queue (queued → hand-out)", all.pickup)
	p("\n")

	p("## Per scenario\n\n| Scenario | Messages | Replied | Errors | e2e p50 | e2e p95 | own p50 | own p95 | LLM calls / msg | Routed as | Sample first reply |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, sc := range scenarios {
		var t timing
		n, replied, errs, llmCalls := 0, 0, 0, 0
		routes := map[string]int{}
		sample := ""
		for _, m := range r.messages() {
			if m.scenario != sc.name {
				continue
			}
			n++
			llmCalls += m.llmCalls
			if m.answerErr != nil {
				errs++
			}
			if m.agentScen != "" {
				routes[strings.Trim(m.agentScen+"/"+m.intent, "/")]++
			}
			if !m.firstReply.IsZero() {
				replied++
				t.add(m)
				if sample == "" && len(m.replyTexts) > 0 {
					sample = clip(m.replyTexts[0], 60)
				}
			}
		}
		if n == 0 {
			continue
		}
		p("| %s | %d | %d | %d | %s | %s | %s | %s | %.2f | %s | %s |\n", sc.name, n, replied, errs,
			dur(pct(t.e2e, .5)), dur(pct(t.e2e, .95)), dur(pct(t.own, .5)), dur(pct(t.own, .95)),
			float64(llmCalls)/float64(n), topCounts(routes, 2), sample)
	}
	p("\n")

	p("## Send rate against Telegram's limits\n\n")
	tol := r.tolerance()
	lags := r.lags()
	p("Counted: every sendMessage, editMessageText, sendPhoto and sendDocument (the bot's limiter paces edits too), each at two moments: ")
	p("**receipt**, when the fake Bot API got the request (what Telegram counts), and **hand-off**, when the bot's HTTP client was handed it, just after the send limiter let it go. ")
	p("The limits are the bot's own (`bot.PrivateChatLimit`, `bot.GroupLimit`, `bot.GlobalLimit` in bot/ratelimit.go): at most Max sends in any window. ")
	p("A window at receipt can hold one send more than the limiter let through when an earlier send took longer from hand-off to receipt than a later one; ")
	p("so the run fails only on sends that overfill a window at hand-off even when the window is shortened by a tolerance of %s ", dur(tol))
	if tol > r.s.jitter {
		p("(the worst scheduling delay the driver measured, above -jitter %s)", dur(r.s.jitter))
	} else {
		p("(-jitter; the worst scheduling delay measured was %s)", dur(r.peaks.lateMax))
	}
	p(" for a send being stamped late after the limiter released it. ")
	p("Hand-off → receipt: p50 %s, p99 %s, max %s.\n\n", dur(pct(lags, .5)), dur(pct(lags, .99)), dur(pct(lags, 1)))
	p("| Limit | Telegram (FAQ) | The bot's limit: window, bucket | Max in any window at receipt | Sends over the limit at receipt | Max in any window at hand-off | Sends over the limit beyond the tolerance (must be 0) |\n|---|---|---|---|---|---|---|\n")
	for _, lr := range r.limitResults() {
		p("| %s | %s | %d per %s; bucket %s/s, burst %d | %d | %d | %d | %d |\n", lr.Name, lr.telegram, lr.Max, dur(lr.Window),
			trimFloat(float64(lr.Rate)), lr.Burst, lr.maxAtReceipt, lr.overAtReceipt, lr.maxAtHandoff, lr.unexplained)
	}
	for _, lr := range r.limitResults() {
		if lr.maxAtReceipt >= lr.Max && lr.maxAtReceipt > 1 {
			p("\nFullest window %s at receipt: %d sends ending at +%s", lr.Name, lr.maxAtReceipt, dur(lr.worstAt.Sub(r.started)))
			if lr.Name != app.SendLimits().Global.Name {
				p(" (chat %d)", lr.worstKey)
			}
			p(".")
		}
	}
	if len(r.peaks.worstLate) > 0 {
		p(" Latest wake-ups of the driver's 200 ms sleep:")
		for _, l := range r.peaks.worstLate {
			p(" %s late at +%s;", dur(l.late), dur(l.at.Sub(r.started)))
		}
	}
	p("\n")
	p("\nSustained: global max %d sends in any 10 s (%.1f/s), %d in any 60 s (%.1f/s). sendChatAction (the bot skips refreshes over 10 a second, burst 10): %d in the busiest second.\n\n",
		maxIn(r.rec.sends, 10*time.Second), float64(maxIn(r.rec.sends, 10*time.Second))/10,
		maxIn(r.rec.sends, time.Minute), float64(maxIn(r.rec.sends, time.Minute))/60, maxIn(r.rec.actions, time.Second))

	p("## Resources\n\n| | |\n|---|---|\n")
	p("| Peak RSS (VmHWM, whole process: bot, fake Bot API, stand-ins, driver) | %s |\n", mib(r.peakRSSKB))
	p("| Peak Go heap in use (sampled every 200 ms) | %.0f MiB |\n", float64(r.peaks.heapInuse)/(1<<20))
	p("| Peak goroutines during the run | %d |\n", r.peaks.goroutines)
	p("| CPU time of the process (user + system) | %s over %s of run (%.0f%% of one CPU) |\n", dur(r.cpu), dur(r.stopped.Sub(r.started)),
		100*r.cpu.Seconds()/max(r.stopped.Sub(r.started).Seconds(), 1e-9))
	p("| Machine load average (1 min) during the run | mean %.1f, max %.1f on %d CPUs |\n", r.peaks.loadMean, r.peaks.loadMax, runtime.NumCPU())
	p("| Scheduling delay (a 200 ms sleep waking late) | max %s; %d wake-ups over 250 ms late |\n", dur(r.peaks.lateMax), r.peaks.lateOver)
	p("| Goroutines before the run → after shutdown | %d → %d |\n", r.goroutinesBefore, r.goroutinesAfter)
	p("| Connections opened to the stand-ins | %s |\n", joinCounts64(r.conns))
	p("| LLM calls by kind | %s |\n", joinCounts(r.llmCalls))
	p("| Bank of Russia calls | %s |\n", joinCounts(r.cbrCalls))
	p("| Tavily calls | %s |\n\n", joinCounts(r.tavilyCalls))
	if len(r.leftover) > 0 {
		p("Goroutines left after shutdown, by creator:\n\n")
		for _, l := range r.leftover {
			p("- %d × %s\n", l.n, l.what)
		}
		p("\n")
	}

	p("## The bot's own counters\n\n")
	var names []string
	for k := range r.metrics {
		if strings.HasPrefix(k, "finbot_") {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		p("- `%s` %g\n", k, r.metrics[k])
	}
	if len(r.logs) > 0 {
		p("\nWarnings and errors the bot logged:\n\n")
		for i, l := range r.logs {
			if i == 15 {
				p("- … %d more kinds\n", len(r.logs)-i)
				break
			}
			p("- %d × %s\n", l.n, l.what)
		}
	}
	if pr := r.problems(); len(pr) > 0 {
		p("\n## Problems\n\n")
		for _, x := range pr {
			p("- %s\n", x)
		}
	}
	if len(c.errorsBy) > 0 {
		p("\nAgent errors: %s\n", joinCounts(c.errorsBy))
	}
	return b.String()
}

func joinCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func joinCounts64(m map[string]int64) string {
	n := make(map[string]int, len(m))
	for k, v := range m {
		n[k] = int(v)
	}
	return joinCounts(n)
}

func topCounts(m map[string]int, k int) string {
	s := strings.Split(joinCounts(m), ", ")
	if len(s) > k {
		s = append(s[:k], "…")
	}
	return strings.Join(s, ", ")
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	return ru.Truncate(strings.ReplaceAll(s, "|", "\\|"), n)
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.3f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// tsv is one line per message, for looking into a run.
func (r *result) tsv() string {
	var b strings.Builder
	b.WriteString("idx\tchat\tuser\tscenario\ttext\thanded_out_s\te2e_ms\tcomplete_ms\tstand_ins_ms\tqueue_ms\tagent_ms\troute\tllm_calls\tsends\tedits\terror\tfirst_reply\n")
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }
	for _, m := range r.messages() {
		errText := ""
		if m.answerErr != nil {
			errText = m.answerErr.Error()
		}
		first := ""
		if len(m.replyTexts) > 0 {
			first = clip(m.replyTexts[0], 80)
		}
		fmt.Fprintf(&b, "%d\t%d\t%d\t%s\t%s\t%.3f\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\n",
			m.idx, m.chat.id, m.user.id, m.scenario, m.text, m.handedOut.Sub(r.started).Seconds(),
			ms(m.firstReply.Sub(m.handedOut)), ms(m.lastSend.Sub(m.handedOut)), ms(covered(m.standIn, m.handedOut, m.firstReply)),
			ms(m.answerStart.Sub(m.handedOut)), ms(m.answerEnd.Sub(m.answerStart)),
			strings.Trim(m.agentScen+"/"+m.intent, "/"), m.llmCalls, m.sends, m.edits, errText, first)
	}
	return b.String()
}

func dur(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	default:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
}
