package extract

import (
	"compress/zlib"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/ledongthuc/pdf"
)

// This file has the small PostScript-like lexer used for PDF content streams and ToUnicode
// CMaps, the CMap parser, and the content-stream interpreter that turns text operators into
// positioned text. It works on bytes that were read through the inflated-bytes budget, and every
// structure it builds is capped.

type psKind uint8

const (
	psNone psKind = iota
	psNum
	psStr
	psName
	psArr
	psKw
	psDict
	psBool
	psNull
)

type psObj struct {
	kind psKind
	num  float64
	s    []byte
	arr  []psObj
}

const (
	maxPSDepth    = 32
	maxPSArray    = 1 << 16
	maxPSOperands = 64
)

type psLexer struct {
	b   []byte
	pos int
}

func isPSSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isPSDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// next returns the next object or keyword; ok is false at the end.
func (l *psLexer) next(depth int) (o psObj, ok bool) {
	b := l.b
	for l.pos < len(b) {
		c := b[l.pos]
		switch {
		case isPSSpace(c):
			l.pos++
			continue
		case c == '%':
			for l.pos < len(b) && b[l.pos] != '\n' && b[l.pos] != '\r' {
				l.pos++
			}
			continue
		}
		break
	}
	if l.pos >= len(b) {
		return psObj{}, false
	}
	c := b[l.pos]
	switch c {
	case '(':
		l.pos++
		return psObj{kind: psStr, s: l.literal()}, true
	case '<':
		if l.pos+1 < len(b) && b[l.pos+1] == '<' {
			l.pos += 2
			if depth >= maxPSDepth {
				return psObj{kind: psNull}, true
			}
			l.skipUntil(">>", depth+1)
			return psObj{kind: psDict}, true
		}
		l.pos++
		return psObj{kind: psStr, s: l.hex()}, true
	case '>':
		if l.pos+1 < len(b) && b[l.pos+1] == '>' {
			l.pos += 2
			return psObj{kind: psKw, s: []byte(">>")}, true
		}
		l.pos++
		return psObj{kind: psKw, s: []byte(">")}, true
	case '[':
		l.pos++
		if depth >= maxPSDepth {
			return psObj{kind: psNull}, true
		}
		var arr []psObj
		for {
			e, ok := l.next(depth + 1)
			if !ok {
				break
			}
			if e.kind == psKw && len(e.s) == 1 && e.s[0] == ']' {
				break
			}
			if len(arr) < maxPSArray {
				arr = append(arr, e)
			}
		}
		return psObj{kind: psArr, arr: arr}, true
	case ']', ')', '{', '}':
		l.pos++
		return psObj{kind: psKw, s: b[l.pos-1 : l.pos]}, true
	case '/':
		l.pos++
		s := l.pos
		for l.pos < len(b) && !isPSSpace(b[l.pos]) && !isPSDelim(b[l.pos]) {
			l.pos++
		}
		return psObj{kind: psName, s: b[s:l.pos]}, true
	}
	s := l.pos
	for l.pos < len(b) && !isPSSpace(b[l.pos]) && !isPSDelim(b[l.pos]) {
		l.pos++
	}
	tok := b[s:l.pos]
	if c == '+' || c == '-' || c == '.' || c >= '0' && c <= '9' {
		if v, err := strconv.ParseFloat(string(tok), 64); err == nil {
			return psObj{kind: psNum, num: v}, true
		}
		if c != '.' {
			return psObj{kind: psNum}, true // malformed number such as "--5"
		}
	}
	switch string(tok) {
	case "true", "false":
		return psObj{kind: psBool}, true
	case "null":
		return psObj{kind: psNull}, true
	}
	return psObj{kind: psKw, s: tok}, true
}

// skipUntil skips objects up to the keyword end (for dictionaries, whose content is not needed).
func (l *psLexer) skipUntil(end string, depth int) {
	for {
		o, ok := l.next(depth)
		if !ok || o.kind == psKw && string(o.s) == end {
			return
		}
	}
}

