//go:build !unix

package testnet

import "net"

// reserve falls back to a port that was free a moment ago: without a bound socket to hold it,
// another process may take it.
func reserve() (port int, release func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, nil, err
	}
	port = ln.Addr().(*net.TCPAddr).Port
	return port, func() {}, ln.Close()
}
