package reconcile

// A photo or a scan of a counterparty's act: its recognised words (library/ocr's boxes) laid out
// as a PDF's runs, so that the table is read by where its cells stand, as a PDF's is. The words
// of a recognised line that stand a word's space apart are one cell; a figure is mended only
// where its shape leaves no doubt (library/primary's rules), never guessed: an amount that still
// does not read as one makes the act unreadable, with the line named.

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/library/ocr"
	"github.com/finbot/finbot/library/primary"
)

// formatScan is the layout of a photo or a scan of an act: its recognised words as a PDF's runs.
const formatScan = "scan"

// Recognizer reads photos and scanned PDFs with the words' boxes; *ocr.Engine satisfies it.
type Recognizer interface {
	Image(ctx context.Context, data []byte) (ocr.Page, error)
	PDF(ctx context.Context, data []byte) ([]ocr.Page, bool, error)
}

// ScanLayout lays out recognised pages as a PDF's: each cell a run, y from the page's bottom.
func ScanLayout(pages []ocr.Page) extract.Layout {
	l := extract.Layout{Format: formatScan}
	for i, p := range pages {
		lp := extract.LaidPage{Number: i + 1}
		var line []ocr.Word
		flush := func() {
			lp.Runs = append(lp.Runs, scanRuns(p.Height, line)...)
			line = line[:0]
		}
		for _, w := range p.Boxes {
			if len(line) > 0 && line[0].Line != w.Line {
				flush()
			}
			line = append(line, w)
		}
		flush()
		l.Pages = append(l.Pages, lp)
	}
	return l
}

// scanRuns are one recognised line's cells: its words left to right, joined while they stand
// a word's space apart (less than one and a half times the line's height; a table's columns
// stand further apart), all on the line's baseline.
func scanRuns(height int, ws []ocr.Word) []extract.Run {
	ws = slices.DeleteFunc(slices.Clone(ws), noise)
	if len(ws) == 0 {
		return nil
	}
	slices.SortStableFunc(ws, func(a, b ocr.Word) int { return cmp.Compare(a.Left, b.Left) })
	hs := make([]int, 0, len(ws))
	bottoms := make([]int, 0, len(ws))
	for _, w := range ws {
		hs = append(hs, w.Height)
		bottoms = append(bottoms, w.Top+w.Height)
	}
	slices.Sort(hs)
	slices.Sort(bottoms)
	size := float64(max(hs[len(hs)/2], 1))
	y := float64(height - bottoms[len(bottoms)/2])
	var out []extract.Run
	var words []string
	var x0, x1 float64
	emit := func() {
		if len(words) > 0 {
			out = append(out, extract.Run{X0: x0, X1: x1, Y: y, Size: size, Text: mendCell(strings.Join(words, " "))})
		}
		words = words[:0]
	}
	for _, w := range ws {
		left, right := float64(w.Left), float64(w.Left+w.Width)
		if len(words) > 0 && left-x1 >= 1.5*size {
			emit()
		}
		if len(words) == 0 {
			x0 = left
		}
		words = append(words, w.Text)
		x1 = max(x1, right)
	}
	emit()
	return out
}

// noise is a recognised speck: a word of no letter or digit («|», «.», «—»), or one letter read
// with little confidence («р» off a table's rule).
func noise(w ocr.Word) bool {
	t := strings.TrimSpace(w.Text)
	if !strings.ContainsFunc(t, func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("№-–—", r)
	}) {
		return true
	}
	return utf8.RuneCountInString(t) == 1 && !unicode.IsDigit([]rune(t)[0]) && t != "№" && w.Conf < 70
}

// splitThousands: «1930 644,06» — the first space of a figure missed; the digits leave no doubt.
var splitThousands = regexp.MustCompile(`^(\d{4,})((?: \d{3})*,\d{2})$`)

// mendCell is a cell's text with its figures mended word by word as library/primary mends them;
// a dash between two dates stays.
func mendCell(s string) string {
	var ws []string
	for _, w := range strings.Fields(s) {
		if m := primary.Normalize(w); m != "" {
			ws = append(ws, m)
		} else if strings.ContainsAny(w, "-–—") {
			ws = append(ws, "-")
		}
	}
	s = strings.Join(ws, " ")
	if m := splitThousands.FindStringSubmatch(s); m != nil {
		head := m[1]
		var b strings.Builder
		for i, r := range head {
			if i > 0 && (len(head)-i)%3 == 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
		}
		s = b.String() + m[2]
	}
	return s
}

// recognise reads a photo (a file the layout reader refused as an image) or a scanned PDF
// (refused as having no text layer) with the OCR, as laid out; scanned is false for any other
// file, and for a picture the OCR cannot read (the documents' receipt has said why).
func (c *Comparer) recognise(ctx context.Context, data []byte, refused error) (l extract.Layout, scanned bool, err error) {
	if c.opts.OCR == nil {
		return extract.Layout{}, false, nil
	}
	var pages []ocr.Page
	switch {
	case errors.Is(refused, extract.ErrScanned):
		pages, _, err = c.opts.OCR.PDF(ctx, data)
	case isImage(data):
		var p ocr.Page
		p, err = c.opts.OCR.Image(ctx, data)
		pages = []ocr.Page{p}
	default:
		return extract.Layout{}, false, nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return extract.Layout{}, false, ctx.Err()
		}
		return extract.Layout{}, false, nil
	}
	return ScanLayout(pages), true, nil
}

// isImage: a picture the OCR reads (PNG, JPEG, TIFF, GIF, BMP, WebP).
func isImage(b []byte) bool {
	for _, sig := range []string{"\x89PNG", "\xFF\xD8\xFF", "II*\x00", "MM\x00*", "GIF8", "BM"} {
		if bytes.HasPrefix(b, []byte(sig)) {
			return true
		}
	}
	return len(b) > 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP"
}
