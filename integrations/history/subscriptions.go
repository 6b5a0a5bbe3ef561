package history

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Subscriptions: the digests and alerts each chat subscribed to (agent/digest), the chat's time
// zone, and the runs that deliver each scheduled slot of a subscription once across replicas.
//
// A subscription is opaque bytes under its id within its chat ("morning", "debtor:1000000"):
// the caller encodes it. Delivering one slot is a run: a replica claims the slot with a fenced
// lease (Lease) keyed by the chat, the id and the slot, checks that the slot is not delivered
// yet, delivers it, and finishes the run with a script fenced by the lease's token that records
// the slot as delivered (and an alert's new state) and drops the lease. Another replica finds
// the lease held, or the slot done; a replica that dies mid-run leaves a lease that lapses, and
// the slot is delivered again by whoever claims it next (at least once; see docs/operations.md).
//
// Keys (all under the hash tag {digest}, so that each script touches one Cluster slot):
//
//	prefix{digest}:chats                    SET   the chats that have subscriptions
//	prefix{digest}:chat:<chat>              HASH  subscription id -> its settings (the caller's bytes)
//	prefix{digest}:zone                     HASH  chat -> the chat's time zone (IANA name)
//	prefix{digest}:done                     HASH  "<chat>/<id>" -> the latest slot delivered (Unix seconds)
//	prefix{digest}:state                    HASH  "<chat>/<id>" -> an alert's state as of that slot (the caller's bytes)
//	prefix{digest}:run:<chat>/<id>:<slot>   STRING the lease of the replica delivering that slot ("<token>:<holder>", PX)
//	prefix{digest}:fence:<chat>/<id>        STRING the subscription's fencing-token counter (INCR)

// ErrTooManySubscriptions: the chat already has as many subscriptions as it may.
var ErrTooManySubscriptions = errors.New("history: too many subscriptions in the chat")

// ErrDelivered: the slot claimed, or a later one, was delivered already, or the subscription is
// gone — there is nothing to do for it.
var ErrDelivered = errors.New("history: slot delivered")

// Subscription is one stored subscription of a chat.
type Subscription struct {
	ChatID int64
	ID     string
	Data   []byte
}

// SlotRun is one instance's hold on one scheduled slot of a subscription: taken by Claim,
// ended by Finish (delivered) or Release (not delivered: the slot stays due).
type SlotRun struct {
	ChatID int64
	ID     string
	Slot   int64 // Unix seconds
	Token  int64 // the fencing token
	// State is the subscription's state as the last finished run left it (an alert's last seen
	// values); nil before the first.
	State []byte

	lease  *Lease // Redis
	holder int64  // memory
}

func subField(chatID int64, id string) string { return strconv.FormatInt(chatID, 10) + "/" + id }

// RedisSubscriptions keeps subscriptions in Redis. It is safe for concurrent use and across
// processes sharing the Redis; each run (Claim) holds its lease as an instance of its own.
type RedisSubscriptions struct {
	rdb  redis.UniversalClient
	base string
}

// NewRedisSubscriptions returns the subscriptions under prefix.
func NewRedisSubscriptions(rdb redis.UniversalClient, prefix string) *RedisSubscriptions {
	return &RedisSubscriptions{rdb: rdb, base: prefix + "{digest}"}
}

func (s *RedisSubscriptions) chats() string { return s.base + ":chats" }
func (s *RedisSubscriptions) chat(chatID int64) string {
	return s.base + ":chat:" + strconv.FormatInt(chatID, 10)
}
func (s *RedisSubscriptions) zones() string { return s.base + ":zone" }
func (s *RedisSubscriptions) done() string  { return s.base + ":done" }
func (s *RedisSubscriptions) state() string { return s.base + ":state" }
func (s *RedisSubscriptions) fence(chatID int64, id string) string {
	return s.base + ":fence:" + subField(chatID, id)
}
func (s *RedisSubscriptions) run(chatID int64, id string, slot int64) string {
	return s.base + ":run:" + subField(chatID, id) + ":" + strconv.FormatInt(slot, 10)
}

