package extract

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Chunk is a piece of the document text for retrieval.
type Chunk struct {
	Index   int
	Page    int    // page where the chunk starts
	Heading string // the nearest preceding heading (any level), "" if none
	Text    string
	Start   int // rune offset in the concatenated document text (Document.Text)
}

// ChunkOptions sets chunk sizes in runes. Zero fields take the defaults (Size 1200, Overlap 200);
// a negative Overlap means none. Size is at least 16; Overlap is capped at Size/2-1.
type ChunkOptions struct {
	Size    int // runes, default 1200
	Overlap int // runes, default 200
}

// Chunks splits the document text (Document.Text) into chunks of at most o.Size runes. It cuts
// at a paragraph break if it can, else at a line break, a sentence end, a word boundary, and only
// as a last resort inside a word; it never cuts inside a protected span: a number written with
// space-separated digit groups («1 250 000,00»), a word up to 64 runes (an INN, «П-15/2025», a
// date) or a label with its number («ИНН 7707083893», «№ П-15/2025»). A cut happens no earlier
// than half of Size into the chunk. Consecutive chunks overlap by up to o.Overlap runes, starting
// at a sentence or word boundary. Chunk texts are trimmed of surrounding whitespace, so every
// non-space rune of the text lies in some chunk. The result is deterministic.
func Chunks(d Document, o ChunkOptions) []Chunk {
	size, overlap := o.Size, o.Overlap
	if size <= 0 {
		size = 1200
	}
	if size < 16 {
		size = 16
	}
	switch {
	case overlap == 0:
		overlap = 200
	case overlap < 0:
		overlap = 0
	}
	if overlap > size/2-1 {
		overlap = size/2 - 1
	}

	// Concatenate pages, remembering where each starts and where the headings are.
	var text []rune
	var pageStart []int
	var pageNum []int
	type absHeading struct {
		off  int
		text string
	}
	var heads []absHeading
	for _, p := range d.Pages {
		if p.Text == "" {
			continue
		}
		if len(text) > 0 {
			text = append(text, []rune(pageSep)...)
		}
		start := len(text)
		text = append(text, []rune(p.Text)...)
		pageStart = append(pageStart, start)
		pageNum = append(pageNum, p.Number)
		for _, h := range d.Headings {
			if h.Page == p.Number && h.Offset >= 0 && h.Offset <= len(text)-start {
				heads = append(heads, absHeading{start + h.Offset, h.Text})
			}
		}
	}
	sort.SliceStable(heads, func(a, b int) bool { return heads[a].off < heads[b].off })
	c := chunker{text: text, size: size}
	c.protect()

	var out []Chunk
	emit := func(s, e int) {
		for s < e && unicode.IsSpace(text[s]) {
			s++
		}
		for e > s && unicode.IsSpace(text[e-1]) {
			e--
		}
		if s == e {
			return
		}
		ch := Chunk{Index: len(out), Text: string(text[s:e]), Start: s}
		if i := sort.SearchInts(pageStart, s+1) - 1; i >= 0 {
			ch.Page = pageNum[i]
		}
		if i := sort.Search(len(heads), func(i int) bool { return heads[i].off > s }) - 1; i >= 0 {
			ch.Heading = heads[i].text
		}
		out = append(out, ch)
	}
	n := len(text)
	start := 0
	for start < n && unicode.IsSpace(text[start]) {
		start++
	}
	for start < n {
		if n-start <= size {
			emit(start, n)
			break
		}
		end := c.cut(start)
		emit(start, end)
		next := c.resume(start, end, overlap)
		for next < n && unicode.IsSpace(text[next]) {
			next++
		}
		start = next
	}
	return out
}

type chunker struct {
	text  []rune
	size  int
	spans [][2]int // protected [start, end), sorted, disjoint
}

// maxWordSpan: words up to this length are never cut inside.
const maxWordSpan = 64

var labels = map[string]bool{
	"№": true, "n": true, "инн": true, "кпп": true, "огрн": true, "огрнип": true, "бик": true,
	"окпо": true, "р/с": true, "к/с": true, "р/сч": true, "к/сч": true, "л/с": true, "оквэд": true,
	"снилс": true, "счет": true, "счёт": true,
}

