package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// A small load through the real wiring: every message is answered, nothing answers the group
// chatter, every send is accounted for and within the bot's send limits (allowing 100 ms of
// delay after the limiter, or the worst scheduling delay measured, for loaded CI machines),
// and shutdown leaves none of the bot's goroutines behind. No timings are asserted.
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
			s, err := parse([]string{"-users=20", "-messages=3", "-groups=1", "-group-size=2", "-chatter=0.5", "-seed=7",
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
			if problems := res.problems(); len(problems) > 0 {
				t.Errorf("problems:\n- %s\n\n%s", strings.Join(problems, "\n- "), report)
			}
			c := res.counts()
			if c.total != 60 || c.replied != 60 {
				t.Errorf("replied %d of %d messages, want 60 of 60", c.replied, c.total)
			}
			if c.chatter == 0 {
				t.Error("no group chatter was played; the silence check did not run")
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

// testWriter sends the driver's progress lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
