// Package ocr reads the text of photos and scans of documents with Tesseract (Russian and
// English), run as the `tesseract` command — no cgo, so the binary stays static — and renders
// scanned PDFs to images with poppler's `pdftoppm`. Everything it runs is bounded: the image's
// pixels before anything is started, the pages of a PDF and their size, the time of each run
// through ctx, and one run at a time per Engine (Options.Slots). The commands run with a clean
// environment, read their input from a private temporary folder that is removed afterwards, and
// their output is read as text only.
//
// Without the commands the Engine still exists: Missing names the Debian packages to install,
// and every call returns ErrUnavailable with that list in its Russian message (UserMessage).
package ocr

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // image.DecodeConfig of GIF
	_ "image/jpeg" // … of JPEG
	_ "image/png"  // … of PNG
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "golang.org/x/image/bmp"  // … of BMP
	_ "golang.org/x/image/tiff" // … of TIFF
	_ "golang.org/x/image/webp" // … of WebP
)

// Errors of recognition; UserMessage says each in Russian.
var (
	// ErrUnavailable: tesseract, its Russian data or pdftoppm is not installed.
	ErrUnavailable = errors.New("ocr: not installed")
	// ErrTooLarge: more pixels than Options.MaxPixels, or a file larger than MaxBytes.
	ErrTooLarge = errors.New("ocr: image too large")
	// ErrFormat: an image format the recognition does not read (HEIC, a broken file).
	ErrFormat = errors.New("ocr: unreadable image format")
	// ErrTimeout: a run took longer than Options.Timeout.
	ErrTimeout = errors.New("ocr: timed out")
	// ErrFailed: the command failed (its stderr is in the error, never shown to the user).
	ErrFailed = errors.New("ocr: command failed")
)

// Packages are the Debian packages the recognition needs.
const (
	PackageTesseract = "tesseract-ocr"
	PackageRussian   = "tesseract-ocr-rus"
	PackagePoppler   = "poppler-utils"
)

// Options tune an Engine; zero fields take the defaults.
type Options struct {
	// Tesseract and Pdftoppm are the commands, looked up in PATH (defaults "tesseract",
	// "pdftoppm").
	Tesseract, Pdftoppm string
	// Languages are tesseract's -l (default "rus+eng"); the first must be installed.
	Languages string
	// Timeout bounds each command's run (default 60s): one image, or one PDF's rendering.
	Timeout time.Duration
	// MaxPixels bounds an image before it is read (default 40,000,000: a 12-megapixel phone
	// photo three times over), MaxBytes a file (default 20 MB, Telegram's limit for bots).
	MaxPixels int
	MaxBytes  int
	// MaxPages bounds the pages of a scanned PDF read (default 10); the rest is said to be
	// left unread. PageSide bounds a rendered page's longer side in pixels (default 2400: A4 at
	// about 200 DPI).
	MaxPages, PageSide int
	// Slots are the runs at once across the process (default 1: tesseract takes a core and
	// some 100 MB per page).
	Slots int
	// TempDir is where the private folders of the runs are made (default os.TempDir()).
	TempDir string
}

func (o Options) withDefaults() Options {
	o.Tesseract = cmp.Or(o.Tesseract, "tesseract")
	o.Pdftoppm = cmp.Or(o.Pdftoppm, "pdftoppm")
	o.Languages = cmp.Or(o.Languages, "rus+eng")
	o.Timeout = cmp.Or(max(o.Timeout, 0), 60*time.Second)
	o.MaxPixels = cmp.Or(max(o.MaxPixels, 0), 40_000_000)
	o.MaxBytes = cmp.Or(max(o.MaxBytes, 0), 20<<20)
	o.MaxPages = cmp.Or(max(o.MaxPages, 0), 10)
	o.PageSide = cmp.Or(max(o.PageSide, 0), 2400)
	o.Slots = cmp.Or(max(o.Slots, 0), 1)
	return o
}

// Engine recognises images and scanned PDFs. It is safe for concurrent use.
type Engine struct {
	opts      Options
	tesseract string // absolute path, "" when missing
	pdftoppm  string
	missing   []string // Debian packages not installed
	slots     chan struct{}
}

