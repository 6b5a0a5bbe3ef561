package tgmd

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// UTF16Len returns the length of s in UTF-16 code units, the unit Telegram
// uses for entity offsets and message limits. Runes outside the Basic
// Multilingual Plane (most emoji) count as two units; every invalid UTF-8
// byte counts as one unit, like the U+FFFD it would be replaced with.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// UTF16Slice returns the part of s that starts offset UTF-16 code units in
// and is length units long, as used by the entities of incoming messages.
// The range is clipped to s; a rune that is only partly inside the range (one
// half of a surrogate pair) is left out. UTF16Slice never panics.
func UTF16Slice(s string, offset, length int) string {
	if length <= 0 {
		return ""
	}
	end := offset + length
	if end < offset { // overflow
		end = int(^uint(0) >> 1)
	}
	if offset < 0 {
		offset = 0
	}
	pos, startB, endB := 0, -1, len(s)
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if startB < 0 && pos >= offset {
			startB = i
		}
		if pos+w > end {
			endB = i
			break
		}
		pos += w
	}
	if startB < 0 || endB < startB {
		return ""
	}
	return s[startB:endB]
}

// encodeUTF16 converts s to UTF-16; invalid bytes become U+FFFD.
func encodeUTF16(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for _, r := range s {
		u = utf16.AppendRune(u, r)
	}
	return u
}

// decodeUTF16 converts UTF-16 back to a UTF-8 string; unpaired surrogates
// become U+FFFD.
func decodeUTF16(u []uint16) string {
	buf := make([]byte, 0, len(u)+len(u)/2)
	for i := 0; i < len(u); i++ {
		r := rune(u[i])
		if utf16.IsSurrogate(r) {
			if i+1 < len(u) {
				if d := utf16.DecodeRune(r, rune(u[i+1])); d != unicode.ReplacementChar {
					buf = utf8.AppendRune(buf, d)
					i++
					continue
				}
			}
			r = unicode.ReplacementChar
		}
		buf = utf8.AppendRune(buf, r)
	}
	return string(buf)
}

func isHighSurrogate(c uint16) bool { return c >= 0xD800 && c < 0xDC00 }
func isLowSurrogate(c uint16) bool  { return c >= 0xDC00 && c < 0xE000 }

// midPair reports whether offset i of u falls between the two halves of a
// surrogate pair.
func midPair(u []uint16, i int) bool {
	return i > 0 && i < len(u) && isLowSurrogate(u[i]) && isHighSurrogate(u[i-1])
}

// isSpace16 reports whether the code unit is a whitespace character.
func isSpace16(c uint16) bool {
	return !utf16.IsSurrogate(rune(c)) && unicode.IsSpace(rune(c))
}

// allSpace16 reports whether u holds only whitespace.
func allSpace16(u []uint16) bool {
	for _, c := range u {
		if !isSpace16(c) {
			return false
		}
	}
	return true
}

// trimRange shrinks [from, to) of u so that it neither starts nor ends with
// whitespace.
func trimRange(u []uint16, from, to int) (int, int) {
	for from < to && isSpace16(u[from]) {
		from++
	}
	for to > from && isSpace16(u[to-1]) {
		to--
	}
	return from, to
}

// cutMessage returns the text u[from:to) with the entities clipped to that
// range and rebased to it. Pieces that end up empty or whitespace-only are
// dropped. ents must already lie inside u on rune boundaries.
func cutMessage(u []uint16, ents []Entity, from, to int) Message {
	m := Message{Text: decodeUTF16(u[from:to])}
	for _, e := range ents {
		a, b := max(e.Offset, from), min(e.Offset+e.Length, to)
		if b <= a || allSpace16(u[a:b]) {
			continue
		}
		e.Offset, e.Length = a-from, b-a
		m.Entities = append(m.Entities, e)
	}
	sortEntities(m.Entities)
	return m
}

// sanitizeEntities clips entities to a text of len(u) units, widens
// boundaries that split a surrogate pair and drops empty entities, so that
// arbitrary input can be cut safely.
func sanitizeEntities(u []uint16, ents []Entity) []Entity {
	n := len(u)
	out := make([]Entity, 0, len(ents))
	for _, e := range ents {
		a, l := e.Offset, e.Length
		if l <= 0 || a >= n {
			continue
		}
		if a < 0 {
			l += a // opposite signs: cannot overflow
			a = 0
		}
		b := a + min(l, n-a)
		if midPair(u, a) {
			a--
		}
		if midPair(u, b) {
			b++
		}
		if b <= a {
			continue
		}
		e.Offset, e.Length = a, b-a
		out = append(out, e)
	}
	return out
}
