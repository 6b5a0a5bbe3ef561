// Package testredis gives tests the real Redis at REDIS_URL (default redis://127.0.0.1:6379/0)
// and the real Redis Cluster at REDIS_CLUSTER_ADDRS (host:port of its nodes, comma-separated;
// the test command starts one with .ci/redis-cluster.sh): a client, and a key prefix of their
// own whose keys go when the test ends. Only tests import it.
//
// Redis is not mocked: where none answers, a test that needs it is skipped, or fails when
// FINBOT_REQUIRE_REDIS=1 (CI sets it, and starts both).
package testredis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// URL returns REDIS_URL or the local default.
func URL() string {
	if url := os.Getenv("REDIS_URL"); url != "" {
		return url
	}
	return "redis://127.0.0.1:6379/0"
}

// probe pings Redis once per test binary, so that a missing server costs one timeout rather
// than one per test.
var probe = sync.OnceValue(func() error {
	opt, err := redis.ParseURL(URL())
	if err != nil {
		return err
	}
	opt.ContextTimeoutEnabled = true
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return rdb.Ping(ctx).Err()
})

// Client connects to URL, closed when the test ends. When Redis does not answer PING the test
// is skipped, or fails when FINBOT_REQUIRE_REDIS=1.
func Client(tb testing.TB) redis.UniversalClient {
	tb.Helper()
	rdb, err := connect(tb)
	if err != nil {
		tb.Skipf("%v (set REDIS_URL, or FINBOT_REQUIRE_REDIS=1 to fail instead)", err)
	}
	return rdb
}

// Optional is Client for a test that also runs without Redis: nil where none answers (a
// failure when FINBOT_REQUIRE_REDIS=1).
func Optional(tb testing.TB) redis.UniversalClient {
	tb.Helper()
	rdb, err := connect(tb)
	if err != nil {
		return nil // an untyped nil: callers compare with nil
	}
	return rdb
}

func connect(tb testing.TB) (*redis.Client, error) {
	tb.Helper()
	url := URL()
	opt, err := redis.ParseURL(url)
	if err != nil {
		tb.Fatalf("parse REDIS_URL %q: %v", url, err)
	}
	opt.ContextTimeoutEnabled = true
	if err := probe(); err != nil {
		if os.Getenv("FINBOT_REQUIRE_REDIS") == "1" {
			tb.Fatalf("redis at %s unavailable and FINBOT_REQUIRE_REDIS=1: %v", opt.Addr, err)
		}
		return nil, fmt.Errorf("redis at %s unavailable: %w", opt.Addr, err)
	}
	rdb := redis.NewClient(opt)
	tb.Cleanup(func() { _ = rdb.Close() })
	return rdb, nil
}

// Prefix returns a unique key prefix ("test:<hex>:") and deletes every key under it when the
// test ends.
func Prefix(tb testing.TB, rdb redis.UniversalClient) string {
	tb.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	prefix := "test:" + hex.EncodeToString(b) + ":"
	tb.Cleanup(func() {
		// t.Context() is already cancelled during cleanup.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		keys, err := Keys(ctx, rdb, prefix)
		if err != nil {
			tb.Errorf("cleanup: %v", err)
			return
		}
		// One DEL per key, pipelined: on a cluster the keys live in different slots.
		for len(keys) > 0 {
			n := min(len(keys), 1000)
			_, err := rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
				for _, k := range keys[:n] {
					p.Del(ctx, k)
				}
				return nil
			})
			if err != nil {
				tb.Errorf("cleanup: del: %v", err)
				return
			}
			keys = keys[n:]
		}
	})
	return prefix
}

// Keys returns every key that starts with prefix, which must hold no glob character ('*', '?',
// '['; braces are none). On a cluster it scans every master.
func Keys(ctx context.Context, rdb redis.UniversalClient, prefix string) ([]string, error) {
	cc, ok := rdb.(*redis.ClusterClient)
	if !ok {
		return scan(ctx, rdb, prefix)
	}
	var (
		mu   sync.Mutex
		keys []string
	)
	err := cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		ks, err := scan(ctx, node, prefix)
		mu.Lock()
		keys = append(keys, ks...)
		mu.Unlock()
		return err
	})
	return keys, err
}

func scan(ctx context.Context, rdb redis.UniversalClient, prefix string) ([]string, error) {
	iter := rdb.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		return nil, fmt.Errorf("scan %s*: %w", prefix, err)
	}
	return keys, nil
}

// ClusterAddrs returns the nodes of the test Redis Cluster, REDIS_CLUSTER_ADDRS split at commas;
// nil when it is unset.
func ClusterAddrs() []string {
	var addrs []string
	for a := range strings.SplitSeq(os.Getenv("REDIS_CLUSTER_ADDRS"), ",") {
		if a = strings.TrimSpace(a); a != "" {
			addrs = append(addrs, a)
		}
	}
	return addrs
}

func clusterOptions() *redis.ClusterOptions {
	return &redis.ClusterOptions{Addrs: ClusterAddrs(), ContextTimeoutEnabled: true, DialTimeout: 2 * time.Second}
}

// clusterProbe checks once per test binary that the cluster answers with every slot served.
var clusterProbe = sync.OnceValue(func() error {
	if len(ClusterAddrs()) == 0 {
		return fmt.Errorf("no redis cluster: REDIS_CLUSTER_ADDRS is unset (bash .ci/redis-cluster.sh starts one)")
	}
	rdb := redis.NewClusterClient(clusterOptions())
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	info, err := rdb.ClusterInfo(ctx).Result()
	if err != nil {
		return fmt.Errorf("redis cluster at %s unavailable: %w", os.Getenv("REDIS_CLUSTER_ADDRS"), err)
	}
	if !strings.Contains(info, "cluster_state:ok") {
		return fmt.Errorf("redis cluster at %s is not ok (cluster_state)", os.Getenv("REDIS_CLUSTER_ADDRS"))
	}
	return nil
})

// Cluster connects to the Redis Cluster at REDIS_CLUSTER_ADDRS, closed when the test ends. When
// none is configured or it does not answer, the test is skipped, or fails when
// FINBOT_REQUIRE_REDIS=1.
func Cluster(tb testing.TB) redis.UniversalClient {
	tb.Helper()
	if err := clusterProbe(); err != nil {
		if os.Getenv("FINBOT_REQUIRE_REDIS") == "1" {
			tb.Fatalf("%v, and FINBOT_REQUIRE_REDIS=1", err)
		}
		tb.Skipf("%v (set REDIS_CLUSTER_ADDRS, or FINBOT_REQUIRE_REDIS=1 to fail instead)", err)
	}
	rdb := redis.NewClusterClient(clusterOptions())
	tb.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// Target is one Redis the Redis suites run against.
type Target struct {
	Name string
	Open func(testing.TB) redis.UniversalClient // skips (or fails) as Client and Cluster do
}

// Targets are the single server (REDIS_URL) and the three-master cluster (REDIS_CLUSTER_ADDRS):
// a store's Redis suite runs over both, so that every transaction and script is seen to keep
// its keys in one slot.
func Targets() []Target {
	return []Target{{"redis", Client}, {"cluster", Cluster}}
}
