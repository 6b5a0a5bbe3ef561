// Package testnet gives tests loopback TCP ports that stay theirs. Only tests import it.
//
// Picking a free port by listening on 127.0.0.1:0 and closing the listener races with every
// other process on the machine: until the test's own server listens on the port (or between a
// server stopping and starting again, or for as long as an address is meant to stay dead),
// anything else may be given the same port. Port instead keeps a socket bound to the port,
// without listening, until the test ends:
//   - the kernel never hands the port out when asked for a free one, to a listener or to an
//     outgoing connection;
//   - a server of the test's own may listen on it (explicitly, with SO_REUSEADDR, as Go's
//     net.Listen, redis-server and Node do), stop, and listen on it again;
//   - while nothing listens, a connection to it is refused at once (ECONNREFUSED).
package testnet

import (
	"net"
	"strconv"
	"testing"
)

// Port reserves a loopback TCP port for the rest of the test; see the package comment.
func Port(t testing.TB) int {
	t.Helper()
	port, release, err := reserve()
	if err != nil {
		t.Fatalf("testnet: reserve a port: %v", err)
	}
	t.Cleanup(release)
	return port
}

// Addr is Port as "127.0.0.1:port".
func Addr(t testing.TB) string {
	t.Helper()
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(Port(t)))
}
