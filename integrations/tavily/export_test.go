package tavily

import "time"

// SetNow replaces the clock the cache uses to decide freshness. Call it before any Search.
func SetNow(c *Client, now func() time.Time) { c.now = now }

// SetJitter replaces the full-jitter draw of the backoff. Call it before any Search.
func SetJitter(c *Client, jitter func(ceiling time.Duration) time.Duration) { c.jitter = jitter }
