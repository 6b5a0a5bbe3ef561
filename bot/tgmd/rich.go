package tgmd

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// Rich messages: an answer with a table sent as the Bot API's InputRichMessage in its blocks
// form (sendRichMessage, Bot API 10.1; InputRichMessage.blocks and the InputRichBlock* classes,
// 10.2; InputRichBlockTable.is_compact, 10.3). The table is Telegram's own table block instead of
// an aligned monospace one; the text around it keeps its bold, italic, strikethrough, code and
// links as RichText. Field names and shapes: core.telegram.org/bots/api/types/inputrichmessage.md,
// types/richtext.md, rich-messages.md and the classes the api-changelog.md lists for 10.1–10.3.

// RichMessage is an InputRichMessage described as a list of blocks.
type RichMessage struct {
	Blocks []RichBlock `json:"blocks"`
	// SkipEntityDetection turns off Telegram's detection of URLs, e-mail addresses, mentions,
	// hashtags, bank card numbers … in the text: the answer's links are explicit, and a
	// counterparty's name must not turn into a link (or be refused as an invalid one).
	SkipEntityDetection bool `json:"skip_entity_detection,omitempty"`
}

// Rich block types (InputRichBlock*.type).
const (
	BlockParagraph  = "paragraph"  // InputRichBlockParagraph: text
	BlockPre        = "pre"        // InputRichBlockPreformatted: text, language
	BlockDivider    = "divider"    // InputRichBlockDivider
	BlockList       = "list"       // InputRichBlockList: items
	BlockBlockquote = "blockquote" // InputRichBlockBlockQuotation: blocks
	BlockTable      = "table"      // InputRichBlockTable: cells, is_bordered, is_compact
)

// RichBlock is one InputRichBlock; which fields it has depends on its Type.
type RichBlock struct {
	Type     string    `json:"type"`
	Text     *RichText `json:"text,omitempty"`     // paragraph, pre
	Language string    `json:"language,omitempty"` // pre
	// Blocks are a block quotation's content.
	Blocks []RichBlock       `json:"blocks,omitempty"`
	Items  []RichListItem    `json:"items,omitempty"` // list
	Cells  [][]RichTableCell `json:"cells,omitempty"` // table: rows of cells, the header row first
	// IsBordered and IsCompact draw a table with borders and smaller indents (a phone's width).
	IsBordered bool `json:"is_bordered,omitempty"`
	IsCompact  bool `json:"is_compact,omitempty"`
}

// RichListItem is an InputRichBlockListItem.
type RichListItem struct {
	Blocks      []RichBlock `json:"blocks"`
	HasCheckbox bool        `json:"has_checkbox,omitempty"`
	IsChecked   bool        `json:"is_checked,omitempty"`
	// Value and Type label an item of an ordered list: its number, in decimal numbers ("1").
	Value int    `json:"value,omitempty"`
	Type  string `json:"type,omitempty"`
}

// RichTableCell is a RichBlockTableCell. A cell without Text is invisible (a row shorter than
// the header is filled up with such cells).
type RichTableCell struct {
	Text     *RichText `json:"text,omitempty"`
	IsHeader bool      `json:"is_header,omitempty"`
	Align    string    `json:"align"`  // "left", "center" or "right"
	Valign   string    `json:"valign"` // "top", "middle" or "bottom"
}

// Rich text types (RichText*.type) the conversion writes.
const (
	RichBold          = "bold"
	RichItalic        = "italic"
	RichStrikethrough = "strikethrough"
	RichCode          = "code"
	RichURL           = "url" // RichTextUrl: text, url
)

// RichText is the Bot API's RichText: a String of plain text (Type "" without Parts), an Array
// of RichText (Type "" with Parts), or a formatted text {"type": Type, "text": Parts, "url": URL}.
type RichText struct {
	Type  string
	Plain string
	Parts []RichText
	URL   string
}

