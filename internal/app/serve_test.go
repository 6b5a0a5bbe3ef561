package app

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/finbot/finbot/bot"
	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/internal/testnet"
)

// The ops server (/healthz, /metrics) closes a keep-alive connection left idle and one that
// never finishes its headers, as the webhook's server does.
func TestOpsServerBoundsConnections(t *testing.T) {
	addr := testnet.Addr(t)
	a := &App{cfg: config.Config{MetricsAddr: addr}, log: slog.New(slog.DiscardHandler), Metrics: prometheus.NewRegistry(),
		status: func(context.Context) []string { return nil }}
	const bound = 200 * time.Millisecond
	stop, err := a.serveOps(t.Context(), bot.ServerTimeouts{ReadHeader: bound, Read: bound, Idle: bound})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	for _, tt := range []struct {
		name    string
		request string
	}{
		{"idle after a scrape", "GET /metrics HTTP/1.1\r\nHost: ops\r\n\r\n"},
		{"headers never finished", "GET /healthz HTTP/1.1\r\nHost: ops\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close() })
			if _, err := io.WriteString(conn, tt.request); err != nil {
				t.Fatal(err)
			}
			// Generous against a 200 ms bound: a server without one never closes it.
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			r := bufio.NewReader(conn)
			if resp, err := http.ReadResponse(r, nil); err == nil { // the scrape's answer
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			if _, err := io.Copy(io.Discard, r); errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal("the ops server kept the connection open for 5s")
			}
		})
	}
}
