package tgmd

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// TableWidth is the widest table line, in runes, that Convert writes as an
// aligned pre block: what a 360-pixel phone shows of a monospace line. A
// wider table has its text columns narrowed, their cells wrapped onto
// continuation lines (minTextWidth at least, maxCellLines lines, then cut with
// «…»); a table that cannot fit even so becomes one line per row.
const TableWidth = 32

const (
	minTextWidth = 8
	maxCellLines = 2
)

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
	width := c.width
	if width <= 0 {
		width = TableWidth
	}
	if fitted, ok := fitWidths(head, body, widths, width); ok {
		c.narrowTable(t, head, body, fitted)
	} else {
		c.wideTable(head, rows)
	}
}

// fitWidths narrows the text columns of a table whose lines are wider than width: the widest
// text column first, none below minTextWidth (or its own width); numbers are never narrowed. ok
// is false when the table cannot fit.
func fitWidths(head []string, body [][]string, widths []int, width int) ([]int, bool) {
	out := append([]int(nil), widths...)
	total := utf8.RuneCountInString(colSep) * (len(out) - 1)
	for _, w := range out {
		total += w
	}
	// a header is never cut: it says what the column is
	floor := make([]int, len(out))
	for j := range floor {
		floor[j] = minTextWidth
		if j < len(head) {
			floor[j] = max(floor[j], utf8.RuneCountInString(head[j]))
		}
	}
	for total > width {
		widest := -1
		for j, w := range out {
			if len(body) > 0 && w > floor[j] && !numericColumn(body, j) && (widest < 0 || w > out[widest]) {
				widest = j
			}
		}
		if widest < 0 {
			return nil, false
		}
		cut := min(total-width, out[widest]-floor[widest])
		out[widest] -= cut
		total -= cut
	}
	return out, true
}

// wrapCell cuts s into lines of at most w runes, at spaces where it can, at most maxCellLines
// of them, the last cut with «…» when s does not fit.
func wrapCell(s string, w int) []string {
	var lines []string
	rest := []rune(s)
	for len(rest) > w && len(lines) < maxCellLines-1 {
		cut := w // a word longer than the column is cut
		for i := w; i > 0; i-- {
			if rest[i] == ' ' {
				cut = i
				break
			}
		}
		lines = append(lines, strings.TrimRight(string(rest[:cut]), " "))
		rest = []rune(strings.TrimLeft(string(rest[cut:]), " "))
	}
	if len(rest) > w {
		rest = append(rest[:w-1], '…')
	}
	return append(lines, string(rest))
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
		wrapped := make([][]string, len(cells))
		height := 1
		for j, s := range cells {
			wrapped[j] = wrapCell(s, widths[j])
			height = max(height, len(wrapped[j]))
		}
		for k := range height {
			if k > 0 {
				sb.WriteByte('\n')
			}
			var line strings.Builder
			for j := range cells {
				if j > 0 {
					line.WriteString(colSep)
				}
				s := ""
				if k < len(wrapped[j]) {
					s = wrapped[j][k]
				}
				line.WriteString(pad(s, widths[j], align[j]))
			}
			sb.WriteString(strings.TrimRight(line.String(), " "))
		}
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
