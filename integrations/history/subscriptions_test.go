package history

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"
)

// subscriptions is the behaviour RedisSubscriptions and MemorySubscriptions share.
type subscriptions interface {
	Put(ctx context.Context, chatID int64, id string, data []byte, max int) error
	Delete(ctx context.Context, chatID int64, ids []string, forget bool) (int, error)
	Chat(ctx context.Context, chatID int64) ([]Subscription, error)
	All(ctx context.Context) ([]Subscription, error)
	SetZone(ctx context.Context, chatID int64, zone string) error
	Zone(ctx context.Context, chatID int64) (string, error)
	Zones(ctx context.Context) (map[int64]string, error)
	Delivered(ctx context.Context, chatID int64, id string) (int64, error)
	Claim(ctx context.Context, chatID int64, id string, slot int64, ttl time.Duration) (*SlotRun, error)
	Renew(ctx context.Context, r *SlotRun) (bool, error)
	Finish(ctx context.Context, r *SlotRun, state []byte) (bool, error)
	Release(ctx context.Context, r *SlotRun) error
}

var (
	_ subscriptions = (*RedisSubscriptions)(nil)
	_ subscriptions = (*MemorySubscriptions)(nil)
)

// eachSubscriptions runs test on the in-process store and on Redis (single server and
// Cluster), handing it a constructor of instances that share one store.
func eachSubscriptions(t *testing.T, test func(t *testing.T, instance func() subscriptions)) {
	t.Run("memory", func(t *testing.T) {
		m := NewMemorySubscriptions()
		test(t, func() subscriptions { return m })
	})
	eachRedis(t, func(t *testing.T, open func(testing.TB) redis.UniversalClient) {
		rdb := open(t)
		prefix := testPrefix(t, rdb)
		test(t, func() subscriptions { return NewRedisSubscriptions(rdb, prefix) })
	})
}

func TestSubscriptionsLifecycle(t *testing.T) {
	eachSubscriptions(t, func(t *testing.T, instance func() subscriptions) {
		s, ctx := instance(), t.Context()
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.Put(ctx, 7, "morning", []byte(`{"h":9}`), 2))
		must(s.Put(ctx, 7, "keyrate", []byte(`{}`), 2))
		must(s.Put(ctx, 7, "morning", []byte(`{"h":8}`), 2)) // a replacement is not one more
		if err := s.Put(ctx, 7, "weekly", []byte(`{}`), 2); !errors.Is(err, ErrTooManySubscriptions) {
			t.Fatalf("third subscription: %v, want ErrTooManySubscriptions", err)
		}
		must(s.Put(ctx, -100, "weekly", []byte(`{"g":1}`), 2))
		must(s.SetZone(ctx, 7, "Asia/Yekaterinburg"))

		all, err := s.All(ctx)
		must(err)
		want := []Subscription{
			{ChatID: -100, ID: "weekly", Data: []byte(`{"g":1}`)},
			{ChatID: 7, ID: "keyrate", Data: []byte(`{}`)},
			{ChatID: 7, ID: "morning", Data: []byte(`{"h":8}`)},
		}
		if diff := cmp.Diff(want, all); diff != "" {
			t.Fatalf("All (-want +got):\n%s", diff)
		}
		if z, _ := s.Zone(ctx, 7); z != "Asia/Yekaterinburg" {
			t.Fatalf("Zone = %q", z)
		}
		if z, _ := s.Zone(ctx, 8); z != "" {
			t.Fatalf("Zone of a chat that set none = %q", z)
		}

		// A delivered slot and an alert's state go with the subscription.
		r, err := s.Claim(ctx, 7, "keyrate", 100, time.Minute)
		must(err)
		if ok, err := s.Finish(ctx, r, []byte("21.00")); !ok || err != nil {
			t.Fatalf("Finish = %v, %v", ok, err)
		}
		if n, err := s.Delete(ctx, 7, []string{"keyrate", "nothing"}, false); n != 1 || err != nil {
			t.Fatalf("Delete = %d, %v; want 1", n, err)
		}
		if d, _ := s.Delivered(ctx, 7, "keyrate"); d != 0 {
			t.Fatalf("a deleted subscription's delivered slot = %d", d)
		}
		must(s.Put(ctx, 7, "keyrate", []byte(`{}`), 2))
		r, err = s.Claim(ctx, 7, "keyrate", 100, time.Minute)
		must(err)
		if r == nil || r.State != nil {
			t.Fatalf("subscribed again: claim = %+v; want the slot due and no state", r)
		}
		must(s.Release(ctx, r))

		// Everything of the chat, and with forget its zone.
		if n, err := s.Delete(ctx, 7, nil, false); n != 2 || err != nil {
			t.Fatalf("Delete all = %d, %v; want 2", n, err)
		}
		if z, _ := s.Zone(ctx, 7); z == "" {
			t.Fatal("the zone went without forget")
		}
		must(s.Put(ctx, 7, "morning", []byte(`{}`), 2))
		if n, err := s.Delete(ctx, 7, nil, true); n != 1 || err != nil {
			t.Fatalf("Delete all, forget = %d, %v", n, err)
		}
		if z, _ := s.Zone(ctx, 7); z != "" {
			t.Fatalf("the zone stayed after forget: %q", z)
		}
		all, _ = s.All(ctx)
		if len(all) != 1 || all[0].ChatID != -100 {
			t.Fatalf("All after the deletes = %+v", all)
		}
		if zs, _ := s.Zones(ctx); len(zs) != 0 {
			t.Fatalf("Zones = %v", zs)
		}
	})
}

