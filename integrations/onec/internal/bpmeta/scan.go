package bpmeta

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// QueryText is a query text found in a BSL module.
type QueryText struct {
	Line int // where its string literal starts
	Text string
}

// ScanQueries finds the query texts in a BSL module: string literals (multi-line ones continue on
// lines that start with "|") that begin with ВЫБРАТЬ/SELECT, possibly after // comments. A text
// assembled from several literals is found in pieces, and those pieces usually do not parse.
func ScanQueries(src string) []QueryText {
	var out []QueryText
	line := 1
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			line++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i-- // the newline is counted by the loop
		case c == '"':
			start := line
			text, end, lines := literal(src, i+1)
			line += lines
			i = end
			if looksLikeQuery(text) {
				out = append(out, QueryText{Line: start, Text: text})
			}
		}
	}
	return out
}

// literal reads a BSL string literal from just after its opening quote. It returns the text
// (doubled quotes undoubled, the "|" of continuation lines dropped), the index of the closing
// quote and the number of newlines crossed.
func literal(src string, i int) (string, int, int) {
	var b strings.Builder
	lines := 0
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"' && i+1 < len(src) && src[i+1] == '"':
			b.WriteByte('"')
			i++
		case c == '"':
			return b.String(), i, lines
		case c == '\n':
			lines++
			b.WriteByte('\n')
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r') {
				j++
			}
			if j < len(src) && src[j] == '|' {
				i = j
			} else {
				return b.String(), i, lines // an unterminated literal: stop at the line's end
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), i, lines
}

func looksLikeQuery(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		for _, w := range []string{"ВЫБРАТЬ", "SELECT"} {
			if len(t) >= len(w) && strings.EqualFold(t[:len(w)], w) && (len(t) == len(w) || !isNamePart(t[len(w)])) {
				return true
			}
		}
		return false
	}
	return false
}

// isNamePart reports whether a byte can continue a name: an ASCII letter, digit or '_', or any
// byte of a multi-byte (Cyrillic) rune.
func isNamePart(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// ScanStats counts what a scan of BP's modules found.
type ScanStats struct {
	Queries, Parsed int
	MaxErrors       int      // how many parse errors to keep
	Errors          []string // the first MaxErrors parse errors, path:line: error
}

// RecordUsage parses every query text of a module and records in the register's virtual tables
// how BP uses them.
func RecordUsage(reg *Object, path, module string, stats *ScanStats) {
	for _, q := range ScanQueries(module) {
		stats.Queries++
		b, err := qlang.Parse(q.Text)
		if err != nil {
			if len(stats.Errors) < stats.MaxErrors {
				stats.Errors = append(stats.Errors, fmt.Sprintf("%s:%d: %v", path, q.Line, err))
			}
			continue
		}
		stats.Parsed++
		qlang.Walk(b, func(n qlang.Node) bool {
			src, ok := n.(*qlang.Source)
			if !ok || len(src.Table) != 3 || !equalNames(src.Table[0], reg.Kind) || !equalNames(src.Table[1], reg.Name) {
				return true
			}
			vt := reg.VirtualTable(src.Table[2])
			if vt == nil {
				return true
			}
			if vt.BPUsage == nil {
				vt.BPUsage = &Usage{}
			}
			u := vt.BPUsage
			u.Queries++
			if len(src.Params) > u.MaxParams || u.Example == "" {
				u.MaxParams = max(u.MaxParams, len(src.Params))
				u.Example = fmt.Sprintf("%s:%d", path, q.Line+src.Pos.Line-1)
			}
			return true
		})
	}
}