// protect finds the spans that must not be cut.
func (c *chunker) protect() {
	t := c.text
	n := len(t)
	var spans [][2]int
	isDigit := func(i int) bool { return i >= 0 && i < n && t[i] >= '0' && t[i] <= '9' }
	// Words (maximal runs of non-space runes).
	type word struct{ s, e int }
	var words []word
	for i := 0; i < n; {
		if unicode.IsSpace(t[i]) {
			i++
			continue
		}
		s := i
		for i < n && !unicode.IsSpace(t[i]) {
			i++
		}
		words = append(words, word{s, i})
	}
	for wi, w := range words {
		if w.e-w.s <= maxWordSpan {
			spans = append(spans, [2]int{w.s, w.e})
		}
		// Label followed by a number: «ИНН 7707083893», «№ П-15/2025».
		if wi+1 < len(words) && w.e-w.s <= 7 && strings.ContainsRune("№NnИиКкОоБбРрЛлСс", t[w.s]) {
			nx := words[wi+1]
			lab := strings.ToLower(strings.TrimRight(string(t[w.s:w.e]), ":."))
			if labels[lab] && nx.s-w.e <= 2 && !strings.ContainsRune(string(t[w.e:nx.s]), '\n') && nx.e-nx.s <= maxWordSpan {
				hasDigit := false
				for k := nx.s; k < nx.e; k++ {
					if isDigit(k) {
						hasDigit = true
						break
					}
				}
				if hasDigit {
					spans = append(spans, [2]int{w.s, nx.e})
				}
			}
		}
	}
	// Numbers with digit groups separated by single spaces: «1 250 000,00».
	for i := 0; i < n; i++ {
		if !isDigit(i) || isDigit(i-1) {
			continue
		}
		j := i
		for isDigit(j) {
			j++
		}
		if j-i > 3 {
			i = j
			continue
		}
		e := j
		for e+3 < n && (t[e] == ' ' || t[e] == '\u00A0' || t[e] == '\u202F') && isDigit(e+1) && isDigit(e+2) && isDigit(e+3) && !isDigit(e+4) {
			e += 4
		}
		if e > j {
			if e+1 < n && (t[e] == ',' || t[e] == '.') && isDigit(e+1) {
				e++
				for isDigit(e) {
					e++
				}
			}
			spans = append(spans, [2]int{i, e})
		}
		i = e
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	// Merge overlapping spans; drop merged spans too long to keep the size bound.
	for _, s := range spans {
		if k := len(c.spans) - 1; k >= 0 && s[0] < c.spans[k][1] {
			if s[1] > c.spans[k][1] {
				c.spans[k][1] = s[1]
			}
			continue
		}
		c.spans = append(c.spans, s)
	}
	kept := c.spans[:0]
	for _, s := range c.spans {
		if s[1]-s[0] <= c.size/2 {
			kept = append(kept, s)
		}
	}
	c.spans = kept
}

// allowed reports whether a cut at p (between p-1 and p) avoids protected spans.
func (c *chunker) allowed(p int) bool {
	i := sort.Search(len(c.spans), func(i int) bool { return c.spans[i][1] > p })
	return i == len(c.spans) || !(c.spans[i][0] < p)
}

// Priorities of a cut (chunker.priority).
const (
	cutForbidden = -1
	cutInWord    = 0
	cutWord      = 1
	cutSentence  = 2
	cutLine      = 3
	cutClause    = 4 // before a numbered clause («5.2. За просрочку…»), which keeps its number
	cutParagraph = 5
)

// priority of a cut at p, from cutParagraph down to cutForbidden.
func (c *chunker) priority(p int) int {
	t := c.text
	if p <= 0 || p >= len(t) {
		return cutParagraph
	}
	if !c.allowed(p) {
		return cutForbidden
	}
	if unicode.IsSpace(t[p]) || !unicode.IsSpace(t[p-1]) {
		if unicode.Is(unicode.Mn, t[p]) {
			return cutForbidden
		}
		return cutInWord
	}
	// p starts a token after whitespace: look at the whitespace run.
	k := p - 1
	nl := 0
	for k >= 0 && unicode.IsSpace(t[k]) {
		if t[k] == '\n' {
			nl++
		}
		k--
	}
	switch {
	case nl >= 2:
		return cutParagraph
	case nl == 1 && c.clauseStart(p, k):
		return cutClause
	case nl == 1:
		return cutLine
	case k >= 0 && sentenceEnd(t, k) && startsSentence(t[p]):
		if c.clauseStart(p, k) {
			return cutClause
		}
		return cutSentence
	}
	return cutWord
}

// clauseStart reports whether a numbered clause starts at p, which follows a line break or a
// sentence's end whose last rune is at k: one to four levels of one- or two-digit numbers (one
// level needs its dot: «20 дней» is no clause), then a capital letter or a quote. A number
// after «п.», «ст.», «пункт» is a reference, not a clause.
func (c *chunker) clauseStart(p, k int) bool {
	t := c.text
	i, levels, dot := p, 0, false
	for levels < 4 {
		j := i
		for j < len(t) && j-i < 3 && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j == i || j-i > 2 || j < len(t) && t[j] >= '0' && t[j] <= '9' {
			return false
		}
		levels++
		i, dot = j, false
		if i < len(t) && t[i] == '.' {
			i++
			dot = true
			if i < len(t) && t[i] >= '0' && t[i] <= '9' {
				continue
			}
		}
		break
	}
	if levels == 1 && !dot || i >= len(t) || !unicode.IsSpace(t[i]) {
		return false
	}
	for i < len(t) && t[i] == ' ' {
		i++
	}
	if i >= len(t) || !(unicode.IsUpper(t[i]) || strings.ContainsRune("«\"", t[i])) {
		return false
	}
	s := k
	for s >= 0 && !unicode.IsSpace(t[s]) {
		s--
	}
	return k < 0 || !clauseReferences[strings.ToLower(strings.Trim(string(t[s+1:k+1]), ".(«\""))]
}

// clauseReferences are the words after which a number refers to a clause instead of starting
// one: «согласно п.\n5.2. Договора».
var clauseReferences = map[string]bool{
	"п": true, "пп": true, "пункт": true, "пункта": true, "пункту": true, "пунктом": true, "пункте": true,
	"ст": true, "статья": true, "статьи": true, "ч": true, "раздел": true, "раздела": true, "№": true,
}

var abbreviations = map[string]bool{
	"г": true, "гг": true, "ул": true, "д": true, "кв": true, "ст": true, "п": true, "пп": true,
	"ч": true, "руб": true, "коп": true, "тыс": true, "млн": true, "млрд": true, "им": true,
	"т": true, "см": true, "стр": true, "рис": true, "тел": true, "обл": true, "р": true, "с": true,
	"пр": true, "корп": true, "стр.": true, "н": true, "др": true, "т.е": true, "т.д": true,
	"т.п": true, "э": true, "ед": true, "шт": true, "мин": true, "гл": true, "разд": true,
}

// sentenceEnd reports whether t[k] (a non-space rune) ends a sentence.
func sentenceEnd(t []rune, k int) bool {
	for k >= 0 && strings.ContainsRune("»\"”’)]", t[k]) {
		k--
	}
	if k < 0 {
		return false
	}
	switch t[k] {
	case '!', '?', '…', ';':
		return true
	case '.':
	default:
		return false
	}
	// Not after an abbreviation («г.», «руб.», «т.е.») or an initial («И. И. Иванов»).
	e := k
	s := e
	for s > 0 && (unicode.IsLetter(t[s-1]) || t[s-1] == '.') {
		s--
	}
	w := strings.ToLower(strings.TrimSuffix(string(t[s:e]), "."))
	if abbreviations[w] {
		return false
	}
	if n := len([]rune(w)); n == 1 && unicode.IsUpper(t[s]) {
		return false
	}
	return true
}

func startsSentence(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune("«\"(—–-•", r)
}

// cut returns the end of the chunk that begins at start (len(text)-start > size).
func (c *chunker) cut(start int) int {
	limit := start + c.size
	lo := start + c.size/2
	best, bestPrio := -1, -1
	for p := limit; p > lo; p-- {
		pr := c.priority(p)
		if pr > bestPrio {
			best, bestPrio = p, pr
			if pr == cutParagraph {
				break
			}
		}
	}
	if best < 0 {
		return limit // unreachable: protected spans are at most size/2 long
	}
	return best
}

// resume returns where the chunk after [start, end) begins, overlapping by up to overlap runes.
func (c *chunker) resume(start, end, overlap int) int {
	if overlap <= 0 {
		return end
	}
	lo := max(end-overlap, start+1)
	// The start of the last clause the chunk holds: the next one then has that clause whole,
	// with its number, however the chunk was cut.
	for p := end - 1; p >= lo; p-- {
		if pr := c.priority(p); pr == cutClause || pr == cutParagraph && c.clauseStart(p, lastNonSpace(c.text, p)) {
			return p
		}
	}
	// A sentence (or line/paragraph) start giving at least a quarter of the overlap.
	for p := lo; p <= end-overlap/4 && p < end; p++ {
		if c.priority(p) >= cutSentence {
			return p
		}
	}
	for p := lo; p < end; p++ {
		if c.priority(p) >= cutWord {
			return p
		}
	}
	for p := lo; p < end; p++ {
		if c.priority(p) == cutInWord && !unicode.IsSpace(c.text[p]) {
			return p
		}
	}
	return end
}

// lastNonSpace is the index of the last non-space rune before p, -1 if none.
func lastNonSpace(t []rune, p int) int {
	k := p - 1
	for k >= 0 && unicode.IsSpace(t[k]) {
		k--
	}
	return k
}