func (l *psLexer) literal() []byte {
	b := l.b
	var out []byte
	nest := 1
	for l.pos < len(b) {
		c := b[l.pos]
		l.pos++
		switch c {
		case '(':
			nest++
		case ')':
			if nest--; nest == 0 {
				return out
			}
		case '\\':
			if l.pos >= len(b) {
				return out
			}
			c = b[l.pos]
			l.pos++
			switch c {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if l.pos < len(b) && b[l.pos] == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if c >= '0' && c <= '7' {
					v := int(c - '0')
					for k := 0; k < 2 && l.pos < len(b) && b[l.pos] >= '0' && b[l.pos] <= '7'; k++ {
						v = v*8 + int(b[l.pos]-'0')
						l.pos++
					}
					c = byte(v)
				}
			}
		}
		out = append(out, c)
	}
	return out
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func (l *psLexer) hex() []byte {
	b := l.b
	var out []byte
	var cur byte
	half := false
	for l.pos < len(b) {
		c := b[l.pos]
		l.pos++
		if c == '>' {
			break
		}
		v, ok := unhex(c)
		if !ok {
			continue
		}
		if half {
			out = append(out, cur<<4|v)
			half = false
		} else {
			cur, half = v, true
		}
	}
	if half {
		out = append(out, cur<<4)
	}
	return out
}

// skipInlineImage moves past the data of an inline image (after BI … ID) to just after "EI".
func (l *psLexer) skipInlineImage() {
	b := l.b
	for l.pos < len(b) {
		o, ok := l.next(0)
		if !ok {
			return
		}
		if o.kind == psKw && string(o.s) == "ID" {
			break
		}
	}
	l.pos++ // the single white-space byte after ID
	for i := l.pos; i+1 < len(b); i++ {
		if b[i] == 'E' && b[i+1] == 'I' && (i == 0 || isPSSpace(b[i-1])) && (i+2 >= len(b) || isPSSpace(b[i+2]) || isPSDelim(b[i+2])) {
			l.pos = i + 2
			return
		}
	}
	l.pos = len(b)
}

// ---- ToUnicode CMaps ----

const maxCMapEntries = 1 << 18

type cmapRange struct {
	lo, hi uint32
	n      int
	dst    []uint16 // base destination (UTF-16 units), incremented in its last unit
	arr    []string // or one destination per code
}

type cmap struct {
	single map[uint32]string // key: code | len<<24
	ranges []cmapRange       // sorted by lo
}

func codeOf(b []byte) uint32 {
	var v uint32
	for _, c := range b {
		v = v<<8 | uint32(c)
	}
	return v
}

func utf16BE(b []byte) []uint16 {
	u := make([]uint16, (len(b)+1)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) << 8
		if 2*i+1 < len(b) {
			u[i] |= uint16(b[2*i+1])
		}
	}
	return u
}

func dstString(b []byte) string {
	if len(b) == 1 {
		return string(rune(b[0]))
	}
	return string(utf16.Decode(utf16BE(b)))
}

// parseCMap reads the bfchar and bfrange sections of a ToUnicode CMap.
func parseCMap(data []byte) *cmap {
	m := &cmap{single: map[uint32]string{}}
	l := psLexer{b: data}
	var ops []psObj
	entries := 0
	for entries < maxCMapEntries {
		o, ok := l.next(0)
		if !ok {
			break
		}
		if o.kind != psKw {
			if len(ops) < 3*maxCMapEntries {
				ops = append(ops, o)
			}
			continue
		}
		switch string(o.s) {
		case "endbfchar":
			for i := 0; i+1 < len(ops); i += 2 {
				src, dst := ops[i], ops[i+1]
				if src.kind != psStr || len(src.s) == 0 || len(src.s) > 4 || dst.kind != psStr {
					continue
				}
				m.single[codeOf(src.s)|uint32(len(src.s))<<24] = dstString(dst.s)
				entries++
			}
		case "endbfrange":
			for i := 0; i+2 < len(ops); i += 3 {
				lo, hi, dst := ops[i], ops[i+1], ops[i+2]
				if lo.kind != psStr || hi.kind != psStr || len(lo.s) == 0 || len(lo.s) > 4 || len(lo.s) != len(hi.s) {
					continue
				}
				r := cmapRange{lo: codeOf(lo.s), hi: codeOf(hi.s), n: len(lo.s)}
				if r.lo > r.hi {
					continue
				}
				switch dst.kind {
				case psStr:
					if len(dst.s) == 0 {
						continue
					}
					r.dst = utf16BE(dst.s)
				case psArr:
					for _, e := range dst.arr {
						if e.kind == psStr {
							r.arr = append(r.arr, dstString(e.s))
						} else {
							r.arr = append(r.arr, "")
						}
					}
				default:
					continue
				}
				m.ranges = append(m.ranges, r)
				entries++
			}
		}
		ops = ops[:0]
	}
	sort.SliceStable(m.ranges, func(a, b int) bool { return m.ranges[a].lo < m.ranges[b].lo })
	return m
}

