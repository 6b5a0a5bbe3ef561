package config

import (
	"fmt"
	"strings"
	"testing"
)

func TestRedisTopologies(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want RedisTopology
	}{
		{"single", map[string]string{"REDIS_URL": "redis://:pw1234@h:6379/2"}, RedisSingle},
		{"cluster", map[string]string{"REDIS_URL": "redis://:pw1234@h1:7001?addr=h2:7002&addr=h3:7003", "REDIS_CLUSTER": "true"}, RedisCluster},
		{"cluster of one seed, database 0", map[string]string{"REDIS_URL": "rediss://h1:7001/0", "REDIS_CLUSTER": "1"}, RedisCluster},
		{"sentinel", map[string]string{"REDIS_URL": "redis://s1:26379?addr=s2:26379&addr=[::1]:26379&password=master-pw", "REDIS_SENTINEL_MASTER": "mymaster"}, RedisSentinel},
		{"cluster off", map[string]string{"REDIS_URL": "redis://h:6379/0", "REDIS_CLUSTER": "false"}, RedisSingle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.RedisTopology(); got != tt.want {
				t.Errorf("RedisTopology() = %v, want %v", got, tt.want)
			}
		})
	}
}

// Every wrong combination is reported with the variable to fix, and never with the password
// (the user info's, or the master's in the query).
func TestRedisTopologyErrors(t *testing.T) {
	const pw = "s3cr3t-pw"
	tests := []struct {
		name string
		env  map[string]string
		want string // in the error
	}{
		{"cluster and sentinel", map[string]string{"REDIS_URL": "redis://:" + pw + "@h1:7001", "REDIS_CLUSTER": "true", "REDIS_SENTINEL_MASTER": "m"}, "REDIS_CLUSTER and REDIS_SENTINEL_MASTER are both set"},
		{"cluster without a URL", map[string]string{"REDIS_CLUSTER": "true"}, "REDIS_URL is empty"},
		{"sentinel without a URL", map[string]string{"REDIS_SENTINEL_MASTER": "m"}, "REDIS_URL is empty"},
		{"not a boolean", map[string]string{"REDIS_URL": "redis://:" + pw + "@h1:7001", "REDIS_CLUSTER": "да"}, `REDIS_CLUSTER must be true or false, got "да"`},
		{"addresses without a topology", map[string]string{"REDIS_URL": "redis://:" + pw + "@h1:7001?addr=h2:7002"}, "set REDIS_CLUSTER=true"},
		{"cluster over a socket", map[string]string{"REDIS_URL": "unix://:" + pw + "@/run/redis.sock", "REDIS_CLUSTER": "true"}, "must start with redis:// or rediss://"},
		{"cluster with a database", map[string]string{"REDIS_URL": "redis://:" + pw + "@h1:7001/3?addr=h2:7002", "REDIS_CLUSTER": "true"}, "database 0 only"},
		{"cluster with a bad addr", map[string]string{"REDIS_URL": "redis://:" + pw + "@h1:7001?addr=h2&addr=u:" + pw + "@h3:1", "REDIS_CLUSTER": "true"}, "addr parameter 1 is not host:port"},
		{"the second bad addr too", map[string]string{"REDIS_URL": "redis://:" + pw + "@h1:7001?addr=h2&addr=u:" + pw + "@h3:1", "REDIS_CLUSTER": "true"}, "addr parameter 2 is not host:port"},
		{"cluster with a bad port", map[string]string{"REDIS_URL": "redis://:" + pw + "@h1:99999", "REDIS_CLUSTER": "true"}, "must name a host:port"},
		{"cluster with a bad escape", map[string]string{"REDIS_URL": "redis://:" + pw + "%zz@h1:7001?addr=h2:7002", "REDIS_CLUSTER": "true"}, "percent-encode"},
		{"sentinel naming its master twice", map[string]string{"REDIS_URL": "redis://s1:26379?master_name=x&password=" + pw, "REDIS_SENTINEL_MASTER": "m"}, "REDIS_SENTINEL_MASTER only"},
		{"sentinel master with a space", map[string]string{"REDIS_URL": "redis://s1:26379?password=" + pw, "REDIS_SENTINEL_MASTER": "my master"}, "without spaces"},
		{"sentinel with a bad addr", map[string]string{"REDIS_URL": "redis://s1:26379?addr=:26379&password=" + pw, "REDIS_SENTINEL_MASTER": "m"}, "addr parameter 1"},
		{"a prefix with a hash tag", map[string]string{"REDIS_URL": "redis://:" + pw + "@h1:7001", "REDIS_PREFIX": "{finbot}:"}, "REDIS_PREFIX must not contain { or }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(env(tt.env))
			if err == nil {
				t.Fatalf("Load accepted %v", tt.env)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v\nwant it to say %q", err, tt.want)
			}
			if strings.Contains(err.Error(), pw) || strings.Contains(fmt.Sprintf("%v %+v", c, c), pw) {
				t.Errorf("the password leaked: %v", err)
			}
		})
	}
}

// The master's password of a Sentinel URL sits in the query; it is a secret like the user
// info's.
func TestRedisPasswordsInTheQueryAreSecrets(t *testing.T) {
	c, err := Load(env(map[string]string{
		"REDIS_URL":             "redis://sentinel-user:sentinel-pw@s1:26379?addr=s2:26379&password=master%2Bpw",
		"REDIS_SENTINEL_MASTER": "mymaster",
	}))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Redactor()
	for _, s := range []string{"sentinel-pw", "master%2Bpw", "master+pw"} {
		if got := r.String("dial: " + s); got != "dial: [redacted]" {
			t.Errorf("Redactor left %q: %q", s, got)
		}
	}
}
