package extract

import (
	"bytes"
	"fmt"
)

// The PDF object guard. The PDF library parses a whole object when it is resolved — every
// element of an array, every string — and resolves objects again on later accesses, so one
// object of nine million numbers (18 MB in the file, or 100 KB inside a compressed object
// stream) costs hundreds of megabytes. Before the library runs, the object syntax of the file
// (outside streams) and of every object stream the precheck inflates is scanned by this
// lexer: it bounds the nesting of arrays and dictionaries, the elements of one container and
// the size of one token (a string, a name, a number), without building anything.

const (
	maxPDFNesting   = 100       // real files nest a few levels
	maxPDFContainer = 1_000_000 // tokens of one array or dictionary (a /Kids of 10,000 pages is 30,000)
	maxPDFToken     = 4 << 20   // bytes of one string, name or other token
)

const (
	pgNormal = iota
	pgComment
	pgString
	pgHex
	pgToken
	pgLT // after '<'
	pgGT // after '>'
)

type pdfGuard struct {
	what   string
	state  uint8
	paren  int  // literal string nesting
	escape bool // after a backslash in a literal string
	tok    int  // bytes of the current token
	word   []byte
	counts []int // tokens of each open container
	err    error
}

func (g *pdfGuard) fail(detail string) error {
	g.err = newErr(ErrTooComplex, "", "pdf "+g.what+": "+detail, nil)
	return g.err
}

// element counts one token or container in the innermost open container.
func (g *pdfGuard) element() error {
	if n := len(g.counts); n > 0 {
		if g.counts[n-1]++; g.counts[n-1] > maxPDFContainer {
			return g.fail(fmt.Sprintf("an array or dictionary of more than %d elements", maxPDFContainer))
		}
	}
	return nil
}

func (g *pdfGuard) open() error {
	if err := g.element(); err != nil {
		return err
	}
	if len(g.counts) >= maxPDFNesting {
		return g.fail(fmt.Sprintf("arrays or dictionaries nested deeper than %d", maxPDFNesting))
	}
	g.counts = append(g.counts, 0)
	return nil
}

func (g *pdfGuard) close() {
	if n := len(g.counts); n > 0 {
		g.counts = g.counts[:n-1]
	}
}

// endToken finishes a regular token; object boundaries reset the nesting (a damaged object does
// not carry its unclosed brackets into the next one).
func (g *pdfGuard) endToken() error {
	w := g.word
	g.state, g.word = pgNormal, g.word[:0]
	switch string(w) {
	case "obj", "endobj", "stream", "endstream", "xref", "trailer", "startxref":
		g.counts = g.counts[:0]
		return nil
	}
	return g.element()
}

func (g *pdfGuard) feed(p []byte) error {
	if g.err != nil {
		return g.err
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch g.state {
		case pgComment:
			if c == '\n' || c == '\r' {
				g.state = pgNormal
			}
			continue
		case pgString:
			if g.tok++; g.tok > maxPDFToken {
				return g.fail("a string of more than 4 MB")
			}
			switch {
			case g.escape:
				g.escape = false
			case c == '\\':
				g.escape = true
			case c == '(':
				g.paren++
			case c == ')':
				if g.paren--; g.paren == 0 {
					g.state = pgNormal
					if err := g.element(); err != nil {
						return err
					}
				}
			}
			continue
		case pgHex:
			if g.tok++; g.tok > maxPDFToken {
				return g.fail("a string of more than 4 MB")
			}
			if c == '>' {
				g.state = pgNormal
				if err := g.element(); err != nil {
					return err
				}
			}
			continue
		case pgLT:
			if c == '<' {
				g.state = pgNormal
				if err := g.open(); err != nil {
					return err
				}
				continue
			}
			g.state, g.tok = pgHex, 1
			i-- // this byte belongs to the hex string
			continue
		case pgGT:
			g.state = pgNormal
			if c == '>' {
				g.close()
				continue
			}
			// a lone '>' is an error the library reports; read c normally
		case pgToken:
			if isPSSpace(c) || isPSDelim(c) {
				if err := g.endToken(); err != nil {
					return err
				}
				break // read c normally
			}
			if g.tok++; g.tok > maxPDFToken {
				return g.fail("a token of more than 4 MB")
			}
			if len(g.word) < 16 {
				g.word = append(g.word, c)
			}
			continue
		}
		// pgNormal
		switch {
		case isPSSpace(c):
		case c == '%':
			g.state = pgComment
		case c == '(':
			g.state, g.paren, g.escape, g.tok = pgString, 1, false, 1
		case c == '<':
			g.state = pgLT
		case c == '>':
			g.state = pgGT
		case c == '[':
			if err := g.open(); err != nil {
				return err
			}
		case c == ']':
			g.close()
		case c == '{' || c == '}' || c == ')':
		default: // a name ('/' starts it) or a regular token
			g.state, g.tok, g.word = pgToken, 1, append(g.word[:0], c)
		}
	}
	return nil
}

// finish ends the input (a token running to the end still counts).
func (g *pdfGuard) finish() error {
	if g.err == nil && g.state == pgToken {
		return g.endToken()
	}
	return g.err
}

// scanPDFObjects scans the file's object syntax, skipping stream data (from "stream" to
// "endstream").
func scanPDFObjects(j *job, data []byte) error {
	g := &pdfGuard{what: "file"}
	pos := 0
	for _, loc := range reStream.FindAllIndex(data, -1) {
		if err := j.check(); err != nil {
			return err
		}
		s := loc[0]
		if s < pos || s >= 3 && string(data[s-3:s]) == "end" {
			continue // "endstream", or inside a skipped stream
		}
		if err := g.feed(data[pos:loc[1]]); err != nil {
			return err
		}
		if err := g.finish(); err != nil {
			return err
		}
		end := bytes.Index(data[loc[1]:], []byte("endstream"))
		if end < 0 {
			return nil // the library reports the truncated stream
		}
		pos = loc[1] + end
	}
	if err := g.feed(data[pos:]); err != nil {
		return err
	}
	return g.finish()
}