// New finds the commands and the language data once; what is missing is reported by Missing
// and by every call.
func New(o Options) *Engine {
	o = o.withDefaults()
	e := &Engine{opts: o, slots: make(chan struct{}, o.Slots)}
	if p, err := exec.LookPath(o.Tesseract); err == nil {
		e.tesseract = p
	}
	if p, err := exec.LookPath(o.Pdftoppm); err == nil {
		e.pdftoppm = p
	}
	switch {
	case e.tesseract == "":
		e.missing = append(e.missing, PackageTesseract, PackageRussian)
	case !e.hasLanguage(strings.Split(o.Languages, "+")[0]):
		e.missing = append(e.missing, PackageRussian)
	}
	if e.pdftoppm == "" {
		e.missing = append(e.missing, PackagePoppler)
	}
	return e
}

// hasLanguage runs `tesseract --list-langs` (bounded) and looks for lang.
func (e *Engine) hasLanguage(lang string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.tesseract, "--list-langs")
	cmd.Env = cleanEnv()
	out, err := cmd.Output()
	if err != nil {
		return false
	}
	for _, l := range strings.Fields(string(out)) {
		if l == lang {
			return true
		}
	}
	return false
}

// Missing are the Debian packages to install for photos (tesseract-ocr, tesseract-ocr-rus) and
// for scanned PDFs (poppler-utils); empty when everything is there.
func (e *Engine) Missing() []string { return slices.Clone(e.missing) }

// CanImages reports whether photos can be read; CanPDF whether scanned PDFs can.
func (e *Engine) CanImages() bool {
	return e != nil && !slices.Contains(e.missing, PackageTesseract) && !slices.Contains(e.missing, PackageRussian)
}
func (e *Engine) CanPDF() bool { return e.CanImages() && e.pdftoppm != "" }

// Page is one recognised page.
type Page struct {
	Text string
	// Confidence is tesseract's mean word confidence, 0–100 (-1: no words).
	Confidence float64
	// Words is the number of words recognised.
	Words int
	// PeakRSS is the tesseract process's peak resident memory in bytes, when the OS reports it.
	PeakRSS int64
	// Width and Height are the image's size in pixels, as tesseract read it (0 when unknown).
	Width, Height int
	// Boxes are the recognised words where they stand, in reading order: what a reader of a
	// table (an act of reconciliation) needs to tell the columns apart.
	Boxes []Word
}

// Word is a recognised word: its box in pixels from the image's top left, tesseract's
// confidence (0–100) and the line it belongs to (Line is unique on the page).
type Word struct {
	Left, Top, Width, Height int
	Conf                     float64
	Line                     int
	Text                     string
}

// unavailable is ErrUnavailable naming the packages.
func (e *Engine) unavailable(pkgs []string) error {
	return &Error{Kind: ErrUnavailable, Packages: pkgs}
}

// Error is a recognition error with what the user is to be told.
type Error struct {
	Kind     error
	Packages []string // ErrUnavailable: what to install
	Detail   string   // for the log
}

func (e *Error) Error() string {
	s := e.Kind.Error()
	if len(e.Packages) > 0 {
		s += ": install " + strings.Join(e.Packages, ", ")
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *Error) Unwrap() error { return e.Kind }

// UserMessage is err in Russian for the user; "" for nil.
func UserMessage(err error) string {
	var oe *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &oe) && errors.Is(err, ErrUnavailable):
		return fmt.Sprintf("Распознавание фото и сканов на этом сервере не установлено: нужны пакеты %s. "+
			"Пока пришлите PDF с текстовым слоем или DOCX.", strings.Join(oe.Packages, ", "))
	case errors.Is(err, ErrTooLarge):
		return "Изображение слишком большое для распознавания. Пришлите снимок поменьше (до 40 мегапикселей) или только нужную страницу."
	case errors.Is(err, ErrFormat):
		return "Этот формат изображения я не читаю. Пришлите фото в JPEG или PNG (или скан в PDF)."
	case errors.Is(err, ErrTimeout):
		return "Распознавание заняло слишком много времени. Пришлите страницы по одной или снимок покрупнее и почётче."
	}
	return "Распознать текст не получилось. Попробуйте ещё раз или пришлите PDF с текстовым слоем."
}

