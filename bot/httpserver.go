package bot

import (
	"log/slog"
	"net/http"
	"time"
)

// ServerTimeouts bound how long a client may hold a connection to one of finbot's HTTP
// servers (the webhook, /healthz and /metrics), whether or not it ever authenticates: without
// them net/http keeps an idle keep-alive connection, or one that trickles its body a byte at
// a time, open for as long as the client likes, and each holds a socket and a goroutine.
// Zero fields take the defaults.
type ServerTimeouts struct {
	// ReadHeader is how long the request line and headers may take (default 10s).
	ReadHeader time.Duration
	// Read is how long the whole request may take, body included (default 30s). Telegram
	// posts an update of a few kilobytes (the webhook reads at most 1 MB) in well under that.
	Read time.Duration
	// Write is how long the handler and its response may take once the headers are read
	// (default 30s). The webhook answers as soon as the update is stored in the inbox.
	Write time.Duration
	// Idle is how long a keep-alive connection may wait for its next request (default 60s);
	// Telegram reconnects when a connection it kept is closed.
	Idle time.Duration
	// MaxHeaderBytes caps the request line and headers (default 64 KiB; net/http's own is
	// 1 MiB). Telegram sends a handful of short headers.
	MaxHeaderBytes int
}

// Default server bounds; see ServerTimeouts.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 60 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
)

// withDefaults fills the zero fields.
func (t ServerTimeouts) withDefaults() ServerTimeouts {
	set := func(d *time.Duration, def time.Duration) {
		if *d <= 0 {
			*d = def
		}
	}
	set(&t.ReadHeader, DefaultReadHeaderTimeout)
	set(&t.Read, DefaultReadTimeout)
	set(&t.Write, DefaultWriteTimeout)
	set(&t.Idle, DefaultIdleTimeout)
	// The headers are part of the request: their own bound never outlasts the whole one's.
	t.ReadHeader = min(t.ReadHeader, t.Read)
	if t.MaxHeaderBytes <= 0 {
		t.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	return t
}

// NewHTTPServer returns a server of h bounded by t (zero fields take the defaults). net/http's
// own errors (TLS handshakes, a handler's panic) go through log, and so through its redaction,
// not to the process's stderr.
func NewHTTPServer(h http.Handler, log *slog.Logger, t ServerTimeouts) *http.Server {
	t = t.withDefaults()
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    t.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