// MarshalJSON writes t as the Bot API reads it: plain text as a JSON string, a concatenation as
// an array (one part as the part itself), a formatted text as an object. "&", "<" and ">" stay
// as they are unless the encoder around escapes them.
func (t RichText) MarshalJSON() ([]byte, error) {
	if t.Type == "" {
		switch len(t.Parts) {
		case 0:
			return marshal(t.Plain)
		case 1:
			return marshal(t.Parts[0])
		}
		return marshal(t.Parts)
	}
	obj := struct {
		Type string   `json:"type"`
		Text RichText `json:"text"`
		URL  string   `json:"url,omitempty"`
	}{t.Type, RichText{Parts: t.Parts}, t.URL}
	if len(t.Parts) == 0 {
		obj.Text = RichText{Plain: t.Plain}
	}
	return marshal(obj)
}

// marshal is json.Marshal without HTML escaping.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// String is t's text without its formatting.
func (t RichText) String() string {
	if len(t.Parts) == 0 {
		return t.Plain
	}
	var b strings.Builder
	for _, p := range t.Parts {
		b.WriteString(p.String())
	}
	return b.String()
}

// ConvertRich turns markdown with a GFM table into a rich message: paragraphs, lists, code
// blocks, quotations and dividers as the blocks they are, headings as bold paragraphs, tables as
// table blocks (a header row of header cells; a column aligned as the table says, a column of
// numbers to the right). ok is false for markdown without a table, which reads as well as text,
// and should the conversion fail; it never panics.
func ConvertRich(markdown string) (m RichMessage, ok bool) {
	src := normalizeInput(markdown)
	defer func() {
		if r := recover(); r != nil {
			if onPanic != nil {
				onPanic(r)
			}
			m, ok = RichMessage{}, false
		}
	}()
	c := &richConverter{src: src}
	blocks := c.blocks(parseMarkdown(src))
	if !c.table || len(blocks) == 0 {
		return RichMessage{}, false
	}
	return RichMessage{Blocks: blocks, SkipEntityDetection: true}, true
}

// richConverter walks a goldmark syntax tree into rich blocks.
type richConverter struct {
	src   []byte
	table bool // a table block was written
}

// blocks converts the block children of parent.
func (c *richConverter) blocks(parent ast.Node) []RichBlock {
	var out []RichBlock
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		out = append(out, c.block(n)...)
	}
	return out
}

func (c *richConverter) block(n ast.Node) []RichBlock {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return paragraph(c.text(n))
	case *ast.Heading:
		t := c.text(n)
		if t.String() == "" {
			return nil
		}
		return paragraph(RichText{Type: RichBold, Parts: []RichText{t}})
	case *ast.ThematicBreak:
		return []RichBlock{{Type: BlockDivider}}
	case *ast.FencedCodeBlock:
		return c.pre(n, string(unescape(n.Language(c.src))))
	case *ast.CodeBlock:
		return c.pre(n, "")
	case *ast.HTMLBlock:
		var buf []byte
		buf = appendLines(buf, n, c.src)
		if n.HasClosure() {
			buf = append(buf, n.ClosureLine.Value(c.src)...)
		}
		return paragraph(RichText{Plain: strings.TrimSpace(string(buf))})
	case *ast.Blockquote:
		inner := c.blocks(n)
		if len(inner) == 0 {
			return nil
		}
		return []RichBlock{{Type: BlockBlockquote, Blocks: inner}}
	case *ast.List:
		return c.list(n)
	case *extast.Table:
		return c.tableBlock(n)
	default:
		if fc := n.FirstChild(); fc != nil && fc.Type() == ast.TypeInline {
			return paragraph(c.text(n))
		}
		return c.blocks(n)
	}
}

// paragraph is a paragraph of t, or nothing when t has no text.
func paragraph(t RichText) []RichBlock {
	if strings.TrimSpace(t.String()) == "" {
		return nil
	}
	return []RichBlock{{Type: BlockParagraph, Text: &t}}
}

