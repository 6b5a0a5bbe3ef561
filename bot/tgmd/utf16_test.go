package tgmd

import (
	"strings"
	"testing"
)

func TestUTF16Len(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"Итого", 5},
		{"📈", 2},
		{"📈 Курс", 7},
		{"👨‍👩‍👧", 8}, // three emoji joined by two ZWJ
		{"🇷🇺", 4},
		{"€₽", 2},
		{"a\xffb", 3}, // an invalid byte counts as U+FFFD
	}
	for _, tt := range tests {
		if got := UTF16Len(tt.in); got != tt.want {
			t.Errorf("UTF16Len(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestUTF16Slice(t *testing.T) {
	const s = "📈 Курс 💶 евро"
	tests := []struct {
		name        string
		s           string
		off, length int
		want        string
	}{
		{"ascii", "hello", 1, 3, "ell"},
		{"cyrillic", "Привет, мир", 8, 3, "мир"},
		{"after emoji", s, 3, 4, "Курс"},
		{"emoji itself", s, 0, 2, "📈"},
		{"second emoji", s, 8, 2, "💶"},
		{"to the end", s, 11, 100, "евро"},
		{"whole", s, 0, UTF16Len(s), s},
		{"half emoji at start", s, 1, 3, " К"},
		{"half emoji at end", s, 0, 1, ""},
		{"cut inside second emoji", s, 3, 6, "Курс "},
		{"negative offset", "abc", -2, 3, "a"},
		{"offset past end", "abc", 5, 1, ""},
		{"zero length", "abc", 1, 0, ""},
		{"negative length", "abc", 1, -1, ""},
		{"huge length", "abc", 1, int(^uint(0) >> 1), "bc"},
		{"empty", "", 0, 5, ""},
		{"invalid utf8", "a\xffb", 1, 1, "\xff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UTF16Slice(tt.s, tt.off, tt.length); got != tt.want {
				t.Errorf("UTF16Slice(%q, %d, %d) = %q, want %q", tt.s, tt.off, tt.length, got, tt.want)
			}
		})
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for _, s := range []string{"", "abc", "Итого 📈 👨‍👩‍👧 🇷🇺", strings.Repeat("ж😀", 100)} {
		u := encodeUTF16(s)
		if len(u) != UTF16Len(s) {
			t.Errorf("encodeUTF16(%q) has %d units, UTF16Len says %d", s, len(u), UTF16Len(s))
		}
		if got := decodeUTF16(u); got != s {
			t.Errorf("round trip of %q gave %q", s, got)
		}
	}
	if got := decodeUTF16([]uint16{'a', 0xD83D, 'b', 0xDC00}); got != "a\uFFFDb\uFFFD" {
		t.Errorf("lone surrogates decoded as %q", got)
	}
}

func TestValidate(t *testing.T) {
	const s = "📈 Курс" // 7 units; offset 1 is inside the emoji
	tests := []struct {
		name    string
		m       Message
		wantErr bool
	}{
		{"no entities", Message{Text: s}, false},
		{"ok", Message{Text: s, Entities: []Entity{ent("bold", 3, 4), ent("italic", 0, 2)}}, false},
		{"zero length", Message{Text: s, Entities: []Entity{ent("bold", 3, 0)}}, true},
		{"negative offset", Message{Text: s, Entities: []Entity{ent("bold", -1, 2)}}, true},
		{"past end", Message{Text: s, Entities: []Entity{ent("bold", 3, 5)}}, true},
		{"starts past end", Message{Text: s, Entities: []Entity{ent("bold", 7, 1)}}, true},
		{"huge length", Message{Text: s, Entities: []Entity{ent("bold", 3, int(^uint(0)>>1))}}, true},
		{"starts mid pair", Message{Text: s, Entities: []Entity{ent("bold", 1, 3)}}, true},
		{"ends mid pair", Message{Text: s, Entities: []Entity{ent("bold", 0, 1)}}, true},
		{"no type", Message{Text: s, Entities: []Entity{ent("", 3, 4)}}, true},
		{"link without url", Message{Text: s, Entities: []Entity{ent("text_link", 3, 4)}}, true},
		{"invalid utf8", Message{Text: "a\xff"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.m.Validate()
			if (err != nil) != tt.wantErr {
				t.Errorf("Validate() = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
}
