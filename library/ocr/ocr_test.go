package ocr_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/finbot/finbot/internal/testscans"
	"github.com/finbot/finbot/library/ocr"
)

var record = flag.Bool("record", false, "write the recognised text of the fixtures to ../primary/testdata")

// engine is the machine's OCR; the test is skipped without tesseract unless FINBOT_REQUIRE_OCR=1
// (the test command sets it, and installs the packages).
func engine(t testing.TB) *ocr.Engine {
	t.Helper()
	e := ocr.New(ocr.Options{})
	if m := e.Missing(); len(m) > 0 {
		if os.Getenv("FINBOT_REQUIRE_OCR") == "1" {
			t.Fatalf("OCR required (FINBOT_REQUIRE_OCR=1) but missing: %v", m)
		}
		t.Skipf("OCR not installed (%v): apt-get install tesseract-ocr tesseract-ocr-rus poppler-utils", m)
	}
	return e
}

// TestRecognise: each picture's text is recognised; -record keeps it for the parser's tests.
func TestRecognise(t *testing.T) {
	e := engine(t)
	ctx := context.Background()
	// The small receipt only (the agent's tests read the others); -record reads them all.
	wants := map[string]string{"receipt.png": "КАССОВЫЙ ЧЕК"}
	if *record {
		wants = map[string]string{
			"invoice.png": "СЧЁТ НА ОПЛАТУ", "upd.jpg": "Счёт-фактура", "act.png": "АКТ", "receipt.png": "КАССОВЫЙ ЧЕК",
			"album-1.jpg": "Бумага", "album-2.jpg": "Всего к оплате",
		}
	}
	for name, want := range wants {
		p, err := e.Image(ctx, testscans.Read(name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(p.Text, want) {
			t.Errorf("%s: no %q in\n%s", name, want, p.Text)
		}
		if p.Width == 0 || p.Height == 0 || len(p.Boxes) < p.Words || p.Boxes[len(p.Boxes)-1].Line < 2 {
			t.Errorf("%s: %d×%d, %d boxes of %d words", name, p.Width, p.Height, len(p.Boxes), p.Words)
		}
		if p.Confidence < 50 {
			t.Errorf("%s: confidence %.0f", name, p.Confidence)
		}
		if *record {
			os.WriteFile(filepath.Join("..", "primary", "testdata", strings.TrimSuffix(name, filepath.Ext(name))+".txt"), []byte(p.Text), 0o644)
		}
	}
}

// TestUnreadable: a dark blurry photo of nothing gives (almost) no words.
func TestUnreadable(t *testing.T) {
	e := engine(t)
	p, err := e.Image(context.Background(), testscans.Read("unreadable.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Words > 5 {
		t.Errorf("%d words in a picture of nothing: %q", p.Words, p.Text)
	}
}

// TestMissing: without tesseract in PATH the engine says which packages to install, in Russian.
func TestMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	e := ocr.New(ocr.Options{})
	if e.CanImages() || e.CanPDF() {
		t.Fatal("an engine without commands says it can read")
	}
	_, err := e.Image(context.Background(), testscans.Read("receipt.png"))
	if !errors.Is(err, ocr.ErrUnavailable) {
		t.Fatalf("err %v, want ErrUnavailable", err)
	}
	msg := ocr.UserMessage(err)
	for _, p := range []string{"tesseract-ocr", "tesseract-ocr-rus"} {
		if !strings.Contains(msg, p) {
			t.Errorf("message %q does not name %s", msg, p)
		}
	}
	if _, _, err := e.PDF(context.Background(), testscans.Read("scan.pdf")); !strings.Contains(ocr.UserMessage(err), "poppler-utils") {
		t.Errorf("scanned PDF without pdftoppm: %q", ocr.UserMessage(err))
	}
}

// TestLimits: an image over the pixel bound is refused before anything runs; a broken one is
// named as an unreadable format.
func TestLimits(t *testing.T) {
	e := ocr.New(ocr.Options{MaxPixels: 1000})
	if !e.CanImages() {
		t.Skip("OCR not installed")
	}
	if _, err := e.Image(context.Background(), testscans.Read("receipt.png")); !errors.Is(err, ocr.ErrTooLarge) {
		t.Errorf("err %v, want ErrTooLarge", err)
	}
	if _, err := e.Image(context.Background(), []byte("\x89PNG broken")); !errors.Is(err, ocr.ErrFormat) {
		t.Errorf("err %v, want ErrFormat", err)
	}
}
