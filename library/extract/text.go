package extract

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// extractText reads TXT, MD and CSV files: detects the encoding, splits pages at form feeds and
// finds headings (Markdown ATX headings in .md, numbered or upper-case title lines in .txt).
func extractText(j *job, name string, data []byte, format string, b *docBuilder) error {
	s, err := decodeText(data)
	if err != nil {
		if ext(name) == "" || !isTextExt(ext(name)) {
			return newErr(ErrUnknownType, "", "binary content", err)
		}
		return malformed("binary content in a text file", err)
	}
	if format == "csv" {
		if t, ok := csvText(s); ok {
			s = t
		}
	}
	for _, page := range strings.Split(s, "\f") {
		b.newPage()
		if err := textBlocks(j, page, format, b); err != nil {
			return err
		}
	}
	return nil
}

func isTextExt(e string) bool {
	switch e {
	case ".txt", ".text", ".md", ".markdown", ".csv", ".tsv":
		return true
	}
	return false
}

// textBlocks splits a page of plain text into paragraphs (at blank lines) and heading lines.
func textBlocks(j *job, page, format string, b *docBuilder) error {
	para := paragraph{b: b}
	fence := false
	lines := 0
	for len(page) > 0 {
		var line string
		if i := strings.IndexByte(page, '\n'); i >= 0 {
			line, page = page[:i], page[i+1:]
		} else {
			line, page = page, ""
		}
		if lines++; lines%4096 == 0 {
			if err := j.check(); err != nil {
				return err
			}
		}
		line = strings.TrimRight(line, "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			if err := para.flush(); err != nil {
				return err
			}
			para.brk = true
			continue
		}
		level := 0
		switch format {
		case "md":
			if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
				fence = !fence
			} else if !fence {
				var text string
				level, text = mdHeading(trimmed)
				if level > 0 {
					trimmed = text
				}
			}
		case "txt":
			level = guessHeading(trimmed)
		}
		if level > 0 {
			if err := para.flush(); err != nil {
				return err
			}
			if err := b.add(trimmed, level, true); err != nil {
				return err
			}
			para.brk = false
			continue
		}
		para.lines = append(para.lines, line)
	}
	return para.flush()
}

// mdHeading parses an ATX heading ("## Оплата").
func mdHeading(line string) (int, string) {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(line) && line[n] != ' ' && line[n] != '\t' {
		return 0, ""
	}
	text := strings.TrimSpace(line[n:])
	text = strings.TrimSpace(strings.TrimRight(text, "#"))
	if text == "" {
		return 0, ""
	}
	return n, text
}