// pre is a code block's content verbatim, without trailing newlines.
func (c *richConverter) pre(n ast.Node, lang string) []RichBlock {
	content := strings.TrimRight(string(appendLines(nil, n, c.src)), "\n")
	if content == "" {
		return nil
	}
	return []RichBlock{{Type: BlockPre, Text: &RichText{Plain: content}, Language: lang}}
}

// list is a list block: an item's content as its blocks, an ordered list's items numbered from
// its start, a task's check box as the item's.
func (c *richConverter) list(n *ast.List) []RichBlock {
	var items []RichListItem
	num := n.Start
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		item := RichListItem{Blocks: c.blocks(it)}
		if n.IsOrdered() {
			item.Value, item.Type = num, "1"
			num++
		}
		if box := taskCheckBox(it); box != nil {
			item.HasCheckbox, item.IsChecked = true, box.IsChecked
		}
		if len(item.Blocks) > 0 {
			items = append(items, item)
		}
	}
	if len(items) == 0 {
		return nil
	}
	return []RichBlock{{Type: BlockList, Items: items}}
}

// tableBlock is a GFM table as a table block.
func (c *richConverter) tableBlock(t *extast.Table) []RichBlock {
	var rows [][]RichText
	header := false
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []RichText
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, c.text(cell))
		}
		if _, ok := r.(*extast.TableHeader); ok && len(rows) == 0 {
			header = true
		}
		rows = append(rows, cells)
	}
	ncol := 0
	for _, r := range rows {
		ncol = max(ncol, len(r))
	}
	if ncol == 0 {
		return nil
	}
	body := rows
	if header {
		body = rows[1:]
	}
	plain := make([][]string, len(body))
	for i, r := range body {
		plain[i] = make([]string, ncol)
		for j, t := range r {
			plain[i][j] = t.String()
		}
	}
	align := make([]string, ncol)
	for j := range align {
		a := extast.AlignNone
		if j < len(t.Alignments) {
			a = t.Alignments[j]
		}
		switch {
		case a == extast.AlignRight, a == extast.AlignNone && numericColumn(plain, j):
			align[j] = "right"
		case a == extast.AlignCenter:
			align[j] = "center"
		default:
			align[j] = "left"
		}
	}
	cells := make([][]RichTableCell, len(rows))
	visible := false
	for i, r := range rows {
		cells[i] = make([]RichTableCell, ncol)
		for j := range ncol {
			cell := RichTableCell{IsHeader: header && i == 0, Align: align[j], Valign: "top"}
			if j < len(r) && strings.TrimSpace(r[j].String()) != "" {
				t := r[j]
				cell.Text, visible = &t, true
			}
			cells[i][j] = cell
		}
	}
	if !visible {
		return nil // a table of empty cells shows nothing
	}
	c.table = true
	return []RichBlock{{Type: BlockTable, Cells: cells, IsBordered: true, IsCompact: true}}
}

// text converts the inline children of n, line breaks as "\n", without breaks or spaces at
// either end.
func (c *richConverter) text(n ast.Node) RichText {
	var b richText
	c.inlines(&b, n)
	return b.trimmed()
}

func (c *richConverter) inlines(b *richText, parent ast.Node) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		c.inline(b, n)
	}
}

