// Package extract turns documents that users send to the bot (PDF with a text layer, DOCX, XLSX,
// TXT/MD/CSV) into normalised text with page and heading information, and splits that text into
// overlapping chunks for retrieval.
//
// Files come from strangers, so every step is bounded: the input size, the inflated size of
// zip-based formats and PDF streams (counted while reading), the amount of extracted text and the
// processing time. Panics inside third-party parsers are recovered and reported as ErrMalformed.
// Refusals are sentinel errors (ErrTooLarge, ErrScanned, …) with Russian explanations from
// UserMessage.
package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/ru"
)

// Limits bounds the work Extract does for one file. Zero fields take their defaults.
type Limits struct {
	MaxBytes        int64         // input size, default 20 MB (Telegram's bot download limit)
	MaxUncompressed int64         // total inflated bytes for zip-based formats and PDF streams, default 100 MB
	MaxChars        int           // extracted text in runes, default 5,000,000
	Timeout         time.Duration // default 30s, counted once a slot is held; the caller's context is honoured too
	// Slots bounds the extractions running at once (shared by the callers of one process); an
	// extraction waits for a slot with the caller's context. nil = no bound.
	Slots *Slots
}

// Default limits.
const (
	DefaultMaxBytes        = 20 << 20
	DefaultMaxUncompressed = 100 << 20
	DefaultMaxChars        = 5_000_000
	DefaultTimeout         = 30 * time.Second
)

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxUncompressed <= 0 {
		l.MaxUncompressed = DefaultMaxUncompressed
	}
	if l.MaxChars <= 0 {
		l.MaxChars = DefaultMaxChars
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	return l
}

// Page is the text of one page. Number is 1-based. A PDF has its real pages; DOCX and text files
// have one page per explicit page break (form feed); XLSX has one page per sheet.
type Page struct {
	Number int
	Text   string
}

// Heading is a heading found in the document: its page, its offset in runes within that page's
// Text, its level (1 = top) and its text.
type Heading struct {
	Page   int
	Offset int
	Level  int
	Text   string
}

// Document is the extracted, normalised text of a file.
type Document struct {
	Title    string // from metadata, else the first heading, else the file name without extension
	Format   string // "pdf", "docx", "xlsx", "txt", "md", "csv"
	Pages    []Page
	Headings []Heading
	Chars    int // runes of all pages
}

// pageSep separates pages in the concatenated document text (see Document.Text).
const pageSep = "\n\n"

