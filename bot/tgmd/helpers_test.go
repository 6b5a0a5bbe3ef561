package tgmd

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// checkParts checks that parts is a valid split of orig for limit: every
// part fits, validates, is trimmed and non-empty, has sorted entities; the
// parts concatenated equal orig.Text apart from whitespace at the cuts; and
// every non-blank piece of every original entity is present in its part.
func checkParts(t testing.TB, orig Message, parts []Message, limit int) {
	t.Helper()
	rest := orig.Text
	pos := 0 // UTF-16 offset of rest in orig.Text
	for i, p := range parts {
		if n := UTF16Len(p.Text); n > limit || n == 0 {
			t.Fatalf("part %d has %d units, limit %d", i, n, limit)
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
		if strings.TrimSpace(p.Text) != p.Text {
			t.Fatalf("part %d is not trimmed: %q", i, p.Text)
		}
		if !slices.IsSortedFunc(p.Entities, entityOrder) {
			t.Fatalf("part %d entities not sorted: %+v", i, p.Entities)
		}
		trimmed := strings.TrimLeftFunc(rest, unicode.IsSpace)
		pos += UTF16Len(rest[:len(rest)-len(trimmed)])
		if !strings.HasPrefix(trimmed, p.Text) {
			t.Fatalf("part %d %q is not next in the original text %q", i, p.Text, trimmed)
		}
		start, end := pos, pos+UTF16Len(p.Text)
		for _, o := range orig.Entities {
			a, b := max(o.Offset, start), min(o.Offset+o.Length, end)
			if b <= a || strings.TrimSpace(UTF16Slice(orig.Text, a, b-a)) == "" {
				continue
			}
			want := o
			want.Offset, want.Length = a-start, b-a
			if !slices.Contains(p.Entities, want) {
				t.Fatalf("part %d lacks %+v (from %+v); has %+v", i, want, o, p.Entities)
			}
		}
		rest = trimmed[len(p.Text):]
		pos = end
	}
	if strings.TrimSpace(rest) != "" {
		t.Fatalf("text left after the parts: %q", rest)
	}
}

func entityOrder(a, b Entity) int {
	if a.Offset != b.Offset {
		return a.Offset - b.Offset
	}
	return b.Length - a.Length
}
