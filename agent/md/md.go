// Package md holds the Markdown helpers shared by the agent's renderers.
package md

import "strings"

// Escape makes a dynamic value (a counterparty name, a document title, a currency name) literal
// inside Markdown: every character Markdown could read as syntax gets a backslash.
func Escape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()#+-.!|<>~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Unescape is s with the escapes a reader does not need removed: those Escape put before
// characters that are Markdown syntax nowhere they stand («31\.03\.2026», «ООО «Гранит\-М»»,
// «\(основная\)»). It keeps the escapes that still matter — of \ * _ ` [ ] ~ < and of a line's
// first character that would start a heading, a list, a quote or a rule («\- не список», «1\.
// не список») — so the result reads as the same Markdown. Code spans and fenced code blocks,
// where a backslash is literal, are left alone.
func Unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	fenced := false
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			b.WriteString(line)
			continue
		}
		if fenced {
			b.WriteString(line)
			continue
		}
		unescapeLine(&b, line)
	}
	return b.String()
}

// keptEscapes are the characters whose escape matters anywhere in a line: emphasis, code,
// links, strikethrough, autolinks and the backslash itself.
const keptEscapes = "\\*_`[]~<"

// lineStartEscapes matter only as a line's first character (after spaces): headings, lists,
// quotes, rules, setext underlines; «.» and «)» after a line's digits make an ordered list.
const lineStartEscapes = "#-+>=|"

func unescapeLine(b *strings.Builder, line string) {
	lead := true   // only spaces so far
	digits := true // only spaces and digits so far
	code := 0      // length of the backtick run that opened the current code span; 0 = none
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '`' {
			n := 1
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			switch {
			case code == 0:
				code = n
			case code == n:
				code = 0
			}
			b.WriteString(line[i : i+n])
			i += n - 1
			lead, digits = false, false
			continue
		}
		if c == '\\' && code == 0 && i+1 < len(line) && strings.IndexByte("\\`*_{}[]()#+-.!|<>~=", line[i+1]) >= 0 {
			next := line[i+1]
			keep := strings.IndexByte(keptEscapes, next) >= 0 ||
				lead && strings.IndexByte(lineStartEscapes, next) >= 0 ||
				digits && !lead && (next == '.' || next == ')')
			if keep {
				b.WriteByte('\\')
			}
			b.WriteByte(next)
			i++
			lead, digits = false, false
			continue
		}
		b.WriteByte(c)
		if c != ' ' {
			lead = false
			if c < '0' || c > '9' {
				digits = false
			}
		}
	}
}