// Text returns the concatenated document text that Chunk.Start refers to: the non-empty pages in
// order, separated by a blank line.
func (d Document) Text() string {
	var b strings.Builder
	for _, p := range d.Pages {
		if p.Text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(pageSep)
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

var (
	errTimeout      = errors.New("extract: timeout")
	errStreamTooBig = errors.New("extract: part inflates beyond its own limit")
)

// Extract reads a document and returns its normalised text. The format is found by content
// sniffing first (%PDF, a zip with [Content_Types].xml and a Word or Excel part), then by the
// extension of name. The returned error matches one of the Err* reasons (or is ctx's error when
// the caller cancels or its deadline passes); UserMessage explains it in Russian. When
// Limits.Timeout runs out the error matches both ErrTooLarge and context.DeadlineExceeded.
//
// Parsing runs in a separate goroutine so that Extract returns on time even if a parser is slow;
// that goroutine notices the cancellation at its next read and stops soon after. It only reads
// data, but the caller should not modify data while such a goroutine may still run.
func Extract(ctx context.Context, name string, data []byte, l Limits) (Document, error) {
	return runJob(ctx, data, l, func(j *job) (Document, error) { return j.run(name, data) })
}

// runJob runs work on data within the limits l: the input size, a slot, the timeout, panics
// recovered as ErrMalformed. work runs in a goroutine of its own so that the caller gets its
// answer on time (see Extract); its result is the zero T when it fails.
func runJob[T any](ctx context.Context, data []byte, l Limits, work func(j *job) (T, error)) (T, error) {
	var zero T
	l = l.withDefaults()
	if int64(len(data)) > l.MaxBytes {
		return zero, newErr(ErrTooLarge,
			fmt.Sprintf("Файл слишком большой (%s): я принимаю документы до %s. Разделите его на части или пришлите только нужные страницы.", mb(int64(len(data))), mb(l.MaxBytes)),
			fmt.Sprintf("%d bytes > %d", len(data), l.MaxBytes), nil)
	}
	if err := l.Slots.acquire(ctx); err != nil {
		return zero, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, l.Timeout, errTimeout)
	defer cancel()
	j := &job{ctx: ctx, l: l}
	// Runs when the deadline passes or the caller cancels, and also after cancel() below, so
	// that a parser still running in the background always learns to stop.
	context.AfterFunc(ctx, func() { j.stopped.Store(true) })
	if ctx.Err() != nil {
		l.Slots.release()
		return zero, j.ctxErr()
	}

	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer l.Slots.release()
		if l.Slots != nil && l.Slots.onRun != nil {
			l.Slots.onRun()
		}
		var r result
		defer func() { ch <- r }()
		defer func() {
			if p := recover(); p != nil {
				r = result{err: malformed(fmt.Sprintf("parser panic: %v", p), nil)}
			}
		}()
		r.v, r.err = work(j)
		if r.err != nil {
			r.v = zero
		}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		select {
		case r := <-ch:
			return r.v, r.err
		default:
		}
		return zero, j.ctxErr()
	}
}

// job is the state of one extraction: limits, cancellation and the inflated-bytes budget. It is
// used by the worker goroutine only, except stopped.
type job struct {
	ctx      context.Context
	l        Limits
	stopped  atomic.Bool
	inflated int64
	failure  error // first limit error seen (sticky), so that errors swallowed by parsers still count
}

func (j *job) ctxErr() error {
	if errors.Is(context.Cause(j.ctx), errTimeout) {
		return newErr(ErrTooLarge,
			fmt.Sprintf("Документ слишком большой или сложный: за %s я не успел его прочитать. Разделите его на части или пересохраните в PDF или DOCX.", seconds(j.l.Timeout)),
			"timeout "+j.l.Timeout.String(), context.DeadlineExceeded)
	}
	return j.ctx.Err()
}

func seconds(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s < 1 {
		s = 1
	}
	return fmt.Sprintf("%d с", s)
}

// check reports cancellation or an earlier limit failure.
func (j *job) check() error {
	if j.failure != nil {
		return j.failure
	}
	if j.stopped.Load() {
		j.failure = j.ctxErr()
		return j.failure
	}
	return nil
}

func (j *job) bombErr() error {
	return newErr(ErrBomb,
		fmt.Sprintf("Файл распаковывается больше чем в %s, такие файлы я не обрабатываю. Проверьте документ или разделите его на части.", mb(j.l.MaxUncompressed)),
		fmt.Sprintf("inflated beyond %d bytes", j.l.MaxUncompressed), nil)
}

// inflate charges n inflated bytes to the budget.
func (j *job) inflate(n int64) error {
	j.inflated += n
	if j.inflated > j.l.MaxUncompressed {
		if j.failure == nil {
			j.failure = j.bombErr()
		}
		return j.failure
	}
	return nil
}

func (j *job) remaining() int64 { return j.l.MaxUncompressed - j.inflated }

// budgetReader counts inflated bytes against the job budget and an optional per-stream limit
// while they are read, and stops on cancellation.
type budgetReader struct {
	j     *job
	r     io.Reader
	limit int64 // per-stream bytes left; <0 = no per-stream limit
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if err := b.j.check(); err != nil {
		return 0, err
	}
	max := b.j.remaining() + 1
	if b.limit >= 0 && b.limit+1 < max {
		max = b.limit + 1
	}
	if int64(len(p)) > max {
		p = p[:max]
	}
	n, err := b.r.Read(p)
	if b.limit >= 0 {
		b.limit -= int64(n)
		if b.limit < 0 {
			return n, errStreamTooBig
		}
	}
	if e := b.j.inflate(int64(n)); e != nil {
		return n, e
	}
	return n, err
}

func (j *job) tooManyChars() error {
	return newErr(ErrTooLarge,
		fmt.Sprintf("В документе слишком много текста (больше %s). Разделите его на части.", ru.Count(j.l.MaxChars, "символа", "символов", "символов")),
		fmt.Sprintf("more than %d runes", j.l.MaxChars), nil)
}

func (j *job) run(name string, data []byte) (Document, error) {
	format, zr, err := sniff(name, data)
	if err != nil {
		return Document{}, err
	}
	b := &docBuilder{j: j, format: format}
	switch format {
	case "pdf":
		err = extractPDF(j, data, b)
	case "docx":
		err = extractDOCX(j, zr, b)
	case "xlsx":
		err = extractXLSX(j, data, zr, b)
	default:
		err = extractText(j, name, data, format, b)
	}
	if err != nil {
		return Document{}, err
	}
	return b.finish(name)
}

// ---- sniffing ----

var (
	sigOLE  = []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")
	encInfo = []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00i\x00o\x00n\x00I\x00n\x00f\x00o\x00")
)

const (
	msgOldOffice = "Это файл старого формата Word или Excel (.doc/.xls), его я не читаю. Сохраните его как DOCX или XLSX и пришлите снова."
	msgImage     = "Это изображение: распознавание текста я не выполняю. Пришлите PDF с текстом или DOCX."
	msgArchive   = "Это архив: пришлите документы из него по одному."
	msgRTF       = "Формат RTF я не читаю: сохраните документ как DOCX или PDF и пришлите снова."
	msgOffice    = "Этот документ Office я не читаю: пришлите DOCX, XLSX или PDF."
)

func ext(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	return strings.ToLower(path.Ext(path.Base(name)))
}

// sniff finds the format by content first, then by extension. For zip formats it returns the
// opened archive.
func sniff(name string, data []byte) (string, *zip.Reader, error) {
	e := ext(name)
	head := data
	if len(head) > 1024 {
		head = head[:1024]
	}
	switch {
	case bytes.Contains(head, []byte("%PDF-")):
		return "pdf", nil, nil
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return "", nil, malformed("zip", err)
		}
		if len(zr.File) > maxZipEntries {
			return "", nil, malformed(fmt.Sprintf("zip with %d entries", len(zr.File)), nil)
		}
		has := func(n string) bool { return zipFile(zr, n) != nil }
		switch {
		case has("word/document.xml") || (has("[Content_Types].xml") && e == ".docx" && mainPart(zr) != ""):
			return "docx", zr, nil
		case has("xl/workbook.xml"):
			return "xlsx", zr, nil
		case has("[Content_Types].xml"):
			return "", nil, newErr(ErrUnknownType, msgOffice, "office package without a Word or Excel part", nil)
		case e == ".docx" || e == ".xlsx":
			return "", nil, malformed("zip without "+e+" parts", nil)
		}
		return "", nil, newErr(ErrUnknownType, msgArchive, "zip archive", nil)
	case bytes.HasPrefix(data, sigOLE):
		if bytes.Contains(data, encInfo) {
			return "", nil, newErr(ErrEncrypted, "", "encrypted OOXML (CFB container)", nil)
		}
		return "", nil, newErr(ErrUnknownType, msgOldOffice, "OLE compound file", nil)
	case bytes.HasPrefix(data, []byte("\x89PNG")), bytes.HasPrefix(data, []byte("\xFF\xD8\xFF")),
		bytes.HasPrefix(data, []byte("GIF8")), bytes.HasPrefix(data, []byte("II*\x00")),
		bytes.HasPrefix(data, []byte("MM\x00*")),
		len(data) > 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP",
		len(data) > 12 && string(data[4:8]) == "ftyp" && (string(data[8:12]) == "heic" || string(data[8:12]) == "heix" || string(data[8:12]) == "mif1"):
		return "", nil, newErr(ErrUnknownType, msgImage, "image", nil)
	case bytes.HasPrefix(data, []byte("Rar!")), bytes.HasPrefix(data, []byte("7z\xBC\xAF")),
		bytes.HasPrefix(data, []byte("\x1F\x8B")):
		return "", nil, newErr(ErrUnknownType, msgArchive, "archive", nil)
	case bytes.HasPrefix(data, []byte("{\\rtf")):
		return "", nil, newErr(ErrUnknownType, msgRTF, "rtf", nil)
	}
	switch e {
	case ".pdf", ".docx", ".xlsx":
		return "", nil, malformed("content is not "+e, nil)
	case ".doc", ".xls":
		return "", nil, newErr(ErrUnknownType, msgOldOffice, e, nil)
	case ".md", ".markdown":
		return "md", nil, nil
	case ".csv", ".tsv":
		return "csv", nil, nil
	case ".txt", ".text":
		return "txt", nil, nil
	case ".png", ".jpg", ".jpeg", ".gif", ".tif", ".tiff", ".bmp", ".webp", ".heic":
		return "", nil, newErr(ErrUnknownType, msgImage, e, nil)
	case ".zip", ".rar", ".7z", ".gz":
		return "", nil, newErr(ErrUnknownType, msgArchive, e, nil)
	}
	if len(data) == 0 || looksLikeText(data) {
		return "txt", nil, nil
	}
	return "", nil, newErr(ErrUnknownType, "", "unknown binary "+e, nil)
}

