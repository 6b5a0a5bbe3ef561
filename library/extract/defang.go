package extract

import (
	"regexp"
	"strings"
	"unicode"
)

// Defang returns s with everything Telegram would render as a link or a mention made inert,
// for text a user chose that the bot shows to others: a document's title (its file name, its
// metadata title or its first heading) in the upload receipt, /docs, selection notes and
// footnotes. A group member could otherwise name a file «pay at evil-bank.ru or t.me/phish
// @phish_bot.pdf» and have the bot post clickable links under its own name.
//
// The approach is the one threat reports use ("defanging"), with the character that makes a
// link put in square brackets, so the text still reads the same to a person:
//   - a dot between a name and a letter, as in a domain: «evil-bank[.]ru», «t[.]me/phish»,
//     «a[@]b[.]ru»; and the dots of an IPv4 address, «10[.]0[.]0[.]1». Dates and amounts
//     («01.02.2026», «1.5») keep theirs: no letter follows;
//   - '@' before a name: «[@]phish_bot» (mentions, e-mail addresses);
//   - the colon of any scheme's "://": «tg[:]//resolve», «hxxps[:]//…» (schemes without a dot
//     in the host, such as tg://, are links too);
//   - the slash of a bot command at the start of a word: «[/]start».
//
// A file name keeps the dot of its extension when that is a document format's and no
// top-level domain (Telegram links only known ones): «акт.pdf», «oneline.txt»; «evil.zip» and
// «evil.md» (.zip and .md are domains) are defanged.
//
// The fullwidth and ideographic forms of those characters (＠ ． 。 ｡ ： ／), which some
// clients and every NFKC normaliser read as the ASCII ones, are treated the same way. Not
// inserting an invisible character (a zero-width non-joiner before the dot, say) is
// deliberate: it is a known trick, stripped by the normalisation that text goes through
// elsewhere (the bot's and the agent's input cleaning), and what it hides comes back
// clickable the moment the text is copied or normalised; brackets survive both. Hashtags and
// cashtags stay: Telegram only searches them. Defang is idempotent.
func Defang(s string) string {
	if !strings.ContainsAny(s, ".@:/．。｡＠：／") {
		return s
	}
	rs := []rune(s)
	quads := ipv4Dots(s)
	ext := extensionDot(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	at := 0 // byte offset of rs[i] in s
	for i, r := range rs {
		prev, next, next2 := rune(0), rune(0), rune(0)
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		if i+2 < len(rs) {
			next2 = rs[i+2]
		}
		switch {
		case isDot(r) && hostRune(prev) && (quads[at] || tldStart(r, next)) && at != ext:
			b.WriteString("[.]")
		case (r == '@' || r == '＠') && handleRune(next):
			b.WriteString("[@]")
		case (r == ':' || r == '：') && isSlash(next) && isSlash(next2) && hostRune(prev):
			b.WriteString("[:]")
		case isSlash(r) && !hostRune(prev) && !isSlash(prev) && prev != '[' && prev != ':' && prev != '：' && asciiLetter(next):
			b.WriteString("[/]")
		default:
			b.WriteRune(r)
		}
		at += len(string(r))
	}
	return b.String()
}

func isDot(r rune) bool   { return r == '.' || r == '．' || r == '。' || r == '｡' }
func isSlash(r rune) bool { return r == '/' || r == '／' }

func asciiLetter(r rune) bool { return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') }

// hostRune may end a label of a host name.
func hostRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_'
}

// handleRune may start a Telegram username (and an e-mail's domain).
func handleRune(r rune) bool {
	return asciiLetter(r) || (r >= '0' && r <= '9') || r == '_'
}

// tldStart reports whether a dot r followed by next may separate a domain's labels: the next
// label starts with a letter (top-level domains do; «01.02.2026» and «1.5» stay). An ASCII dot
// counts before any script's letter (.рф, .中国); the fullwidth and ideographic dots, which
// end sentences in CJK text, only before Latin and Cyrillic ones.
func tldStart(r, next rune) bool {
	if r == '.' {
		return unicode.IsLetter(next)
	}
	return asciiLetter(next) || unicode.Is(unicode.Cyrillic, next)
}

var ipv4 = regexp.MustCompile(`\d{1,3}(?:\.\d{1,3}){3}`)

// ipv4Dots are the byte offsets of the dots of the IPv4 addresses in s: four numbers, not
// part of a longer dotted run (a date has three).
func ipv4Dots(s string) map[int]bool {
	if strings.Count(s, ".") < 3 {
		return nil
	}
	var out map[int]bool
	for _, m := range ipv4.FindAllStringIndex(s, -1) {
		before, after := s[:m[0]], s[m[1]:]
		if strings.HasSuffix(before, ".") || endsWithDigit(before) || startsWithDigit(after) ||
			(strings.HasPrefix(after, ".") && startsWithDigit(after[1:])) {
			continue // a longer dotted run: a version, a section number
		}
		if out == nil {
			out = make(map[int]bool)
		}
		for i := m[0]; i < m[1]; i++ {
			if s[i] == '.' {
				out[i] = true
			}
		}
	}
	return out
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }
func endsWithDigit(s string) bool   { return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' }

// documentExtensions are the extensions of document formats that are no top-level domain.
var documentExtensions = []string{"pdf", "doc", "docx", "xls", "xlsx", "csv", "txt", "rtf", "odt", "ods", "json", "xml", "htm", "html"}

// extensionDot is the byte offset of the dot of s's extension when that is one of
// documentExtensions; -1 otherwise.
func extensionDot(s string) int {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return -1
	}
	for _, e := range documentExtensions {
		if strings.EqualFold(s[i+1:], e) {
			return i
		}
	}
	return -1
}
