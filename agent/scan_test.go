package agent

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/testscans"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/ocr"
	"github.com/finbot/finbot/ru"
)

var (
	ocrOnce   sync.Once
	ocrEngine *ocr.Engine
)

// needOCR is the machine's OCR; the test is skipped without tesseract unless
// FINBOT_REQUIRE_OCR=1 (the test command sets it, and installs the packages).
func needOCR(t *testing.T) *ocr.Engine {
	t.Helper()
	ocrOnce.Do(func() { ocrEngine = ocr.New(ocr.Options{}) })
	if m := ocrEngine.Missing(); len(m) > 0 {
		if os.Getenv("FINBOT_REQUIRE_OCR") == "1" {
			t.Fatalf("OCR required (FINBOT_REQUIRE_OCR=1) but missing: %v", m)
		}
		t.Skipf("OCR not installed (%v): apt-get install tesseract-ocr tesseract-ocr-rus poppler-utils", m)
	}
	return ocrEngine
}

// scanAgent is an agent over the default demo ledger (as of 30.04.2026) with OCR, its library
// returned for a look at what was kept.
func scanAgent(t *testing.T, engine *ocr.Engine) (*Agent, *library.Library) {
	t.Helper()
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	d := Deps{History: history.NewMemory(100, history.Limits{}), Ledger: demoLane(t), Acts: laneActs(t), Library: lib}
	if engine != nil {
		d.OCR = engine
	}
	now := func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }
	return New(d, Options{LedgerAccess: everyone, Now: now}), lib
}

func plain(s string) string { return strings.ReplaceAll(s, "\u00a0", " ") }

func wantAll(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s: no %q in\n%s", what, w, text)
		}
	}
}

// TestScanInvoice: a photo of a счёт of a known supplier, every figure right, posted in 1C:
// the fields, the checks all ✓, the 1C match (the counterparty, the posting, the payment), and
// the recognised text kept in the sender's documents for later questions.
func TestScanInvoice(t *testing.T) {
	a, lib := scanAgent(t, needOCR(t))
	me := Request{UserID: 31, ChatID: 31}
	rc := upload(t, a, me, "photo.png", testscans.Read("invoice.png"))
	text := plain(rc.Text)
	wantAll(t, "invoice", text,
		"📷 Распознал и сохранил «Счёт на оплату № 28 от 02.03.2026",
		"ИНН 2196164974, КПП 275001001", // the name as OCR read it: «Bymara» on this picture
		"Покупатель: ООО «Северный ветер», ИНН 1031699119, КПП 776601001",
		"2. Доставка и разгрузка — 1 усл × 481 043,55 = 481 043,55, НДС 22 % 105 829,58",
		"Итого: без НДС 656 043,55 · НДС 22 % 144 329,58 · всего 800 373,13",
		"✓ НДС в строках посчитан верно", "✓ Всего 800 373,13 = 656 043,55 + НДС 144 329,58",
		"✓ Контрагент в 1С: ООО «Бумага и Ко» (ИНН 2196164974)",
		"✓ Проведён: поступление № 28 от 02.03.2026 на 800 373,13 ₽",
		"✗ Не оплачен: долг перед ООО «Бумага и Ко» на 30.04.2026 — 2 021 365,55 ₽")
	if checks, _, _ := strings.Cut(text, "**1С**"); strings.Contains(checks, "✗") {
		t.Errorf("a right invoice with a ✗:\n%s", text)
	}
	if rc.Receipt == "" {
		t.Fatal("no receipt: the document was not kept")
	}
	docs, err := lib.List(t.Context(), api.Owner(me))
	if err != nil || len(docs) != 1 || docs[0].Format != "png" {
		t.Fatalf("kept %+v, %v", docs, err)
	}
	full, err := lib.Full(t.Context(), api.Owner(me), []string{docs[0].ID})
	if err != nil || len(full) != 1 || !strings.Contains(full[0].Text, "Доставка и разгрузка") {
		t.Errorf("the recognised text is not kept: %v %+v", err, full)
	}
}

// TestScanWrongVAT: a УПД with a wrong VAT in line 2 — named with its difference, the total's
// VAT too; the seller is known to 1C, the document is not posted.
func TestScanWrongVAT(t *testing.T) {
	a, _ := scanAgent(t, needOCR(t))
	rc := upload(t, a, Request{UserID: 32, ChatID: 32}, "upd.jpg", testscans.Read("upd.jpg"))
	wantAll(t, "upd", plain(rc.Text),
		"**УПД** № 117 от 10.04.2026",
		"✗ НДС в строке 2: 1 830,00 ≠ 22 % от 8 400,00 = 1 848,00",
		"✗ НДС итого: 4 250,00 ≠ 22 % от 19 400,00 = 4 268,00",
		"✓ Контрагент в 1С: ООО «Техснаб» (ИНН 6900523822)",
		"✗ Поступления на 23 650,00 ₽ около 10.04.2026 в 1С нет — документ не проведён")
}

// TestScanWrongINN: an акт whose seller's ИНН fails its check digit: named, and 1C is not asked
// by a number that cannot be an ИНН.
func TestScanWrongINN(t *testing.T) {
	a, _ := scanAgent(t, needOCR(t))
	rc := upload(t, a, Request{UserID: 33, ChatID: 33}, "act.png", testscans.Read("act.png"))
	wantAll(t, "act", plain(rc.Text),
		"**Акт** № 15 от 31.03.2026",
		"✗ ИНН продавца 7701234568: контрольная цифра не сходится — по первым цифрам должно быть …0, а не …8",
		"1. Консультационные услуги — 1 усл × 45 000,00 = 45 000,00, без НДС",
		"✗ ИНН продавца не сходится по контрольной цифре — в 1С по нему не искал")
}

