package bpmeta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Marshal encodes an extract as JSON for review: indented, but a field ({"name": …, "types": […]})
// or a short list stays on one line and a long list of names wraps, so that a regenerated file
// diffs line by line without running to tens of thousands of lines.
func Marshal(x *Extract) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, fmt.Errorf("bpmeta: %w", err)
	}
	raw := buf.Bytes()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	root, err := readNode(dec)
	if err != nil {
		return nil, fmt.Errorf("bpmeta: %w", err)
	}
	var b strings.Builder
	root.write(&b, "")
	b.WriteByte('\n')
	return []byte(b.String()), nil
}

// lineWidth is where a flat value stops fitting on its line.
const lineWidth = 120

// node is a decoded JSON value with its keys in order.
type node struct {
	scalar string // the encoded scalar; "" for an object or array
	keys   []string
	items  []*node // an object's values (with keys) or an array's items
	object bool
}

func readNode(dec *json.Decoder) (*node, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		n := &node{object: t == '{'}
		for dec.More() {
			if n.object {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			item, err := readNode(dec)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, item)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	default:
		s, err := quoteValue(t)
		return &node{scalar: s}, err
	}
}

// flat reports whether a value has no object inside it.
func (n *node) flat() bool {
	if n.scalar != "" {
		return true
	}
	for _, it := range n.items {
		if it.object || !it.flat() {
			return false
		}
	}
	return true
}

// inline writes a value on one line.
func (n *node) inline() string {
	if n.scalar != "" {
		return n.scalar
	}
	parts := make([]string, len(n.items))
	for i, it := range n.items {
		parts[i] = it.inline()
		if n.object {
			parts[i] = quote(n.keys[i]) + ": " + parts[i]
		}
	}
	if n.object {
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func quote(s string) string {
	q, _ := quoteValue(s)
	return q
}

// quoteValue encodes a scalar without escaping <, > and &.
func quoteValue(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if s == "" {
		return "", io.ErrUnexpectedEOF
	}
	return s, nil
}

func (n *node) write(b *strings.Builder, ind string) {
	if n.scalar != "" {
		b.WriteString(n.scalar)
		return
	}
	if len(n.items) == 0 {
		b.WriteString(map[bool]string{true: "{}", false: "[]"}[n.object])
		return
	}
	if n.flat() && len(ind)+len([]rune(n.inline())) <= lineWidth {
		b.WriteString(n.inline())
		return
	}
	inner := ind + "  "
	if !n.object && n.flat() { // a long list of scalars: wrap
		b.WriteString("[\n" + inner)
		width := len(inner)
		for i, it := range n.items {
			s := it.inline()
			if i > 0 {
				if width+2+len([]rune(s)) > lineWidth {
					b.WriteString(",\n" + inner)
					width = len(inner)
				} else {
					b.WriteString(", ")
					width += 2
				}
			}
			b.WriteString(s)
			width += len([]rune(s))
		}
		b.WriteString("\n" + ind + "]")
		return
	}
	open, closing := "[", "]"
	if n.object {
		open, closing = "{", "}"
	}
	b.WriteString(open + "\n")
	for i, it := range n.items {
		b.WriteString(inner)
		if n.object {
			b.WriteString(quote(n.keys[i]) + ": ")
		}
		it.write(b, inner)
		if i < len(n.items)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(ind + closing)
}
