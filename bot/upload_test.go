package bot

import (
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/testdocs"
	"github.com/finbot/finbot/library"
)

func docsAgent() *agent.Agent {
	h := history.NewMemory(100, history.Limits{MaxTurns: 20, MaxChars: 8000, TTL: time.Hour})
	return agent.New(agent.Deps{History: h, Library: library.New(docstore.NewMemory(), nil, library.Options{})}, agent.Options{})
}

func contractPDF() []byte {
	return testdocs.PDF("Договор поставки № П-15/2025",
		testdocs.Section{Heading: "1. Предмет договора", Body: "ООО «Техснаб» поставляет товар на сумму 1 250 000,00 руб. Оплата в течение 20 банковских дней."},
		testdocs.Section{Heading: "5. Ответственность сторон", Body: "За просрочку поставки Поставщик уплачивает пени 0,1% за каждый день просрочки."},
	)
}

func documentUpdate(chatID, userID int64, chatType, fileID, name string, size int, caption string, captionEntities []tgbotapi.MessageEntity) tgbotapi.Update {
	return tgbotapi.Update{Message: &tgbotapi.Message{
		MessageID: 40, From: &tgbotapi.User{ID: userID, FirstName: "U"}, Chat: &tgbotapi.Chat{ID: chatID, Type: chatType}, Date: 1,
		Document: &tgbotapi.Document{FileID: fileID, FileUniqueID: "u" + fileID, FileName: name, FileSize: size},
		Caption:  caption, CaptionEntities: captionEntities,
	}}
}

// A file sent in a private chat is downloaded through getFile and the file URL, stored, and
// acknowledged with a receipt whose buttons select it; replying to the receipt asks about it.
func TestUploadThroughBotAPI(t *testing.T) {
	f := newFakeAPI(t)
	pdf := contractPDF()
	f.AddFile("doc1", pdf)
	b := startBot(t, f, docsAgent(), Options{})
	f.Push(documentUpdate(50, 50, "private", "doc1", "dogovor.pdf", len(pdf), "", nil))
	sent := f.WaitSent(t, 1)
	receipt := sent[0]
	if !strings.Contains(receipt.Text, "Загрузил «Договор поставки № П-15/2025»") || !strings.Contains(receipt.Text, "PDF, 2 стр.") {
		t.Fatalf("receipt = %q", receipt.Text)
	}
	if !strings.Contains(receipt.Markup, `"callback_data":"d:s:`) {
		t.Errorf("receipt keyboard = %s, want a select button", receipt.Markup)
	}
	if f.Count("getFile") != 1 || f.Downloads() != 1 {
		t.Errorf("getFile %d, downloads %d; want 1 and 1", f.Count("getFile"), f.Downloads())
	}
	settle(t, f, b)

	// The fake numbers the messages of each chat from 1001 on: the receipt is message 1001.
	reply := privateText(50, "какие пени за просрочку поставки?")
	reply.Message.ReplyToMessage = &tgbotapi.Message{MessageID: 1001, From: &tgbotapi.User{ID: 777, IsBot: true}, Chat: reply.Message.Chat}
	f.Push(reply)
	sent = f.WaitSent(t, 2)
	if !strings.Contains(sent[1].Text, "Выбрал документ") || !strings.Contains(sent[1].Text, "0,1%") {
		t.Errorf("reply to the receipt answered %q", sent[1].Text)
	}
}

// A caption is a question about the file it came with, answered in the receipt's message — in
// a group, one message replying to the upload; a reply to it asks about the file again.
func TestUploadWithCaptionAnswersIt(t *testing.T) {
	f := newFakeAPI(t)
	pdf := contractPDF()
	f.AddFile("doc2", pdf)
	b := startBot(t, f, docsAgent(), Options{})
	f.Push(documentUpdate(51, 51, "private", "doc2", "dogovor.pdf", len(pdf), "какой срок оплаты?", nil))
	sent := f.WaitSent(t, 1)
	if !strings.Contains(sent[0].Text, "Загрузил") || !strings.Contains(sent[0].Text, "20 банковских дней") {
		t.Errorf("reply %q: want the receipt and the answer in one message", sent[0].Text)
	}
	mention := "@finbot_test_bot какой срок оплаты?"
	f.Push(documentUpdate(-100501, 55, "supergroup", "doc2", "dogovor.pdf", len(pdf), mention,
		[]tgbotapi.MessageEntity{{Type: "mention", Offset: 0, Length: len("@finbot_test_bot")}}))
	sent = f.WaitSent(t, 2)
	settle(t, f, b)
	if len(f.Sent()) != 2 || !strings.Contains(sent[1].Text, "Загрузил") || !strings.Contains(sent[1].Text, "20 банковских дней") || sent[1].ReplyTo != "40" {
		t.Errorf("group upload: %d messages, the last %q replying to %q", len(f.Sent()), sent[1].Text, sent[1].ReplyTo)
	}
}

// Files over Telegram's 20 MB bot limit are refused before any download; a failed download
// gets a clear message; a file in a group that does not address the bot is ignored.
func TestUploadRefusalsAndGroups(t *testing.T) {
	f := newFakeAPI(t)
	b := startBot(t, f, docsAgent(), Options{})
	f.Push(documentUpdate(52, 52, "private", "huge", "big.pdf", 25<<20, "", nil))
	sent := f.WaitSent(t, 1)
	if !strings.Contains(sent[0].Text, "больше 20 МБ") || f.Count("getFile") != 0 {
		t.Errorf("oversized file: %q, getFile called %d times", sent[0].Text, f.Count("getFile"))
	}
	f.Push(documentUpdate(53, 53, "private", "missing", "lost.pdf", 1000, "", nil))
	sent = f.WaitSent(t, 2)
	if !strings.Contains(sent[1].Text, "Не получилось скачать") || strings.Contains(sent[1].Text, testToken) {
		t.Errorf("failed download: %q", sent[1].Text)
	}

	g1 := contractPDF()
	f.AddFile("g1", g1)
	f.Push(documentUpdate(-100500, 54, "supergroup", "g1", "dogovor.pdf", len(g1), "", nil))
	settle(t, f, b)
	if got := len(f.WaitSent(t, 2)); got != 2 || f.Count("getFile") != 1 {
		t.Errorf("a group file not addressed to the bot was taken: %d messages, getFile %d", got, f.Count("getFile"))
	}
	mention := "@finbot_test_bot сохрани"
	f.Push(documentUpdate(-100500, 54, "supergroup", "g1", "dogovor.pdf", len(g1), mention,
		[]tgbotapi.MessageEntity{{Type: "mention", Offset: 0, Length: len("@finbot_test_bot")}}))
	sent = f.WaitSent(t, 3)
	if !strings.Contains(sent[2].Text, "Загрузил") || sent[2].ReplyTo != "40" {
		t.Errorf("addressed group file: %q (reply to %q)", sent[2].Text, sent[2].ReplyTo)
	}
}