// TestScanReceiptAndUnreadable: a till receipt is named as such (no invoice checks, no 1C); a
// picture of nothing is said to be unreadable and is not kept.
func TestScanReceiptAndUnreadable(t *testing.T) {
	a, lib := scanAgent(t, needOCR(t))
	me := Request{UserID: 34, ChatID: 34}
	rc := upload(t, a, me, "check.png", testscans.Read("receipt.png"))
	wantAll(t, "receipt", plain(rc.Text), "**Это кассовый чек**", "Итог: 1 250,00", "ФН: 9999078900012345", "ФД: 12345", "ФП: 1234567890")
	if strings.Contains(rc.Text, "**1С**") || strings.Contains(rc.Text, "Проверка") {
		t.Errorf("a receipt checked as an invoice:\n%s", rc.Text)
	}
	rc = upload(t, a, me, "dark.jpg", testscans.Read("unreadable.jpg"))
	wantAll(t, "unreadable", plain(rc.Text), "Не смог разобрать текст на «dark[.]jpg»")
	if rc.Receipt != "" {
		t.Error("an unreadable picture was kept")
	}
	if docs, _ := lib.List(t.Context(), api.Owner(me)); len(docs) != 1 {
		t.Errorf("%d documents kept, want the receipt only", len(docs))
	}
}

// TestScanPDFAndAlbum: a scanned PDF of two pages and an album of two photos are each one
// document, its pages in order: the invoice read whole across them.
func TestScanPDFAndAlbum(t *testing.T) {
	a, lib := scanAgent(t, needOCR(t))
	me := Request{UserID: 35, ChatID: 35}
	pdf := testscans.Read("scan.pdf")
	rc := upload(t, a, me, "scan.pdf", pdf)
	wantAll(t, "scan.pdf", plain(rc.Text), "«Счёт на оплату № 28 от 02.03.2026, ООО «Бумага и Ко»» (PDF, 2 стр.",
		"✓ Всего 800 373,13 = 656 043,55 + НДС 144 329,58", "✓ Проведён: поступление № 28 от 02.03.2026")

	them := Request{UserID: 36, ChatID: 36}
	ans, err := a.Upload(t.Context(), them, File{Name: "photo.jpg", Data: testscans.Read("album-1.jpg"), Album: [][]byte{testscans.Read("album-2.jpg")}})
	if err != nil {
		t.Fatal(err)
	}
	wantAll(t, "album", plain(unescape(ans.Text)), "«Счёт на оплату № 28 от 02.03.2026, ООО «Бумага и Ко»» (JPG, 2 стр.",
		"✓ Итог без НДС 656 043,55 = сумме строк", "✓ Проведён: поступление № 28 от 02.03.2026")
	docs, _ := lib.List(t.Context(), api.Owner(them))
	if len(docs) != 1 || docs[0].Pages != 2 {
		t.Fatalf("album kept as %+v", docs)
	}

	// As Telegram sends an album: one message per photo, one media_group_id; the second photo
	// adds its page to the document the first made.
	tg := Request{UserID: 38, ChatID: 38}
	first, err := a.Upload(t.Context(), tg, File{Name: "photo.jpg", Data: testscans.Read("album-1.jpg"), MediaGroup: "1357"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.Upload(t.Context(), tg, File{Name: "photo.jpg", Data: testscans.Read("album-2.jpg"), MediaGroup: "1357"})
	if err != nil {
		t.Fatal(err)
	}
	wantAll(t, "album, first photo", plain(unescape(first.Text)), "Распознал и сохранил «Счёт на оплату № 28 от 02.03.2026")
	wantAll(t, "album, second photo", plain(unescape(second.Text)), "(JPG, 2 стр.", "✓ Всего 800 373,13 = 656 043,55 + НДС 144 329,58")
	docs, _ = lib.List(t.Context(), api.Owner(tg))
	if len(docs) != 1 || docs[0].Pages != 2 || docs[0].ID != second.Receipt {
		t.Fatalf("a Telegram album kept as %+v", docs)
	}
}

// TestScanWithoutTesseract: with no tesseract in PATH a photo is answered with the packages to
// install, in Russian; a text PDF still uploads as before.
func TestScanWithoutTesseract(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	engine := ocr.New(ocr.Options{})
	a, _ := scanAgent(t, engine)
	rc := upload(t, a, Request{UserID: 37, ChatID: 37}, "photo.png", testscans.Read("receipt.png"))
	wantAll(t, "no tesseract", rc.Text, "Распознавание фото и сканов на этом сервере не установлено: нужны пакеты tesseract-ocr, tesseract-ocr-rus")
	// Nor any engine at all.
	a, _ = scanAgent(t, nil)
	rc = upload(t, a, Request{UserID: 37, ChatID: 37}, "photo.png", testscans.Read("receipt.png"))
	wantAll(t, "no engine", rc.Text, "tesseract-ocr, tesseract-ocr-rus, poppler-utils")
}

// TestScanReconciliationAct: a photo of an act of reconciliation is kept, said to be one, and
// left to the comparison with 1C — never read as a primary document with fields and checks.
func TestScanReconciliationAct(t *testing.T) {
	a, _ := scanAgent(t, needOCR(t))
	rc := upload(t, a, Request{UserID: 32, ChatID: 32}, "sverka.png", testscans.Read("reconciliation.png"))
	text := plain(rc.Text)
	wantAll(t, "act", text, "Акт сверки", "Это акт сверки взаиморасчётов")
	for _, no := range []string{"**Проверка**", "Продавец:", "Контрагент в 1С"} {
		if strings.Contains(text, no) {
			t.Errorf("an act of reconciliation read as a primary document (%q):\n%s", no, text)
		}
	}
	if rc.Receipt == "" {
		t.Error("no receipt: the act was not kept")
	}
}
