package bot

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Webhook mode: setWebhook and the HTTP handler Telegram posts updates to.

// serveWebhook registers the webhook and serves it until ctx is done.
func (b *Bot) serveWebhook(ctx, work context.Context) error {
	u, err := url.Parse(b.opts.WebhookURL)
	if err != nil {
		return fmt.Errorf("webhook url: %w", err)
	}
	path := u.Path
	if path == "" {
		path = "/"
	}
	mux := http.NewServeMux()
	mux.Handle("POST "+path, b.webhookHandler(ctx, work))
	// Anyone who finds the address may connect: every connection is bounded, authenticated
	// or not (ServerTimeouts).
	srv := NewHTTPServer(mux, b.log, b.opts.WebhookTimeouts)
	ln, err := net.Listen("tcp", b.opts.WebhookListen)
	if err != nil {
		return fmt.Errorf("webhook listen: %w", err)
	}
	if _, err := b.tg.call(ctx, "setWebhook", map[string]string{
		"url":             b.opts.WebhookURL,
		"secret_token":    b.opts.WebhookSecret,
		"allowed_updates": allowedUpdates,
	}); err != nil {
		ln.Close()
		return fmt.Errorf("setWebhook: %w", err)
	}
	b.log.InfoContext(ctx, "serving webhook", "listen", ln.Addr().String(), "path", path)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("webhook server: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("webhook shutdown: %w", err)
	}
	return nil
}

// webhookHandler accepts updates POSTed by Telegram. It answers 200 as soon as the update is
// stored in the inbox (when there is one) and queued; a re-delivered update is recognised by
// the deduper.
func (b *Bot) webhookHandler(ctx, work context.Context) http.Handler {
	secret := []byte(b.opts.WebhookSecret)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("X-Telegram-Bot-Api-Secret-Token"))
		if subtle.ConstantTimeCompare(got, secret) != 1 {
			b.core.metrics.updates.WithLabelValues("forbidden").Inc()
			http.Error(w, "forbidden", http.StatusUnauthorized)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var u update
		if err == nil {
			err = json.Unmarshal(body, &u)
		}
		if err != nil {
			http.Error(w, "bad update", http.StatusBadRequest)
			return
		}
		if b.opts.Inbox == nil || u.InlineQuery != nil {
			b.accept(ctx, work, u, nil)
			w.WriteHeader(http.StatusOK)
			return
		}
		in, ok := u.parse(b.me, b.core.known)
		if !ok {
			b.core.metrics.updates.WithLabelValues("ignored").Inc()
			w.WriteHeader(http.StatusOK)
			return
		}
		// Stored before the 200: from then on Telegram will not deliver it again, and the inbox
		// is what brings it back if this instance dies before answering it.
		in.inboxed = b.putInbox(ctx, in, body)
		b.acceptParsed(ctx, work, in, nil)
		w.WriteHeader(http.StatusOK)
	})
}
