package extract

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// peakSampler samples the memory the Go runtime holds from the OS for its heap, stacks and
// metadata (total minus released) every 200 µs and keeps the peak: the garbage a parser leaves
// until the next GC counts, as it does for the process. Start it after a GC and a return of
// free memory to the OS, so that the peak is of the measured work (plus the test's baseline).
type peakSampler struct {
	stop chan struct{}
	done chan struct{}
	peak uint64
}

func runtimeHeld() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

func startPeak() *peakSampler {
	runtime.GC()
	debug.FreeOSMemory()
	p := &peakSampler{stop: make(chan struct{}), done: make(chan struct{}), peak: runtimeHeld()}
	go func() {
		defer close(p.done)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			if v := runtimeHeld(); v > p.peak {
				p.peak = v
			}
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// Stop returns the peak in MiB.
func (p *peakSampler) Stop() float64 {
	close(p.stop)
	<-p.done
	if v := runtimeHeld(); v > p.peak {
		p.peak = v
	}
	return float64(p.peak) / (1 << 20)
}

func outcome(err error) string {
	if err == nil {
		return "extracted"
	}
	for _, k := range Kinds {
		if errors.Is(err, k) {
			return k.Error()
		}
	}
	return err.Error()
}

// BenchmarkHostile reports the peak memory of extracting each hostile shape (run with
// -benchtime 1x; docs/benchmarks.md has the table). The goal: at most 256 MiB for any upload.
func BenchmarkHostile(b *testing.B) {
	for _, h := range hostileShapes() {
		b.Run(h.name, func(b *testing.B) {
			data := h.make(b)
			var err error
			var peak float64
			for b.Loop() {
				p := startPeak()
				_, err = Extract(context.Background(), h.file, data, Limits{Timeout: 5 * time.Minute})
				peak = max(peak, p.Stop())
			}
			b.ReportMetric(peak, "peak-MiB")
			b.ReportMetric(float64(len(data))/(1<<20), "input-MiB")
			b.Logf("%s: %d bytes, %s, peak %.0f MiB", h.name, len(data), outcome(err), peak)
		})
	}
}

// BenchmarkHostileThree extracts three copies of the worst DOCX at once through the shared
// extraction slots (sized to the machine), and, for comparison, with three slots.
func BenchmarkHostileThree(b *testing.B) {
	var shape hostile
	for _, h := range hostileShapes() {
		if h.name == "docx/nested-p" {
			shape = h
		}
	}
	data := shape.make(b)
	for _, slots := range []int{0, 3} {
		b.Run(fmt.Sprintf("slots=%d", slots), func(b *testing.B) {
			s := NewSlots(slots)
			var peak float64
			for b.Loop() {
				p := startPeak()
				var wg sync.WaitGroup
				for range 3 {
					wg.Go(func() {
						_, err := Extract(context.Background(), "nested.docx", data, Limits{Slots: s, Timeout: 5 * time.Minute})
						if !errors.Is(err, ErrTooComplex) {
							b.Error(err)
						}
					})
				}
				wg.Wait()
				peak = max(peak, p.Stop())
			}
			b.ReportMetric(peak, "peak-MiB")
			b.Logf("3 × %s with %d slots: peak %.0f MiB", shape.name, s.Cap(), peak)
		})
	}
}
