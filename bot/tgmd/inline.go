package tgmd

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// inlines renders the inline children of parent.
func (c *converter) inlines(parent ast.Node) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		c.inline(n)
	}
}

func (c *converter) inline(n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(c.src)
		brk := n.SoftLineBreak() || n.HardLineBreak()
		if brk {
			v = bytes.TrimRight(v, " \t\n")
		}
		if n.IsRaw() {
			c.b.write(string(v))
		} else {
			c.b.write(string(unescape(v)))
		}
		if brk {
			// Soft and hard line breaks both become "\n"; keeping it pending
			// lets it merge with a following block separator.
			c.b.setSep("\n")
		}
	case *ast.String:
		if n.IsCode() || n.IsRaw() {
			c.b.write(string(n.Value))
		} else {
			c.b.write(string(unescape(n.Value)))
		}
	case *ast.CodeSpan:
		var buf []byte
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			switch t := ch.(type) {
			case *ast.Text:
				buf = append(buf, t.Segment.Value(c.src)...)
			case *ast.String:
				buf = append(buf, t.Value...)
			}
		}
		id := c.b.openEnt(kCode, "", "")
		c.b.plain++
		c.b.write(strings.ReplaceAll(string(buf), "\n", " "))
		c.b.plain--
		c.b.closeEnt(id)
	case *ast.Emphasis:
		k := kItalic
		if n.Level >= 2 {
			k = kBold
		}
		c.styled(k, n)
	case *extast.Strikethrough:
		c.styled(kStrike, n)
	case *ast.Link:
		url, ok := linkURL(n.Destination)
		id := -1
		if ok {
			id = c.b.openEnt(kTextLink, url, "")
		}
		before := c.b.sb.Len()
		c.inlines(n)
		if ok && c.b.sb.Len() == before {
			c.b.write(displayURL(n.Destination)) // [](url): show the URL
		}
		c.b.closeEnt(id)
	case *ast.Image:
		alt := c.plainText(n)
		if dest := displayURL(n.Destination); hasScheme(dest, "http", "https") {
			if alt == "" {
				alt = dest
			} else {
				alt += " (" + dest + ")"
			}
		}
		c.b.write(alt)
	case *ast.AutoLink:
		// Telegram linkifies bare URLs and e-mail addresses by itself.
		c.b.write(string(n.Label(c.src)))
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			c.b.write(string(seg.Value(c.src)))
		}
	case *extast.TaskCheckBox:
		// Rendered as the list item marker.
	default:
		c.inlines(n)
	}
}

// styled renders the children of n inside an entity of kind k.
func (c *converter) styled(k entKind, n ast.Node) {
	id := c.b.openEnt(k, "", "")
	c.inlines(n)
	c.b.closeEnt(id)
}

// linkURL returns the URL for a text_link entity and whether the link
// destination may become one: only http, https, tg and mailto are allowed.
func linkURL(dest []byte) (string, bool) {
	u := strings.TrimSpace(string(util.URLEscape(dest, true)))
	return u, hasScheme(u, "http", "https", "tg", "mailto")
}

// displayURL returns the link destination as a human would type it.
func displayURL(dest []byte) string {
	return strings.TrimSpace(string(unescape(dest)))
}

// hasScheme reports whether u is an absolute URL with one of the schemes and
// something after it.
func hasScheme(u string, schemes ...string) bool {
	i := strings.IndexByte(u, ':')
	if i <= 0 || i+1 >= len(u) {
		return false
	}
	scheme, rest := strings.ToLower(u[:i]), u[i+1:]
	for _, s := range schemes {
		if scheme != s {
			continue
		}
		if s == "http" || s == "https" {
			return len(rest) > 2 && strings.HasPrefix(rest, "//")
		}
		return true
	}
	return false
}

// unescape resolves backslash escapes and HTML entity and numeric character
// references in one pass, as CommonMark prescribes for text.
func unescape(v []byte) []byte {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return v
	}
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); {
		ch := v[i]
		if ch == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]) {
			out = append(out, v[i+1])
			i += 2
			continue
		}
		if ch == '&' {
			if repl, n := charRef(v[i:]); n > 0 {
				out = append(out, repl...)
				i += n
				continue
			}
		}
		out = append(out, ch)
		i++
	}
	return out
}

// charRef decodes the character reference at the start of v ("&amp;",
// "&#1046;", "&#x1F4C8;") and returns its text and length, or n == 0.
func charRef(v []byte) (repl []byte, n int) {
	semi := bytes.IndexByte(v[:min(len(v), 40)], ';')
	if semi < 2 {
		return nil, 0
	}
	body := v[1:semi]
	if body[0] == '#' {
		digits, base := body[1:], 10
		if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
			digits, base = digits[1:], 16
		}
		if len(digits) == 0 || (base == 10 && len(digits) > 7) || (base == 16 && len(digits) > 6) {
			return nil, 0
		}
		code, err := strconv.ParseUint(string(digits), base, 32)
		if err != nil {
			return nil, 0
		}
		r := util.ToValidRune(rune(code))
		return utf8.AppendRune(nil, r), semi + 1
	}
	for _, c := range body {
		if !util.IsAlphaNumeric(c) {
			return nil, 0
		}
	}
	if e, ok := util.LookUpHTML5EntityByName(string(body)); ok {
		return e.Characters, semi + 1
	}
	return nil, 0
}
