package postcheck

import (
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// gm parses Markdown as the Telegram front end does (CommonMark with GFM).
var gm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// visible reports whether answer, rendered, shows a letter or a digit. Text with letters can
// still render as nothing: a link reference definition («[1]: http://…»), an HTML comment or
// block, an image's address, emphasis or a table with empty cells, a thematic break, format
// characters only. Only text, code and the words of links count.
func visible(answer string) bool {
	if !hasAlnum(answer) {
		return false
	}
	src := []byte(answer)
	doc := gm.Parser().Parse(text.NewReader(src))
	found := false
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || found {
			return ast.WalkStop, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock, *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			found = hasVisible(n.Segment.Value(src))
		case *ast.String:
			found = hasVisible(n.Value)
		case *ast.AutoLink:
			found = hasVisible(n.Label(src))
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len() && !found; i++ {
				seg := lines.At(i)
				found = hasVisible(seg.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	return found
}

// hasVisible reports a letter or digit in b.
func hasVisible(b []byte) bool {
	for _, r := range string(b) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// Visible reports whether answer, rendered, shows a letter or a digit (see visible): an
// answer that does not must never be sent as it is.
func Visible(answer string) bool { return visible(answer) }