// ---- building the document ----

type block struct {
	text  string
	level int  // heading level, 0 = body
	para  bool // preceded by a blank line
}

type docBuilder struct {
	j        *job
	format   string
	title    string // from metadata
	pages    [][]block
	rawRunes int
}

func (b *docBuilder) newPage() { b.pages = append(b.pages, nil) }

// paragraph gathers the lines of one body paragraph until flush adds them to b as one block.
type paragraph struct {
	b     *docBuilder
	lines []string
	brk   bool // it follows a paragraph break
}

func (p *paragraph) flush() error {
	if len(p.lines) == 0 {
		return nil
	}
	err := p.b.add(strings.Join(p.lines, "\n"), 0, p.brk)
	p.lines, p.brk = p.lines[:0], false
	return err
}

// add appends a block to the current page, enforcing the text limit while reading.
func (b *docBuilder) add(text string, level int, para bool) error {
	if err := b.j.check(); err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	b.rawRunes += utf8.RuneCountInString(text)
	if b.rawRunes > 2*b.j.l.MaxChars+65536 {
		return b.j.tooManyChars()
	}
	if len(b.pages) == 0 {
		b.newPage()
	}
	p := &b.pages[len(b.pages)-1]
	*p = append(*p, block{text: text, level: level, para: para})
	return nil
}

