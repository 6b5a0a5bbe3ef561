package config

import (
	"net"
	"net/url"
	"strconv"
	"strings"
)

// RedisTopology is how REDIS_URL is read.
type RedisTopology int

const (
	// RedisSingle is one server: redis://[user:pass@]host:port/db (go-redis's ParseURL).
	RedisSingle RedisTopology = iota
	// RedisCluster is a Redis Cluster (REDIS_CLUSTER=true): REDIS_URL names seed nodes,
	// redis://[user:pass@]h1:p1?addr=h2:p2&addr=h3:p3 (go-redis's ParseClusterURL).
	RedisCluster
	// RedisSentinel is a master watched by Redis Sentinel (REDIS_SENTINEL_MASTER): REDIS_URL
	// names the Sentinels, redis://[user:pass@]s1:p1?addr=s2:p2&password=… (go-redis's
	// ParseFailoverURL; the user info authenticates to the Sentinels, password= to the master).
	RedisSentinel
)

// String names the topology for logs and /status.
func (t RedisTopology) String() string {
	switch t {
	case RedisCluster:
		return "cluster"
	case RedisSentinel:
		return "sentinel"
	default:
		return "single"
	}
}

// RedisTopology is how REDIS_URL is to be read; meaningful when RedisURL is set.
func (c Config) RedisTopology() RedisTopology {
	switch {
	case c.RedisCluster:
		return RedisCluster
	case c.RedisSentinel != "":
		return RedisSentinel
	default:
		return RedisSingle
	}
}

// checkRedisTopology checks that REDIS_URL, which parses, fits REDIS_CLUSTER and
// REDIS_SENTINEL_MASTER. Its messages never quote the URL or a part of it that could hold the
// password.
func (c Config) checkRedisTopology(r *reader) {
	if c.RedisCluster && c.RedisSentinel != "" {
		r.fail("REDIS_CLUSTER", "and REDIS_SENTINEL_MASTER are both set: a Cluster or a Sentinel-watched master, not both")
		return
	}
	u, err := url.Parse(string(c.RedisURL))
	if err != nil {
		return // reported by malformedURL
	}
	addrs := u.Query()["addr"]
	topology := c.RedisTopology()
	if topology == RedisSingle {
		if len(addrs) > 0 {
			r.fail("REDIS_URL", "lists further nodes (addr=…): set REDIS_CLUSTER=true for a Redis Cluster or REDIS_SENTINEL_MASTER for Sentinel")
		}
		return
	}
	name := map[RedisTopology]string{RedisCluster: "with REDIS_CLUSTER", RedisSentinel: "with REDIS_SENTINEL_MASTER"}[topology]
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		r.fail("REDIS_URL", name+" must start with redis:// or rediss://")
		return
	}
	if _, port, err := net.SplitHostPort(u.Host); u.Hostname() == "" || (err == nil && !validPort(port)) {
		r.fail("REDIS_URL", name+" must name a host:port before any addr=")
	}
	for i, a := range addrs {
		h, p, err := net.SplitHostPort(a)
		if err != nil || h == "" || !validPort(p) {
			r.fail("REDIS_URL", name+": addr parameter "+strconv.Itoa(i+1)+" is not host:port")
		}
	}
	switch topology {
	case RedisCluster:
		if db := strings.Trim(u.Path, "/"); db != "" && db != "0" {
			r.fail("REDIS_URL", "with REDIS_CLUSTER must not name a database: a Redis Cluster has database 0 only")
		}
	case RedisSentinel:
		if strings.ContainsAny(c.RedisSentinel, " \t\r\n") {
			r.fail("REDIS_SENTINEL_MASTER", "must be a master name without spaces")
		}
		if u.Query().Has("master_name") {
			r.fail("REDIS_URL", "names the master (master_name=): name it in REDIS_SENTINEL_MASTER only")
		}
	}
}

func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n > 0 && n < 65536
}
