package reconcile

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/testscans"
	"github.com/finbot/finbot/library/ocr"
)

var recordScan = flag.Bool("record", false, "recognise the act's photo again and keep its words in testdata/alfa_photo.words.json")

// fxPhotoWords are the words tesseract recognised on internal/testscans' reconciliation.png (the
// photo of ООО «Альфа»'s act, noise and a small skew): the comparison is tested on them without
// tesseract; TestScanActLive recognises the photo itself where tesseract is installed.
const fxPhotoWords = "testdata/alfa_photo.words.json"

// photoWant is the photo's one planted difference: sale № 28 for 658 570,14 (ours 685 570,14).
var photoWant = []found{{DiffSum, "СВ00-000028", "685570.14", "658570.14", "27000.00"}}

func comparePhoto(t *testing.T, pages []ocr.Page) {
	t.Helper()
	th, err := parseLayout(ScanLayout(pages), ParseOptions{Ours: ourOrgs, Now: testNow})
	if err != nil {
		t.Fatalf("parse the photo: %v (%s)", err, UserMessage(err))
	}
	if th.Theirs.Name != "ООО «Альфа»" || !th.From.Equal(q1From) || !th.To.Equal(q1To) || !th.HasOpening || !th.HasClosing {
		t.Errorf("read %q %s – %s, balances %v %v", th.Theirs.Name, date(th.From), date(th.To), th.HasOpening, th.HasClosing)
	}
	c, err := Compare(ourAlfa(t), th)
	if err != nil {
		t.Fatal(err)
	}
	var got []found
	for _, d := range c.Diffs {
		got = append(got, foundOf(d))
	}
	if diff := cmp.Diff(photoWant, got); diff != "" {
		t.Errorf("differences (-want +got):\n%s", diff)
	}
	if c.Gap.Decimal() != "27000.00" || len(th.Lines) != 9 {
		t.Errorf("gap %s, %d lines; want 27000.00, 9", c.Gap.Decimal(), len(th.Lines))
	}
}

// TestScanAct compares the photo's recognised words (kept) with ours: the planted sum is found
// with its amount, nothing else.
func TestScanAct(t *testing.T) {
	comparePhoto(t, photoWords(t))
}

// photoWords are the kept words of the act's photo (fxPhotoWords).
func photoWords(t *testing.T) []ocr.Page {
	t.Helper()
	b, err := os.ReadFile(fxPhotoWords)
	if err != nil {
		t.Fatalf("%v (go test -run TestScanActLive -record writes it)", err)
	}
	var pages []ocr.Page
	if err := json.Unmarshal(b, &pages); err != nil {
		t.Fatal(err)
	}
	return pages
}

// TestScanActLive recognises the photo with tesseract (skipped without it unless
// FINBOT_REQUIRE_OCR=1) and compares it; -record keeps the words for TestScanAct.
func TestScanActLive(t *testing.T) {
	e := ocr.New(ocr.Options{})
	if m := e.Missing(); len(m) > 0 {
		if os.Getenv("FINBOT_REQUIRE_OCR") == "1" {
			t.Fatalf("OCR required (FINBOT_REQUIRE_OCR=1) but missing: %v", m)
		}
		t.Skipf("OCR not installed (%v)", m)
	}
	p, err := e.Image(t.Context(), testscans.Read("reconciliation.png"))
	if err != nil {
		t.Fatal(err)
	}
	p.PeakRSS = 0
	if *recordScan {
		b, _ := json.MarshalIndent([]ocr.Page{p}, "", " ")
		if err := os.WriteFile(fxPhotoWords, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	comparePhoto(t, []ocr.Page{p})
}

// TestScanUnreadableAmount: an amount the recognition misread beyond mending is never guessed —
// the act is refused with the line named.
func TestScanUnreadableAmount(t *testing.T) {
	pages := photoWords(t)
	hit := false
	for i, w := range pages[0].Boxes {
		if w.Text == "658" {
			pages[0].Boxes[i].Text, hit = "6S8", true
		}
	}
	if !hit {
		t.Fatal("no «658» among the recognised words")
	}
	_, err := parseLayout(ScanLayout(pages), ParseOptions{Ours: ourOrgs, Now: testNow})
	if !errors.Is(err, ErrUnreadable) || !strings.Contains(UserMessage(err), "6S8 570,14") {
		t.Errorf("err = %v (%s)", err, UserMessage(err))
	}
}

// fakeOCR recognises any picture or scan as the kept words of the act's photo.
type fakeOCR struct {
	pages []ocr.Page
	calls int
}

func (f *fakeOCR) Image(context.Context, []byte) (ocr.Page, error) { f.calls++; return f.pages[0], nil }
func (f *fakeOCR) PDF(context.Context, []byte) ([]ocr.Page, bool, error) {
	f.calls++
	return f.pages, false, nil
}

// TestComparerUploadPhotoAndWord: a photo of an act (and a scanned PDF) goes through the OCR to
// the comparison, a DOCX act straight to it; a photo of anything else is left to the documents.
func TestComparerUploadPhotoAndWord(t *testing.T) {
	pages := photoWords(t)
	photo := testscans.Read("reconciliation.png")
	tests := []struct {
		name, file string
		data       []byte
		ocr        []ocr.Page
		head       string
	}{
		{"photo", "act.png", photo, pages, "**Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: 1 расхождение** [1][2]"},
		{"scanned pdf", "act.pdf", testscans.ScanPDF(photo), pages, "**Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: 1 расхождение** [1][2]"},
		{"word", "act.docx", readFixture(t, fxDOCX), nil, "**Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: 1 расхождение** [1][2]"},
		{"word identical", "act.docx", readFixture(t, fxDOCXIdentical), nil, "**Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: расхождений нет** [1][2]"},
		{"another photo", "receipt.png", testscans.Read("receipt.png"), []ocr.Page{{Boxes: []ocr.Word{{Text: "КАССОВЫЙ", Line: 1, Height: 20}, {Text: "ЧЕК", Left: 200, Line: 1, Height: 20}}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeOCR{pages: tt.ocr}
			c := NewComparer(demoActs(t), history.NewMemoryResults(0, 0), ComparerOptions{
				Access:        func(int64, int64) bool { return true },
				Organizations: func(context.Context, int64, int64) []Party { return ourOrgs },
				Now:           testNow, OCR: f,
			})
			rep, ok, err := c.Received(t.Context(), asker, "u7", "doc1", tt.file, tt.data, true)
			if err != nil {
				t.Fatal(err)
			}
			if ok != (tt.head != "") || !strings.HasPrefix(rep.Text, tt.head) {
				t.Fatalf("ok %v, text:\n%s", ok, rep.Text)
			}
			if (f.calls > 0) != (tt.ocr != nil) {
				t.Errorf("OCR called %d times", f.calls)
			}
			if scanned := strings.Contains(rep.Text, "прочитан с фото"); ok && scanned != (tt.ocr != nil) {
				t.Errorf("the photo's note: %v\n%s", scanned, rep.Text)
			}
		})
	}
}
