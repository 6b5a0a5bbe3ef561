package tgmd

// TelegramLimit is the maximum length of a Telegram text message in UTF-16
// code units.
const TelegramLimit = 4096

// Cut point kinds in order of preference.
const (
	cutBlankLine = iota
	cutNewline
	cutSpace
	numCutKinds
)

// Split cuts m into parts of at most limit UTF-16 code units each.
//
// Each cut is made as late as possible, preferring a blank line that is not
// inside a pre entity, then any line break, then a space, and finally a hard
// cut at a rune boundary (a surrogate pair is never split). A preferred
// kind of cut point is only taken when it leaves the part at least half
// full; otherwise the next kind is tried, and only when no kind qualifies is
// the latest cut point of the most preferred kind taken regardless of size.
//
// Entities crossing a cut are clipped into both parts (a split pre keeps its
// language), whitespace around each part is trimmed and empty parts are
// dropped, so the parts concatenated equal m.Text apart from whitespace at
// the cuts. A message that already fits is returned as its only part,
// trimmed. Limits below 2 are treated as 2, the size of one emoji.
func Split(m Message, limit int) []Message {
	limit = max(limit, 2)
	u := encodeUTF16(m.Text)
	ents := sanitizeEntities(u, m.Entities)
	n := len(u)
	var inPre []bool
	if n > limit {
		inPre = preMask(n, ents)
	}
	var parts []Message
	pos := 0
	for {
		for pos < n && isSpace16(u[pos]) {
			pos++
		}
		if pos >= n {
			return parts
		}
		end := n
		if n-pos > limit {
			end = cutPoint(u, pos, pos+limit, inPre)
		}
		if a, b := trimRange(u, pos, end); b > a {
			parts = append(parts, cutMessage(u, ents, a, b))
		}
		pos = end
	}
}

// preMask reports for each offset c of a text of n units whether c lies
// strictly inside a pre entity.
func preMask(n int, ents []Entity) []bool {
	diff := make([]int, n+2)
	any := false
	for _, e := range ents {
		if e.Type == typePre && e.Length > 1 {
			diff[e.Offset+1]++
			diff[e.Offset+e.Length]--
			any = true
		}
	}
	if !any {
		return nil
	}
	mask := make([]bool, n+1)
	depth := 0
	for c := 0; c <= n; c++ {
		depth += diff[c]
		mask[c] = depth > 0
	}
	return mask
}

// cutPoint chooses where to end the part that starts at lo so that it is at
// most hi-lo units long; it returns c with lo < c <= hi, the part being
// u[lo:c]. hi < len(u).
func cutPoint(u []uint16, lo, hi int, inPre []bool) int {
	var best [numCutKinds]int // latest cut of each kind, 0 if none
	for c := hi; c > lo; c-- {
		switch u[c] {
		case '\n':
			if best[cutNewline] == 0 {
				best[cutNewline] = c
			}
			if best[cutBlankLine] == 0 && u[c-1] == '\n' && (inPre == nil || !inPre[c]) {
				best[cutBlankLine] = c
			}
		case ' ', '\t':
			if best[cutSpace] == 0 {
				best[cutSpace] = c
			}
		}
	}
	half := lo + (hi-lo)/2
	for _, c := range best {
		if c >= half {
			return c
		}
	}
	for _, c := range best {
		if c > lo {
			return c
		}
	}
	c := hi
	if midPair(u, c) {
		c--
	}
	return c
}