func (m *cmap) lookup(code uint32, n int) (string, bool) {
	if s, ok := m.single[code|uint32(n)<<24]; ok {
		return s, true
	}
	i := sort.Search(len(m.ranges), func(i int) bool { return m.ranges[i].lo > code })
	for k := i - 1; k >= 0 && k >= i-8; k-- {
		r := &m.ranges[k]
		if r.n != n || code > r.hi {
			continue
		}
		off := code - r.lo
		if r.arr != nil {
			if int(off) < len(r.arr) {
				return r.arr[off], true
			}
			return "", false
		}
		u := append([]uint16(nil), r.dst...)
		u[len(u)-1] += uint16(off)
		return string(utf16.Decode(u)), true
	}
	return "", false
}

// ---- content-stream interpreter ----

type mat [6]float64 // a b c d e f

var identity = mat{1, 0, 0, 1, 0, 0}

// mul returns m followed by n.
func (m mat) mul(n mat) mat {
	return mat{
		m[0]*n[0] + m[1]*n[2],
		m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2],
		m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4],
		m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func translate(x, y float64) mat { return mat{1, 0, 0, 1, x, y} }

type gstate struct {
	ctm                    mat
	font                   *pdfFont
	fs, tc, tw, th, tl, ts float64
}

type interp struct {
	e     *pdfExtractor
	res   pdf.Value
	fonts map[string]*pdfFont
	gs    gstate
	stack []gstate
	tm    mat
	tlm   mat
	depth int
}

func nums(ops []psObj, n int) ([]float64, bool) {
	if len(ops) < n {
		return nil, false
	}
	v := make([]float64, n)
	for i, o := range ops[len(ops)-n:] {
		if o.kind != psNum {
			return nil, false
		}
		v[i] = o.num
	}
	return v, true
}

func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e9 {
			return false
		}
	}
	return true
}

func (in *interp) run(content []byte) error {
	l := psLexer{b: content}
	var ops []psObj
	n := 0
	for {
		o, ok := l.next(0)
		if !ok {
			return nil
		}
		if n++; n%4096 == 0 {
			if err := in.e.j.check(); err != nil {
				return err
			}
		}
		if o.kind != psKw {
			if len(ops) >= maxPSOperands {
				copy(ops, ops[1:])
				ops = ops[:len(ops)-1]
			}
			ops = append(ops, o)
			continue
		}
		if string(o.s) == "BI" {
			l.skipInlineImage()
		} else if err := in.exec(string(o.s), ops); err != nil {
			return err
		}
		ops = ops[:0]
	}
}

// pdfOperators are the content-stream operators of PDF 32000-1 (used to tell a content stream
// from garbage, e.g. a stream decrypted with a wrong key).
var pdfOperators = map[string]bool{}

func init() {
	for _, op := range strings.Fields(`b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX
		f F f* G g gs h i ID j J K k l m M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ
		TL Tm Tr Ts Tw Tz v w W W* y ' "`) {
		pdfOperators[op] = true
	}
}

