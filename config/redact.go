package config

import (
	"bytes"
	"io"
	"net/url"
	"strings"
	"sync"
)

// Redactor replaces every configured secret by "[redacted]" in text that leaves the process:
// log records, replies, the debug payload, `ask --json`, the console and the HTTP servers'
// error logs. It matches secrets by value, so a key echoed inside an upstream error body
// («Incorrect API key provided: sk-…») is caught as well as one in a URL, and a long secret
// also in altered copies: another case, invisible characters inside, %-escapes, fullwidth
// forms (fold.go). It is the one place that knows the secrets' values; a nil *Redactor
// redacts nothing.
type Redactor struct {
	secrets  []string // longest first
	replacer *strings.Replacer
	folded   []string // folded forms of the secrets of minFoldedLen or more, longest first
}

// redacted is what a secret becomes.
const redacted = "[redacted]"

// Redactor returns the redactor of c's secrets.
func (c Config) Redactor() *Redactor { return NewRedactor(c.Secrets()) }

// NewRedactor redacts secrets (as Config.Secrets orders them: longest first, so a secret that
// contains another is replaced whole).
func NewRedactor(secrets []string) *Redactor {
	if len(secrets) == 0 {
		return nil
	}
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, redacted)
	}
	return &Redactor{secrets: secrets, replacer: strings.NewReplacer(pairs...), folded: foldSecrets(secrets)}
}

// String returns s with every secret, and every altered copy of a long one, replaced.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	if r.contains(s) {
		s = r.replacer.Replace(s)
	}
	return replaceFolded(s, r.folded)
}

func (r *Redactor) contains(s string) bool {
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

// Error returns err with its text redacted, still unwrapping to err; nil stays nil.
func (r *Redactor) Error(err error) error {
	if err == nil || r == nil {
		return err
	}
	msg := err.Error()
	if clean := r.String(msg); clean != msg {
		return &redactedError{msg: clean, err: err}
	}
	return err
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// Writer returns a writer that redacts what is written through it before passing it on. A
// secret split across two writes would pass, so it keeps back the tail of each write that
// could begin a secret until the next write or Flush completes it; callers that stop writing
// call Flush (the console and `ask` do, when they finish).
func (r *Redactor) Writer(w io.Writer) *RedactingWriter {
	return &RedactingWriter{r: r, w: w}
}

// RedactingWriter is Redactor.Writer's writer.
type RedactingWriter struct {
	mu      sync.Mutex
	r       *Redactor
	w       io.Writer
	pending []byte
}

// Write redacts p (with what an earlier write kept back) and writes all of it but a tail that
// could be the start of a secret. It reports len(p) written when the underlying write succeeds.
func (w *RedactingWriter) Write(p []byte) (int, error) {
	if w.r == nil {
		return w.w.Write(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	buf := append(w.pending, p...)
	keep := w.r.partialTail(buf)
	out := []byte(w.r.String(string(buf[:len(buf)-keep])))
	w.pending = append([]byte(nil), buf[len(buf)-keep:]...)
	if _, err := w.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what was kept back.
func (w *RedactingWriter) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return nil
	}
	out := w.r.String(string(w.pending))
	w.pending = nil
	_, err := io.WriteString(w.w, out)
	return err
}

// partialTail is the length of the longest suffix of b that is a proper prefix of a secret —
// or that ends inside a secret which starts in it — or of an altered copy of one (foldedTail),
// so that it must wait for the next write.
func (r *Redactor) partialTail(b []byte) int {
	keep := foldedTail(b, r.folded)
	for _, s := range r.secrets {
		for n := min(len(s)-1, len(b)); n > keep; n-- {
			if bytes.HasSuffix(b, []byte(s[:n])) {
				keep = n
				break
			}
		}
	}
	return keep
}

// redisPassword is the password in a Redis URL, read by hand so that a URL net/url refuses
// (a bad port, a stray '%', a space) still has its password redacted: the one in the user info
// and, for Sentinel, the master's in the query (password=…). Both the raw and the decoded form
// are returned: an error may quote either.
func redisPassword(raw string) []string {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil
	}
	var out []string
	add := func(pw string, unescape func(string) (string, error)) {
		if pw == "" {
			return
		}
		out = append(out, pw)
		if dec, err := unescape(pw); err == nil && dec != pw {
			out = append(out, dec)
		}
	}
	authority, query, _ := strings.Cut(rest, "?")
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		userinfo := authority[:at]
		// A '/' before the '@' puts it in the path, not in the authority.
		if !strings.Contains(userinfo, "/") {
			if _, pw, ok := strings.Cut(userinfo, ":"); ok {
				add(pw, url.PathUnescape)
			}
		}
	}
	query, _, _ = strings.Cut(query, "#")
	for _, kv := range strings.Split(query, "&") {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.HasSuffix(strings.ToLower(k), "password") {
			add(v, url.QueryUnescape)
		}
	}
	return out
}
