package extract

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"

	"github.com/finbot/finbot/ru"
)

// PDF text extraction.
//
// github.com/ledongthuc/pdf reads the file structure: cross-reference tables and streams, object
// streams, the standard security handler (RC4/AES-128 with an empty user password), stream
// filters and simple-font encodings. Its own text APIs are not used: they are unbounded in memory
// and mis-decode ToUnicode ranges. Instead content streams and CMaps are read through the
// inflated-bytes budget and interpreted here (pdfcontent.go), with glyph positions turned into
// lines, paragraphs and headings (larger font sizes).
//
// The library allocates from numbers in the file (/Size, /W, /Index, /Columns, /N, xref
// subsections) and re-reads objects on every access, so the file is prechecked for absurd values
// and every read goes through a ReaderAt that stops on cancellation and on excessive re-reading.

const (
	maxPDFObjects  = 1_000_000 // the cross-reference table costs 32 bytes an object
	maxPDFContent  = 32 << 20  // inflated content of one page
	maxPDFPages    = 10_000
	maxFormDepth   = 8
	maxFormCalls   = 20_000
	maxCMapBytes   = 4 << 20
	maxPDFFonts    = 4096
	maxPDFLineSize = 1 << 20
)

// pdfReaderAt serves the file to the library, patching a header it would reject
// ("%PDF-2.0", "%PDF-1.4%âãÏÓ") and stopping on cancellation or excessive re-reading.
type pdfReaderAt struct {
	data     []byte
	head     []byte
	j        *job
	reads    int64
	maxReads int64
}

var errTooManyReads = errors.New("pdf: excessive re-reading")

