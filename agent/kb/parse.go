package kb

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of one import. They keep a mistaken upload (a database dump, a
// spreadsheet with a million empty rows) from eating the bot's memory.
const (
	MaxInputBytes   = 20 << 20 // the whole CSV file
	MaxRows         = 10_000   // data rows, the header not counted
	MaxTitleRunes   = 300
	MaxContentRunes = 100_000
)

// maxReported is how many problems ParseError.Error lists before summing up the rest.
const maxReported = 20

// Errors that reject a whole file; match them with errors.Is. Their text is
// for logs: a caller that shows it to a user should say it in its own words.
var (
	// ErrFormat means the input is not a knowledge base CSV: not UTF-8, no
	// header or a header with missing or unknown columns, or broken quoting.
	ErrFormat = errors.New("kb: not a knowledge base CSV")
	// ErrTooLarge means the input exceeds MaxInputBytes or MaxRows.
	ErrTooLarge = errors.New("kb: knowledge base too large")
)

// ParseError lists the rows Parse skipped and why. Each problem reads
// "строка N: …", where N counts rows as a spreadsheet does (the header is
// row 1), so it can be shown to the person who maintains the file.
type ParseError struct {
	Problems []string
}

// Error joins the first 20 problems, one per line, and says how many more
// there are.
func (e *ParseError) Error() string {
	if len(e.Problems) <= maxReported {
		return strings.Join(e.Problems, "\n")
	}
	return strings.Join(e.Problems[:maxReported], "\n") +
		fmt.Sprintf("\n… и ещё %d", len(e.Problems)-maxReported)
}

// columns are the header names, in the order of the fields of a record after mapping.
var columns = [...]string{"title", "content", "topic", "jurisdiction", "updated_at"}

const (
	colTitle = iota
	colContent
	colTopic
	colJurisdiction
	colUpdated
)

var bom = []byte("\uFEFF")

// Parse reads a whole knowledge base CSV. When every row is fine it returns
// the articles in file order and a nil error. When some rows are bad it
// returns the good articles and a *ParseError describing the bad ones, and
// the caller decides whether a partial import is acceptable. A file that
// cannot be read at all yields no articles and an error matching ErrFormat
// or ErrTooLarge. Rows whose cells are all blank, as Excel leaves at the end
// of a sheet, are skipped silently.
func Parse(r io.Reader) ([]Article, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("kb: read: %w", err)
	}
	if len(data) > MaxInputBytes {
		return nil, fmt.Errorf("%w: more than %d MB", ErrTooLarge, MaxInputBytes>>20)
	}
	data = bytes.TrimPrefix(data, bom)
	if line := invalidUTF8Line(data); line > 0 {
		return nil, fmt.Errorf("%w: line %d is not valid UTF-8 (export the sheet as «CSV UTF-8»)", ErrFormat, line)
	}

	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = separator(data)
	cr.LazyQuotes = false
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: empty input", ErrFormat)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: header: %w", ErrFormat, err)
	}
	index, err := mapHeader(header)
	if err != nil {
		return nil, err
	}
	cr.FieldsPerRecord = len(header) // every row must have exactly the header's columns

	v := validator{seen: make(map[string]int)}
	for row, count := 2, 0; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if count++; count > MaxRows {
			return nil, fmt.Errorf("%w: more than %d rows", ErrTooLarge, MaxRows)
		}
		if errors.Is(err, csv.ErrFieldCount) {
			v.problem(row, "число столбцов %d, а в заголовке %d", len(rec), len(header))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		var fields [len(columns)]string
		for i, col := range index {
			fields[i] = rec[col]
		}
		v.row(row, fields)
	}
	if len(v.problems) > 0 {
		return v.articles, &ParseError{Problems: v.problems}
	}
	return v.articles, nil
}

// separator returns ';' when the header line has semicolons and no commas
// (Excel's CSV in the Russian locale) and ',' otherwise.
func separator(data []byte) rune {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if bytes.ContainsRune(line, ';') && !bytes.ContainsRune(line, ',') {
		return ';'
	}
	return ','
}

// invalidUTF8Line returns the 1-based line of the first invalid UTF-8
// sequence in data, or 0 if data is valid. A file that is not UTF-8 is
// almost always a Windows-1251 export, so the whole file is rejected rather
// than its rows one by one.
func invalidUTF8Line(data []byte) int {
	if utf8.Valid(data) {
		return 0
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return bytes.Count(data[:i], []byte("\n")) + 1
		}
		i += size
	}
	return 0 // unreachable: utf8.Valid said otherwise
}

// mapHeader returns, for each entry of columns, the position of that column
// in the header. Names are trimmed and compared case-insensitively.
func mapHeader(header []string) ([len(columns)]int, error) {
	var index [len(columns)]int
	found := make(map[string]bool, len(header))
	var unknown, dup []string
	for pos, name := range header {
		name = strings.ToLower(strings.TrimSpace(name))
		i := slices.Index(columns[:], name)
		switch {
		case i < 0:
			unknown = append(unknown, strconv.Quote(name))
		case found[name]:
			dup = append(dup, strconv.Quote(name))
		default:
			found[name] = true
			index[i] = pos
		}
	}
	var missing []string
	for _, name := range columns {
		if !found[name] {
			missing = append(missing, strconv.Quote(name))
		}
	}
	var why []string
	if len(missing) > 0 {
		why = append(why, "missing columns "+strings.Join(missing, ", "))
	}
	if len(unknown) > 0 {
		why = append(why, "unknown columns "+strings.Join(unknown, ", "))
	}
	if len(dup) > 0 {
		why = append(why, "repeated columns "+strings.Join(dup, ", "))
	}
	if len(why) > 0 {
		return index, fmt.Errorf("%w: header: %s (want %s)", ErrFormat, strings.Join(why, "; "), strings.Join(columns[:], ","))
	}
	return index, nil
}
