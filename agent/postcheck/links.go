package postcheck

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Links the model writes point where the reader will click, and Telegram makes more things
// clickable than addresses with http: a bare domain («evil-bank.ru/pay»), «t.me/…», an
// «@handle», any scheme («ftp://», «tg://», «mailto:»), with zero-width characters inside that
// the reader does not see. All of them are links here. Only the addresses of the sources the
// answer cites (Payload.Sources), those written in the facts of a source the bot itself vouches
// for (1C, the Bank of Russia, the knowledge base, facts without a source) and those of the
// user's question are the facts'; any other — a guessed page, a look-alike domain, a link a
// document's or a web page's text tried to plant — is dropped: a Markdown link keeps its words,
// a bare address goes. The answer's footnotes are made by code from the sources, so nothing the
// reader needs is lost. Defang does the same for text the bot did not let a model write: the
// link stays readable but not clickable.

// invisible are the characters a reader does not see, which a link may hide between its letters.
var invisible = strings.NewReplacer("\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "", "\u00ad", "")

// tlds are the top-level domains a bare address is recognised by: every two-letter one (country
// codes, «.md» included: Telegram links «README.md» too) and these.
var tlds = `[a-z]{2}|com|net|org|info|biz|pro|app|dev|online|site|shop|store|xyz|top|club|tech|link|live|click|` +
	`gov|edu|int|name|mobi|asia|tel|cloud|page|space|website|fun|icu|vip|ltd|group|art|blog|news|email|finance|` +
	`bank|money|pay|help|support|services|digital|world|today|life|media|agency|online|rest|bar|host|press|` +
	`рф|рус|москва|онлайн|сайт`

var (
	markdownLink = regexp.MustCompile(`\[([^\]\n]*)\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+"[^"\n]*")?\s*\)`)
	// linkRe finds what Telegram would make clickable, in text without invisible characters.
	linkRe = regexp.MustCompile(`(?i)` +
		`(?:\b(?:[a-z][a-z0-9+.\-]{1,15}|hxxps?|h\[?xx\]?ps?)(?:\[?:\]?)//[^\s<>"«»\]\[(){}|\\^` + "`" + `]+` + // any scheme
		`|\b(?:mailto|tg|tel|sms|callto|skype|viber|whatsapp):[^\s<>"«»\]\[()]+` + // schemes without //
		`|\b[a-z0-9._%+-]+@(?:[a-z0-9-]+\.)+[a-z]{2,24}\b` + // e-mail addresses
		`|(?:^|[^\p{L}\p{N}_@./-])@[a-z][a-z0-9_]{3,31}\b` + // @handles (Telegram: 5–32 characters)
		`|\bwww\.[^\s<>"«»\]\[()]+` + // www. and anything after it
		`|\b(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:` + tlds + `)(?::\d{2,5})?(?:/[^\s<>"«»\]\[()]*)?(?:[^\p{L}\p{N}-]|$)` + // bare domains
		`)`)
)

// link is one clickable thing of a text.
type link struct {
	span
	raw  string
	norm string
}

// findLinks returns the links of s, with their spans in s.
func findLinks(s string) []link {
	clean, pos := withoutInvisible(s)
	var out []link
	for from := 0; from < len(clean); {
		m := linkRe.FindStringIndex(clean[from:])
		if m == nil {
			break
		}
		start, end := from+m[0], from+m[1]
		raw := clean[start:end]
		// The patterns may take one character before an @handle or after a domain.
		if r, w := utf8.DecodeRuneInString(raw); r != '@' && !isLinkRune(r) {
			start, raw = start+w, raw[w:]
		}
		if r, w := utf8.DecodeLastRuneInString(raw); !isLinkRune(r) && r != '/' {
			end, raw = end-w, raw[:len(raw)-w]
		}
		trimmed := strings.TrimRight(raw, ".,;:!?'*_")
		end -= len(raw) - len(trimmed)
		from = max(end, start+1) // the next link may start right after this one («ru/pay @bot»)
		if trimmed == "" {
			continue
		}
		// The link ends right after its last byte in s, before any escape or hidden character.
		from0, to := pos[start], pos[end-1]+1
		out = append(out, link{span: span{from0, to}, raw: s[from0:to], norm: normalizeLink(trimmed)})
	}
	return out
}

func isLinkRune(r rune) bool {
	return r == '@' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' ||
		r >= 0x400 && r <= 0x4ff || r == '=' || r == '&' || r == '%' || r == '#' || r == '~' || r == '+'
}

// withoutInvisible is s without invisible characters and Markdown escapes, and for every byte offset of it (and its
// end) the offset in s.
func withoutInvisible(s string) (string, []int) {
	var b strings.Builder
	pos := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == '\\' && i+1 < len(s) && strings.IndexByte(asciiPunct, s[i+1]) >= 0 {
			i += w // a Markdown escape («evil\-bank\.ru»): the reader sees the character alone
			continue
		}
		if invisible.Replace(string(r)) != "" || r == utf8.RuneError {
			b.WriteString(s[i : i+w])
			for j := range w {
				pos = append(pos, i+j)
			}
		}
		i += w
	}
	return b.String(), append(pos, len(s))
}

