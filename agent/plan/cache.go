package plan

import (
	"context"
	"fmt"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/finbot/finbot/ru"
)

// Cache keeps valid plans by question and context for a while. (The expirable LRU of
// golang-lru starts a goroutine it never stops; a timestamp checked on read needs none.)
type Cache struct {
	plans *lru.Cache[string, cached]
	ttl   time.Duration
	now   func() time.Time
}

type cached struct {
	plan QueryPlan
	at   time.Time
}

// NewCache keeps up to size plans, each for ttl (negative: none); now is the clock.
func NewCache(size int, ttl time.Duration, now func() time.Time) *Cache {
	plans, _ := lru.New[string, cached](size)
	return &Cache{plans: plans, ttl: ttl, now: now}
}

// Key is the cache key of a plan: whose conversation it is (a plan is made for one user's
// question in one chat — their documents, their access, their dialog — and is never served to
// another), the normalised question and everything else the planner saw.
func Key(in Input) string {
	r := in.Rules
	return fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s\x00%t%t%t%t\x00%v", in.Conversation, ru.Fold(in.Question), in.Summary,
		in.Today.Format(time.DateOnly), strings.Join(in.SelectedIDs, ","), r.HasDocuments, r.HasSelection, r.HasLedger, r.HasLLMNews, r.Tools)
}

// Cached is a planner that reuses a valid plan for the same question and context (Key) while
// the cache keeps it; an emergency plan is never kept.
type Cached struct {
	Planner interface {
		Plan(ctx context.Context, in Input) (QueryPlan, Trace)
	}
	Cache *Cache
}

// Plan is the kept plan of in (Trace.Source SourceCache), or the planner's.
func (c Cached) Plan(ctx context.Context, in Input) (QueryPlan, Trace) {
	key := Key(in)
	if p, ok := c.Cache.Get(key); ok {
		return p, Trace{Source: SourceCache}
	}
	p, tr := c.Planner.Plan(ctx, in)
	if tr.Source != SourceDefault && ctx.Err() == nil {
		c.Cache.Put(key, p)
	}
	return p, tr
}

// Get returns the plan kept under key unless it has expired.
func (c *Cache) Get(key string) (QueryPlan, bool) {
	e, ok := c.plans.Get(key)
	if !ok || c.ttl < 0 {
		return QueryPlan{}, false
	}
	if c.now().Sub(e.at) >= c.ttl {
		c.plans.Remove(key)
		return QueryPlan{}, false
	}
	return e.plan, true
}

// Put keeps p under key (nothing when the cache keeps none).
func (c *Cache) Put(key string, p QueryPlan) {
	if c.ttl > 0 {
		c.plans.Add(key, cached{plan: p, at: c.now()})
	}
}

// Unreachable reports whether the planner fell back to the default plan only because the
// model could not be reached: no reply was refused for its content.
func (tr Trace) Unreachable() bool {
	if tr.Source != SourceDefault || len(tr.Errors) == 0 {
		return false
	}
	for _, ps := range tr.Problems {
		if len(ps) > 0 {
			return false
		}
	}
	return true
}
