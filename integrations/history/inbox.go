package history

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// The webhook inbox: updates a replica has acknowledged but not yet answered.
//
// In webhook mode Telegram counts an update as delivered once the replica answered the HTTP call,
// and the replica answers as soon as the update is queued, so a replica that is killed (OOM, a
// node lost, SIGKILL) takes its queued and half-answered updates with it: Telegram will not
// deliver them again. The inbox closes that gap. Before the 200, the update's body is stored here;
// once it is answered (or deliberately dropped) it is removed. A replica that dies leaves its
// entries behind, with claims (the dedupe's) that lapse when it stops renewing them; a sweeper
// takes those entries over and answers them — unless the replica died in the middle of heavy
// work for one (building a large document index, reading a large file): an update that killed
// one replica for its memory would kill the next, so a replica marks an update while it does
// such work for it (Begin … End), and the sweeper that finds the mark on an update whose claim
// lapsed (DiedOn) fails it instead of answering it again.
//
// One replica sweeps at a time: the sweeper holds a [Lease] and its sweep is a script fenced by
// that lease's token, so a replica that lost the lease while paused cannot sweep with it. The
// per-update claim stays the guard against answering twice: the sweeper answers an entry only
// when it can claim it.
//
// Keys (all under the hash tag {inbox}, so that each script touches one Cluster slot):
//
//	prefix{inbox}          ZSET  update_id -> when it was stored or last swept (ms, Redis clock)
//	prefix{inbox}:body     HASH  update_id -> the update as Telegram sent it (JSON)
//	prefix{inbox}:tries    HASH  update_id -> how many times a sweeper took it over
//	prefix{inbox}:begun    HASH  update_id -> when a replica began heavy work for it (ms, Redis clock)
//	prefix{inbox}:sweeper  the sweeper's lease (and :fence, its token counter)

// MaxInboxTakeovers bounds how many times an update is taken over from a replica that died with
// it: an update that kills every replica that answers it must not go round for ever.
const MaxInboxTakeovers = 3

// putScript stores an update's body and, unless it is there already, its time.
var putScript = redis.NewScript(`
local t = redis.call("TIME")
redis.call("HSET", KEYS[2], ARGV[1], ARGV[2])
redis.call("ZADD", KEYS[1], "NX", t[1] * 1000 + math.floor(t[2] / 1000), ARGV[1])
return 1
`)

// beginScript marks an update begun (KEYS[2]) if it is still in the inbox (KEYS[1]).
var beginScript = redis.NewScript(`
if redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0 then
	return 0
end
local t = redis.call("TIME")
redis.call("HSET", KEYS[2], ARGV[1], t[1] * 1000 + math.floor(t[2] / 1000))
return 1
`)

// dueScript, fenced by the sweeper's lease (KEYS[4] must hold ARGV[1]), returns up to ARGV[3]
// entries stored or last swept at least ARGV[2] ms ago, as id, body, takeovers so far; it marks
// each swept now, so that the next sweep sees it again only after ARGV[2] ms. It returns false
// when the lease is not the caller's.
var dueScript = redis.NewScript(`
if redis.call("GET", KEYS[4]) ~= ARGV[1] then
	return false
end
local t = redis.call("TIME")
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local ids = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", now - tonumber(ARGV[2]), "LIMIT", 0, tonumber(ARGV[3]))
local out = {}
for _, id in ipairs(ids) do
	local body = redis.call("HGET", KEYS[2], id)
	if body then
		redis.call("ZADD", KEYS[1], now, id)
		table.insert(out, id)
		table.insert(out, body)
		table.insert(out, redis.call("HGET", KEYS[3], id) or "0")
	else
		redis.call("ZREM", KEYS[1], id)
	end
end
return out
`)

// RedisInbox is the webhook inbox in Redis. It is safe for concurrent use; each RedisInbox is one
// instance for its sweeper lease.
type RedisInbox struct {
	rdb                        redis.UniversalClient
	zset, bodies, tries, begun string
	sweeper                    *Lease
}

// NewRedisInbox returns the inbox under prefix. sweepEvery is how often its owner calls Due: the
// sweeper lease lasts three of those, so that another replica sweeps soon after the sweeper dies.
func NewRedisInbox(rdb redis.UniversalClient, prefix string, sweepEvery time.Duration) *RedisInbox {
	base := prefix + "{inbox}"
	return &RedisInbox{
		rdb: rdb, zset: base, bodies: base + ":body", tries: base + ":tries", begun: base + ":begun",
		sweeper: NewLease(rdb, base+":sweeper", 3*sweepEvery),
	}
}