func (r *pdfReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := r.j.check(); err != nil {
		return 0, err
	}
	r.reads += int64(len(p))
	if r.reads > r.maxReads {
		if r.j.failure == nil {
			r.j.failure = malformed("pdf", errTooManyReads)
		}
		return 0, r.j.failure
	}
	if off < 0 {
		return 0, errors.New("pdf: negative offset")
	}
	if off >= int64(len(r.data)) {
		return 0, io.EOF
	}
	n := copy(p, r.data[off:])
	if off < int64(len(r.head)) {
		copy(p, r.head[off:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

var (
	reSize     = regexp.MustCompile(`/(?:Size|N|Columns|Count|First)\s*(\d+)`)
	reW        = regexp.MustCompile(`/W\s*\[\s*(\d+)\s+(\d+)\s+(\d+)`)
	reIndex    = regexp.MustCompile(`/Index\s*\[([\d\s]*)\]`)
	reXref     = regexp.MustCompile(`(?:^|[\s>])xref\s`)
	reStream   = regexp.MustCompile(`stream\r?\n`)
	reEncrypt  = regexp.MustCompile(`/Encrypt\s*(?:\d+\s+\d+\s+R|<<)`)
	reImageish = regexp.MustCompile(`/Subtype\s*/(?:Image|Type1C|CIDFontType0C|OpenType)|/Length[123]\b`)
)

// precheckPDF rejects numbers the library would allocate from, and measures the inflated size of
// every Flate stream the library may read on its own (object and xref streams, content), so that
// a compression bomb is refused before parsing.
func precheckPDF(j *job, data []byte) error {
	bad := func(what string) error { return malformed("pdf: "+what, nil) }
	for _, m := range reSize.FindAllSubmatch(data, -1) {
		if v, err := strconv.ParseInt(string(m[1]), 10, 64); err != nil || v > maxPDFObjects {
			return bad("huge " + string(m[0][:min(len(m[0]), 16)]))
		}
	}
	for _, m := range reW.FindAllSubmatch(data, -1) {
		for _, g := range m[1:] {
			if v, err := strconv.ParseInt(string(g), 10, 64); err != nil || v > 1<<20 {
				return bad("huge /W")
			}
		}
	}
	for _, m := range reIndex.FindAllSubmatch(data, -1) {
		f := strings.Fields(string(m[1]))
		for i := 0; i+1 < len(f); i += 2 {
			a, e1 := strconv.ParseInt(f[i], 10, 64)
			c, e2 := strconv.ParseInt(f[i+1], 10, 64)
			if e1 != nil || e2 != nil || a+c > maxPDFObjects {
				return bad("huge /Index")
			}
		}
	}
	for _, loc := range reXref.FindAllIndex(data, 64) {
		if err := checkXrefTable(data[loc[1]:]); err != nil {
			return err
		}
	}
	if err := scanPDFObjects(j, data); err != nil {
		return err
	}
	// Stream bomb precheck; object streams are scanned by the object guard as they inflate.
	var total int64
	for _, loc := range reStream.FindAllIndex(data, -1) {
		if err := j.check(); err != nil {
			return err
		}
		s := loc[0]
		if s >= 2 && string(data[s-2:s]) == "end" || s >= 3 && string(data[s-3:s]) == "end" {
			continue // "endstream"
		}
		dict := data[max(0, s-2048):s]
		if k := bytes.LastIndex(dict, []byte(" obj")); k >= 0 {
			dict = dict[k:]
		}
		objStm := bytes.Contains(dict, []byte("/ObjStm"))
		if objStm && !bytes.Contains(dict, []byte("/Filter")) {
			end := bytes.Index(data[loc[1]:], []byte("endstream"))
			if end < 0 {
				end = len(data) - loc[1]
			}
			g := &pdfGuard{what: "object stream"}
			if err := g.feed(data[loc[1] : loc[1]+end]); err != nil {
				return err
			}
			if err := g.finish(); err != nil {
				return err
			}
			continue
		}
		if !bytes.Contains(dict, []byte("/FlateDecode")) || reImageish.Match(dict) {
			continue
		}
		layers := bytes.Count(dict, []byte("/FlateDecode"))
		var r io.Reader = bytes.NewReader(data[loc[1]:])
		ok := true
		for k := 0; k < layers && k < 4; k++ {
			zr, err := newZlib(r)
			if err != nil {
				ok = false
				break
			}
			r = zr
		}
		if !ok {
			continue // encrypted, or not really Flate
		}
		left := j.l.MaxUncompressed - total
		var w io.Writer = io.Discard
		var g *pdfGuard
		if objStm {
			g = &pdfGuard{what: "object stream"}
			w = guardWriter{g}
		}
		n, _ := io.Copy(w, io.LimitReader(r, left+1))
		if g != nil {
			if err := g.finish(); err != nil {
				return err
			}
		}
		total += n
		if total > j.l.MaxUncompressed {
			return j.bombErr()
		}
	}
	return nil
}

// checkXrefTable validates the subsection headers of a classic xref table.
func checkXrefTable(b []byte) error {
	pos := 0
	tok := func() string {
		for pos < len(b) && isPSSpace(b[pos]) {
			pos++
		}
		s := pos
		for pos < len(b) && !isPSSpace(b[pos]) {
			pos++
		}
		return string(b[s:pos])
	}
	for sections := 0; sections < 1<<16; sections++ {
		t := tok()
		if t == "" || strings.HasPrefix(t, "trailer") {
			return nil
		}
		start, e1 := strconv.ParseInt(t, 10, 64)
		count, e2 := strconv.ParseInt(tok(), 10, 64)
		if e1 != nil || e2 != nil {
			return nil // the library will report it
		}
		if start < 0 || count < 0 || start+count > maxPDFObjects {
			return malformed("pdf: huge xref subsection", nil)
		}
		for i := int64(0); i < 3*count; i++ {
			if tok() == "" {
				return nil
			}
		}
	}
	return nil
}

func validHeader(h []byte) bool {
	return len(h) >= 9 && bytes.HasPrefix(h, []byte("%PDF-1.")) && h[7] >= '0' && h[7] <= '7' && (h[8] == '\r' || h[8] == '\n')
}

type pdfExtractor struct {
	j       *job
	r       *pdf.Reader
	fonts   map[string]*pdfFont // by font dictionary text
	forms   int
	pages   []*pdfPage
	cur     *pdfPage
	failed  int // pages whose content could not be read
	nodes   int
	seen    map[uint64]bool // page tree nodes visited
	encrypt bool
	// Operators met in content streams: known ones and other keywords. Mostly unknown ones mean
	// garbage, typically content that the library decrypted wrongly.
	opsKnown, opsUnknown int
	runes                int  // bytes of text emitted (bounded by the text limit)
	keepRuns             bool // every string shown is kept with its position (Layout)
}

type pdfLine struct {
	text  strings.Builder
	size  float64
	para  bool // a larger vertical gap (or a jump) before this line
	acr   float64
	end   float64
	ux    float64
	uy    float64
	runes int
}

type pdfPage struct {
	lines []*pdfLine
	runs  []Run // with keepRuns
}

func extractPDF(j *job, data []byte, b *docBuilder) (err error) {
	e, title, err := readPDF(j, data, false)
	if err != nil {
		return err
	}
	b.title = title
	defer func() {
		if p := recover(); p != nil {
			if f := j.failure; f != nil {
				err = f
			} else {
				err = malformed(fmt.Sprintf("pdf: panic: %v", p), nil)
			}
		}
	}()
	return e.blocks(b)
}

// readPDF interprets every page of a PDF: the lines of text, and with keepRuns every string
// shown with its position (Layout). A PDF whose pages hold (almost) no text is ErrScanned.
func readPDF(j *job, data []byte, keepRuns bool) (e *pdfExtractor, title string, err error) {
	if i := bytes.Index(data[:min(len(data), 1024)], []byte("%PDF-")); i > 0 {
		data = data[i:]
	}
	k := bytes.LastIndex(data, []byte("%%EOF"))
	if k < 0 {
		return nil, "", malformed("pdf: no %%EOF (truncated)", nil)
	}
	data = data[:k+5]
	if err := precheckPDF(j, data); err != nil {
		return nil, "", err
	}
	ra := &pdfReaderAt{data: data, j: j, maxReads: 1<<30 + 64*int64(len(data))}
	if !validHeader(data) {
		ra.head = []byte("%PDF-1.7\n")
	}
	e = &pdfExtractor{j: j, fonts: map[string]*pdfFont{}, seen: map[uint64]bool{}, encrypt: reEncrypt.Match(data), keepRuns: keepRuns}
	defer func() {
		if p := recover(); p != nil {
			if f := j.failure; f != nil {
				err = f
			} else {
				err = malformed(fmt.Sprintf("pdf: panic: %v", p), nil)
			}
		}
	}()
	e.r, err = pdf.NewReader(ra, int64(len(data)))
	if err != nil {
		if f := j.failure; f != nil {
			return nil, "", f
		}
		if errors.Is(err, pdf.ErrInvalidPassword) || e.encrypt || strings.Contains(err.Error(), "encrypt") {
			return nil, "", newErr(ErrEncrypted, "", "pdf", err)
		}
		return nil, "", malformed("pdf", err)
	}
	if e.r.Trailer().Key("Encrypt").Kind() != pdf.Null {
		e.encrypt = true
	}
	title = pdfText(e.r.Trailer().Key("Info").Key("Title").RawString(), e.encrypt)
	var pages []pdf.Value
	if err := e.collect(e.r.Trailer().Key("Root").Key("Pages"), 0, &pages); err != nil {
		return nil, "", err
	}
	if len(pages) == 0 {
		if f := j.failure; f != nil {
			return nil, "", f
		}
		if e.encrypt {
			return nil, "", newErr(ErrEncrypted, "", "pdf without readable pages", nil)
		}
		return nil, "", malformed("pdf without pages", nil)
	}
	for _, pg := range pages {
		if err := e.page(pg); err != nil {
			return nil, "", err
		}
	}
	if e.failed == len(pages) {
		if e.encrypt {
			return nil, "", newErr(ErrEncrypted, "", "pdf content cannot be decrypted", nil)
		}
		return nil, "", malformed("pdf: no page content could be read", nil)
	}
	alnum := 0
	for _, p := range e.pages {
		for _, l := range p.lines {
			for _, r := range l.text.String() {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					alnum++
				}
			}
		}
	}
	if alnum < 16*len(pages) {
		if e.encrypt && (e.failed > 0 || e.opsUnknown > e.opsKnown) {
			return nil, "", newErr(ErrEncrypted, "", "pdf content cannot be decrypted", nil)
		}
		return nil, "", newErr(ErrScanned, "", fmt.Sprintf("%d letters and digits on %d pages", alnum, len(pages)), nil)
	}
	return e, title, nil
}

// pdfText decodes a text string (UTF-16BE or UTF-8 with BOM, else PDFDocEncoding, read as
// Latin-1). The library leaves the PKCS#7 padding on AES-decrypted strings; it is removed here.
func pdfText(raw string, encrypted bool) string {
	if n := len(raw); encrypted && n > 0 && n%16 == 0 {
		if p := int(raw[n-1]); p >= 1 && p <= 16 && strings.Count(raw[n-p:], raw[n-1:]) == p {
			raw = raw[:n-p]
		}
	}
	switch {
	case strings.HasPrefix(raw, "\xFE\xFF"):
		return string(utf16.Decode(utf16BE([]byte(raw[2:]))))
	case strings.HasPrefix(raw, "\xEF\xBB\xBF"):
		return raw[3:]
	}
	r := make([]rune, len(raw))
	for i := 0; i < len(raw); i++ {
		r[i] = rune(raw[i])
	}
	return string(r)
}

// collect walks the page tree depth-first (bounded depth and node count: trees may be cyclic).
func (e *pdfExtractor) collect(node pdf.Value, depth int, out *[]pdf.Value) error {
	if err := e.j.check(); err != nil {
		return err
	}
	if e.nodes++; e.nodes > 2*maxPDFPages+1000 || depth > 64 || node.Kind() != pdf.Dict {
		return nil
	}
	kids := node.Key("Kids")
	if kids.Kind() == pdf.Array && node.Key("Type").Name() != "Page" {
		// An intermediate node is identified by its dictionary text (its kids' references):
		// visiting it again means a cycle or a shared subtree, both invalid.
		h := fnv.New64a()
		h.Write([]byte(node.String()))
		if e.seen[h.Sum64()] {
			return nil
		}
		e.seen[h.Sum64()] = true
		for i := 0; i < kids.Len(); i++ {
			if err := e.collect(kids.Index(i), depth+1, out); err != nil {
				return err
			}
		}
		return nil
	}
	if len(*out) >= maxPDFPages {
		return newErr(ErrTooLarge,
			fmt.Sprintf("В документе больше %s, это слишком много. Разделите его на части.", ru.Count(maxPDFPages, "страницы", "страниц", "страниц")),
			"too many pages", nil)
	}
	*out = append(*out, node)
	return nil
}

func inherited(v pdf.Value, key string) pdf.Value {
	for i := 0; i < 32 && v.Kind() == pdf.Dict; i++ {
		if r := v.Key(key); r.Kind() != pdf.Null {
			return r
		}
		v = v.Key("Parent")
	}
	return pdf.Value{}
}

// readStream reads a stream through the budget (and a per-stream limit, <0 = none).
func (e *pdfExtractor) readStream(v pdf.Value, limit int64) (data []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			data, err = nil, fmt.Errorf("pdf stream: %v", p)
		}
		if f := e.j.failure; f != nil {
			data, err = nil, f
		}
	}()
	if v.Kind() != pdf.Stream {
		return nil, errors.New("pdf: not a stream")
	}
	rc := v.Reader()
	defer rc.Close()
	data, err = io.ReadAll(&budgetReader{j: e.j, r: rc, limit: limit})
	if err != nil && len(data) > 0 && !errors.Is(err, errStreamTooBig) {
		err = nil // keep what a damaged stream yielded
	}
	return data, err
}

func (e *pdfExtractor) page(pg pdf.Value) (err error) {
	e.cur = &pdfPage{}
	e.pages = append(e.pages, e.cur)
	defer func() {
		if p := recover(); p != nil {
			e.failed++
		}
		if f := e.j.failure; f != nil {
			err = f
		}
	}()
	contents := pg.Key("Contents")
	var streams []pdf.Value
	switch contents.Kind() {
	case pdf.Stream:
		streams = append(streams, contents)
	case pdf.Array:
		for i := 0; i < contents.Len() && i < 4096; i++ {
			streams = append(streams, contents.Index(i))
		}
	}
	var content []byte
	read := 0
	for _, s := range streams {
		d, err := e.readStream(s, int64(maxPDFContent-len(content)))
		if f := e.j.failure; f != nil {
			return f
		}
		if errors.Is(err, errStreamTooBig) {
			return newErr(ErrTooComplex, "", fmt.Sprintf("pdf page %d: content over %d bytes", len(e.pages), maxPDFContent), nil)
		}
		if err != nil {
			continue
		}
		read++
		if len(streams) == 1 {
			content = d
			break
		}
		content = append(content, d...)
		content = append(content, '\n')
	}
	if read == 0 && len(streams) > 0 {
		e.failed++
		return nil
	}
	in := &interp{e: e, res: inherited(pg, "Resources"), gs: gstate{ctm: identity, th: 1}}
	return in.run(content)
}

// ---- fonts ----

type pdfFont struct {
	twoByte bool
	toUni   *cmap
	table   [256]string // simple fonts: code → text from the font encoding
	first   int
	widths  []float64
	missing float64
	cidW    map[uint32]float64
	dw      float64
	wscale  float64 // glyph space → text space (1/1000, or Type3 FontMatrix)
}

var defaultFont = func() *pdfFont {
	f := &pdfFont{wscale: 0.001, missing: 500}
	for c := 32; c < 127; c++ {
		f.table[c] = string(rune(c))
	}
	return f
}()

func (e *pdfExtractor) font(fv pdf.Value) *pdfFont {
	if fv.Kind() != pdf.Dict {
		return defaultFont
	}
	h := fnv.New64a()
	h.Write([]byte(fv.String()))
	key := strconv.FormatUint(h.Sum64(), 36)
	if f, ok := e.fonts[key]; ok {
		return f
	}
	f := e.loadFont(fv)
	if len(e.fonts) < maxPDFFonts {
		e.fonts[key] = f
	}
	return f
}

func (e *pdfExtractor) loadFont(fv pdf.Value) (f *pdfFont) {
	f = &pdfFont{wscale: 0.001, dw: 1000}
	defer func() {
		if p := recover(); p != nil {
			f = defaultFont
		}
	}()
	tu := fv.Key("ToUnicode")
	if tu.Kind() == pdf.Stream {
		if data, err := e.readStream(tu, maxCMapBytes); err == nil {
			f.toUni = parseCMap(data)
		}
	}
	if fv.Key("Subtype").Name() == "Type0" {
		f.twoByte = true
		desc := fv.Key("DescendantFonts").Index(0)
		if dw := desc.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
			f.dw = dw.Float64()
		}
		f.cidW = map[uint32]float64{}
		w := desc.Key("W")
		for i, entries := 0, 0; i < w.Len() && entries < 1<<16; {
			c := w.Index(i)
			if i+1 < w.Len() && w.Index(i+1).Kind() == pdf.Array {
				arr := w.Index(i + 1)
				for k := 0; k < arr.Len() && entries < 1<<16; k++ {
					f.cidW[uint32(c.Int64())+uint32(k)] = arr.Index(k).Float64()
					entries++
				}
				i += 2
				continue
			}
			if i+2 < w.Len() {
				lo, hi, v := c.Int64(), w.Index(i+1).Int64(), w.Index(i+2).Float64()
				for cid := lo; cid <= hi && cid-lo < 1<<16 && entries < 1<<16; cid++ {
					f.cidW[uint32(cid)] = v
					entries++
				}
			}
			i += 3
		}
		return f
	}
	enc := fv.Key("Encoding")
	if !(tu.Kind() == pdf.Stream && (enc.Kind() == pdf.Null || enc.Kind() == pdf.Name && strings.HasPrefix(enc.Name(), "Identity"))) {
		pf := pdf.Font{V: fv}
		te := pf.Encoder()
		for c := 0; c < 256; c++ {
			if s := te.Decode(string([]byte{byte(c)})); utf8.ValidString(s) {
				f.table[c] = s
			}
		}
	}
	f.first = int(fv.Key("FirstChar").Int64())
	ws := fv.Key("Widths")
	for i := 0; i < ws.Len() && i < 256; i++ {
		f.widths = append(f.widths, ws.Index(i).Float64())
	}
	f.missing = fv.Key("FontDescriptor").Key("MissingWidth").Float64()
	if len(f.widths) == 0 && f.missing == 0 {
		f.missing = 500
	}
	if fv.Key("Subtype").Name() == "Type3" {
		if m := fv.Key("FontMatrix"); m.Len() >= 1 && m.Index(0).Float64() != 0 {
			f.wscale = math.Abs(m.Index(0).Float64())
			if f.wscale > 1 {
				f.wscale = 0.001
			}
		}
	}
	return f
}

