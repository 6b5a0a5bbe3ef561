package app

import (
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/finbot/finbot/config"
)

// redisDialTimeout bounds one connection attempt: a Redis that does not answer degrades the
// answers (no history) rather than holding them.
const redisDialTimeout = 2 * time.Second

// redisClient opens the Redis of cfg as one redis.UniversalClient, whichever its topology:
// one server (go-redis's ParseURL form), a Redis Cluster (REDIS_CLUSTER=true, ParseClusterURL:
// the seed nodes in the host and addr= parameters) or a master watched by Sentinel
// (REDIS_SENTINEL_MASTER, ParseFailoverURL: the Sentinels in the host and addr=). Every store
// takes the interface, so none knows which. Deadlines of the context reach Redis
// (ContextTimeoutEnabled). The errors never quote the URL: go-redis's parsers quote at most a
// parameter's name, and config.Load has already refused what net/url would quote.
func redisClient(cfg config.Config) (redis.UniversalClient, error) {
	raw := cfg.RedisURL.Reveal()
	switch topology := cfg.RedisTopology(); topology {
	case config.RedisCluster:
		o, err := redis.ParseClusterURL(raw)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL (%s): %w", topology, err)
		}
		o.ContextTimeoutEnabled = true
		if o.DialTimeout == 0 {
			o.DialTimeout = redisDialTimeout
		}
		// MaxRetries stays go-redis's: the cluster client retries itself, following
		// MOVED/ASK and reloading the slots after a failover.
		return redis.NewClusterClient(o), nil
	case config.RedisSentinel:
		o, err := redis.ParseFailoverURL(raw)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL (%s): %w", topology, err)
		}
		o.MasterName = cfg.RedisSentinel
		o.ContextTimeoutEnabled = true
		o.MaxRetries = 1
		if o.DialTimeout == 0 {
			o.DialTimeout = redisDialTimeout
		}
		return redis.NewFailoverClient(o), nil
	default:
		o, err := redis.ParseURL(raw)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		o.ContextTimeoutEnabled = true
		o.MaxRetries = 1
		o.DialTimeout = redisDialTimeout
		return redis.NewClient(o), nil
	}
}