// Put stores an update before it is acknowledged to Telegram. Storing it again (Telegram
// delivered it twice) keeps its first time.
func (i *RedisInbox) Put(ctx context.Context, updateID int64, body []byte) error {
	err := putScript.Run(ctx, i.rdb, []string{i.zset, i.bodies}, strconv.FormatInt(updateID, 10), body).Err()
	if err != nil {
		return fmt.Errorf("history: inbox put %d: %w: %w", updateID, ErrUnavailable, err)
	}
	return nil
}

// Remove forgets an update: it is answered, or deliberately not answered.
func (i *RedisInbox) Remove(ctx context.Context, updateID int64) error {
	id := strconv.FormatInt(updateID, 10)
	_, err := i.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZRem(ctx, i.zset, id)
		p.HDel(ctx, i.bodies, id)
		p.HDel(ctx, i.tries, id)
		p.HDel(ctx, i.begun, id)
		return nil
	})
	if err != nil {
		return fmt.Errorf("history: inbox remove %d: %w: %w", updateID, ErrUnavailable, err)
	}
	return nil
}

// Begin records that a replica begins heavy work for updateID: if its claim lapses before the
// work ends (End) or the update is removed, the replica died in that work. An update no
// longer in the inbox is left alone.
func (i *RedisInbox) Begin(ctx context.Context, updateID int64) error {
	if err := beginScript.Run(ctx, i.rdb, []string{i.bodies, i.begun}, strconv.FormatInt(updateID, 10)).Err(); err != nil {
		return fmt.Errorf("history: inbox begin %d: %w: %w", updateID, ErrUnavailable, err)
	}
	return nil
}

// End records that the heavy work a replica began for updateID ended, or that the replica
// gives the update back, alive (it shuts down): should the replica die now, the next one
// answers the update as usual.
func (i *RedisInbox) End(ctx context.Context, updateID int64) error {
	if err := i.rdb.HDel(ctx, i.begun, strconv.FormatInt(updateID, 10)).Err(); err != nil {
		return fmt.Errorf("history: inbox end %d: %w: %w", updateID, ErrUnavailable, err)
	}
	return nil
}

// DiedOn reports whether a replica began heavy work for updateID that has not ended and the
// update is not answered: asked by the replica that took over the update's lapsed claim, it
// means the one before died in that work.
func (i *RedisInbox) DiedOn(ctx context.Context, updateID int64) (bool, error) {
	n, err := i.rdb.HExists(ctx, i.begun, strconv.FormatInt(updateID, 10)).Result()
	if err != nil {
		return false, fmt.Errorf("history: inbox died on %d: %w: %w", updateID, ErrUnavailable, err)
	}
	return n, nil
}

// TookOver counts a takeover of updateID by a sweeper.
func (i *RedisInbox) TookOver(ctx context.Context, updateID int64) error {
	if err := i.rdb.HIncrBy(ctx, i.tries, strconv.FormatInt(updateID, 10), 1).Err(); err != nil {
		return fmt.Errorf("history: inbox takeover %d: %w: %w", updateID, ErrUnavailable, err)
	}
	return nil
}

// Due calls take for each of up to limit entries stored or last looked at olderThan ago or
// earlier (its update id, its body and how many times a sweeper took it over before), when this
// instance is the sweeper: it takes or renews the sweeper lease first and sweeps under its token.
// Another replica's sweeper holding the lease means no entries and no error.
func (i *RedisInbox) Due(ctx context.Context, olderThan time.Duration, limit int, take func(updateID int64, body []byte, takeovers int)) error {
	token, ok, err := i.sweeper.Acquire(ctx)
	if err != nil || !ok {
		return err
	}
	res, err := dueScript.Run(ctx, i.rdb, []string{i.zset, i.bodies, i.tries, i.sweeper.key},
		i.sweeper.Value(token), max(olderThan.Milliseconds(), 0), max(limit, 1)).StringSlice()
	if errors.Is(err, redis.Nil) {
		return nil // the lease lapsed between acquiring and sweeping
	}
	if err != nil {
		return fmt.Errorf("history: inbox sweep: %w: %w", ErrUnavailable, err)
	}
	for k := 0; k+2 < len(res); k += 3 {
		id, err := strconv.ParseInt(res[k], 10, 64)
		if err != nil {
			continue // not ours: Put writes decimal ids only
		}
		tries, _ := strconv.Atoi(res[k+2])
		take(id, []byte(res[k+1]), tries)
	}
	return nil
}

// Len returns how many updates are in the inbox (for /status and tests).
func (i *RedisInbox) Len(ctx context.Context) (int64, error) {
	n, err := i.rdb.ZCard(ctx, i.zset).Result()
	if err != nil {
		return 0, fmt.Errorf("history: inbox size: %w: %w", ErrUnavailable, err)
	}
	return n, nil
}
