package retrieval

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

const (
	// maxCodeBytes bounds a whole document number / code term; the parts of
	// a longer code are still indexed.
	maxCodeBytes = 64
	// maxSegments bounds how many joined parts one code may have.
	maxSegments = 8
	// maxDigits bounds a number term; longer digit runs are garbage.
	maxDigits = 32
	// queryCacheLimit bounds the stem cache of a pooled query tokenizer.
	queryCacheLimit = 1 << 14
)

// segment is one maximal run of letters and digits inside a token; segments
// are joined by '-', '/', or by '.'/',' between digits.
type segment struct {
	start, end int // byte offsets into tokenizer.norm
	digits     int // ASCII digits
	letters    int // letters of any script
	cyr        bool
	lat        bool // has ASCII Latin letters
	latOther   bool // has ASCII Latin letters without a Cyrillic lookalike
	grouped    bool // digits were joined across thousands separators
}

// tokenizer turns text into index terms. It owns scratch buffers and a stem
// cache, so it is not safe for concurrent use; Tokens and Search take one
// from a pool, Build gives each worker its own.
type tokenizer struct {
	norm  []byte    // the current token, normalised
	segs  []segment // the current token's segments
	out   []byte    // the term being emitted
	tmp   []byte
	look  []byte            // look-ahead word (month names, scale words)
	cache map[string]string // lower-cased word -> term ("" = dropped)
	limit int
	emit  func([]byte)

	// wordHook, when set, receives every letter run instead of emit
	// receiving its term; Build uses it to map words straight to term ids
	// with one map lookup.
	wordHook func(w []byte, cyr, lat bool)
}

func newTokenizer(cacheLimit int) *tokenizer {
	return &tokenizer{
		norm:  make([]byte, 0, 64),
		segs:  make([]segment, 0, maxSegments),
		out:   make([]byte, 0, 64),
		tmp:   make([]byte, 0, 64),
		look:  make([]byte, 0, 32),
		cache: make(map[string]string, 256),
		limit: cacheLimit,
	}
}

var tokenizerPool = sync.Pool{New: func() any { return newTokenizer(queryCacheLimit) }}

// Tokens returns the normalised, stemmed terms of text in the order the
// index sees them, including the extra terms generated for numbers, dates
// and document numbers (see the package documentation). It is meant for
// tests and debugging; Build and Search do not allocate a string per term.
func Tokens(text string) []string {
	t := tokenizerPool.Get().(*tokenizer)
	var out []string
	t.run(text, func(b []byte) { out = append(out, string(b)) })
	tokenizerPool.Put(t)
	return out
}

// run tokenises s and calls emit for every term. The slice passed to emit is
// only valid during the call.
func (t *tokenizer) run(s string, emit func([]byte)) {
	t.emit = emit
	numberSign := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case isASCIIAlnum(c):
				i = t.scan(s, i, numberSign)
				numberSign = false
				continue
			case c == '%':
				t.emitString("процент")
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isLetterRune(r):
			i = t.scan(s, i, numberSign)
			numberSign = false
			continue
		case r == '№':
			numberSign = true
		case r == '₽':
			t.emitString("рубл")
		}
		i += size
	}
	t.emit = nil
}

// scan reads one token (segments and joiners) starting at s[i], emits its
// terms and returns the position after it.
func (t *tokenizer) scan(s string, i int, numberSign bool) int {
	t.norm = t.norm[:0]
	t.segs = t.segs[:0]
	for {
		sg := segment{start: len(t.norm)}
		i = t.scanSegment(s, i, &sg)
		if len(t.segs) == 0 && sg.letters == 0 && sg.digits <= 3 {
			i = t.groupDigits(s, i, &sg)
		}
		sg.end = len(t.norm)
		t.segs = append(t.segs, sg)
		next, joiner := t.joinerAt(s, i)
		if joiner == 0 {
			break
		}
		t.norm = append(t.norm, joiner)
		i = next
	}
	t.classify(s, i, numberSign)
	return i
}