func unavailable(op string, err error) error {
	return fmt.Errorf("history: subscriptions: %s: %w: %w", op, ErrUnavailable, err)
}

// putSubScript stores ARGV[2] under id ARGV[1] in the chat's hash unless the chat already has
// ARGV[3] other subscriptions, and lists the chat (ARGV[4]).
var putSubScript = redis.NewScript(`
if redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0 and redis.call("HLEN", KEYS[1]) >= tonumber(ARGV[3]) then
	return 0
end
redis.call("HSET", KEYS[1], ARGV[1], ARGV[2])
redis.call("SADD", KEYS[2], ARGV[4])
return 1
`)

// Put stores the chat's subscription id, replacing one of the same id; a chat with max others
// already gets ErrTooManySubscriptions.
func (s *RedisSubscriptions) Put(ctx context.Context, chatID int64, id string, data []byte, max int) error {
	chat := strconv.FormatInt(chatID, 10)
	n, err := putSubScript.Run(ctx, s.rdb, []string{s.chat(chatID), s.chats()}, id, data, max, chat).Int()
	if err != nil {
		return unavailable("put", err)
	}
	if n == 0 {
		return ErrTooManySubscriptions
	}
	return nil
}

// deleteSubsScript removes the subscriptions ARGV[3…] of chat ARGV[1] with their done marks,
// states and fence counters (KEYS[6…], in the same order), the chat's zone too when ARGV[2] is
// "1", and unlists the chat when it has none left. It returns how many it removed.
var deleteSubsScript = redis.NewScript(`
local n = 0
for i = 3, #ARGV do
	local id = ARGV[i]
	n = n + redis.call("HDEL", KEYS[1], id)
	local f = ARGV[1] .. "/" .. id
	redis.call("HDEL", KEYS[3], f)
	redis.call("HDEL", KEYS[4], f)
	redis.call("DEL", KEYS[6 + i - 3])
end
if ARGV[2] == "1" then
	redis.call("HDEL", KEYS[5], ARGV[1])
end
if redis.call("HLEN", KEYS[1]) == 0 then
	redis.call("SREM", KEYS[2], ARGV[1])
end
return n
`)

// Delete removes the chat's subscriptions ids — every one when ids is empty — and reports how
// many there were. forget removes the chat's time zone too (the chat is gone: the user blocked
// the bot).
func (s *RedisSubscriptions) Delete(ctx context.Context, chatID int64, ids []string, forget bool) (int, error) {
	if len(ids) == 0 {
		all, err := s.rdb.HKeys(ctx, s.chat(chatID)).Result()
		if err != nil {
			return 0, unavailable("delete", err)
		}
		ids = all
	}
	keys := []string{s.chat(chatID), s.chats(), s.done(), s.state(), s.zones()}
	args := []any{strconv.FormatInt(chatID, 10), "0"}
	if forget {
		args[1] = "1"
	}
	for _, id := range ids {
		keys = append(keys, s.fence(chatID, id))
		args = append(args, id)
	}
	n, err := deleteSubsScript.Run(ctx, s.rdb, keys, args...).Int()
	if err != nil {
		return 0, unavailable("delete", err)
	}
	return n, nil
}

// Chat returns the chat's subscriptions, by id.
func (s *RedisSubscriptions) Chat(ctx context.Context, chatID int64) ([]Subscription, error) {
	m, err := s.rdb.HGetAll(ctx, s.chat(chatID)).Result()
	if err != nil {
		return nil, unavailable("chat", err)
	}
	return entries(chatID, m), nil
}

func entries(chatID int64, m map[string]string) []Subscription {
	out := make([]Subscription, 0, len(m))
	for _, id := range slices.Sorted(maps.Keys(m)) {
		out = append(out, Subscription{ChatID: chatID, ID: id, Data: []byte(m[id])})
	}
	return out
}