func (in *interp) exec(op string, ops []psObj) error {
	gs := &in.gs
	if pdfOperators[op] {
		in.e.opsKnown++
	} else {
		in.e.opsUnknown++
	}
	switch op {
	case "q":
		if len(in.stack) < 256 {
			in.stack = append(in.stack, *gs)
		}
	case "Q":
		if k := len(in.stack); k > 0 {
			*gs = in.stack[k-1]
			in.stack = in.stack[:k-1]
		}
	case "cm":
		if v, ok := nums(ops, 6); ok && finite(v...) {
			gs.ctm = mat{v[0], v[1], v[2], v[3], v[4], v[5]}.mul(gs.ctm)
		}
	case "BT":
		in.tm, in.tlm = identity, identity
	case "Tf":
		if len(ops) >= 2 && ops[len(ops)-2].kind == psName && ops[len(ops)-1].kind == psNum {
			gs.font = in.font(string(ops[len(ops)-2].s))
			gs.fs = ops[len(ops)-1].num
		}
	case "Tc", "Tw", "Tz", "TL", "Ts":
		if v, ok := nums(ops, 1); ok && finite(v...) {
			switch op {
			case "Tc":
				gs.tc = v[0]
			case "Tw":
				gs.tw = v[0]
			case "Tz":
				gs.th = v[0] / 100
			case "TL":
				gs.tl = v[0]
			case "Ts":
				gs.ts = v[0]
			}
		}
	case "Td", "TD":
		if v, ok := nums(ops, 2); ok && finite(v...) {
			if op == "TD" {
				gs.tl = -v[1]
			}
			in.tlm = translate(v[0], v[1]).mul(in.tlm)
			in.tm = in.tlm
		}
	case "Tm":
		if v, ok := nums(ops, 6); ok && finite(v...) {
			in.tlm = mat{v[0], v[1], v[2], v[3], v[4], v[5]}
			in.tm = in.tlm
		}
	case "T*":
		in.nextLine()
	case "Tj":
		if len(ops) > 0 && ops[len(ops)-1].kind == psStr {
			in.show(ops[len(ops)-1].s)
		}
	case "'":
		in.nextLine()
		if len(ops) > 0 && ops[len(ops)-1].kind == psStr {
			in.show(ops[len(ops)-1].s)
		}
	case "\"":
		if len(ops) >= 3 && ops[len(ops)-1].kind == psStr {
			if v, ok := nums(ops[:len(ops)-1], 2); ok && finite(v...) {
				gs.tw, gs.tc = v[0], v[1]
			}
			in.nextLine()
			in.show(ops[len(ops)-1].s)
		}
	case "TJ":
		if len(ops) > 0 && ops[len(ops)-1].kind == psArr {
			for _, el := range ops[len(ops)-1].arr {
				switch el.kind {
				case psStr:
					in.show(el.s)
				case psNum:
					if finite(el.num) {
						in.tm = translate(-el.num/1000*gs.fs*gs.th, 0).mul(in.tm)
					}
				}
			}
		}
	case "Do":
		if len(ops) > 0 && ops[len(ops)-1].kind == psName {
			return in.form(string(ops[len(ops)-1].s))
		}
	}
	return nil
}

func (in *interp) nextLine() {
	in.tlm = translate(0, -in.gs.tl).mul(in.tlm)
	in.tm = in.tlm
}

func (in *interp) font(name string) *pdfFont {
	if f, ok := in.fonts[name]; ok {
		return f
	}
	f := in.e.font(in.res.Key("Font").Key(name))
	if in.fonts == nil {
		in.fonts = map[string]*pdfFont{}
	}
	if len(in.fonts) < maxPDFFonts {
		in.fonts[name] = f
	}
	return f
}

func (in *interp) show(raw []byte) {
	gs := &in.gs
	f := gs.font
	if f == nil {
		f = defaultFont
	}
	text, w, codes, spaces := f.decode(raw)
	trm := in.tm.mul(gs.ctm)
	x0, y0 := trm[2]*gs.ts+trm[4], trm[3]*gs.ts+trm[5]
	tx := (w*f.wscale*gs.fs + float64(codes)*gs.tc + float64(spaces)*gs.tw) * gs.th
	if finite(tx) {
		in.tm = translate(tx, 0).mul(in.tm)
	}
	trm2 := in.tm.mul(gs.ctm)
	x1, y1 := trm2[2]*gs.ts+trm2[4], trm2[3]*gs.ts+trm2[5]
	size := math.Abs(gs.fs) * math.Hypot(trm[2], trm[3])
	if size < 0.01 || !finite(size) {
		size = 1
	}
	ux, uy := trm[0], trm[1]
	if h := math.Hypot(ux, uy); h > 0 && finite(h) {
		ux, uy = ux/h, uy/h
	} else {
		ux, uy = 1, 0
	}
	if !finite(x0, y0, x1, y1) {
		return
	}
	in.e.emit(text, x0, y0, x1, y1, size, ux, uy)
}

// form runs a form XObject (text is often drawn inside them).
func (in *interp) form(name string) error {
	if in.depth >= maxFormDepth || in.e.forms >= maxFormCalls {
		return nil
	}
	xo := in.res.Key("XObject").Key(name)
	if xo.Kind() != pdf.Stream || xo.Key("Subtype").Name() != "Form" {
		return nil
	}
	in.e.forms++
	data, err := in.e.readStream(xo, -1)
	if f := in.e.j.failure; f != nil {
		return f
	}
	if err != nil {
		return nil
	}
	sub := &interp{e: in.e, res: xo.Key("Resources"), gs: in.gs, depth: in.depth + 1}
	if sub.res.Kind() != pdf.Dict {
		sub.res, sub.fonts = in.res, in.fonts
	}
	if m := xo.Key("Matrix"); m.Len() == 6 {
		var v mat
		for i := range v {
			v[i] = m.Index(i).Float64()
		}
		if finite(v[:]...) {
			sub.gs.ctm = v.mul(in.gs.ctm)
		}
	}
	return sub.run(data)
}

func newZlib(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) }
