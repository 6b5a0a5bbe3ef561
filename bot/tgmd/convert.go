package tgmd

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// gm is the shared goldmark instance: CommonMark plus GFM (tables,
// strikethrough, linkify and task lists). Raw HTML is parsed but never
// interpreted.
var gm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// maxIndent caps the indentation of nested lists so that deeply nested input
// cannot make the output grow quadratically.
const maxIndent = 8

// onPanic, when set by tests, is told about a recovered panic.
var onPanic func(any)

// Convert parses markdown (CommonMark with the GFM extensions) and renders it
// as Telegram text with entities. Invalid UTF-8 is replaced with U+FFFD
// first. Convert never panics: should the renderer fail, the input is
// returned as plain text.
func Convert(markdown string) (m Message) { return ConvertWidth(markdown, TableWidth) }

// ConvertWidth is Convert with tables fitted to width runes (a phone's monospace line) instead
// of TableWidth.
func ConvertWidth(markdown string, width int) (m Message) {
	src := normalizeInput(markdown)
	defer func() {
		if r := recover(); r != nil {
			if onPanic != nil {
				onPanic(r)
			}
			m = Message{Text: strings.TrimSpace(string(src))}
		}
	}()
	c := &converter{src: src, width: width}
	c.blocks(parseMarkdown(src), "\n\n", 0)
	return c.b.message()
}

func parseMarkdown(src []byte) ast.Node {
	return gm.Parser().Parse(text.NewReader(src))
}

// normalizeInput makes the input valid UTF-8 without NUL bytes and with
// "\n" line endings.
func normalizeInput(s string) []byte {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.ContainsAny(s, "\x00\r") {
		s = strings.NewReplacer("\x00", "\uFFFD", "\r\n", "\n", "\r", "\n").Replace(s)
	}
	return []byte(s)
}

// converter walks a goldmark syntax tree and writes into a builder.
type converter struct {
	src   []byte
	b     builder
	width int // a table's widest line, in runes
}

// blocks renders the block children of parent separated by sep. depth is
// the list nesting level.
func (c *converter) blocks(parent ast.Node, sep string, depth int) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		c.b.setSep(sep)
		c.block(n, depth)
	}
}

func (c *converter) block(n ast.Node, depth int) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		c.inlines(n)
	case *ast.Heading:
		id := c.b.openEnt(kBold, "", "")
		c.inlines(n)
		c.b.closeEnt(id)
	case *ast.ThematicBreak:
		c.b.write("———")
	case *ast.FencedCodeBlock:
		c.codeBlock(n, string(unescape(n.Language(c.src))))
	case *ast.CodeBlock:
		c.codeBlock(n, "")
	case *ast.HTMLBlock:
		var buf []byte
		buf = appendLines(buf, n, c.src)
		if n.HasClosure() {
			buf = append(buf, n.ClosureLine.Value(c.src)...)
		}
		c.b.write(strings.TrimRight(string(buf), "\n"))
	case *ast.Blockquote:
		id := c.b.openEnt(kQuote, "", "")
		sep := "\n\n"
		if depth > 0 {
			sep = "\n"
		}
		c.blocks(n, sep, depth)
		c.b.closeEnt(id)
	case *ast.List:
		c.list(n, depth, false)
	case *extast.Table:
		c.table(n)
	default:
		if fc := n.FirstChild(); fc != nil && fc.Type() == ast.TypeInline {
			c.inlines(n)
		} else {
			c.blocks(n, "\n\n", depth)
		}
	}
}

func appendLines(buf []byte, n ast.Node, src []byte) []byte {
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		buf = append(buf, seg.Value(src)...)
	}
	return buf
}

// codeBlock renders a fenced or indented code block as a pre entity with
// its content verbatim, without trailing newlines.
func (c *converter) codeBlock(n ast.Node, lang string) {
	content := strings.TrimRight(string(appendLines(nil, n, c.src)), "\n")
	id := c.b.openEnt(kPre, "", lang)
	c.b.plain++
	c.b.write(content)
	c.b.plain--
	c.b.closeEnt(id)
}

// list renders a list as one block with one line per item. When the list
// is the first thing in an outer item, its first item continues the outer
// item's line ("- - x" becomes "• • x").
func (c *converter) list(n *ast.List, depth int, sameLine bool) {
	num := n.Start
	indent := strings.Repeat("  ", min(depth, maxIndent))
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		prefix := indent
		if sameLine && item == n.FirstChild() {
			prefix = ""
		} else {
			c.b.setSep("\n")
		}
		marker := "• "
		if n.IsOrdered() {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		if box := taskCheckBox(item); box != nil {
			mark := "☐ "
			if box.IsChecked {
				mark = "☑ "
			}
			if n.IsOrdered() {
				marker += mark
			} else {
				marker = mark
			}
		}
		c.b.write(prefix + marker)
		for ch := item.FirstChild(); ch != nil; ch = ch.NextSibling() {
			if l, ok := ch.(*ast.List); ok && ch == item.FirstChild() {
				c.list(l, depth+1, true)
				continue
			}
			if ch != item.FirstChild() {
				c.b.setSep("\n")
			}
			c.block(ch, depth+1)
		}
	}
}

// taskCheckBox returns the check box of a task list item, if any.
func taskCheckBox(item ast.Node) *extast.TaskCheckBox {
	if fc := item.FirstChild(); fc != nil {
		if box, ok := fc.FirstChild().(*extast.TaskCheckBox); ok {
			return box
		}
	}
	return nil
}

// plainText renders the inline children of n as text without entities.
func (c *converter) plainText(n ast.Node) string {
	sub := &converter{src: c.src}
	sub.b.plain = 1
	sub.inlines(n)
	s := sub.b.sb.String()
	if strings.ContainsRune(s, '\n') {
		s = strings.ReplaceAll(s, "\n", " ")
	}
	return strings.TrimSpace(s)
}
