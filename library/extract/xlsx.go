package extract

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/xuri/excelize/v2"
)

// extractXLSX reads every sheet with excelize: one page per sheet, the sheet name as a level-1
// heading, then the rows as "A | B | C" lines (trailing empty cells dropped, empty rows skipped).
//
// archive/zip refuses to inflate an entry beyond its declared size, so checking the declared
// sizes against the budget before excelize reads the package bounds the inflated bytes.
func extractXLSX(j *job, data []byte, zr *zip.Reader, b *docBuilder) error {
	f, err := openXLSX(j, data, zr)
	if err != nil {
		return err
	}
	defer f.Close()
	if props, err := f.GetDocProps(); err == nil && props != nil {
		b.title = props.Title
	}
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return malformed("xlsx without sheets", nil)
	}
	for _, sheet := range sheets {
		if err := j.check(); err != nil {
			return err
		}
		b.newPage()
		headed := false
		rows, err := f.Rows(sheet)
		if err != nil {
			continue // chart sheets and the like have no rows
		}
		var lines strings.Builder
		n := 0
		flush := func() error {
			if lines.Len() == 0 {
				return nil
			}
			err := b.add(lines.String(), 0, false)
			lines.Reset()
			return err
		}
		for rows.Next() {
			if n++; n%256 == 0 {
				if err := j.check(); err != nil {
					_ = rows.Close()
					return err
				}
			}
			cols, err := rows.Columns()
			if err != nil {
				_ = rows.Close()
				return malformed(fmt.Sprintf("sheet %q", sheet), err)
			}
			for len(cols) > 0 && strings.TrimSpace(cols[len(cols)-1]) == "" {
				cols = cols[:len(cols)-1]
			}
			if len(cols) == 0 {
				continue
			}
			if !headed {
				headed = true
				if err := b.add(sheet, 1, true); err != nil {
					_ = rows.Close()
					return err
				}
			}
			if lines.Len() > 0 {
				lines.WriteByte('\n')
			}
			for i, c := range cols {
				if i > 0 {
					lines.WriteString(" | ")
				}
				lines.WriteString(oneLine(c))
			}
			if lines.Len() > 64<<10 {
				if err := flush(); err != nil {
					_ = rows.Close()
					return err
				}
			}
		}
		err = rows.Error()
		_ = rows.Close()
		if err != nil {
			return malformed(fmt.Sprintf("sheet %q", sheet), err)
		}
		if err := flush(); err != nil {
			return err
		}
	}
	return nil
}

// openXLSX opens a workbook with excelize once its parts are checked against the limits
// (checkXLSX); the caller closes it.
func openXLSX(j *job, data []byte, zr *zip.Reader) (*excelize.File, error) {
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if total > uint64(j.remaining()) {
			return nil, j.bombErr()
		}
	}
	if err := checkXLSX(j, zr); err != nil {
		return nil, err
	}
	if err := j.inflate(int64(total)); err != nil {
		return nil, err
	}
	lim := max(j.remaining()+int64(total), 1)
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit:    lim,
		UnzipXMLSizeLimit: lim, // keep everything in memory: no temporary files
	})
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		if e := j.check(); e != nil {
			return nil, e
		}
		return nil, malformed("xlsx", err)
	}
	return f, nil
}

// excelize reads a whole workbook into memory, builds trees of its shared strings, styles and
// workbook parts, and copies a sheet's XML before streaming its rows; its decoder keeps a stack
// entry per open element, and it ignores the decoder's errors. So before excelize sees a
// workbook, the declared sizes of its parts are checked against the limits below (from the zip
// directory: nothing is inflated yet), then every XML part is inflated once through the XML
// guard — depth, elements, tag and text sizes, at most 16,384 cells a row — without building
// anything. The limits keep the peak of the largest accepted workbook well under 256 MB
// (docs/benchmarks.md: excelize holds the whole package and leaves garbage of several times a
// sheet while streaming its rows); a sheet of 80,000 rows of 10 cells is about 24 MB of XML.
const (
	maxXLSXXML       = 36 << 20 // all XML parts
	maxXLSXSheet     = 24 << 20 // one worksheet
	maxXLSXStrings   = 8 << 20  // xl/sharedStrings.xml
	maxXLSXPart      = 8 << 20  // any other XML part (styles, workbook, theme, drawings…)
	maxXLSXOther     = 32 << 20 // media and other binary parts, together
	maxXLSXRowCells  = 16384    // Excel's column count
	maxXLSXSharedEls = 400_000  // excelize holds about 300 bytes a shared string
	maxXLSXStyleEls  = 500_000
)

