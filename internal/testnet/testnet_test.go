package testnet

import (
	"errors"
	"net"
	"runtime"
	"strconv"
	"syscall"
	"testing"
)

func TestReservedPort(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the reservation's guarantees are Linux's")
	}
	addr := Addr(t)
	if _, err := net.Dial("tcp", addr); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial a reserved port nothing listens on: %v, want ECONNREFUSED", err)
	}
	for range 2 { // a server of the test's own listens, stops, and listens again
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatalf("listen on the reserved port: %v", err)
		}
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial the listening port: %v", err)
		}
		s, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		c.Close()
		ln.Close()
		if _, err := net.Dial("tcp", addr); !errors.Is(err, syscall.ECONNREFUSED) {
			t.Fatalf("dial after the server stopped: %v, want ECONNREFUSED", err)
		}
	}
	port := Port(t)
	for range 2000 { // the kernel never hands out a reserved port
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		got := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		if got == port || "127.0.0.1:"+strconv.Itoa(got) == addr {
			t.Fatalf("a listener on :0 was given the reserved port %d", got)
		}
	}
}
