// Package testredis gives tests the real Redis at REDIS_URL (default redis://127.0.0.1:6379/0):
// a client, and a key prefix of their own whose keys go when the test ends. Only tests import it.
//
// Redis is not mocked: where none answers PING, a test that needs it is skipped, or fails when
// FINBOT_REQUIRE_REDIS=1 (CI sets it).
package testredis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
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
func Client(tb testing.TB) *redis.Client {
	tb.Helper()
	rdb, err := connect(tb)
	if err != nil {
		tb.Skipf("%v (set REDIS_URL, or FINBOT_REQUIRE_REDIS=1 to fail instead)", err)
	}
	return rdb
}

// Optional is Client for a test that also runs without Redis: nil where none answers (a
// failure when FINBOT_REQUIRE_REDIS=1).
func Optional(tb testing.TB) *redis.Client {
	tb.Helper()
	rdb, _ := connect(tb)
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
		for len(keys) > 0 {
			n := min(len(keys), 1000)
			if err := rdb.Del(ctx, keys[:n]...).Err(); err != nil {
				tb.Errorf("cleanup: del: %v", err)
				return
			}
			keys = keys[n:]
		}
	})
	return prefix
}

// Keys returns every key that starts with prefix, which must hold no glob character ('*', '?',
// '['; braces are none).
func Keys(ctx context.Context, rdb redis.UniversalClient, prefix string) ([]string, error) {
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
