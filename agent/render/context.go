package render

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/ru"
)

// DefaultContextChars bounds Context when the caller gives no bound.
const DefaultContextChars = 50000

// ctxSection is one «## Section» of the context with the lines of its items.
type ctxSection struct {
	name  facts.Section
	lines []string
	runes []int // rune count of each line
	srcs  []int // the source of each line, 0 = none
	keep  int   // lines included
	size  int   // runes of the included lines, one "\n" after each
}

// Context renders the payload for the answer LLM: the sections «## General Facts», «## User
// Documents», «## Knowledge Base», «## External Data» that have items, in facts.Sections order (an
// item of an unknown section counts as General Facts), one complete line per item ending with its
// source mark [n]; then notes, «## Limitations» and the «## Sources» cited by the included items
// as «[n] title», numbered as in p.Sources.
//
// The text is at most maxChars runes (DefaultContextChars when maxChars <= 0). When the items
// do not fit, whole items are dropped from the end of the largest section first and the note
// «(контекст сокращён: ещё N фактов не вошли)» says how many. included is the number of items
// in the text.
func Context(p facts.Payload, maxChars int) (text string, included int) {
	if maxChars <= 0 {
		maxChars = DefaultContextChars
	}
	secs := make([]*ctxSection, len(facts.Sections))
	index := map[facts.Section]int{}
	for i, s := range facts.Sections {
		secs[i] = &ctxSection{name: s}
		index[s] = i
	}
	refs := make([]int, len(p.Sources)+1)
	total := 0
	for _, it := range p.Items {
		line := contextLine(it, len(p.Sources))
		if line == "" {
			continue
		}
		s := secs[index[it.Section]] // unknown sections give 0, General Facts
		src := it.Source
		if src < 1 || src > len(p.Sources) {
			src = 0
		}
		n := utf8.RuneCountInString(line)
		s.lines, s.runes, s.srcs = append(s.lines, line), append(s.runes, n), append(s.srcs, src)
		s.keep++
		s.size += n + 1
		refs[src]++
		total++
	}

	srcLines := make([]string, len(p.Sources)+1)
	srcSize := 0 // runes of the cited source lines, one "\n" after each
	for i, s := range p.Sources {
		title := esc(s.Title)
		if title == "" {
			title = esc(s.URL)
		}
		srcLines[i+1] = "[" + strconv.Itoa(i+1) + "] " + title
		if refs[i+1] > 0 {
			srcSize += utf8.RuneCountInString(srcLines[i+1]) + 1
		}
	}

	var lims []string
	for _, l := range p.Limitations {
		if l = esc(l); l != "" {
			lims = append(lims, "- "+l)
		}
	}
	limBlock := ""
	if len(lims) > 0 {
		limBlock = "## Limitations\n" + strings.Join(lims, "\n")
	}

	included = total
	notes := func() string {
		var ns []string
		if dropped := total - included; dropped > 0 {
			ns = append(ns, fmt.Sprintf("(контекст сокращён: не вошли ещё %s)", ru.Count(dropped, "факт", "факта", "фактов")))
		}
		if p.Total > len(p.Items) {
			ns = append(ns, fmt.Sprintf("(всего найдено фактов: %d, в контексте: %d)", p.Total, included))
		}
		return strings.Join(ns, "\n")
	}
	// measure counts the runes of the text render would write, without writing it.
	measure := func() int {
		n, blocks := 0, 0
		for _, s := range secs {
			if s.keep > 0 {
				n += utf8.RuneCountInString(sectionHeading(s.name)) + s.size
				blocks++
			}
		}
		for _, b := range []string{notes(), limBlock} {
			if b != "" {
				n += utf8.RuneCountInString(b)
				blocks++
			}
		}
		if srcSize > 0 {
			n += utf8.RuneCountInString(sourcesHeading) + srcSize
			blocks++
		}
		return n + max(blocks-1, 0)*2
	}
	for included > 0 && measure() > maxChars {
		var big *ctxSection
		for _, s := range secs {
			if s.keep > 0 && (big == nil || s.size >= big.size) {
				big = s // on a tie the later section gives way
			}
		}
		big.keep--
		big.size -= big.runes[big.keep] + 1
		if src := big.srcs[big.keep]; src > 0 {
			if refs[src]--; refs[src] == 0 {
				srcSize -= utf8.RuneCountInString(srcLines[src]) + 1
			}
		}
		included--
	}

	var blocks []string
	for _, s := range secs {
		if s.keep > 0 {
			blocks = append(blocks, sectionHeading(s.name)+"\n"+strings.Join(s.lines[:s.keep], "\n"))
		}
	}
	for _, b := range []string{notes(), limBlock} {
		if b != "" {
			blocks = append(blocks, b)
		}
	}
	if srcSize > 0 {
		var cited []string
		for i := 1; i < len(refs); i++ {
			if refs[i] > 0 {
				cited = append(cited, srcLines[i])
			}
		}
		blocks = append(blocks, sourcesHeading+"\n"+strings.Join(cited, "\n"))
	}
	return clip(strings.Join(blocks, "\n\n"), maxChars), included
}

const sourcesHeading = "## Sources"

func sectionHeading(s facts.Section) string { return "## " + string(s) }

// contextLine writes an item completely on one line: «- Title — Text; Name: Value; Группа:
// Group [n]». It is "" for an item with nothing to say.
func contextLine(it facts.Item, sources int) string {
	var parts []string
	if t := esc(it.Text); t != "" {
		parts = append(parts, t)
	}
	for _, f := range it.Fields {
		if s := field(f); s != "" {
			parts = append(parts, s)
		}
	}
	if g := esc(it.Group); g != "" {
		parts = append(parts, "Группа: "+g)
	}
	title, body := esc(it.Title), strings.Join(parts, "; ")
	var line string
	switch {
	case title == "" && body == "":
		return ""
	case title == "":
		line = body
	case body == "":
		line = title
	default:
		line = title + " — " + body
	}
	if it.Source >= 1 && it.Source <= sources {
		line += " [" + strconv.Itoa(it.Source) + "]"
	}
	return "- " + line
}

// clip keeps the text within n runes when even no items do not make it fit (very long
// limitations): it cuts at the last line break that fits, or mid-line when none does.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := 0
	for i := range s {
		if n == 0 {
			cut = i
			break
		}
		n--
	}
	s = s[:cut]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		return strings.TrimRight(s[:i], "\n")
	}
	return s
}
