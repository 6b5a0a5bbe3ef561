package history

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Leases: work that one replica at a time must do.
//
// A Lease is a named lease in Redis held by one instance for a TTL, renewed by acquiring it again
// before it lapses. Each time it changes hands it gets a new fencing token from a counter that
// only grows, so work guarded by it can refuse a holder whose lease has lapsed meanwhile (a
// process paused by GC or a slow disk that wakes up believing it still holds the lease): the
// guarded write is a script that first checks that the lease's value is still the holder's
// [Lease.Value]. That is why a lease is never an in-process flag and why its key must share a
// hash tag with the keys of the work it fences: on a Cluster a script touches one slot.
//
// The value stored is "<token>:<holder>"; the counter lives under key + ":fence" and never
// expires. If Redis loses its data the counter starts again from 1, and the fenced scripts still
// compare against the current value, so a stale holder is still refused.

// acquireScript takes the lease for ARGV[1] for ARGV[2] ms, or renews it when ARGV[1] already
// holds it. It returns the holder's token, or 0 when another instance holds the lease.
var acquireScript = redis.NewScript(`
local v = redis.call("GET", KEYS[1])
if v then
	local token, holder = string.match(v, "^(%d+):(.*)$")
	if holder == ARGV[1] then
		redis.call("PEXPIRE", KEYS[1], ARGV[2])
		return tonumber(token)
	end
	return 0
end
local token = redis.call("INCR", KEYS[2])
redis.call("SET", KEYS[1], token .. ":" .. ARGV[1], "PX", ARGV[2])
return token
`)

// releaseLeaseScript deletes the lease if it still holds this value.
var releaseLeaseScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0
`)

// Lease is one instance's handle on a named lease. It is safe for concurrent use; a process
// keeps one Lease per name (two handles are two instances).
type Lease struct {
	rdb    redis.UniversalClient
	key    string
	fence  string // the token counter: key + ":fence" unless NewLeaseFenced named another
	holder string
	ttl    time.Duration
}

// NewLease returns a handle on the lease stored under key, held for ttl each time it is
// acquired. key should carry a hash tag ("prefix{inbox}:sweeper") shared with the keys of the
// work it fences.
func NewLease(rdb redis.UniversalClient, key string, ttl time.Duration) *Lease {
	return NewLeaseFenced(rdb, key, key+":fence", ttl)
}

// NewLeaseFenced is NewLease with the token counter under fence instead of key + ":fence": a
// lease taken once per occasion (a digest's run of one scheduled slot, whose key names the
// slot) keeps one counter for all its occasions, rather than leaving a counter behind for each.
// fence must share key's hash tag.
func NewLeaseFenced(rdb redis.UniversalClient, key, fence string, ttl time.Duration) *Lease {
	return &Lease{rdb: rdb, key: key, fence: fence, holder: instanceID(), ttl: ttl}
}

// Acquire takes the lease, or renews it when this instance holds it, and returns its fencing
// token. ok is false when another instance holds it.
func (l *Lease) Acquire(ctx context.Context) (token int64, ok bool, err error) {
	ms := max(l.ttl.Milliseconds(), 1)
	token, err = acquireScript.Run(ctx, l.rdb, []string{l.key, l.fence}, l.holder, ms).Int64()
	if err != nil {
		return 0, false, fmt.Errorf("history: acquire lease %s: %w: %w", l.key, ErrUnavailable, err)
	}
	return token, token > 0, nil
}

// Value is what the lease key holds while token is this instance's: fenced scripts compare the
// key's value with it.
func (l *Lease) Value(token int64) string {
	return strconv.FormatInt(token, 10) + ":" + l.holder
}

// Release gives the lease up if this instance still holds it under token.
func (l *Lease) Release(ctx context.Context, token int64) error {
	if err := releaseLeaseScript.Run(ctx, l.rdb, []string{l.key}, l.Value(token)).Err(); err != nil {
		return fmt.Errorf("history: release lease %s: %w: %w", l.key, ErrUnavailable, err)
	}
	return nil
}
