package extract

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// extractXLSX reads every sheet with excelize: one page per sheet, the sheet name as a level-1
// heading, then the rows as "A | B | C" lines (trailing empty cells dropped, empty rows skipped).
//
// archive/zip refuses to inflate an entry beyond its declared size, so checking the declared
// sizes against the budget before excelize reads the package bounds the inflated bytes.
func extractXLSX(j *job, data []byte, zr *zip.Reader, b *docBuilder) error {
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if total > uint64(j.remaining()) {
			return j.bombErr()
		}
	}
	if err := j.inflate(int64(total)); err != nil {
		return err
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
			return e
		}
		return malformed("xlsx", err)
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
