package history

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Redis keeps dialog history in Redis: one LIST of JSON-encoded turns per
// conversation, stored under prefix + "hist:" + key. It is safe for
// concurrent use and across processes sharing the same Redis.
type Redis struct {
	rdb    redis.UniversalClient
	prefix string
	limits Limits
}

// NewRedis returns a history store backed by rdb. Every key it touches
// starts with prefix; zero fields of l take their defaults.
func NewRedis(rdb redis.UniversalClient, prefix string, l Limits) *Redis {
	return &Redis{rdb: rdb, prefix: prefix, limits: l.withDefaults()}
}

// redisKey returns the Redis key of conversation key.
func (r *Redis) redisKey(key string) string {
	return r.prefix + "hist:" + key
}

// Load returns the turns of conversation key, oldest first: at most MaxTurns
// newest turns, with the oldest dropped until the total fits MaxChars. An
// unknown key yields an empty slice and a nil error. Stored entries that no
// longer decode are skipped.
func (r *Redis) Load(ctx context.Context, key string) ([]Turn, error) {
	raw, err := r.rdb.LRange(ctx, r.redisKey(key), int64(-r.limits.MaxTurns), -1).Result()
	if err != nil {
		return nil, fmt.Errorf("history: load %q: %w: %w", key, ErrUnavailable, err)
	}
	turns := make([]Turn, 0, len(raw))
	for _, s := range raw {
		var t Turn
		if json.Unmarshal([]byte(s), &t) != nil {
			continue // corrupt entry: skip it rather than lose the whole dialog
		}
		turns = append(turns, t)
	}
	return fitChars(turns, r.limits.MaxChars), nil
}

// Append adds turns to the end of conversation key in one MULTI/EXEC
// transaction: RPUSH, LTRIM to the MaxTurns newest turns and EXPIRE with TTL.
// Texts longer than MaxChars are stored truncated. Appending no turns is a
// no-op.
func (r *Redis) Append(ctx context.Context, key string, turns ...Turn) error {
	if len(turns) == 0 {
		return nil
	}
	values := make([]any, len(turns))
	for i, t := range truncateTurns(turns, r.limits.MaxChars) {
		b, err := json.Marshal(t)
		if err != nil {
			return fmt.Errorf("history: append %q: encode turn: %w", key, err)
		}
		values[i] = b
	}
	rk := r.redisKey(key)
	_, err := r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.RPush(ctx, rk, values...)
		p.LTrim(ctx, rk, int64(-r.limits.MaxTurns), -1)
		p.PExpire(ctx, rk, r.limits.TTL)
		return nil
	})
	if err != nil {
		return fmt.Errorf("history: append %q: %w: %w", key, ErrUnavailable, err)
	}
	return nil
}

// Reset deletes conversation key. Resetting an unknown key is not an error.
func (r *Redis) Reset(ctx context.Context, key string) error {
	if err := r.rdb.Del(ctx, r.redisKey(key)).Err(); err != nil {
		return fmt.Errorf("history: reset %q: %w: %w", key, ErrUnavailable, err)
	}
	return nil
}

// Ping checks that Redis answers.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("history: ping: %w: %w", ErrUnavailable, err)
	}
	return nil
}