// scanSegment appends the normalised letters and digits at s[i:] to t.norm.
func (t *tokenizer) scanSegment(s string, i int, sg *segment) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case '0' <= c && c <= '9':
				sg.digits++
			case 'a' <= c && c <= 'z':
				sg.letters++
				sg.lat = true
				sg.latOther = sg.latOther || latinLookalike[c] == 0
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
				sg.letters++
				sg.lat = true
				sg.latOther = sg.latOther || latinLookalike[c] == 0
			default:
				return i
			}
			t.norm = append(t.norm, c)
			i++
			continue
		}
		// Fast path: two-byte Cyrillic letters U+0400..U+045F.
		if (c == 0xD0 || c == 0xD1) && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			if r := rune(c&0x1F)<<6 | rune(s[i+1]&0x3F); r <= 0x45F {
				r = cyrillicLower(r)
				t.norm = append(t.norm, 0xC0|byte(r>>6), 0x80|byte(r&0x3F))
				sg.letters++
				sg.cyr = true
				i += 2
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r >= 0x400 && r <= 0x45F:
			t.norm = utf8.AppendRune(t.norm, cyrillicLower(r))
			sg.letters++
			sg.cyr = true
		case isIgnorable(r):
			// soft hyphen, zero-width characters: invisible inside words
		case r == 0x306: // combining breve: и + ◌̆ = й
			if n := len(t.norm); n >= 2 && t.norm[n-2] == 0xD0 && t.norm[n-1] == 0xB8 {
				t.norm[n-1] = 0xB9
			}
		case unicode.Is(unicode.Mn, r):
			// other combining marks (е + ◌̈ = ё = е after folding)
		case unicode.IsLetter(r):
			t.norm = utf8.AppendRune(t.norm, unicode.ToLower(r))
			sg.letters++
			sg.cyr = sg.cyr || unicode.Is(unicode.Cyrillic, r)
		default:
			return i
		}
		i += size
	}
	return i
}

// groupDigits extends a leading 1–3 digit segment over thousands groups
// separated by a single space, no-break space or thin space:
// «1 250 000» → "1250000". A group must be exactly three digits not
// followed by another letter or digit.
func (t *tokenizer) groupDigits(s string, i int, sg *segment) int {
	for sg.digits < maxDigits && i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isGroupSpace(r) {
			return i
		}
		j := i + size
		if j+3 > len(s) || !isDigit(s[j]) || !isDigit(s[j+1]) || !isDigit(s[j+2]) {
			return i
		}
		if j+3 < len(s) {
			if c := s[j+3]; isASCIIAlnum(c) {
				return i
			} else if c >= utf8.RuneSelf {
				if r, _ := utf8.DecodeRuneInString(s[j+3:]); isLetterRune(r) {
					return i
				}
			}
		}
		t.norm = append(t.norm, s[j:j+3]...)
		sg.digits += 3
		sg.grouped = true
		i = j + 3
	}
	return i
}

