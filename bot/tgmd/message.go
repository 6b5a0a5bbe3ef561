package tgmd

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Entity mirrors Telegram's MessageEntity. Offset and Length are in UTF-16
// code units.
type Entity struct {
	Type     string // "bold","italic","underline","strikethrough","code","pre","text_link","blockquote"
	Offset   int
	Length   int
	URL      string // text_link only
	Language string // pre only
}

// Message is Telegram-ready text with its formatting entities.
type Message struct {
	Text     string
	Entities []Entity
}

// Validate reports whether m can be sent to Telegram as is: the text must be
// valid UTF-8, and every entity must have a type, a positive length, lie
// inside the text, and start and end on rune boundaries (never between the
// two halves of a surrogate pair). A text_link entity must carry a URL.
// Validate does not check how entities nest.
func (m Message) Validate() error {
	if !utf8.ValidString(m.Text) {
		return fmt.Errorf("tgmd: text is not valid UTF-8")
	}
	if len(m.Entities) == 0 {
		return nil
	}
	u := encodeUTF16(m.Text)
	n := len(u)
	for i, e := range m.Entities {
		switch {
		case e.Type == "":
			return fmt.Errorf("tgmd: entity %d has no type", i)
		case e.Length <= 0:
			return fmt.Errorf("tgmd: entity %d (%s %d+%d) is empty", i, e.Type, e.Offset, e.Length)
		case e.Offset < 0 || e.Offset >= n || e.Length > n-e.Offset:
			return fmt.Errorf("tgmd: entity %d (%s %d+%d) is outside the text of %d UTF-16 units",
				i, e.Type, e.Offset, e.Length, n)
		case midPair(u, e.Offset) || midPair(u, e.Offset+e.Length):
			return fmt.Errorf("tgmd: entity %d (%s %d+%d) splits a surrogate pair", i, e.Type, e.Offset, e.Length)
		case e.Type == typeTextLink && e.URL == "":
			return fmt.Errorf("tgmd: entity %d (%s %d+%d) has no URL", i, e.Type, e.Offset, e.Length)
		}
	}
	return nil
}

// Join concatenates parts, putting sep between them and shifting every
// entity's offset by the UTF-16 length of what precedes it. Parts with empty
// text are skipped together with their entities.
func Join(sep string, parts ...Message) Message {
	var sb strings.Builder
	var ents []Entity
	off, sepLen := 0, UTF16Len(sep)
	for _, p := range parts {
		if p.Text == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString(sep)
			off += sepLen
		}
		for _, e := range p.Entities {
			e.Offset += off
			ents = append(ents, e)
		}
		sb.WriteString(p.Text)
		off += UTF16Len(p.Text)
	}
	return Message{Text: sb.String(), Entities: ents}
}

// sortEntities orders entities by offset, longer ones first; the sort is
// stable so equal ranges keep their outer-before-inner order.
func sortEntities(ents []Entity) {
	slices.SortStableFunc(ents, func(a, b Entity) int {
		if a.Offset != b.Offset {
			return a.Offset - b.Offset
		}
		return b.Length - a.Length
	})
}