// All returns every chat's subscriptions.
func (s *RedisSubscriptions) All(ctx context.Context) ([]Subscription, error) {
	ids, err := s.rdb.SMembers(ctx, s.chats()).Result()
	if err != nil {
		return nil, unavailable("all", err)
	}
	chats := make([]int64, 0, len(ids))
	for _, id := range ids {
		if c, err := strconv.ParseInt(id, 10, 64); err == nil {
			chats = append(chats, c)
		}
	}
	slices.Sort(chats)
	cmds := make([]*redis.MapStringStringCmd, len(chats))
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, c := range chats {
			cmds[i] = p.HGetAll(ctx, s.chat(c))
		}
		return nil
	})
	if err != nil {
		return nil, unavailable("all", err)
	}
	var out []Subscription
	for i, c := range chats {
		out = append(out, entries(c, cmds[i].Val())...)
	}
	return out, nil
}

// SetZone keeps the chat's time zone (an IANA name the caller checked).
func (s *RedisSubscriptions) SetZone(ctx context.Context, chatID int64, zone string) error {
	if err := s.rdb.HSet(ctx, s.zones(), strconv.FormatInt(chatID, 10), zone).Err(); err != nil {
		return unavailable("set zone", err)
	}
	return nil
}

// Zone is the chat's time zone; "" when it set none.
func (s *RedisSubscriptions) Zone(ctx context.Context, chatID int64) (string, error) {
	z, err := s.rdb.HGet(ctx, s.zones(), strconv.FormatInt(chatID, 10)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return "", nil
	case err != nil:
		return "", unavailable("zone", err)
	}
	return z, nil
}

// Zones are the time zones chats set, by chat.
func (s *RedisSubscriptions) Zones(ctx context.Context) (map[int64]string, error) {
	m, err := s.rdb.HGetAll(ctx, s.zones()).Result()
	if err != nil {
		return nil, unavailable("zones", err)
	}
	out := make(map[int64]string, len(m))
	for k, v := range m {
		if c, err := strconv.ParseInt(k, 10, 64); err == nil {
			out[c] = v
		}
	}
	return out, nil
}

// Delivered is the latest slot of the chat's subscription id that was delivered (Unix seconds);
// 0 for none.
func (s *RedisSubscriptions) Delivered(ctx context.Context, chatID int64, id string) (int64, error) {
	n, err := s.rdb.HGet(ctx, s.done(), subField(chatID, id)).Int64()
	switch {
	case errors.Is(err, redis.Nil):
		return 0, nil
	case err != nil:
		return 0, unavailable("delivered", err)
	}
	return n, nil
}

// Claim takes slot of the chat's subscription id for this instance for ttl. It returns nil
// and no error when another instance holds the slot, and ErrDelivered when the slot (or a later
// one) was delivered or the subscription is gone.
func (s *RedisSubscriptions) Claim(ctx context.Context, chatID int64, id string, slot int64, ttl time.Duration) (*SlotRun, error) {
	lease := NewLeaseFenced(s.rdb, s.run(chatID, id, slot), s.fence(chatID, id), ttl)
	token, ok, err := lease.Acquire(ctx)
	if err != nil || !ok {
		return nil, err
	}
	f := subField(chatID, id)
	var done, state *redis.StringCmd
	var exists *redis.BoolCmd
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		done = p.HGet(ctx, s.done(), f)
		state = p.HGet(ctx, s.state(), f)
		exists = p.HExists(ctx, s.chat(chatID), id)
		return nil
	})
	err = nil // a field not set is redis.Nil: not an error here
	for _, c := range []redis.Cmder{done, state, exists} {
		if e := c.Err(); e != nil && !errors.Is(e, redis.Nil) {
			err = e
			break
		}
	}
	if err != nil {
		lease.Release(context.WithoutCancel(ctx), token)
		return nil, unavailable("claim", err)
	}
	last, _ := done.Int64()
	if last >= slot || !exists.Val() {
		// Delivered by an instance that finished after this one looked, or unsubscribed.
		if err := lease.Release(ctx, token); err != nil {
			return nil, err
		}
		return nil, ErrDelivered
	}
	r := &SlotRun{ChatID: chatID, ID: id, Slot: slot, Token: token, lease: lease}
	if b, err := state.Bytes(); err == nil {
		r.State = b
	}
	return r, nil
}

