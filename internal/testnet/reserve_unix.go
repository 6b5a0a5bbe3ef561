//go:build unix

package testnet

import (
	"fmt"
	"syscall"
)

// reserve binds a socket to a free loopback port with SO_REUSEADDR and does not listen on it.
func reserve() (port int, release func(), err error) {
	syscall.ForkLock.RLock() // no child process may inherit the socket before it is close-on-exec
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return 0, nil, err
	}
	fail := func(err error) (int, func(), error) {
		syscall.Close(fd)
		return 0, nil, err
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
		return fail(err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return fail(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		return fail(err)
	}
	in4, ok := sa.(*syscall.SockaddrInet4)
	if !ok {
		return fail(fmt.Errorf("bound to %T", sa))
	}
	return in4.Port, func() { syscall.Close(fd) }, nil
}