// DropForeignLinks returns answer without the links whose addresses the facts do not hold (see
// allowedLinks): a Markdown link keeps its words, any other link goes.
func (c *Checker) DropForeignLinks(answer string) string {
	allowed := c.allowedLinks(answer)
	out := markdownLink.ReplaceAllStringFunc(answer, func(m string) string {
		sub := markdownLink.FindStringSubmatch(m)
		if allowed[normalizeLink(invisible.Replace(sub[2]))] {
			return m
		}
		return sub[1]
	})
	var b strings.Builder
	last := 0
	for _, l := range findLinks(out) {
		if allowed[l.norm] || insideKeptLink(out, l.start) {
			continue
		}
		b.WriteString(out[last:l.start])
		last = l.end
	}
	if last == 0 {
		return out
	}
	b.WriteString(out[last:])
	return tidySpaces(b.String())
}

// foreignLinks reports the links of answer that DropForeignLinks would drop: a streamed part
// that shows one is not shown.
func (c *Checker) foreignLinks(answer string) []Violation {
	allowed := c.allowedLinks(answer)
	var vs []Violation
	for _, m := range markdownLink.FindAllStringSubmatch(answer, -1) {
		if !allowed[normalizeLink(invisible.Replace(m[2]))] {
			vs = append(vs, Violation{ForeignLink, "ссылка " + quote(m[2])})
		}
	}
	for _, l := range findLinks(answer) {
		if !allowed[l.norm] && !insideKeptLink(answer, l.start) {
			vs = append(vs, Violation{ForeignLink, "ссылка " + quote(l.raw)})
		}
	}
	return vs
}

// allowedLinks are the links an answer may keep: the addresses of the sources it cites (of all
// sources when it cites none), the links written in the facts of those of them the bot vouches
// for and in facts without a source, and the links of the question.
func (c *Checker) allowedLinks(answer string) map[string]bool {
	allowed := map[string]bool{}
	for k := range c.attr.qlinks {
		allowed[k] = true
	}
	for _, l := range findLinks(c.attr.commonRaw) {
		allowed[l.norm] = true
	}
	cites := citedSources(answer, len(c.attr.sources))
	for _, n := range cites {
		s := c.attr.sources[n]
		if s.url != "" {
			allowed[s.url] = true
		}
		if s.origin == originDocs || s.origin == originWeb {
			continue // the text of an uploaded file or a web page may plant any link
		}
		for _, l := range findLinks(s.raw) {
			allowed[l.norm] = true
		}
	}
	return allowed
}

// citedSources are the sources (0-based) an answer's footnote marks cite; every source when it
// cites none.
func citedSources(answer string, n int) []int {
	var out []int
	for _, m := range footnotesRe.FindAllString(answer, -1) {
		for _, k := range marks(m) {
			if k >= 1 && k <= n && !slices.Contains(out, k-1) {
				out = append(out, k-1)
			}
		}
	}
	if len(out) == 0 {
		for i := range n {
			out = append(out, i)
		}
	}
	return out
}

// Defang makes the links of text that allowed (normalised, see NormalizeLink) does not list
// unclickable but readable: each goes in a code span, where Telegram links nothing. It is for
// text no model wrote — a quote from a document — whose links the reader may need to read but
// must not be led to by a click.
func Defang(text string, allowed map[string]bool) string {
	ls := findLinks(text)
	if len(ls) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, l := range ls {
		if allowed[l.norm] || insideKeptLink(text, l.start) || insideCode(text, l.start) {
			continue
		}
		b.WriteString(text[last:l.start])
		b.WriteString("`" + strings.ReplaceAll(unescape(invisible.Replace(l.raw)), "`", "'") + "`")
		last = l.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// Links are the links of s as Telegram reads them, normalised (NormalizeLink).
func Links(s string) []string {
	var out []string
	for _, l := range findLinks(s) {
		out = append(out, l.norm)
	}
	return out
}

// NormalizeLink is the form in which links are compared (the keys of Defang's allowed).
func NormalizeLink(u string) string { return normalizeLink(u) }

// normalizeLink compares addresses without their scheme, a leading "www.", a trailing slash,
// invisible characters and the case of the host; an @handle by its name in lower case.
func normalizeLink(u string) string {
	u = strings.TrimSpace(invisible.Replace(u))
	if strings.HasPrefix(u, "@") {
		return strings.ToLower(u)
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if i := strings.Index(u, ":"); i > 0 && !strings.Contains(u[:i], ".") && !strings.Contains(u[:i], "/") {
		return strings.ToLower(u) // mailto:, tg:
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

// insideCode reports whether position i of s is inside an inline code span on its line.
func insideCode(s string, i int) bool {
	line := s[strings.LastIndexByte(s[:i], '\n')+1 : i]
	return strings.Count(line, "`")%2 == 1
}

var doubleSpace = regexp.MustCompile(`[ \t]{2,}`)

func tidySpaces(s string) string { return doubleSpace.ReplaceAllString(s, " ") }