// decode returns the text of a shown string, its width in glyph units, and its counts of codes
// and single-byte spaces (for character and word spacing).
func (f *pdfFont) decode(raw []byte) (text string, width float64, codes, spaces int) {
	step := 1
	if f.twoByte {
		step = 2
	}
	var sb strings.Builder
	for i := 0; i+step <= len(raw); i += step {
		code := uint32(raw[i])
		if step == 2 {
			code = code<<8 | uint32(raw[i+1])
		}
		codes++
		s, ok := "", false
		if f.toUni != nil {
			s, ok = f.toUni.lookup(code, step)
		}
		if !ok && step == 1 {
			s = f.table[code]
		}
		sb.WriteString(s)
		if step == 1 {
			if code == 32 {
				spaces++
			}
			if k := int(code) - f.first; k >= 0 && k < len(f.widths) {
				width += f.widths[k]
			} else {
				width += f.missing
			}
		} else if w, ok := f.cidW[code]; ok {
			width += w
		} else {
			width += f.dw
		}
	}
	return sb.String(), width, codes, spaces
}

// ---- text layout ----

// emit places decoded text whose baseline runs from (x0,y0) to (x1,y1) in device space.
func (e *pdfExtractor) emit(text string, x0, y0, x1, y1, size, ux, uy float64) {
	if e.cur == nil {
		return
	}
	along0 := x0*ux + y0*uy
	along1 := x1*ux + y1*uy
	across := -x0*uy + y0*ux
	lines := &e.cur.lines
	var l *pdfLine
	if n := len(*lines); n > 0 {
		l = (*lines)[n-1]
	}
	if text != "" {
		e.runes += len(text)
		if e.runes > 4*(2*e.j.l.MaxChars+65536) && e.j.failure == nil {
			e.j.failure = e.j.tooManyChars() // seen by the interpreter's next check
		}
	}
	if e.keepRuns && text != "" && ux > 0.99 && math.Abs(uy) < 0.01 {
		// Horizontal text only: a table's cells are; a rotated stamp or margin note is not.
		e.cur.runs = append(e.cur.runs, Run{X0: x0, X1: x1, Y: y0, Size: size, Text: text})
	}
	if text == "" {
		if l != nil && math.Abs(across-l.acr) < 0.5*math.Max(size, l.size) {
			l.end = along1
		}
		return
	}
	if l == nil || l.ux*ux+l.uy*uy < 0.9 || math.Abs(across-l.acr) > 0.5*math.Max(size, l.size) || l.runes > maxPDFLineSize {
		nl := &pdfLine{size: size, acr: across, end: along1, ux: ux, uy: uy}
		if l != nil {
			gap := l.acr - across
			nl.para = gap > 2.0*math.Max(size, l.size) || gap < -math.Max(size, l.size)
		}
		nl.text.WriteString(text)
		nl.runes = utf8.RuneCountInString(text)
		*lines = append(*lines, nl)
		return
	}
	gap := along0 - l.end
	if gap > 0.2*size || gap < -3*size {
		last, _ := utf8.DecodeLastRuneInString(l.text.String())
		first, _ := utf8.DecodeRuneInString(text)
		if !unicode.IsSpace(last) && !unicode.IsSpace(first) {
			l.text.WriteByte(' ')
		}
	}
	l.text.WriteString(text)
	l.runes += utf8.RuneCountInString(text)
	l.end = along1
	if size > l.size {
		l.size = size
	}
}

