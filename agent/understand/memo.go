package understand

import "sync"

// memo remembers the results of a pure function of a string, up to limit of them; past the
// limit it forgets them all and starts again. It is safe for concurrent use. A value must not
// be changed once remembered.
type memo[V any] struct {
	limit int
	mu    sync.RWMutex
	m     map[string]V
}

func newMemo[V any](limit int) *memo[V] { return &memo[V]{limit: limit, m: make(map[string]V)} }

// get returns f(k), computed once while remembered.
func (c *memo[V]) get(k string, f func(string) V) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = f(k)
	c.mu.Lock()
	if len(c.m) >= c.limit {
		clear(c.m)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}
