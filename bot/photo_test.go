package bot

import (
	"os"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/testscans"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/ocr"
)

// photoUpdate is a photo message as Telegram sends it: three sizes, the largest last but one
// (the order is not to be relied on), in an album when group is set.
func photoUpdate(chatID int64, fileID, group string, size int) tgbotapi.Update {
	return tgbotapi.Update{Message: &tgbotapi.Message{
		MessageID: 41, From: &tgbotapi.User{ID: chatID, FirstName: "U"}, Chat: &tgbotapi.Chat{ID: chatID, Type: "private"}, Date: 1,
		MediaGroupID: group,
		Photo: []tgbotapi.PhotoSize{
			{FileID: fileID + "-s", Width: 90, Height: 60, FileSize: 900},
			{FileID: fileID, Width: 1800, Height: 1200, FileSize: size},
			{FileID: fileID + "-m", Width: 320, Height: 213, FileSize: 9000},
		},
	}}
}

// TestPhotoAlbumThroughBotAPI: an album of two photos of a счёт sent in Telegram — each photo's
// largest size fetched through getFile, recognised, and the second answered with the whole
// document (two pages, its totals checked).
func TestPhotoAlbumThroughBotAPI(t *testing.T) {
	engine := ocr.New(ocr.Options{})
	if m := engine.Missing(); len(m) > 0 {
		if os.Getenv("FINBOT_REQUIRE_OCR") == "1" {
			t.Fatalf("OCR required (FINBOT_REQUIRE_OCR=1) but missing: %v", m)
		}
		t.Skipf("OCR not installed: %v", m)
	}
	h := history.NewMemory(100, history.Limits{MaxTurns: 20, MaxChars: 8000, TTL: time.Hour})
	a := agent.New(agent.Deps{History: h, Library: library.New(docstore.NewMemory(), nil, library.Options{}), OCR: engine}, agent.Options{})
	f := newFakeAPI(t)
	p1, p2 := testscans.Read("album-1.jpg"), testscans.Read("album-2.jpg")
	f.AddFile("ph1", p1)
	f.AddFile("ph2", p2)
	startBot(t, f, a, Options{})
	f.Push(photoUpdate(60, "ph1", "album-7", len(p1)))
	f.Push(photoUpdate(60, "ph2", "album-7", len(p2)))
	sent := f.WaitSent(t, 2)
	if !strings.Contains(sent[0].Text, "Распознал и сохранил «Счёт на оплату № 28 от 02.03.2026") {
		t.Errorf("first photo: %q", sent[0].Text)
	}
	second := strings.ReplaceAll(sent[1].Text, "\u00a0", " ")
	for _, want := range []string{"JPG, 2 стр.", "✓ Всего 800 373,13 = 656 043,55 + НДС 144 329,58"} {
		if !strings.Contains(second, want) {
			t.Errorf("second photo: no %q in %q", want, second)
		}
	}
	if f.Count("getFile") != 2 {
		t.Errorf("getFile %d times, want 2 (the largest size of each photo)", f.Count("getFile"))
	}
}
