package qlang

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrSyntax is wrapped by every error Parse and Tokenize return.
var ErrSyntax = errors.New("qlang: syntax error")

// SyntaxError is a syntax error at a position of the query text.
type SyntaxError struct {
	Pos Pos
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("qlang: %s: %s", e.Pos, e.Msg) }

// Unwrap makes every SyntaxError match ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Tokenize splits a query text into tokens, dropping white space and // comments. The last token
// is always EOF.
func Tokenize(src string) ([]Token, error) {
	lx := lexer{src: src, line: 1, col: 1}
	var toks []Token
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		if t.Kind == EOF {
			return toks, nil
		}
	}
}

type lexer struct {
	src       string
	off       int
	line, col int
}

func (lx *lexer) pos() Pos { return Pos{Offset: lx.off, Line: lx.line, Col: lx.col} }

// peek returns the rune at the offset plus ahead bytes (0 at the end of the text).
func (lx *lexer) peek(ahead int) rune {
	if lx.off+ahead >= len(lx.src) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(lx.src[lx.off+ahead:])
	return r
}

func (lx *lexer) advance() rune {
	r, n := utf8.DecodeRuneInString(lx.src[lx.off:])
	lx.off += n
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
	return r
}

func (lx *lexer) errorf(p Pos, format string, args ...any) error {
	return &SyntaxError{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

func isNameStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isNamePart(r rune) bool  { return isNameStart(r) || unicode.IsDigit(r) }
func isDigit(r rune) bool     { return r >= '0' && r <= '9' }

func (lx *lexer) next() (Token, error) {
	lx.skipSpaceAndComments()
	p := lx.pos()
	if lx.off >= len(lx.src) {
		return Token{Kind: EOF, Pos: p}, nil
	}
	r := lx.peek(0)
	switch {
	case r == utf8.RuneError && !strings.HasPrefix(lx.src[lx.off:], "\uFFFD"):
		return Token{}, lx.errorf(p, "invalid UTF-8")
	case isNameStart(r):
		w := lx.name()
		return Token{Kind: Word, Text: w, Keyword: lookupKeyword(w), Pos: p}, nil
	case isDigit(r):
		return lx.number(p)
	case r == '"':
		return lx.str(p)
	case r == '&':
		lx.advance()
		if !isNameStart(lx.peek(0)) {
			return Token{}, lx.errorf(p, "a parameter name must follow &")
		}
		return Token{Kind: Param, Text: lx.name(), Pos: p}, nil
	}
	lx.advance()
	switch r {
	case '(', ')', ',', '.', ';', '*', '+', '-', '/', '=':
		return Token{Kind: Punct, Text: string(r), Pos: p}, nil
	case '<':
		if nx := lx.peek(0); nx == '>' || nx == '=' {
			lx.advance()
			return Token{Kind: Punct, Text: "<" + string(nx), Pos: p}, nil
		}
		return Token{Kind: Punct, Text: "<", Pos: p}, nil
	case '>':
		if lx.peek(0) == '=' {
			lx.advance()
			return Token{Kind: Punct, Text: ">=", Pos: p}, nil
		}
		return Token{Kind: Punct, Text: ">", Pos: p}, nil
	}
	return Token{}, lx.errorf(p, "unexpected character %q", r)
}

func (lx *lexer) skipSpaceAndComments() {
	for lx.off < len(lx.src) {
		r := lx.peek(0)
		switch {
		case unicode.IsSpace(r) || r == '\uFEFF':
			lx.advance()
		case r == '/' && lx.peek(1) == '/':
			for lx.off < len(lx.src) && lx.peek(0) != '\n' {
				lx.advance()
			}
		default:
			return
		}
	}
}

func (lx *lexer) name() string {
	start := lx.off
	for lx.off < len(lx.src) && isNamePart(lx.peek(0)) {
		lx.advance()
	}
	return lx.src[start:lx.off]
}

func (lx *lexer) number(p Pos) (Token, error) {
	start := lx.off
	for isDigit(lx.peek(0)) {
		lx.advance()
	}
	if lx.peek(0) == '.' && isDigit(lx.peek(1)) {
		lx.advance()
		for isDigit(lx.peek(0)) {
			lx.advance()
		}
	}
	if isNameStart(lx.peek(0)) {
		return Token{}, lx.errorf(p, "a name cannot start with a digit")
	}
	return Token{Kind: Number, Text: lx.src[start:lx.off], Pos: p}, nil
}

// str reads a string literal; a doubled quote stands for one quote.
func (lx *lexer) str(p Pos) (Token, error) {
	lx.advance()
	var b strings.Builder
	for {
		if lx.off >= len(lx.src) {
			return Token{}, lx.errorf(p, "unterminated string literal")
		}
		r := lx.advance()
		if r == '"' {
			if lx.peek(0) != '"' {
				return Token{Kind: String, Text: b.String(), Pos: p}, nil
			}
			lx.advance()
		}
		b.WriteRune(r)
	}
}
