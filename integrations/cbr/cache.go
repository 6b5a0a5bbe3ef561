package cbr

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// entry is a cached value and when it was fetched.
type entry struct {
	val     any
	fetched time.Time
}

// store holds fresh values in two size-bounded caches, each with its TTL, and the last known
// value of every key for stale-if-error. Expiry is checked on read against the client's clock
// and an expired entry is dropped then. golang-lru's expirable.LRU is not used: in v2.0.7 each
// one starts a cleanup goroutine that never exits, one more for every Client built.
type store struct {
	fresh, past       *lru.Cache[string, entry]
	freshTTL, pastTTL time.Duration
	last              *lru.Cache[string, entry] // no TTL: bounded by size only
}

func newStore(freshTTL, pastTTL time.Duration) *store {
	return &store{
		fresh:    mustLRU(1024),
		past:     mustLRU(4096),
		freshTTL: freshTTL,
		pastTTL:  pastTTL,
		last:     mustLRU(1024),
	}
}

func mustLRU(size int) *lru.Cache[string, entry] {
	c, err := lru.New[string, entry](size)
	if err != nil {
		panic(err) // only for a non-positive size
	}
	return c
}

// get returns a value fetched less than its TTL before now (Options.Now, so an injected clock
// works too). An expired entry is removed; the last known value stays for stale-if-error.
func (s *store) get(key string, past bool, now time.Time) (entry, bool) {
	c, ttl := s.fresh, s.freshTTL
	if past {
		c, ttl = s.past, s.pastTTL
	}
	e, ok := c.Get(key)
	if !ok {
		return entry{}, false
	}
	if now.Sub(e.fetched) >= ttl {
		c.Remove(key)
		return entry{}, false
	}
	return e, true
}

func (s *store) put(key string, past bool, e entry) {
	if past {
		s.past.Add(key, e)
	} else {
		s.fresh.Add(key, e)
	}
	s.last.Add(key, e)
}

// lastKnown returns the best last known value among the keys with prefix: the one with the
// highest score, ties going to the most recently fetched. Values with ok false are skipped.
func lastKnown[T any](s *store, prefix string, score func(T) (int64, bool)) (entry, bool) {
	var best entry
	var bestScore int64
	found := false
	for _, k := range s.last.Keys() {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		e, ok := s.last.Peek(k)
		if !ok {
			continue
		}
		v, ok := e.val.(T)
		if !ok {
			continue
		}
		sc, ok := score(v)
		if !ok {
			continue
		}
		if !found || sc > bestScore || (sc == bestScore && e.fetched.After(best.fetched)) {
			best, bestScore, found = e, sc, true
		}
	}
	return best, found
}

// query describes one cached operation call.
type query[T any] struct {
	what  string // operation and parameters for error messages: "GetCursOnDate 2026-03-15"
	key   string // cache and singleflight key: operation + parameters
	past  bool   // the value can no longer change: cache it for PastTTL
	fetch func(ctx context.Context) (T, error)
	// fallback finds a last known value to serve when this key was never fetched; optional.
	fallback func() (entry, bool)
}

// load returns q's value from the cache or, through singleflight, from the service; when
// the service fails it serves the last known value, marked stale.
//
// The fetch runs detached from the caller's cancellation, bounded by Options.Timeout, so one
// caller giving up does not fail the others waiting on the same flight.
func load[T any](ctx context.Context, c *Client, q query[T]) (T, Meta, error) {
	if e, ok := c.store.get(q.key, q.past, c.now()); ok {
		return e.val.(T), Meta{FetchedAt: e.fetched}, nil
	}
	if err := context.Cause(ctx); errors.Is(ctx.Err(), context.Canceled) { // a caller who gave up starts no fetch
		var zero T
		return zero, Meta{}, fmt.Errorf("cbr: %s: %w", q.what, err)
	}
	ch := c.flight.DoChan(q.key, func() (any, error) {
		if e, ok := c.store.get(q.key, q.past, c.now()); ok {
			return e, nil // filled by a flight that ended after our first look
		}
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
		defer cancel()
		v, err := q.fetch(fctx)
		if err != nil {
			return nil, err
		}
		e := entry{val: v, fetched: c.now()}
		c.store.put(q.key, q.past, e)
		return e, nil
	})
	var err error
	select {
	case r := <-ch:
		if r.Err == nil && !errors.Is(ctx.Err(), context.Canceled) {
			e := r.Val.(entry)
			return e.val.(T), Meta{FetchedAt: e.fetched}, nil
		}
		err = r.Err
		if err == nil { // the flight ended as the caller gave up, and a caller who gave up wants no answer
			err = context.Cause(ctx)
		}
	case <-ctx.Done():
		err = context.Cause(ctx)
	}
	err = fmt.Errorf("cbr: %s: %w", q.what, err)
	if !errors.Is(err, context.Canceled) { // a caller who gave up wants no answer
		e, ok := c.store.last.Peek(q.key)
		if !ok && q.fallback != nil {
			e, ok = q.fallback()
		}
		if ok {
			return e.val.(T), Meta{Stale: true, FetchedAt: e.fetched, Cause: err}, nil
		}
	}
	var zero T
	return zero, Meta{}, err
}