var (
	xlsxSheetLimits   = xmlLimits{depth: 64, elements: 16_000_000, tag: 1 << 20, text: 8 << 20}
	xlsxStringsLimits = xmlLimits{depth: 64, elements: maxXLSXSharedEls, tag: 1 << 20, text: 8 << 20}
	xlsxStylesLimits  = xmlLimits{depth: 64, elements: maxXLSXStyleEls, tag: 1 << 20, text: 1 << 20}
	xlsxPartLimits    = xmlLimits{depth: 128, elements: 1_000_000, tag: 1 << 20, text: 4 << 20}
)

func isXMLPart(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".xml") || strings.HasSuffix(n, ".rels") || strings.HasSuffix(n, ".vml")
}

// xlsxPart returns the declared-size limit and the guard limits of a part.
func xlsxPart(name string) (int64, xmlLimits, bool) {
	n := strings.ToLower(strings.ReplaceAll(name, "\\", "/"))
	switch {
	case n == "xl/sharedstrings.xml":
		return maxXLSXStrings, xlsxStringsLimits, false
	case n == "xl/styles.xml":
		return maxXLSXPart, xlsxStylesLimits, false
	case strings.HasPrefix(n, "xl/worksheets/") && strings.HasSuffix(n, ".xml"):
		return maxXLSXSheet, xlsxSheetLimits, true
	}
	return maxXLSXPart, xlsxPartLimits, false
}

func xlsxTooLarge(what, part string, size uint64, limit int64) error {
	return newErr(ErrTooLarge,
		fmt.Sprintf("Таблица слишком большая для обработки: %s после распаковки занимает %s, а я читаю до %s. Разделите её на несколько файлов или удалите лишние листы и данные.", what, mb(int64(size)), mb(limit)),
		fmt.Sprintf("xlsx %s: %d bytes > %d", part, size, limit), nil)
}

// checkXLSX bounds a workbook before excelize reads it.
func checkXLSX(j *job, zr *zip.Reader) error {
	var xmlTotal, other uint64
	for _, f := range zr.File {
		if !isXMLPart(f.Name) {
			if other += f.UncompressedSize64; other > maxXLSXOther {
				return j.bombErr()
			}
			continue
		}
		limit, _, sheet := xlsxPart(f.Name)
		if f.UncompressedSize64 > uint64(limit) {
			what := "одна из её частей"
			if sheet {
				what = "один лист"
			}
			return xlsxTooLarge(what, f.Name, f.UncompressedSize64, limit)
		}
		if xmlTotal += f.UncompressedSize64; xmlTotal > maxXLSXXML {
			return xlsxTooLarge("её содержимое", "all XML parts", xmlTotal, maxXLSXXML)
		}
	}
	buf := make([]byte, 64<<10)
	for _, f := range zr.File {
		if !isXMLPart(f.Name) {
			continue
		}
		_, lim, sheet := xlsxPart(f.Name)
		g := &xmlGuard{lim: lim, part: f.Name}
		if sheet {
			cells := 0
			g.onStart = func(g *xmlGuard, name []byte) error {
				switch string(name) {
				case "row":
					cells = 0
				case "c":
					if cells++; cells > maxXLSXRowCells {
						return newErr(ErrTooComplex, "", fmt.Sprintf("%s: a row of more than %d cells", g.part, maxXLSXRowCells), errXML)
					}
				}
				return nil
			}
		}
		if err := scanPart(j, f, g, buf); err != nil {
			return err
		}
	}
	return nil
}

// scanPart inflates a part through the guard (archive/zip stops at the declared size).
func scanPart(j *job, f *zip.File, g *xmlGuard, buf []byte) error {
	rc, err := f.Open()
	if err != nil {
		return malformed("xlsx part "+f.Name, err)
	}
	defer rc.Close()
	for {
		if err := j.check(); err != nil {
			return err
		}
		n, err := rc.Read(buf)
		if e := g.feed(buf[:n]); e != nil {
			return e
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return malformed("xlsx part "+f.Name, err)
		}
	}
}
