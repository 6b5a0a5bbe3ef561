package bot

import (
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

// The per-user flood guard.

// floodVerdict is what the per-user limiter decides about one message.
type floodVerdict int

// floodGuard limits how many messages one user may send, and notices floods once instead of
// answering every message or going silent without a word.
type floodGuard struct {
	mu      sync.Mutex
	users   *lru.Cache[int64, *floodState]
	perMin  int
	burst   int
	enabled bool
}

type floodState struct {
	lim      *rate.Limiter
	notified bool
}

func newFloodGuard(perMin, burst int) *floodGuard {
	users, _ := lru.New[int64, *floodState](100_000) // size > 0: cannot fail
	return &floodGuard{users: users, perMin: perMin, burst: burst, enabled: perMin > 0}
}

func (g *floodGuard) allow(userID int64, now time.Time) floodVerdict {
	if !g.enabled {
		return floodOK
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	st, ok := g.users.Get(userID)
	if !ok {
		st = &floodState{lim: rate.NewLimiter(rate.Limit(float64(g.perMin)/60), max(g.burst, 1))}
		g.users.Add(userID, st)
	}
	if st.lim.AllowN(now, 1) {
		st.notified = false
		return floodOK
	}
	if st.notified {
		return floodSilent
	}
	st.notified = true
	return floodNotify
}
