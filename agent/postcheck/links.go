package postcheck

import (
	"regexp"
	"strings"
)

// Links the model writes point where the reader will click. Only the addresses of the facts'
// sources (Payload.Sources) and those written in the facts' texts or the question are the
// facts'; any other is the model's invention — a guessed page, a look-alike domain, a link a
// document's text tried to plant — and is dropped: a Markdown link keeps its words, a bare
// address goes. The answer's footnotes are made by code from the sources, so nothing the
// reader needs is lost.

// markdownLink is [words](address); bareURL an address written as such.
var (
	markdownLink = regexp.MustCompile(`\[([^\]\n]*)\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+"[^"\n]*")?\s*\)`)
	bareURL      = regexp.MustCompile(`(?i)(?:https?://|www\.)[^\s<>()\[\]"«»]+`)
)

// DropForeignLinks returns answer without the links whose addresses the facts do not hold.
func (c *Checker) DropForeignLinks(answer string) string {
	if !strings.Contains(answer, "](") && !strings.Contains(answer, "://") && !strings.Contains(strings.ToLower(answer), "www.") {
		return answer
	}
	allowed := c.links()
	out := markdownLink.ReplaceAllStringFunc(answer, func(m string) string {
		sub := markdownLink.FindStringSubmatch(m)
		if allowed[normalizeLink(sub[2])] {
			return m
		}
		return sub[1]
	})
	// Bare addresses outside the Markdown links that stayed.
	var b strings.Builder
	last := 0
	for _, loc := range bareURL.FindAllStringIndex(out, -1) {
		if insideKeptLink(out, loc[0]) {
			continue
		}
		u := strings.TrimRight(out[loc[0]:loc[1]], ".,;:!?")
		if allowed[normalizeLink(u)] {
			continue
		}
		b.WriteString(out[last:loc[0]])
		last = loc[0] + len(u)
	}
	if last == 0 {
		return out
	}
	b.WriteString(out[last:])
	return tidySpaces(b.String())
}

// links are the facts' addresses, normalised.
func (c *Checker) links() map[string]bool {
	allowed := map[string]bool{}
	for _, s := range c.p.Sources {
		if s.URL != "" {
			allowed[normalizeLink(s.URL)] = true
		}
	}
	for _, u := range bareURL.FindAllString(c.ref, -1) {
		allowed[normalizeLink(strings.TrimRight(u, ".,;:!?"))] = true
	}
	return allowed
}

// normalizeLink compares addresses without their scheme, a leading "www.", a trailing slash
// and the case of the host.
func normalizeLink(u string) string {
	u = strings.TrimSpace(u)
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	u = strings.TrimPrefix(strings.TrimPrefix(u, "www."), "WWW.")
	host, path, _ := strings.Cut(u, "/")
	return strings.TrimRight(strings.ToLower(host)+"/"+path, "/")
}

// insideKeptLink reports whether position i of s is inside the address of a Markdown link.
func insideKeptLink(s string, i int) bool {
	open := strings.LastIndex(s[:i], "](")
	return open >= 0 && !strings.ContainsAny(s[open:i], ")\n")
}

var doubleSpace = regexp.MustCompile(`[ \t]{2,}`)

func tidySpaces(s string) string { return doubleSpace.ReplaceAllString(s, " ") }