var (
	reArticle  = regexp.MustCompile(`^(?i:статья|раздел|глава|приложение)\s+(№\s*)?[\dIVXLC]+\.?(\s|$)`)
	reNumbered = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(\S.*)$`)
)

// guessHeading recognises typical title lines of Russian contracts and acts in plain text:
// "Статья 5. Оплата", "1. ПРЕДМЕТ ДОГОВОРА", "1. Предмет договора", "ДОГОВОР ПОСТАВКИ № 15".
// It returns the level, or 0.
func guessHeading(line string) int {
	n := utf8.RuneCountInString(line)
	if n < 3 || n > 100 {
		return 0
	}
	last, _ := utf8.DecodeLastRuneInString(line)
	if strings.ContainsRune(".,;:", last) && !reArticle.MatchString(line) {
		return 0
	}
	if strings.ContainsRune(",;", last) {
		return 0
	}
	letters, upper := letterStats(line)
	if letters < 3 {
		return 0
	}
	if reArticle.MatchString(line) {
		return 1
	}
	if m := reNumbered.FindStringSubmatch(line); m != nil {
		depth := strings.Count(m[1], ".") + 1
		l, u := letterStats(m[2])
		if l >= 3 && u*10 >= l*7 {
			return min(depth, 3)
		}
		first, _ := utf8.DecodeRuneInString(m[2])
		if depth == 1 && unicode.IsUpper(first) && len(strings.Fields(m[2])) <= 6 && last != '.' {
			return 1
		}
		return 0
	}
	nonSpace := 0
	for _, r := range line {
		if !unicode.IsSpace(r) {
			nonSpace++
		}
	}
	if letters >= 4 && upper*10 >= letters*8 && letters*2 >= nonSpace {
		return 1
	}
	return 0
}

func letterStats(s string) (letters, upper int) {
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	return
}

// csvText renders CSV rows as "A | B | C" lines (like XLSX sheets). The delimiter is the most
// frequent of ; , and tab in the first line.
func csvText(s string) (string, bool) {
	first := s
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		first = s[:i]
	}
	delim, best := ',', 0
	for _, d := range []rune{';', ',', '\t', '|'} {
		if c := strings.Count(first, string(d)); c > best {
			delim, best = d, c
		}
	}
	if best == 0 {
		return "", false
	}
	r := csv.NewReader(strings.NewReader(s))
	r.Comma = delim
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	var out strings.Builder
	out.Grow(len(s))
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", false
		}
		for len(rec) > 0 && strings.TrimSpace(rec[len(rec)-1]) == "" {
			rec = rec[:len(rec)-1]
		}
		if len(rec) == 0 {
			continue
		}
		for i, f := range rec {
			if i > 0 {
				out.WriteString(" | ")
			}
			out.WriteString(strings.Join(strings.Fields(f), " "))
		}
		out.WriteByte('\n')
	}
	return out.String(), true
}

var errBinary = errors.New("binary data")

// decodeText detects UTF-8 (with or without BOM), UTF-16 (BOM or a clear zero-byte pattern) and
// the Russian single-byte encodings (windows-1251, KOI8-R, CP866), and rejects binary data.
func decodeText(data []byte) (string, error) {
	var s string
	switch {
	case bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")):
		s = string(data[3:])
	case bytes.HasPrefix(data, []byte("\xFF\xFE")):
		s = utf16String(data[2:], false)
	case bytes.HasPrefix(data, []byte("\xFE\xFF")):
		s = utf16String(data[2:], true)
	default:
		if be, ok := utf16NoBOM(data); ok {
			s = utf16String(data, be)
		} else if utf8.Valid(data) {
			s = string(data)
		} else {
			if bytes.IndexByte(data, 0) >= 0 {
				return "", errBinary
			}
			s = decodeSingleByte(data)
		}
	}
	if !mostlyText(s) {
		return "", errBinary
	}
	return s, nil
}

func utf16String(b []byte, bigEndian bool) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		if bigEndian {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u))
}

// utf16NoBOM recognises BOM-less UTF-16 of Latin or Cyrillic text: one byte of each pair is
// almost always 0x00 or 0x04 and the other is not.
func utf16NoBOM(b []byte) (bigEndian, ok bool) {
	if len(b) < 4 || len(b)%2 != 0 {
		return false, false
	}
	n := min(len(b), 8192) / 2
	var hiEven, hiOdd int
	for i := 0; i < n; i++ {
		if e := b[2*i]; e == 0 || e == 4 {
			hiEven++
		}
		if o := b[2*i+1]; o == 0 || o == 4 {
			hiOdd++
		}
	}
	switch {
	case hiOdd*100 >= n*85 && hiEven*100 <= n*30:
		return false, true
	case hiEven*100 >= n*85 && hiOdd*100 <= n*30:
		return true, true
	}
	return false, false
}

// decodeSingleByte picks the Russian code page under which the text looks most like Russian.
func decodeSingleByte(data []byte) string {
	best, bestScore := "", -1<<62
	for _, cm := range []*charmap.Charmap{charmap.Windows1251, charmap.KOI8R, charmap.CodePage866} {
		s, err := cm.NewDecoder().Bytes(data)
		if err != nil {
			continue
		}
		score := russianScore(s)
		if score > bestScore {
			best, bestScore = string(s), score
		}
	}
	return best
}

func russianScore(s []byte) int {
	score := 0
	n := 0
	for len(s) > 0 && n < 65536 {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		n++
		switch {
		case strings.ContainsRune("оеаинтсрвл", r):
			score += 3
		case r >= 'а' && r <= 'я' || r == 'ё':
			score++
		case r >= 'А' && r <= 'Я' || r == 'Ё':
		case r < 0x80:
		default:
			score -= 3
		}
	}
	return score
}

// looksLikeText is the sniffing test for files without a known extension.
func looksLikeText(data []byte) bool {
	_, err := decodeText(data[:min(len(data), 64<<10)&^1])
	return err == nil
}

// mostlyText rejects strings with NULs or more than 1% of control characters.
func mostlyText(s string) bool {
	total, bad := 0, 0
	for _, r := range s {
		total++
		if r == 0 {
			return false
		}
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' || r == 0x7F {
			bad++
		}
	}
	return bad*100 <= total
}
