package load

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// peaks are the highest values sampled during the run.
type peaks struct {
	goroutines int
	heapInuse  uint64
	sys        uint64 // memory the Go runtime holds from the OS (runtime.MemStats.Sys)
	rssKB      int64  // resident set, sampled (VmRSS)
	// load is the machine's 1-minute load average: the highest and the mean of the samples.
	loadMax, loadMean float64
	// late is how much later than asked a short sleep woke up: the worst case, and how many
	// wake-ups were over 250 ms late. Large values mean the process did not get the CPU (a
	// busy or shared machine), which bunches up whatever the bot had scheduled.
	lateMax   time.Duration
	lateOver  int
	worstLate []lateWake // the five latest wake-ups
	samples   int
	cpuBefore time.Duration
}

type lateWake struct {
	at   time.Time
	late time.Duration
}

// sample records the peaks of the process every interval until ctx is done.
func sample(ctx context.Context, every time.Duration) peaks {
	var p peaks
	var ms runtime.MemStats
	var loadSum float64
	for {
		p.goroutines = max(p.goroutines, runtime.NumGoroutine())
		runtime.ReadMemStats(&ms)
		p.heapInuse = max(p.heapInuse, ms.HeapInuse)
		p.sys = max(p.sys, ms.Sys)
		p.rssKB = max(p.rssKB, procStatusKB("VmRSS"))
		if l, ok := loadAvg(); ok {
			p.loadMax = max(p.loadMax, l)
			loadSum += l
			p.samples++
			p.loadMean = loadSum / float64(p.samples)
		}
		asked := time.Now()
		t := time.NewTimer(every)
		select {
		case <-ctx.Done():
			t.Stop()
			return p
		case <-t.C:
		}
		late := time.Since(asked) - every
		p.lateMax = max(p.lateMax, late)
		if late > 250*time.Millisecond {
			p.lateOver++
		}
		p.worstLate = append(p.worstLate, lateWake{at: asked, late: late})
		sort.Slice(p.worstLate, func(i, j int) bool { return p.worstLate[i].late > p.worstLate[j].late })
		p.worstLate = p.worstLate[:min(len(p.worstLate), 5)]
	}
}

// loadAvg is the 1-minute load average of the machine (Linux).
func loadAvg() (float64, bool) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0, false
	}
	l, err := strconv.ParseFloat(f[0], 64)
	return l, err == nil
}

// cpuTime is the CPU time the process has used, user and system (Linux: /proc/self/stat, in
// ticks of 1/100 s); 0 elsewhere.
func cpuTime() time.Duration {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s) // f[0] is field 3 (state); utime and stime are fields 14 and 15
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	k, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+k) * 10 * time.Millisecond
}

// procStatusKB reads a "kB" line of /proc/self/status (VmHWM is the peak resident set); 0
// where there is no /proc.
func procStatusKB(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// goroutineCreators groups the running goroutines (but this one) by the function that started
// them.
func goroutineCreators() []countedLine {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	counts := map[string]int{}
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i == 0 {
			continue // the caller
		}
		creator := "(no creator: a runtime goroutine)"
		lines := strings.Split(g, "\n")
		for j, l := range lines {
			if c, ok := strings.CutPrefix(l, "created by "); ok {
				c, _, _ = strings.Cut(c, " in goroutine")
				creator = c
				if j+1 < len(lines) {
					creator += " (" + shortPath(strings.TrimSpace(lines[j+1])) + ")"
				}
			}
		}
		counts[creator]++
	}
	out := make([]countedLine, 0, len(counts))
	for k, v := range counts {
		out = append(out, countedLine{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].n > out[j].n || out[i].n == out[j].n && out[i].what < out[j].what })
	return out
}

// shortPath keeps the module-relative part of a stack line's file path.
func shortPath(s string) string {
	s, _, _ = strings.Cut(s, " +0x")
	if i := strings.Index(s, "/pkg/mod/"); i >= 0 {
		return s[i+len("/pkg/mod/"):]
	}
	if i := strings.Index(s, "/finbot/"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// gather reads the bot's counters: "name{label=value}" → value.
func gather(reg *prometheus.Registry) map[string]float64 {
	out := map[string]float64{}
	fams, err := reg.Gather()
	if err != nil {
		return out
	}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			name := f.GetName()
			if len(labels) > 0 {
				name += "{" + strings.Join(labels, ",") + "}"
			}
			switch f.GetType().String() {
			case "COUNTER":
				out[name] = m.GetCounter().GetValue()
			case "HISTOGRAM":
				out[name+" count"] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}

// cpuModel is the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// mibBytes is n bytes in MiB.
func mibBytes(n uint64) string { return mib(int64(n / 1024)) }

func mib(n int64) string {
	if n <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/1024)
}
