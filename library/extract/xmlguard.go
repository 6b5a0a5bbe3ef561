package extract

import (
	"errors"
	"fmt"
	"io"
)

// The XML guard bounds what an XML part may make a parser hold before the parser sees it.
// encoding/xml keeps a stack entry per open element (and excelize builds a tree of a whole
// part), so a part of nested elements — 60 MB of "<w:p>" inflates from 88 KB — made the DOCX
// reader hold gigabytes. The guard is a byte-level lexer, a few states and no allocation, run
// over the bytes as they are inflated: it counts nesting depth, elements and the size of
// every token (a run of text, a tag, a comment, a CDATA section, a processing instruction),
// and fails as soon as one exceeds its limit. It refuses a DOCTYPE: OOXML parts never have one.

// xmlLimits bound one XML part (zero = no limit for that field).
type xmlLimits struct {
	depth    int // open elements at once
	elements int // start tags (self-closing included)
	tag      int // bytes of one tag
	text     int // bytes of one text run, comment, CDATA section or processing instruction
}

// Limits of the parts read while extracting (the maximal parts real Word and Excel files have
// are far below: document.xml nests about 30 deep with text boxes in nested tables).
var (
	docxXMLLimits = xmlLimits{depth: 256, elements: 4_000_000, tag: 1 << 20, text: 8 << 20}
	sideXMLLimits = xmlLimits{depth: 256, elements: 1_000_000, tag: 1 << 20, text: 4 << 20}
)

// errXML is the cause of a guard refusal (the kind is ErrTooComplex).
var errXML = errors.New("xml structure beyond limits")

const (
	gText = iota
	gOpen
	gTag
	gBang
	gComment
	gCDATA
	gPI
)

// xmlGuard scans XML bytes; feed reports the first limit exceeded.
type xmlGuard struct {
	lim      xmlLimits
	part     string
	state    uint8
	quote    byte
	prev     byte
	end      bool // the current tag is an end tag
	bang     []byte
	tail     [2]byte // the two bytes before the current one inside comments, CDATA and PIs
	depth    int
	maxDepth int
	elements int
	tok      int // bytes of the current token
	err      error
	// The local name of the current start tag (its first 16 bytes), and a check of every
	// start tag by name (nil = none).
	name    [16]byte
	nameLen int
	naming  bool
	onStart func(g *xmlGuard, name []byte) error
}

var (
	cdataOpen   = []byte("[CDATA[")
	commentOpen = []byte("--")
)

func (g *xmlGuard) fail(what string, n int) error {
	g.err = newErr(ErrTooComplex, "", fmt.Sprintf("%s: %s %d", g.part, what, n), errXML)
	return g.err
}

func (g *xmlGuard) feed(p []byte) error {
	if g.err != nil {
		return g.err
	}
	for _, c := range p {
		g.tok++
		switch g.state {
		case gText:
			if c == '<' {
				g.state, g.tok = gOpen, 1
				continue
			}
			if g.lim.text > 0 && g.tok > g.lim.text {
				return g.fail("text run of bytes", g.tok)
			}
		case gOpen:
			switch c {
			case '/':
				g.state, g.end, g.prev = gTag, true, c
			case '!':
				g.state, g.bang = gBang, g.bang[:0]
			case '?':
				g.state, g.tail = gPI, [2]byte{}
			default:
				g.state, g.end, g.prev = gTag, false, c
				g.naming, g.nameLen = true, 0
				g.addName(c)
			}
		case gTag:
			if g.naming {
				switch c {
				case ' ', '\t', '\r', '\n', '/', '>':
					g.naming = false
				case ':':
					g.nameLen = 0
				default:
					g.addName(c)
				}
			}
			if g.quote != 0 {
				if c == g.quote {
					g.quote = 0
				}
			} else {
				switch c {
				case '"', '\'':
					g.quote = c
				case '>':
					if err := g.closeTag(); err != nil {
						return err
					}
					g.state, g.tok = gText, 0
					continue
				}
			}
			g.prev = c
			if g.lim.tag > 0 && g.tok > g.lim.tag {
				return g.fail("tag of bytes", g.tok)
			}
		case gBang:
			g.bang = append(g.bang, c)
			switch {
			case string(g.bang) == string(commentOpen):
				g.state, g.tail = gComment, [2]byte{}
			case string(g.bang) == string(cdataOpen):
				g.state, g.tail = gCDATA, [2]byte{}
			case len(g.bang) > len(cdataOpen) || !(isPrefix(g.bang, commentOpen) || isPrefix(g.bang, cdataOpen)):
				g.err = newErr(ErrTooComplex, "", g.part+": DOCTYPE or unknown declaration", errXML)
				return g.err
			}
		case gComment, gCDATA, gPI:
			done := false
			switch g.state {
			case gComment:
				done = c == '>' && g.tail == [2]byte{'-', '-'}
			case gCDATA:
				done = c == '>' && g.tail == [2]byte{']', ']'}
			case gPI:
				done = c == '>' && g.tail[1] == '?'
			}
			if done {
				g.state, g.tok = gText, 0
				continue
			}
			g.tail = [2]byte{g.tail[1], c}
			if g.lim.text > 0 && g.tok > g.lim.text {
				return g.fail("markup section of bytes", g.tok)
			}
		}
	}
	return nil
}

func (g *xmlGuard) addName(c byte) {
	if g.nameLen < len(g.name) {
		g.name[g.nameLen] = c
		g.nameLen++
	}
}

func isPrefix(b, of []byte) bool { return len(b) <= len(of) && string(of[:len(b)]) == string(b) }

func (g *xmlGuard) closeTag() error {
	switch {
	case g.end:
		if g.depth > 0 {
			g.depth--
		}
		return nil
	case g.prev == '/':
		g.elements++
	default:
		g.elements++
		g.depth++
		g.maxDepth = max(g.maxDepth, g.depth)
		if g.lim.depth > 0 && g.depth > g.lim.depth {
			return g.fail("elements nested", g.depth)
		}
	}
	if g.lim.elements > 0 && g.elements > g.lim.elements {
		return g.fail("elements", g.elements)
	}
	if g.onStart != nil {
		if err := g.onStart(g, g.name[:g.nameLen]); err != nil {
			g.err = err
			return err
		}
	}
	return nil
}

// guardedReader passes bytes through an xmlGuard: the parser reading from it never receives
// the bytes past a limit.
type guardedReader struct {
	r io.Reader
	g *xmlGuard
}

func guardXML(r io.Reader, part string, lim xmlLimits) *guardedReader {
	return &guardedReader{r: r, g: &xmlGuard{lim: lim, part: part}}
}

func (gr *guardedReader) Read(p []byte) (int, error) {
	if gr.g.err != nil {
		return 0, gr.g.err
	}
	n, err := gr.r.Read(p)
	if e := gr.g.feed(p[:n]); e != nil {
		return 0, e
	}
	return n, err
}
