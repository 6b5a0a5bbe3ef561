package bot

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/internal/testnet"
)

// closeWait is how long a test waits for the server to close a connection whose bound is
// 200 ms: generous, so that a loaded machine does not fail the test, and short enough that a
// server without the bound (which never closes it) fails it quickly.
const closeWait = 5 * time.Second

// waitConnClosed fails t unless the server closes conn (a read returns EOF or a reset) within
// closeWait. Whatever the server still sends before closing (an error response) is read past.
func waitConnClosed(t *testing.T, conn net.Conn, r io.Reader) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(closeWait))
	_, err := io.Copy(io.Discard, r)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the server kept the connection open for %s", closeWait)
	}
	// nil (EOF) or a reset: either way the server closed it.
}

// hookRequest is a POST to the webhook's path; secret "" sends no secret header.
func hookRequest(path, secret string, contentLength int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: finbot\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", path, contentLength)
	if secret != "" {
		fmt.Fprintf(&b, "X-Telegram-Bot-Api-Secret-Token: %s\r\n", secret)
	}
	b.WriteString("\r\n")
	return b.String()
}

// The webhook server closes connections that hold it without progress — idle between
// requests, silent, or trickling a body — authenticated or not, and refuses oversized headers.
func TestWebhookServerBoundsConnections(t *testing.T) {
	f := newFakeAPI(t)
	addr := testnet.Addr(t)
	const bound = 200 * time.Millisecond
	startBot(t, f, echoAgent(), Options{WebhookURL: "http://" + addr + "/hook", WebhookListen: addr, WebhookSecret: "hook_secret",
		WebhookTimeouts: ServerTimeouts{ReadHeader: bound, Read: bound, Idle: bound}})
	f.WaitCalls(t, "setWebhook", 1) // the bot listens before it registers the webhook
	update, _ := json.Marshal(privateText(10, "вебхук"))

	// answered sends one whole request and reads its response, leaving the connection idle.
	answered := func(secret string, body []byte, want int) func(t *testing.T, conn net.Conn, r *bufio.Reader) {
		return func(t *testing.T, conn net.Conn, r *bufio.Reader) {
			if _, err := io.WriteString(conn, hookRequest("/hook", secret, len(body))+string(body)); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(r, nil)
			if err != nil {
				t.Fatalf("read response: %v", err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want || resp.Close {
				t.Fatalf("status %d (close %v), want %d on a kept-alive connection", resp.StatusCode, resp.Close, want)
			}
		}
	}
	// trickled announces a body and sends it a byte at a time until the connection breaks.
	trickled := func(secret string) func(t *testing.T, conn net.Conn, r *bufio.Reader) {
		return func(t *testing.T, conn net.Conn, r *bufio.Reader) {
			if _, err := io.WriteString(conn, hookRequest("/hook", secret, 1<<16)); err != nil {
				t.Fatal(err)
			}
			stop := make(chan struct{})
			done := make(chan struct{})
			t.Cleanup(func() { close(stop); conn.Close(); <-done })
			go func() { // owned: ends when the server closes the connection or the test ends
				defer close(done)
				tick := time.NewTicker(20 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-stop:
						return
					case <-tick.C:
					}
					if _, err := conn.Write([]byte("{")); err != nil {
						return
					}
				}
			}()
		}
	}
	tests := []struct {
		name string
		send func(t *testing.T, conn net.Conn, r *bufio.Reader)
	}{
		{"idle after an update", answered("hook_secret", update, http.StatusOK)},
		{"idle after a refused request", answered("", nil, http.StatusUnauthorized)},
		{"silent after connecting", func(*testing.T, net.Conn, *bufio.Reader) {}},
		{"body trickled, with the secret", trickled("hook_secret")},
		{"body trickled, without the secret", trickled("")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close() })
			r := bufio.NewReader(conn)
			tt.send(t, conn, r)
			waitConnClosed(t, conn, r)
		})
	}

	t.Run("oversized headers", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/hook", strings.NewReader("{}"))
		req.Header.Set("X-Padding", strings.Repeat("a", 2*DefaultMaxHeaderBytes))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("status %d, want %d", resp.StatusCode, http.StatusRequestHeaderFieldsTooLarge)
		}
	})
}

func TestServerTimeoutsDefaults(t *testing.T) {
	srv := NewHTTPServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler), ServerTimeouts{})
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 ||
		srv.MaxHeaderBytes <= 0 || srv.MaxHeaderBytes >= http.DefaultMaxHeaderBytes {
		t.Errorf("a server with default bounds has ReadHeader %s, Read %s, Write %s, Idle %s, MaxHeaderBytes %d: want every one set",
			srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout, srv.MaxHeaderBytes)
	}
	srv = NewHTTPServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler), ServerTimeouts{Read: time.Second})
	if srv.ReadHeaderTimeout != time.Second {
		t.Errorf("ReadHeader %s outlasts the whole request's bound of 1s", srv.ReadHeaderTimeout)
	}
}
