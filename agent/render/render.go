// Package render turns a facts.Payload into text: Facts writes the deterministic Russian Markdown
// answer shown when there is no answer LLM or its answer fails the post-check, and Context writes
// the bounded, sectioned context the answer LLM phrases its answer from.
//
// Every dynamic string (titles, texts, field names and values, groups, limitations, source
// titles) goes through md.Escape; footnote marks " [n]" are the only brackets the renderer
// writes itself, and they always refer to Payload.Sources (1-based). Neither function writes
// the source list for the user: the caller appends it.
package render

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/ru"
)

// Style is how Facts lays the items out.
type Style string

// The styles.
const (
	Bullets Style = "BULLETS"
	Grouped Style = "GROUPED_BULLETS"
	Short   Style = "SHORT"
	Table   Style = "TABLE"
)

// ParseStyle reads a style name as a planner writes it: case and surrounding spaces are
// ignored, "-" or " " may stand for "_", and "GROUPED" means GROUPED_BULLETS. An unknown name
// gives Bullets and false, so a caller may ignore ok and still get the default style.
func ParseStyle(s string) (Style, bool) {
	k := strings.ToUpper(strings.TrimSpace(s))
	k = strings.NewReplacer("-", "_", " ", "_").Replace(k)
	switch st := Style(k); st {
	case Bullets, Grouped, Short, Table:
		return st, true
	case "GROUPED":
		return Grouped, true
	}
	return Bullets, false
}

// Limits bound what Facts lists; zero or negative fields take the defaults.
type Limits struct {
	MaxItems      int // items listed (per group in GROUPED_BULLETS); default 10
	MaxGroups     int // groups listed in GROUPED_BULLETS; default 4
	MaxParagraphs int // paragraphs in SHORT; default 4
}

// The default limits.
const (
	DefaultMaxItems      = 10
	DefaultMaxGroups     = 4
	DefaultMaxParagraphs = 4
)

func (l Limits) withDefaults() Limits {
	if l.MaxItems <= 0 {
		l.MaxItems = DefaultMaxItems
	}
	if l.MaxGroups <= 0 {
		l.MaxGroups = DefaultMaxGroups
	}
	if l.MaxParagraphs <= 0 {
		l.MaxParagraphs = DefaultMaxParagraphs
	}
	return l
}

// NotFound is Facts' whole answer when the tools found nothing. It says only that: no
// negative tails about things the user did not ask about.
const NotFound = "По вашему запросу данных не нашлось."

// otherGroup is the heading of items without a group; it is listed last.
const otherGroup = "Прочее"

// entry is an item made ready for Markdown: every string cleaned and escaped.
type entry struct {
	title  string
	text   string
	fields []string // "Name: Value"
	group  string   // the escaped group; "" = none
	mark   string   // " [n]" or ""
}

// body is what a bullet says after the title: the text, or the fields when there is no text.
func (e entry) body() string {
	if e.text != "" {
		return e.text
	}
	return strings.Join(e.fields, "; ")
}

// line is the fact as one line: «**Title** — body [n]».
func (e entry) line() string {
	return e.bold() + e.rest() + e.mark
}

func (e entry) bold() string {
	if e.title == "" {
		return ""
	}
	return "**" + e.title + "**"
}

func (e entry) rest() string {
	b := e.body()
	switch {
	case b == "":
		return ""
	case e.title == "":
		return b
	}
	return " — " + b
}

// entries prepares the payload's items, leaving out those with nothing to show, and returns
// them with the number of matching items (Payload.Count without the left-out ones).
func entries(p facts.Payload) ([]entry, int) {
	es := make([]entry, 0, len(p.Items))
	for _, it := range p.Items {
		e := entry{
			title: esc(it.Title),
			text:  esc(it.Text),
			group: esc(it.Group),
		}
		for _, f := range it.Fields {
			if s := field(f); s != "" {
				e.fields = append(e.fields, s)
			}
		}
		if e.title == "" && e.text == "" && len(e.fields) == 0 {
			continue
		}
		if it.Source >= 1 && it.Source <= len(p.Sources) {
			e.mark = " [" + strconv.Itoa(it.Source) + "]"
		}
		es = append(es, e)
	}
	skipped := len(p.Items) - len(es)
	return es, max(p.Count()-skipped, len(es))
}

// field writes «Name: Value»; a field without a value is left out, one without a name is
// just its value.
func field(f facts.Field) string {
	name, value := esc(f.Name), esc(f.Value)
	switch {
	case value == "":
		return ""
	case name == "":
		return value
	}
	return name + ": " + value
}

// Facts renders the payload deterministically as Russian Markdown for the user. Footnote marks
// [n] refer to p.Sources (1-based); the caller appends the source list. An unknown style is
// rendered as Bullets.
func Facts(p facts.Payload, style Style, l Limits) string {
	l = l.withDefaults()
	es, count := entries(p)
	var blocks []string
	if !p.Found || len(es) == 0 {
		blocks = []string{NotFound}
	} else {
		switch style {
		case Grouped:
			blocks = grouped(es, count, l)
		case Short:
			blocks = short(es, count, l)
		case Table:
			blocks = table(es, count, l)
		default:
			blocks = bullets(es, count, l.MaxItems)
		}
	}
	if lim := limitations(p.Limitations); lim != "" {
		blocks = append(blocks, lim)
	}
	return strings.Join(blocks, "\n\n")
}

