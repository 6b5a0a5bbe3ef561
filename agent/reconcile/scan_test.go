package reconcile

import (
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

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
	b, err := os.ReadFile(fxPhotoWords)
	if err != nil {
		t.Fatalf("%v (go test -run TestScanActLive -record writes it)", err)
	}
	var pages []ocr.Page
	if err := json.Unmarshal(b, &pages); err != nil {
		t.Fatal(err)
	}
	comparePhoto(t, pages)
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
