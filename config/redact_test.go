package config

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestRedactorString(t *testing.T) {
	r := NewRedactor([]string{"sk-long-secret-key", "sk-long", "pw1234"})
	tests := []struct{ in, want string }{
		{"nothing here", "nothing here"},
		{"Incorrect API key provided: sk-long-secret-key.", "Incorrect API key provided: [redacted]."},
		{"a sk-long b", "a [redacted] b"},
		{"redis://u:pw1234@h/0 and pw1234", "redis://u:[redacted]@h/0 and [redacted]"},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var nilR *Redactor
	if nilR.String("x") != "x" || NewRedactor(nil) != nil {
		t.Error("a redactor without secrets must leave text alone")
	}
}

func TestRedactorError(t *testing.T) {
	r := NewRedactor([]string{"pw1234"})
	base := errors.New("dial redis://u:pw1234@h")
	err := r.Error(fmt.Errorf("REDIS_URL: %w", base))
	if strings.Contains(err.Error(), "pw1234") || !errors.Is(err, base) {
		t.Errorf("Error() = %v (unwraps to base: %v)", err, errors.Is(err, base))
	}
	if r.Error(nil) != nil {
		t.Error("nil error must stay nil")
	}
}

// A secret written in pieces (a JSON encoder, fmt in several calls) is still redacted.
func TestRedactingWriterAcrossWrites(t *testing.T) {
	const secret = "sk-or-v1-abcdef"
	r := NewRedactor([]string{secret})
	for split := 1; split < len(secret); split++ {
		var buf bytes.Buffer
		w := r.Writer(&buf)
		text := "key " + secret + " end"
		cut := len("key ") + split
		if _, err := w.Write([]byte(text[:cut])); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(text[cut:])); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); got != "key [redacted] end" {
			t.Errorf("split at %d: wrote %q", split, got)
		}
	}
	// Text that only looks like a secret's start is written once the next write or Flush shows
	// it is not one.
	var buf bytes.Buffer
	w := r.Writer(&buf)
	w.Write([]byte("ends with sk-or"))
	if buf.String() != "ends with " {
		t.Errorf("kept back: wrote %q", buf.String())
	}
	w.Flush()
	if buf.String() != "ends with sk-or" {
		t.Errorf("after Flush: %q", buf.String())
	}
}

func TestRedisPasswordOfMalformedURLs(t *testing.T) {
	tests := []struct {
		url  string
		want []string
	}{
		{"redis://user:pw1234@host:6379/0", []string{"pw1234"}},
		{"redis://user:pw1234@host:notaport/0", []string{"pw1234"}},
		{"redis://us er:pw1234@host/0", []string{"pw1234"}},
		{"redis://user:p%40ss1234@host/0", []string{"p%40ss1234", "p@ss1234"}},
		{"redis://host:6379/0", nil},
		{"redis://host:6379/0?x=a@b", nil},
		{"localhost:6379", nil},
	}
	for _, tt := range tests {
		got := redisPassword(tt.url)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("redisPassword(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}