func (b *docBuilder) finish(name string) (Document, error) {
	d := Document{Format: b.format}
	for i, blocks := range b.pages {
		var sb strings.Builder
		n := 0
		prev := ""
		for _, bl := range blocks {
			t := Normalize(bl.text)
			if bl.level > 0 {
				t = oneLine(t)
			}
			if t == "" {
				continue
			}
			if sb.Len() > 0 {
				sep := "\n"
				// A blank line also where a single line break would let Normalize join a
				// hyphenated word across the blocks: page texts stay normalised.
				if bl.para || bl.level > 0 || hyphenJoin([]byte(prev), []byte(t)) {
					sep = "\n\n"
				}
				sb.WriteString(sep)
				n += len(sep)
			}
			if bl.level > 0 {
				d.Headings = append(d.Headings, Heading{Page: i + 1, Offset: n, Level: bl.level, Text: t})
			}
			sb.WriteString(t)
			prev = t
			n += utf8.RuneCountInString(t)
			if d.Chars+n > b.j.l.MaxChars {
				return Document{}, b.j.tooManyChars()
			}
		}
		d.Pages = append(d.Pages, Page{Number: i + 1, Text: sb.String()})
		d.Chars += n
	}
	if d.Chars == 0 {
		return Document{}, newErr(ErrEmpty, "", b.format+" without text", nil)
	}
	d.Title = cleanTitle(b.title)
	for _, h := range d.Headings {
		if d.Title != "" {
			break
		}
		if !stampHeading.MatchString(strings.TrimSpace(h.Text)) && !genericSheet.MatchString(strings.TrimSpace(h.Text)) {
			d.Title = cleanTitle(h.Text) // «УТВЕРЖДЕНО» above a policy is its approval, not its title
		}
	}
	if d.Title == "" {
		base := path.Base(strings.ReplaceAll(name, "\\", "/"))
		d.Title = cleanTitle(strings.TrimSuffix(base, path.Ext(base)))
	}
	if d.Title == "" {
		d.Title = "Документ"
	}
	return d, nil
}

// oneLine joins the lines of s with spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// stampHeading is a heading that is no document's title: an approval stamp, a page number.
// genericSheet: a spreadsheet's sheet named as the program names a new one («Лист1», «Sheet1»):
// no title — the file's name says more.
var genericSheet = regexp.MustCompile(`(?i)^(лист|sheet|таблица|list)\s*\d*$`)

var stampHeading = regexp.MustCompile(`(?i)^(утверждено|утверждаю|согласовано|принято|введено\s+в\s+действие|(страница|стр\.?|лист)\s*\d+(\s*(из|/)\s*\d+)?)\s*[.:]?$`)

// cleanTitle normalises a title, drops garbage (undecodable metadata) and defangs what would
// render as a link: the uploader chose every source of it (the file's name, its metadata, its
// first heading), and the bot shows it to the whole group.
func cleanTitle(s string) string {
	s = oneLine(Normalize(s))
	if s == "" || strings.ContainsRune(s, utf8.RuneError) {
		return ""
	}
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			letters++
		}
	}
	if letters == 0 {
		return ""
	}
	return ru.Truncate(Defang(s), 200)
}

// IsImage reports whether a file is a picture (JPEG, PNG, GIF, TIFF, BMP, WebP, HEIC) by its
// content or, failing that, its name: what recognition (library/ocr) reads instead of
// extraction.
func IsImage(name string, data []byte) bool {
	_, _, err := sniff(name, data)
	var e *extractError
	return errors.As(err, &e) && e.msg == msgImage
}