// blocks turns lines into paragraphs and headings: lines set notably larger than the body text
// are headings (levels by size), and typical title lines are recognised by guessHeading.
func (e *pdfExtractor) blocks(b *docBuilder) error {
	hist := map[float64]int{}
	for _, p := range e.pages {
		for _, l := range p.lines {
			hist[math.Round(l.size*2)/2] += l.runes
		}
	}
	body, best := 0.0, -1
	for s, n := range hist {
		if n > best || n == best && s < body {
			body, best = s, n
		}
	}
	isBig := func(l *pdfLine) bool {
		t := strings.TrimSpace(l.text.String())
		letters, _ := letterStats(t)
		return body > 0 && l.size >= body*1.15 && l.runes <= 150 && letters >= 2
	}
	var sizes []float64
	seen := map[float64]bool{}
	for _, p := range e.pages {
		for _, l := range p.lines {
			if s := math.Round(l.size*2) / 2; isBig(l) && !seen[s] {
				seen[s] = true
				sizes = append(sizes, s)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(sizes)))
	levelOf := func(l *pdfLine) int {
		if isBig(l) {
			s := math.Round(l.size*2) / 2
			for i, v := range sizes {
				if v == s {
					return min(i+1, 3)
				}
			}
		}
		if l.size >= body*0.95 {
			return guessHeading(strings.TrimSpace(l.text.String()))
		}
		return 0
	}
	for _, p := range e.pages {
		b.newPage()
		para := paragraph{b: b}
		var head strings.Builder
		headLevel := 0
		flushHead := func() error {
			if headLevel == 0 {
				return nil
			}
			err := b.add(head.String(), headLevel, true)
			head.Reset()
			headLevel = 0
			return err
		}
		for _, l := range p.lines {
			t := l.text.String()
			if strings.TrimSpace(t) == "" {
				continue
			}
			if lv := levelOf(l); lv > 0 {
				if err := para.flush(); err != nil {
					return err
				}
				if lv == headLevel && !l.para && isBig(l) {
					head.WriteByte(' ')
					head.WriteString(t)
					continue
				}
				if err := flushHead(); err != nil {
					return err
				}
				head.WriteString(t)
				headLevel = lv
				continue
			}
			if err := flushHead(); err != nil {
				return err
			}
			if l.para {
				if err := para.flush(); err != nil {
					return err
				}
				para.brk = true
			}
			para.lines = append(para.lines, t)
		}
		if err := flushHead(); err != nil {
			return err
		}
		if err := para.flush(); err != nil {
			return err
		}
	}
	return nil
}

// guardWriter feeds written bytes to a pdfGuard (io.Copy stops at its error).
type guardWriter struct{ g *pdfGuard }

func (w guardWriter) Write(p []byte) (int, error) {
	if err := w.g.feed(p); err != nil {
		return 0, err
	}
	return len(p), nil
}