// Renew extends the run's lease for another ttl; false when the run lost it (it lapsed and
// another instance took the slot): the run must stop without delivering.
func (s *RedisSubscriptions) Renew(ctx context.Context, r *SlotRun) (bool, error) {
	token, ok, err := r.lease.Acquire(ctx)
	if err != nil {
		return false, err
	}
	return ok && token == r.Token, nil
}

// finishScript, fenced by the run's lease (KEYS[1] must hold ARGV[1]), records slot ARGV[3] as
// delivered for field ARGV[2] (unless a later one is), the state ARGV[6] when ARGV[5] is "1",
// both only while the subscription ARGV[4] still exists (KEYS[4]), and drops the lease. It
// returns 0 when the lease is not the run's.
var finishScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) ~= ARGV[1] then
	return 0
end
if redis.call("HEXISTS", KEYS[4], ARGV[4]) == 1 then
	local last = tonumber(redis.call("HGET", KEYS[2], ARGV[2]) or "0")
	if tonumber(ARGV[3]) > last then
		redis.call("HSET", KEYS[2], ARGV[2], ARGV[3])
	end
	if ARGV[5] == "1" then
		redis.call("HSET", KEYS[3], ARGV[2], ARGV[6])
	end
end
redis.call("DEL", KEYS[1])
return 1
`)

// Finish records the run's slot as delivered and, when state is not nil, the subscription's
// new state, and ends the run. false: the run had lost its lease, and nothing was recorded.
func (s *RedisSubscriptions) Finish(ctx context.Context, r *SlotRun, state []byte) (bool, error) {
	set := "0"
	if state != nil {
		set = "1"
	}
	n, err := finishScript.Run(ctx, s.rdb, []string{r.lease.key, s.done(), s.state(), s.chat(r.ChatID)},
		r.lease.Value(r.Token), subField(r.ChatID, r.ID), r.Slot, r.ID, set, state).Int()
	if err != nil {
		return false, unavailable("finish", err)
	}
	return n == 1, nil
}

// Release ends the run without recording its slot: the slot stays due.
func (s *RedisSubscriptions) Release(ctx context.Context, r *SlotRun) error {
	return r.lease.Release(ctx, r.Token)
}

// MemorySubscriptions keeps subscriptions in this process, when no Redis is configured: the
// same behaviour as RedisSubscriptions for one instance, until the process stops. It is safe
// for concurrent use.
type MemorySubscriptions struct {
	mu     sync.Mutex
	subs   map[int64]map[string][]byte
	zones  map[int64]string
	done   map[string]int64
	state  map[string][]byte
	runs   map[string]int64 // run key -> the holder's token
	tokens int64
}

// NewMemorySubscriptions returns an empty in-process store.
func NewMemorySubscriptions() *MemorySubscriptions {
	return &MemorySubscriptions{subs: map[int64]map[string][]byte{}, zones: map[int64]string{},
		done: map[string]int64{}, state: map[string][]byte{}, runs: map[string]int64{}}
}

// Put is RedisSubscriptions.Put.
func (m *MemorySubscriptions) Put(_ context.Context, chatID int64, id string, data []byte, max int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.subs[chatID]
	if _, ok := c[id]; !ok && len(c) >= max {
		return ErrTooManySubscriptions
	}
	if c == nil {
		c = map[string][]byte{}
		m.subs[chatID] = c
	}
	c[id] = slices.Clone(data)
	return nil
}

// Delete is RedisSubscriptions.Delete.
func (m *MemorySubscriptions) Delete(_ context.Context, chatID int64, ids []string, forget bool) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.subs[chatID]
	if len(ids) == 0 {
		ids = slices.Collect(maps.Keys(c))
	}
	n := 0
	for _, id := range ids {
		if _, ok := c[id]; ok {
			n++
		}
		delete(c, id)
		delete(m.done, subField(chatID, id))
		delete(m.state, subField(chatID, id))
	}
	if len(c) == 0 {
		delete(m.subs, chatID)
	}
	if forget {
		delete(m.zones, chatID)
	}
	return n, nil
}

// Chat is RedisSubscriptions.Chat.
func (m *MemorySubscriptions) Chat(_ context.Context, chatID int64) ([]Subscription, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.chatLocked(chatID), nil
}

func (m *MemorySubscriptions) chatLocked(chatID int64) []Subscription {
	c := m.subs[chatID]
	out := make([]Subscription, 0, len(c))
	for _, id := range slices.Sorted(maps.Keys(c)) {
		out = append(out, Subscription{ChatID: chatID, ID: id, Data: slices.Clone(c[id])})
	}
	return out
}

// All is RedisSubscriptions.All.
func (m *MemorySubscriptions) All(context.Context) ([]Subscription, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Subscription
	for _, c := range slices.Sorted(maps.Keys(m.subs)) {
		out = append(out, m.chatLocked(c)...)
	}
	return out, nil
}

// SetZone is RedisSubscriptions.SetZone.
func (m *MemorySubscriptions) SetZone(_ context.Context, chatID int64, zone string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.zones[chatID] = zone
	return nil
}

// Zone is RedisSubscriptions.Zone.
func (m *MemorySubscriptions) Zone(_ context.Context, chatID int64) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.zones[chatID], nil
}

// Zones is RedisSubscriptions.Zones.
func (m *MemorySubscriptions) Zones(context.Context) (map[int64]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.zones), nil
}

// Delivered is RedisSubscriptions.Delivered.
func (m *MemorySubscriptions) Delivered(_ context.Context, chatID int64, id string) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.done[subField(chatID, id)], nil
}

// Claim is RedisSubscriptions.Claim; a run's lease never lapses in one process.
func (m *MemorySubscriptions) Claim(_ context.Context, chatID int64, id string, slot int64, _ time.Duration) (*SlotRun, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f := subField(chatID, id)
	key := f + ":" + strconv.FormatInt(slot, 10)
	if _, held := m.runs[key]; held {
		return nil, nil
	}
	if _, ok := m.subs[chatID][id]; !ok || m.done[f] >= slot {
		return nil, ErrDelivered
	}
	m.tokens++
	m.runs[key] = m.tokens
	return &SlotRun{ChatID: chatID, ID: id, Slot: slot, Token: m.tokens, State: slices.Clone(m.state[f]), holder: m.tokens}, nil
}

func (r *SlotRun) memKey() string {
	return subField(r.ChatID, r.ID) + ":" + strconv.FormatInt(r.Slot, 10)
}

// Renew is RedisSubscriptions.Renew.
func (m *MemorySubscriptions) Renew(_ context.Context, r *SlotRun) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runs[r.memKey()] == r.holder, nil
}

// Finish is RedisSubscriptions.Finish.
func (m *MemorySubscriptions) Finish(_ context.Context, r *SlotRun, state []byte) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.runs[r.memKey()] != r.holder {
		return false, nil
	}
	delete(m.runs, r.memKey())
	f := subField(r.ChatID, r.ID)
	if _, ok := m.subs[r.ChatID][r.ID]; ok {
		m.done[f] = max(m.done[f], r.Slot)
		if state != nil {
			m.state[f] = slices.Clone(state)
		}
	}
	return true, nil
}

// Release is RedisSubscriptions.Release.
func (m *MemorySubscriptions) Release(_ context.Context, r *SlotRun) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.runs[r.memKey()] == r.holder {
		delete(m.runs, r.memKey())
	}
	return nil
}
