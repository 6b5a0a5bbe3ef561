package extract

import (
	"context"
	"runtime"
)

// Slots bounds how many extractions run at once. Each extraction may hold up to about a hundred
// megabytes while it parses (see docs/benchmarks.md), so uploads arriving together queue here
// instead of adding up; one Slots is shared by everything that extracts in a process. A slot is
// held until the parsing goroutine itself ends, not only until Extract returns, so that work
// still stopping after a timeout counts too.
type Slots struct {
	ch    chan struct{}
	onRun func() // tests: called by the parsing goroutine once it holds a slot
}

// DefaultSlots is the number of slots sized to the machine: half its usable CPUs, at least one.
func DefaultSlots() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// NewSlots returns n slots (n <= 0: DefaultSlots).
func NewSlots(n int) *Slots {
	if n <= 0 {
		n = DefaultSlots()
	}
	return &Slots{ch: make(chan struct{}, n)}
}

// Cap is the number of slots.
func (s *Slots) Cap() int { return cap(s.ch) }

// acquire waits for a slot or for ctx; a nil *Slots has room for everyone.
func (s *Slots) acquire(ctx context.Context) error {
	if s == nil {
		return nil
	}
	select {
	case s.ch <- struct{}{}:
		return nil
	default:
	}
	select {
	case s.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Slots) release() {
	if s != nil {
		<-s.ch
	}
}
