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
		{"redis://s1:26379?addr=s2:26379&password=m%2Bpw", []string{"m%2Bpw", "m+pw"}},
		{"redis://u:spw1@s1:26379?sentinel_password=x&password=mpw#f", []string{"spw1", "x", "mpw"}},
	}
	for _, tt := range tests {
		got := redisPassword(tt.url)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("redisPassword(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// Altered copies of a long secret are redacted too: another case, invisible characters
// inside it, %-escapes, fullwidth forms. Short secrets are matched exactly, as before, and text
// without a secret comes out unchanged, invisible characters and escapes included.
func TestRedactorAlteredCopies(t *testing.T) {
	const key = "sk-or-v1-deadBEEF42"
	r := NewRedactor([]string{key, "hook_secret_1", "pw12"})
	tests := []struct{ name, in, want string }{
		{"exact", "key " + key + " end", "key [redacted] end"},
		{"upper case", "KEY SK-OR-V1-DEADBEEF42 END", "KEY [redacted] END"},
		{"lower case", "sk-or-v1-deadbeef42", "[redacted]"},
		{"zero-width space", "key sk-or-\u200bv1-deadBEEF42.", "key [redacted]."},
		{"zero-width joiner and non-joiner", "sk\u200d-or-v1\u200c-deadBEEF42", "[redacted]"},
		{"soft hyphen", "sk-or-v1-dead\u00adBEEF42", "[redacted]"},
		{"BOM and word joiner", "\ufeffsk-or-v1-\u2060deadBEEF42", "\ufeff[redacted]"},
		{"variation selector", "sk-or-v1-dead\ufe0fBEEF42", "[redacted]"},
		{"several tricks at once", "«Sk-Or\u200b-V1-dEaD\u00adbeef42»", "«[redacted]»"},
		{"percent-encoded", "GET /x?key=sk%2Dor%2Dv1%2DdeadBEEF42&y=1", "GET /x?key=[redacted]&y=1"},
		{"percent-encoded letters", "%73%6B-or-v1-deadbeef42", "[redacted]"},
		{"fullwidth", "ｓｋ－ｏｒ－ｖ１－ｄｅａｄＢＥＥＦ４２!", "[redacted]!"},
		{"two copies", "HOOK_SECRET_1 and hook\u200b_secret_1", "[redacted] and [redacted]"},
		{"Cyrillic around", "ключ SK-OR-V1-DEADBEEF42 — не показывать", "ключ [redacted] — не показывать"},
		// Short secrets stay as they were: exact copies only.
		{"short exact", "pass pw12 here", "pass [redacted] here"},
		{"short in another case", "PW12", "PW12"},
		{"short with a soft hyphen", "pw\u00ad12", "pw\u00ad12"},
		// Ordinary text is left alone.
		{"plain Russian", "Ключевая ставка 21% с 01.01.2026", "Ключевая ставка 21% с 01.01.2026"},
		{"invisible characters elsewhere", "a\u200bb\u00adc 👩\u200d💻 \ufeff", "a\u200bb\u00adc 👩\u200d💻 \ufeff"},
		{"escapes elsewhere", "100%25 and %zz and 50%", "100%25 and %zz and 50%"},
		{"part of the secret", "sk-or-v1-dead and BEEF42", "sk-or-v1-dead and BEEF42"},
		{"fullwidth elsewhere", "ＵＳＤ／ＲＵＢ", "ＵＳＤ／ＲＵＢ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	// A 7-character secret is short: only its exact copies go.
	short := NewRedactor([]string{"abcdefg"})
	if got := short.String("ABCDEFG abcdefg"); got != "ABCDEFG [redacted]" {
		t.Errorf("7-character secret: %q", got)
	}
	// A secret of invisible characters or escapes only is no long secret once folded.
	if got := NewRedactor([]string{"\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b"}).String("a\u200bb"); got != "a\u200bb" {
		t.Errorf("a secret of invisible characters redacted %q", got)
	}
}

// An altered copy written in pieces — cut anywhere, inside an invisible character's bytes or
// a %-escape too — is redacted whole.
func TestRedactingWriterAlteredCopyAcrossWrites(t *testing.T) {
	r := NewRedactor([]string{"sk-or-v1-abcdef"})
	for _, copy := range []string{"SK-OR-V1-ABCDEF", "sk-or-\u200bv1-abc\u00addef", "sk%2Dor%2Dv1-abcdef", "ｓｋ-or-v1-abcdef"} {
		text := "key " + copy + " end"
		for cut := 1; cut < len(text); cut++ {
			var buf bytes.Buffer
			w := r.Writer(&buf)
			w.Write([]byte(text[:cut]))
			w.Write([]byte(text[cut:]))
			w.Flush()
			if got := buf.String(); got != "key [redacted] end" {
				t.Errorf("%q cut at %d: wrote %q", copy, cut, got)
			}
		}
	}
}
