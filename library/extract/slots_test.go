package extract

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// At most Cap extractions run at once; the others wait, and a waiting caller that gives up gets
// its context's error without any work done.
func TestSlotsLimitConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewSlots(2)
		release := make(chan struct{})
		var running, peak, ran atomic.Int32
		s.onRun = func() {
			n := running.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			ran.Add(1)
			<-release
			running.Add(-1)
		}
		var wg sync.WaitGroup
		errs := make([]error, 5)
		for i := range 5 {
			wg.Go(func() {
				_, errs[i] = Extract(context.Background(), "a.txt", []byte(sampleText), Limits{Slots: s})
			})
		}
		synctest.Wait() // every goroutine is blocked: two in a slot, three waiting for one
		if got := running.Load(); got != 2 {
			t.Fatalf("%d extractions running, want 2", got)
		}
		// A caller that gives up while waiting: its context's error, no work.
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := Extract(ctx, "a.txt", []byte(sampleText), Limits{Slots: s})
			done <- err
		}()
		synctest.Wait()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("waiting caller cancelled: %v", err)
		}
		close(release)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("extraction %d: %v", i, err)
			}
		}
		if peak.Load() != 2 || ran.Load() != 5 {
			t.Errorf("peak %d running, %d ran; want 2 and 5", peak.Load(), ran.Load())
		}
		synctest.Wait() // a worker gives its slot back after its caller has the result
		if len(s.ch) != 0 {
			t.Errorf("%d slots still held", len(s.ch))
		}
	})
}

func TestDefaultSlots(t *testing.T) {
	if n := NewSlots(0).Cap(); n < 1 || n != DefaultSlots() {
		t.Errorf("NewSlots(0).Cap() = %d", n)
	}
	// A nil *Slots bounds nothing.
	if _, err := Extract(context.Background(), "a.txt", []byte(sampleText), Limits{}); err != nil {
		t.Fatal(err)
	}
}
