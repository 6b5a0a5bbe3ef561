package bot

import (
	"context"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

// floodVerdict is what the per-user limiter decides about one message.
type floodVerdict int

const (
	floodOK     floodVerdict = iota // answer it
	floodNotify                     // over the limit: say so, once
	floodSilent                     // still over the limit: already said
)

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

// sendLimits keeps outgoing messages within Telegram's limits: about one message a second per
// chat, 20 a minute per group, 30 a second overall.
type sendLimits struct {
	global *rate.Limiter
	mu     sync.Mutex
	chats  *lru.Cache[int64, *rate.Limiter]
	// perChat and perGroup are the per-chat rates; tests shrink them.
	perChat, perGroup rate.Limit
	chatBurst         int
	groupBurst        int
}

func newSendLimits() *sendLimits {
	chats, _ := lru.New[int64, *rate.Limiter](100_000)
	return &sendLimits{
		global:     rate.NewLimiter(30, 30),
		chats:      chats,
		perChat:    1,
		chatBurst:  3,
		perGroup:   rate.Limit(20.0 / 60),
		groupBurst: 5,
	}
}

// wait blocks until a message may be sent to chatID.
func (l *sendLimits) wait(ctx context.Context, chatID int64) error {
	l.mu.Lock()
	lim, ok := l.chats.Get(chatID)
	if !ok {
		if chatID < 0 { // groups and channels have negative IDs
			lim = rate.NewLimiter(l.perGroup, l.groupBurst)
		} else {
			lim = rate.NewLimiter(l.perChat, l.chatBurst)
		}
		l.chats.Add(chatID, lim)
	}
	l.mu.Unlock()
	if err := lim.Wait(ctx); err != nil {
		return err
	}
	return l.global.Wait(ctx)
}
