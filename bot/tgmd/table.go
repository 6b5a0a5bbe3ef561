package tgmd

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// maxTableWidth is the widest table row, in runes, that is still shown as
// an aligned pre block; wider tables become one line per row, which reads
// better on a phone.
const maxTableWidth = 40

const (
	colSep  = " │ "
	lineSep = "─┼─"
)

// table renders a GFM table, either as an aligned pre block (narrow tables)
// or as a list with one line per data row (wide tables).
func (c *converter) table(t *extast.Table) {
	var header []ast.Node
	var rows [][]ast.Node
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []ast.Node
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, cell)
		}
		if _, ok := r.(*extast.TableHeader); ok && header == nil {
			header = cells
		} else {
			rows = append(rows, cells)
		}
	}
	ncol := len(header)
	for _, r := range rows {
		ncol = max(ncol, len(r))
	}
	if ncol == 0 {
		return
	}
	plain := func(cells []ast.Node) []string {
		out := make([]string, ncol)
		for i, cell := range cells {
			out[i] = c.plainText(cell)
		}
		return out
	}
	head := plain(header)
	body := make([][]string, len(rows))
	for i, r := range rows {
		body[i] = plain(r)
	}

	widths := make([]int, ncol)
	for _, r := range append([][]string{head}, body...) {
		for j, s := range r {
			widths[j] = max(widths[j], utf8.RuneCountInString(s))
		}
	}
	total := utf8.RuneCountInString(colSep) * (ncol - 1)
	for _, w := range widths {
		total += w
	}
	if total <= maxTableWidth {
		c.narrowTable(t, head, body, widths)
	} else {
		c.wideTable(head, rows)
	}
}

// narrowTable writes the table as one pre entity with aligned columns.
func (c *converter) narrowTable(t *extast.Table, head []string, body [][]string, widths []int) {
	align := make([]extast.Alignment, len(widths))
	for j := range align {
		align[j] = extast.AlignNone
		if j < len(t.Alignments) {
			align[j] = t.Alignments[j]
		}
		if align[j] == extast.AlignNone && numericColumn(body, j) {
			align[j] = extast.AlignRight
		}
	}
	var sb strings.Builder
	row := func(cells []string) {
		var line strings.Builder
		for j, s := range cells {
			if j > 0 {
				line.WriteString(colSep)
			}
			line.WriteString(pad(s, widths[j], align[j]))
		}
		sb.WriteString(strings.TrimRight(line.String(), " "))
	}
	row(head)
	if len(body) > 0 {
		sb.WriteByte('\n')
		for j, w := range widths {
			if j > 0 {
				sb.WriteString(lineSep)
			}
			sb.WriteString(strings.Repeat("─", w))
		}
		for _, r := range body {
			sb.WriteByte('\n')
			row(r)
		}
	}
	id := c.b.openEnt(kPre, "", "")
	c.b.plain++
	c.b.write(sb.String())
	c.b.plain--
	c.b.closeEnt(id)
}

// wideTable writes one line per data row: the first cell in bold, then the
// other cells as "Header: value" joined by "; ".
func (c *converter) wideTable(head []string, rows [][]ast.Node) {
	if len(rows) == 0 {
		id := c.b.openEnt(kBold, "", "")
		c.b.write(strings.Join(head, colSep))
		c.b.closeEnt(id)
		return
	}
	for i, r := range rows {
		if i > 0 {
			c.b.setSep("\n")
		}
		c.b.write("• ")
		sep := ""
		for j, cell := range r {
			if c.plainText(cell) == "" {
				continue
			}
			if j == 0 {
				id := c.b.openEnt(kBold, "", "")
				c.inlines(cell)
				c.b.closeEnt(id)
				sep = " — "
				continue
			}
			c.b.write(sep)
			sep = "; "
			if j < len(head) && head[j] != "" {
				c.b.write(head[j] + ": ")
			}
			c.inlines(cell)
		}
	}
}

// pad pads s with spaces to w runes according to the alignment.
func pad(s string, w int, a extast.Alignment) string {
	gap := w - utf8.RuneCountInString(s)
	if gap <= 0 {
		return s
	}
	switch a {
	case extast.AlignRight:
		return strings.Repeat(" ", gap) + s
	case extast.AlignCenter:
		return strings.Repeat(" ", gap/2) + s + strings.Repeat(" ", gap-gap/2)
	default:
		return s + strings.Repeat(" ", gap)
	}
}

// numericColumn reports whether every non-empty body cell of column j looks
// like a number or a sum of money, so it reads better right-aligned.
func numericColumn(body [][]string, j int) bool {
	seen := false
	for _, r := range body {
		s := r[j]
		if s == "" {
			continue
		}
		digit := false
		for _, ch := range s {
			switch {
			case ch >= '0' && ch <= '9':
				digit = true
			case strings.ContainsRune(" \u00a0\u202f.,-−+%₽$€", ch):
			default:
				return false
			}
		}
		if !digit {
			return false
		}
		seen = true
	}
	return seen
}
