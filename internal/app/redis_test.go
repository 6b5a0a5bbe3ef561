package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// REDIS_URL is read as one server, a Cluster's seed nodes or the Sentinels of a master, and
// each gives one redis.UniversalClient.
func TestRedisClientTopologies(t *testing.T) {
	tests := []struct {
		name  string
		env   map[string]string
		check func(t *testing.T, rdb redis.UniversalClient)
	}{
		{"single", map[string]string{"REDIS_URL": "redis://:pw1234@h1:6380/2"}, func(t *testing.T, rdb redis.UniversalClient) {
			c, ok := rdb.(*redis.Client)
			if !ok {
				t.Fatalf("client = %T, want *redis.Client", rdb)
			}
			if o := c.Options(); o.Addr != "h1:6380" || o.DB != 2 || o.Password != "pw1234" || !o.ContextTimeoutEnabled || o.MaxRetries != 1 {
				t.Errorf("options: addr %s db %d retries %d context %v", o.Addr, o.DB, o.MaxRetries, o.ContextTimeoutEnabled)
			}
		}},
		{"cluster", map[string]string{"REDIS_URL": "redis://:pw1234@h1:7001?addr=h2:7002&addr=h3:7003&read_timeout=4s", "REDIS_CLUSTER": "true"}, func(t *testing.T, rdb redis.UniversalClient) {
			c, ok := rdb.(*redis.ClusterClient)
			if !ok {
				t.Fatalf("client = %T, want *redis.ClusterClient", rdb)
			}
			o := c.Options()
			if want := []string{"h1:7001", "h2:7002", "h3:7003"}; !slices.Equal(o.Addrs, want) {
				t.Errorf("seeds = %v, want %v", o.Addrs, want)
			}
			if o.Password != "pw1234" || !o.ContextTimeoutEnabled || o.DialTimeout != redisDialTimeout || o.ReadTimeout.String() != "4s" {
				t.Errorf("options: context %v dial %s read %s", o.ContextTimeoutEnabled, o.DialTimeout, o.ReadTimeout)
			}
		}},
		{"sentinel", map[string]string{"REDIS_URL": "redis://s1:26379?addr=s2:26379&password=master-pw", "REDIS_SENTINEL_MASTER": "mymaster"}, func(t *testing.T, rdb redis.UniversalClient) {
			c, ok := rdb.(*redis.Client)
			if !ok {
				t.Fatalf("client = %T, want the failover *redis.Client", rdb)
			}
			if o := c.Options(); o.Addr != "FailoverClient" || o.Password != "master-pw" || !o.ContextTimeoutEnabled {
				t.Errorf("options: addr %s context %v", o.Addr, o.ContextTimeoutEnabled)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rdb, err := redisClient(loadConfig(t, tt.env))
			if err != nil {
				t.Fatal(err)
			}
			defer rdb.Close()
			tt.check(t, rdb)
		})
	}
}

// What config.Load lets through but go-redis refuses (an unknown parameter) is an error that
// names REDIS_URL and never the password.
func TestRedisClientErrorsHideThePassword(t *testing.T) {
	const pw = "pw-s3cr3t"
	for _, env := range []map[string]string{
		{"REDIS_URL": "redis://:" + pw + "@h1:6379/0?bogus=" + pw},
		{"REDIS_URL": "redis://:" + pw + "@h1:7001?addr=h2:7002&bogus=1", "REDIS_CLUSTER": "true"},
		{"REDIS_URL": "redis://:" + pw + "@s1:26379?addr=s2:26379&bogus=1&password=" + pw, "REDIS_SENTINEL_MASTER": "m"},
	} {
		_, err := redisClient(loadConfig(t, env))
		if err == nil {
			t.Errorf("%v: no error", env)
			continue
		}
		if msg := fmt.Sprint(err); !strings.HasPrefix(msg, "REDIS_URL") || strings.Contains(msg, pw) {
			t.Errorf("error = %q: want REDIS_URL named and no password", msg)
		}
	}
}
