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
