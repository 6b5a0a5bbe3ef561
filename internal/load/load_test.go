package load

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// A small load through the real wiring (app.New): every kind of message is played and
// answered — uploads are fetched through getFile and their captions asked about the stored
// document, news goes to the Tavily stand-in —, nothing answers the group chatter, every send
// is accounted for and within the bot's send limits (allowing 100 ms of delay after the
// limiter, or the worst scheduling delay measured, for loaded CI machines), and shutdown
// leaves none of the bot's goroutines behind. No timings are asserted.
func TestSmallLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 60 messages through the whole bot")
	}
	stores := []struct{ name, flag string }{{"memory", "-memory"}}
	if url := os.Getenv("REDIS_URL"); url != "" {
		stores = append(stores, struct{ name, flag string }{"redis", "-redis=" + url})
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			s, err := parse([]string{"-users=20", "-messages=3", "-groups=1", "-group-size=2", "-chatter=0.5", "-seed=5",
				"-think-min=50ms", "-think-max=150ms", "-ramp=500ms",
				"-llm-latency=20ms", "-llm-chunks=4", "-llm-chunk-gap=5ms", "-cbr-latency=10ms",
				"-reply-timeout=2m", "-drain=1m", "-timeout=4m", "-jitter=100ms", st.flag}, func(string) string { return "" }, os.Stderr)
			if err != nil {
				t.Fatal(err)
			}
			res, err := play(t.Context(), s, testWriter{t})
			if err != nil {
				t.Fatal(err)
			}
			report := res.markdown()
			if problems := machineProblemsAside(t, res); len(problems) > 0 {
				t.Errorf("problems:\n- %s\n\n%s", strings.Join(problems, "\n- "), report)
			}
			c := res.counts()
			if c.total != 60 || c.replied != 60 {
				t.Errorf("replied %d of %d messages, want 60 of 60", c.replied, c.total)
			}
			if c.chatter == 0 {
				t.Error("no group chatter was played; the silence check did not run")
			}
			for _, sc := range scenarios {
				if c.byScenario[sc.name] == 0 {
					t.Errorf("no %s message was played (the seed's mix: %v)", sc.name, c.byScenario)
				}
			}
			if res.downloads != int64(c.byScenario["upload"]) {
				t.Errorf("the bot fetched %d files, want the %d uploaded", res.downloads, c.byScenario["upload"])
			}
			for _, m := range res.messages() {
				if m.upload != nil && !m.continued {
					t.Errorf("the caption of upload %d (%q) was not asked about the stored document", m.idx, m.text)
				}
			}
			if res.tavilyCalls["search"] == 0 {
				t.Errorf("no news search reached the Tavily stand-in: %v", res.tavilyCalls)
			}
			if res.store == "" || !strings.Contains(report, "100.00%") {
				t.Errorf("report lacks the reply rate:\n%s", report)
			}
			// Whatever the bot, its HTTP clients and the driver started must have exited.
			var left []string
			for _, l := range res.leftover {
				if strings.Contains(l.what, "github.com/finbot/finbot/") || strings.Contains(l.what, "net/http.") {
					left = append(left, fmt.Sprintf("%d × %s", l.n, l.what))
				}
			}
			if len(left) > 0 {
				t.Errorf("goroutines left after shutdown (%d before the run, %d after):\n%s",
					res.goroutinesBefore, res.goroutinesAfter, strings.Join(left, "\n"))
			}
			t.Logf("goroutines: %d before the run, %d after shutdown", res.goroutinesBefore, res.goroutinesAfter)
		})
	}
}

// machineProblemsAside is res.problems() less a window over a limit at receipt that the
// machine explains: the hand-off times are within the limit (with the run's measured
// tolerance), and some send took longer from hand-off to the fake Bot API than the limit's
// guard. How long a request takes over loopback on a loaded CI machine is not the bot's doing,
// and a test that failed on it would fail by chance (it did, at 85 ms against the private
// chats' 50 ms guard). A run by hand (go run ./internal/load) still fails on it; here it is
// logged. An overfull window at receipt while every send arrived within the guard still fails.
func machineProblemsAside(t *testing.T, res *result) []string {
	t.Helper()
	var slowest time.Duration
	for _, l := range res.lags() {
		slowest = max(slowest, l)
	}
	aside := map[string]bool{}
	for _, lr := range res.limitResults() {
		if lr.overAtReceipt > 0 && lr.unexplained == 0 && slowest > lr.Guard {
			aside[lr.Name] = true
		}
	}
	var out []string
	for _, p := range res.problems() {
		name, _, _ := strings.Cut(p, ":")
		if aside[name] && strings.Contains(p, "at receipt") {
			t.Logf("not failing on what the machine explains (a send took %s from hand-off to the Bot API): %s", slowest, p)
			continue
		}
		out = append(out, p)
	}
	return out
}

// testWriter sends the driver's progress lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