// bullets lists up to max entries, then «ещё N» for the rest of count.
func bullets(es []entry, count, max int) []string {
	shown := es[:min(len(es), max)]
	lines := make([]string, len(shown))
	for i, e := range shown {
		lines[i] = "- " + e.line()
	}
	blocks := []string{strings.Join(lines, "\n")}
	if rest := count - len(shown); rest > 0 {
		blocks = append(blocks, more(rest))
	}
	return blocks
}

// grouped lists the entries under their groups in first-appearance order, the ungrouped ones
// last under «Прочее»: up to MaxGroups groups, up to MaxItems entries in each.
func grouped(es []entry, count int, l Limits) []string {
	var order []string
	members := map[string][]entry{}
	for _, e := range es {
		if _, ok := members[e.group]; !ok && e.group != "" {
			order = append(order, e.group)
		}
		members[e.group] = append(members[e.group], e)
	}
	if len(order) == 0 {
		return bullets(es, count, l.MaxItems) // nothing to group by
	}
	if _, ok := members[""]; ok {
		order = append(order, "")
	}
	var blocks []string
	for _, g := range order[:min(len(order), l.MaxGroups)] {
		heading := g
		if heading == "" {
			heading = otherGroup
		}
		list := bullets(members[g], len(members[g]), l.MaxItems)
		list[0] = "**" + heading + "**\n" + list[0]
		blocks = append(blocks, list...)
	}
	if rest := len(order) - l.MaxGroups; rest > 0 {
		blocks = append(blocks, "ещё "+ru.Count(rest, "группа", "группы", "групп")+moreTail)
	}
	if rest := count - len(es); rest > 0 {
		blocks = append(blocks, more(rest))
	}
	return blocks
}

// short writes up to MaxParagraphs entries as sentences, one paragraph each.
func short(es []entry, count int, l Limits) []string {
	shown := es[:min(len(es), l.MaxParagraphs)]
	blocks := make([]string, 0, len(shown)+1)
	for _, e := range shown {
		s := e.bold() + e.rest()
		if !endsSentence(s) {
			s += "."
		}
		blocks = append(blocks, s+e.mark)
	}
	if rest := count - len(shown); rest > 0 {
		blocks = append(blocks, more(rest))
	}
	return blocks
}

// table writes each entry as a card fit for a phone — a bold title line, then the text and
// one «Name: Value» line per field — since Telegram shows no wide tables. Without any fields
// it is Bullets.
func table(es []entry, count int, l Limits) []string {
	hasFields := false
	for _, e := range es {
		hasFields = hasFields || len(e.fields) > 0
	}
	if !hasFields {
		return bullets(es, count, l.MaxItems)
	}
	shown := es[:min(len(es), l.MaxItems)]
	blocks := make([]string, 0, len(shown)+1)
	for _, e := range shown {
		var lines []string
		if e.title != "" {
			lines = append(lines, e.bold())
		}
		if e.text != "" {
			lines = append(lines, lineStart(e.text))
		}
		for _, f := range e.fields {
			lines = append(lines, lineStart(f))
		}
		lines[0] += e.mark
		blocks = append(blocks, strings.Join(lines, "\n"))
	}
	if rest := count - len(shown); rest > 0 {
		blocks = append(blocks, more(rest))
	}
	return blocks
}

// limitations writes each limitation as an italic line.
func limitations(ls []string) string {
	var lines []string
	for _, s := range ls {
		if s = esc(s); s != "" {
			lines = append(lines, "_"+s+"_")
		}
	}
	return strings.Join(lines, "\n")
}

const moreTail = " (по запросу могу вывести)"

// more is the line that stands for n items not listed.
func more(n int) string { return "ещё " + ru.Number(n) + moreTail }

// endsSentence reports whether s already ends like a sentence.
func endsSentence(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?…", r)
}

// lineStart keeps an escaped line from being read as a setext heading underline ("===")
// when it follows another line of the same paragraph; md.Escape does not escape "=".
func lineStart(s string) string {
	if strings.HasPrefix(s, "=") {
		return `\` + s
	}
	return s
}

// Technical artifacts the tools or documents may carry and the user must never see:
// «(confidence: 0.87)» and a «[1] – » reference opening a line.
var (
	confidenceRe = regexp.MustCompile(`(?i)\s*[(\[]\s*(?:confidence|conf|score|уверенность)\s*[:=]\s*\d+(?:[.,]\d+)?\s*%?\s*[)\]]`)
	refPrefixRe  = regexp.MustCompile(`(?m)^[ \t]*\[\d{1,3}\][ \t]*[-–—][ \t]*`)
)

// esc cleans a dynamic string — artifacts removed, line breaks and runs of spaces made one
// space (no-break spaces inside amounts are kept) — and escapes it for Markdown.
func esc(s string) string {
	s = refPrefixRe.ReplaceAllString(s, "")
	s = strings.Join(strings.FieldsFunc(s, isBreakingSpace), " ")
	s = confidenceRe.ReplaceAllString(s, "")
	return md.Escape(strings.TrimSpace(s))
}

// isBreakingSpace is white space other than the no-break spaces that hold amounts and
// dates together («1 250 000,00 ₽»).
func isBreakingSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x85, 0x1680, 0x2028, 0x2029, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A && r != 0x2007
}
