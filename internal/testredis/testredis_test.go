package testredis

import (
	"context"
	"errors"
	"testing"

	"github.com/redis/go-redis/v9"
)

// The cluster target catches a transaction over keys of different slots (what a missing hash
// tag does), so the Redis suites run on it prove that each store keeps a transaction's keys in
// one slot. Prefix cleans up keys spread over every master.
func TestClusterRefusesCrossSlotTransactions(t *testing.T) {
	rdb := Cluster(t)
	ctx := t.Context()
	var keys []string
	prefix := ""
	t.Run("cleanup", func(t *testing.T) {
		prefix = Prefix(t, rdb)
		for _, tag := range []string{"a", "b", "c", "d", "e", "f"} {
			k := prefix + "{" + tag + "}:k"
			keys = append(keys, k)
			if err := rdb.Set(ctx, k, 1, 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
		_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, keys[0])
			p.Incr(ctx, keys[1])
			return nil
		})
		if !errors.Is(err, redis.ErrCrossSlot) {
			t.Errorf("MULTI over {a} and {b}: err = %v, want %v", err, redis.ErrCrossSlot)
		}
		err = rdb.Watch(ctx, func(tx *redis.Tx) error { return nil }, keys[0], keys[1])
		if err == nil {
			t.Error("WATCH over {a} and {b}: no error")
		}
		same := prefix + "{a}:other"
		if _, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, keys[0])
			p.Incr(ctx, same)
			return nil
		}); err != nil {
			t.Errorf("MULTI within {a}: %v", err)
		}
		got, err := Keys(ctx, rdb, prefix)
		if err != nil || len(got) != len(keys)+1 {
			t.Errorf("Keys over every master = %d keys (%v), want %d", len(got), err, len(keys)+1)
		}
	})
	got, err := Keys(context.Background(), rdb, prefix)
	if err != nil || len(got) != 0 {
		t.Errorf("after cleanup %d keys are left (%v)", len(got), err)
	}
}
