package tgmd

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Telegram entity type names.
const (
	typeBold          = "bold"
	typeItalic        = "italic"
	typeUnderline     = "underline"
	typeStrikethrough = "strikethrough"
	typeCode          = "code"
	typePre           = "pre"
	typeTextLink      = "text_link"
	typeBlockquote    = "blockquote"
)

type entKind uint8

const (
	kBold entKind = iota
	kItalic
	kUnderline
	kStrike
	kCode
	kPre
	kTextLink
	kQuote
	numKinds
)

var kindNames = [numKinds]string{
	typeBold, typeItalic, typeUnderline, typeStrikethrough,
	typeCode, typePre, typeTextLink, typeBlockquote,
}

// splittable kinds may not contain code or pre in Telegram, so they are cut
// around them.
func (k entKind) splittable() bool { return k <= kStrike }

// rawEnt is an entity under construction, with positions both in UTF-16
// units and in bytes of the builder's text.
type rawEnt struct {
	kind          entKind
	start, end    int // UTF-16 units
	startB, endB  int // bytes
	url, lang     string
	started, dead bool
}

// builder accumulates text and entities. Block separators are kept pending
// until real text follows, and an entity starts at the first text written
// after it is opened, so separators never end up inside or at the edges of
// an entity.
type builder struct {
	sb    strings.Builder
	u16   int
	sep   string
	plain int // > 0: do not create entities (inside code, pre, plain text)
	ents  []rawEnt
	stack []int
	open  [numKinds]int
	lazy  bool // some entity on the stack has not started yet
}

// setSep asks for s to be written before the next text, unless a longer
// separator is already pending or nothing has been written yet.
func (b *builder) setSep(s string) {
	if b.sb.Len() > 0 && len(s) > len(b.sep) {
		b.sep = s
	}
}

// write appends s, flushing the pending separator and starting the entities
// opened since the last write.
func (b *builder) write(s string) {
	if s == "" {
		return
	}
	if b.sep != "" {
		b.sb.WriteString(b.sep)
		b.u16 += len(b.sep) // separators are ASCII
		b.sep = ""
	}
	if b.lazy {
		for i := len(b.stack) - 1; i >= 0; i-- {
			e := &b.ents[b.stack[i]]
			if e.started {
				break
			}
			e.started, e.start, e.startB = true, b.u16, b.sb.Len()
		}
		b.lazy = false
	}
	b.sb.WriteString(s)
	b.u16 += UTF16Len(s)
}

// openEnt opens an entity of kind k and returns its id for closeEnt, or -1
// when the entity is not created: inside plain text, nested in an entity of
// the same kind, or code inside a link (Telegram allows neither).
func (b *builder) openEnt(k entKind, url, lang string) int {
	if b.plain > 0 || b.open[k] > 0 || (k == kCode && b.open[kTextLink] > 0) {
		return -1
	}
	b.open[k]++
	b.ents = append(b.ents, rawEnt{kind: k, url: url, lang: lang})
	id := len(b.ents) - 1
	b.stack = append(b.stack, id)
	b.lazy = true
	return id
}

// closeEnt closes the entity id returned by openEnt. Entities must be closed
// in the reverse order of opening.
func (b *builder) closeEnt(id int) {
	if id < 0 || len(b.stack) == 0 {
		return
	}
	b.stack = b.stack[:len(b.stack)-1]
	e := &b.ents[id]
	b.open[e.kind]--
	if !e.started {
		e.dead = true
		return
	}
	e.end, e.endB = b.u16, b.sb.Len()
	if e.end <= e.start || isBlank(b.sb.String()[e.startB:e.endB]) {
		e.dead = true
	}
}

func isBlank(s string) bool {
	return strings.TrimFunc(s, unicode.IsSpace) == ""
}

// message finishes the build: it cuts splittable entities around code and
// pre, sorts the entities and trims whitespace around the text.
func (b *builder) message() Message {
	text := b.sb.String()
	var codes []rawEnt // disjoint, in text order
	for _, e := range b.ents {
		if !e.dead && (e.kind == kCode || e.kind == kPre) {
			codes = append(codes, e)
		}
	}
	type seqEnt struct {
		rawEnt
		seq int
	}
	var ents []seqEnt
	for i, e := range b.ents {
		if e.dead {
			continue
		}
		if !e.kind.splittable() || len(codes) == 0 {
			ents = append(ents, seqEnt{e, i})
			continue
		}
		j := sort.Search(len(codes), func(j int) bool { return codes[j].end > e.start })
		cur, curB := e.start, e.startB
		emit := func(end, endB int) {
			if end > cur && !isBlank(text[curB:endB]) {
				p := e
				p.start, p.startB, p.end, p.endB = cur, curB, end, endB
				ents = append(ents, seqEnt{p, i})
			}
		}
		for ; j < len(codes) && codes[j].start < e.end; j++ {
			emit(codes[j].start, codes[j].startB)
			cur, curB = codes[j].end, codes[j].endB
		}
		emit(e.end, e.endB)
	}
	slices.SortStableFunc(ents, func(x, y seqEnt) int {
		if x.start != y.start {
			return x.start - y.start
		}
		if lx, ly := x.end-x.start, y.end-y.start; lx != ly {
			return ly - lx
		}
		return x.seq - y.seq
	})

	// Trim whitespace around the whole text and clip entities to the rest.
	lead16, leadB := 0, 0
	for leadB < len(text) {
		r, w := utf8.DecodeRuneInString(text[leadB:])
		if !unicode.IsSpace(r) {
			break
		}
		leadB += w
		lead16++
	}
	endB, end16 := len(text), b.u16
	for endB > leadB {
		r, w := utf8.DecodeLastRuneInString(text[:endB])
		if !unicode.IsSpace(r) {
			break
		}
		endB -= w
		end16--
	}
	m := Message{Text: text[leadB:endB]}
	for _, e := range ents {
		s, t := max(e.start, lead16), min(e.end, end16)
		if t <= s {
			continue
		}
		ent := Entity{Type: kindNames[e.kind], Offset: s - lead16, Length: t - s}
		switch e.kind {
		case kTextLink:
			ent.URL = e.url
		case kPre:
			ent.Language = e.lang
		}
		m.Entities = append(m.Entities, ent)
	}
	sortEntities(m.Entities) // clipping at the start may have reordered them
	return m
}