// joinerAt reports whether s[i:] starts with a joiner that continues the
// current token, and returns the position after it and the normalised joiner.
func (t *tokenizer) joinerAt(s string, i int) (int, byte) {
	if i >= len(s) || len(t.segs) >= maxSegments {
		return i, 0
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	var joiner byte
	switch r {
	case '-', '_', '‐', '‑', '–':
		joiner = '-'
	case '/', '\\':
		joiner = '/'
	case '.', ',':
		if n := len(t.norm); n == 0 || !isDigit(t.norm[n-1]) {
			return i, 0
		}
		joiner = byte(r)
	default:
		return i, 0
	}
	j := i + size
	if j >= len(s) {
		return i, 0
	}
	if c := s[j]; isDigit(c) {
		return j, joiner
	} else if joiner == '.' || joiner == ',' {
		return i, 0
	} else if c < utf8.RuneSelf {
		if isASCIIAlnum(c) {
			return j, joiner
		}
		return i, 0
	}
	if r, _ := utf8.DecodeRuneInString(s[j:]); isLetterRune(r) {
		return j, joiner
	}
	return i, 0
}

// classify emits the terms of the token in t.norm / t.segs. end is the
// position in s after the token (for look-ahead of textual dates).
func (t *tokenizer) classify(s string, end int, numberSign bool) {
	if n, ok := t.ordinal(); ok && !numberSign {
		// «до 10го», «10-го числа», «в 2-х экземплярах», «5ти дней»: the number, as written
		// in figures elsewhere
		t.emitInteger(n, false)
		return
	}
	if len(t.segs) == 1 {
		sg := t.segs[0]
		w := t.norm[sg.start:sg.end]
		switch {
		case sg.letters == 0:
			if !sg.grouped && sg.digits <= 2 && t.textualDate(s, end, w) {
				return
			}
			t.emitInteger(w, numberSign)
			t.emitScaled(s, end, w, nil)
		case sg.digits == 0:
			t.emitWord(w, sg.cyr, sg.lat)
		default:
			t.emitCode(numberSign)
		}
		return
	}
	allDigits, allLetters := true, true
	for _, sg := range t.segs {
		allDigits = allDigits && sg.letters == 0
		allLetters = allLetters && sg.digits == 0
	}
	switch {
	case allLetters:
		// hyphenated or slashed words: «счёт-фактура», «ИНН/КПП»
		for _, sg := range t.segs {
			t.emitWord(t.norm[sg.start:sg.end], sg.cyr, sg.lat)
		}
		return
	case allDigits:
		if t.emitDate() || t.emitDecimal(s, end, numberSign) {
			return
		}
	}
	t.emitCode(numberSign)
}

// ordinalEndings are the case endings written after a number in figures: «10-го», «5ти», «2х»,
// «1-е», «3-й», «15-ое».
var ordinalEndings = map[string]bool{
	"го": true, "ого": true, "его": true, "е": true, "ое": true, "ее": true, "й": true, "ый": true,
	"ий": true, "ой": true, "я": true, "ая": true, "м": true, "ом": true, "ем": true, "х": true,
	"ых": true, "их": true, "ти": true, "ми": true, "ью": true, "ю": true, "ым": true, "им": true,
}

// ordinal returns the digits of a token that is a number of at most four digits with a case
// ending («10го», «10-го»), and whether it is one.
func (t *tokenizer) ordinal() ([]byte, bool) {
	var digits, ending []byte
	switch len(t.segs) {
	case 1:
		w := t.norm[t.segs[0].start:t.segs[0].end]
		k := 0
		for k < len(w) && isDigit(w[k]) {
			k++
		}
		digits, ending = w[:k], w[k:]
	case 2:
		a, b := t.segs[0], t.segs[1]
		if a.letters != 0 || b.digits != 0 || t.norm[a.end] != '-' {
			return nil, false
		}
		digits, ending = t.norm[a.start:a.end], t.norm[b.start:b.end]
	default:
		return nil, false
	}
	if len(digits) == 0 || len(digits) > 4 || !ordinalEndings[string(ending)] {
		return nil, false
	}
	return digits, true
}

// emitWord emits the term of one lower-cased letter run, via the stem
// caches, or hands the word to wordHook when one is set.
func (t *tokenizer) emitWord(w []byte, cyr, lat bool) {
	if t.wordHook != nil {
		t.wordHook(w, cyr, lat)
		return
	}
	term, ok := t.cache[string(w)]
	if !ok {
		term = sharedTerm(w, cyr, lat)
		if len(t.cache) >= t.limit {
			clear(t.cache)
		}
		t.cache[string(w)] = term
	}
	if term != "" {
		t.emitString(term)
	}
}

// sharedTerm returns the term of a word through the process-wide cache.
func sharedTerm(w []byte, cyr, lat bool) string {
	term, ok := sharedStems.get(w)
	if !ok {
		term = normalizeWord(w, cyr, lat)
		sharedStems.put(string(w), term)
	}
	return term
}

func (t *tokenizer) emitString(s string) {
	t.out = append(t.out[:0], s...)
	t.emit(t.out)
}

func (t *tokenizer) emitBytes(b ...[]byte) {
	t.out = t.out[:0]
	for _, p := range b {
		t.out = append(t.out, p...)
	}
	t.emit(t.out)
}

var numberSignBytes = []byte("№")

// emitInteger emits a digit run. Runs of up to three digits lose leading
// zeros («05» = «5»); longer ones (INN, KPP, BIK, accounts, «000123») are
// kept whole and, when they have leading zeros, also emitted without them.
func (t *tokenizer) emitInteger(w []byte, numberSign bool) {
	if len(w) > maxDigits {
		return
	}
	stripped := trimZeros(w)
	if len(w) <= 3 {
		w = stripped
	}
	t.emitBytes(w)
	if len(stripped) != len(w) {
		t.emitBytes(stripped)
	}
	if numberSign {
		t.emitBytes(numberSignBytes, stripped)
	}
}

// emitDecimal handles digit-only tokens with '.'/',' joiners: decimals
// («1250000,50», «62.01») and numbers with '.'/',' thousands separators
// («1.250.000,00», «1,250,000.00»). It reports false if the shape fits
// neither.
func (t *tokenizer) emitDecimal(s string, end int, numberSign bool) bool {
	segs := t.segs
	n := len(segs)
	joiner := func(k int) byte { return t.norm[segs[k].end] } // joiner after segment k
	for k := 0; k < n-1; k++ {
		if j := joiner(k); j != '.' && j != ',' {
			return false
		}
	}
	seg := func(k int) []byte { return t.norm[segs[k].start:segs[k].end] }
	if n == 2 {
		t.emitAmount(seg(0), seg(1), numberSign)
		t.emitScaled(s, end, seg(0), seg(1))
		return true
	}
	sep := joiner(0)
	if segs[0].digits > 3 || segs[0].grouped {
		return false
	}
	for k := 1; k < n-1; k++ {
		if segs[k].digits != 3 || (k < n-2 && joiner(k) != sep) {
			return false
		}
	}
	t.tmp = t.tmp[:0]
	for k := 0; k < n-1; k++ {
		t.tmp = append(t.tmp, seg(k)...)
	}
	last := seg(n - 1)
	switch {
	case joiner(n-2) == sep && len(last) == 3: // 1.250.000
		t.tmp = append(t.tmp, last...)
		t.emitInteger(t.tmp, numberSign)
	case joiner(n-2) != sep && len(last) <= 2: // 1.250.000,00
		t.emitAmount(t.tmp, last, numberSign)
	default:
		return false
	}
	return true
}

// emitAmount emits integer part ip with fraction fp: a zero fraction is
// dropped; otherwise "ip.fp" and "ip" are both emitted.
func (t *tokenizer) emitAmount(ip, fp []byte, numberSign bool) {
	if len(trimZeros(fp)) == 1 && fp[len(fp)-1] == '0' {
		t.emitInteger(ip, numberSign)
		return
	}
	if len(ip)+1+len(fp) > maxDigits {
		return
	}
	if len(ip) <= 3 {
		ip = trimZeros(ip)
	}
	t.emitBytes(ip, []byte{'.'}, fp)
	t.emitBytes(ip)
}

// emitCode emits a document number or other code: the whole token, its
// prefixes of two or more segments, and those parts that identify something
// on their own (numbers of three or more digits that are not years, mixed
// letter-digit parts such as «св00»).
func (t *tokenizer) emitCode(numberSign bool) {
	t.foldCodeLookalikes()
	n := len(t.segs)
	if len(t.norm) <= maxCodeBytes {
		t.emitBytes(t.norm)
		if numberSign {
			t.emitBytes(numberSignBytes, t.norm)
		}
		if n == 2 && t.segs[0].digits == 0 && t.segs[1].letters == 0 {
			// «КС-2», «ТОРГ-12» as a question types them: «кс2», «торг12»
			t.emitBytes(t.norm[t.segs[0].start:t.segs[0].end], t.norm[t.segs[1].start:t.segs[1].end])
		}
		for k := 1; k < n-1; k++ {
			t.emitBytes(t.norm[:t.segs[k].end])
		}
	}
	for _, sg := range t.segs {
		w := t.norm[sg.start:sg.end]
		switch {
		case sg.letters == 0:
			// Only distinctive numeric parts: «000123», an INN inside
			// «ИНН/КПП», not «15» or the year of «П-15/2025», which would
			// match every chunk with a date (prefixes cover «П-15»).
			if stripped := trimZeros(w); len(stripped) >= 3 && !isYear(w) {
				t.emitInteger(w, false)
			}
		case sg.digits == 0:
			// letter parts («п», «пд», «inv») are series prefixes, not words
		default:
			if n > 1 && len(w) <= maxCodeBytes {
				t.emitBytes(w)
			}
			t.emitRuns(w)
		}
	}
}

// emitRuns emits the letter runs and digit runs of a mixed segment:
// «ндс20» → "ндс", "20"; «2026г» → "2026".
func (t *tokenizer) emitRuns(w []byte) {
	for i := 0; i < len(w); {
		j := i
		if isDigit(w[i]) {
			for j < len(w) && isDigit(w[j]) {
				j++
			}
			if run := w[i:j]; len(trimZeros(run)) > 1 || run[len(run)-1] != '0' {
				t.emitInteger(run, false) // all-zero runs («СВ00») are noise
			}
		} else {
			cyr, lat := false, false
			for j < len(w) && !isDigit(w[j]) {
				if w[j] >= utf8.RuneSelf {
					cyr = true
				} else {
					lat = true
				}
				j++
			}
			t.emitWord(w[i:j], cyr, lat)
		}
		i = j
	}
}

// foldCodeLookalikes rewrites Latin letters of a code to Cyrillic when all of
// them have Cyrillic lookalikes, so «CB00-000123» typed in Latin equals
// «СВ00-000123». Codes with other Latin letters («INV-2025-001») stay Latin.
func (t *tokenizer) foldCodeLookalikes() {
	lat := false
	for _, sg := range t.segs {
		if sg.latOther {
			return
		}
		lat = lat || sg.lat
	}
	if !lat {
		return
	}
	t.tmp = t.tmp[:0]
	for k := range t.segs {
		sg := &t.segs[k]
		start, oldEnd := len(t.tmp), sg.end
		for _, c := range t.norm[sg.start:sg.end] {
			if c < utf8.RuneSelf && latinLookalike[c] != 0 {
				t.tmp = utf8.AppendRune(t.tmp, latinLookalike[c])
			} else {
				t.tmp = append(t.tmp, c)
			}
		}
		sg.start, sg.end = start, len(t.tmp)
		if k < len(t.segs)-1 {
			t.tmp = append(t.tmp, t.norm[oldEnd])
		}
		sg.cyr = sg.cyr || sg.lat
		sg.lat = false
	}
	t.norm, t.tmp = t.tmp, t.norm
}

// isYear reports whether w is a four-digit year 1900..2099.
func isYear(w []byte) bool {
	return len(w) == 4 && (w[0] == '1' && w[1] == '9' || w[0] == '2' && w[1] == '0')
}

func trimZeros(w []byte) []byte {
	for len(w) > 1 && w[0] == '0' {
		w = w[1:]
	}
	return w
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isASCIIAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isLetterRune reports whether a non-ASCII rune starts or continues a word.
func isLetterRune(r rune) bool {
	if r >= 0x400 && r <= 0x45F {
		return true
	}
	return unicode.IsLetter(r)
}

func isIgnorable(r rune) bool {
	switch r {
	case 0xAD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF:
		return true
	}
	return false
}

func isGroupSpace(r rune) bool {
	switch r {
	case ' ', 0xA0, 0x202F, 0x2009, 0x2007:
		return true
	}
	return false
}

// cyrillicLower lower-cases a rune of U+0400..U+045F and folds ё to е.
func cyrillicLower(r rune) rune {
	switch {
	case r == 0x401 || r == 0x451: // Ё ё
		return 'е'
	case r >= 0x410 && r <= 0x42F:
		return r + 0x20
	case r >= 0x400 && r <= 0x40F:
		return r + 0x50
	}
	return r
}

// appendCyrillic appends to dst the letters of U+0400..U+045F that start s[j:], at most limit
// of them, lower-cased with ё as е; it returns dst and the index past them.
func appendCyrillic(dst []byte, s string, j, limit int) ([]byte, int) {
	for n := 0; j < len(s) && n < limit; n++ {
		r, size := utf8.DecodeRuneInString(s[j:])
		if r < 0x400 || r > 0x45F {
			break
		}
		dst = utf8.AppendRune(dst, cyrillicLower(r))
		j += size
	}
	return dst, j
}

// emitScaled looks past a number for a scale word — «тыс.», «тысяч»,
// «млн», «миллиона», «млрд» — and emits the multiplied value, so «3 млн»
// matches «3 000 000,00» and «1,25 млн» matches «1 250 000».
func (t *tokenizer) emitScaled(s string, end int, ip, fp []byte) {
	j := end
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if !isGroupSpace(r) {
			break
		}
		j += size
	}
	t.look, _ = appendCyrillic(t.look[:0], s, j, 8)
	zeros := 0
	switch w := string(t.look); {
	case hasPrefix(w, "тыс"):
		zeros = 3
	case w == "млн" || hasPrefix(w, "миллион"):
		zeros = 6
	case w == "млрд" || hasPrefix(w, "миллиард"):
		zeros = 9
	}
	if zeros == 0 || len(fp) > zeros || len(ip)+zeros > maxDigits {
		return
	}
	t.out = append(t.out[:0], trimZeros(ip)...)
	t.out = append(t.out, fp...)
	for k := len(fp); k < zeros; k++ {
		t.out = append(t.out, '0')
	}
	if w := trimZeros(t.out); len(w) == len(t.out) && w[0] != '0' {
		t.emit(t.out)
	}
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