// TestSlotRunsOnce: of two instances claiming one slot, one runs it; after it finished, neither
// runs it again, nor an earlier slot; the next slot is due; a released slot stays due.
func TestSlotRunsOnce(t *testing.T) {
	eachSubscriptions(t, func(t *testing.T, instance func() subscriptions) {
		a, b, ctx := instance(), instance(), t.Context()
		if err := a.Put(ctx, 1, "morning", []byte(`{}`), 10); err != nil {
			t.Fatal(err)
		}
		claim := func(s subscriptions, slot int64) *SlotRun {
			t.Helper()
			r, err := s.Claim(ctx, 1, "morning", slot, time.Minute)
			if err != nil && !errors.Is(err, ErrDelivered) {
				t.Fatal(err)
			}
			return r
		}
		ra := claim(a, 1000)
		if ra == nil {
			t.Fatal("the first claim got nothing")
		}
		if rb := claim(b, 1000); rb != nil {
			t.Fatal("a second instance claimed a held slot")
		}
		if ok, err := a.Renew(ctx, ra); !ok || err != nil {
			t.Fatalf("Renew = %v, %v", ok, err)
		}
		if ok, err := a.Finish(ctx, ra, nil); !ok || err != nil {
			t.Fatalf("Finish = %v, %v", ok, err)
		}
		for _, slot := range []int64{1000, 900} {
			if r, err := b.Claim(ctx, 1, "morning", slot, time.Minute); r != nil || !errors.Is(err, ErrDelivered) {
				t.Fatalf("slot %d after 1000 was delivered: %v, %v; want ErrDelivered", slot, r, err)
			}
		}
		if d, _ := b.Delivered(ctx, 1, "morning"); d != 1000 {
			t.Fatalf("Delivered = %d", d)
		}
		rb := claim(b, 2000)
		if rb == nil {
			t.Fatal("the next slot is not due")
		}
		if err := b.Release(ctx, rb); err != nil {
			t.Fatal(err)
		}
		if r := claim(a, 2000); r == nil {
			t.Fatal("a released slot is not due")
		}
	})
}

// TestSlotRunFenced: a run whose lease lapsed while it was paused, and which another instance
// took over, cannot record the slot or the state with its old token, nor renew.
func TestSlotRunFenced(t *testing.T) {
	eachRedis(t, func(t *testing.T, open func(testing.TB) redis.UniversalClient) {
		rdb := open(t)
		prefix := testPrefix(t, rdb)
		a, b, ctx := NewRedisSubscriptions(rdb, prefix), NewRedisSubscriptions(rdb, prefix), t.Context()
		if err := a.Put(ctx, 5, "keyrate", []byte(`{}`), 10); err != nil {
			t.Fatal(err)
		}
		ra, err := a.Claim(ctx, 5, "keyrate", 3600, time.Minute)
		if err != nil || ra == nil {
			t.Fatalf("Claim = %v, %v", ra, err)
		}
		rdb.Del(ctx, ra.lease.key) // the lease lapses, as PX does
		rb, err := b.Claim(ctx, 5, "keyrate", 3600, time.Minute)
		if err != nil || rb == nil || rb.Token <= ra.Token {
			t.Fatalf("takeover = %+v, %v; want a token above %d", rb, err, ra.Token)
		}
		if ok, err := a.Renew(ctx, ra); ok || err != nil {
			t.Fatalf("stale Renew = %v, %v; want refused", ok, err)
		}
		if ok, err := a.Finish(ctx, ra, []byte("stale")); ok || err != nil {
			t.Fatalf("stale Finish = %v, %v; want refused", ok, err)
		}
		if d, _ := a.Delivered(ctx, 5, "keyrate"); d != 0 {
			t.Fatalf("the stale run recorded slot %d", d)
		}
		if ok, err := b.Finish(ctx, rb, []byte("21.00")); !ok || err != nil {
			t.Fatalf("Finish = %v, %v", ok, err)
		}
		if err := a.Put(ctx, 5, "keyrate", []byte(`{}`), 10); err != nil {
			t.Fatal(err)
		}
		r, _ := a.Claim(ctx, 5, "keyrate", 7200, time.Minute)
		if r == nil || string(r.State) != "21.00" {
			t.Fatalf("next run's state = %+v; want the holder's 21.00", r)
		}
		a.Release(ctx, r)
	})
}

// TestSlotRunUnsubscribed: a chat that unsubscribes while a run delivers leaves no done mark or
// state behind it.
func TestSlotRunUnsubscribed(t *testing.T) {
	eachSubscriptions(t, func(t *testing.T, instance func() subscriptions) {
		s, ctx := instance(), t.Context()
		if err := s.Put(ctx, 9, "debtor:100", []byte(`{}`), 10); err != nil {
			t.Fatal(err)
		}
		r, err := s.Claim(ctx, 9, "debtor:100", 60, time.Minute)
		if err != nil || r == nil {
			t.Fatalf("Claim = %v, %v", r, err)
		}
		if _, err := s.Delete(ctx, 9, nil, true); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.Finish(ctx, r, []byte(`["a"]`)); !ok || err != nil {
			t.Fatalf("Finish = %v, %v", ok, err)
		}
		if d, _ := s.Delivered(ctx, 9, "debtor:100"); d != 0 {
			t.Fatalf("Delivered = %d after unsubscribing", d)
		}
		if r, err := s.Claim(ctx, 9, "debtor:100", 120, time.Minute); r != nil || !errors.Is(err, ErrDelivered) {
			t.Fatalf("a gone subscription: %v, %v; want ErrDelivered", r, err)
		}
	})
}