// acquire takes a run slot (ctx bounds the wait).
func (e *Engine) acquire(ctx context.Context) (func(), error) {
	select {
	case e.slots <- struct{}{}:
		return func() { <-e.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Image recognises one image (JPEG, PNG, TIFF, BMP, GIF, WebP).
func (e *Engine) Image(ctx context.Context, data []byte) (Page, error) {
	if !e.CanImages() {
		return Page{}, e.unavailable(e.imageMissing())
	}
	if len(data) > e.opts.MaxBytes {
		return Page{}, &Error{Kind: ErrTooLarge, Detail: fmt.Sprintf("%d bytes", len(data))}
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Page{}, &Error{Kind: ErrFormat, Detail: err.Error()}
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > e.opts.MaxPixels || cfg.Width > 30000 || cfg.Height > 30000 {
		return Page{}, &Error{Kind: ErrTooLarge, Detail: fmt.Sprintf("%s %d×%d", format, cfg.Width, cfg.Height)}
	}
	release, err := e.acquire(ctx)
	if err != nil {
		return Page{}, err
	}
	defer release()
	dir, err := os.MkdirTemp(e.opts.TempDir, "finbot-ocr-")
	if err != nil {
		return Page{}, fmt.Errorf("ocr: temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "page."+format)
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return Page{}, fmt.Errorf("ocr: write image: %w", err)
	}
	return e.recognise(ctx, dir, in)
}

func (e *Engine) imageMissing() []string {
	var out []string
	for _, p := range e.missing {
		if p != PackagePoppler {
			out = append(out, p)
		}
	}
	return out
}

// PDF renders the pages of a scanned PDF (at most Options.MaxPages) and recognises each. more
// is true when the PDF has pages past the limit, left unread.
func (e *Engine) PDF(ctx context.Context, data []byte) (pages []Page, more bool, err error) {
	if !e.CanPDF() {
		return nil, false, e.unavailable(e.missing)
	}
	if len(data) > e.opts.MaxBytes {
		return nil, false, &Error{Kind: ErrTooLarge, Detail: fmt.Sprintf("%d bytes", len(data))}
	}
	release, err := e.acquire(ctx)
	if err != nil {
		return nil, false, err
	}
	dir, err := os.MkdirTemp(e.opts.TempDir, "finbot-ocr-")
	if err != nil {
		release()
		return nil, false, fmt.Errorf("ocr: temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "scan.pdf")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		release()
		return nil, false, fmt.Errorf("ocr: write pdf: %w", err)
	}
	// One page past the limit is rendered to tell that there is more.
	_, err = e.run(ctx, dir, e.pdftoppm, "-f", "1", "-l", strconv.Itoa(e.opts.MaxPages+1), "-scale-to", strconv.Itoa(e.opts.PageSide),
		"-gray", "-png", in, filepath.Join(dir, "p"))
	release()
	if err != nil {
		return nil, false, err
	}
	files, _ := filepath.Glob(filepath.Join(dir, "p-*.png"))
	slices.SortFunc(files, func(a, b string) int { return cmp.Compare(pageNo(a), pageNo(b)) })
	if len(files) > e.opts.MaxPages {
		files, more = files[:e.opts.MaxPages], true
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, false, fmt.Errorf("ocr: read page: %w", err)
		}
		os.Remove(f)
		p, err := e.Image(ctx, data)
		if err != nil {
			return nil, false, err
		}
		pages = append(pages, p)
	}
	return pages, more, nil
}

// pageNo is the page number of pdftoppm's output name «p-07.png».
func pageNo(name string) int {
	base := strings.TrimSuffix(filepath.Base(name), ".png")
	n, _ := strconv.Atoi(base[strings.LastIndexByte(base, '-')+1:])
	return n
}

// recognise runs tesseract over the image file in, its TSV on stdout.
func (e *Engine) recognise(ctx context.Context, dir, in string) (Page, error) {
	// --psm 6: one uniform block of text, so a table's row stays one line.
	out, err := e.run(ctx, dir, e.tesseract, in, "stdout", "-l", e.opts.Languages, "--psm", "6", "tsv")
	if err != nil {
		return Page{}, err
	}
	p := parseTSV(out.stdout)
	p.PeakRSS = out.peakRSS
	return p, nil
}

type runOut struct {
	stdout  []byte
	peakRSS int64
}

// maxOutput bounds what a command may print (a page's TSV is some 100 KB).
const maxOutput = 8 << 20

// run runs a command in dir with a clean environment, bounded by Options.Timeout and ctx.
func (e *Engine) run(parent context.Context, dir, name string, args ...string) (runOut, error) {
	ctx, cancel := context.WithTimeout(parent, e.opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, cleanEnv()
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr limited
	stdout.max, stderr.max = maxOutput, 4096
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var out runOut
	out.stdout = stdout.b.Bytes()
	if st := cmd.ProcessState; st != nil {
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok && ru != nil {
			out.peakRSS = int64(ru.Maxrss) * 1024 // kilobytes on Linux
		}
	}
	switch {
	case err != nil && parent.Err() != nil:
		return out, parent.Err()
	case err != nil && ctx.Err() != nil:
		return out, &Error{Kind: ErrTimeout, Detail: filepath.Base(name)}
	case err != nil:
		return out, &Error{Kind: ErrFailed, Detail: fmt.Sprintf("%s: %v: %s", filepath.Base(name), err, strings.TrimSpace(stderr.b.String()))}
	case stdout.over:
		return out, &Error{Kind: ErrFailed, Detail: filepath.Base(name) + ": output over the limit"}
	}
	return out, nil
}

// cleanEnv is the environment of the commands: nothing of the bot's (no token, no key), one
// OpenMP thread (the machine's cores are the bot's), a C locale.
func cleanEnv() []string {
	env := []string{"OMP_THREAD_LIMIT=1", "LC_ALL=C"}
	if p := os.Getenv("TESSDATA_PREFIX"); p != "" {
		env = append(env, "TESSDATA_PREFIX="+p)
	}
	return env
}

// limited is a buffer that keeps at most max bytes.
type limited struct {
	b    bytes.Buffer
	max  int
	over bool
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); len(p) > room {
		l.b.Write(p[:max(room, 0)])
		l.over = true
		return len(p), nil
	}
	return l.b.Write(p)
}

// parseTSV turns tesseract's TSV into the page's text, one line per recognised line, with the
// mean confidence of its words.
func parseTSV(tsv []byte) Page {
	var b strings.Builder
	var sum float64
	p := Page{Confidence: -1}
	lastKey := ""
	var line []string
	flush := func() {
		if len(line) > 0 {
			b.WriteString(strings.Join(line, " "))
			b.WriteByte('\n')
			line = line[:0]
		}
	}
	lines := 0
	for i, row := range strings.Split(string(tsv), "\n") {
		f := strings.Split(row, "\t")
		if i == 0 || len(f) < 12 {
			continue
		}
		box := [4]int{}
		for j := range box {
			box[j], _ = strconv.Atoi(f[6+j])
		}
		if f[0] == "1" && p.Width == 0 {
			p.Width, p.Height = box[2], box[3]
		}
		if f[0] != "5" {
			continue
		}
		word := strings.TrimSpace(f[11])
		if word == "" {
			continue
		}
		key := f[2] + "." + f[3] + "." + f[4]
		if key != lastKey {
			flush()
			lastKey = key
			lines++
		}
		line = append(line, word)
		c, err := strconv.ParseFloat(f[10], 64)
		if err == nil && c >= 0 {
			sum += c
			p.Words++
		}
		p.Boxes = append(p.Boxes, Word{Left: box[0], Top: box[1], Width: box[2], Height: box[3], Conf: c, Line: lines, Text: word})
	}
	flush()
	p.Text = b.String()
	if p.Words > 0 {
		p.Confidence = sum / float64(p.Words)
	}
	return p
}