func (c *richConverter) inline(b *richText, n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(c.src)
		brk := n.SoftLineBreak() || n.HardLineBreak()
		if brk {
			v = bytes.TrimRight(v, " \t\n")
		}
		if n.IsRaw() {
			b.plain(string(v))
		} else {
			b.plain(string(unescape(v)))
		}
		if brk {
			b.plain("\n")
		}
	case *ast.String:
		if n.IsCode() || n.IsRaw() {
			b.plain(string(n.Value))
		} else {
			b.plain(string(unescape(n.Value)))
		}
	case *ast.CodeSpan:
		var buf []byte
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			switch t := ch.(type) {
			case *ast.Text:
				buf = append(buf, t.Segment.Value(c.src)...)
			case *ast.String:
				buf = append(buf, t.Value...)
			}
		}
		if s := strings.ReplaceAll(string(buf), "\n", " "); s != "" {
			b.add(RichText{Type: RichCode, Plain: s})
		}
	case *ast.Emphasis:
		k := RichItalic
		if n.Level >= 2 {
			k = RichBold
		}
		c.styled(b, k, n)
	case *extast.Strikethrough:
		c.styled(b, RichStrikethrough, n)
	case *ast.Link:
		url, ok := linkURL(n.Destination)
		if !ok {
			c.inlines(b, n)
			return
		}
		var inner richText
		c.inlines(&inner, n)
		if len(inner.parts) == 0 {
			inner.plain(displayURL(n.Destination)) // [](url): show the URL
		}
		b.add(RichText{Type: RichURL, Parts: inner.parts, URL: url})
	case *ast.Image:
		alt := c.plainOf(n)
		if dest := displayURL(n.Destination); hasScheme(dest, "http", "https") {
			if alt == "" {
				alt = dest
			} else {
				alt += " (" + dest + ")"
			}
		}
		b.plain(alt)
	case *ast.AutoLink:
		// Entity detection is off: a bare URL or e-mail address is a link only if it is made one.
		label := string(n.Label(c.src))
		url := string(n.URL(c.src))
		if n.AutoLinkType == ast.AutoLinkEmail {
			url = "mailto:" + label
		}
		if hasScheme(url, "http", "https", "mailto") {
			b.add(RichText{Type: RichURL, Parts: []RichText{{Plain: label}}, URL: url})
		} else {
			b.plain(label)
		}
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.plain(string(seg.Value(c.src)))
		}
	case *extast.TaskCheckBox:
		// The list item's check box.
	default:
		c.inlines(b, n)
	}
}

// styled adds the children of n as a text of type k.
func (c *richConverter) styled(b *richText, k string, n ast.Node) {
	var inner richText
	c.inlines(&inner, n)
	if len(inner.parts) == 0 {
		return
	}
	b.add(RichText{Type: k, Parts: inner.parts})
}

// plainOf is the text of n's inline children without formatting.
func (c *richConverter) plainOf(n ast.Node) string {
	var b richText
	c.inlines(&b, n)
	s := b.trimmed().String()
	return strings.Join(strings.Fields(s), " ")
}

// richText collects the parts of a text, adjacent plain parts merged.
type richText struct{ parts []RichText }

func (b *richText) plain(s string) {
	if s == "" {
		return
	}
	if n := len(b.parts); n > 0 && b.parts[n-1].Type == "" && len(b.parts[n-1].Parts) == 0 {
		b.parts[n-1].Plain += s
		return
	}
	b.parts = append(b.parts, RichText{Plain: s})
}

func (b *richText) add(t RichText) { b.parts = append(b.parts, t) }

// trimmed is the text without spaces and line breaks at either end of its plain parts.
func (b *richText) trimmed() RichText {
	parts := b.parts
	for len(parts) > 0 && isPlain(parts[0]) && strings.TrimSpace(parts[0].Plain) == "" {
		parts = parts[1:]
	}
	for len(parts) > 0 && isPlain(parts[len(parts)-1]) && strings.TrimSpace(parts[len(parts)-1].Plain) == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return RichText{}
	}
	parts = append([]RichText(nil), parts...)
	if isPlain(parts[0]) {
		parts[0].Plain = strings.TrimLeft(parts[0].Plain, " \t\n")
	}
	if last := len(parts) - 1; isPlain(parts[last]) {
		parts[last].Plain = strings.TrimRight(parts[last].Plain, " \t\n")
	}
	if len(parts) == 1 && isPlain(parts[0]) {
		return parts[0]
	}
	return RichText{Parts: parts}
}

func isPlain(t RichText) bool { return t.Type == "" && len(t.Parts) == 0 }
